"""The review on records made for it (``tests/records/review_records.py`` writes them).

- A deal in which ``strong`` plays seat 0 except for three planted errors (it keeps its cards
  when it could go out, it feeds the next seat a meld, it breaks a pair to keep a high card):
  exactly those three decisions are marked, the way out passed up as a settled blunder.
- A deal of ``expert`` against itself: no blunder either side.
- The review never uses a card its player could not see: two such cards swapped in the deck
  give the same review.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummykit.core.actions import parse_action
from rummykit.core.record import load_record, replay
from rummykit.review.marks import MARKS, Mark
from rummykit.review.walk import review_record

pytestmark = [pytest.mark.timeout(600), pytest.mark.heavy]

RECORDS = Path(__file__).parent.parent / "records"
MISTAKES = RECORDS / "review_mistakes.json"
PLANTED = RECORDS / "review_mistakes.planted.json"
EXPERT = RECORDS / "review_expert.json"
SAMPLES = 48
"""The samples the records were checked with when they were written."""


def test_the_planted_errors_and_only_they_are_marked() -> None:
    record = load_record(MISTAKES.read_text())
    planted = json.loads(PLANTED.read_text())
    assert set(planted) == {"no_go_out", "feed", "break_set"}
    review = review_record(record, 0, samples=SAMPLES)
    marked = {(d.deal, d.action): d for d in review.decisions if d.mark is not None}
    assert set(marked) == {(place["deal"], place["action"]) for place in planted.values()}
    missed_decision = marked[planted["no_go_out"]["deal"], planted["no_go_out"]["action"]]
    missed = missed_decision.judgement
    assert isinstance(missed.best, type(parse_action("0 meld 3c 4c 5c")))  # it should have melded
    # a way out passed up: settled, and a blunder on its whole loss
    assert missed.exact and missed_decision.mark is Mark.BLUNDER
    assert missed.loss >= MARKS[Mark.BLUNDER]
    assert not any(d.judgement.exact for d in marked.values() if d is not missed_decision)
    summary = review.summary()
    assert sum(summary[str(mark)] for mark in Mark) == 3
    assert summary["points_lost"] >= sum(d.judgement.loss for d in marked.values())


@pytest.mark.parametrize("seat", [0, 1])
def test_expert_against_itself_makes_no_blunder(seat: int) -> None:
    review = review_record(load_record(EXPERT.read_text()), seat, samples=SAMPLES)
    assert len(review.decisions) > 5
    assert review.summary()["blunder"] == 0


def test_swapping_cards_the_player_never_saw_changes_nothing_in_its_review() -> None:
    data = json.loads(EXPERT.read_text())
    record = load_record(data)
    ended = replay(record).state
    assert ended is not None and ended.deal_over
    seat = ended.deal_winner if ended.deal_winner is not None else 0
    other = 1 - seat
    named = {word for text in record.deals[0].actions for word in text.split()}
    hidden_hand = [card for card in ended.hands[other] if str(card) not in named]
    never_drawn = [card for card in ended.stock if str(card) not in named]
    assert hidden_hand and never_drawn, "the deal must leave cards the reviewed seat never saw"
    first, second = str(hidden_hand[0]), str(never_drawn[0])
    deck = data["deals"][0]["deck"]
    i, j = deck.index(first), deck.index(second)
    deck[i], deck[j] = deck[j], deck[i]
    swapped = load_record(data)
    after = replay(swapped).state
    assert after is not None and after.deal_over  # the same actions are still legal
    assert sorted(after.hands[other]) != sorted(ended.hands[other])  # the swap is real
    assert review_record(swapped, seat, samples=8) == review_record(record, seat, samples=8)
