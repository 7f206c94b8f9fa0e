"""``/api/games/{id}/review/{seat}``: ask for a finished game's review, and follow it.

``POST`` starts the review of a seat (if it is not made or under way) and ``GET`` tells where
it stands; both answer a ``ReviewAnswer``. Whoever may download the game's record may ask for
the review of any of its seats: the record shows every card already, and each review judges
a seat only from what that seat could see. One address may have at most
``MAX_REVIEWS_A_CLIENT`` reviews under way: its fair share of the slots. The analysis board's
route (``analysis_routes``) comes with them.
"""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from rummykit.protocol import BadRequest, ErrorAnswer, ReviewAnswer, SeatReview
from rummykit.server.http import refused_request
from rummykit.server.parties import Unseen, finished_game
from rummykit.server.reviews.analysis_routes import ANALYSIS_ROUTES
from rummykit.server.reviews.reviews import OwnReviewsBusy, Reviews, ReviewsBusy
from rummykit.server.runtime import SERVER_CLIENT


def _error(message: str, status: int) -> Response:
    return JSONResponse(ErrorAnswer(error=message).model_dump(), status)


async def review(request: Request) -> Response:
    """``GET``: where the review of the path's seat stands; ``POST``: start it, then the same."""
    try:
        table = await finished_game(request)
    except BadRequest as error:
        return refused_request(error)
    if isinstance(table, Unseen):
        return table.response()
    try:
        seat = int(request.path_params["seat"])
    except ValueError:
        seat = -1
    if not 0 <= seat < len(table.players):
        return _error(f"seat: this game's seats are 0 to {len(table.players) - 1}.", 404)
    reviews: Reviews = request.app.state.reviews
    if request.method == "POST":
        try:
            reviews.forget_failure(table.id, seat)
            client = request.client.host if request.client else SERVER_CLIENT
            await reviews.start(table.id, seat, table.record_json(), client)
        except ReviewsBusy as busy:  # the client's own share: 429, as any limit of theirs
            refusal = ErrorAnswer.said(busy.reason, **busy.params)
            status = 429 if isinstance(busy, OwnReviewsBusy) else 503
            return JSONResponse(refusal.model_dump(), status)
    state, job, made = await reviews.status(table.id, seat)
    if state == "failed":
        reviews.forget_failure(table.id, seat)
    answer = ReviewAnswer(
        state=state,
        done=job.done if job else (made["summary"]["decisions"] if made else 0),
        total=job.total if job else (made["summary"]["decisions"] if made else None),
        review=None if made is None else SeatReview.model_validate(made),
        error=job.error if job else None,
        reason=job.reason if job else "",
        params=job.params if job else {},
    )
    return JSONResponse(answer.model_dump(), 202 if state == "running" else 200)


REVIEW_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/games/{table_id}/review/{seat}", review, methods=["GET", "POST"]),
    *ANALYSIS_ROUTES,
]
