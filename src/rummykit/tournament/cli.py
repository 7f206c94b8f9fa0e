"""``rummy sim`` and ``rummy bots``: the tournament tool on the command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummykit.tournament.config import SimConfig
    from rummykit.tournament.results import SimResult


def command_sim(args: argparse.Namespace) -> int:
    """Run a tournament as the command line asks; the exit code."""
    from rummykit.tournament.config import SimError

    try:
        config, jobs = _config_of(args)
    except SimError as error:
        return _fail(str(error), 2)
    if args.plot is not None:
        from rummykit.tournament.plot import PlotUnavailableError, check_plotting

        try:
            check_plotting()
        except PlotUnavailableError as error:
            return _fail(str(error), 2)
    if config.games != args.games and not args.quiet:
        print(
            f"rummy sim: {args.games} games rounded up to {config.games}: {config.sets} "
            f"duplicate sets of {config.seat_count} (one game a seat rotation).",
            file=sys.stderr,
        )
    result = _play(config, jobs, quiet=args.quiet)
    if isinstance(result, int):
        return result
    if args.plot is not None:
        from rummykit.tournament.plot import plot_result

        try:
            plot_result(result, args.plot)
        except OSError as error:
            return _fail(f"cannot write {args.plot}: {error}", 2)
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        _print_table(result)
    return 0


def _fail(message: str, code: int) -> int:
    """Say what went wrong on stderr; the exit code."""
    print(f"rummy sim: {message}", file=sys.stderr)
    return code


def _config_of(args: argparse.Namespace) -> tuple[SimConfig, int]:
    """The tournament and the process count the command line asks for; ``SimError`` if bad."""
    from rummykit.tournament.config import SimConfig, SimError

    config = SimConfig.from_options(
        args.bots,
        games=args.games,
        preset=args.preset,
        rules=args.rule,
        deals_only=args.deals_only,
        seed=args.seed,
        records=args.records,
        checkpoint=args.checkpoint,
    )
    if args.jobs < 0:
        raise SimError(f"--jobs must be 0 (one a CPU) or more, not {args.jobs}.")
    return config, args.jobs or os.cpu_count() or 1


def _play(config: SimConfig, jobs: int, *, quiet: bool) -> SimResult | int:
    """Play the tournament behind a progress bar on stderr; the result, or an exit code."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from rummykit.tournament.config import SimError
    from rummykit.tournament.play import run_sim

    errors = Console(stderr=True)
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
        disable=quiet or not errors.is_terminal,
    )
    try:
        with progress:
            task = progress.add_task(" ".join(config.bots), total=config.games)
            return run_sim(config, jobs=jobs, on_games=lambda count: progress.advance(task, count))
    except SimError as error:
        return _fail(str(error), 1)
    except KeyboardInterrupt:
        return _fail("interrupted.", 130)
    except OSError as error:
        return _fail(f"cannot write the records: {error}", 2)


def _print_table(result: SimResult) -> None:
    """Print the results table: rich on a terminal, plain text when piped."""
    from rich.console import Console

    from rummykit.tournament.report import result_table

    out = Console(highlight=False)
    if out.is_terminal:
        out.print(result_table(result))
    else:
        # Piped: plain text, wide enough not to wrap, without rich's padding spaces.
        out.width = 160
        with out.capture() as captured:
            out.print(result_table(result))
        print("\n".join(line.rstrip() for line in captured.get().splitlines()))


def command_bots(args: argparse.Namespace) -> int:
    """List the registered bots, a line each."""
    from rummykit.bots import BOTS, make_bot

    width = max(len(name) for name in BOTS)
    for name in sorted(BOTS):
        print(f"{name.ljust(width)}  {make_bot(name).description}")
    return 0


def add_sim_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``sim`` and ``bots`` sub-commands."""
    from rummykit.bots.play import DEAL_ACTION_CAP
    from rummykit.core.presets import DEFAULT_PRESET
    from rummykit.core.rules import MAX_SEATS, MAX_SEATS_ONE_DECK, MIN_SEATS

    sim = commands.add_parser(
        "sim",
        help="play bots against each other in duplicate sets and report the results",
        description="Play bots against each other, one bot name a seat "
        f"({MIN_SEATS} to {MAX_SEATS}; more than {MAX_SEATS_ONE_DECK} need two decks), in "
        "duplicate sets:\nevery deck order is played once per seat rotation, so the luck of "
        "the cards cancels.\n--games is rounded up to whole sets. Results are reported per bot "
        "in the order given:\ngames won and points per deal with 95% intervals, going-out and "
        "going-rummy rates,\ndecisive deals won, blocked deals, turns a deal, and the time "
        "per decision.",
        epilog=f"A deal still going after {DEAL_ACTION_CAP} actions (a stock renewed without "
        "end) is cut:\nits game counts as cut, not won, and its completed deals still count."
        "\n\nexamples:\n"
        "  rummy sim strong basic --preset classic --games 1000 --jobs 4\n"
        "  rummy sim basic random random --deals-only --games 300 --json\n"
        "  rummy sim basic random --rule renewals=2 --records games/ --plot sim.png\n"
        "exit codes: 0 done; 1 a bot chose an illegal action; 2 bad arguments.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sim.add_argument("bots", nargs="+", metavar="BOT", help="a bot a seat (see `rummy bots`)")
    sim.add_argument(
        "--preset", default=DEFAULT_PRESET, help=f"the house rules (default {DEFAULT_PRESET})"
    )
    sim.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a rule option, e.g. renewals=2 (repeatable; see `rummy rules`)",
    )
    sim.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    sim.add_argument(
        "--deals-only", action="store_true", help="each game is a single deal (deals=1)"
    )
    sim.add_argument(
        "--seed", type=int, default=0, help="the seed of the decks and bots (default 0)"
    )
    sim.add_argument(
        "--jobs", type=int, default=1, help="processes to play in (default 1; 0: one a CPU)"
    )
    sim.add_argument("--records", metavar="DIR", help="write every game's record into DIR")
    sim.add_argument(
        "--checkpoint",
        metavar="DIR",
        help="keep every finished set in DIR; run the same command again to go on where a "
        "stopped run left off (for tournaments of hours)",
    )
    sim.add_argument("--json", action="store_true", help="print the results as JSON")
    sim.add_argument("--plot", metavar="FILE.png", help="draw win rates and points per deal")
    sim.add_argument("--quiet", action="store_true", help="no progress bar and no notes")
    sim.set_defaults(run=command_sim)
    bots = commands.add_parser(
        "bots",
        help="list the bots that `rummy sim` can play",
        description="The registered bots, each with a line on how it plays.",
    )
    bots.set_defaults(run=command_bots)
