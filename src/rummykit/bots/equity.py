"""Playing for the game, not the deal: the chance to win a game to a target from its scores.

A deal's points are only worth what they do for the game. Ten points when both players need
ninety change little; the same ten points when the other player needs five and this one
needs ten are the game. ``game_equity`` gives the chance that a seat wins a two-player game
of winner-collects scoring from the points each side still needs, assuming both players are
equally good: every later deal is won by either with even chances, for as many points as a
deal between good players is won by (the spread in ``deal_points.json``, which
``python -m rummykit.bots.deal_points_fit`` measures and writes).

``game_outcome`` scores a played-out position by that chance, so a searcher judges its
choices by what they do for the game.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Final

from rummykit.core.deadwood import deadwood_value
from rummykit.core.rules import Rules, Scoring
from rummykit.core.state import GameState

DEAL_POINTS_FILE: Final = "deal_points.json"
"""The spread of a won deal's points, in this package (written by ``deal_points_fit``)."""

MAX_TARGET: Final = 300
"""The highest target the chances are worked out for (the table grows as its square)."""


@functools.cache
def won_deal_points() -> tuple[tuple[int, float], ...]:
    """How many points a won deal brings, and how often: ``(points, share)``, shares sum to 1."""
    text = resources.files("rummykit.bots").joinpath(DEAL_POINTS_FILE).read_text("utf-8")
    counts = {int(points): count for points, count in json.loads(text)["won"].items()}
    positive = {points: count for points, count in counts.items() if points > 0}
    total = sum(positive.values())
    return tuple((points, count / total) for points, count in sorted(positive.items()))


def plays_for_game(rules: Rules, seats: int) -> bool:
    """Whether ``game_equity`` models this game: two seats, winner collects, to a target."""
    return (
        seats == 2
        and rules.scoring is Scoring.WINNER
        and rules.deals is None
        and 0 < rules.target <= MAX_TARGET
    )


@functools.cache
def _equity_table(target: int) -> tuple[tuple[float, ...], ...]:
    """``table[mine][theirs]``: the chance to win needing ``mine`` points against ``theirs``.

    Row and column 0 are never read (a seat needing nothing has won). A deal that nobody
    wins changes nothing, so the chances follow from the won deals alone: half the time this
    seat wins one, half the time the other does.
    """
    spread = won_deal_points()
    table = [[0.0] * (target + 1) for _ in range(target + 1)]
    # at_least[n]: the share of won deals that bring n points or more.
    at_least = [0.0] * (target + 2)
    for points, share in spread:
        at_least[min(points, target + 1)] += share
    for index in range(target, -1, -1):
        at_least[index] += at_least[index + 1]
    for mine in range(1, target + 1):
        for theirs in range(1, target + 1):
            # This seat wins the deal: the game if it brings ``mine`` or more.
            win = at_least[mine]
            for points, share in spread:
                if points >= mine:
                    break
                win += share * table[mine - points][theirs]
            # The other seat wins it: this seat goes on only if it brings less than ``theirs``.
            lose = 0.0
            for points, share in spread:
                if points >= theirs:
                    break
                lose += share * table[mine][theirs - points]
            table[mine][theirs] = (win + lose) / 2
    return tuple(tuple(row) for row in table)


def game_equity(rules: Rules, mine: int, theirs: int) -> float:
    """The chance to win the game with score ``mine`` against ``theirs`` (two equal players).

    Only for games that ``plays_for_game`` accepts.
    """
    target = rules.target
    if mine >= target or theirs >= target:
        return 1.0 if mine > theirs else 0.0 if theirs > mine else 0.5
    return _equity_table(target)[target - mine][target - theirs]


def game_outcome(game: GameState, seat: int) -> float:
    """A played-out position scored by ``seat``'s chance to win the game from it.

    A finished deal has added its points to the scores; one still going is scored as though
    the seat holding less went out and collected the difference. Games that
    ``plays_for_game`` does not model are scored by their points (``points_outcome``).
    """
    rules = game.rules
    if not plays_for_game(rules, game.seat_count):
        return points_outcome(game, seat)
    other = 1 - seat
    mine, theirs = game.scores[seat], game.scores[other]
    if not game.deal_over:
        lead = deadwood_value(game.hands[other], rules) - deadwood_value(game.hands[seat], rules)
        if lead > 0:
            mine += lead
        else:
            theirs -= lead
    return game_equity(rules, mine, theirs)


def points_outcome(game: GameState, seat: int) -> float:
    """A played-out position scored by the seat's points less the others' average.

    A finished deal is scored by its points; one still going as the hands stand: whoever
    holds less is ahead, and what is held is what would be paid.
    """
    others = [other for other in range(game.seat_count) if other != seat]
    rules = game.rules
    if game.deal_over:
        points = game.deal_points or (0,) * game.seat_count
        diff = points[seat] - sum(points[other] for other in others) / len(others)
        return -diff if rules.scoring is Scoring.PENALTY else diff
    mine_left = deadwood_value(game.hands[seat], rules)
    theirs_left = sum(deadwood_value(game.hands[other], rules) for other in others) / len(others)
    if rules.scoring is Scoring.MELDS:  # what each has laid scores for it too
        table = game.table_points
        mine_left -= table[seat]
        theirs_left -= sum(table[other] for other in others) / len(others)
    return theirs_left - mine_left
