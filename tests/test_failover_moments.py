"""Failover that always finishes: the party's first process killed at several moments.

Two `rummy serve` processes on one PostgreSQL and one Redis; `rummy party new` on the first
and two `rummy join` on the second, each program given both addresses; the first process is
SIGKILLed at a moment of the party's life. Every program finishes, with the same record.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_programs import Program, Programs
from redis_service import redis_server
from server_process import ServerProcess
from test_cluster_processes import programs, site
from test_party_cli import TWO_DEALS

__all__ = ["programs", "redis_server", "site"]  # fixtures: the two processes, as there

pytestmark = pytest.mark.timeout(300)


KILL_MOMENTS = ("lobby", "joining", "first_action", "between_deals")
"""When the first process dies: with the party in its lobby (the host alone), while the guests
join at the second, at the host's first action at the table (owned by the first), and when
the first deal is over (the next deal is dealt by the new owner)."""


def _kill_at(moment: str, wanted: str, first: ServerProcess, host: Program) -> None:
    if moment != wanted:
        return
    if moment == "first_action":
        host.wait_for(lambda line: "acked" in line)
    elif moment == "between_deals":
        host.wait_for(lambda line: "deal" in line)
    first.kill()


@pytest.mark.parametrize("moment", KILL_MOMENTS)
def test_the_first_process_killed_the_party_still_finishes_with_one_record(
    site: tuple[ServerProcess, ServerProcess], programs: Programs, tmp_path: Path, moment: str
) -> None:
    first, second = site
    host = programs.start(
        *("party", "new", "--server", first.url, "--server", second.url, "--players", "3"),
        *("--bot", "basic", "--name", "Host", "--json", *TWO_DEALS),
        *("--record", str(tmp_path / "Host.json")),
    )
    code = host.wait_for(lambda line: True)["code"]
    _kill_at(moment, "lobby", first, host)
    guests = [
        programs.start(
            *("join", code, "--server", second.url, "--server", first.url),
            *("--bot", "basic", "--name", name, "--json"),
            *("--seat-file", str(tmp_path / f"{name}-seat.json")),
            *("--record", str(tmp_path / f"{name}.json")),
        )
        for name in ("Guest", "Other")
    ]
    for wanted in KILL_MOMENTS[1:]:
        _kill_at(moment, wanted, first, host)
    ends = [program.finish() for program in (host, *guests)]  # each within PROGRAM_S
    assert len({end["table"] for end in ends}) == 1
    assert len({json.dumps(end["scores"]) for end in ends}) == 1
    names = ("Host", "Guest", "Other")
    records = [json.loads((tmp_path / f"{name}.json").read_text()) for name in names]
    assert records[0] == records[1] == records[2]
    assert len(records[0]["deals"]) == 2
