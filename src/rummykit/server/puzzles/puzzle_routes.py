"""``/api/puzzles/...``: a puzzle to solve, the day's, the themes, and an answer judged.

- ``GET /api/puzzles/next?theme=T``: a puzzle (of theme ``T``, or any), shown without what
  would give it away. A signed-in player gets one near their puzzle rating that they have
  not answered within ``RECENT_DAYS``; a guest, any.
- ``GET /api/puzzles/daily``: the puzzle of the day (UTC, by the app's wall clock ``now``),
  the same for everyone.
- ``GET /api/puzzles/themes``: the themes that have puzzles, with their counts (the page
  names them from its catalogues).
- ``POST /api/puzzles/{id}/answer`` ``{"action"}``: right or wrong, the solutions, the move
  played in the game and the choices weighed; for a signed-in player, the ratings moved by
  their first answer to that puzzle (a later one is judged but not rated). An action the
  position does not allow is refused 409 with the engine's code, reason and sentence.

The store is read and written in threads, never on the event loop; so is the engine's check.
"""

from __future__ import annotations

import asyncio
import datetime
import random
import re
from typing import Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from rummykit.core.errors import IllegalActionError, InvalidActionError
from rummykit.protocol import (
    ACCOUNT_NAME,
    BadRequest,
    ErrorAnswer,
    PlayerPuzzles,
    PuzzleAnswerAsked,
    PuzzleRatingChange,
    PuzzleRefusal,
    PuzzleShown,
    PuzzleThemes,
    PuzzleVerdict,
    ThemeCount,
    read_body,
)
from rummykit.puzzles.model import Puzzle, Theme
from rummykit.ratings import Rating, display_value, is_settled
from rummykit.server.accounts import session_account
from rummykit.server.http import read_request_body, refused_request
from rummykit.server.puzzles.puzzle_ratings import PuzzleRatings
from rummykit.server.puzzles.rating import puzzle_start, rate_answer
from rummykit.server.puzzles.shelf import PuzzleShelf, checked_action, is_solution
from rummykit.server.store import DAY_S, Store

RECENT_DAYS: Final = 30
"""A signed-in player is not given a puzzle they answered within this many days while the
theme has others: long enough that the answer is forgotten, short enough that a small set
comes round again."""

PUZZLE_ID: Final = re.compile(r"[0-9a-f]{12}")
NO_SUCH_PUZZLE: Final = "No puzzle has that id."
NO_PUZZLES: Final = "No puzzles of that theme here."
BAD_THEME: Final = f"theme: say one of {', '.join(Theme)}, or leave it out."
UNKNOWN_QUERY: Final = "Unknown query parameter {name}: this address takes {allowed}."
NO_PLAYER: Final = "No player has that name."

_rng = random.SystemRandom()
"""Which of the near puzzles comes next: unpredictable, nothing to replay."""


def shelf_of(app: Starlette) -> PuzzleShelf:
    """The app's puzzles: the starter set unless a shelf was put in ``app.state.puzzles``.

    Read on first use (one event loop, no race): an app that never serves a puzzle never
    reads the set.
    """
    found = getattr(app.state, "puzzles", None)
    if not isinstance(found, PuzzleShelf):
        found = PuzzleShelf.starter()
        app.state.puzzles = found
    return found


def ratings_of(app: Starlette) -> PuzzleRatings:
    """The app's puzzle ratings, over its store's database (made on first use)."""
    found = getattr(app.state, "puzzle_ratings", None)
    if not isinstance(found, PuzzleRatings):
        store: Store = app.state.lobby.store
        found = PuzzleRatings(store.database, store.now)
        app.state.puzzle_ratings = found
    return found


def _error(message: str, status: int) -> Response:
    return JSONResponse(ErrorAnswer(error=message).model_dump(), status)


def _query_problem(request: Request, allowed: tuple[str, ...]) -> str | None:
    for name in request.query_params:
        if name not in allowed:
            return UNKNOWN_QUERY.format(name=name, allowed=", ".join(allowed) or "none")
    return None


async def _shown(request: Request, puzzle: Puzzle, date: str | None = None) -> Response:
    rated = await asyncio.to_thread(ratings_of(request.app).ratings)
    shown = PuzzleShown(
        id=puzzle.id,
        theme=puzzle.theme,
        seat=puzzle.seat,
        view=puzzle.view,
        rating=display_value(rated.get(puzzle.id) or puzzle_start(puzzle)),
        date=date,
    )
    return JSONResponse(shown.model_dump(mode="json"))


async def next_puzzle(request: Request) -> Response:
    """``GET /api/puzzles/next``: a puzzle for this player, of the theme asked (or any)."""
    problem = _query_problem(request, ("theme",))
    if problem:
        return _error(problem, 400)
    wanted = request.query_params.get("theme")
    try:
        theme = None if wanted is None else Theme(wanted)
    except ValueError:
        return _error(BAD_THEME, 400)
    shelf = shelf_of(request.app)
    account = await session_account(request)
    if account is None:
        puzzle = shelf.pick(theme, _rng)
    else:
        puzzles = ratings_of(request.app)
        since = request.app.state.lobby.now() - RECENT_DAYS * DAY_S
        player = await asyncio.to_thread(puzzles.player, account.id)
        rated = await asyncio.to_thread(puzzles.ratings)
        answered = await asyncio.to_thread(puzzles.answered_since, account.id, since)
        puzzle = shelf.pick(theme, _rng, player or Rating(), rated, answered)
    if puzzle is None:
        return _error(NO_PUZZLES, 404)
    return await _shown(request, puzzle)


async def daily_puzzle(request: Request) -> Response:
    """``GET /api/puzzles/daily``: the puzzle of today's UTC date."""
    problem = _query_problem(request, ())
    if problem:
        return _error(problem, 400)
    now: float = request.app.state.lobby.now()
    date = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    puzzle = shelf_of(request.app).daily(date)
    if puzzle is None:
        return _error(NO_PUZZLES, 404)
    return await _shown(request, puzzle, date.isoformat())


async def themes(request: Request) -> Response:
    """``GET /api/puzzles/themes``: the themes with puzzles, and how many each has."""
    problem = _query_problem(request, ())
    if problem:
        return _error(problem, 400)
    counts = shelf_of(request.app).theme_counts()
    answer = PuzzleThemes(
        themes=[ThemeCount(theme=theme, count=count) for theme, count in counts.items()]
    )
    return JSONResponse(answer.model_dump(mode="json"))


async def answer(request: Request) -> Response:
    """``POST /api/puzzles/{id}/answer``: the action judged, and the ratings moved."""
    puzzle_id = request.path_params["puzzle_id"]
    puzzle = shelf_of(request.app).by_id.get(puzzle_id) if PUZZLE_ID.fullmatch(puzzle_id) else None
    if puzzle is None:
        return _error(NO_SUCH_PUZZLE, 404)
    try:
        asked = read_body(PuzzleAnswerAsked, await read_request_body(request))
    except BadRequest as error:
        return refused_request(error)
    try:
        action = await asyncio.to_thread(checked_action, puzzle, asked.action)
    except (IllegalActionError, InvalidActionError) as error:
        refusal = PuzzleRefusal(
            error=error.message, code=str(error.code), reason=error.reason, params=error.params
        )
        return JSONResponse(refusal.model_dump(), 409)
    correct = is_solution(puzzle, action)
    change = None
    account = await session_account(request)
    if account is not None:
        answered = await asyncio.to_thread(
            ratings_of(request.app).answer,
            account.id,
            puzzle.id,
            puzzle_start(puzzle),
            correct,
            rate_answer,
        )
        change = PuzzleRatingChange(
            counted=answered.counted,
            before=display_value(answered.player_before),
            after=display_value(answered.player_after),
            provisional=not is_settled(answered.player_after),
            puzzle_before=display_value(answered.puzzle_before),
            puzzle_after=display_value(answered.puzzle_after),
        )
    verdict = PuzzleVerdict(
        id=puzzle.id,
        action=str(action),
        correct=correct,
        solutions=puzzle.solutions,
        played=puzzle.played,
        options=puzzle.options,
        loss=puzzle.loss,
        exact=puzzle.exact,
        rating=change,
    )
    return JSONResponse(verdict.model_dump(mode="json"))


async def player_puzzles(request: Request) -> Response:
    """``GET /api/players/{name}/puzzles``: the account's puzzle rating and puzzles answered.

    404 for no such account; 400 for any query.
    """
    problem = _query_problem(request, ())
    if problem:
        return _error(problem, 400)
    name = request.path_params["name"]
    if not ACCOUNT_NAME.fullmatch(name):
        return _error(NO_PLAYER, 404)
    store: Store = request.app.state.lobby.store
    account = await asyncio.to_thread(store.accounts.named, name)
    if account is None:
        return _error(NO_PLAYER, 404)
    puzzles = ratings_of(request.app)
    rating = await asyncio.to_thread(puzzles.player, account.id)
    answered = await asyncio.to_thread(puzzles.answered_since, account.id, 0.0)
    figures = PlayerPuzzles(
        name=account.name,
        rating=None if rating is None else display_value(rating),
        provisional=rating is None or not is_settled(rating),
        answered=len(answered),
    )
    return JSONResponse(figures.model_dump(mode="json"))


PUZZLE_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/players/{name}/puzzles", player_puzzles),
    Route("/api/puzzles/next", next_puzzle),
    Route("/api/puzzles/daily", daily_puzzle),
    Route("/api/puzzles/themes", themes),
    Route("/api/puzzles/{puzzle_id}/answer", answer, methods=["POST"]),
]
