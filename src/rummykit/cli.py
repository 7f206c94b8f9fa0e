"""The ``rummy`` command: replay game records, show the house rules, watch a game."""

from __future__ import annotations

import os
import sys

# This module imports nothing that Python has not loaded already: ``main`` imports the rest
# (argparse, the rules, the clients, the whole server for ``rummy serve``) inside its Ctrl+C
# handling, so a Ctrl+C while a command still imports ends it with a line, never a traceback.
# (``typing`` alone takes 7 ms or more to import; mypy reads any ``TYPE_CHECKING`` as true.)
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping, Sequence

    from rummykit.core.options import Choice, OptionSpec
    from rummykit.core.presets import Preset

_DESCRIPTION = """\
rummykit: straight Rummy, done properly.

Every game is kept as a record (rummy-record/1, a JSON file) that holds the rules,
the deck of every deal and every action; `rummy replay` plays one back and checks
every action against the rules.
"""

# `rummy rules NAME` wraps each option's explanation to a terminal's width, under its name.
_WIDTH = 100
_INDENT = "    "

_EPILOG = """\
examples:
  rummy play                      open the table in your browser and play
  rummy watch                     read a sample game between two computer players
  rummy replay game.json          the game told turn by turn, with the score
  rummy replay game.json --json   the result as JSON; exit 0 legal, 1 illegal, 2 unreadable
  rummy rules                     the presets side by side
  rummy rules party               one preset, each option explained
  rummy hint game.json            what to do next at the end of a record, and why
  rummy review game.json --seat 0 where seat 0's decisions gave away points
  rummy sim strong basic          bots against each other, with confidence intervals
  rummy party new --server URL --bot basic
                                  start a party on a server; a bot plays your seat
  rummy join CODE --server URL --bot strong
                                  join a party by its code; a bot plays the seat
"""


def _value_text(value: object) -> str:
    from rummykit.core.options import json_value

    value = json_value(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rules_table(presets: Mapping[str, Preset]) -> str:
    """``rummy rules``: the presets side by side, a row per option of their rules."""
    names = list(presets)
    mappings = [preset.rules.to_mapping() for preset in presets.values()]
    options = list(dict.fromkeys(name for m in mappings for name in m))
    header = ["option", *names]
    rows = [
        [option, *(_value_text(m[option]) if option in m else "-" for m in mappings)]
        for option in options
    ]
    rows.insert(0, ["seats", *(f"{p.min_seats}-{p.max_seats}" for p in presets.values())])
    widths = [max(len(row[col]) for row in [header, *rows]) for col in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * width for width in widths))
    for row in rows:
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return "\n".join(line.rstrip() for line in lines)


def _values_text(spec: OptionSpec, choices: Sequence[Choice]) -> str:
    from rummykit.core.options import OptionKind

    words = [f"{_value_text(choice.value)} ({choice.label})" for choice in choices]
    if choices is not spec.choices:  # a preset's own choices are all it offers
        return "; ".join(words)
    if spec.kind is OptionKind.BOOLEAN:
        words = ["true", "false"]
    if spec.minimum is not None:
        most = f" to {spec.maximum}" if spec.maximum is not None else " or more"
        words.append(f"{spec.minimum}{most}")
    if spec.none is not None:
        words.append(f"null ({spec.none})")
    return "; ".join(words)


def explain_preset(preset: Preset) -> str:
    """``rummy rules NAME``: the preset and each of its options, read from their descriptions."""
    import functools
    import textwrap

    from rummykit.core.rules import option_specs

    lines = [f"{preset.name} ({preset.seats_text} seats): {preset.summary}", ""]
    specs = option_specs(type(preset.rules))
    width = max(len(spec.name) for spec in specs)
    value_width = max(len(_value_text(getattr(preset.rules, spec.name))) for spec in specs)
    wrap = functools.partial(
        textwrap.fill, width=_WIDTH, initial_indent=_INDENT, subsequent_indent=_INDENT
    )
    label_indent = " " * (width + value_width + 4)
    for spec in specs:
        value = getattr(preset.rules, spec.name)
        offer = preset.offer(spec.name)
        offered = offer.choices if offer is not None else ()
        text = _value_text(value)
        label = next((c.label for c in offered if c.value == value), spec.label(value))
        head = f"{spec.name.ljust(width)}  {text.ljust(value_width)}  "
        if label != text:
            head = textwrap.fill(head + label, width=_WIDTH, subsequent_indent=label_indent)
        lines.append(head)
        lines.append(wrap(f"{spec.title}: {spec.help}"))
        lines.append(wrap(f"Values: {_values_text(spec, spec.choices)}."))
        if offer is not None:
            lines.append(wrap(f"The {preset.name} table offers: {_values_text(spec, offered)}."))
            if offer.help:
                lines.append(wrap(f"At the {preset.name} table: {offer.help}"))
    for tie in preset.ties:
        lines.append("")
        link = f"Linked: setting {tie.option} also sets {tie.follower}. {tie.reason}"
        lines.append(textwrap.fill(link, width=_WIDTH))
    return "\n".join(line.rstrip() for line in lines)


def _command_rules(args: argparse.Namespace) -> int:
    from rummykit.core.errors import RulesError
    from rummykit.core.presets import PRESETS, find_preset

    if args.preset is None:
        print(rules_table(PRESETS))
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
    print(explain_preset(preset))
    return 0


def _read_source(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _command_replay(args: argparse.Namespace) -> int:
    import json

    from rummykit.core.errors import RecordError
    from rummykit.core.record import load_record, replay_json

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

    from rummykit.server.site import PortInUse, ServerConfig, default_store_path, free_port, serve

    store = Path(args.store) if args.store else default_store_path()
    # One person on their own computer: every game in the file is theirs, and the page's
    # tokens would not find them (a new port each run is a new origin, with empty storage).
    config = ServerConfig(store_path=store, public_history=True)
    try:
        stopped_by_ctrl_c = serve(
            "127.0.0.1", args.port or free_port(), config, open_browser=not args.no_browser
        )
    except PortInUse as error:
        print(f"rummy play: {error}", file=sys.stderr)
        return 1
    return _INTERRUPTED if stopped_by_ctrl_c else 0


def _positive_int(text: str) -> int:
    """A whole number of at least 1, for argparse."""
    import argparse

    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return number


def _positive_seconds(text: str) -> float:
    """A number of seconds above zero, for an option (a usage error otherwise)."""
    import argparse

    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"must be above 0 seconds, not {text}")
    return seconds


def _proxy_address(text: str) -> str:
    """An IP address or network (``127.0.0.1``, ``10.0.0.0/8``), for argparse."""
    import argparse
    import ipaddress

    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an IP address or network: {text!r}") from None
    return text


def _command_serve(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rummykit.server.cluster import REDIS_URL_ENV
    from rummykit.server.site import (
        ConfigError,
        PortInUse,
        ServerConfig,
        default_store_path,
        serve,
    )
    from rummykit.server.store import DATABASE_URL_ENV, FileInUse

    try:
        config = ServerConfig(
            store_path=Path(args.store) if args.store else default_store_path(),
            database_url=args.database_url or os.environ.get(DATABASE_URL_ENV) or None,
            redis_url=args.redis_url or os.environ.get(REDIS_URL_ENV) or None,
            allowed_hosts=args.allowed_host,
            allowed_origins=args.allowed_origin,
            public_history=args.public_history,
            idle_table_s=args.idle_table_seconds,
            puzzles=Path(args.puzzles) if args.puzzles else None,
        )
    except ConfigError as error:
        print(f"rummy serve: {error}", file=sys.stderr)
        return 2
    try:
        stopped_by_ctrl_c = serve(
            args.host,
            args.port,
            config,
            open_browser=False,
            workers=args.workers,
            trusted_proxies=args.trusted_proxy,
        )
    except (FileInUse, PortInUse) as error:
        print(f"rummy serve: {error}", file=sys.stderr)
        return 1
    return _INTERRUPTED if stopped_by_ctrl_c else 0


def _command_watch(args: argparse.Namespace) -> int:
    from importlib import resources

    from rummykit.core.record import load_record
    from rummykit.transcript import transcript

    sample = resources.files("rummykit").joinpath("samples", "classic.json").read_text("utf-8")
    told, replayed = transcript(load_record(sample))
    print(told)
    return replayed.exit_code


def _command_hint(args: argparse.Namespace) -> int:
    from rummykit.bots.hints import hint
    from rummykit.core.errors import RecordError
    from rummykit.core.observation import observe
    from rummykit.core.record import load_record, replay

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


def version_text() -> str:
    """``rummy 0.1.0 (engine: compiled)``: the package's version and the engine's build."""
    from importlib.metadata import PackageNotFoundError, version

    from rummykit.build import engine_build

    try:
        number = version("rummykit")
    except PackageNotFoundError:  # the sources on the path, not installed
        number = "(not installed)"
    return f"rummy {number} (engine: {engine_build()})"


def _version_action() -> type[argparse.Action]:
    import argparse

    class ShowVersion(argparse.Action):
        def __init__(self, option_strings: Sequence[str], dest: str, help: str) -> None:
            super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

        def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
            print(version_text())
            parser.exit()

    return ShowVersion


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser, with a sub-command per job."""
    import argparse

    from rummykit.bots.hints import HINT_LEVELS
    from rummykit.client.account_cli import add_account_parsers
    from rummykit.client.bot_cli import add_bot_parser
    from rummykit.client.cli import add_party_parsers
    from rummykit.client.ratings import add_ratings_parser
    from rummykit.core.presets import PRESETS
    from rummykit.puzzles.cli import add_puzzles_parser
    from rummykit.review.cli import add_review_parser
    from rummykit.tournament.cli import add_sim_parsers

    parser = argparse.ArgumentParser(
        prog="rummy",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action=_version_action(),
        help="print the version and which engine runs (compiled or pure Python), and stop",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    play = commands.add_parser(
        "play",
        help="open the table in your browser and play against the computer",
        description="Start the table on this computer (127.0.0.1) and open it in your browser. "
        "Games are kept between runs; reload the page any time to get your seat back. Past "
        "games lists every finished game in the file: they are all yours.",
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
    serve_parser.add_argument(
        "--port", type=int, default=8000, help="the port (default 8000; 0: any free one, said)"
    )
    serve_parser.add_argument("--store", help="the SQLite file for games")
    serve_parser.add_argument(
        "--database-url",
        metavar="URL",
        help="keep the games in PostgreSQL instead (postgresql://USER@HOST:PORT/DB; default: "
        "RUMMY_DATABASE_URL if set); the schema is migrated at start",
    )
    serve_parser.add_argument(
        "--redis-url",
        metavar="URL",
        help="serve one site with other processes on the same --database-url: they share this "
        "Redis (redis://HOST:PORT/0; default: RUMMY_REDIS_URL if set); each table is played by "
        "one process and relayed by the others",
    )
    serve_parser.add_argument(
        "--allowed-host",
        action="append",
        metavar="NAME",
        help="a host name the server answers to (repeat it; *.example for any name under "
        "example); by default only localhost, 127.0.0.1 and [::1] at --port when --host is a "
        "loopback address (a page whose name was rebound to it is refused), and any name "
        "otherwise",
    )
    serve_parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="URL",
        help="another site whose pages may play here, like https://rummy.example (repeat it); "
        "the server's own origin is always allowed",
    )
    serve_parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        type=_proxy_address,
        metavar="ADDR",
        help="a reverse proxy (an IP address or network) whose X-Forwarded-For names the "
        "player's address (repeat it); by default none is trusted, and each request's address "
        "is its connection's. Behind nginx on the same machine: --trusted-proxy 127.0.0.1",
    )
    serve_parser.add_argument(
        "--public-history",
        action="store_true",
        help="list every finished game to everyone, and let anyone replay it and download its "
        "record; by default each player sees only the games played in their browser (its seat "
        "tokens work for 30 days after a game ends)",
    )
    serve_parser.add_argument(
        "--puzzles",
        metavar="FILE",
        help="serve these puzzles (a file of rummy puzzles make, from your own games) instead "
        "of the starter set",
    )
    serve_parser.add_argument(
        "--workers",
        type=_positive_int,
        metavar="N",
        help="processes for the computer players' thinking, hints and replays (default: one "
        "per core); the server itself stays in one process and answers while they think",
    )
    serve_parser.add_argument(
        "--idle-table-seconds",
        type=_positive_seconds,
        metavar="S",
        help="a table nobody watches or asks for this long leaves memory (kept in the store; "
        "default 600)",
    )
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
    replay.add_argument(
        "--json", action="store_true", help="print the result object of docs/RECORD.md"
    )
    replay.set_defaults(run=_command_replay)
    rules = commands.add_parser(
        "rules",
        help="show the presets and the rule options",
        description="Show the presets side by side, or one preset with every option.",
    )
    rules.add_argument("preset", nargs="?", help=f"one of {', '.join(PRESETS)}")
    rules.set_defaults(run=_command_rules)
    hint_parser = commands.add_parser(
        "hint",
        help="advise the seat to act at the end of a game record",
        description="Replay a record and say what a good player would do next, and why.",
    )
    hint_parser.add_argument("file", help="the record, or - to read it from standard input")
    hint_parser.add_argument("--bot", choices=HINT_LEVELS, default="strong", help="who advises")
    hint_parser.add_argument("--seed", type=int, default=0, help="the searching player's seed")
    hint_parser.set_defaults(run=_command_hint)
    add_review_parser(commands)
    add_puzzles_parser(commands)
    add_sim_parsers(commands)
    add_party_parsers(commands)
    add_account_parsers(commands)
    add_bot_parser(commands)
    add_ratings_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rummy`` command; returns the exit code.

    A reader that stops early (``rummy rules party | head -1``) ends the command quietly, with
    the exit code a shell gives a program that a closed pipe ended (141, 128 + SIGPIPE).
    Ctrl+C ends any command with a line and no traceback (130, 128 + SIGINT), whenever it comes
    (a server still starting, say).
    """
    try:
        code = _run(argv)
        sys.stdout.flush()
    except KeyboardInterrupt:
        print("Stopped (Ctrl+C).", file=sys.stderr)
        return _INTERRUPTED
    except BrokenPipeError:
        # Python's advice for a closed pipe: point standard output at the null device, so the
        # flush at exit finds nowhere to fail either.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return _CLOSED_PIPE
    return code


_INTERRUPTED = 128 + 2
"""The exit code of a command stopped by Ctrl+C (128 + SIGINT, as a shell says)."""

_CLOSED_PIPE = 128 + 13
"""The exit code of a command whose reader closed the pipe (128 + SIGPIPE, as a shell says)."""


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        code: int = args.run(args)
    except ModuleNotFoundError as missing:
        extra = _extra_of((missing.name or "").split(".")[0])
        if extra is None:
            raise
        print(
            f"rummy {args.command}: this install has no {missing.name} (part of "
            f"rummykit[{extra}]); install it with: pip install 'rummykit[{extra}]'",
            file=sys.stderr,
        )
        return _MISSING_EXTRA
    return code


_MISSING_EXTRA = 2
"""The exit code of a command whose extra is not installed (a usage error: install it)."""


def _extra_of(module: str) -> str | None:
    """The smallest extra of ours that brings ``module`` (pyproject.toml's, as installed)."""
    import re
    from importlib import metadata

    wanted = re.sub(r"[-_.]+", "-", module).lower()
    extras: set[str] = set()
    for requirement in metadata.requires("rummykit") or []:
        found = re.match(r"\s*([\w.-]+)[^;]*;.*extra\s*==\s*[\"'](\w+)[\"']", requirement)
        if found and re.sub(r"[-_.]+", "-", found.group(1)).lower() == wanted:
            extras.add(found.group(2))
    return next((extra for extra in ("client", "server") if extra in extras), None)
