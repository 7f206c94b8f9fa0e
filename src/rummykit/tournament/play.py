"""Playing a tournament: duplicate deck orders, seat rotations, and sets in parallel.

A duplicate set is one deck order for every deal, played once per seat rotation: with two
bots, each plays both hands of every deal, so the luck of the cards cancels. In rotation
``r`` the bot given at position ``i`` sits at seat ``(i + r) % seats``; seat 0 deals first
in every rotation. Everything follows from the seed, so a run is the same whatever the
number of processes (timings aside, and the ``expert``'s choices, which follow its clock).
The deals themselves are played by the one game loop, ``rummykit.bots.play.play_deal``.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence

from rummykit.bots.base import Bot
from rummykit.bots.play import Choice, play_deal
from rummykit.core.cards import Card, standard_deck
from rummykit.core.errors import IllegalActionError
from rummykit.core.record import dump_record, record_of
from rummykit.core.rules import Rules
from rummykit.core.state import DealResult, GameState
from rummykit.tournament.checkpoint import Checkpoint
from rummykit.tournament.config import SimConfig, SimError
from rummykit.tournament.results import SimResult
from rummykit.tournament.tally import SetTally


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
    tally = SetTally.empty(config.seat_count)
    set_points = [0] * config.seat_count
    for rotation in range(config.seat_count):
        game = _Rotation.start(config, set_index, rotation).play(tally, set_points)
        if config.records is not None:
            record = record_of(game, config.preset, seat_players(config.bots, rotation))
            path = config.records / record_name(set_index, rotation)
            path.write_text(dump_record(record), encoding="utf-8")
        if on_game is not None:
            on_game()
    if tally.deals:
        tally.set_points_per_deal.append([points / tally.deals for points in set_points])
    return tally


@dataclasses.dataclass(frozen=True, slots=True)
class _Rotation:
    """One game of a duplicate set: the bots in their seats for this rotation."""

    config: SimConfig
    set_index: int
    rotation: int
    position_at: tuple[int, ...]
    """The position (the bot as given) at each seat."""
    bots: tuple[Bot, ...]
    """The bot at each seat."""
    rngs: tuple[random.Random, ...]
    """Each seat's random source: it follows from the seed, the set, the rotation, the seat."""

    @staticmethod
    def start(config: SimConfig, set_index: int, rotation: int) -> _Rotation:
        """Seat the bots for ``rotation``: seat ``s`` holds position ``s - rotation``."""
        from rummykit.bots import make_bot

        seats = config.seat_count
        position_at = tuple((seat - rotation) % seats for seat in range(seats))
        try:
            bots = tuple(make_bot(config.bots[position]) for position in position_at)
        except KeyError as error:
            # A bot registered at run time in the parent is unknown to a spawned worker.
            raise SimError(
                f"{error.args[0]} Bots must register when rummykit.bots is imported."
            ) from None
        rngs = tuple(
            random.Random(f"{config.seed}:{set_index}:{rotation}:{seat}") for seat in range(seats)
        )
        return _Rotation(config, set_index, rotation, position_at, bots, rngs)

    def play(self, tally: SetTally, set_points: list[int]) -> GameState:
        """Play the game, counting it into ``tally`` and each position's ``set_points``."""
        config = self.config
        game = GameState(config.rules, config.seat_count, dealer=0, seed=0)
        cut = False
        while not game.game_over:
            deck, reshuffle_seed = deal_deck(
                config.rules, config.seed, self.set_index, len(game.logs)
            )
            game.start_deal(deck, seed=reshuffle_seed)
            actions = self._play_deal(game, tally)
            if not game.deal_over:
                tally.cut_deals += 1
                cut = True
                break
            self._count_deal(game, actions, tally, set_points)
        tally.games += 1
        if cut:
            tally.cut_games += 1
        elif game.winner is None:
            tally.ties += 1
        else:
            tally.positions[self.position_at[game.winner]].games_won += 1
        return game

    def _play_deal(self, game: GameState, tally: SetTally) -> int:
        """Play the current deal up to the cap; the actions taken."""
        actions = 0
        choice: Choice | None = None
        try:
            for choice in play_deal(game, self.bots, self.rngs, self.config.action_cap):
                position = tally.positions[self.position_at[choice.seat]]
                position.decision_seconds.append(choice.seconds)
                actions += 1
        except IllegalActionError as error:
            assert choice is not None  # only a bot's choice is applied
            raise SimError(
                f"Bot {self.config.bots[self.position_at[choice.seat]]!r} at seat "
                f"{choice.seat} chose the illegal action {choice.action} (set "
                f"{self.set_index}, rotation {self.rotation}, deal {game.deal_number}): "
                f"{error.message}"
            ) from None
        return actions

    def _count_deal(
        self, game: GameState, actions: int, tally: SetTally, set_points: list[int]
    ) -> None:
        """Count a completed deal into the tally by position."""
        summary = game.summaries[-1]
        assert summary.points is not None  # a completed deal has its points
        tally.deals += 1
        tally.turns += game.turn_number
        tally.actions += actions
        if summary.result is DealResult.BLOCKED:
            tally.blocked_deals += 1
        elif summary.winner is not None:
            position = tally.positions[self.position_at[summary.winner]]
            position.deals_won += 1
            if summary.result is DealResult.RUMMY:
                position.rummies += 1
        for seat, points in enumerate(summary.points):
            position = tally.positions[self.position_at[seat]]
            position.points += points
            position.deal_points.append(points)
            set_points[self.position_at[seat]] += points


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
    ``on_games(n)`` is told each time ``n`` more games are done. With ``config.checkpoint``
    every finished set is kept there, and the sets already kept are not played again.
    """
    if jobs < 1:
        raise SimError(f"--jobs must be at least 1, not {jobs}.")
    if config.records is not None:
        config.records.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    told = on_games or (lambda count: None)
    tallies: list[SetTally | None] = [None] * config.sets
    kept = Checkpoint(config.checkpoint, config) if config.checkpoint is not None else None
    if kept is not None:
        for set_index, tally in kept.load(config.sets).items():
            tallies[set_index] = tally
            told(config.seat_count)

    def finished(set_index: int, tally: SetTally) -> None:
        tallies[set_index] = tally
        if kept is not None:
            kept.save(set_index, tally)

    to_play = [set_index for set_index, tally in enumerate(tallies) if tally is None]
    if jobs == 1 or len(to_play) <= 1:
        for set_index in to_play:
            finished(set_index, play_set(config, set_index, lambda: told(1)))
    else:
        _play_in_processes(config, to_play, jobs, finished, told)
    total = SetTally.empty(config.seat_count)
    for played in tallies:  # in set order, so that sums come out the same for any --jobs
        assert played is not None
        total.add(played)
    return SimResult(config, total, time.perf_counter() - started)


def _play_in_processes(
    config: SimConfig,
    to_play: list[int],
    jobs: int,
    finished: Callable[[int, SetTally], None],
    told: Callable[[int], None],
) -> None:
    """Play the sets ``to_play`` in ``jobs`` fresh processes, handing each to ``finished``."""
    # spawn, not fork: the parent may be running a progress bar's thread.
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(min(jobs, len(to_play)), mp_context=context)
    try:
        futures = [pool.submit(_play_set_task, config, set_index) for set_index in to_play]
        for future in concurrent.futures.as_completed(futures):
            finished(*future.result())
            told(config.seat_count)
    except BaseException:
        # On an error or ^C, do not wait for the sets still queued.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
