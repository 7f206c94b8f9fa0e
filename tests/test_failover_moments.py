"""Failover that always finishes: the party's first process killed at several moments.

Two `rummy serve` processes on one PostgreSQL and one Redis; `rummy party new` on the first
and two `rummy join` on the second, each program given both addresses; the first process is
SIGKILLed at a moment of the party's life. Every program finishes, with the same record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_programs import Program, Programs
from redis_service import RedisService, redis_server
from rummykit.server.run import free_port
from server_process import ServerProcess
from test_party_cli import TWO_DEALS

__all__ = ["redis_server"]

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def site(
    tmp_path: Path, postgres_url: str, redis_server: RedisService
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    shared = ("--database-url", postgres_url, "--redis-url", redis_server.url)
    first = ServerProcess(tmp_path / "a.sqlite3", free_port(), tmp_path / "a.log", *shared)
    second = ServerProcess(tmp_path / "b.sqlite3", free_port(), tmp_path / "b.log", *shared)
    with first, second:
        first.start()
        second.start()
        yield first, second


@pytest.fixture
def programs(tmp_path: Path) -> Iterator[Programs]:
    started = Programs(tmp_path)
    yield started
    started.stop_all()


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
