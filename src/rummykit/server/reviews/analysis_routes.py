"""``POST /api/games/{id}/analysis``: the analysis board, a finished game's decision tried again.

The request names a seat's decision (deal, action) and the moves to try; the answer is the
sampled world as that seat sees it after them, and the last move judged as the review judges
(``rummykit.analysis``). The same people may ask as for the game's review. Nothing is kept:
each request plays its whole line again, in the worker pool (never on the event loop), at
most ``MAX_ANALYSES_A_CLIENT`` of one address's and ``MAX_ANALYSES`` in all at once.
"""

from __future__ import annotations

import collections
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from rummykit.analysis import Analysis, AnalysisError, MoveRefused, analyse, step_point
from rummykit.core.observation import Observation
from rummykit.core.record import load_record
from rummykit.protocol import (
    AnalysisAnswer,
    AnalysisJudgement,
    AnalysisMove,
    AnalysisRefusal,
    AnalysisRequest,
    AnalysisView,
    BadRequest,
    ErrorAnswer,
    MeldView,
    read_body,
)
from rummykit.server.http import read_request_body, refused_request
from rummykit.server.parties import Unseen, finished_game
from rummykit.server.reviews.reviews import Reviews
from rummykit.server.runtime import SERVER_CLIENT

MAX_ANALYSES: Final = 8
"""Analyses a process plays at once (a further request is asked to come back): each holds a
worker for a fraction of a second to a few seconds, and the live tables' computer players
share the same workers."""

MAX_ANALYSES_A_CLIENT: Final = 2
"""Analyses one address may have under way at once: a person tries one move at a time, and
a page sends a new request only once the last is answered; two leave room for a second tab."""


class Analyses:
    """The analyses under way, counted by client, to keep within the limits."""

    def __init__(self) -> None:
        """No analysis under way."""
        self.running: collections.Counter[str] = collections.Counter()

    def refusal(self, client: str) -> Response | None:
        """The answer refusing a new analysis of ``client``'s, or ``None`` when it may start."""
        if self.running[client] >= MAX_ANALYSES_A_CLIENT:
            refused = ErrorAnswer.said("own_analyses_busy", count=self.running[client])
            return JSONResponse(refused.model_dump(), 429)
        if self.running.total() >= MAX_ANALYSES:
            return JSONResponse(ErrorAnswer.said("analyses_busy").model_dump(), 503)
        return None


def analyses_of(app: Starlette) -> Analyses:
    """The app's analyses under way (made on first use: one event loop, no race)."""
    found = getattr(app.state, "analyses", None)
    if not isinstance(found, Analyses):
        found = Analyses()
        app.state.analyses = found
    return found


def seat_view(observation: Observation) -> AnalysisView:
    """What the seat sees of the sampled world: its own hand and what lies face up."""
    assert observation.seat is not None
    return AnalysisView(
        seat=observation.seat,
        turn=observation.turn,
        phase=observation.phase,
        hand=tuple(str(card) for card in observation.hand),
        hand_sizes=observation.hand_sizes,
        known=tuple(tuple(str(card) for card in cards) for cards in observation.known_cards),
        melds=tuple(
            MeldView(
                owner=meld.owner,
                kind=meld.kind,
                cards=tuple(meld.text.split()),
                start=meld.start,
                points=points,
            )
            for meld, points in zip(observation.melds, observation.meld_points, strict=True)
        ),
        discard=tuple(str(card) for card in observation.discard_pile),
        stock=observation.stock_count,
        taken=None if observation.taken_top is None else str(observation.taken_top),
        must_play=None if observation.must_play is None else str(observation.must_play),
        legal=tuple(str(action) for action in observation.legal_actions),
        scores=observation.scores,
        result=observation.result,
        deal_winner=observation.deal_winner,
        deal_points=observation.deal_points,
    )


def analysis_answer(wanted: AnalysisRequest, made: Analysis) -> AnalysisAnswer:
    """The answer of an analysis played."""
    judged = made.judgement
    return AnalysisAnswer(
        seat=wanted.seat,
        deal=wanted.deal,
        action=wanted.action,
        moves=tuple(str(action) for action in made.moves),
        line=tuple(
            AnalysisMove(action=str(move.action), taken=tuple(str(card) for card in move.taken))
            for move in made.line
        ),
        view=seat_view(made.view),
        judgement=None
        if judged is None
        else AnalysisJudgement(
            played=str(judged.played),
            best=str(judged.best),
            value=round(judged.value, 2),
            best_value=round(judged.value + judged.loss, 2),
            loss=round(judged.loss, 2),
            loss_ci95=round(judged.loss_ci95, 2),
            samples=judged.samples,
            # the judge says so once it values settled decisions exactly (being added)
            exact=judged.exact,
        ),
    )


def run_analysis(
    record: dict[str, Any], wanted: AnalysisRequest, samples: int
) -> tuple[int, dict[str, Any]]:
    """Play the request's moves from its step (a worker's job): the status and the answer."""
    try:
        point = step_point(load_record(record), wanted.seat, wanted.deal, wanted.action)
        made = analyse(point, list(wanted.moves), samples)
    except AnalysisError as error:
        status = 404 if error.reason == "no_such_step" else 409
        return status, ErrorAnswer.said(error.reason).model_dump()
    except MoveRefused as refused:
        refusal = AnalysisRefusal(
            error=refused.message,
            code=refused.code,
            reason=refused.reason,
            params=refused.params,
            move=refused.index,
        )
        return 409, refusal.model_dump()
    return 200, analysis_answer(wanted, made).model_dump(mode="json")


async def analysis(request: Request) -> Response:
    """``POST``: play the body's moves from its step of the path's finished game."""
    try:
        table = await finished_game(request)
        if isinstance(table, Unseen):
            return table.response()
        wanted = read_body(AnalysisRequest, await read_request_body(request))
    except BadRequest as error:
        return refused_request(error)
    if wanted.seat >= len(table.players):
        return JSONResponse(ErrorAnswer.said("no_such_step").model_dump(), 404)
    client = request.client.host if request.client else SERVER_CLIENT
    analyses = analyses_of(request.app)
    refused = analyses.refusal(client)
    if refused is not None:
        return refused
    reviews: Reviews = request.app.state.reviews
    analyses.running[client] += 1
    try:
        status, body = await reviews.workers.run(
            run_analysis, table.record_json(), wanted, reviews.samples, client=client
        )
    finally:
        analyses.running[client] -= 1
        if not analyses.running[client]:
            del analyses.running[client]
    return JSONResponse(body, status)


ANALYSIS_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/games/{table_id}/analysis", analysis, methods=["POST"]),
]
