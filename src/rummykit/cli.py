"""The ``rummy`` command: replay game records, show the house rules, watch a game."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from importlib import resources

from rummykit.core.errors import RecordError, RulesError
from rummykit.core.record import load_record, replay_json
from rummykit.core.rules import OPTION_NAMES, PRESETS, find_preset

_DESCRIPTION = """\
rummykit: straight Rummy, done properly.

Every game is kept as a record (rummy-record/1, a JSON file) that holds the rules,
the deck of every deal and every action; `rummy replay` plays one back and checks
every action against the rules.
"""

_EPILOG = """\
examples:
  rummy play                      open the table in your browser and play
  rummy watch                     read a sample game between two computer players
  rummy replay game.json          the game told turn by turn, with the score
  rummy replay game.json --json   the result as JSON; exit 0 legal, 1 illegal, 2 unreadable
  rummy rules                     the four presets side by side
  rummy rules party               one preset, each option explained
  rummy hint game.json            what to do next at the end of a record, and why
  rummy sim strong basic          bots against each other, with confidence intervals
"""

_OPTION_HELP = {
    "hand_size": "cards dealt to each seat (by_seats: 10 for two, 7 for 3-4, 6 for 5-6)",
    "decks": "decks shuffled together",
    "jokers": "jokers in the deck, each standing for any one card of a meld",
    "aces": "low: A-2-3 only; low_or_high: also Q-K-A; around: K-A-2 too",
    "ace_points": "what an ace caught in a hand costs",
    "layoff": "when you may add cards to melds on the table",
    "melds_per_turn": "the most new melds in one turn (0: no limit)",
    "go_out": "any: by meld, lay-off or discard; discard: only by a final discard",
    "rummy_bonus": "what going out in one turn, with nothing laid before, pays",
    "scoring": "winner: the one who goes out collects; penalty: the others pay their hands",
    "target": "the game ends after the deal in which a total reaches this",
    "deals": "play exactly this many deals instead (null: play to the target)",
    "renew": "how an empty stock is made again from the discard pile",
    "renewals": "how many renewals a deal allows (null: no limit)",
    "blocked": "how a deal that cannot go on is scored",
    "empty_stock_choice": "facing an empty stock you may take the top discard instead",
    "discard_take": "top: only the top discard; any: any card with all above it",
    "dealer": "left: the deal passes left; winner: the deal's winner deals next",
    "joker_points": "what a joker caught in a hand costs",
}


def _value_text(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _rules_table(names: Sequence[str]) -> str:
    mappings = [PRESETS[name].rules.to_mapping() for name in names]
    header = ["option", *names]
    rows = [[option, *(_value_text(m[option]) for m in mappings)] for option in OPTION_NAMES]
    rows.insert(
        0,
        ["seats", *(f"{PRESETS[n].min_seats}-{PRESETS[n].max_seats}" for n in names)],
    )
    widths = [max(len(row[col]) for row in [header, *rows]) for col in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * width for width in widths))
    for row in rows:
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return "\n".join(line.rstrip() for line in lines)


def _command_rules(args: argparse.Namespace) -> int:
    if args.preset is None:
        print(_rules_table(list(PRESETS)))
        print()
        for preset in PRESETS.values():
            print(f"{preset.name}: {preset.summary}")
        print("\nOne preset with every option explained: rummy rules NAME")
        return 0
    try:
        preset = find_preset(args.preset)
    except RulesError as error:
        print(f"rummy rules: {error}", file=sys.stderr)
        return 2
    print(f"{preset.name} ({preset.min_seats}-{preset.max_seats} seats): {preset.summary}\n")
    mapping = preset.rules.to_mapping()
    width = max(len(name) for name in OPTION_NAMES)
    value_width = max(len(_value_text(value)) for value in mapping.values())
    for name in OPTION_NAMES:
        value = _value_text(mapping[name])
        print(f"{name.ljust(width)}  {value.ljust(value_width)}  {_OPTION_HELP[name]}")
    return 0


def _read_source(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _command_replay(args: argparse.Namespace) -> int:
    try:
        text = _read_source(args.file)
    except OSError as error:
        message = f"Cannot read {args.file}: {error.strerror}."
        if args.json:
            error_json = {"deal": None, "action": None, "code": "bad_record", "message": message}
            print(
                json.dumps(
                    {
                        "ok": False,
                        "error": error_json,
                        "deals": [],
                        "scores": [],
                        "game_over": False,
                        "winner": None,
                        "state": None,
                    },
                    indent=2,
                )
            )
        else:
            print(f"rummy replay: {message}", file=sys.stderr)
        return 2
    if args.json:
        result, code = replay_json(text)
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return code
    from rummykit.transcript import transcript

    try:
        record = load_record(text)
    except RecordError as error:
        print(f"rummy replay: {error.message} [{error.code}]", file=sys.stderr)
        return 2
    told, replayed = transcript(record)
    print(told)
    return replayed.exit_code


def _command_play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rummykit.server.run import default_store_path, free_port, serve

    store = Path(args.store) if args.store else default_store_path()
    serve("127.0.0.1", args.port or free_port(), store, open_browser=not args.no_browser)
    return 0


def _command_serve(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rummykit.server.run import default_store_path, serve

    store = Path(args.store) if args.store else default_store_path()
    serve(args.host, args.port, store, open_browser=False)
    return 0


def _command_bots(args: argparse.Namespace) -> int:
    import inspect

    from rummykit.bots import BOTS

    width = max(len(name) for name in BOTS)
    for name in sorted(BOTS):
        doc = inspect.getdoc(BOTS[name]) or ""
        first = doc.strip().splitlines()[0] if doc.strip() else "(no description)"
        print(f"{name.ljust(width)}  {first}")
    return 0


def _command_watch(args: argparse.Namespace) -> int:
    from rummykit.transcript import transcript

    sample = resources.files("rummykit").joinpath("samples", "classic.json").read_text("utf-8")
    told, replayed = transcript(load_record(sample))
    print(told)
    return replayed.exit_code


def _command_sim(args: argparse.Namespace) -> int:
    from rummykit.sim import SimConfig, SimError, result_table, run_sim

    try:
        config = SimConfig.from_options(
            args.bots,
            games=args.games,
            preset=args.preset,
            rules=args.rule,
            deals_only=args.deals_only,
            seed=args.seed,
            records=args.records,
        )
        if args.jobs < 0:
            raise SimError(f"--jobs must be 0 (one a CPU) or more, not {args.jobs}.")
        jobs = args.jobs or os.cpu_count() or 1
    except SimError as error:
        print(f"rummy sim: {error}", file=sys.stderr)
        return 2
    if args.plot is not None:
        from rummykit.sim_plot import PlotUnavailableError, check_plotting

        try:
            check_plotting()
        except PlotUnavailableError as error:
            print(f"rummy sim: {error}", file=sys.stderr)
            return 2
    if config.games != args.games and not args.quiet:
        print(
            f"rummy sim: {args.games} games rounded up to {config.games}: {config.sets} "
            f"duplicate sets of {config.seat_count} (one game a seat rotation).",
            file=sys.stderr,
        )
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

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
        disable=args.quiet or not errors.is_terminal,
    )
    try:
        with progress:
            task = progress.add_task(" ".join(config.bots), total=config.games)
            result = run_sim(
                config, jobs=jobs, on_games=lambda count: progress.advance(task, count)
            )
    except SimError as error:
        print(f"rummy sim: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rummy sim: interrupted.", file=sys.stderr)
        return 130
    except OSError as error:
        print(f"rummy sim: cannot write the records: {error}", file=sys.stderr)
        return 2
    if args.plot is not None:
        from rummykit.sim_plot import plot_result

        try:
            plot_result(result, args.plot)
        except OSError as error:
            print(f"rummy sim: cannot write {args.plot}: {error}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        out = Console(highlight=False)
        if out.is_terminal:
            out.print(result_table(result))
        else:
            # Piped: plain text, wide enough not to wrap, without rich's padding spaces.
            out.width = 160
            with out.capture() as captured:
                out.print(result_table(result))
            print("\n".join(line.rstrip() for line in captured.get().splitlines()))
    return 0


def _command_hint(args: argparse.Namespace) -> int:
    from rummykit.bots.hints import hint
    from rummykit.core.observation import observe
    from rummykit.core.record import replay

    try:
        record = load_record(_read_source(args.file))
    except (OSError, RecordError) as error:
        print(f"rummy hint: {error}", file=sys.stderr)
        return 2
    result = replay(record)
    game = result.state
    if result.error is not None or game is None:
        message = result.error.message if result.error else "nothing to replay"
        print(f"rummy hint: the record stops at an illegal action: {message}", file=sys.stderr)
        return 1
    if game.deal_over:
        print("rummy hint: the record ends with the deal over: there is no move to advise.")
        return 1
    seat = game.turn
    advice = hint(observe(game, seat), level=args.bot, seed=args.seed)
    name = record.players[seat]
    print(f"{name} to {game.phase.value}: {advice.action}")
    print(advice.reason)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser, with a sub-command per job."""
    parser = argparse.ArgumentParser(
        prog="rummy",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    play = commands.add_parser(
        "play",
        help="open the table in your browser and play against the computer",
        description="Start the table on this computer (127.0.0.1) and open it in your browser. "
        "Games are kept between runs; reload the page any time to get your seat back.",
    )
    play.add_argument("--port", type=int, default=0, help="the port (default: any free one)")
    play.add_argument("--no-browser", action="store_true", help="only print the address")
    play.add_argument("--store", help="the SQLite file for games (default: your data folder)")
    play.set_defaults(run=_command_play)
    serve_parser = commands.add_parser(
        "serve",
        help="host the table for others (no browser is opened)",
        description="Serve the table on an address of your choice, for hosting.",
    )
    serve_parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve_parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve_parser.add_argument("--store", help="the SQLite file for games")
    serve_parser.set_defaults(run=_command_serve)
    watch = commands.add_parser("watch", help="read a sample game told turn by turn")
    watch.set_defaults(run=_command_watch)
    replay = commands.add_parser(
        "replay",
        help="play back a game record and check every action",
        description="Play back a rummy-record/1 file, checking every action against its rules. "
        "Without --json, tells the game turn by turn with each deal's result and the totals.",
        epilog="exit codes: 0 every action legal; 1 an illegal action (its code and reason are "
        "printed); 2 a record that cannot be read (bad JSON, unknown preset or option, bad deck).",
    )
    replay.add_argument("file", help="the record, or - to read it from standard input")
    replay.add_argument("--json", action="store_true", help="print the result object of RECORD.md")
    replay.set_defaults(run=_command_replay)
    rules = commands.add_parser(
        "rules",
        help="show the presets and the rule options",
        description="Show the four presets side by side, or one preset with every option.",
    )
    rules.add_argument("preset", nargs="?", help="classic, standard, practice or party")
    rules.set_defaults(run=_command_rules)
    hint_parser = commands.add_parser(
        "hint",
        help="advise the seat to act at the end of a game record",
        description="Replay a record and say what a good player would do next, and why.",
    )
    hint_parser.add_argument("file", help="the record, or - to read it from standard input")
    hint_parser.add_argument(
        "--bot", choices=["strong", "expert"], default="strong", help="who advises"
    )
    hint_parser.add_argument("--seed", type=int, default=0, help="the expert's seed")
    hint_parser.set_defaults(run=_command_hint)
    _add_sim_parsers(commands)
    return parser


def _add_sim_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rummykit.sim import DEAL_ACTION_CAP, DEFAULT_PRESET

    sim = commands.add_parser(
        "sim",
        help="play bots against each other in duplicate sets and report the results",
        description="Play bots against each other, one bot name a seat (2 to 6), in duplicate "
        "sets:\nevery deck order is played once per seat rotation, so the luck of the cards "
        "cancels.\n--games is rounded up to whole sets. Results are reported per bot in the "
        "order given:\ngames won and points per deal with 95% intervals, going-out and "
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
    sim.add_argument("--json", action="store_true", help="print the results as JSON")
    sim.add_argument("--plot", metavar="FILE.png", help="draw win rates and points per deal")
    sim.add_argument("--quiet", action="store_true", help="no progress bar and no notes")
    sim.set_defaults(run=_command_sim)
    bots = commands.add_parser(
        "bots",
        help="list the bots that `rummy sim` can play",
        description="The registered bots, each with a line on how it plays.",
    )
    bots.set_defaults(run=_command_bots)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rummy`` command; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    code: int = args.run(args)
    return code
