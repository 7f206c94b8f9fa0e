"""Who may see a finished game: the record, its replay and its review share one check."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Literal

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from rummykit.protocol import ErrorAnswer, read_bearer
from rummykit.server.http import seat_identity, vouch_for
from rummykit.server.parties.lobby import Lobby
from rummykit.server.tables import Table


@dataclasses.dataclass(frozen=True, slots=True)
class Unseen:
    """Why a finished game's record, replay or review is not given."""

    reason: Literal["game_unseen", "game_not_over"]
    """``game_unseen`` (404): no such game for this request, whether it exists or not;
    ``game_not_over`` (409): a game the request may see, still going on."""

    def response(self) -> Response:
        """The answer: the reason, its sentence, and its status."""
        status = 409 if self.reason == "game_not_over" else 404
        return JSONResponse(ErrorAnswer.said(self.reason).model_dump(), status)


async def finished_game(request: Request) -> Table | Unseen:
    """The finished game of the request's path (``{table_id}``), if the request may see it.

    It may with a seat's token of that game (``Authorization: Bearer T``), or with none where
    the history is public or the game was rated (rated games are listed on the player pages,
    for all to replay). The token is checked before an unrated game is looked for, so an
    answer never tells a stranger whether its id exists; one who may see the game is told
    when it is not over yet. ``BadRequest`` for a header that is not a bearer token.
    """
    lobby: Lobby = request.app.state.lobby
    table_id = request.path_params["table_id"]
    token = read_bearer(request.headers.get("authorization"))
    seat = None if token is None else await asyncio.to_thread(lobby.store.seat_of, table_id, token)
    if token is not None and seat is not None:
        vouch_for(request, "bearer", token, seat_identity(table_id, seat))
    elif not request.app.state.public_history and not await asyncio.to_thread(
        lobby.store.rated_games.was_rated, table_id
    ):
        return Unseen("game_unseen")
    if await asyncio.to_thread(lobby.store.settings, table_id) is None:
        return Unseen("game_unseen")
    table = await lobby.readable(table_id)
    return table if table.game.game_over else Unseen("game_not_over")
