"""Ranked play from the command line, against a live server process (``rummy serve``).

Three program accounts made by ``rummy account new --bot-account`` play a ranked party: one
hosts it with ``rummy party new --account A --ranked``, the two others ``rummy join
--account``, a bot deciding every seat, and ``rummy ratings --all --json`` then lists the
three, BOT-marked, with one game each, provisional. Around it, what the commands refuse and
how they say it: ``--ranked`` without ``--account`` (a usage error), a ranked party joined
without an account (``ranked_account``), an account this device does not keep (the kept ones
are listed) or keeps for another server, a session the server refuses (and ``rummy account
signin`` mending it), and a ranked start refused because an account is in a ranked game
already (``ranked_busy``).
"""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path

import pytest

from cli_programs import PROGRAM_S, Program, Programs
from ports import free_port
from rummykit.cli import main
from rummykit.client.account import (
    Credentials,
    account_headers,
    default_accounts_path,
    keep_account,
    kept_account,
    load_accounts,
    signed_in,
)
from rummykit.client.party import PartyPlan, PartySession, seats_sentence
from rummykit.client.report import Report
from rummykit.client.web import create_party, join_party
from rummykit.protocol.party import MemberView, NewParty, PartyJoined, PartyView
from server_process import ServerProcess

PASSWORD = "a long enough password"

ONE_DEAL = ["--rule", "deals=1"]
"""The shortest game that is rated: one whole deal (``party_client.SHORT_GAME``)."""

ROBOTS = ("robo-1", "robo-2", "robo-3")


@pytest.fixture
def password_file(tmp_path: Path) -> Path:
    path = tmp_path / "password.txt"
    path.write_text(PASSWORD + "\n", encoding="utf-8")
    return path


def _new_account(
    server: ServerProcess, name: str, password_file: Path, *, bot: bool = True
) -> None:
    command = ["account", "new", "--server", server.url, "--name", name]
    command += ["--bot-account"] if bot else []
    assert main([*command, "--password-file", str(password_file)]) == 0


def _ranked_party(server: ServerProcess, host: str) -> PartyJoined:
    """A ranked party of one deal hosted by the kept account ``host``, made over HTTP."""
    kept = kept_account(default_accounts_path(), host, server.url)
    wanted = NewParty(name=host, rules={"deals": 1}, turn_timer=60, ranked=True)
    return create_party(server.url, wanted, account_headers(kept))


def _failed(program: Program) -> str:
    """Wait for ``program`` to exit 1; what it printed on standard error."""
    assert program.process.wait(timeout=PROGRAM_S) == 1, program.errors()
    return program.errors()


@pytest.mark.timeout(120)
def test_three_program_accounts_play_a_ranked_party_and_are_rated(
    server: ServerProcess,
    programs: Programs,
    password_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in ROBOTS:
        _new_account(server, name, password_file)
    host = programs.start(
        *("party", "new", "--server", server.url, "--account", ROBOTS[0], "--ranked"),
        *("--players", "3", "--bot", "basic", "--json", *ONE_DEAL),
    )
    code = host.wait_for(lambda line: True)["code"]
    assert "60 s a turn" in host.errors()  # the timer a ranked party needs, said
    guests = [
        programs.start(
            *("join", code, "--server", server.url, "--account", name),
            *("--bot", "basic", "--json"),
        )
        for name in ROBOTS[1:]
    ]
    last = [program.finish() for program in (host, *guests)]
    assert len({line["table"] for line in last}) == 1
    assert sorted(line["seat"] for line in last) == [0, 1, 2]
    assert all(line["scores"] == last[0]["scores"] for line in last)
    capsys.readouterr()
    # programs only: rated in the programs' pool, the people's stays empty
    assert main(["ratings", "--server", server.url, "--all", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    programs_pool = ["ratings", "--server", server.url, "--pool", "winner_bots", "--all"]
    assert main([*programs_pool, "--json"]) == 0
    rated = {entry["name"]: entry for entry in json.loads(capsys.readouterr().out)}
    assert sorted(rated) == sorted(ROBOTS)
    for entry in rated.values():
        assert (entry["bot"], entry["games"], entry["provisional"]) == (True, 1, True)
    assert main(programs_pool) == 0
    table = capsys.readouterr().out
    assert all(f"{name} [BOT]" in table for name in ROBOTS), table


@pytest.mark.timeout(30)
def test_ranked_without_an_account_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["party", "new", "--server", "http://127.0.0.1:9", "--bot", "basic", "--ranked"])
    assert stopped.value.code == 2
    assert "--ranked needs --account NAME" in capsys.readouterr().err


@pytest.mark.timeout(60)
def test_a_ranked_party_joined_without_an_account_says_ranked_account(
    server: ServerProcess, data: Path, password_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _new_account(server, ROBOTS[0], password_file)
    code = _ranked_party(server, ROBOTS[0]).code
    capsys.readouterr()
    assert main(["join", code, "--server", server.url, "--bot", "basic"]) == 1
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1
    assert said[0].startswith(f"rummy join: Cannot join party {code}: This party is ranked")
    assert "--account NAME" in said[0]


@pytest.mark.timeout(30)
def test_an_account_not_kept_here_lists_those_kept(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    here, there = f"http://127.0.0.1:{free_port()}", "http://192.0.2.1:8000"
    for name, server in (("robo-1", here), ("robo-2", there)):
        keep_account(
            default_accounts_path(),
            Credentials(server=server, name=name, bot=True, session="s"),
        )
    join = ["join", "ABCDEF", "--server", here, "--bot", "basic", "--account"]
    assert main([*join, "robo-9"]) == 2
    said = capsys.readouterr().err
    assert "No account robo-9 is kept" in said
    assert f"kept: robo-1 on {here}, robo-2 on {there}" in said
    assert f"rummy account new --server {here} --name robo-9" in said
    assert main([*join, "ROBO-2"]) == 2  # kept, for another server
    said = capsys.readouterr().err
    assert f"The account ROBO-2 is kept for {there}, not for {here}" in said
    party = ["party", "new", "--server", here, "--bot", "basic", "--ranked", "--account"]
    assert main([*party, "robo-9"]) == 2
    assert "kept: robo-1" in capsys.readouterr().err


@pytest.mark.timeout(60)
def test_a_refused_session_says_to_sign_in_and_signin_mends_it(
    server: ServerProcess,
    data: Path,
    password_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _new_account(server, "robo-1", password_file)
    kept = kept_account(default_accounts_path(), "robo-1", server.url)
    keep_account(default_accounts_path(), kept.model_copy(update={"session": "ended"}))
    capsys.readouterr()
    party = ["party", "new", "--server", server.url, "--bot", "basic", "--ranked"]
    assert main([*party, "--account", "robo-1"]) == 1
    said = capsys.readouterr().err
    assert "refused the session kept for robo-1" in said
    assert f"rummy account signin --server {server.url} --name robo-1" in said
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("not the password\n", encoding="utf-8")
    signin = ["account", "signin", "--server", server.url, "--name", "robo-1"]
    assert main([*signin, "--password-file", str(wrong)]) == 1
    assert "No account has that name and password" in capsys.readouterr().err
    assert main([*signin, "--password-file", str(password_file)]) == 0
    assert "Signed in robo-1 [BOT]" in capsys.readouterr().out
    (again,) = load_accounts(default_accounts_path())
    assert again.session != "ended"
    assert signed_in(again).name == "robo-1"


def _start_and_leave(server: ServerProcess, accounts: tuple[str, str]) -> str:
    """A ranked party of these two accounts, started and left unplayed: its table."""
    kept = [kept_account(default_accounts_path(), name, server.url) for name in accounts]
    made = _ranked_party(server, accounts[0])
    joined = join_party(server.url, made.code, accounts[1], account_headers(kept[1]))
    tables: list[str | None] = []

    def wait(seat: PartyJoined, plan: PartyPlan) -> None:
        session = PartySession(
            server.url, seat.code, seat.token, Report(True, io.StringIO(), io.StringIO())
        )
        tables.append(session.wait_for_table(plan).table)

    member = threading.Thread(target=wait, args=(joined, PartyPlan()), daemon=True)
    member.start()
    wait(made, PartyPlan(host=True, seats=2))
    member.join(timeout=PROGRAM_S)
    assert len(set(tables)) == 1 and tables[0] is not None
    return tables[0]


@pytest.mark.timeout(90)
def test_a_ranked_start_refused_for_an_account_in_a_ranked_game_ends_the_host(
    server: ServerProcess, programs: Programs, password_file: Path
) -> None:
    # people's accounts (played here by programs): one ranked game at a time each; a
    # program's account may play several at once (tests/server/test_bot_accounts.py)
    for name in ROBOTS[:2]:
        _new_account(server, name, password_file, bot=False)
    _start_and_leave(server, (ROBOTS[0], ROBOTS[1]))  # nobody plays: it stays in progress
    host = programs.start(
        *("party", "new", "--server", server.url, "--account", ROBOTS[0], "--ranked"),
        *("--turn-timer", "30", "--bot", "basic", "--json", *ONE_DEAL),
    )
    code = host.wait_for(lambda line: True)["code"]
    programs.start(
        *("join", code, "--server", server.url, "--account", ROBOTS[1]),
        *("--bot", "basic", "--json"),
    )
    said = _failed(host).splitlines()[-1]
    assert said.startswith("rummy party new: The party cannot go on: robo-1 and robo-2 are playing")
    assert said.endswith("(ranked_busy)")


@pytest.mark.timeout(10)
def test_the_seats_sentence_marks_programs_and_a_ranked_party() -> None:
    members = tuple(
        MemberView(
            id=number,
            name=name,
            kind="human",
            level=None,
            ready=number == 0,
            connected=True,
            host=number == 0,
            program=name.startswith("robo"),
        )
        for number, name in enumerate(("robo-1", "Ann"))
    )
    view = PartyView(
        code="K7QM2P",
        url="/#/party/K7QM2P",
        state="lobby",
        host=0,
        me=0,
        members=members,
        preset="classic",
        rules={},
        turn_timer=60,
        spectators=True,
        ranked=True,
        table=None,
        games=0,
    )
    said = seats_sentence(view)
    assert said == "Ranked. Seats: robo-1 (BOT, host, ready, you), Ann; 1 of 2 ready."
