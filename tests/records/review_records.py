"""Write the records the review's tests read: deals with three planted errors, and expert play.

``review_mistakes.json``: up to six deals of ``classic`` between two ``strong`` players, in
which seat 0 makes three errors of its own, once each (the first two at their first chance, the
third from turn ``LATE_TURN`` on, at each chance with ``TAKE`` odds):

- it could go out, and throws its highest card instead;
- it feeds the next seat a meld: it throws a card that makes a meld with cards that seat took
  from the pile and still holds;
- it throws a card of a pair with a live third card, keeping the loose queen or king
  ``strong`` would have thrown.

Beside it, ``review_mistakes.planted.json`` says where they are. The first seed whose review
(at the tests' sample count) marks exactly those three decisions is kept.

``review_expert.json``: one deal of ``expert`` against itself (fixed samples, so the record is
the same on any machine).

Run from the repository root: ``python tests/records/review_records.py``.
"""

from __future__ import annotations

import json
import multiprocessing
import random
from pathlib import Path

from rummykit.bots.basic import completes_meld
from rummykit.bots.evaluate import live_cards
from rummykit.bots.expert import ExpertBot
from rummykit.bots.play import play_deal
from rummykit.bots.strong import StrongBot
from rummykit.core.actions import Action, Discard, Meld
from rummykit.core.cards import Card, Suit
from rummykit.core.deadwood import best_partition
from rummykit.core.observation import Observation
from rummykit.core.presets import PRESETS
from rummykit.core.record import GameRecord, dump_record, record_of
from rummykit.core.state import GameState
from rummykit.review.walk import decision_points, judge_point, review_record

HERE = Path(__file__).parent
SAMPLES = 48
"""Samples a decision in the tests' reviews of these records."""
NAMES = ["Ann", "Bob"]
LATE_TURN = 8
"""The turn of a deal from which seat 0 throws a card the wrong way (earlier, little is lost)."""
HIGH = 12
"""The least rank of the loose card kept when seat 0 breaks a pair instead (a queen)."""
TAKE = 0.3
"""The odds that seat 0 takes a chance at an error it has not made yet (the search for a record
then sees the errors at many moments of a deal)."""
MAX_DEALS = 6
FIRST_SEED = 150
"""Where the search for the planted record starts (it found seed 1359 in ten minutes)."""
"""Deals a record may take to hold all three errors."""


class ErringBot:
    """``strong``, but for one error of each kind, each made at its first chance."""

    name = "erring"
    description = "Plays as strong does, but for one planted error of each kind."

    def __init__(self, seed: int) -> None:
        self.strong = StrongBot()
        self.chance = random.Random(seed)
        """Whether to take a chance at an error: each is taken with ``TAKE`` odds."""
        self.made: dict[str, tuple[int, int]] = {}
        """Each error made: its kind, and (deal number, turn number)."""

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """The strong choice, or the first chance of an error not made yet."""
        best = self.strong.choose(observation, rng)
        hand = observation.hand
        discards = [action for action in observation.legal_actions if isinstance(action, Discard)]
        where = (observation.deal_number, observation.turn_number)
        if "no_go_out" not in self.made and isinstance(best, Meld) and discards:
            split = best_partition(hand, observation.rules)
            if len(split.deadwood) <= 1:  # all but one card in melds: it could go out now
                self.made["no_go_out"] = where
                return max(discards, key=lambda action: (action.card.rank or 0, action.card))
        if not isinstance(best, Discard):
            return best
        others = [action for action in discards if action != best]
        following = (observation.turn + 1) % observation.seat_count
        feeds = [  # cards that make a meld with cards the next seat visibly holds
            action
            for action in others
            if completes_meld(observation.known_cards[following], action.card, observation.rules)
        ]
        late = observation.turn_number >= LATE_TURN and self.chance.random() < TAKE
        if "feed" not in self.made and feeds:  # throw what the next seat can use
            self.made["feed"] = where
            return max(feeds, key=lambda action: (action.card.rank or 0, action.card))
        live = live_cards(observation)
        pieces = [
            action
            for action in others
            if sum(card.rank is action.card.rank for card in hand) == 2
            and sum(live[Card(action.card.rank, suit)] for suit in Suit) >= 1
            and action.card.rank is not None
        ]
        high_loose = best.card.rank is not None and best.card.rank >= HIGH
        if "break_set" not in self.made and pieces and high_loose and late:  # keep the high card
            self.made["break_set"] = where
            return pieces[0]
        return best


def erring_game(seed: int) -> tuple[GameState, dict[str, tuple[int, int]]] | None:
    """Deals of a game until all three errors are made: the game, and where each error is
    (deal, index among the deal's actions)."""
    preset = PRESETS["classic"]
    rng = random.Random(seed)
    game = GameState(preset.rules, 2, dealer=1, seed=rng.randrange(2**32))
    erring = ErringBot(seed)
    places: dict[str, tuple[int, int]] = {}
    while len(places) < 3 and not game.game_over and game.deal_number < MAX_DEALS:
        game.start_deal(seed=rng.randrange(2**16))
        for index, choice in enumerate(play_deal(game, [erring, StrongBot()], [rng, rng])):
            for kind in erring.made:
                if kind not in places and choice.seat == 0:
                    places[kind] = (game.deal_number, index)
        if not game.deal_over:
            return None
    return (game, places) if len(places) == 3 else None


def planted_marked(seed: int) -> tuple[int, GameRecord, dict[str, tuple[int, int]]] | None:
    """The seed's record and its errors, if all three are made and each is marked."""
    found = erring_game(seed)
    if found is None:
        return None
    game, places = found
    record = record_of(game, PRESETS["classic"], NAMES)
    points = {(point.deal, point.action): point for point in decision_points(record, 0)}
    planted = [judge_point(points[place], SAMPLES, None) for place in places.values()]
    if any(decision.mark is None for decision in planted):
        return None  # an error that cost too little to be sure of
    return seed, record, places


def main() -> None:
    """Write both records (the search runs in two processes)."""
    with multiprocessing.Pool(2) as pool:
        for found in pool.imap(planted_marked, range(FIRST_SEED, FIRST_SEED + 5000)):
            if found is None:
                continue
            seed, record, places = found
            review = review_record(record, 0, samples=SAMPLES)
            marked = {(d.deal, d.action) for d in review.decisions if d.mark is not None}
            print(seed, places, sorted(marked), flush=True)
            if marked == set(places.values()):
                (HERE / "review_mistakes.json").write_text(dump_record(record))
                where = {kind: {"deal": deal, "action": at} for kind, (deal, at) in places.items()}
                text = json.dumps(where, indent=2) + "\n"
                (HERE / "review_mistakes.planted.json").write_text(text)
                break
    preset = PRESETS["classic"]
    rng = random.Random(2026)
    game = GameState(preset.rules, 2, dealer=1, seed=rng.randrange(2**32))
    game.start_deal(seed=rng.randrange(2**16))
    experts = [ExpertBot(samples=24), ExpertBot(samples=24)]
    for _ in play_deal(game, experts, [rng, rng]):
        pass
    (HERE / "review_expert.json").write_text(dump_record(record_of(game, preset, NAMES)))


if __name__ == "__main__":
    main()
