"""The hidden-card audit at scale: whole games over real sockets, every frame checked.

Run it with ``.venv/bin/python benchmarks/audit.py`` (500 games) or ``--games N --seed S``.
Each game is a table of a random preset and seat count (one person and one to five computer
players, ``basic`` or ``strong``; one to three deals; sometimes jokers, sometimes two decks)
on a live server (uvicorn on 127.0.0.1 in a thread, a store in a temporary folder), at most
15 new stocks a deal. The person's seat plays over a real socket, the computer at pace 0.
Every frame the socket received is checked against the truth replayed from the store, so is
every observation the computer players were handed, and ``observe`` for every seat and a
spectator at random positions (``tests/table_client.py``: ``play_audited_game``; the same
audit runs on a few games in CI, ``tests/server/test_hidden_card_audit.py``).

A failing game is reported with its own seed: ``--game-seed G`` plays that one game again.
The exit status is 1 if any game failed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rummykit.protocol.facts import BotLevel
from rummykit.server.site.run import free_port
from table_client import (
    AUDIT_LEVELS,
    LiveServer,
    ManualClock,
    play_audited_game,
    random_table,
)


@dataclass
class Tally:
    """What the audit checked, all games together."""

    games: int = 0
    versions: int = 0
    deals: int = 0
    frames: int = 0
    cards_named: int = 0
    observations: int = 0
    tables: Counter[str] = field(default_factory=Counter)
    seats: Counter[int] = field(default_factory=Counter)
    decks: Counter[str] = field(default_factory=Counter)
    failures: list[dict[str, Any]] = field(default_factory=list)


def audit_one(
    server: LiveServer, game_seed: int, levels: tuple[BotLevel, ...], tally: Tally
) -> None:
    """Play and audit the game of ``game_seed``; add it to ``tally``."""
    rng = random.Random(game_seed)  # as tests/server/test_hidden_card_audit.py does
    body = random_table(rng, levels)
    rules = body["rules"]
    try:
        game = play_audited_game(server, body, rng)
    except Exception as error:  # a leak (AssertionError) or a server that stopped answering
        tally.failures.append(
            {
                "game_seed": game_seed,
                "body": body,
                "error": "".join(traceback.format_exception_only(error)).strip(),
            }
        )
        return
    tally.games += 1
    tally.versions += len(game.truth)
    tally.deals += len(game.last["history"])
    tally.frames += game.frames
    tally.cards_named += game.cards_named
    tally.observations += game.observations
    tally.tables[body["preset"]] += 1
    tally.seats[game.seats] += 1
    tally.decks[
        f"{rules.get('decks', 1)} deck(s), {'jokers' if rules.get('jokers') else 'no jokers'}"
    ] += 1


@contextmanager
def progress(total: int) -> Iterator[Callable[[str], None]]:
    """A progress bar (rich's on a terminal), or a line every tenth of the way."""
    if sys.stdout.isatty():
        try:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
        except ImportError:
            pass
        else:
            columns = (
                TextColumn("audit"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.description}"),
            )
            with Progress(*columns) as bar:
                task = bar.add_task("", total=total)
                yield lambda said: bar.update(task, advance=1, description=said)
            return
    done = 0
    step = max(1, total // 10)

    def advance(said: str) -> None:
        nonlocal done
        done += 1
        if done % step == 0 or done == total:
            print(f"audit: {done}/{total} games  {said}", flush=True)

    yield advance


def summary(tally: Tally, seeded: str, seconds: float) -> str:
    """The result, for people."""
    played = tally.games + len(tally.failures)
    lines = [
        f"hidden-card audit: {played} games ({seeded}), {seconds:.1f} s "
        f"({seconds / max(played, 1):.2f} s a game)",
        f"  games clean: {tally.games}; failed: {len(tally.failures)}",
        f"  checked: {tally.frames:,} frames naming {tally.cards_named:,} cards, "
        f"{tally.versions:,} table versions in {tally.deals:,} deals, "
        f"{tally.observations:,} observations (each one given to a computer player, and "
        "observe() for every seat and a spectator at 8 positions a game)",
        "  presets: " + ", ".join(f"{name} {n}" for name, n in sorted(tally.tables.items())),
        "  seats: " + ", ".join(f"{seats}: {n}" for seats, n in sorted(tally.seats.items())),
        "  decks: " + ", ".join(f"{kind}: {n}" for kind, n in sorted(tally.decks.items())),
    ]
    for failure in tally.failures:
        lines.append(
            f"  FAILED game seed {failure['game_seed']} ({failure['body']}): {failure['error']}"
        )
        lines.append(
            f"    again: .venv/bin/python benchmarks/audit.py --game-seed {failure['game_seed']}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games to play (default 500)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the run (default: any)")
    parser.add_argument(
        "--game-seed", type=int, default=None, help="play only the game of this seed, again"
    )
    parser.add_argument(
        "--levels",
        nargs="+",
        choices=get_args(BotLevel),
        default=list(AUDIT_LEVELS),
        help="computer levels to draw from (default: basic strong; expert is slow)",
    )
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    if args.game_seed is not None:
        game_seeds = [args.game_seed]
    else:
        master = random.Random(seed)
        game_seeds = [master.randrange(2**32) for _ in range(args.games)]
    levels: tuple[BotLevel, ...] = tuple(args.levels)
    tally = Tally()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rummy-audit-") as folder:
        server = LiveServer(Path(folder) / "tables.sqlite3", free_port(), ManualClock().sleep)
        server.start()
        try:
            with progress(len(game_seeds)) as advance:
                for game_seed in game_seeds:
                    audit_one(server, game_seed, levels, tally)
                    advance(f"{tally.frames:,} frames, {len(tally.failures)} failed")
        finally:
            server.stop()
    seconds = time.perf_counter() - started
    seeded = f"game seed {args.game_seed}" if args.game_seed is not None else f"seed {seed}"
    print(summary(tally, seeded, seconds))
    if args.json is not None:
        figures = {
            "seed": seed,
            "seconds": round(seconds, 1),
            **{
                name: getattr(tally, name)
                for name in ("games", "versions", "deals", "frames", "cards_named", "observations")
            },
            "presets": dict(tally.tables),
            "seats": {str(seats): n for seats, n in tally.seats.items()},
            "decks": dict(tally.decks),
            "failures": tally.failures,
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
