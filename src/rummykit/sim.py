"""Tournaments between bots in duplicate sets: play them, then sum them up.

A duplicate set is one deck order for every deal, played once per seat rotation: with two
bots, each plays both hands of every deal, so the luck of the cards cancels. In rotation
``r`` the bot given at position ``i`` sits at seat ``(i + r) % seats``; seat 0 deals first
in every rotation. Everything follows from the seed, so a run is the same whatever the
number of processes.

>>> config = SimConfig.from_options(["basic", "random"], games=2, seed=1, deals_only=True)
>>> result = run_sim(config)
>>> result.games, sum(p.games_won for p in result.positions) + result.ties + result.cut_games
(2, 2)
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import math
import multiprocessing
import random
import time
from array import array
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from rummykit.core.cards import Card, standard_deck
from rummykit.core.errors import IllegalActionError, RulesError
from rummykit.core.observation import observe
from rummykit.core.presets import Preset, describe_rules, preset_with_overrides
from rummykit.core.record import dump_record, record_of
from rummykit.core.rules import OPTION_NAMES, Rules, Scoring, parse_option
from rummykit.core.state import DealResult, GameState
from rummykit.sim_stats import mean, mean_interval, percentile, wilson_interval

if TYPE_CHECKING:
    from rich.table import Table

DEAL_ACTION_CAP: Final = 3000
"""Actions after which a deal is cut. A deal between sensible bots takes under 300 actions;
a stock renewed 15 times (``party``) about 1000, and random bots up to about 2200 there.
Only a deal that would never end passes 3000: two seats cycling through a stock renewed
without limit, or handing the top discard back and forth over an empty stock."""

DEFAULT_PRESET: Final = "standard"
"""The preset when none is named: the reference rules."""


class SimError(ValueError):
    """A tournament that cannot be set up or played: the message says why."""


@dataclasses.dataclass(frozen=True, slots=True)
class SimConfig:
    """Everything that decides a tournament's games (the process count does not)."""

    bots: tuple[str, ...]
    """The bots' names by position, as given; position ``i`` sits at seat ``i`` in the
    first rotation."""
    preset: Preset
    """The preset the rules start from (named in the records)."""
    rules: Rules
    """The rules, overrides applied."""
    sets: int
    """Duplicate sets to play: each is one game a rotation, ``len(bots)`` games."""
    seed: int = 0
    """The seed every deck order and every bot's random source come from."""
    records: Path | None = None
    """A folder to write every game's record into, or ``None``."""
    action_cap: int = DEAL_ACTION_CAP
    """Actions after which a deal is cut (see ``DEAL_ACTION_CAP``)."""

    @property
    def seat_count(self) -> int:
        """How many seats play."""
        return len(self.bots)

    @property
    def games(self) -> int:
        """Games to play: one a seat rotation of every set."""
        return self.sets * self.seat_count

    @staticmethod
    def from_options(
        bots: Sequence[str],
        *,
        games: int,
        preset: str = DEFAULT_PRESET,
        rules: Mapping[str, str] | Sequence[str] = (),
        deals_only: bool = False,
        seed: int = 0,
        records: Path | str | None = None,
    ) -> SimConfig:
        """A checked configuration from command-line values; ``SimError`` says what is wrong.

        ``rules`` holds overrides as ``NAME=VALUE`` texts or a mapping of texts;
        ``deals_only`` makes each game a single deal. ``games`` is rounded up to whole
        duplicate sets.
        """
        from rummykit.bots import BOTS

        names = tuple(bots)
        if not 2 <= len(names) <= 6:
            raise SimError(f"Name one bot a seat, 2 to 6 of them, not {len(names)}.")
        unknown = [name for name in names if name not in BOTS]
        if unknown:
            raise SimError(
                f"Unknown bot {unknown[0]!r}: choose from {', '.join(sorted(BOTS))} "
                "(see `rummy bots`)."
            )
        if games < 1:
            raise SimError(f"Play at least one game, not {games}.")
        overrides = _parse_rules(rules)
        if deals_only:
            if "deals" in overrides:
                raise SimError("Give either --deals-only or --rule deals=..., not both.")
            overrides["deals"] = 1
        try:
            chosen, rules_value = preset_with_overrides({"preset": preset, **overrides})
            chosen.check_seats(len(names))
            rules_value.check_seats(len(names))
        except RulesError as error:
            raise SimError(str(error)) from None
        sets = math.ceil(games / len(names))
        folder = Path(records) if records is not None else None
        return SimConfig(names, chosen, rules_value, sets, seed, folder)


def _parse_rules(rules: Mapping[str, str] | Sequence[str]) -> dict[str, object]:
    pairs: list[tuple[str, str]] = []
    if isinstance(rules, Mapping):
        pairs = list(rules.items())
    else:
        for text in rules:
            name, equals, value = text.partition("=")
            if not equals or not name.strip():
                raise SimError(f"A rule is NAME=VALUE (like renewals=2), not {text!r}.")
            pairs.append((name.strip(), value))
    overrides: dict[str, object] = {}
    for name, value in pairs:
        if name not in OPTION_NAMES:
            raise SimError(f"Unknown rule option {name!r}; see `rummy rules`.")
        try:
            overrides[name] = parse_option(name, value)
        except RulesError as error:
            raise SimError(str(error)) from None
    return overrides


# ----- playing ----------------------------------------------------------------------


@dataclasses.dataclass(slots=True)
class PositionTally:
    """What one position (one bot as given) did over some games."""

    games_won: int = 0
    deals_won: int = 0
    """Deals it ended by going out, rummy included."""
    rummies: int = 0
    """Deals it ended by going rummy."""
    points: int = 0
    """Points it scored in completed deals."""
    deal_points: array[int] = dataclasses.field(default_factory=lambda: array("q"))
    """Its points in every completed deal, in play order."""
    decision_seconds: array[float] = dataclasses.field(default_factory=lambda: array("d"))
    """How long each of its ``choose`` calls took."""

    def add(self, other: PositionTally) -> None:
        """Count ``other``'s games in too."""
        self.games_won += other.games_won
        self.deals_won += other.deals_won
        self.rummies += other.rummies
        self.points += other.points
        self.deal_points.extend(other.deal_points)
        self.decision_seconds.extend(other.decision_seconds)


@dataclasses.dataclass(slots=True)
class SetTally:
    """What happened in the games of one or more duplicate sets; plain data, picklable."""

    positions: list[PositionTally]
    games: int = 0
    ties: int = 0
    """Games that ended with no single winner."""
    cut_games: int = 0
    """Games ended early by a cut deal (their completed deals still count)."""
    deals: int = 0
    """Completed deals (cut deals not included)."""
    cut_deals: int = 0
    blocked_deals: int = 0
    turns: int = 0
    """Turns of the completed deals (a turn: one seat's draw to its discard)."""
    actions: int = 0
    """Actions of the completed deals."""
    set_points_per_deal: list[list[float]] = dataclasses.field(default_factory=list)
    """For each set with a completed deal, each position's mean points per deal in it."""

    @staticmethod
    def empty(seat_count: int) -> SetTally:
        """Nothing played yet."""
        return SetTally([PositionTally() for _ in range(seat_count)])

    def add(self, other: SetTally) -> None:
        """Count ``other``'s games in too."""
        for mine, theirs in zip(self.positions, other.positions, strict=True):
            mine.add(theirs)
        self.games += other.games
        self.ties += other.ties
        self.cut_games += other.cut_games
        self.deals += other.deals
        self.cut_deals += other.cut_deals
        self.blocked_deals += other.blocked_deals
        self.turns += other.turns
        self.actions += other.actions
        self.set_points_per_deal.extend(other.set_points_per_deal)


def deal_deck(rules: Rules, seed: int, set_index: int, deal: int) -> tuple[list[Card], int]:
    """The deck of a deal of a duplicate set (top first), and the seed of its reshuffles.

    The same in every rotation of the set: that is what makes the set duplicate.
    """
    rng = random.Random(f"{seed}:{set_index}:{deal}")
    deck = list(standard_deck(rules.decks, rules.jokers))
    rng.shuffle(deck)
    return deck, rng.randrange(1, 2**32)


def record_name(set_index: int, rotation: int) -> str:
    """The file name of a game's record in the ``records`` folder."""
    return f"set{set_index:05d}-rotation{rotation}.json"


def seat_players(bots: Sequence[str], rotation: int) -> list[str]:
    """The bots' names in seat order for a rotation: seat ``s`` holds position ``s - r``."""
    seats = len(bots)
    return [bots[(seat - rotation) % seats] for seat in range(seats)]


def play_set(
    config: SimConfig, set_index: int, on_game: Callable[[], None] | None = None
) -> SetTally:
    """Play one duplicate set (a game per rotation) and tally it by position.

    ``on_game`` is called after each game (for a progress bar).
    """
    from rummykit.bots import make_bot

    seats = config.seat_count
    tally = SetTally.empty(seats)
    set_points = [0] * seats
    set_deals = 0
    for rotation in range(seats):
        position_at = [(seat - rotation) % seats for seat in range(seats)]
        try:
            bots = [make_bot(config.bots[position]) for position in position_at]
        except KeyError as error:
            # A bot registered at run time in the parent is unknown to a spawned worker.
            raise SimError(
                f"{error.args[0]} Bots must register when rummykit.bots is imported."
            ) from None
        rngs = [
            random.Random(f"{config.seed}:{set_index}:{rotation}:{seat}") for seat in range(seats)
        ]
        game = GameState(config.rules, seats, dealer=0, seed=0)
        cut = False
        while not game.game_over:
            deck, reshuffle_seed = deal_deck(config.rules, config.seed, set_index, len(game.logs))
            game.start_deal(deck, seed=reshuffle_seed)
            actions = 0
            while not game.deal_over:
                if actions >= config.action_cap:
                    cut = True
                    break
                seat = game.turn
                observation = observe(game, seat)
                started = time.perf_counter()
                action = bots[seat].choose(observation, rngs[seat])
                tally.positions[position_at[seat]].decision_seconds.append(
                    time.perf_counter() - started
                )
                try:
                    game.apply(action)
                except IllegalActionError as error:
                    raise SimError(
                        f"Bot {config.bots[position_at[seat]]!r} at seat {seat} chose the "
                        f"illegal action {action} (set {set_index}, rotation {rotation}, "
                        f"deal {game.deal_number}): {error.message}"
                    ) from None
                actions += 1
            if cut:
                tally.cut_deals += 1
                break
            summary = game.summaries[-1]
            assert summary.points is not None  # a completed deal has its points
            tally.deals += 1
            set_deals += 1
            tally.turns += game.turn_number
            tally.actions += actions
            if summary.result is DealResult.BLOCKED:
                tally.blocked_deals += 1
            elif summary.winner is not None:
                position = tally.positions[position_at[summary.winner]]
                position.deals_won += 1
                if summary.result is DealResult.RUMMY:
                    position.rummies += 1
            for seat, points in enumerate(summary.points):
                tally.positions[position_at[seat]].points += points
                tally.positions[position_at[seat]].deal_points.append(points)
                set_points[position_at[seat]] += points
        tally.games += 1
        if cut:
            tally.cut_games += 1
        elif game.winner is None:
            tally.ties += 1
        else:
            tally.positions[position_at[game.winner]].games_won += 1
        if config.records is not None:
            record = record_of(game, config.preset, seat_players(config.bots, rotation))
            path = config.records / record_name(set_index, rotation)
            path.write_text(dump_record(record), encoding="utf-8")
        if on_game is not None:
            on_game()
    if set_deals:
        tally.set_points_per_deal.append([points / set_deals for points in set_points])
    return tally


def _play_set_task(config: SimConfig, set_index: int) -> tuple[int, SetTally]:
    return set_index, play_set(config, set_index)


def run_sim(
    config: SimConfig,
    jobs: int = 1,
    on_games: Callable[[int], None] | None = None,
) -> SimResult:
    """Play every duplicate set of ``config`` and sum them up.

    ``jobs`` > 1 plays sets in that many fresh processes (so only bots registered when
    ``rummykit.bots`` is imported); the result is the same as with one (timings aside).
    ``on_games(n)`` is told each time ``n`` more games are done.
    """
    if jobs < 1:
        raise SimError(f"--jobs must be at least 1, not {jobs}.")
    if config.records is not None:
        config.records.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    tallies: list[SetTally | None] = [None] * config.sets

    def one_game() -> None:
        if on_games is not None:
            on_games(1)

    if jobs == 1 or config.sets == 1:
        for set_index in range(config.sets):
            tallies[set_index] = play_set(config, set_index, one_game)
    else:
        # spawn, not fork: the parent may be running a progress bar's thread.
        context = multiprocessing.get_context("spawn")
        workers = min(jobs, config.sets)
        pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=context)
        try:
            futures = [
                pool.submit(_play_set_task, config, set_index) for set_index in range(config.sets)
            ]
            for future in concurrent.futures.as_completed(futures):
                set_index, tally = future.result()
                tallies[set_index] = tally
                if on_games is not None:
                    on_games(config.seat_count)
        except BaseException:
            # On an error or ^C, do not wait for the sets still queued.
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
    total = SetTally.empty(config.seat_count)
    for played in tallies:  # in set order, so that sums come out the same for any --jobs
        assert played is not None
        total.add(played)
    return SimResult(config, total, time.perf_counter() - started)


# ----- summing up -------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class PositionResult:
    """The results of one position (one bot as given on the command line)."""

    position: int
    bot: str
    games_won: int
    win_rate: float
    win_rate_ci95: tuple[float, float]
    points_per_deal: float
    """The mean over duplicate sets of its mean points per deal in each set."""
    points_per_deal_ci95: tuple[float, float]
    deals_won: int
    """Deals it went out in (rummy included)."""
    decisive_deal_win_rate: float
    """Its share of the deals someone went out in."""
    decisive_deal_win_rate_ci95: tuple[float, float]
    going_out_rate: float
    """Deals it went out in (rummy included) over deals played."""
    going_rummy_rate: float
    decisions: int
    decision_ms_p50: float
    decision_ms_p99: float
    deal_points: tuple[int, ...]
    """Its points in every completed deal (for the plot)."""


@dataclasses.dataclass(frozen=True, slots=True)
class SimResult:
    """A finished tournament: the configuration, the tallies, and per-position results."""

    config: SimConfig
    tally: SetTally
    seconds: float
    """Wall-clock time it took."""

    @property
    def games(self) -> int:
        """Games played."""
        return self.tally.games

    @property
    def ties(self) -> int:
        """Games with no single winner (cut games not included)."""
        return self.tally.ties

    @property
    def cut_games(self) -> int:
        """Games ended early by a deal cut at the action cap."""
        return self.tally.cut_games

    @property
    def decisive_deals(self) -> int:
        """Completed deals that someone went out in."""
        return self.tally.deals - self.tally.blocked_deals

    @property
    def lower_is_better(self) -> bool:
        """Whether points are penalties (penalty scoring): then fewer points are better."""
        return self.config.rules.scoring is Scoring.PENALTY

    @property
    def positions(self) -> list[PositionResult]:
        """The results by position, in the order the bots were given."""
        tally = self.tally
        deals = tally.deals
        results = []
        for index, (bot, position) in enumerate(
            zip(self.config.bots, tally.positions, strict=True)
        ):
            set_means = [means[index] for means in tally.set_points_per_deal]
            milliseconds = [seconds * 1000 for seconds in position.decision_seconds]
            results.append(
                PositionResult(
                    position=index,
                    bot=bot,
                    games_won=position.games_won,
                    win_rate=position.games_won / tally.games if tally.games else math.nan,
                    win_rate_ci95=wilson_interval(position.games_won, tally.games),
                    points_per_deal=mean(set_means),
                    points_per_deal_ci95=mean_interval(set_means),
                    deals_won=position.deals_won,
                    decisive_deal_win_rate=(
                        position.deals_won / self.decisive_deals
                        if self.decisive_deals
                        else math.nan
                    ),
                    decisive_deal_win_rate_ci95=wilson_interval(
                        position.deals_won, self.decisive_deals
                    ),
                    going_out_rate=position.deals_won / deals if deals else math.nan,
                    going_rummy_rate=position.rummies / deals if deals else math.nan,
                    decisions=len(position.decision_seconds),
                    decision_ms_p50=percentile(milliseconds, 50),
                    decision_ms_p99=percentile(milliseconds, 99),
                    deal_points=tuple(position.deal_points),
                )
            )
        return results

    def to_json(self) -> dict[str, Any]:
        """The ``rummy sim --json`` object (NaN written as ``null``)."""
        config = self.config
        tally = self.tally
        deals = tally.deals
        seats = [
            {
                "bot": result.bot,
                "position": result.position,
                "games_won": result.games_won,
                "win_rate": _number(result.win_rate),
                "win_rate_ci95": _pair(result.win_rate_ci95),
                "points_per_deal": _number(result.points_per_deal),
                "points_per_deal_ci95": _pair(result.points_per_deal_ci95),
                "deals_won": result.deals_won,
                "decisive_deal_win_rate": _number(result.decisive_deal_win_rate),
                "decisive_deal_win_rate_ci95": _pair(result.decisive_deal_win_rate_ci95),
                "going_out_rate": _number(result.going_out_rate),
                "going_rummy_rate": _number(result.going_rummy_rate),
                "decisions": result.decisions,
                "decision_ms_p50": _number(result.decision_ms_p50),
                "decision_ms_p99": _number(result.decision_ms_p99),
            }
            for result in self.positions
        ]
        return {
            "bots": list(config.bots),
            "rules": describe_rules(config.preset, config.rules),
            "seed": config.seed,
            "games": tally.games,
            "duplicate_sets": config.sets,
            "ties": tally.ties,
            "cut_games": tally.cut_games,
            "deals": deals,
            "cut_deals": tally.cut_deals,
            "blocked_deals": tally.blocked_deals,
            "decisive_deals": self.decisive_deals,
            "turns_per_deal": _number(tally.turns / deals if deals else math.nan),
            "actions_per_deal": _number(tally.actions / deals if deals else math.nan),
            "deal_action_cap": config.action_cap,
            "lower_is_better": self.lower_is_better,
            "seconds": round(self.seconds, 3),
            "seats": seats,
        }


TIMING_FIELDS: Final = ("seconds", "decision_ms_p50", "decision_ms_p99")
"""The ``--json`` fields that measure time, so differ between runs of the same seed."""


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)


def _pair(values: tuple[float, float]) -> list[float | None]:
    return [_number(values[0]), _number(values[1])]


# ----- the table --------------------------------------------------------------------


def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.1f}%"


def _percent_interval(values: tuple[float, float]) -> str:
    low, high = values
    if math.isnan(low):
        return ""
    return f"[{100 * low:.1f}, {100 * high:.1f}]"


def _points(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:+.2f}"


def _points_interval(values: tuple[float, float]) -> str:
    low, high = values
    if math.isnan(low):
        return "[n/a: one set]"
    return f"[{low:+.2f}, {high:+.2f}]"


def _milliseconds(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:.3f}" if value < 1 else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def result_table(result: SimResult) -> Table:
    """The results as a rich table: a row a position, the totals in its caption."""
    from rich import box
    from rich.table import Table

    config = result.config
    tally = result.tally
    rules_text = describe_rules(config.preset, config.rules)
    rules_name = rules_text if isinstance(rules_text, str) else _rules_line(rules_text)
    table = Table(
        title=(
            f"rummy sim: {tally.games} games, {config.sets} duplicate sets of {config.seat_count}, "
            f"{rules_name}, seed {config.seed}"
        ),
        box=box.SIMPLE_HEAD,
        title_justify="left",
        caption_justify="left",
    )
    points_header = "points/deal (lower is better)" if result.lower_is_better else "points/deal"
    table.add_column("bot")
    table.add_column("games won", justify="right")
    table.add_column("win rate [95%]", justify="right")
    table.add_column(f"{points_header} [95%]", justify="right")
    table.add_column("decisive deals won [95%]", justify="right")
    table.add_column("out", justify="right")
    table.add_column("rummy", justify="right")
    table.add_column("ms p50/p99", justify="right")
    for position in result.positions:
        table.add_row(
            f"{position.position} {position.bot}",
            str(position.games_won),
            f"{_percent(position.win_rate)} {_percent_interval(position.win_rate_ci95)}",
            f"{_points(position.points_per_deal)} "
            f"{_points_interval(position.points_per_deal_ci95)}",
            f"{_percent(position.decisive_deal_win_rate)} "
            f"{_percent_interval(position.decisive_deal_win_rate_ci95)}",
            _percent(position.going_out_rate),
            _percent(position.going_rummy_rate),
            f"{_milliseconds(position.decision_ms_p50)}/{_milliseconds(position.decision_ms_p99)}",
        )
    deals = tally.deals
    turns = f"{tally.turns / deals:.1f}" if deals else "-"
    actions = f"{tally.actions / deals:.1f}" if deals else "-"
    table.caption = (
        f"{deals} deals: {result.decisive_deals} decisive, {tally.blocked_deals} blocked; "
        f"{turns} turns ({actions} actions) a deal.\n"
        f"Ties {tally.ties}; cut games {tally.cut_games} ({tally.cut_deals} deals cut at "
        f"{config.action_cap} actions, not counted above). {result.seconds:.1f} s.\n"
        "Points/deal: mean over duplicate sets, 95% t-interval over sets. Win rates: Wilson "
        "95%.\nout: deals gone out in (rummy included) / deals; rummy likewise; ms: time "
        "per decision."
    )
    return table


def _rules_line(rules: Mapping[str, object]) -> str:
    preset = rules.get("preset")
    changed = ", ".join(f"{name}={value}" for name, value in rules.items() if name != "preset")
    return f"{preset} ({changed})"
