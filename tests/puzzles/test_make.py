"""Finding puzzles in records: the known error is found, themed and solved; nothing hidden is
shown; a puzzle the deeper search disagrees with is dropped."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.core.actions import parse_action
from rummykit.core.cards import Card
from rummykit.core.record import GameRecord, load_record
from rummykit.core.state import GameState
from rummykit.protocol.messages import SeatView
from rummykit.puzzles.make import VERIFY_DEAL_SHIFT, NamedRecord, make_puzzles
from rummykit.puzzles.model import Puzzle, PuzzleSet, Theme
from rummykit.review import walk
from rummykit.review.judge import Judgement, Option
from rummykit.review.walk import DecisionPoint, ReviewedDecision, judge_point

SAMPLES = 16
"""Enough for the planted error: it costs about 18 points a deal, a few either side."""
VERIFY = 48
PLANTED_ACTION = 32
PLAYED = "0 discard 6h"
GOING_OUT = "0 meld 6c 6h 6s"


def _make(record: GameRecord) -> PuzzleSet:
    return make_puzzles(
        [NamedRecord("planted", record)], samples=SAMPLES, verify_samples=VERIFY, jobs=1
    )


@pytest.fixture(scope="module")
def found(planted_record: GameRecord) -> PuzzleSet:
    return _make(planted_record)


def _planted(puzzles: PuzzleSet) -> Puzzle:
    [puzzle] = [p for p in puzzles.puzzles if p.source.action == PLANTED_ACTION]
    return puzzle


def test_a_missed_going_out_is_found_as_a_go_out_puzzle(found: PuzzleSet) -> None:
    puzzle = _planted(found)
    assert puzzle.theme is Theme.GO_OUT
    assert puzzle.seat == 0 and puzzle.source.seat == 0 and puzzle.source.deal == 0
    assert puzzle.source.record == "planted"
    assert puzzle.played == PLAYED
    assert GOING_OUT in puzzle.solutions and PLAYED not in puzzle.solutions
    assert puzzle.loss >= 5
    assert puzzle.options[0].action == PLAYED and puzzle.options[0].gain == 0
    assert {option.action for option in puzzle.options} >= set(puzzle.solutions)


def test_every_solution_and_the_choice_played_are_legal_in_the_view(found: PuzzleSet) -> None:
    for puzzle in found.puzzles:
        legal = {f"{puzzle.seat} {text}" for text in puzzle.view.legal}
        assert set(puzzle.solutions) <= legal
        assert puzzle.played in legal


def test_the_deeper_search_weighed_every_legal_choice_so_no_equal_answer_is_missed(
    found: PuzzleSet,
) -> None:
    assert found.puzzles
    for puzzle in found.puzzles:
        legal = {f"{puzzle.seat} {text}" for text in puzzle.view.legal}
        assert {option.action for option in puzzle.options} == legal


def _position(record: GameRecord, puzzle: Puzzle) -> GameState:
    deal = record.deals[puzzle.source.deal]
    game = GameState(record.rules, len(record.players), deal.dealer)
    game.start_deal(deal.deck, reshuffles=deal.reshuffles, seed=deal.seed)
    for text in deal.actions[: puzzle.source.action]:
        game.apply(parse_action(text))
    return game


def _cards_shown(view: SeatView) -> Iterator[str]:
    """Every card the view names anywhere (its hand, piles, melds, lists, legal actions)."""
    yield from view.hand
    yield from view.discard
    for cards in (*view.known, *view.refused, *view.thrown):
        yield from cards
    for meld in view.melds:
        yield from (word.partition("=")[0] for word in meld.cards)
    yield from (text for text in (view.taken, view.must_play) if text is not None)
    for action in view.legal:
        for word in action.split()[1:]:
            with contextlib.suppress(ValueError):  # a word that is no card: a number
                yield str(Card.parse(word.partition("=")[0]))


def test_no_puzzle_shows_a_card_its_seat_could_not_see(
    planted_record: GameRecord, found: PuzzleSet
) -> None:
    assert found.puzzles
    for puzzle in found.puzzles:
        game = _position(planted_record, puzzle)
        seat = puzzle.seat
        seen = {str(card) for card in game.hands[seat]}
        seen |= {str(card) for card in game.deal.discard_pile}
        seen |= {str(card) for meld in game.deal.melds for card in meld.cards}
        for other in range(game.seat_count):
            seen |= {str(card) for card in game.deal.known[other]}
        view = puzzle.view
        seen |= {card for cards in (*view.refused, *view.thrown) for card in cards}
        hidden = {
            str(card)
            for other in range(game.seat_count)
            if other != seat
            for card in game.hands[other]
            if card not in game.deal.known[other]
        }
        assert set(_cards_shown(view)) <= seen
        assert not set(_cards_shown(view)) & hidden
        assert sorted(view.hand) == sorted(str(card) for card in game.hands[seat])
        assert view.deal_result is None


def test_the_same_records_give_the_same_puzzles(
    planted_record: GameRecord, found: PuzzleSet
) -> None:
    assert _make(planted_record) == found


def _disagreeing(judged: Judgement) -> Judgement:
    """The judgement a deeper search that finds the choice played best would give."""
    options = tuple(
        Option(option.action, 0.0 if option.action == judged.played else -3.0, 1.0)
        for option in judged.options
    )
    return dataclasses.replace(judged, best=judged.played, loss=0.0, options=options)


def _moved_best(judged: Judgement) -> Judgement:
    """A deeper search whose best is another choice, as clearly: the solutions changed."""
    ranked = sorted(judged.options, key=lambda option: -option.gain)
    other = next(option.action for option in ranked[1:] if option.action != judged.played)
    options = tuple(
        Option(option.action, 30.0 if option.action == other else 0.0, 1.0)
        for option in judged.options
    )
    return dataclasses.replace(judged, best=other, loss=30.0, options=options)


@pytest.mark.parametrize("deeper", [_disagreeing, _moved_best], ids=["no_loss", "other_best"])
def test_a_puzzle_the_deeper_search_disagrees_with_is_dropped(
    planted_record: GameRecord, monkeypatch: pytest.MonkeyPatch, deeper: Any
) -> None:
    def judged(
        point: DecisionPoint, samples: int, budget_ms: float | None, every_choice: bool = False
    ) -> ReviewedDecision:
        first = judge_point(point, samples, budget_ms, every_choice)
        if point.deal < VERIFY_DEAL_SHIFT:
            return first
        assert samples == VERIFY  # the deeper search is the deeper one, from another seed
        assert every_choice  # and weighs every legal action
        changed = deeper(first.judgement)
        mark = first.mark if changed.loss else None
        return dataclasses.replace(first, judgement=changed, mark=mark)

    monkeypatch.setattr(walk, "judge_point", judged)  # what judge_points calls
    assert not [p for p in _make(planted_record).puzzles if p.source.action == PLANTED_ACTION]


def test_a_decision_that_was_best_makes_no_puzzle(planted_data: dict[str, Any]) -> None:
    # the planted error replaced by the going out itself: no mistake left at that point
    data = dict(planted_data)
    deal = dict(data["deals"][0])
    deal["actions"] = [*deal["actions"][:PLANTED_ACTION], GOING_OUT]
    data["deals"] = [deal]
    puzzles = _make(load_record(data))
    assert not [p for p in puzzles.puzzles if p.source.action == PLANTED_ACTION]


def test_bad_counts_are_refused(planted_record: GameRecord) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        make_puzzles([NamedRecord("planted", planted_record)], samples=0, verify_samples=4)
