"""Who may see a finished game: the record, its replay and its review share one check."""

from __future__ import annotations

import asyncio

from starlette.requests import Request

from rummykit.protocol import read_bearer
from rummykit.server.parties.lobby import Lobby
from rummykit.server.tables import Table


async def finished_game(request: Request) -> Table | None:
    """The finished game of the request's path (``{table_id}``), if the request may see it.

    It may with a seat's token of that game (``Authorization: Bearer T``), or with none where
    the history is public or the game was rated (rated games are listed on the player pages,
    for all to replay). The token is checked before an unrated game is looked for, so an
    answer never tells whether its id exists; ``BadRequest`` for a header that is not a
    bearer token.
    """
    lobby: Lobby = request.app.state.lobby
    table_id = request.path_params["table_id"]
    token = read_bearer(request.headers.get("authorization"))
    if (
        not request.app.state.public_history
        and (token is None or await asyncio.to_thread(lobby.store.seat_of, table_id, token) is None)
        and not await asyncio.to_thread(lobby.store.rated_games.was_rated, table_id)
    ):
        return None
    if await asyncio.to_thread(lobby.store.settings, table_id) is None:
        return None
    table = await lobby.readable(table_id)
    return table if table.game.game_over else None
