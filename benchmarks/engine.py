"""Engine benchmark: random legal play and the engine's hot calls, beside OpenSpiel's gin_rummy.

Run it from the project venv, on an otherwise quiet machine:

    make bench                                    # installs the `bench` extra, then runs this
    .venv/bin/python benchmarks/engine.py         # full run, about 100 seconds
    .venv/bin/python benchmarks/engine.py --quick # smoke run, under ten seconds
    .venv/bin/python benchmarks/engine.py --json results.json --seconds 3 --repeats 7

What it measures (one process, pinned to one core where the OS allows it):

* random play: every move a uniform choice from ``list(state.legal_actions())``, played with
  the checked ``state.apply`` (the honest figure) and again with ``state.apply_unchecked``;
  moves and deals per second, the deals (and new games) dealt inside the timed loop. Each deal
  is cut off after 2000 actions (random play can cycle under unlimited renewals).
* the anchor: the same loop on OpenSpiel's ``gin_rummy`` (``pyspiel``; ``pip install
  open-spiel``, the ``bench`` extra). Only player moves count as moves, not chance nodes
  (the deal and each stock draw are chance nodes there; they are timed but not counted).
* a new deal (``GameState.new`` and ``state.start_deal``), the legal-action list of positions
  met in random play, and minimum deadwood: ``deadwood_value`` of 10 cards and
  ``best_discard`` of 11, cold (memo cleared before each batch, fresh hands) and warm (the
  same hands again: memo hits where the path has a memo, counted and labelled), beside
  OpenSpiel's C++ ``min_deadwood``; and ``best_partition``, the path the memo serves.

Every figure is the median over interleaved repeats (ours, then the anchor, repeat after
repeat), with the best repeat beside it. Ratios are "times as fast as OpenSpiel": above 1.0
rummykit is faster. OpenSpiel is a benchmark extra only, never a runtime dependency; without
it the script prints a note and reports rummykit alone (exit status 0).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import gc
import hashlib
import importlib.metadata
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rummykit.build import engine_build
from rummykit.core import deadwood
from rummykit.core.cards import NATURAL_CARDS, Card
from rummykit.core.deadwood import best_discard, best_partition, deadwood_value
from rummykit.core.presets import find_preset
from rummykit.core.rules import Rules
from rummykit.core.state import GameState, Phase

DEAL_CAP = 2000
"""Actions after which a random deal is abandoned (counted as capped)."""
MAIN_PRESET = "classic"
PRESET_TABLES: tuple[tuple[str, int], ...] = (
    ("classic", 2),
    ("standard", 2),
    ("practice", 2),
    ("party", 2),
    ("classic", 4),
)
GOAL_MOVES_RATIO = 1.0
GOAL_NEW_DEAL_US = 100.0
GOAL_DEADWOOD_10_US = 10.0
GOAL_DISCARD_11_US = 70.0

clock = time.perf_counter_ns


@dataclasses.dataclass(frozen=True)
class Config:
    """How long and how often to measure."""

    quick: bool
    seconds: float
    """Seconds of random play a repeat, for the main loops."""
    preset_seconds: float
    """Seconds of random play a repeat, for each preset of the preset table."""
    repeats: int
    positions: int
    """Positions sampled for the legal-action cost."""
    new_games: int
    """``GameState.new`` calls a batch."""
    next_deals: int
    """``start_deal`` calls a repeat (each timed alone; the deal is played out between)."""
    hands: int
    """Distinct random hands a min-deadwood batch (11 memo entries each must fit in 65536)."""


def make_config(args: argparse.Namespace) -> Config:
    if args.quick:
        config = Config(True, 0.2, 0.08, 3, 300, 300, 20, 300)
    else:
        config = Config(False, 2.0, 1.0, 5, 2000, 3000, 300, 4000)
    if args.seconds is not None:
        config = dataclasses.replace(config, seconds=args.seconds, preset_seconds=args.seconds / 2)
    if args.repeats is not None:
        config = dataclasses.replace(config, repeats=args.repeats)
    return config


# ----- statistics -----------------------------------------------------------------------


@dataclasses.dataclass
class Series:
    """One figure measured once a repeat."""

    unit: str
    higher_is_better: bool
    values: list[float] = dataclasses.field(default_factory=list)
    samples: list[float] = dataclasses.field(default_factory=list)
    """Single-call times (µs) pooled over the repeats, where they were taken one by one."""

    @property
    def median(self) -> float:
        return statistics.median(self.values) if self.values else float("nan")

    @property
    def best(self) -> float:
        if not self.values:
            return float("nan")
        return max(self.values) if self.higher_is_better else min(self.values)

    def percentile(self, fraction: float) -> float:
        if not self.samples:
            return float("nan")
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "unit": self.unit,
            "median": self.median,
            "best": self.best,
            "repeats": self.values,
        }
        if self.samples:
            data["p50"] = self.percentile(0.5)
            data["p99"] = self.percentile(0.99)
            data["max"] = max(self.samples)
        return data


def timer_overhead_ns() -> float:
    """What an empty ``t0 = clock(); clock() - t0`` costs, to subtract from one-call times."""
    spans = []
    for _ in range(20000):
        start = clock()
        spans.append(clock() - start)
    return float(statistics.median(spans))


def speed_ratio(ours: float, anchor: float | None, higher_is_better: bool) -> float | None:
    """How many times as fast as the anchor rummykit is (above 1.0: faster)."""
    if anchor is None or anchor != anchor or ours != ours or not ours or not anchor:
        return None
    return ours / anchor if higher_is_better else anchor / ours


# ----- random play ----------------------------------------------------------------------


@dataclasses.dataclass
class PlayRun:
    moves: int
    deals: int
    capped: int
    seconds: float
    chance: int = 0


def play_ours(rules: Rules, seats: int, seconds: float, seed: int, checked: bool) -> PlayRun:
    """Random legal play for ``seconds`` (finishing the deal under way): deals and moves."""
    rng = random.Random(seed)
    choice = rng.choice
    over = Phase.OVER
    budget = int(seconds * 1e9)
    moves = deals = capped = 0
    start = clock()
    state = GameState.new(rules, seats, seed=rng.getrandbits(32))
    while True:
        count = 0
        if checked:
            while state.phase is not over and count < DEAL_CAP:
                actions = list(state.legal_actions())
                state.apply(choice(actions))
                count += 1
        else:
            while state.phase is not over and count < DEAL_CAP:
                actions = list(state.legal_actions())
                state.apply_unchecked(choice(actions))
                count += 1
        moves += count
        deals += 1
        if state.phase is not over:
            capped += 1
        if clock() - start >= budget:
            break
        if state.game_over or state.phase is not over:
            state = GameState.new(rules, seats, seed=rng.getrandbits(32))
        else:
            state.start_deal()
    return PlayRun(moves, deals, capped, (clock() - start) / 1e9)


def play_anchor(game: Any, seconds: float, seed: int, fresh: bool) -> PlayRun:
    """The same loop on OpenSpiel's gin_rummy: one game there is one deal.

    ``fresh``: each deal starts from ``game.new_initial_state()`` (the anchor as specified);
    else from a copy of one initial state, which leaves out new_initial_state's own cost.
    """
    rng = random.Random(seed)
    budget = int(seconds * 1e9)
    moves = chance = deals = 0
    start = clock()
    template = game.new_initial_state()
    while True:
        state = game.new_initial_state() if fresh else template.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights=probs)[0])
                chance += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        deals += 1
        if clock() - start >= budget:
            break
    return PlayRun(moves, deals, 0, (clock() - start) / 1e9, chance)


def finish_deal(state: GameState, rng: random.Random) -> None:
    """Play the deal under way to its end (or the cap) at random, untimed."""
    count = 0
    while state.phase is not Phase.OVER and count < DEAL_CAP:
        state.apply_unchecked(rng.choice(list(state.legal_actions())))
        count += 1


# ----- new deals ------------------------------------------------------------------------


def time_new_games(rules: Rules, seats: int, count: int, seed: int) -> float:
    """µs a ``GameState.new`` (a game object and its first deal)."""
    seeds = range(seed, seed + count)
    gc.collect()
    start = clock()
    for one in seeds:
        GameState.new(rules, seats, seed=one)
    return (clock() - start) / count / 1000


def time_next_deals(
    rules: Rules, seats: int, count: int, seed: int, overhead: float
) -> list[float]:
    """µs of each ``start_deal`` (the next deal of a game), timed one by one."""
    rng = random.Random(seed)
    state = GameState.new(rules, seats, seed=seed)
    times: list[float] = []
    while len(times) < count:
        finish_deal(state, rng)
        if state.game_over or state.phase is not Phase.OVER:
            state = GameState.new(rules, seats, seed=rng.getrandbits(32))
            continue
        start = clock()
        state.start_deal()
        times.append((clock() - start - overhead) / 1000)
    return times


def time_anchor_deals(game: Any, count: int, seed: int, fresh: bool) -> float:
    """µs for OpenSpiel's new deal: a new (or copied) initial state and its dealing nodes."""
    rng = random.Random(seed)
    template = game.new_initial_state()
    gc.collect()
    start = clock()
    for _ in range(count):
        state = game.new_initial_state() if fresh else template.clone()
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights=probs)[0])
    return (clock() - start) / count / 1000


# ----- legal actions --------------------------------------------------------------------


def sample_positions(rules: Rules, seats: int, count: int, seed: int) -> list[GameState]:
    """Copies of positions met in random play, about one in eight, over many deals."""
    rng = random.Random(seed)
    positions: list[GameState] = []
    state = GameState.new(rules, seats, seed=seed)
    while len(positions) < count:
        steps = 0
        while state.phase is not Phase.OVER and steps < DEAL_CAP and len(positions) < count:
            actions = list(state.legal_actions())
            if rng.random() < 0.125:
                positions.append(state.clone())
            state.apply_unchecked(rng.choice(actions))
            steps += 1
        if state.game_over or state.phase is not Phase.OVER:
            state = GameState.new(rules, seats, seed=rng.getrandbits(32))
        else:
            state.start_deal()
    return positions


def time_legal(positions: Sequence[GameState]) -> float:
    """Mean µs of ``list(state.legal_actions())`` over the positions."""
    gc.collect()
    start = clock()
    for state in positions:
        list(state.legal_actions())
    return (clock() - start) / max(1, len(positions)) / 1000


def sample_anchor_positions(game: Any, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    positions: list[Any] = []
    while len(positions) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(positions) < count:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights=probs)[0])
            else:
                legal = state.legal_actions()
                if rng.random() < 0.125:
                    positions.append(state.clone())
                state.apply_action(rng.choice(legal))
    return positions


def time_anchor_legal(positions: Sequence[Any]) -> float:
    gc.collect()
    start = clock()
    for state in positions:
        state.legal_actions()
    return (clock() - start) / max(1, len(positions)) / 1000


# ----- minimum deadwood -----------------------------------------------------------------


def random_hands(count: int, size: int, seed: int) -> list[tuple[Card, ...]]:
    """``count`` distinct hands of ``size`` cards from one deck, in dealt (unsorted) order."""
    rng = random.Random(seed)
    seen: set[tuple[int, ...]] = set()
    hands: list[tuple[Card, ...]] = []
    while len(hands) < count:
        hand = tuple(rng.sample(NATURAL_CARDS, size))
        key = tuple(sorted(card.code for card in hand))
        if key not in seen:
            seen.add(key)
            hands.append(hand)
    return hands


def anchor_hand(hand: Sequence[Card]) -> list[int]:
    """OpenSpiel's card numbers (suit * 13 + rank - 1); the suits' order does not matter."""
    return [(card.code % 4) * 13 + card.code // 4 for card in hand]


def time_calls(call: Callable[[Any], object], args: Sequence[Any], overhead: float) -> list[float]:
    """µs of each ``call(arg)``, timed one by one, less the timer's own cost."""
    gc.collect()
    times: list[float] = []
    append = times.append
    for arg in args:
        start = clock()
        call(arg)
        append((clock() - start - overhead) / 1000)
    return times


def clear_memo() -> None:
    """Empty the deadwood memo (``_solve``'s cache), where there is one."""
    cache_clear = getattr(getattr(deadwood, "_solve", None), "cache_clear", None)
    if cache_clear is not None:
        cache_clear()


def memo_hits() -> int:
    """Hits of the deadwood memo so far (0 where there is none)."""
    cache_info = getattr(getattr(deadwood, "_solve", None), "cache_info", None)
    return int(cache_info().hits) if cache_info is not None else 0


def add_calls(series: Series, times: list[float]) -> None:
    series.values.append(statistics.fmean(times))
    series.samples.extend(times)


# ----- the run --------------------------------------------------------------------------


def load_anchor() -> tuple[Any, Any, str | None]:
    """OpenSpiel's gin_rummy game and its deadwood utilities, or a note why there are none."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError as error:
        return None, None, f"pyspiel is not importable ({error})"
    game = pyspiel.load_game("gin_rummy")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    return game, utils, None


def pin_core() -> int | None:
    """Pin this process to one core (the first it may use); ``None`` where the OS cannot."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    core = 0 if 0 in allowed else allowed[0]
    try:
        os.sched_setaffinity(0, {core})
    except OSError:
        return None
    return core


def machine_info(core: int | None) -> dict[str, Any]:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    digest = hashlib.sha256()
    for path in sorted(
        (Path(__file__).resolve().parents[1] / "src" / "rummykit" / "core").rglob("*.py")
    ):
        digest.update(path.read_bytes())
    try:
        spiel = importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        spiel = None
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": model,
        "nproc": os.cpu_count(),
        "pinned_core": core,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "engine": engine_build(),
        "platform": platform.platform(),
        "rummykit": importlib.metadata.version("rummykit"),
        "open_spiel": spiel,
        "commit": commit,
        "core_sha256": digest.hexdigest()[:12],
    }


@dataclasses.dataclass
class Results:
    play: dict[str, Series] = dataclasses.field(default_factory=dict)
    costs: dict[str, Series] = dataclasses.field(default_factory=dict)
    presets: dict[str, dict[str, Series]] = dataclasses.field(default_factory=dict)
    info: dict[str, float] = dataclasses.field(default_factory=dict)


def series(results: dict[str, Series], name: str, unit: str, higher: bool) -> Series:
    return results.setdefault(name, Series(unit, higher))


def record_play(results: dict[str, Series], prefix: str, run: PlayRun) -> None:
    series(results, f"{prefix} moves/s", "moves/s", True).values.append(run.moves / run.seconds)
    series(results, f"{prefix} deals/s", "deals/s", True).values.append(run.deals / run.seconds)
    series(results, f"{prefix} moves/deal", "moves", True).values.append(run.moves / run.deals)
    capped = 100 * run.capped / run.deals
    series(results, f"{prefix} capped %", "%", False).values.append(capped)
    if run.chance:
        rate = (run.moves + run.chance) / run.seconds
        series(results, f"{prefix} actions/s incl. chance", "actions/s", True).values.append(rate)


def measure_play(config: Config, game: Any, results: Results, say: Callable[[str], None]) -> None:
    rules = find_preset(MAIN_PRESET).rules
    warm = min(0.5, config.seconds / 4)
    play_ours(rules, 2, warm, 1, True)
    play_ours(rules, 2, warm, 1, False)
    if game is not None:
        play_anchor(game, warm, 1, True)
        play_anchor(game, warm, 1, False)
    for repeat in range(config.repeats):
        say(f"random play, repeat {repeat + 1}/{config.repeats}")
        gc.collect()
        record_play(results.play, "ours", play_ours(rules, 2, config.seconds, 7, True))
        gc.collect()
        record_play(results.play, "unchecked", play_ours(rules, 2, config.seconds, 7, False))
        if game is not None:
            gc.collect()
            record_play(results.play, "anchor", play_anchor(game, config.seconds, 7, True))
            gc.collect()
            run = play_anchor(game, config.seconds, 7, False)
            record_play(results.play, "anchor cloned", run)


def measure_presets(config: Config, results: Results, say: Callable[[str], None]) -> None:
    for name, seats in PRESET_TABLES:
        play_ours(find_preset(name).rules, seats, min(0.2, config.preset_seconds), 3, True)
    for repeat in range(config.repeats):
        say(f"presets, repeat {repeat + 1}/{config.repeats}")
        for name, seats in PRESET_TABLES:
            gc.collect()
            run = play_ours(find_preset(name).rules, seats, config.preset_seconds, 11, True)
            record_play(results.presets.setdefault(f"{name}, {seats} seats", {}), "ours", run)


def measure_costs(
    config: Config, game: Any, utils: Any, results: Results, say: Callable[[str], None]
) -> None:
    rules = find_preset(MAIN_PRESET).rules
    overhead = timer_overhead_ns()
    results.info["timer overhead ns"] = overhead
    costs = results.costs

    say("sampling positions")
    positions = sample_positions(rules, 2, config.positions, 5)
    play_positions = [state for state in positions if state.phase is Phase.PLAY]
    draw_positions = [state for state in positions if state.phase is Phase.DRAW]
    results.info["legal actions a position"] = statistics.fmean(
        len(state.legal_actions()) for state in positions
    )
    results.info["legal actions a play position"] = statistics.fmean(
        len(state.legal_actions()) for state in play_positions
    )
    anchor_positions = (
        sample_anchor_positions(game, config.positions, 5) if game is not None else []
    )
    if anchor_positions:
        results.info["anchor legal actions a position"] = statistics.fmean(
            len(state.legal_actions()) for state in anchor_positions
        )

    # Warm-up: every call once, so imports, caches of constants and the like are settled.
    time_new_games(rules, 2, 50, 0)
    time_next_deals(rules, 2, 5, 0, overhead)
    time_legal(positions)
    for hand in random_hands(50, 11, 99):
        deadwood_value(hand[:10], rules)
        best_discard(hand, rules)
        if utils is not None:
            utils.min_deadwood(anchor_hand(hand))
    if game is not None:
        time_anchor_deals(game, 10, 0, True)
        time_anchor_deals(game, 50, 0, False)
        time_anchor_legal(anchor_positions)

    for repeat in range(config.repeats):
        say(f"costs, repeat {repeat + 1}/{config.repeats}")
        seed = 1000 * (repeat + 1)
        series(costs, "ours new game", "µs", False).values.append(
            time_new_games(rules, 2, config.new_games, seed)
        )
        add_calls(
            series(costs, "ours next deal", "µs", False),
            time_next_deals(rules, 2, config.next_deals, seed, overhead),
        )
        if game is not None:
            series(costs, "anchor new deal", "µs", False).values.append(
                time_anchor_deals(game, max(10, config.new_games // 10), seed, True)
            )
            series(costs, "anchor cloned deal", "µs", False).values.append(
                time_anchor_deals(game, config.new_games, seed, False)
            )
        series(costs, "ours legal", "µs", False).values.append(time_legal(positions))
        series(costs, "ours legal play", "µs", False).values.append(time_legal(play_positions))
        series(costs, "ours legal draw", "µs", False).values.append(time_legal(draw_positions))
        if game is not None:
            series(costs, "anchor legal", "µs", False).values.append(
                time_anchor_legal(anchor_positions)
            )

        measure_deadwood(config, utils, results, seed, overhead)


def measure_deadwood(
    config: Config, utils: Any, results: Results, seed: int, overhead: float
) -> None:
    """One repeat of the deadwood costs: cold and warm, classic and standard, and the anchor."""
    rules = find_preset(MAIN_PRESET).rules
    standard = find_preset("standard").rules
    costs = results.costs

    def deadwood_10(hand: Sequence[Card]) -> int:
        return deadwood_value(hand, rules)

    def discard_11(hand: Sequence[Card]) -> tuple[Card, int]:
        return best_discard(hand, rules)

    def partition_10(hand: Sequence[Card]) -> object:
        return best_partition(hand, rules)

    def deadwood_10_standard(hand: Sequence[Card]) -> int:
        return deadwood_value(hand, standard)

    def discard_11_standard(hand: Sequence[Card]) -> tuple[Card, int]:
        return best_discard(hand, standard)

    hands_10 = random_hands(config.hands, 10, seed + 1)
    hands_11 = random_hands(config.hands, 11, seed + 2)
    for suffix, solve_10, solve_11 in (
        ("", deadwood_10, discard_11),
        (" standard", deadwood_10_standard, discard_11_standard),
    ):
        clear_memo()
        add_calls(
            series(costs, f"ours deadwood10 cold{suffix}", "µs", False),
            time_calls(solve_10, hands_10, overhead),
        )
        hits = memo_hits()
        add_calls(
            series(costs, f"ours deadwood10 warm{suffix}", "µs", False),
            time_calls(solve_10, hands_10, overhead),
        )
        results.info[f"memo hits, deadwood10 warm{suffix}"] = memo_hits() - hits
        clear_memo()
        add_calls(
            series(costs, f"ours discard11 cold{suffix}", "µs", False),
            time_calls(solve_11, hands_11, overhead),
        )
        hits = memo_hits()
        add_calls(
            series(costs, f"ours discard11 warm{suffix}", "µs", False),
            time_calls(solve_11, hands_11, overhead),
        )
        results.info[f"memo hits, discard11 warm{suffix}"] = memo_hits() - hits
    clear_memo()
    add_calls(
        series(costs, "ours partition10 cold", "µs", False),
        time_calls(partition_10, hands_10, overhead),
    )
    hits = memo_hits()
    add_calls(
        series(costs, "ours partition10 warm", "µs", False),
        time_calls(partition_10, hands_10, overhead),
    )
    results.info["memo hits, partition10 warm"] = memo_hits() - hits
    clear_memo()
    if utils is not None:
        add_calls(
            series(costs, "anchor deadwood10", "µs", False),
            time_calls(utils.min_deadwood, [anchor_hand(hand) for hand in hands_10], overhead),
        )
        add_calls(
            series(costs, "anchor discard11", "µs", False),
            time_calls(utils.min_deadwood, [anchor_hand(hand) for hand in hands_11], overhead),
        )


# ----- the report -----------------------------------------------------------------------


def fmt(value: float | None, digits: int = 1) -> str:
    if value is None or value != value:
        return "n/a"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def fmt_ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}×"


def render(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A table: rich's on a terminal where rich is installed, else plain text."""
    if sys.stdout.isatty():
        try:
            from rich.console import Console
            from rich.table import Table
        except ImportError:
            pass
        else:
            table = Table(title=title, title_justify="left")
            for index, header in enumerate(headers):
                table.add_column(header, justify="left" if index == 0 else "right")
            for row in rows:
                table.add_row(*row)
            Console().print(table)
            return
    widths = [max(len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if index == 0 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    print(f"\n{title}")
    print(line(headers))
    print("-" * len(line(headers)))
    for row in rows:
        print(line(row))


def median_of(figures: dict[str, Series], name: str) -> float | None:
    figure = figures.get(name)
    return figure.median if figure is not None else None


def play_rows(results: Results) -> list[list[str]]:
    """Random play: rummykit beside both OpenSpiel loops."""
    play = results.play
    rows = []
    for label, name, anchor_name in (
        ("moves/s, apply (checked)", "ours moves/s", "moves/s"),
        ("moves/s, apply_unchecked", "unchecked moves/s", "moves/s"),
        ("deals/s, apply (checked)", "ours deals/s", "deals/s"),
        ("moves a deal", "ours moves/deal", "moves/deal"),
    ):
        ours = play[name]
        fresh = median_of(play, f"anchor {anchor_name}")
        cloned = median_of(play, f"anchor cloned {anchor_name}")
        rows.append(
            [
                label,
                fmt(ours.median),
                fmt(ours.best),
                fmt(fresh),
                fmt_ratio(speed_ratio(ours.median, fresh, True)),
                fmt(cloned),
                fmt_ratio(speed_ratio(ours.median, cloned, True)),
            ]
        )
    return rows


def cost_row(label: str, ours: Series, anchor: float | None, goal: str = "") -> list[str]:
    spread = (
        f"{fmt(ours.percentile(0.5), 2)} / {fmt(ours.percentile(0.99), 2)}" if ours.samples else ""
    )
    return [
        label,
        fmt(ours.median, 2),
        fmt(ours.best, 2),
        spread,
        fmt(anchor, 2),
        fmt_ratio(speed_ratio(ours.median, anchor, False)),
        goal,
    ]


def warm_label(results: Results, what: str, key: str) -> str:
    hits = results.info.get(f"memo hits, {key}", 0)
    return f"{what}, warm ({'memo hits' if hits else 'repeat; this path has no memo'})"


def cost_rows(results: Results) -> list[list[str]]:
    costs = results.costs
    anchor = {name[len("anchor ") :]: figure.median for name, figure in costs.items()
              if name.startswith("anchor ")}  # fmt: skip
    return [
        cost_row("new deal: GameState.new", costs["ours new game"], anchor.get("new deal"),
                 "≤100 µs"),
        cost_row("new deal: start_deal", costs["ours next deal"], anchor.get("cloned deal"),
                 "≤100 µs"),
        cost_row("legal actions, random-play positions", costs["ours legal"],
                 anchor.get("legal")),
        cost_row("legal actions, play-phase positions", costs["ours legal play"], None),
        cost_row("legal actions, draw-phase positions", costs["ours legal draw"], None),
        cost_row("min deadwood, 10 cards, cold", costs["ours deadwood10 cold"],
                 anchor.get("deadwood10"), "≤10 µs"),
        cost_row("best discard of 11, cold", costs["ours discard11 cold"],
                 anchor.get("discard11"), "≤70 µs"),
        cost_row(warm_label(results, "min deadwood, 10 cards", "deadwood10 warm"),
                 costs["ours deadwood10 warm"], None),
        cost_row(warm_label(results, "best discard of 11", "discard11 warm"),
                 costs["ours discard11 warm"], None),
        cost_row("best_partition, 10 cards, cold", costs["ours partition10 cold"], None),
        cost_row(warm_label(results, "best_partition, 10 cards", "partition10 warm"),
                 costs["ours partition10 warm"], None),
        cost_row("min deadwood, 10 cards, cold, aces low or high",
                 costs["ours deadwood10 cold standard"], None),
        cost_row("best discard of 11, cold, aces low or high",
                 costs["ours discard11 cold standard"], None),
    ]  # fmt: skip


def goals(results: Results) -> list[tuple[str, str, bool | None]]:
    play, costs = results.play, results.costs
    ratio = speed_ratio(play["ours moves/s"].median, median_of(play, "anchor moves/s"), True)
    checks: list[tuple[str, str, bool | None]] = [
        (
            f"random-play moves/s ≥ {GOAL_MOVES_RATIO:.1f}× OpenSpiel's (checked apply)",
            fmt_ratio(ratio),
            None if ratio is None else ratio >= GOAL_MOVES_RATIO,
        )
    ]
    for name, label, limit in (
        ("ours new game", "new deal ≤ 100 µs: GameState.new", GOAL_NEW_DEAL_US),
        ("ours next deal", "new deal ≤ 100 µs: start_deal", GOAL_NEW_DEAL_US),
        ("ours deadwood10 cold", "min deadwood, 10 cards ≤ 10 µs (cold mean)", GOAL_DEADWOOD_10_US),
        ("ours discard11 cold", "best discard of 11 ≤ 70 µs (cold mean)", GOAL_DISCARD_11_US),
    ):
        value = costs[name].median
        checks.append((label, f"{fmt(value, 2)} µs", value <= limit))
    return checks


def report(results: Results, info: dict[str, Any], note: str | None, config: Config) -> None:
    print(
        f"\nrummykit {info['rummykit']} ({info['commit']}, core {info['core_sha256']}), "
        f"OpenSpiel {info['open_spiel']}; {info['python']}; {info['cpu']}, nproc {info['nproc']}, "
        f"pinned to core {info['pinned_core']}; {info['date']}"
    )
    print(
        f"{config.repeats} interleaved repeats, {config.seconds:g} s a play loop"
        f"{' (quick mode)' if config.quick else ''}; medians, best repeat beside them; "
        "ratio = times as fast as OpenSpiel (above 1.0: rummykit faster)."
    )
    if note:
        print(f"NOTE: {note}: OpenSpiel's figures are left out (pip install -e '.[bench]').")
    play = results.play
    render(
        f"Random play, {MAIN_PRESET}, 2 seats, vs OpenSpiel gin_rummy",
        [
            "figure",
            "rummykit",
            "best",
            "OpenSpiel",
            "ratio",
            "OpenSpiel, cloned start",
            "ratio",
        ],
        play_rows(results),
    )
    chance = median_of(play, "anchor actions/s incl. chance")
    if chance is not None:
        print(
            "OpenSpiel: player moves only (its deal and stock draws are chance nodes, timed but "
            f"not counted; with them {fmt(chance)} actions/s). 'cloned start' copies one initial "
            "state instead of new_initial_state() per deal, leaving out that call's cost."
        )
    print(
        "rummykit: every action counts (draw, meld, lay-off, discard); deals capped at "
        f"{DEAL_CAP} actions: {fmt(play['ours capped %'].median, 2)}%."
    )
    render(
        "Costs a call, µs (mean a call; p50 / p99 of single calls)",
        ["figure", "median", "best", "p50 / p99", "OpenSpiel", "ratio", "goal"],
        cost_rows(results),
    )
    info_figures = results.info
    print(
        "OpenSpiel beside GameState.new: new_initial_state() and the 21 dealing chance nodes; "
        "beside start_deal: a cloned initial state and the same. Legal actions a position: "
        f"{fmt(info_figures['legal actions a position'])} "
        f"(play phase {fmt(info_figures['legal actions a play position'])}); OpenSpiel "
        f"{fmt(info_figures.get('anchor legal actions a position'))}. OpenSpiel's min_deadwood "
        "of 11 cards is its best discard. Timer overhead subtracted from single calls: "
        f"{fmt(info_figures['timer overhead ns'], 0)} ns."
    )

    preset_rows = []
    anchor_moves = median_of(play, "anchor moves/s")
    for name, figures in results.presets.items():
        moves = figures["ours moves/s"]
        preset_rows.append(
            [
                name,
                fmt(moves.median),
                fmt(moves.best),
                fmt(figures["ours deals/s"].median),
                fmt(figures["ours moves/deal"].median),
                fmt(figures["ours capped %"].median, 1),
                fmt_ratio(speed_ratio(moves.median, anchor_moves, True)),
            ]
        )
    render(
        "Random play by preset (checked apply)",
        ["preset", "moves/s", "best", "deals/s", "moves/deal", "capped %", "vs OpenSpiel"],
        preset_rows,
    )

    goal_rows = [
        [label, value, "n/a" if met is None else ("met" if met else "NOT met")]
        for label, value, met in goals(results)
    ]
    render("Goals", ["goal", "measured (median)", ""], goal_rows)


def to_json(results: Results, info: dict[str, Any], note: str | None, config: Config) -> Any:
    return {
        "machine": info,
        "engine_build": engine_build(),
        "config": dataclasses.asdict(config),
        "anchor_note": note,
        "deal_cap": DEAL_CAP,
        "play": {name: figure.to_json() for name, figure in results.play.items()},
        "costs": {name: figure.to_json() for name, figure in results.costs.items()},
        "presets": {
            preset: {name: figure.to_json() for name, figure in figures.items()}
            for preset, figures in results.presets.items()
        },
        "info": results.info,
        "goals": [
            {"goal": label, "measured": value, "met": met} for label, value, met in goals(results)
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run (<10 s)")
    parser.add_argument("--seconds", type=float, help="seconds of random play a repeat")
    parser.add_argument("--repeats", type=int, help="repeats of every measurement")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures here")
    parser.add_argument("--verbose", action="store_true", help="print progress to stderr")
    args = parser.parse_args(argv)
    config = make_config(args)

    def say(text: str) -> None:
        if args.verbose:
            print(f"… {text}", file=sys.stderr, flush=True)

    core = pin_core()
    info = machine_info(core)
    game, utils, note = load_anchor()
    if note:
        print(f"NOTE: {note}; reporting rummykit alone.", file=sys.stderr)
        info["open_spiel"] = "not importable"
    results = Results()
    began = time.monotonic()
    measure_play(config, game, results, say)
    measure_presets(config, results, say)
    measure_costs(config, game, utils, results, say)
    info["run_seconds"] = round(time.monotonic() - began, 1)
    report(results, info, note, config)
    print(f"\nTook {info['run_seconds']} s.")
    if args.json is not None:
        args.json.write_text(json.dumps(to_json(results, info, note, config), indent=2) + "\n")
        print(f"Wrote {args.json}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
