"""The ASGI app: the page, a small JSON API, and a WebSocket per seat.

HTTP:
- ``GET /``: the table page; ``/static/...``: its modules, styles and card art.
- ``GET /api/options``: presets, rule options with a line each, computer levels.
- ``POST /api/tables``: a new table ``{"preset", "rules", "opponents", "name", "practice"}``;
  answers ``{"table", "token", "seat"}``. The token is the seat: keep it.
- ``GET /api/tables/{id}?token=T``: that seat's view (for a page coming back).
- ``GET /api/history``: finished games; ``GET /api/games/{id}/record``: a finished game's
  record (``rummy-record/1``); ``GET /api/games/{id}/frames``: its replay, step by step.

WebSocket ``/ws/{id}?token=T``: the protocol of ``rummykit.server.protocol``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.core.errors import RulesError
from rummykit.core.rules import PRESETS, json_value, option_specs
from rummykit.server.frames import replay_frames
from rummykit.server.protocol import ProtocolError, parse_client_message, refusal
from rummykit.server.store import Store
from rummykit.server.table import BOT_LEVELS, Table, TableError, new_table_settings

WEB_DIR = Path(str(resources.files("rummykit").joinpath("web")))


class Lobby:
    """The tables this process serves, restored from the store on first use."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}

    def get(self, table_id: str) -> Table:
        """The table of this id, restored from the store if it is not in memory."""
        table = self.tables.get(table_id)
        if table is None:
            table = Table.restore(self.store, table_id)
            self.tables[table_id] = table
        return table

    def add(self, table: Table) -> None:
        """Serve a new table."""
        self.tables[table.id] = table

    async def close(self) -> None:
        """Stop every table's task."""
        for table in self.tables.values():
            await table.stop()


def _options() -> dict[str, Any]:
    # All of it is read from the options' descriptions and the presets in rummykit.core.rules:
    # the page keeps no list of options, labels or limits of its own.
    return {
        "presets": {name: preset.to_json() for name, preset in PRESETS.items()},
        "options": [
            {
                **spec.to_json(),
                "defaults": {
                    name: json_value(getattr(preset.rules, spec.name))
                    for name, preset in PRESETS.items()
                },
            }
            for spec in option_specs()
        ],
        "levels": list(BOT_LEVELS),
    }


def create_app(store_path: Path | str) -> Starlette:
    """The app, keeping its tables in the SQLite database at ``store_path``."""
    store = Store(store_path)
    lobby = Lobby(store)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await lobby.close()
        store.close()

    async def index(request: Request) -> Response:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def options(request: Request) -> Response:
        return JSONResponse(_options())

    async def create_table(request: Request) -> Response:
        try:
            body = await request.json()
        except json.JSONDecodeError:
            return JSONResponse({"error": "Send the table's settings as JSON."}, 400)
        if not isinstance(body, dict):
            return JSONResponse({"error": "Send the table's settings as a JSON object."}, 400)
        try:
            settings = new_table_settings(
                preset=str(body.get("preset", "classic")),
                overrides=body.get("rules") or {},
                name=str(body.get("name", "You")),
                opponents=list(body.get("opponents", ["basic"])),
                practice=bool(body.get("practice", False)),
                seed=body.get("seed") if isinstance(body.get("seed"), int) else None,
            )
            table, token = Table.create(store, settings)
        except (RulesError, TableError, TypeError) as error:
            return JSONResponse({"error": str(error)}, 400)
        lobby.add(table)
        return JSONResponse({"table": table.id, "token": token, "seat": 0})

    def _seat(table_id: str, token: str | None) -> tuple[Table, int] | None:
        if not token:
            return None
        seat = store.seat_of(table_id, token)
        if seat is None:
            return None
        return lobby.get(table_id), seat

    async def table_view(request: Request) -> Response:
        found = _seat(request.path_params["table_id"], request.query_params.get("token"))
        if found is None:
            return JSONResponse({"error": "No seat at this table for that token."}, 404)
        table, seat = found
        return JSONResponse({"seat": seat, "version": table.version, "view": table.view(seat)})

    async def history(request: Request) -> Response:
        return JSONResponse({"games": store.history()})

    def _finished(table_id: str) -> Table | None:
        if store.settings(table_id) is None:
            return None
        table = lobby.get(table_id)
        return table if table.game.game_over else None

    async def record(request: Request) -> Response:
        table = _finished(request.path_params["table_id"])
        if table is None:
            return JSONResponse({"error": "Only a finished game's record can be downloaded."}, 404)
        return JSONResponse(
            table.record_json(),
            headers={"Content-Disposition": f'attachment; filename="rummy-{table.id}.json"'},
        )

    async def frames(request: Request) -> Response:
        table = _finished(request.path_params["table_id"])
        if table is None:
            return JSONResponse({"error": "Only a finished game can be replayed."}, 404)
        return JSONResponse(replay_frames(table.record_json()))

    async def socket(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        try:
            found = _seat(table_id, websocket.query_params.get("token"))
        except TableError:
            found = None
        await websocket.accept()  # accepted first, so the client sees why it is closed
        if found is None:
            await websocket.close(code=4404, reason="No seat at this table for that token.")
            return
        table, seat = found
        send = websocket.send_text
        await table.join(seat, send)
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    message = parse_client_message(text)
                except ProtocolError as error:
                    await send(refusal(table.version, error.code, str(error)))
                    continue
                await table.submit(seat, message, send)
        except (WebSocketDisconnect, asyncio.CancelledError):
            pass
        finally:
            table.leave(seat, send)

    routes = [
        Route("/", index),
        Route("/api/options", options),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_view),
        Route("/api/history", history),
        Route("/api/games/{table_id}/record", record),
        Route("/api/games/{table_id}/frames", frames),
        WebSocketRoute("/ws/{table_id}", socket),
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
