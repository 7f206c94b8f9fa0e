"""The starter set shipped in the package: it loads, and every puzzle in it is sound."""

from __future__ import annotations

from collections import Counter

import pytest

from rummykit.protocol.views import observation_of
from rummykit.puzzles.model import Puzzle, Theme, puzzle_id, starter_puzzles

STARTER = starter_puzzles().puzzles


def test_the_starter_set_has_enough_puzzles_of_the_main_themes() -> None:
    themes = Counter(puzzle.theme for puzzle in STARTER)
    assert len(STARTER) >= 30
    assert {Theme.GO_OUT, Theme.DISCARD, Theme.DRAW} <= set(themes)


def test_the_starter_puzzles_ids_are_unique() -> None:
    assert len({puzzle.id for puzzle in STARTER}) == len(STARTER)


@pytest.mark.parametrize("puzzle", STARTER, ids=lambda puzzle: puzzle.id)
def test_a_starter_puzzle_is_solved_by_legal_actions_of_its_view(puzzle: Puzzle) -> None:
    observation = observation_of(puzzle.view)
    legal = {str(action) for action in observation.legal_actions}
    assert observation.seat == puzzle.seat == puzzle.source.seat
    assert set(puzzle.solutions) <= legal
    assert puzzle.played in legal and puzzle.played not in puzzle.solutions
    assert puzzle.id == puzzle_id(puzzle.view, puzzle.solutions)
    assert puzzle.loss >= 5
    assert puzzle.view.deal_result is None  # the deal is under way: no hand is shown
    assert {option.action for option in puzzle.options} >= {*puzzle.solutions, puzzle.played}


@pytest.mark.parametrize("puzzle", starter_puzzles().puzzles, ids=lambda puzzle: puzzle.id)
def test_a_starter_puzzle_was_checked_against_every_legal_choice(puzzle: Puzzle) -> None:
    legal = {f"{puzzle.seat} {text}" for text in puzzle.view.legal}
    assert {option.action for option in puzzle.options} == legal
