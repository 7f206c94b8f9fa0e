"""``rummy party new`` and ``rummy join`` on the command line: their parsers and options."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any, Final, cast

from rummykit.bots import BOTS
from rummykit.client.account_cli import account_name
from rummykit.core.errors import RulesError
from rummykit.core.options import json_value
from rummykit.core.presets import PRESETS, TABLE_PRESET
from rummykit.core.rules import parse_option
from rummykit.protocol import (
    BOT_LEVELS,
    MAX_PACE_MS,
    MAX_PARTY_SEATS,
    MIN_PARTY_SEATS,
    TURN_TIMERS,
    BotLevel,
    RuleValue,
    TurnTimer,
)

_PARTY_EPILOG = """\
examples:
  rummy party new --server http://127.0.0.1:8000 --bot strong
      a party of two: prints its code and link, waits for one more player, plays
  rummy party new --server URL --players 4 --cpu basic --cpu expert --bot basic
      two computer players seated by the server, one more person or program to come
  rummy party new --server URL --preset party --rule target=50 --timer 30 --bot expert
      the house rules: the party preset to 50 points, 30 s a turn
  rummy party new --server URL --players 3 --cpu basic --bot basic --json | head -1
      {"code": "K7QM2P", "url": "http://.../#/party/K7QM2P"} at once, for a script
  rummy party new --server URL --account robo-1 --ranked --players 3 --bot expert
      a ranked party hosted by the account robo-1 (60 s a turn unless --timer 30); the
      others join with `rummy join CODE --server URL --account NAME --bot ...`

Ranked play needs accounts: `rummy account new --server URL --name robo-1 --bot-account`
makes one for a program and keeps its session on this device; --account NAME plays as it
(the seat takes the account's name). A ranked party seats accounts only (no --cpu) and
needs a turn timer.
exit codes: 0 the game was played to its end; 1 the party cannot be made or go on, or the
server refused the account's session (a sentence says why); 2 a usage error, or an account
not kept on this device for that server (the kept ones are listed).
"""

_JOIN_EPILOG = """\
examples:
  rummy join K7QM2P --server http://127.0.0.1:8000 --bot basic
  rummy join 'http://127.0.0.1:8000/#/party/K7QM2P' --server http://127.0.0.1:8000 --bot expert
  rummy join K7QM2P --server URL --bot strong --json --record game.json
  rummy join K7QM2P --server URL --account robo-2 --bot expert
      join as the account robo-2 (kept by `rummy account new`): a ranked party needs one

The seat's token is kept in your data folder (or --seat-file FILE): run the same command
again after the program stopped, and it returns to its seat ("rejoined"). When the server
goes away it reconnects, waiting 0.5 s doubling to 8 s between tries, and plays on.
exit codes: 0 the game was played to its end; 1 the party cannot be joined (unknown code,
full, started, ranked and no account...), the server refused the account's session, or the
seat was lost; 2 a usage error, or an account not kept on this device for that server.
"""

_TIMER_UNSET: Final = object()
"""``--timer`` not given: a ranked party gets ``RANKED_TIMER``, a friendly one none (not a
string: argparse would read a string default with ``type``)."""

RANKED_TIMER: Final[TurnTimer] = 60
"""The turn timer of a ranked party made without ``--timer``."""


def _rule(text: str) -> tuple[str, RuleValue]:
    """``NAME=VALUE`` read and checked against the rule's own description."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: write a rule as NAME=VALUE, like target=50")
    try:
        parsed = json_value(parse_option(name.strip(), value))
    except RulesError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return name.strip(), cast(RuleValue, parsed)


def parse_timer(text: str) -> TurnTimer | None:
    """A turn timer as argparse reads it: ``none`` (or ``off``, ``0``), or its seconds."""
    if text.strip().lower() in ("none", "off", "0"):
        return None
    if text.strip().isdigit() and int(text) in TURN_TIMERS:
        return cast(TurnTimer, int(text))
    choices = ", ".join(str(seconds) for seconds in TURN_TIMERS)
    raise argparse.ArgumentTypeError(f"{text!r}: the turn timer is none or {choices} (seconds)")


def parse_seats(text: str) -> int:
    """A party's number of players as argparse reads it."""
    if text.isdigit() and MIN_PARTY_SEATS <= int(text) <= MAX_PARTY_SEATS:
        return int(text)
    raise argparse.ArgumentTypeError(
        f"{text!r}: a party has {MIN_PARTY_SEATS} to {MAX_PARTY_SEATS} players"
    )


def _pace(text: str) -> int:
    if text.isdigit() and int(text) <= MAX_PACE_MS:
        return int(text)
    raise argparse.ArgumentTypeError(f"{text!r}: a pace is 0 to {MAX_PACE_MS} milliseconds")


def _name(text: str) -> str:
    from pydantic import TypeAdapter, ValidationError

    from rummykit.protocol import PlayerName

    try:
        return TypeAdapter(PlayerName).validate_python(text)
    except ValidationError:
        raise argparse.ArgumentTypeError(f"{text!r}: a name is 1 to 24 characters") from None


def add_server_argument(parser: argparse.ArgumentParser) -> None:
    """``--server URL``, repeatable: the site a program of the client plays on."""
    parser.add_argument(
        "--server",
        required=True,
        action="append",
        metavar="URL",
        help="the server, like http://127.0.0.1:8000; for a site served by several processes, "
        "give each (--server URL1 --server URL2): the program moves to the next when one fails",
    )


def add_level_argument(parser: argparse.ArgumentParser, plays: str) -> None:
    """``--bot LEVEL``: the computer player that plays ``plays`` (words for its help)."""
    parser.add_argument(
        "--bot",
        required=True,
        choices=sorted(BOTS),
        metavar="LEVEL",
        help=f"who plays {plays}: {', '.join(sorted(BOTS))}",
    )


def _seat_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_argument(parser)
    add_level_argument(parser, "this seat")
    parser.add_argument(
        "--name", type=_name, help="the seat's name at the table (default: LEVEL bot NN)"
    )
    parser.add_argument(
        "--account",
        type=account_name,
        metavar="NAME",
        help="play as this account, kept on this device by `rummy account new` (its name is "
        "the seat's; needed for ranked parties)",
    )
    parser.add_argument(
        "--record", type=Path, metavar="FILE", help="write the finished game's record here"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object a line: each deal, each action the table applied, and a "
        'last line {"table", "seat", "scores", "winner", "rejoined"}',
    )
    parser.add_argument(
        "--pace",
        type=_pace,
        metavar="MS",
        help="ask the table's computer players to wait MS milliseconds between moves",
    )


def _default_name(level: str) -> str:
    """``Basic bot 42``: the level says who plays, the number tells two of them apart."""
    return f"{level.capitalize()} bot {secrets.randbelow(90) + 10}"


def _options(args: argparse.Namespace) -> Any:
    from rummykit.client.commands import SeatOptions

    return SeatOptions(
        servers=tuple(args.server),
        bot=args.bot,
        name=args.name or _default_name(args.bot),
        record=args.record,
        as_json=args.json,
        seat_file=args.seat_file,
        pace_ms=args.pace,
        account=args.account,
    )


def _check_account(args: argparse.Namespace) -> None:
    """Usage errors of ``--account``: an account plays under its own name."""
    if args.account is not None and args.name is not None:
        args.parser.error("--name and --account: an account plays under its own name")


def _party_timer(args: argparse.Namespace) -> TurnTimer | None:
    """The turn timer: ``--timer``, or 60 s for a ranked party (said on standard error).

    Usage errors of ``--ranked``: it needs ``--account``, a timer and no computer players.
    """
    if not args.ranked:
        return None if args.timer is _TIMER_UNSET else cast(TurnTimer | None, args.timer)
    if args.account is None:
        args.parser.error(
            "--ranked needs --account NAME: ranked parties seat accounts only "
            "(`rummy account new --server URL --name NAME --bot-account` makes one)"
        )
    if args.cpu:
        args.parser.error("--ranked and --cpu: a ranked party seats accounts only, no computer")
    if args.timer is None:
        args.parser.error("--ranked and --timer none: a ranked party needs a timer of 30 or 60")
    if args.timer is _TIMER_UNSET:
        print(
            f"rummy party new: a ranked party needs a turn timer: {RANKED_TIMER} s a turn "
            "(--timer 30 for 30 s).",
            file=sys.stderr,
        )
        return RANKED_TIMER
    return cast(TurnTimer, args.timer)


def _command_party_new(args: argparse.Namespace) -> int:
    from rummykit.client.commands import NewPartyOptions, new_party
    from rummykit.client.report import Report

    _check_account(args)
    timer = _party_timer(args)
    cpus: tuple[BotLevel, ...] = tuple(args.cpu or ())
    if len(cpus) >= args.players:
        print(
            f"rummy party new: {len(cpus)} computer players leave no seat for this program in a "
            f"party of {args.players}: raise --players.",
            file=sys.stderr,
        )
        return 2
    party = NewPartyOptions(
        preset=args.preset,
        rules=tuple(args.rule or ()),
        timer=timer,
        players=args.players,
        cpus=cpus,
        ranked=args.ranked,
    )
    return new_party(_options(args), party, Report(args.json))


def _command_join(args: argparse.Namespace) -> int:
    from rummykit.client.commands import join
    from rummykit.client.report import Report

    _check_account(args)
    return join(_options(args), args.party, Report(args.json))


def add_party_parsers(commands: Any) -> None:
    """Add ``party new`` and ``join`` to the ``rummy`` command's sub-commands."""
    party = commands.add_parser(
        "party",
        help="start a party on a server, and play it with a bot",
        description="Parties: friends (people or programs) at one table on a server.",
    )
    party_commands = party.add_subparsers(dest="party_command", metavar="COMMAND", required=True)
    new = party_commands.add_parser(
        "new",
        help="create a party, print its code and link, and play the host's seat with a bot",
        description="Create a party on the server with the house rules given, print its code "
        "and invite link at once, add the computer players asked for, wait until PLAYERS "
        "players (people, programs and computer players) have joined and are ready, start, "
        "and play the host's seat with the bot until the game is over.",
        epilog=_PARTY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _seat_arguments(new)
    new.add_argument(
        "--preset",
        default=TABLE_PRESET,
        choices=list(PRESETS),
        help="the house rules to start from",
    )
    new.add_argument(
        "--rule",
        action="append",
        type=_rule,
        metavar="NAME=VALUE",
        help="a rule that differs from the preset (repeat it); see `rummy rules PRESET`",
    )
    new.add_argument(
        "--timer",
        "--turn-timer",
        type=parse_timer,
        default=_TIMER_UNSET,
        metavar="none|30|60",
        help=f"seconds a turn (default none; {RANKED_TIMER} for a ranked party)",
    )
    new.add_argument(
        "--ranked",
        action="store_true",
        help="the party's games are rated, on the server's leaderboard: needs --account, "
        "every member joins with an account, no --cpu, a turn timer",
    )
    new.add_argument(
        "--players",
        type=parse_seats,
        default=MIN_PARTY_SEATS,
        metavar="N",
        help=f"start once N players are there and ready ({MIN_PARTY_SEATS}-{MAX_PARTY_SEATS}, "
        "the computer players included; default 2)",
    )
    new.add_argument(
        "--cpu",
        action="append",
        choices=BOT_LEVELS,
        metavar="LEVEL",
        help=f"add a computer player of the server's ({', '.join(BOT_LEVELS)}); repeat it",
    )
    new.add_argument(
        "--seat-file",
        type=Path,
        metavar="FILE",
        help="keep the host's seat in FILE: `rummy join CODE --seat-file FILE` returns to it",
    )
    new.set_defaults(run=_command_party_new, parser=new)
    join = commands.add_parser(
        "join",
        help="join a party by its code or link and play the seat with a bot",
        description="Join a party, mark ready, and play the seat with the bot until the game "
        "is over.",
        epilog=_JOIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    join.add_argument("party", metavar="CODE_OR_URL", help="the party's code or invite link")
    _seat_arguments(join)
    join.add_argument(
        "--seat-file",
        type=Path,
        metavar="FILE",
        help="keep the seat's token in FILE instead of your data folder",
    )
    join.set_defaults(run=_command_join, parser=join)
