"""Whole-hand going out on large hands: each search of ``GoingOut`` alone and in turns.

Under whole-hand melding with deep takes that must be used, the legal draws ask of every depth
of the pile whether the hand and the cards taken could all go down this turn (up to sixty-odd
cards with two decks), and the legal melds ask it again of the hand less each meld. This
script plays seeded games of random players under such rules, keeps the ``--largest``
questions (of ``--min-cards`` cards or more), then times each question answered by every set
of searches, side by side in one run (``--repeats`` rounds, the median of each question's
times is reported; "÷ turns" is a set's total time over that of ``turns``, the engine's, so
above 1.0 is slower):

- ``turns``: the searches ``GoingOut`` takes in turn (``SEARCHES``), as the engine does;
- ``fixed orders``: the two fixed card orders in turn (the engine before the third search);
- ``most constrained``: the search that settles the most constrained card first, alone.

Every set must give every answer the same; the script stops if one differs. It times the
build that is loaded: the compiled engine where built, the sources with ``RUMMYKIT_PURE=1``.

    .venv/bin/python benchmarks/going_out.py                  # a few minutes
    .venv/bin/python benchmarks/going_out.py --games 1 --largest 50 --repeats 1 --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rummykit.bots import make_bot
from rummykit.bots.play import DEAL_ACTION_CAP, play_deal
from rummykit.core.cards import JOKER, Card
from rummykit.core.deadwood import SEARCHES, GoingOut, Search
from rummykit.core.meld_search import enumerate_melds
from rummykit.core.rules import Aces, DiscardTake, GoOut, Melding, Rules
from rummykit.core.state import GameState, Phase

SEARCH_SETS: dict[str, tuple[Search, ...]] = {
    "turns": SEARCHES,
    "fixed orders": ((0, False), (1, False)),
    "most constrained": ((0, True),),
}

RULES = Rules(
    decks=2,
    jokers=1,
    aces=Aces.AROUND,
    melding=Melding.WHOLE_HAND,
    discard_take=DiscardTake.ANY,
    deep_take_must_use=True,
    go_out=GoOut.DISCARD,
    deals=1,
)
"""Two decks, aces around the corner, whole-hand melding, deep takes that must be used: the
rules under which the largest questions were met in random-rules games."""


@dataclass(frozen=True, slots=True)
class Question:
    """One whole-hand question: the cards, and the meld laid first (``after``) or not."""

    cards: tuple[Card, ...]
    using: Card | None
    after: tuple[tuple[int, ...], int] | None

    def answer(self, searches: Sequence[Search]) -> bool:
        going_out = GoingOut(self.cards, RULES.aces, searches=searches)
        if self.after is None:
            return going_out.now(must_discard=True, using=self.using)
        return going_out.after(*self.after, must_discard=True)


def questions_of(game: GameState, min_cards: int) -> Iterator[Question]:
    """The questions the legal actions of this position ask of ``min_cards`` cards or more."""
    deal = game.deal
    hand = tuple(deal.hands[deal.turn])
    if deal.phase is Phase.DRAW:
        pile = deal.discard_pile
        for depth in range(2, len(pile) + 1):
            cards = hand + tuple(pile[-depth:])
            if len(cards) >= min_cards:
                yield Question(cards, pile[-depth], None)
    elif deal.phase is Phase.PLAY and len(hand) >= min_cards:
        yield Question(hand, None, None)
        codes = [card.code for card in hand]
        for naturals, jokers in enumerate_melds(codes, RULES.aces, substitutes=True):
            yield Question(hand, None, (naturals, jokers))


def collect(games: int, seats: int, min_cards: int) -> list[Question]:
    """The questions of ``games`` seeded games of random players."""
    found: list[Question] = []
    bot = make_bot("random")
    for seed in range(games):
        rng = random.Random(seed)
        game = GameState.new(RULES, seats, dealer=seed % seats, seed=seed)
        for _ in play_deal(game, [bot] * seats, [rng] * seats, DEAL_ACTION_CAP):
            found.extend(questions_of(game, min_cards))
    return found


def time_sets(questions: list[Question], repeats: int) -> dict[str, list[float]]:
    """Seconds each question took under each set, the median of ``repeats`` rounds."""
    rounds: dict[str, list[list[float]]] = {name: [] for name in SEARCH_SETS}
    for _ in range(repeats):
        answers: dict[str, list[bool]] = {}
        for name, searches in SEARCH_SETS.items():
            times = []
            answers[name] = []
            for question in questions:
                start = time.perf_counter()
                answers[name].append(question.answer(searches))
                times.append(time.perf_counter() - start)
            rounds[name].append(times)
        first = next(iter(answers.values()))
        for name, given in answers.items():
            if given != first:
                sys.exit(f"The searches {name!r} answered differently: a bug in the engine.")
    return {
        name: [statistics.median(each) for each in zip(*per_round, strict=True)]
        for name, per_round in rounds.items()
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games to play (default 6)")
    parser.add_argument("--seats", type=int, default=3, help="players a game (default 3)")
    parser.add_argument(
        "--min-cards", type=int, default=40, help="keep questions of this many cards or more"
    )
    parser.add_argument(
        "--largest", type=int, default=1000, help="time this many of the largest questions"
    )
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    questions = collect(args.games, args.seats, args.min_cards)
    questions.sort(key=lambda question: -len(question.cards))
    questions = questions[: args.largest]
    if not questions:
        print("No question reached --min-cards: play more games or lower it.", file=sys.stderr)
        return 1
    timed = time_sets(questions, args.repeats)
    rows = []
    base = sum(timed["turns"])
    for name, times in timed.items():
        total = sum(times)
        rows.append(
            {
                "searches": name,
                "questions": len(times),
                "total_s": round(total, 3),
                "median_ms": round(1000 * statistics.median(times), 2),
                "worst_s": round(max(times), 3),
                "time_vs_turns": round(total / base, 2) if base else None,
            }
        )
    if args.json:
        print(json.dumps(rows))
        return 0
    largest = max(len(question.cards) for question in questions)
    jokers = max(question.cards.count(JOKER) for question in questions)
    print(f"{len(questions)} questions of {args.min_cards}-{largest} cards (up to {jokers} jokers)")
    print(f"{'searches':<18}{'total s':>9}{'median ms':>11}{'worst s':>9}{'÷ turns':>9}")
    for row in rows:
        print(
            f"{row['searches']:<18}{row['total_s']:>9}{row['median_ms']:>11}"
            f"{row['worst_s']:>9}{row['time_vs_turns']:>9}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
