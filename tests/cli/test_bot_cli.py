"""``rummy bot`` against a live server process: a program's account online, challenged.

The program is started as a user would (``rummy account new --bot-account``, then ``rummy
bot``); a person's account challenges it over HTTP as the page does and plays the other
seat with a bot of the client, so the game is played to its end; the program declines what
its limits exclude, plays what it accepts, stops after the games asked and is rated in the
programs' pool.
"""

from __future__ import annotations

import io
import json
import random
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from cli_programs import Programs
from rummykit.cli import main
from rummykit.client.account import account_headers, create_account
from rummykit.client.bot_account import BotAccount, BotOptions, limits_sentence
from rummykit.client.commands import SeatOptions, join
from rummykit.client.party import PartyPlan, PartySession
from rummykit.client.player import TablePlayer
from rummykit.client.report import Report
from rummykit.client.web import (
    PartyRefused,
    challenge_bot,
    create_party,
    look_at_party,
    online_bots,
)
from rummykit.protocol import BotLimits, InvitationView, NewAccount, NewChallenge, NewParty
from server_process import ServerProcess

PASSWORD = "a long enough password"


def _program_account(server: ServerProcess, tmp_path: Path, name: str) -> None:
    """A program's account kept where ``Programs`` run (their data folder)."""
    password = tmp_path / "password.txt"
    password.write_text(PASSWORD + "\n", encoding="utf-8")
    command = ["account", "new", "--server", server.url, "--name", name, "--bot-account"]
    assert main([*command, "--password-file", str(password)]) == 0


def _play_host(server: ServerProcess, code: str, token: str, signed: dict[str, str]) -> None:
    """The challenger's seat: start once the program is there and ready, play to the end."""
    quiet = Report(True, out=io.StringIO(), err=io.StringIO())
    session = PartySession(server.url, code, token, quiet, signed=signed)
    party = session.wait_for_table(PartyPlan(host=True, seats=2))
    assert party.table is not None
    player = TablePlayer(
        server.url, party.table, token, "basic", quiet, rng=random.Random(5), signed=signed
    )
    player.play()


@pytest.mark.timeout(120)
def test_a_program_online_declines_by_its_limits_plays_a_challenge_and_is_rated(
    server: ServerProcess, programs: Programs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _program_account(server, tmp_path, "robo-1")
    program = programs.start(
        *("bot", "--server", server.url, "--account", "robo-1", "--bot", "basic"),
        *("--preset", "classic", "--timer", "60", "--stop-after", "1", "--json"),
    )
    assert program.wait_for(lambda line: "online" in line) == {"online": "robo-1"}
    (online,) = online_bots(server.url).bots
    assert online.name == "robo-1" and online.limits.presets == ("classic",)
    assert online.limits.turn_timers == (60,) and not online.limits.untimed
    ada = create_account(server.url, NewAccount(name="Ada", password=PASSWORD))
    signed = account_headers(ada)
    # house rules it does not play: declined, and the person is told why
    with pytest.raises(PartyRefused) as refused:
        challenge_bot(server.url, NewChallenge(bot="robo-1", preset="party", turn_timer=60), signed)
    assert refused.value.message == "robo-1 declined: it does not play these house rules."
    said = program.wait_for(lambda line: "declined" in line)
    assert said["reason"] == "preset"
    # a ranked game of one deal, 60 s a turn: accepted, played, rated apart from people's
    wanted = NewChallenge(bot="robo-1", rules={"deals": 1}, turn_timer=60)
    joined = challenge_bot(server.url, wanted, signed)
    assert program.wait_for(lambda line: "accepted" in line)["code"] == joined.code
    host = threading.Thread(target=_play_host, args=(server, joined.code, joined.token, signed))
    host.start()
    started = program.wait_for(lambda line: "game_started" in line)
    last = program.wait_for(lambda line: "rejoined" in line)
    assert last["table"] == started["game_started"] and last["seat"] == 1
    # (its game_ended may come after the game's own last line: the program does not wait for it)
    assert program.wait_for(lambda line: "offline" in line) == {"offline": "robo-1", "games": 1}
    assert program.process.wait(timeout=30) == 0, program.errors()
    host.join(timeout=60)
    assert online_bots(server.url).bots == ()
    capsys.readouterr()
    ratings = ["ratings", "--server", server.url, "--pool", "winner_bots", "--all", "--json"]
    assert main(ratings) == 0
    rated = {entry["name"]: entry for entry in json.loads(capsys.readouterr().out)}
    assert {name: entry["bot"] for name, entry in rated.items()} == {"Ada": False, "robo-1": True}
    assert main(["ratings", "--server", server.url, "--all", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []  # the people's pool: nothing


@pytest.mark.timeout(60)
def test_a_session_that_is_not_a_programs_is_refused_and_says_so(
    server: ServerProcess, data: Path
) -> None:
    person = create_account(server.url, NewAccount(name="Ada", password=PASSWORD))
    options = SeatOptions(
        servers=(server.url,), bot="basic", name="Ada", signed=account_headers(person)
    )
    err = io.StringIO()
    report = Report(False, out=io.StringIO(), err=err)
    assert BotAccount(options, BotOptions(), report).run() == 1
    assert "The bot stream is for programs' accounts" in err.getvalue()


def test_the_limits_in_one_line() -> None:
    limits = BotLimits(presets=("classic", "party"), turn_timers=(30, 60), untimed=False)
    assert limits_sentence(limits) == (
        "classic, party; 30 or 60 s a turn (no untimed games); parties of up to 8; "
        "ranked and friendly games; 1 game at once"
    )
    assert limits_sentence(BotLimits(ranked=False, games=3)).endswith(
        "friendly games; 3 games at once"
    )


def test_usage_errors_say_what_is_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["bot", "--server", "http://127.0.0.1:9", "--account", "robo-1", "--bot", "basic"]
    for extra, said in (
        (["--games", "9"], "from 1 to 8 games at once"),
        (["--ranked-only", "--friendly-only"], "not allowed with argument"),
        (["--timer", "45"], "the turn timer is none or 30, 60"),
    ):
        with pytest.raises(SystemExit) as stopped:
            main([*base, *extra])
        assert stopped.value.code == 2
        assert said in capsys.readouterr().err


@pytest.mark.timeout(60)
def test_a_program_leaves_a_party_its_host_does_not_start_in_time(
    server: ServerProcess, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ada = create_account(server.url, NewAccount(name="Ada", password=PASSWORD))
    made = create_party(server.url, NewParty(name="Ada"), account_headers(ada))
    options = SeatOptions(servers=(server.url,), bot="basic", name="Robo", start_within_s=0.5)
    assert join(options, server.url + made.url, Report(False)) == 1
    said = capsys.readouterr().err
    assert "The party did not start within 0 s: this member left it. (not_started)" in said
    view = look_at_party(server.url, made.url.split("/")[-1])
    assert [member.name for member in view.members] == ["Ada"]


def test_a_decline_is_told_in_the_servers_own_sentence() -> None:
    sent: list[str] = []
    out = io.StringIO()
    options = SeatOptions(servers=("http://127.0.0.1:9",), bot="basic", name="robo-1")
    limits = BotLimits(presets=("classic",))
    program = BotAccount(options, BotOptions(limits=limits), Report(False, out=out))
    invitation = InvitationView(
        id=7,
        code="K7QM2P",
        url="/#/party/K7QM2P.k",
        host="Ada",
        challenge=True,
        preset="party",
        rules={},
        turn_timer=60,
        ranked=True,
        seats=1,
    )
    program._answer(invitation, cast(Any, SimpleNamespace(send=sent.append)))
    assert json.loads(sent[0]) == {
        "t": "decline",
        "v": 0,
        "d": {"invitation": 7, "reason": "preset"},
    }
    assert out.getvalue().strip() == (
        "Ada's challenge (K7QM2P): party, ranked, 60 s a turn. "
        "robo-1 declined: it does not play these house rules."
    )
