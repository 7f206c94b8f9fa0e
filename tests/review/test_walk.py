"""The walk over a record (``rummykit.review.walk``) and the review's words, without playouts.

The judge is replaced by judgements made here, so that what the walk adds (which decisions it
finds, their seeds, the summary and the JSON) is checked on its own, quickly.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rummykit.core.actions import parse_action
from rummykit.core.record import GameRecord, load_record
from rummykit.review.judge import Judgement, Option
from rummykit.review.marks import MARKS, Mark
from rummykit.review.walk import (
    SEED_BASE,
    DecisionPoint,
    ReviewedDecision,
    ReviewError,
    decision_points,
    summarize,
)
from rummykit.review.words import MARK_NAMES, catalogue, mark_meaning

RECORDS = Path(__file__).parents[1] / "records"
SHORT = RECORDS / "review_expert.json"
"""One deal of ``expert`` against itself."""


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return load_record(SHORT.read_text())


def judgement(loss: float, ci95: float = 0.0, played: str = "0 draw stock") -> Judgement:
    action = parse_action(played)
    other = parse_action("0 draw discard")
    return Judgement(
        played=action,
        best=other if loss else action,
        loss=loss,
        loss_ci95=ci95,
        value=-3.14159,
        options=(Option(action, 0.0, 0.0), Option(other, loss, ci95)),
        samples=8,
    )


def decision(loss: float, mark: Mark | None, action: int = 0) -> ReviewedDecision:
    return ReviewedDecision(deal=0, action=action, judgement=judgement(loss), mark=mark)


def test_every_decision_point_is_the_seats_own_choice_among_several(record: GameRecord) -> None:
    for seat in range(len(record.players)):
        points = decision_points(record, seat)
        assert points, seat
        for point in points:
            assert point.played.seat == seat == point.observation.seat
            assert len(point.observation.legal_actions) > 1
            assert point.played in point.observation.legal_actions
            text = record.deals[point.deal].actions[point.action]
            assert parse_action(text) == point.played  # the index is the deal's action index


def test_the_points_are_in_play_order_and_each_has_its_own_seed(record: GameRecord) -> None:
    points = decision_points(record, 0) + decision_points(record, 1)
    places = [(point.deal, point.action) for point in decision_points(record, 0)]
    assert places == sorted(places)
    seeds = [point.seed for point in points]
    assert len(set(seeds)) == len(seeds)
    assert all(seed >= SEED_BASE for seed in seeds)


def test_a_seed_comes_from_the_place_never_from_a_hidden_card(record: GameRecord) -> None:
    point = decision_points(record, 0)[0]
    moved = dataclasses.replace(point, action=point.action + 1)
    assert moved.seed == point.seed + 16
    assert dataclasses.replace(point, deal=point.deal + 1).seed == point.seed + 10_007 * 16


@pytest.mark.parametrize("seat", [-1, 2, 9])
def test_a_seat_the_game_does_not_have_is_refused(record: GameRecord, seat: int) -> None:
    with pytest.raises(ReviewError, match="its seats are 0 to 1"):
        decision_points(record, seat)


def test_a_record_that_does_not_replay_is_refused(record: GameRecord) -> None:
    deal = record.deals[0]
    broken = dataclasses.replace(deal, actions=(*deal.actions[:3], "0 discard 2♣ 2♣"))
    with pytest.raises(ReviewError, match="does not replay"):
        decision_points(dataclasses.replace(record, deals=(broken,)), 0)


def test_the_summary_counts_each_mark_and_the_points_given_away(record: GameRecord) -> None:
    decisions = [
        decision(0.0, None),
        decision(3.0, Mark.INACCURACY, 1),
        decision(6.0, Mark.MISTAKE, 2),
        decision(13.0, Mark.BLUNDER, 3),
        decision(14.0, Mark.BLUNDER, 4),
    ]
    review = summarize(record, 1, decisions)
    assert (review.seat, review.player, review.deals) == (1, record.players[1], 1)
    assert review.summary() == {
        "decisions": 5,
        "inaccuracy": 1,
        "mistake": 1,
        "blunder": 2,
        "deals": 1,
        "points_lost": 36.0,
        "points_lost_per_deal": 36.0,
    }


def test_a_review_of_no_deal_loses_nothing_a_deal(record: GameRecord) -> None:
    review = summarize(dataclasses.replace(record, deals=()), 0, [])
    summary = review.summary()
    assert summary["decisions"] == summary["deals"] == 0
    assert summary["points_lost_per_deal"] == 0.0


def test_the_json_rounds_the_figures_and_lists_every_option(record: GameRecord) -> None:
    judged = judgement(5.4321, 1.2345)
    reviewed = ReviewedDecision(deal=0, action=7, judgement=judged, mark=Mark.INACCURACY)
    assert reviewed.to_json() == {
        "deal": 0,
        "action": 7,
        "played": "0 draw stock",
        "best": "0 draw discard",
        "loss": 5.43,
        "loss_ci95": 1.23,
        "mark": "inaccuracy",
        "value": -3.14,
        "samples": 8,
        "exact": False,
        "options": [
            {"action": "0 draw stock", "gain": 0.0, "ci95": 0.0},
            {"action": "0 draw discard", "gain": 5.43, "ci95": 1.23},
        ],
    }
    assert decision(0.0, None).to_json()["mark"] is None
    review = summarize(record, 0, [reviewed])
    whole = review.to_json()
    assert whole["decisions"] == [reviewed.to_json()]
    assert whole["summary"] == review.summary()
    assert whole["marks"] == {"inaccuracy": 2.0, "mistake": 5.0, "blunder": 12.0}
    assert (whole["seat"], whole["player"]) == (0, record.players[0])


def test_a_point_carries_what_the_seat_saw(record: GameRecord) -> None:
    point = decision_points(record, 1)[0]
    assert isinstance(point, DecisionPoint)
    assert point.observation.hand  # the seat's own cards, and never another's
    assert point.observation.seat == 1


@pytest.mark.parametrize("mark", list(Mark))
def test_each_marks_meaning_names_its_threshold(mark: Mark) -> None:
    meaning = mark_meaning(mark)
    assert f"at least {MARKS[mark]:g} points" in meaning
    assert "{" not in meaning


def test_the_catalogue_has_each_marks_name_and_meaning_under_review() -> None:
    words = catalogue()
    assert all(key.startswith("review.") for key in words)
    for mark in Mark:
        assert words[f"review.mark.{mark}"] == MARK_NAMES[mark]
        assert "{points}" in words[f"review.meaning.{mark}"]  # the page fills it in
    assert "95%" in words["review.how_it_works"]
    assert len(words) == 1 + 2 * len(Mark)
