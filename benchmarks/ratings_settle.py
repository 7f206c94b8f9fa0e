"""How fast ratings settle and how well they order players: a simulation of rated games.

Players have a true skill (openskill units: mean 25, spread ``SKILL_SD``); in a game each one
performs at skill plus Gaussian noise (``NOISE_SD``, openskill's beta) and the final order is
the order of the performances. Ratings are updated with ``rummykit.ratings.rate``.

- ``settle``: a newcomer plays against a fixed field of established players (their ratings
  are their true skills, sigma ``REGULAR_SIGMA``, and do not move): how many games until the
  newcomer's sigma falls to each candidate threshold, how far its mu is from its true skill
  then (in displayed points, 60 a mu), and its sigma after 10, 20 and 40 games.
- ``order``: a population of newcomers plays random tables of 2 to 6 among itself: Kendall's
  tau between the ratings' order (by mu) and the true order after each number of games.
- ``halfway``: every openskill model over random 2-6 player results with one tie between
  adjacent players: how far the tie's update is from halfway between the two strict orders.

Usage::

    .venv/bin/python benchmarks/ratings_settle.py --json benchmarks/results/ratings_settle.json
    .venv/bin/python benchmarks/ratings_settle.py --quick      # smoke run, a few seconds
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from rummykit.ratings import Rating, rate
from rummykit.ratings.drift import REGULAR_SIGMA
from rummykit.ratings.rating import DISPLAY_SCALE

# run as a script: tests/ holds the tied results the halfway part shares with the tests
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from rated_results import TiedResult, around_tie

SKILL_SD: Final = 25.0 / 6.0
"""The spread of true skill among players: half of openskill's prior sigma, so the prior
covers the field with room to spare (an assumption: rummy players differ less than chess
players)."""

NOISE_SD: Final = 25.0 / 6.0
"""A game's luck: performance noise as large as the skill spread (openskill's beta). Rummy's
deal is a large part of the result."""

FIELD_SIZE: Final = 60
THRESHOLDS: Final = (3.5, 4.5, 5.5)
SIGMA_AFTER: Final = (10, 20, 40)
TABLE_SIZES: Final = (2, 3, 4, 6)


@dataclass(frozen=True)
class SettleRow:
    """One table size and threshold: the newcomers' games to settle and their error then."""

    table_size: int
    threshold: float
    games_median: float
    error_median: float
    """Median |mu - true skill| when the rating settles, in displayed points."""
    error_p90: float


def performance_ranks(skills: Sequence[float], rng: random.Random) -> list[int]:
    """Competition ranks (0 best) of one game's performances."""
    performances = [skill + rng.gauss(0.0, NOISE_SD) for skill in skills]
    return [sum(1 for other in performances if other > mine) for mine in performances]


def newcomer_career(table_size: int, games: int, rng: random.Random) -> tuple[float, list[Rating]]:
    """A newcomer's true skill and its rating after each game against the fixed field."""
    field = [rng.gauss(25.0, SKILL_SD) for _ in range(FIELD_SIZE)]
    skill = rng.gauss(25.0, SKILL_SD)
    rating = Rating()
    history = []
    for _ in range(games):
        opponents = rng.sample(field, table_size - 1)
        ranks = performance_ranks([skill, *opponents], rng)
        players = [rating, *(Rating(mu=mu, sigma=REGULAR_SIGMA) for mu in opponents)]
        rating = rate(players, ranks)[0]
        history.append(rating)
    return skill, history


def settle(newcomers: int, games: int, seed: int) -> dict[str, Any]:
    """The ``settle`` part: rows per table size and threshold, sigma after fixed counts."""
    rng = random.Random(seed)
    rows: list[SettleRow] = []
    sigmas: dict[str, dict[str, float]] = {}
    for size in TABLE_SIZES:
        careers = [newcomer_career(size, games, rng) for _ in range(newcomers)]
        for threshold in THRESHOLDS:
            rows.append(settle_row(size, threshold, careers))
        sigmas[str(size)] = {
            str(count): statistics.median(history[count - 1].sigma for _, history in careers)
            for count in SIGMA_AFTER
            if count <= games
        }
    return {"rows": [asdict(row) for row in rows], "sigma_after": sigmas}


def settle_row(
    size: int, threshold: float, careers: Sequence[tuple[float, list[Rating]]]
) -> SettleRow:
    """Games to settle under ``threshold`` and the error then, over the careers."""
    counts: list[int] = []
    errors: list[float] = []
    for skill, history in careers:
        settled = next(
            (index for index, rating in enumerate(history) if rating.sigma <= threshold), None
        )
        if settled is None:
            continue  # not settled within the simulated games: counted as missing
        counts.append(settled + 1)
        errors.append(abs(history[settled].mu - skill) * DISPLAY_SCALE)
    if not counts:
        return SettleRow(size, threshold, float("nan"), float("nan"), float("nan"))
    return SettleRow(
        size,
        threshold,
        statistics.median(counts),
        round(statistics.median(errors), 1),
        round(percentile(errors, 0.9), 1),
    )


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def kendall_tau(left: Sequence[float], right: Sequence[float]) -> float:
    """Kendall's tau-a between two orderings of the same players (no ties expected)."""
    pairs = 0
    agreement = 0
    for i in range(len(left)):
        for j in range(i + 1, len(left)):
            pairs += 1
            product = (left[i] - left[j]) * (right[i] - right[j])
            agreement += (product > 0) - (product < 0)
    return agreement / pairs


def order(population: int, checkpoints: Sequence[int], repeats: int, seed: int) -> dict[str, Any]:
    """The ``order`` part: mean Kendall tau (mu vs true skill) after each number of games."""
    rng = random.Random(seed)
    taus: dict[int, list[float]] = {count: [] for count in checkpoints}
    for _ in range(repeats):
        skills = [rng.gauss(25.0, SKILL_SD) for _ in range(population)]
        ratings = [Rating() for _ in range(population)]
        for played in range(1, max(checkpoints) + 1):
            play_round(skills, ratings, rng)
            if played in taus:
                taus[played].append(kendall_tau([r.mu for r in ratings], skills))
    return {str(count): round(statistics.mean(values), 3) for count, values in taus.items()}


def play_round(skills: Sequence[float], ratings: list[Rating], rng: random.Random) -> None:
    """Everyone plays one game: the population split at random into tables of 2 to 6."""
    seats = list(range(len(skills)))
    rng.shuffle(seats)
    while seats:
        size = min(len(seats), rng.randint(2, 6))
        if len(seats) - size == 1:
            size += 1  # nobody plays alone
        table, seats = seats[:size], seats[size:]
        ranks = performance_ranks([skills[seat] for seat in table], rng)
        updated = rate([ratings[seat] for seat in table], ranks)
        for seat, rating in zip(table, updated, strict=True):
            ratings[seat] = rating


MODELS: Final = {
    "BradleyTerryFull": BradleyTerryFull,
    "BradleyTerryPart": BradleyTerryPart,
    "PlackettLuce": PlackettLuce,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
    "ThurstoneMostellerPart": ThurstoneMostellerPart,
}


def halfway(samples: int, seed: int) -> dict[str, float]:
    """The ``halfway`` part: each model's largest miss of the halfway rule, in mu."""
    rng = random.Random(seed)
    games = [random_tied_game(rng) for _ in range(samples)]
    return {
        name: max(halfway_miss(model(), game) for game in games) for name, model in MODELS.items()
    }


def random_tied_game(rng: random.Random) -> TiedResult:
    """2 to 6 random ratings in a random order, around a random adjacent pair."""
    players = rng.randint(2, 6)
    ratings = [
        Rating(mu=rng.uniform(0.0, 50.0), sigma=rng.uniform(0.5, 25.0 / 3.0))
        for _ in range(players)
    ]
    order = rng.sample(range(players), players)
    return around_tie(ratings, order, rng.randrange(players - 1))


def halfway_miss(model: Any, game: TiedResult) -> float:
    """The largest |tie - halfway| in mu over the players of one game under ``model``."""

    def mus(ranks: Sequence[int]) -> list[float]:
        teams = [[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in game.ratings]
        return [team[0].mu for team in model.rate(teams, ranks=[float(r) for r in ranks])]

    first, second, tie = mus(game.first_ahead), mus(game.second_ahead), mus(game.tied)
    return max(abs(t - (a + b) / 2) for a, b, t in zip(first, second, tie, strict=True))


def report_text(report: dict[str, Any]) -> str:
    """The report as plain text tables."""
    lines = ["settle: newcomer vs a fixed field (median games; |mu error| in display points)"]
    lines.append("table  threshold  games  error median  error p90")
    for row in report["settle"]["rows"]:
        lines.append(
            f"{row['table_size']:>5}  {row['threshold']:>9}  {row['games_median']:>5}"
            f"  {row['error_median']:>12}  {row['error_p90']:>9}"
        )
    lines.append("median sigma after N games: " + json.dumps(report["settle"]["sigma_after"]))
    lines.append(
        "order: Kendall tau (mu vs true skill) after N games: " + json.dumps(report["order"])
    )
    lines.append("halfway: largest miss in mu: " + json.dumps(report["halfway"]))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="tiny counts: a smoke run")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", type=Path, help="write the report here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    newcomers, games, population, repeats, samples = (
        (20, 40, 20, 2, 30) if args.quick else (400, 60, 60, 20, 300)
    )
    checkpoints = (5, 10) if args.quick else (5, 10, 20, 40, 80)
    report: dict[str, Any] = {
        "config": {
            "quick": args.quick,
            "seed": args.seed,
            "newcomers": newcomers,
            "field": FIELD_SIZE,
            "population": population,
            "repeats": repeats,
            "halfway_samples": samples,
            "skill_sd": SKILL_SD,
            "noise_sd": NOISE_SD,
        },
        "settle": settle(newcomers, games, args.seed),
        "order": order(population, checkpoints, repeats, args.seed),
        "halfway": halfway(samples, args.seed),
    }
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(report_text(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
