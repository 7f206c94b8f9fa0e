"""Does every deal end? Whole games of computer players under every preset, deals counted.

For each preset and table size it plays ``--games`` whole games (``strong`` and ``basic`` in
turn round the table by default, the seats rotating from game to game, decks from
``--seed``), and reports per preset: the deals played, those that ended because the stock had
been renewed ``idle_renewals`` times in a row with nothing laid (the rule that ends a deal
gone round), every blocked deal, and the deals cut at ``DEAL_ACTION_CAP`` (a game with a cut
deal stops there). A preset not made for a table size (``practice`` is for two) is skipped.

    .venv/bin/python benchmarks/deals_end.py --games 100 --seats 2 4 --jobs 2
    .venv/bin/python benchmarks/deals_end.py --presets standard boathouse --rule idle_renewals=null
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import random
import sys
import time

from rummykit.bots import make_bot
from rummykit.bots.play import DEAL_ACTION_CAP, play_deal
from rummykit.core.presets import PRESETS, find_preset
from rummykit.core.rules import parse_option
from rummykit.core.state import DealResult, GameState
from rummykit.tournament.play import deal_deck


@dataclasses.dataclass(slots=True)
class Tally:
    """What the games of one preset at one table size came to."""

    preset: str
    seats: int
    games: int = 0
    deals: int = 0
    stalled: int = 0
    """Deals ended by ``idle_renewals``."""
    blocked: int = 0
    """Every deal ended with the stock gone (the stalled ones included)."""
    cut: int = 0
    """Deals cut at the action cap."""
    actions: int = 0
    longest: int = 0
    """Actions of the longest deal."""
    seconds: float = 0.0


def stalled(game: GameState) -> bool:
    """Whether the deal just ended was ended by ``idle_renewals`` (not by ``renewals``)."""
    rules = game.rules
    limit = rules.idle_renewals
    return (
        game.result is DealResult.BLOCKED
        and limit is not None
        and game.idle_renewals_used >= limit
        and (rules.renewals is None or game.renewals_used < rules.renewals)
    )


def play_games(
    preset: str,
    seats: int,
    games: int,
    bots: list[str],
    seed: int,
    overrides: dict[str, object] | None = None,
) -> Tally:
    """Play ``games`` whole games of ``preset`` at ``seats`` and count their deals."""
    rules = find_preset(preset).rules.replace(**(overrides or {}))
    if seats > 6:
        rules = rules.replace(decks=2)
    tally = Tally(preset, seats)
    started = time.perf_counter()
    for number in range(games):
        names = [bots[(seat + number) % len(bots)] for seat in range(seats)]
        players = [make_bot(name) for name in names]
        rngs = [random.Random(f"{seed}:{preset}:{seats}:{number}:{seat}") for seat in range(seats)]
        game = GameState(rules, seats, dealer=number % seats, seed=0)
        while not game.game_over:
            deck, reshuffle_seed = deal_deck(rules, seed, number, len(game.logs))
            game.start_deal(deck, seed=reshuffle_seed)
            actions = sum(1 for _ in play_deal(game, players, rngs, DEAL_ACTION_CAP))
            tally.deals += 1
            tally.actions += actions
            tally.longest = max(tally.longest, actions)
            if not game.deal_over:
                tally.cut += 1
                break
            tally.blocked += game.result is DealResult.BLOCKED
            tally.stalled += stalled(game)
        tally.games += 1
    tally.seconds = time.perf_counter() - started
    return tally


def table(tallies: list[Tally]) -> str:
    """The results as a Markdown table."""
    lines = [
        "| preset | seats | games | deals | ended by `idle_renewals` | blocked (all) "
        "| cut at the cap | actions a deal (mean, most) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for tally in tallies:
        share = 100 * tally.stalled / tally.deals if tally.deals else 0.0
        mean = tally.actions / tally.deals if tally.deals else 0.0
        lines.append(
            f"| `{tally.preset}` | {tally.seats} | {tally.games} | {tally.deals} "
            f"| {tally.stalled} ({share:.1f}%) | {tally.blocked} | {tally.cut} "
            f"| {mean:.0f}, {tally.longest} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Play, print the table (or JSON); exit 1 if any deal was cut."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games a preset and table size")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--presets", nargs="+", default=list(PRESETS), choices=list(PRESETS))
    parser.add_argument("--bots", nargs="+", default=["strong", "basic"])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a rule option in every preset (idle_renewals=null: the deals before it)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    args = parser.parse_args(argv)
    overrides: dict[str, object] = {}
    for text in args.rule:
        name, _, value = text.partition("=")
        overrides[name] = parse_option(name, value)
    runs = [
        (preset, seats)
        for preset in args.presets
        for seats in args.seats
        if PRESETS[preset].min_seats <= seats <= PRESETS[preset].max_seats
    ]
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(play_games, preset, seats, args.games, args.bots, args.seed, overrides)
            for preset, seats in runs
        ]
        tallies = [future.result() for future in futures]
    if args.json:
        print(json.dumps([dataclasses.asdict(tally) for tally in tallies], indent=2))
    else:
        print(table(tallies))
    return 1 if any(tally.cut for tally in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
