"""``rummy party new`` and ``rummy join`` over a live server process, as programs use them.

Each test runs ``rummy serve`` as a process of its own (``ServerProcess``) and the two
commands as processes with ``--json``: the host creates a party of three with one computer
player, one ``rummy join`` takes the third seat, and they play to the game's end at pace 0.
Every action a program saw the table apply (its ``acked`` lines) must be in the finished
game's record at the version it made; the record must replay with ``rummy replay``.
``rummy join`` killed with SIGKILL mid-game and run again returns to its seat; the server
killed with SIGKILL mid-game and started again on the same port and store: both programs
reconnect, finish, and no acknowledged action is lost.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_programs import TWO_DEALS, Program, check_acknowledged
from ports import free_port
from rummykit.cli import main
from rummykit.protocol.facts import MAX_PARTY_SEATS
from rummykit.server.tables.new_table import COMPUTER_NAMES
from server_process import ServerProcess

pytestmark = pytest.mark.heavy

SHORT_GAME = ["--rule", "target=1", "--rule", "deals=2"]
"""Over once someone scores (two deals at most): a few seconds at pace 0, where each program
sends at most 9 intents a second."""


@pytest.fixture
def programs() -> Iterator[list[Program]]:
    started: list[Program] = []
    yield started
    for program in started:
        program.stop()


def _start(programs: list[Program], tmp_path: Path, *arguments: str) -> Program:
    program = Program(list(arguments), tmp_path / "programs.log")
    programs.append(program)
    return program


def _host(programs: list[Program], tmp_path: Path, server: ServerProcess, *rules: str) -> Program:
    return _start(
        programs,
        tmp_path,
        *("party", "new", "--server", server.url, "--players", "3", "--cpu", "basic"),
        *("--bot", "basic", "--name", "Host", "--pace", "0", "--json"),
        *("--record", str(tmp_path / "host.json"), *rules),
    )


def _join(programs: list[Program], tmp_path: Path, server: ServerProcess, code: str) -> Program:
    return _start(
        programs,
        tmp_path,
        *("join", code, "--server", server.url, "--bot", "basic", "--name", "Guest", "--json"),
        *("--seat-file", str(tmp_path / "guest-seat.json")),
        *("--record", str(tmp_path / "guest.json")),
    )


def _post(server: ServerProcess, path: str, body: dict[str, Any]) -> dict[str, Any]:
    status, _, answer = server.post(path, json.dumps(body).encode())
    assert status == 200, answer
    data: dict[str, Any] = json.loads(answer)
    return data


def _replays(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


@pytest.mark.timeout(90)
def test_a_party_and_a_join_play_a_three_seat_game_to_its_end_and_its_record_replays(
    server: ServerProcess,
    programs: list[Program],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    host = _host(programs, tmp_path, server, *SHORT_GAME)
    invite = host.wait_for(lambda line: True)
    assert set(invite) == {"code", "url"}
    # the link: the code and its key (128 bits); the join below goes by it, past the limit
    assert re.fullmatch(
        rf"{re.escape(server.url)}/#/party/{invite['code']}\.[A-Za-z0-9_-]{{22}}", invite["url"]
    )
    guest = _join(programs, tmp_path, server, invite["url"])  # by the link
    hosted, joined = host.finish(), guest.finish()
    assert hosted["table"] == joined["table"]
    assert hosted["seat"] == 0 and joined["seat"] in (1, 2)
    assert hosted["scores"] == joined["scores"] and len(hosted["scores"]) == 3
    assert hosted["rejoined"] is joined["rejoined"] is False
    record = json.loads((tmp_path / "guest.json").read_text())
    assert record == json.loads((tmp_path / "host.json").read_text())
    assert record["players"][3 - joined["seat"]] in COMPUTER_NAMES  # the computer player
    assert check_acknowledged(record, host, guest) > 0
    replayed = _replays(tmp_path / "guest.json", capsys)
    assert replayed["scores"] == joined["scores"] and replayed["winner"] == joined["winner"]
    # the party has started: one more program cannot join it
    capsys.readouterr()
    late = ["join", invite["code"], "--server", server.url, "--bot", "basic"]
    assert main([*late, "--seat-file", str(tmp_path / "late.json")]) == 1
    assert "started" in capsys.readouterr().err


@pytest.mark.timeout(90)
def test_a_join_killed_mid_game_and_run_again_returns_to_its_seat(
    server: ServerProcess, programs: list[Program], tmp_path: Path
) -> None:
    host = _host(programs, tmp_path, server, *TWO_DEALS)
    code = host.wait_for(lambda line: True)["code"]
    first = _join(programs, tmp_path, server, code)
    seat = first.wait_for(lambda line: "acked" in line)["seat"]
    first.kill()
    again = _join(programs, tmp_path, server, code)
    last = again.finish()
    assert last["rejoined"] is True and last["seat"] == seat
    assert any("acked" in line for line in again.lines)  # it played on after its return
    hosted = host.finish()
    assert hosted["table"] == last["table"] and hosted["scores"] == last["scores"]
    record = json.loads((tmp_path / "guest.json").read_text())
    assert len(record["deals"]) == 2
    assert check_acknowledged(record, host, first, again) > 0


@pytest.mark.timeout(90)
def test_the_server_killed_mid_game_and_restarted_loses_no_acknowledged_action(
    server: ServerProcess, programs: list[Program], tmp_path: Path
) -> None:
    host = _host(programs, tmp_path, server, *TWO_DEALS)
    code = host.wait_for(lambda line: True)["code"]
    guest = _join(programs, tmp_path, server, code)
    guest.wait_for(lambda line: "acked" in line)
    host.wait_for(lambda line: "acked" in line)
    server.kill()
    acknowledged_before = sum("acked" in line for line in [*host.lines, *guest.lines])
    server.start()
    hosted, joined = host.finish(), guest.finish()
    assert hosted["scores"] == joined["scores"]
    record = json.loads((tmp_path / "guest.json").read_text())
    assert len(record["deals"]) == 2
    assert check_acknowledged(record, host, guest) > acknowledged_before  # and played on


@pytest.mark.timeout(90)
def test_programs_given_a_dead_address_first_move_on_to_the_next_and_play(
    server: ServerProcess, programs: list[Program], tmp_path: Path
) -> None:
    """Two addresses for one site, the first of them serving nothing: both the party's host
    and its guest move on to the second, and play the game to its end there."""
    dead = f"http://127.0.0.1:{free_port()}"
    host = _start(
        programs,
        tmp_path,
        *("party", "new", "--server", dead, "--server", server.url, "--players", "2"),
        *("--bot", "basic", "--name", "Host", "--json", *SHORT_GAME),
    )
    code = host.wait_for(lambda line: True)["code"]
    guest = _start(
        programs,
        tmp_path,
        *("join", code, "--server", dead, "--server", server.url, "--bot", "basic"),
        *("--name", "Guest", "--json", "--seat-file", str(tmp_path / "guest-seat.json")),
    )
    hosted, joined = host.finish(), guest.finish()
    assert hosted["table"] == joined["table"] and hosted["scores"] == joined["scores"]
    kept = json.loads((tmp_path / "guest-seat.json").read_text())
    assert kept["server"] == dead  # the site is named by its first address


@pytest.mark.timeout(60)
def test_an_unknown_code_or_a_full_party_cannot_be_joined(
    server: ServerProcess, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def join(code: str) -> int:
        capsys.readouterr()
        seat_file = tmp_path / f"seat-{code}.json"
        arguments = ["join", code, "--server", server.url, "--bot", "basic"]
        return main([*arguments, "--seat-file", str(seat_file)])

    assert join("ZZZZZZ") == 1
    assert "no party ZZZZZZ" in capsys.readouterr().err
    code = _post(server, "/api/parties", {"name": "Ann"})["code"]
    for number in range(MAX_PARTY_SEATS - 1):
        _post(server, f"/api/parties/{code}/join", {"name": f"Friend {number}"})
    assert join(code) == 1
    said = capsys.readouterr().err
    assert "Cannot join party" in said and "taken" in said
    assert not (tmp_path / f"seat-{code}.json").exists()  # no seat was kept
