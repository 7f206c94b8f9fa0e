"""Whole-hand legal lists asked again: remembered by the hand, against searched afresh.

A position's legal actions are asked for more than once: a player's view, then the check of
the action chosen, then the move itself (and the property test asks twice on purpose). Under
whole-hand melding with deep takes, one list of a large hand is seconds of search (every
depth of the pile, or every meld of the hand, is a whole-hand question), so the engine keeps
the answers by the hand's cards (``deadwood._goes_out_now`` and ``movegen._whole_hand_groups``).

This script plays seeded games of random players under ``going_out.RULES`` (two decks, whole-
hand melding, deep takes that must be used) and, at every position whose seat holds
``--min-cards`` or more with the pile, times the legal list asked a first time (the memos
emptied), asked again as the engine now answers (remembered), and asked again with the memos
emptied (as before they existed), side by side in one run. Both answers must be the first's.

    .venv/bin/python benchmarks/whole_hand_lists.py               # 6 games: about a minute
    .venv/bin/python benchmarks/whole_hand_lists.py --games 1 --json  # the smoke test's run
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.going_out import RULES

from rummykit.bots import make_bot
from rummykit.bots.play import DEAL_ACTION_CAP, play_deal
from rummykit.core import deadwood, movegen
from rummykit.core.actions import Action
from rummykit.core.state import GameState, Phase

WAYS = ("first ask", "again, remembered", "again, searched afresh")
"""The three asks timed at each position, in the order asked."""


def forget() -> None:
    """Empty the engine's memos of whole-hand answers."""
    deadwood._goes_out_now.cache_clear()
    movegen._whole_hand_groups.cache_clear()


def timed_list(game: GameState) -> tuple[float, list[Action]]:
    """Seconds to list the legal actions of ``game``, and the list."""
    start = time.perf_counter()
    listed = list(game.legal_actions())
    return time.perf_counter() - start, listed


def measure(games: int, seats: int, min_cards: int) -> dict[str, list[float]]:
    """Each way's seconds at every large position of ``games`` seeded games."""
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    bot = make_bot("random")
    for seed in range(games):
        rng = random.Random(seed)
        game = GameState.new(RULES, seats, dealer=seed % seats, seed=seed)
        for _ in play_deal(game, [bot] * seats, [rng] * seats, DEAL_ACTION_CAP):
            deal = game.deal
            if deal.phase is Phase.OVER:
                continue
            cards = len(deal.hands[deal.turn])
            if deal.phase is Phase.DRAW:
                cards += len(deal.discard_pile)
            if cards < min_cards:
                continue
            forget()
            first, listed = timed_list(game)
            again, remembered = timed_list(game)
            forget()
            afresh, searched = timed_list(game)
            if remembered != listed or searched != listed:
                sys.exit(f"A list asked again differed (game {seed}): a bug in the engine.")
            for way, seconds in zip(WAYS, (first, again, afresh), strict=True):
                times[way].append(seconds)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games to play (default 6)")
    parser.add_argument("--seats", type=int, default=3, help="players a game (default 3)")
    parser.add_argument(
        "--min-cards",
        type=int,
        default=30,
        help="time positions whose hand (with the pile, to draw) holds this many (default 30)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    times = measure(args.games, args.seats, args.min_cards)
    if not times[WAYS[0]]:
        print("No position reached --min-cards: play more games or lower it.", file=sys.stderr)
        return 1
    base = sum(times[WAYS[0]])
    rows = [
        {
            "ask": way,
            "positions": len(each),
            "total_s": round(sum(each), 4),
            "worst_s": round(max(each), 4),
            "time_vs_first": round(sum(each) / base, 4) if base else None,
        }
        for way, each in times.items()
    ]
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{rows[0]['positions']} positions of {args.min_cards} cards or more")
    print(f"{'ask':<24}{'total s':>10}{'worst s':>10}{'÷ first':>10}")
    for row in rows:
        print(f"{row['ask']:<24}{row['total_s']:>10}{row['worst_s']:>10}{row['time_vs_first']:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
