"""``rummy bot`` on the command line: its parser and options.

The program itself (the stream, the answers, the games) is ``rummykit.client.bot_account``,
imported when the command runs: ``rummy --help`` loads none of it.
"""

from __future__ import annotations

import argparse
from typing import Any, Final, cast

from rummykit.client.account_cli import account_name
from rummykit.client.cli import (
    add_level_argument,
    add_server_argument,
    parse_seats,
    parse_timer,
)
from rummykit.core.presets import PRESETS
from rummykit.protocol import MAX_BOT_GAMES, MAX_PARTY_SEATS

_EPILOG: Final = """\
examples:
  rummy bot --server http://127.0.0.1:8000 --account robo-1 --bot expert
      robo-1 online: it accepts every challenge and invitation, one game at a time
  rummy bot --server URL --account robo-1 --bot strong --games 3 --preset classic
      three games at once, classic rules only
  rummy bot --server URL --account robo-1 --bot basic --timer 30 --timer 60 --ranked-only
      ranked games with a turn timer only
  rummy bot --server URL --account robo-1 --bot basic --stop-after 1 --json
      play one game, then go offline (for scripts)

The account is a program's account kept on this device: `rummy account new --server URL
--name robo-1 --bot-account` makes one. People see it online in the lobby, on the leaderboard
and on its page, and challenge it there; each invitation is accepted or declined by the
limits above, and each accepted game is played as `rummy join` plays it (a killed program
comes back to its seats); a party whose host has not started it within ten minutes is left.
The protocol is in docs/PROTOCOL.md, section 7: a program of your own can do the same.
Ctrl+C goes offline and finishes the games being played; a second Ctrl+C stops at once.
exit codes: 0 offline as asked; 1 the server refused the account's session (or another
program took the account over); 2 a usage error, or an account not kept here.
"""


def _games(text: str) -> int:
    if text.isdigit() and 1 <= int(text) <= MAX_BOT_GAMES:
        return int(text)
    raise argparse.ArgumentTypeError(f"{text!r}: from 1 to {MAX_BOT_GAMES} games at once")


def _count(text: str) -> int:
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise argparse.ArgumentTypeError(f"{text!r}: a number of games, 1 or more")


def _command_bot(args: argparse.Namespace) -> int:
    from rummykit.client.bot_account import BotOptions, run_bot
    from rummykit.client.commands import SeatOptions
    from rummykit.client.report import Report
    from rummykit.protocol import BotLimits, TurnTimer

    timers = [cast("TurnTimer | None", timer) for timer in args.timer or ()]
    limits = BotLimits(
        presets=tuple(args.preset or ()),
        turn_timers=tuple(timer for timer in timers if timer is not None),
        untimed=not timers or None in timers,
        max_seats=args.max_seats,
        ranked=not args.friendly_only,
        friendly=not args.ranked_only,
        games=args.games,
    )
    options = SeatOptions(
        servers=tuple(args.server),
        bot=args.bot,
        name=args.account,
        as_json=args.json,
        pace_ms=None,
        account=args.account,
    )
    return run_bot(
        options, BotOptions(limits=limits, stop_after=args.stop_after), Report(args.json)
    )


def add_bot_parser(commands: Any) -> None:
    """Add ``bot`` to the ``rummy`` command's sub-commands."""
    bot = commands.add_parser(
        "bot",
        help="keep a program's account online: people challenge it, a bot plays its games",
        description="Keep a program's account online on a server: answer each challenge and "
        "invitation by the limits given, and play every game accepted with the bot named, "
        "several at once if asked.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_server_argument(bot)
    bot.add_argument(
        "--account",
        required=True,
        type=account_name,
        metavar="NAME",
        help="the program's account, kept on this device by `rummy account new --bot-account`",
    )
    add_level_argument(bot, "the games")
    bot.add_argument(
        "--games",
        type=_games,
        default=1,
        metavar="N",
        help=f"play up to N games at once (1-{MAX_BOT_GAMES}; default 1); more are declined",
    )
    bot.add_argument(
        "--preset",
        action="append",
        choices=list(PRESETS),
        metavar="PRESET",
        help="play only these house rules (repeat it; default any)",
    )
    bot.add_argument(
        "--timer",
        action="append",
        type=parse_timer,
        metavar="none|30|60",
        help="take only these turn timers (repeat it; none: games without one; default any)",
    )
    bot.add_argument(
        "--max-seats",
        type=parse_seats,
        default=MAX_PARTY_SEATS,
        metavar="N",
        help=f"join parties of up to N players, itself included (default {MAX_PARTY_SEATS})",
    )
    kinds = bot.add_mutually_exclusive_group()
    kinds.add_argument("--ranked-only", action="store_true", help="decline friendly games")
    kinds.add_argument("--friendly-only", action="store_true", help="decline ranked games")
    bot.add_argument(
        "--stop-after",
        type=_count,
        metavar="N",
        help="go offline once N games are over (default: run until Ctrl+C)",
    )
    bot.add_argument(
        "--json",
        action="store_true",
        help="print each game's deals, actions and result as JSON lines (as `rummy join` does)",
    )
    bot.set_defaults(run=_command_bot, parser=bot)
