"""The ASGI app: the page, a small JSON API, and a WebSocket per seat.

HTTP:
- ``GET /``: the table page; ``/static/...``: its modules, styles and card art.
- ``GET /api/options``: presets, rule options with a line each, computer levels
  (``rummykit.protocol.OptionsAnswer``).
- ``POST /api/rules`` ``{"preset", "rules"}`` (``RulesAsked``): what those rules make, for the
  forms (``RulesInPlay``: the changes, every value after the preset's ties, the table sizes).
- ``POST /api/tables``: a new table ``{"preset", "rules", "opponents", "name", "practice",
  "seed", "turn_timer"}`` (``rummykit.protocol.api.NewTable``); answers ``{"table", "token",
  "seat"}``. The token is the seat: keep it.
- ``GET /api/tables/{id}`` with ``Authorization: Bearer T``: that seat's view (for a page
  coming back).
- ``POST /api/history`` ``{"tokens": [...]}``: the finished games those seat tokens played
  (``rummykit.protocol.api.HistoryRequest``, ``HistoryAnswer``); ``GET /api/history``: every
  finished game, only where the host made the history public (``public_history``).
- ``GET /api/games/{id}/record``: a finished game's record (``rummy-record/1``);
  ``GET /api/games/{id}/frames``: its replay, step by step (``ReplayAnswer``). Each needs a
  seat's token of that game in ``Authorization: Bearer T`` unless the history is public;
  without one it is 404, as for a game that does not exist.

WebSocket ``/ws/{id}``: the protocol of ``rummykit.protocol.messages``; its first message,
``hello``, says whose socket it is (the seat's token, or watching).

A seat's token never travels in an address, where logs and browser history would keep it:
a socket whose address has a query, and ``GET /api/tables/{id}`` with one, are refused with a
sentence saying where the token goes.

Bodies, headers and socket messages are read once, here, into the models of
``rummykit.protocol.api`` and ``rummykit.protocol.messages``. What cannot be read is answered 400
(413 for a body too large) or, on a socket, ``refused`` with ``bad_message``, with a sentence
naming the field; a socket is closed with a ``CloseCode`` and a reason when it cannot play
(no seat, no readable hello, a query in its address, another site's page, too many pages, too
fast or too slow).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Final

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute, request_response
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.core.errors import RulesError
from rummykit.protocol import (
    SEED_REFUSED,
    TOO_MANY_MESSAGES,
    BadRequest,
    BeatBack,
    Bye,
    ClientLimiter,
    ClientMessage,
    Clock,
    CloseCode,
    ErrorAnswer,
    GameRecordAnswer,
    HistoryAnswer,
    HistoryRequest,
    NewTable,
    ProtocolError,
    RulesAsked,
    ShareAnswer,
    TableAnswer,
    TableCreated,
    Viewer,
    intent_number,
    numbered,
    options_answer,
    parse_client_message,
    read_bearer,
    read_body,
    refusal_text,
    refused,
)
from rummykit.server.accounts import ACCOUNT_ROUTES, RATING_ROUTES, AccountGate
from rummykit.server.cluster import BusUnavailable, Cluster, RemoteTable, Sharing
from rummykit.server.http import (
    NO_ONE,
    ConnectionDropped,
    Hearing,
    Heartbeat,
    HostGuard,
    MemoryKeeper,
    OriginGuard,
    Outbox,
    RateGuard,
    beating,
    counted_socket,
    read_request_body,
    receive_hello,
    refused_request,
    seat_identity,
    vouch_for,
)
from rummykit.server.pairing import (
    ARENA_ROUTES,
    INBOX_ROUTES,
    OPEN_TABLE_ROUTES,
    PAIRING_ROUTES,
    Arenas,
    Challenges,
    OpenTablesBoard,
    QuickPairing,
)
from rummykit.server.parties import (
    BOT_ROUTES,
    PARTY_ROUTES,
    Lobby,
    Unseen,
    finished_game,
    stored_ratings,
)
from rummykit.server.puzzles import PUZZLE_ROUTES, PuzzleShelf
from rummykit.server.reviews import REVIEW_ROUTES, Reviews
from rummykit.server.runtime import WorkerPool, going_on
from rummykit.server.site.config import SHARED_SITE_NEEDS_POSTGRESQL, ConfigError, ServerConfig
from rummykit.server.store import Account, Now, Store, StoredGame, handle_outages
from rummykit.server.tables import (
    Send,
    Sleep,
    Table,
    TableError,
    new_seat_token,
    new_table_settings,
    rules_in_play,
)

WEB_DIR = Path(str(resources.files("rummykit").joinpath("web")))


def _lobby(connection: HTTPConnection) -> Lobby:
    lobby: Lobby = connection.app.state.lobby
    return lobby


def _error(message: str, status: int) -> Response:
    return JSONResponse(ErrorAnswer(error=message).model_dump(), status)


NO_SEAT: Final = "No seat at this table for that token."
GZIP_FROM: Final = 1024
"""The page's modules, its styles and the options are sent compressed from this size on."""
TABLE_MOVED: Final = "The table moved to another server process: reconnect."
TOKEN_IN_HELLO: Final = (
    "Send the seat's token in the socket's first message (hello), not in its address."
)
"""Why a socket opened with a query (``?token=T``, as clients before the hello did) is closed
(a close reason fits in 123 bytes)."""
TOKEN_IN_HEADER: Final = (
    "Send the seat's token in the header Authorization: Bearer TOKEN, not in the address."
)
"""Why ``GET /api/tables/{id}`` without that header, or with a query, is answered 400."""
NOT_WATCHABLE: Final = "This table cannot be watched: its host keeps it among the players."
WATCHING: Final = refusal_text("watching", {})

MAX_WATCHERS: Final = 100
"""Spectators of one table at once."""

MAX_CONNECTIONS_PER_SEAT: Final = 8
"""Open pages of one seat at once: a player's tabs and devices. 3,000 sockets on one seat made
every action of every table 250 ms slower."""
TOO_MANY_CONNECTIONS: Final = "This seat is open in too many pages: close one, then reload."
SILENT: Final = "Nothing heard from you for a while: taken as gone. Reconnect."


async def _seat_of(lobby: Lobby, table_id: str, token: str) -> int | None:
    return await asyncio.to_thread(lobby.store.seat_of, table_id, token)


async def index(request: Request) -> Response:
    """The table page."""
    return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})


async def options(request: Request) -> Response:
    """The presets, the rule options and the computer levels, for the settings form."""
    return JSONResponse(options_answer().model_dump(mode="json"))


async def rules(request: Request) -> Response:
    """``POST /api/rules``: what a preset with some options changed makes (``RulesInPlay``)."""
    try:
        asked = read_body(RulesAsked, await read_request_body(request))
        answer = rules_in_play(asked.preset, asked.rules)
    except (BadRequest, RulesError) as error:
        return refused_request(error)
    return JSONResponse(answer.model_dump(mode="json"))


async def create_table(request: Request) -> Response:
    """``POST /api/tables``: a new table, and the seat's token."""
    lobby = _lobby(request)
    await lobby.evict_idle()  # tables come and go: make room as new ones come
    try:
        wanted = read_body(NewTable, await read_request_body(request))
        if wanted.seed is not None and not lobby.accept_seeds:
            raise BadRequest(SEED_REFUSED)
        settings = new_table_settings(wanted)
    except (BadRequest, RulesError) as error:
        return refused_request(error)
    except TableError as error:
        return _error(str(error), 400)
    token, hashed = new_seat_token()
    client = request.client.host if request.client else None  # fair turns in the pool
    table = await lobby.open_table(settings, {0: hashed}, client)
    return JSONResponse(TableCreated(table=table.id, token=token, seat=0).model_dump())


async def table_view(request: Request) -> Response:
    """``GET /api/tables/{id}`` with ``Authorization: Bearer T``: that seat's view.

    It takes no query: a token in the address (``?token=T``) is answered 400, as is no token.
    """
    lobby = _lobby(request)
    try:
        token = read_bearer(request.headers.get("authorization"))
    except BadRequest as error:
        return refused_request(error)
    if token is None or request.url.query:
        return _error(TOKEN_IN_HEADER, 400)
    table_id = request.path_params["table_id"]
    seat = await _seat_of(lobby, table_id, token)
    if seat is None:
        return _error(NO_SEAT, 404)
    vouch_for(request, "bearer", token, seat_identity(table_id, seat))
    table = await lobby.readable(table_id)
    answer = TableAnswer(seat=seat, version=table.version, view=table.view(seat))
    return JSONResponse(answer.model_dump(mode="json"))


SHORT_LINK_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What a table's id may be in a short link (``secrets.token_urlsafe``'s letters)."""

NO_SUCH_LINK: Final = "That is not a game's link: check it with whoever shared it."

HISTORY_NOT_PUBLIC: Final = (
    "This server lists only each player's own games: POST /api/history with your seat tokens."
)


async def _history_answer(
    lobby: Lobby, games: list[StoredGame], unknown: list[str], public: bool
) -> Response:
    if public:  # the player's own games, and the newest of everyone's
        everyone = await asyncio.to_thread(lobby.store.history)
        by_id = {game.id: game for game in [*everyone, *games]}  # yours keep your seat
        games = sorted(by_id.values(), key=lambda game: game.finished, reverse=True)
    answer = HistoryAnswer(
        games=[game.answer() for game in games],
        public=public,
        unknown=unknown,
    )
    return JSONResponse(answer.model_dump(mode="json"))


async def history(request: Request) -> Response:
    """``POST /api/history``: the finished games of the tokens sent, newest first.

    ``GET``: every finished game, where the host made the history public (403 elsewhere).
    """
    lobby = _lobby(request)
    public: bool = request.app.state.public_history
    if request.method == "GET":
        if not public:
            return _error(HISTORY_NOT_PUBLIC, 403)
        return await _history_answer(lobby, [], [], public)
    try:
        wanted = read_body(HistoryRequest, await read_request_body(request))
    except BadRequest as error:
        return refused_request(error)
    games, unknown = await asyncio.to_thread(lobby.store.games_of, wanted.tokens)
    return await _history_answer(lobby, games, unknown, public)


async def short_link(request: Request) -> Response:
    """``GET /g/{table_id}``: a game's short link, to share: the replay viewer.

    The viewer shows the game to whoever may see it (anyone, for a rated game).
    """
    table_id = request.path_params["table_id"]
    if not SHORT_LINK_ID.fullmatch(table_id):
        return _error(NO_SUCH_LINK, 404)
    return RedirectResponse(f"/#/replay/{table_id}", status_code=303)


async def share(request: Request) -> Response:
    """``GET /api/games/{table_id}/share``: whether anyone may open the game's short link."""
    lobby = _lobby(request)
    table_id = request.path_params["table_id"]
    public = await asyncio.to_thread(lobby.store.rated_games.was_rated, table_id)
    if not public and request.app.state.public_history:
        public = await asyncio.to_thread(lobby.store.settings, table_id) is not None
    return JSONResponse(ShareAnswer(public=public).model_dump())


async def record(request: Request) -> Response:
    """A finished game's record, as a download."""
    try:
        table = await finished_game(request)
    except BadRequest as error:
        return refused_request(error)
    if isinstance(table, Unseen):
        return table.response()
    answer = GameRecordAnswer.model_validate(table.record_json())
    return JSONResponse(
        answer.model_dump(mode="json", exclude_unset=True),
        headers={"Content-Disposition": f'attachment; filename="rummy-{table.id}.json"'},
    )


async def frames(request: Request) -> Response:
    """A finished game, position by position, for the replay viewer."""
    try:
        table = await finished_game(request)
    except BadRequest as error:
        return refused_request(error)
    if isinstance(table, Unseen):
        return table.response()
    return Response(await _lobby(request).replay(table), media_type="application/json")


async def _viewer_for_socket(
    websocket: WebSocket,
) -> tuple[Table | RemoteTable, Viewer, int | None, str, bool, bool] | None:
    """The socket's table, viewer (``None``: a spectator), last version seen, client, etc.

    ``log``: whether the hello asked for the current deal's story after the view; ``beat``:
    whether it asked for beats (and will answer them).

    ``None`` when it cannot play: the socket is then closed with the reason.

    The token comes in the socket's first message (``hello``), never in the address: a socket
    opened with a query is closed at once (``BAD_QUERY``, ``TOKEN_IN_HELLO``).
    """
    lobby = _lobby(websocket)
    limiter: ClientLimiter = websocket.app.state.limiter
    table_id = websocket.path_params["table_id"]
    if websocket.url.query:
        await websocket.close(code=CloseCode.BAD_QUERY, reason=TOKEN_IN_HELLO)
        return None
    hello = await receive_hello(websocket, limiter.limits.header_timeout_s, parse_client_message)
    if hello is None:
        return None
    token, watch, last = hello.d.token, hello.d.watch, hello.v
    if token is None and not watch:  # a program's mistake, not a seat gone: 4400
        await websocket.close(code=CloseCode.BAD_QUERY, reason=NO_ONE)
        return None
    client = hello.d.client or ""
    viewer: Viewer
    table: Table | RemoteTable | None
    try:
        if token is not None:
            viewer = await _seat_of(lobby, table_id, token)
            table = None if viewer is None else await lobby.serving(table_id)
            if viewer is not None:  # a program that shows its token when it opens the socket
                vouch_for(websocket, "bearer", token, seat_identity(table_id, viewer))
        elif watch and await asyncio.to_thread(lobby.store.settings, table_id) is not None:
            table, viewer = await lobby.serving(table_id), None
            if not table.settings.spectators:
                await websocket.close(code=CloseCode.NO_SEAT, reason=NOT_WATCHABLE)
                return None
        else:
            table, viewer = None, None
    except TableError:
        table = None
    if table is None:
        await websocket.close(code=CloseCode.NO_SEAT, reason=NO_SEAT)
        return None
    most = MAX_CONNECTIONS_PER_SEAT if viewer is not None else MAX_WATCHERS
    if len(table.listeners.get(viewer, ())) >= most:
        await websocket.close(code=CloseCode.TOO_MANY_PAGES, reason=TOO_MANY_CONNECTIONS)
        return None
    return table, viewer, last, client, hello.d.log, hello.d.beat


async def socket(websocket: WebSocket) -> None:
    """One seat's connection: its views out, its intents in, each read once."""
    try:
        await counted_socket(websocket, _play_socket)
    finally:
        memory: MemoryKeeper = websocket.app.state.memory
        memory.socket_closed()


async def _play_socket(websocket: WebSocket, limiter: ClientLimiter) -> None:
    lobby = _lobby(websocket)
    await lobby.evict_idle()
    found = await _viewer_for_socket(websocket)
    if found is None:
        return
    table, seat, last, client, log, beat = found
    heartbeat: Heartbeat = websocket.app.state.heartbeat
    # a client that beats is gone once silent this long; one that does not is left to the
    # protocol's pings (uvicorn's), and its grace counts from the moment its socket closed
    hearing = Hearing(lobby.now, heartbeat.silent_s if beat else None)

    async def close(code: int, reason: str) -> None:
        await websocket.close(code, reason)

    outbox = Outbox(websocket.send_text, close)  # the table never waits for this reader
    outbox.start()
    send = outbox.send
    bucket = limiter.socket_bucket()
    loop = asyncio.get_running_loop()
    moved = loop.create_task(_close_when_gone(table, close))
    beats: asyncio.Task[None] | None = None
    try:
        try:
            await table.join(seat, send, last, log=log)
        except BusUnavailable:  # the owner cannot be reached from here now: try another way
            await close(CloseCode.MOVED, TABLE_MOVED)
            return
        if beat:
            beats = loop.create_task(beating(send, lambda: table.version, heartbeat))
        while (received := await hearing.receive(websocket)) is not None:
            if bucket is not None and not bucket.take():
                await close(CloseCode.TOO_MANY_MESSAGES, TOO_MANY_MESSAGES)
                break
            text = received.get("text")
            try:
                if text is None:
                    raise ProtocolError("Send messages as text frames of JSON, not binary.")
                message = parse_client_message(text)
            except ProtocolError as error:
                await send(refused(table.version, "bad_message", detail=str(error)))
                continue
            await _dispatch(table, seat, message, send, client)
    except (WebSocketDisconnect, ConnectionDropped, asyncio.CancelledError):
        pass
    finally:
        moved.cancel()
        if beats is not None:
            beats.cancel()
        # a client that beats was last heard then; its seat's grace counts from that moment
        await table.leave(seat, send, hearing.heard if beat else None)
        if hearing.silent:
            with going_on("closing a silent socket"):
                await close(CloseCode.SILENT, SILENT)
        await outbox.stop()


async def _dispatch(
    table: Table | RemoteTable, seat: Viewer, message: ClientMessage, send: Send, client: str
) -> None:
    """Carry out one message read from a socket of ``seat``."""
    if isinstance(message, BeatBack):
        return  # heard: that is all a beat says
    if seat is None:
        await send(numbered(refused(table.version, "watching"), intent_number(message)))
    elif isinstance(message, Bye):  # at once: the socket closes right after it
        table.note_bye(seat)
    else:
        await table.submit(seat, message, send, client)


async def _close_when_gone(
    table: Table | RemoteTable, close: Callable[[int, str], Awaitable[None]]
) -> None:
    """Close the socket once this process no longer serves its table.

    The page reconnects, and reaches the table's new owner through whichever process it
    lands on.
    """
    await table.gone.wait()
    with going_on("closing a socket of a table moved"):
        await close(CloseCode.MOVED, TABLE_MOVED)


def create_app(
    config: ServerConfig,
    *,
    sleep: Sleep = asyncio.sleep,
    clock: Clock = time.monotonic,
    now: Now = time.time,
    workers: WorkerPool | None = None,
    cluster: Cluster | None = None,
) -> Starlette:
    """The site made with ``config``: its store, its tables and parties, its routes.

    What it is made with is ``config``'s (``ServerConfig``, checked when made); what it runs
    on is passed beside it, so that a test can give its own: the computer players wait their
    pace with ``sleep``; ``clock`` times the limits of ``config.limits``; ``now`` is the wall
    clock of the store (when a seat's token has expired) and of the turn timers' deadlines (a
    test passes its clock's time with its ``sleep``). Computer players, hints and replays run
    in ``workers`` (default: a pool of its own, one process per core, stopped with the app; a
    pool passed in is left running). ``cluster``: the other processes serving the same site
    (on one PostgreSQL database and one Redis; see ``rummykit.server.cluster.Cluster``); alone
    by default, and refused without ``config.database_url``.
    """
    if cluster is not None and config.database_url is None:
        raise ConfigError(SHARED_SITE_NEEDS_POSTGRESQL)
    store = Store(config.store_location, now=now, exclusive=True)
    own_workers = workers is None
    pool = WorkerPool() if workers is None else workers
    lobby = Lobby(
        store,
        pool,
        sleep,
        accept_seeds=config.accept_seeds,
        clock=clock,
        now=now,
        idle_table_s=config.idle_table_s,
        cluster=cluster,
    )
    reviews = Reviews(store, pool, config.review_samples)

    async def find_account(name: str) -> Account | None:
        return await asyncio.to_thread(store.accounts.named, name)

    sharing = Sharing.alone() if cluster is None else cluster.sharing()
    board, post = sharing.board, sharing.post
    rating_now = stored_ratings(store, now)
    pairing = QuickPairing(lobby, rating_now, find_account, now, sleep, board, post)
    challenges = Challenges(lobby, find_account, now, sleep, board, post)
    open_tables = OpenTablesBoard(
        rating_now, board, now, sleep, shared=sharing.shared, process=post.process
    )
    lobby.party_changes.append(open_tables.update)
    arenas = Arenas(
        lobby, store, rating_now, now, sleep, board=board, locks=sharing.lock, post=post
    )
    lobby.drop_grace_s = config.drop_grace_s
    lobby.bye_grace_s = config.bye_grace_s

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if cluster is not None:
            cluster.start(lobby.lost)
        collecting = asyncio.get_running_loop().create_task(app.state.memory.collect_periodically())
        arenas.start()
        yield
        collecting.cancel()
        await pairing.close()
        await challenges.stop()
        await arenas.stop()
        await open_tables.close()
        await post.stop()
        await reviews.close()
        await lobby.close()
        store.close()
        if own_workers:
            await asyncio.to_thread(pool.close)

    routes = [
        Route("/", index),
        # compressed: the same bytes for everyone, and no secret among them (a response that
        # holds a token is never compressed, so none can be guessed from its length)
        Route("/api/options", GZipMiddleware(request_response(options), minimum_size=GZIP_FROM)),
        Route("/api/rules", rules, methods=["POST"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_view),
        Route("/api/history", history, methods=["GET", "POST"]),
        Route("/api/games/{table_id}/record", record),
        Route("/api/games/{table_id}/frames", frames),
        Route("/api/games/{table_id}/share", share),
        Route("/g/{table_id}", short_link),
        *PARTY_ROUTES,
        *OPEN_TABLE_ROUTES,
        *PAIRING_ROUTES,
        *INBOX_ROUTES,
        *ARENA_ROUTES,
        *BOT_ROUTES,
        *ACCOUNT_ROUTES,
        *RATING_ROUTES,
        *REVIEW_ROUTES,
        *PUZZLE_ROUTES,
        WebSocketRoute("/ws/{table_id}", socket),
        Mount(
            "/static",
            GZipMiddleware(StaticFiles(directory=WEB_DIR), minimum_size=GZIP_FROM),
            name="static",
        ),
    ]
    limiter = ClientLimiter(config.limits, clock)
    middleware = [
        Middleware(OriginGuard, allowed_origins=config.allowed_origins),
        Middleware(RateGuard, limiter=limiter),
    ]
    if config.allowed_hosts is not None:
        middleware.insert(0, Middleware(HostGuard, allowed_hosts=config.allowed_hosts))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    handle_outages(app)  # the database or Redis out of reach: 503 or a close, never a 500
    app.state.lobby = lobby
    app.state.reviews = reviews
    served = config.puzzle_set()
    if served is not None:
        app.state.puzzles = PuzzleShelf(served)
    app.state.pairing = pairing
    app.state.challenges = challenges
    app.state.arenas = arenas
    app.state.open_tables = open_tables
    app.state.post = post
    app.state.limiter = limiter
    app.state.accounts = AccountGate(clock, config.limits.accounts_per_address)
    app.state.public_history = config.public_history
    app.state.heartbeat = config.heartbeat
    app.state.memory = MemoryKeeper()
    return app
