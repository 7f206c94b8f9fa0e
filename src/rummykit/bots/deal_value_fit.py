"""Fit ``deal_value.json``: the weights of ``master``'s value of a deal still in play.

Run ``python -m rummykit.bots.deal_value_fit`` (about a minute) to make the file again; the
same seed gives the same weights. Positions come from deals between two ``strong`` players
under ``classic``; from each one the deal is played out with basic play (the playouts'
policy), and every position of that playout is a row: its ``features`` for each seat, and
that seat's result at the end of the deal (as ``playout_value`` scores it). The weights are
the least-squares fit, and the script prints how much of the results they explain on
positions it did not fit.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from rummykit.bots.deal_value import FEATURE_NAMES, VALUE_FILE, DealValue, features
from rummykit.bots.expert import greedy_action, playout_value
from rummykit.bots.play import play_deal
from rummykit.bots.strong import StrongBot
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState

CUT_TURNS = 2
"""Turns a seat ``master`` plays out before it scores with the value: enough for the
candidate's first effects (the card thrown taken or not, the next draw), few enough to
play four or five times the samples of a playout to the end."""

RIDGE = 1e-3
"""A touch of ridge on the weights (the bias aside): the features overlap."""

Row = tuple[tuple[float, ...], float]


def rows_from(game: GameState, seats: int) -> list[Row]:
    """Play ``game`` out with basic play; every position on the way, for every seat."""
    seen: list[tuple[int, tuple[float, ...]]] = []
    while not game.deal_over:
        for seat in range(seats):
            seen.append((seat, features(game, seat)))
        game.apply_unchecked(greedy_action(game))
    results = [playout_value(game, seat, 0) for seat in range(seats)]
    return [(row, results[seat]) for seat, row in seen]


def collect(deals: int, seed: int, seats: int = 2, every: int = 3) -> list[list[Row]]:
    """Rows from ``deals`` strong-player deals, one list a deal.

    A deal's rows stay together, so that a deal is never split between the fit and the check.
    """
    rules = find_preset("classic").rules
    rng = random.Random(seed)
    found: list[list[Row]] = []
    strong = StrongBot()
    for _ in range(deals):
        game = GameState.new(rules, seats, seed=rng.randrange(2**32))
        rows: list[Row] = []
        for number, _choice in enumerate(play_deal(game, [strong] * seats, [rng] * seats)):
            if number % every == 0:
                rows.extend(rows_from(game.clone(), seats))
        found.append(rows)
    return found


def least_squares(rows: Sequence[Row], ridge: float = RIDGE) -> tuple[float, ...]:
    """The weights that minimise the squared error of ``rows`` (normal equations)."""
    size = len(FEATURE_NAMES)
    matrix = [[0.0] * size for _ in range(size)]
    vector = [0.0] * size
    for row, target in rows:
        for i in range(size):
            vector[i] += row[i] * target
            for j in range(i, size):
                matrix[i][j] += row[i] * row[j]
    for i in range(size):
        for j in range(i):
            matrix[i][j] = matrix[j][i]
        if i:
            matrix[i][i] += ridge * len(rows)
    return tuple(_solve(matrix, vector))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda i: abs(rows[i][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for i in range(column + 1, size):
            factor = rows[i][column] / rows[column][column]
            for j in range(column, size + 1):
                rows[i][j] -= factor * rows[column][j]
    solution = [0.0] * size
    for i in reversed(range(size)):
        known = sum(rows[i][j] * solution[j] for j in range(i + 1, size))
        solution[i] = (rows[i][size] - known) / rows[i][i]
    return solution


def explained(rows: Sequence[Row], weights: Sequence[float]) -> float:
    """The share of the results' variance the weights explain (R², on ``rows``)."""
    mean = sum(target for _, target in rows) / len(rows)
    total = sum((target - mean) ** 2 for _, target in rows)
    error = sum(
        (target - sum(w * x for w, x in zip(weights, row, strict=True))) ** 2
        for row, target in rows
    )
    return 1 - error / total


def main(argv: list[str] | None = None) -> int:
    """Fit the weights and write ``deal_value.json`` (into the package unless told)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="strong-player deals (300)")
    parser.add_argument("--seed", type=int, default=14, help="the seed (14)")
    parser.add_argument(
        "--out", type=Path, help=f"where to write (default: the package's {VALUE_FILE})"
    )
    args = parser.parse_args(argv)
    deals = collect(args.deals, args.seed)
    held = max(1, len(deals) // 5)
    fit = [row for deal in deals[held:] for row in deal]
    check = [row for deal in deals[:held] for row in deal]
    weights = least_squares(fit)
    print(f"{len(fit)} rows fitted, {len(check)} checked")
    print(f"R² fitted {explained(fit, weights):.3f}, checked {explained(check, weights):.3f}")
    for name, weight in zip(FEATURE_NAMES, weights, strict=True):
        print(f"  {name:32} {weight:+.4f}")
    value = DealValue(weights, "classic", 2, CUT_TURNS)
    out = args.out or Path(str(resources.files("rummykit.bots").joinpath(VALUE_FILE)))
    out.write_text(json.dumps(value.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
