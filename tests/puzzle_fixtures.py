"""Puzzles made by hand from a known record, for the tests of the site's puzzles.

Each is a real position of deal 1 of ``tests/records/review_mistakes.json`` as the seat to
play saw it, with a solution and a "played" move picked among its legal actions: the site
only checks answers against them, so they need not be the judge's.
"""

from __future__ import annotations

import json
from pathlib import Path

from rummykit.core.actions import parse_action
from rummykit.core.observation import observe
from rummykit.core.record import load_record
from rummykit.core.state import GameState
from rummykit.protocol.settings import HumanPlayer
from rummykit.protocol.views import seat_view
from rummykit.puzzles.model import (
    Puzzle,
    PuzzleOption,
    PuzzleSet,
    PuzzleSource,
    Theme,
    initial_rating,
    puzzle_id,
)

RECORD = Path(__file__).parent / "records" / "review_mistakes.json"
GO_OUT_ACTION = 32
"""Where seat 0 could go out with ``0 meld 6c 6h 6s`` and threw the 6h instead."""
GO_OUT = "0 meld 6c 6h 6s"
THREW = "0 discard 6h"


def game_at(action: int) -> GameState:
    """Deal 1 of the record, played up to (not including) ``action``."""
    record = load_record(json.loads(RECORD.read_text("utf-8")))
    deal = record.deals[1]
    game = GameState(record.rules, len(record.players), deal.dealer)
    game.start_deal(deal.deck, reshuffles=deal.reshuffles, seed=deal.seed)
    for text in deal.actions[:action]:
        game.apply(parse_action(text))
    return game


def puzzle_at(
    action: int, theme: Theme, solution: str | None = None, played: str | None = None
) -> Puzzle:
    """The puzzle at ``action``: solved by ``solution`` (else the first legal action)."""
    game = game_at(action)
    seat = game.turn
    players = (HumanPlayer(kind="human", name="Player 1"), HumanPlayer(kind="human", name="P2"))
    view = seat_view(
        game, seat, players, table_id="puzzle", preset="classic", practice=False, pace_ms=0
    )
    legal = [str(found) for found in observe(game, seat).legal_actions]
    best = solution or legal[0]
    chosen = played or legal[-1]
    assert best in legal and chosen in legal and best != chosen
    return Puzzle(
        id=puzzle_id(view, [best]),
        theme=theme,
        view=view,
        seat=seat,
        solutions=[best],
        played=chosen,
        options=[
            PuzzleOption(action=chosen, gain=0.0, ci95=0.0),
            PuzzleOption(action=best, gain=8.0, ci95=1.5),
        ],
        loss=8.0,
        exact=False,
        rating=initial_rating(8.0, theme),
        source=PuzzleSource(record="review_mistakes", deal=1, action=action, seat=seat),
    )


def draw_phase_actions(limit: int = GO_OUT_ACTION) -> list[int]:
    """The actions before ``limit`` where the seat to play must draw."""
    return [index for index in range(limit) if game_at(index).deal.phase.value == "draw"]


def small_set() -> PuzzleSet:
    """Five puzzles: the missed way out, two draws and two discards."""
    draws = draw_phase_actions()
    plays = [index + 1 for index in draws]
    puzzles = [
        puzzle_at(GO_OUT_ACTION, Theme.GO_OUT, GO_OUT, THREW),
        puzzle_at(draws[0], Theme.DRAW),
        puzzle_at(draws[1], Theme.DRAW),
        puzzle_at(plays[2], Theme.DISCARD),
        puzzle_at(plays[3], Theme.DISCARD),
    ]
    return PuzzleSet(format="rummykit-puzzles/1", puzzles=puzzles)
