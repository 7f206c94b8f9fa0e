"""Helpers for the server tests: a seat's socket, a simple player, and the truth of a game.

``SeatSocket`` wraps a Starlette ``TestClient`` WebSocket: it parses and keeps every frame
the seat receives, tracks the table version, and waits for frames matching a condition;
``seat_connection`` opens one, sending the token in the socket's first message (``hello``),
as ``LiveServer.seat_socket`` does on a real server (never in the address).
``simple_choice`` is the human seat's policy in whole games: take the first draw listed, meld
the first meld listed, else lay off the first lay-off, else knock (knock rummy), else discard
the last discard listed.
``truth_by_version`` replays a table's stored deals and gives the whole position (every hand,
the stock) at each table version, for checking what a seat was sent. ``ManualClock`` is the
tables' sleep in tests: the computer's pace passes only when the test says so.

The hidden-card audit (``audit_frame``, ``audit_sockets``, ``check_observation``,
``play_audited_game``) checks what each socket and each computer player was shown against
that truth; ``tests/server/test_hidden_card_audit.py`` and ``benchmarks/audit.py`` run it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import json
import random
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection, connect

from rummykit.core.cards import JOKER, Card
from rummykit.core.observation import HISTORY_FIELDS, Observation, observe
from rummykit.core.presets import PRESETS
from rummykit.core.record import load_record, replay
from rummykit.core.rules import MAX_SEATS_ONE_DECK
from rummykit.core.state import GameState, Phase
from rummykit.protocol.api import NewTable
from rummykit.protocol.facts import BotLevel
from rummykit.protocol.limits import Limits
from rummykit.protocol.messages import SERVER_MESSAGES
from rummykit.review.walk import DEFAULT_SAMPLES
from rummykit.server.cluster.site import Cluster
from rummykit.server.http.heartbeat import Heartbeat
from rummykit.server.runtime.workers import SERVER_CLIENT, WorkerPool
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.site.run import uvicorn_config
from rummykit.server.store.store import Store
from rummykit.server.tables.table import Sleep, deal_new_table, new_table_settings

Frame = dict[str, Any]

WORKERS = WorkerPool()
"""One pool of worker processes for the computer players of every test's tables: a pool of
their own would start fresh processes for each test."""

MAX_FRAMES = 20_000
"""A runaway loop fails instead of hanging."""


PoolCall = Callable[[Callable[..., Any], tuple[object, ...]], None]
"""Told of each function given to a worker pool, with its arguments."""


def _watched_run(seen: PoolCall) -> Callable[..., Any]:
    """``WorkerPool.run`` as it is now, telling ``seen`` of each call first."""
    run = WorkerPool.run

    async def watched(
        pool: WorkerPool, function: Callable[..., Any], *args: object, client: str = SERVER_CLIENT
    ) -> Any:
        seen(function, args)
        return await run(pool, function, *args, client=client)

    return watched


def pool_work(monkeypatch: Any) -> list[str]:
    """The names of the functions any worker pool is given from now on, in order
    (``monkeypatch``: pytest's fixture)."""
    given: list[str] = []
    monkeypatch.setattr(
        WorkerPool, "run", _watched_run(lambda function, args: given.append(function.__name__))
    )
    return given


@contextlib.contextmanager
def pool_observations() -> Iterator[list[Observation]]:
    """Every observation handed to any worker pool while the block runs (what a computer
    player or a hint is given to decide on); the server may run in another thread."""
    sent: list[Observation] = []
    before = WorkerPool.run

    def seen(function: Callable[..., Any], args: tuple[object, ...]) -> None:
        sent.extend(arg for arg in args if isinstance(arg, Observation))

    setattr(WorkerPool, "run", _watched_run(seen))  # noqa: B010 - mypy forbids assigning a method
    try:
        yield sent
    finally:
        setattr(WorkerPool, "run", before)  # noqa: B010


class ManualClock:
    """A table's ``sleep`` whose time stands still until the test calls ``advance``.

    ``sleep(0)`` (pace 0) returns at once, so the computer plays freely at pace 0; any longer
    sleep (the computer's pace, a failing bot's pause) ends only when the test has advanced
    the clock that far. Safe to advance from the test's thread while the app runs in another.
    """

    def __init__(self) -> None:
        self.now = 0.0
        self._lock = threading.Condition()
        self._sleepers: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has been advanced by ``seconds`` (not at all for 0)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()
        with self._lock:
            entry = (self.now + seconds, loop, woken)
            self._sleepers.append(entry)
            self._lock.notify_all()
        try:
            await woken
        finally:
            with self._lock:
                self._sleepers.remove(entry)

    def time(self) -> float:
        """The wall clock that goes with this sleep (``ServerConfig(now=clock.time)``): the
        seconds advanced so far, so a turn timer's deadline passes when the test says."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Move time on: every sleep due by then ends."""
        with self._lock:
            self.now += seconds
            due = [(loop, woken) for until, loop, woken in self._sleepers if until <= self.now]
        for loop, woken in due:
            loop.call_soon_threadsafe(_wake, woken)

    def sleeping(self) -> bool:
        """Whether something waits on the clock now (the computer waiting its pace)."""
        with self._lock:
            return any(not woken.done() for _, _, woken in self._sleepers)

    def advance_once_asleep(self, seconds: float, count: int) -> None:
        """Wait until ``count`` sleeps end within ``seconds`` (each process's round, asleep
        again after its last), then ``advance``: a longer sleep (a turn timer) is not one."""
        with self._lock:

            def due() -> int:
                limit = self.now + seconds
                asleep = [until for until, _, woken in self._sleepers if not woken.done()]
                return sum(until <= limit for until in asleep)

            if not self._lock.wait_for(lambda: due() >= count, timeout=STUCK_S):
                raise AssertionError(f"{count} sleeps of {seconds} s never came")
        self.advance(seconds)

    def advance_once_sleeping(self, seconds: float) -> None:
        """Wait until something sleeps on the clock (the computer waiting its pace), then
        ``advance``; a test that advances too early would leave that sleep waiting."""
        with self._lock:
            # a sleep cancelled by an intent (its future cancelled at once, in the app's
            # thread) may linger in the list a moment: it is no one waiting
            def waiting() -> bool:
                return any(not woken.done() for _, _, woken in self._sleepers)

            if not self._lock.wait_for(waiting, timeout=STUCK_S):
                raise AssertionError("nothing came to wait on the clock")
        self.advance(seconds)


STUCK_S = 20
"""How long a test waits for the server before calling it stuck (a safety net, never a
condition of passing)."""

STOP_S = 60
"""The longest a test's server may take to stop: it lets its sockets close and its table
tasks end first. Mostly under a second; 15 s was once just too little in CI's pure-engine
browser run, on a machine a second test run also kept busy."""


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)


@contextlib.contextmanager
def running(store_path: Path | str) -> Iterator[Any]:
    """An app on ``store_path`` (seeds taken, no limits, the shared workers) in a Starlette
    ``TestClient`` for the span of a ``with``: leaving it stops the server."""
    from starlette.testclient import TestClient

    app = create_app(
        ServerConfig(store_path=store_path, accept_seeds=True, limits=Limits.unlimited()),
        sleep=ManualClock().sleep,
        workers=WORKERS,
    )
    with TestClient(app) as client:
        yield client


@contextlib.contextmanager
def limited_client(store_path: Path | str, clock: ManualClock, limits: Limits) -> Iterator[Any]:
    """A ``TestClient`` of an app with ``limits``, whose buckets run on ``clock``."""
    from starlette.testclient import TestClient

    app = create_app(
        ServerConfig(store_path=store_path, limits=limits),
        sleep=clock.sleep,
        clock=lambda: clock.now,
    )
    with TestClient(app) as client:
        yield client


def clocked_app(
    store_path: Path | str,
    clock: ManualClock,
    heartbeat: Heartbeat = Heartbeat(),  # noqa: B008 - a frozen value
) -> Any:
    """An app on ``store_path`` whose pace, timers, graces and wall all run on ``clock``
    (seeds taken, no limits, the shared workers); ``heartbeat``'s silences run in real time."""
    return create_app(
        ServerConfig(
            store_path=store_path, accept_seeds=True, limits=Limits.unlimited(), heartbeat=heartbeat
        ),
        sleep=clock.sleep,
        now=clock.time,
        clock=clock.time,
        workers=WORKERS,
    )


def create_table(client: Any, **body: Any) -> tuple[str, str]:
    """POST /api/tables; the table id and the seat token."""
    body.setdefault("preset", "classic")
    body.setdefault("opponents", ["basic"])
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["seat"] == 0
    return answer["table"], answer["token"]


class SeatSocket:
    """One seat's connection: every frame parsed and kept, with the version it carried."""

    def __init__(self, websocket: Any) -> None:
        self.ws = websocket
        self.frames: list[Frame] = []
        self.version: int = 0  # as the browser starts
        self.view: dict[str, Any] = {}

    def recv(self) -> Frame:
        """The next frame (blocks until one comes)."""
        text = self.ws.receive_text()
        SERVER_MESSAGES.validate_json(text)  # every frame is one of the protocol's messages
        frame: dict[str, Any] = json.loads(text)
        keys = {"applied": {"t", "v", "n"}, "refused": {"t", "v", "d"} | ({"n"} & set(frame))}
        assert set(frame) == keys.get(frame["t"], {"t", "v", "d"}), frame
        self.frames.append(frame)
        self.version = frame["v"]
        if frame["t"] == "view":
            self.view = frame["d"]
        assert len(self.frames) < MAX_FRAMES, "too many frames: a runaway game"
        return frame

    def until(self, condition: Callable[[Frame], bool]) -> Frame:
        """Receive frames until one satisfies ``condition``; that frame."""
        while True:
            frame = self.recv()
            if condition(frame):
                return frame

    def send(
        self,
        kind: str,
        data: dict[str, Any] | None = None,
        version: int | None = None,
        n: int | None = None,
    ) -> None:
        """Send an envelope against ``version`` (default: the last version seen), numbered
        ``n`` if given."""
        message: dict[str, Any] = {"t": kind, "v": self.version if version is None else version}
        if n is not None:
            message["n"] = n
        message["d"] = data or {}
        self.ws.send_text(json.dumps(message))

    def send_raw(self, text: str) -> None:
        """Send any text."""
        self.ws.send_text(text)

    def refused(self) -> Frame:
        """Wait for the next refusal."""
        return self.until(lambda frame: frame["t"] == "refused")

    def set_pace(self, ms: int) -> Frame:
        """Set the computer's pace; wait for the view that answers it."""
        self.send("pace", {"ms": ms})
        frame = self.until(
            lambda frame: (
                frame["t"] == "refused" or (frame["t"] == "view" and frame["d"]["pace_ms"] == ms)
            )
        )
        assert frame["t"] == "view", f"the pace was refused: {frame['d']}"
        return frame

    def my_turn_view(self) -> Frame:
        """Wait for a view in which this seat is to act (or the deal is over)."""
        return self.until(
            lambda frame: (
                frame["t"] == "view" and (frame["d"]["phase"] == "over" or is_my_turn(frame["d"]))
            )
        )

    def act(self, action: str) -> Frame:
        """Send an action; wait for the view that shows it applied (refusals fail)."""
        before = self.version
        self.send("act", {"action": action})
        frame = self.until(
            lambda frame: frame["t"] == "refused" or (frame["t"] == "view" and frame["v"] > before)
        )
        assert frame["t"] == "view", f"{action!r} was refused: {frame['d']}"
        return frame


def sent_until_applied(seat: SeatSocket, action: str, tries: int = 10) -> Frame:
    """Send ``action`` again after each ``try_again`` (as a player does after an outage) until
    a view shows it applied; that view. Any other refusal fails."""
    before = seat.version
    for _ in range(tries):
        seat.send("act", {"action": action})
        frame = seat.until(
            lambda frame: frame["t"] == "refused" or (frame["t"] == "view" and frame["v"] > before)
        )
        if frame["t"] == "view":
            return frame
        assert frame["d"]["code"] == "try_again", f"{action!r} was refused: {frame['d']}"
    raise AssertionError(f"{action!r} was still refused with try_again after {tries} tries")


BASIC: BotLevel = "basic"
"""The computer level the helpers seat by default."""


def is_my_turn(view: dict[str, Any]) -> bool:
    """Whether the view's seat is to act."""
    return bool(view["turn"] == view["seat"] and view["phase"] != "over")


def simple_choice(legal: list[str]) -> str:
    """The test player: first draw, else first meld, else first lay-off, else first knock
    (knock rummy: so that a table of test players ends its deals), else last discard."""
    for verb in ("draw", "meld", "layoff", "knock"):
        chosen = [action for action in legal if action.split()[0] == verb]
        if chosen:
            return chosen[0]
    discards = [action for action in legal if action.split()[0] == "discard"]
    assert discards, legal
    return discards[-1]


def play_until(
    seat: SeatSocket,
    stop: Callable[[dict[str, Any]], bool],
    *,
    next_deals: bool = True,
    choose: Callable[[list[str]], str] = simple_choice,
    on_view: Callable[[Frame], None] | None = None,
) -> dict[str, Any]:
    """Play the seat with ``choose`` until a view satisfies ``stop``; that view.

    Acts once per version (a view may come twice at one version), deals the next deal when
    one is over if ``next_deals``.
    """
    acted_at = -1
    pending: list[Frame] = []
    if seat.view:  # the view already received may be the one to act on
        pending.append({"t": "view", "v": seat.version, "d": seat.view})
    while True:
        frame = pending.pop() if pending else seat.recv()
        if frame["t"] == "refused":
            raise AssertionError(f"refused: {frame['d']}")
        if frame["t"] != "view":
            continue
        if on_view is not None:
            on_view(frame)
        view: dict[str, Any] = frame["d"]
        if stop(view):
            return view
        if frame["v"] == acted_at:
            continue
        if view["phase"] == "over" and not view["game_over"] and next_deals:
            acted_at = frame["v"]
            seat.send("next", version=frame["v"])
        elif is_my_turn(view):
            assert view["legal"], view
            acted_at = frame["v"]
            seat.send("act", {"action": choose(view["legal"])}, version=frame["v"])


def hello(
    token: str | None,
    last: int = 0,
    page: str | None = None,
    log: bool = False,
    beat: bool = False,
) -> str:
    """A table socket's first message: the seat's token (``None``: watch instead), the last
    version this client saw (0: none), the client's id ``page`` (intent numbers count
    per id), whether to ask for the deal's log after the view, and for beats."""
    said: dict[str, Any] = {"token": token} if token is not None else {"watch": True}
    if page is not None:
        said["client"] = page
    if log:
        said["log"] = True
    if beat:
        said["beat"] = True
    return json.dumps({"t": "hello", "v": last, "d": said})


@contextlib.contextmanager
def seat_connection(
    client: Any,
    table_id: str,
    token: str | None,
    last: int = 0,
    page: str | None = None,
    log: bool = False,
    beat: bool = False,
    **options: Any,
) -> Iterator[SeatSocket]:
    """A table's socket on a Starlette ``TestClient``, its ``hello`` sent (``token`` ``None``:
    a spectator; ``beat``: asking for beats) and no frame received yet; ``options`` go to
    ``websocket_connect`` (``headers``)."""
    with client.websocket_connect(f"/ws/{table_id}", **options) as websocket:
        websocket.send_text(hello(token, last, page, log, beat))
        yield SeatSocket(websocket)


def play_to_game_over(client: Any, table_id: str, token: str) -> dict[str, Any]:
    """Seat 0 plays the game to its end, the computer at pace 0; the last view."""
    with seat_connection(client, table_id, token) as seat:
        seat.recv()
        seat.set_pace(0)
        return play_until(seat, lambda view: view["game_over"])


def bearer(token: str) -> dict[str, str]:
    """The header that shows a seat's token: a game's record and replay need one of its own."""
    return {"Authorization": f"Bearer {token}"}


# ----- the truth, from the store ---------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """Everything at one table version: the engine's whole state, copied."""

    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    discard: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...]
    known: tuple[tuple[str, ...], ...]
    over: bool
    scores: tuple[int, ...]
    turn: int

    def public(self) -> set[str]:
        """The cards every seat may see: the discard pile, the melds, the known cards."""
        cards = set(self.discard)
        for meld in self.melds:
            cards.update(meld)
        for known in self.known:
            cards.update(known)
        if self.over:  # the hands are shown once the deal is over
            for hand in self.hands:
                cards.update(hand)
        return cards

    def every(self) -> set[str]:
        """Every card of the deal, wherever it lies (the deck may hold jokers, or two decks)."""
        cards = set(self.stock) | set(self.discard)
        for group in (*self.hands, *self.melds):
            cards.update(group)
        return cards

    def allowed_for(self, seat: int | None) -> set[str]:
        """The cards ``seat`` may be told about: its own hand and the public cards (a
        spectator, ``None``, only the public ones)."""
        own = set(self.hands[seat]) if seat is not None else set()
        return self.public() | own

    def hidden_from(self, seat: int | None) -> set[str]:
        """The cards ``seat`` must never be sent: the others' hidden cards and the stock.

        With two decks a card is hidden only while no copy of it is in sight: a frame
        naming ``7h`` cannot say which copy it means (the views' counts are checked apart).
        """
        return self.every() - self.allowed_for(seat)


def position_of(game: GameState) -> Position:
    """The whole position of ``game`` now, as card texts."""
    return Position(
        hands=tuple(tuple(str(card) for card in hand) for hand in game.hands),
        stock=tuple(str(card) for card in game.stock),
        discard=tuple(str(card) for card in game.discard_pile),
        melds=tuple(tuple(str(card) for card in meld.cards) for meld in game.melds),
        known=tuple(tuple(str(card) for card in known) for known in game.known),
        over=game.phase is Phase.OVER,
        scores=tuple(game.scores),
        turn=game.turn,
    )


class _Recorder:
    def __init__(self) -> None:
        self.positions: list[Position] = []

    def dealt(self, game: GameState, deal: int) -> None:
        self.positions.append(position_of(game))

    def applied(self, game: GameState, deal: int, text: str) -> None:
        self.positions.append(position_of(game))


def stored_record(store_path: Path | str, table_id: str) -> dict[str, Any]:
    """The table's record as the store holds it (opened on a connection of our own)."""
    store = Store(store_path)
    try:
        settings = store.settings(table_id)
        assert settings is not None
        return {
            "format": "rummy-record/1",
            "rules": settings.rules,
            "players": [player.name for player in settings.players],
            "deals": store.deals(table_id),
        }
    finally:
        store.close()


def truth_by_version(store_path: Path, table_id: str) -> dict[int, Position]:
    """The whole position at each table version (1: the first deal dealt; +1 a step)."""
    recorder = _Recorder()
    result = replay(load_record(stored_record(store_path, table_id)), recorder)
    assert result.error is None, result.error
    return {version: position for version, position in enumerate(recorder.positions, start=1)}


# ----- cards in frames ---------------------------------------------------------------------

_NOTATION = re.compile(r"(?<![A-Za-z0-9])(10|[A2-9TJQK])([cdhs])(?![A-Za-z0-9])")
_SYMBOL = re.compile(r"(10|[A2-9TJQK])\s?([♣♦♥♠])")
_STANDS_FOR = re.compile(r"X=\S+|🃏\([^)]*\)")
"""A joker with the card it stands for (``X=6h``, ``🃏(6♥)``): the card is a place in a
meld, not a card anyone holds."""
_JOKER = re.compile(r"(?<![A-Za-z0-9=])X(?![A-Za-z0-9=])|🃏")


def cards_in_text(text: str) -> set[str]:
    """Every card named in a string, in notation (``7h``, ``X``) or with a symbol (``7♥``,
    ``🃏``); a joker's stand-in card (``X=6h``) names the joker only."""
    found = set()
    text = _STANDS_FOR.sub(" X ", text)
    for pattern in (_NOTATION, _SYMBOL):
        for match in pattern.finditer(text):
            found.add(str(Card.parse(match.group(1) + match.group(2))))
    if _JOKER.search(text):
        found.add(str(JOKER))
    return found


def strings_in(value: Any, skip_keys: frozenset[str] = frozenset()) -> Iterator[str]:
    """Every string in a JSON value (keys included), except under ``skip_keys``."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            if key not in skip_keys:
                yield from strings_in(item, skip_keys)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item, skip_keys)


def cards_in_frame(frame: Frame) -> set[str]:
    """Every card a frame names anywhere (the table id, a random string, left out; and a
    view's ``refused`` and ``thrown``, discards seen face up that may lie in the stock since: the
    observation the view is made from is checked without them too, ``_PUBLIC_HISTORY``)."""
    found: set[str] = set()
    for text in strings_in(frame["d"], HISTORY_FIELDS | {"table"}):
        found |= cards_in_text(text)
    return found


_SCRATCH: Store | None = None


def seeded_deal(
    seed: int, seats: int = 2, preset: str = "classic", rules: dict[str, Any] | None = None
) -> tuple[int, list[str]]:
    """The dealer and deck of the first deal of a table made with ``seed``.

    Made by the server's own ``Table.create`` on a scratch in-memory store, so it follows
    however the table shuffles.
    """
    global _SCRATCH
    if _SCRATCH is None:
        _SCRATCH = Store(":memory:")
    wanted = NewTable(preset=preset, rules=rules or {}, opponents=(BASIC,) * (seats - 1), seed=seed)
    settings = new_table_settings(wanted)
    # in a thread of its own: the caller may be inside an event loop (Playwright's)
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        made = thread.submit(asyncio.run, deal_new_table(_SCRATCH, settings, WORKERS))
        table, _ = made.result()
    log = table.game.logs[0]
    return log.dealer, [str(card) for card in log.deck]


def seed_where_human_starts(
    seats: int = 2, start: int = 0, preset: str = "classic", rules: dict[str, Any] | None = None
) -> int:
    """The first seed from ``start`` whose first deal seat 0 plays first (the dealer on its
    right, the last seat, deals)."""
    for seed in range(start, start + 1000):
        if seeded_deal(seed, seats, preset, rules)[0] == seats - 1:
            return seed
    raise AssertionError("no seed found")


# ----- a live server -------------------------------------------------------------------------


class _SignallingServer(uvicorn.Server):
    """A uvicorn server that says when its start-up is over, however it went."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.started_or_failed = threading.Event()

    async def startup(self, sockets: list[Any] | None = None) -> None:
        try:
            await super().startup(sockets=sockets)
        finally:
            self.started_or_failed.set()


class LiveServer:
    """The app served by uvicorn in a daemon thread; ``restart`` keeps the store and port."""

    def __init__(
        self,
        store_path: Path,
        port: int,
        sleep: Sleep = asyncio.sleep,
        limits: Limits = Limits.unlimited(),  # noqa: B008 - a frozen value
        *,
        public_history: bool = False,
        now: Callable[[], float] = time.time,
        drop_grace_s: float | None = None,
        bye_grace_s: float | None = None,
        database_url: str | None = None,
        redis_url: str | None = None,
        review_samples: int = DEFAULT_SAMPLES,
        heartbeat: Heartbeat = Heartbeat(),  # noqa: B008 - a frozen value
        trusted_proxies: tuple[str, ...] = (),
    ) -> None:
        """The app to serve; with ``database_url`` and ``redis_url``, one process of a site of
        several (a new ``Cluster`` at each start, as a restarted process is a new owner);
        ``review_samples`` a decision of a post-game review (fewer make a review quicker);
        ``heartbeat``: how soon a silent connection is noticed (shortened by the black-hole
        test); ``trusted_proxies``: as ``rummy serve --trusted-proxy``."""
        self.store_path = store_path
        self.database_url = database_url
        self.redis_url = redis_url
        self.app: Any = None
        """The app being served (``None`` while stopped)."""
        self.now = now
        self.drop_grace_s = drop_grace_s
        self.bye_grace_s = bye_grace_s
        self.port = port
        self.sleep = sleep
        self.limits = limits
        self.public_history = public_history
        self.review_samples = review_samples
        self.heartbeat = heartbeat
        self.trusted_proxies = trusted_proxies
        self.url = f"http://127.0.0.1:{port}"
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        app = create_app(
            ServerConfig(
                store_path=self.store_path,
                accept_seeds=True,
                limits=self.limits,
                public_history=self.public_history,
                drop_grace_s=self.drop_grace_s,
                bye_grace_s=self.bye_grace_s,
                database_url=self.database_url,
                review_samples=self.review_samples,
                heartbeat=self.heartbeat,
            ),
            sleep=self.sleep,
            workers=WORKERS,
            now=self.now,
            cluster=None if self.redis_url is None else Cluster.on_redis(self.redis_url),
        )
        self.app = app
        config = uvicorn_config(  # as rummy serve
            app, "127.0.0.1", self.port, lifespan="on", trusted_proxies=self.trusted_proxies
        )
        server = _SignallingServer(config)
        thread = threading.Thread(target=server.run, name=f"uvicorn-{self.port}", daemon=True)
        thread.start()
        server.started_or_failed.wait(timeout=STUCK_S)
        if not server.started:
            raise RuntimeError(f"uvicorn did not start on port {self.port}")
        self.server, self.thread = server, thread

    def stop(self) -> None:
        if self.server is None or self.thread is None:
            return
        self.server.should_exit = True
        self.thread.join(timeout=STOP_S)
        assert not self.thread.is_alive(), f"uvicorn did not stop within {STOP_S} s"
        self.server = self.thread = None
        self.app = None

    def restart(self) -> None:
        self.stop()
        self.start()

    # a few JSON calls for the test's own bookkeeping (the page does its own); the standard
    # library's urllib, so no HTTP client package is needed
    def _json(
        self, path: str, body: dict[str, Any] | None = None, token: str | None = None
    ) -> dict[str, Any]:
        request = urllib.request.Request(
            self.url + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(bearer(token) if token else {})},
            method="GET" if body is None else "POST",
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            data: dict[str, Any] = json.loads(answer.read())
            return data

    def create_table(self, **body: Any) -> tuple[str, str]:
        body.setdefault("preset", "classic")
        body.setdefault("opponents", ["basic"])
        answer = self._json("/api/tables", body)
        return answer["table"], answer["token"]

    def finished_game(self, **body: Any) -> tuple[str, str]:
        """A table played to its end over a socket, the computer at pace 0; its id and token."""
        table_id, token = self.create_table(**body)
        with self.seat_socket(table_id, token) as websocket:
            seat = SeatSocket(LiveSocket(websocket))
            seat.recv()
            seat.set_pace(0)
            play_until(seat, lambda view: view["game_over"])
        return table_id, token

    def view(self, table_id: str, token: str) -> dict[str, Any]:
        """The seat's view and version, as ``GET /api/tables/{id}`` gives them (the token in
        the ``Authorization`` header, as the page sends it)."""
        body = self._json(f"/api/tables/{urllib.parse.quote(table_id)}", token=token)
        return {**body["view"], "version": body["version"]}

    def socket_url(self, table_id: str) -> str:
        """The address of a table's socket (whose it is, the ``hello`` says)."""
        return f"ws://127.0.0.1:{self.port}/ws/{urllib.parse.quote(table_id)}"

    @contextlib.contextmanager
    def seat_socket(
        self, table_id: str, token: str | None, last: int = 0, **options: Any
    ) -> Iterator[ClientConnection]:
        """A ``websockets`` connection to the table's socket, its ``hello`` sent (``token``
        ``None``: a spectator); ``options`` go to ``connect`` (``origin``, timeouts)."""
        with connect(self.socket_url(table_id), **options) as connection:
            connection.send(hello(token, last))
            yield connection

    def post(self, path: str, body: bytes) -> tuple[int, str, bytes]:
        """POST any bytes as JSON; the status, the content type and the body, errors too."""
        request = urllib.request.Request(
            self.url + path, data=body, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.headers.get("content-type", ""), answer.read()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.headers.get("content-type", ""), error.read()


class LiveSocket:
    """A ``websockets`` sync client shaped like TestClient's socket, for ``SeatSocket``."""

    def __init__(self, connection: Any, timeout: float = 20) -> None:
        self.connection = connection
        self.timeout = timeout

    def receive_text(self) -> str:
        text = self.connection.recv(timeout=self.timeout)
        assert isinstance(text, str)
        return text

    def send_text(self, text: str) -> None:
        self.connection.send(text)


@dataclass(frozen=True)
class LiveAnswer:
    """An HTTP answer shaped like TestClient's (``status_code``, ``text``, ``json()``)."""

    status_code: int
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


class LiveClient:
    """TestClient's surface over a live server (``post`` JSON, ``websocket_connect``), so that
    the party helpers (``tests/party_client.py``) drive a server that a browser uses too."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server

    def post(self, path: str, json: Any = None) -> LiveAnswer:
        status, _, body = self.server.post(path, _json_bytes(json))
        return LiveAnswer(status, body.decode())

    @contextlib.contextmanager
    def websocket_connect(self, path: str) -> Iterator[LiveSocket]:
        """A socket to ``path``, its frames queued without bound (nothing waits on a reader)."""
        address = f"ws://127.0.0.1:{self.server.port}{path}"
        with connect(address, max_queue=None) as connection:
            yield LiveSocket(connection)


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value).encode()


# ----- the hidden-card audit -------------------------------------------------------------------

AUDIT_LEVELS: tuple[BotLevel, ...] = ("basic", "strong")
"""The computer levels the audit seats by default (``expert`` decides in 200 ms a move: it
sees what every bot sees, through ``observe``, only slower)."""

_PUBLIC_HISTORY = HISTORY_FIELDS | {"stands_for", "jokers_as", "joker_as", "rules"}
"""Fields of an observation whose cards are no card anyone holds: the discards seen face up
(``HISTORY_FIELDS``, even once turned over into the stock) and a joker's stand-in card."""


def audit_frame(frame: Frame, position: Position, seat: int | None) -> int:
    """Check one frame a socket of ``seat`` (``None``: a spectator) received; the cards it
    names. ``AssertionError`` says what it gave away.

    Every string of the frame (keys and values) is searched for cards hidden from the seat
    at the frame's version: the other seats' hands but for their known cards, the stock.
    A view must also match the truth where it is public (counts, pile, melds, known cards)
    and hold no hand but the seat's own while the deal goes on.
    """
    found = cards_in_frame(frame)
    hidden = position.hidden_from(seat)
    if frame["t"] == "event":
        event = frame["d"]
        words = event["action"].split()
        assert words[0] in ("draw", "meld", "layoff", "discard", "knock"), event
        if words[0] != "draw":
            # played face up: its cards are shown even if the pile went on into a new stock
            # in the same step (a discard, then the pile turned over)
            hidden -= cards_in_text(event["action"])
        elif words[1] == "stock" and event["seat"] != seat:
            assert event["card"] is None and not cards_in_text(event["text"]), event
    leaked = found & hidden
    assert not leaked, (
        f"frame {frame['t']} at version {frame['v']} names hidden cards {sorted(leaked)}: "
        f"{frame['d']}"
    )
    if frame["t"] == "view":
        _audit_view(frame["d"], position, seat)
    return len(found)


def _audit_view(view: dict[str, Any], position: Position, seat: int | None) -> None:
    """A view's public parts are the truth; the only hand it holds is the seat's own."""
    assert view["seat"] == seat
    own = position.hands[seat] if seat is not None else ()
    assert Counter(view["hand"]) == Counter(own)
    assert view["hand_sizes"] == [len(hand) for hand in position.hands]
    assert isinstance(view["stock"], int) and view["stock"] == len(position.stock)
    assert view["discard"] == list(position.discard)
    assert _same_melds(view["melds"], position), (view["melds"], position.melds)
    assert [Counter(known) for known in view["known"]] == [Counter(k) for k in position.known]
    assert view["scores"] == list(position.scores)
    if position.over:
        result = view["deal_result"]
        assert result is not None
        assert [Counter(hand) for hand in result["hands"]] == [
            Counter(hand) for hand in position.hands
        ]
    else:
        assert view["deal_result"] is None, "the hands are shown before the deal is over"


def _same_melds(melds: list[dict[str, Any]], position: Position) -> bool:
    """Whether the view's melds hold the truth's cards (a joker written ``X=6h``)."""
    return [Counter(card.split("=")[0] for card in meld["cards"]) for meld in melds] == [
        Counter(meld) for meld in position.melds
    ]


def audit_sockets(
    sockets: Sequence[tuple[int | None, Sequence[Frame]]], truth: dict[int, Position]
) -> tuple[int, int]:
    """Audit every frame of every socket given as (its seat, its frames); (frames, cards
    named) checked. A seat's sockets, other seats' and spectators' all go through here."""
    frames = named = 0
    for seat, received in sockets:
        for frame in received:
            named += audit_frame(frame, truth[frame["v"]], seat)
            frames += 1
    return frames, named


def cards_held_in(value: object) -> Iterator[Card]:
    """Every card in an engine value (an observation, a meld, an action...), but for the
    fields of ``_PUBLIC_HISTORY``."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            if field.name not in _PUBLIC_HISTORY:
                yield from cards_held_in(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_held_in(item)


def check_observation(observation: Observation, position: Position) -> int:
    """An observation holds no card hidden from its seat (``None``: a spectator) and its
    counts are the truth's; the cards it names."""
    seat = observation.seat
    named = {str(card) for card in cards_held_in(observation)}
    leaked = named & position.hidden_from(seat)
    assert not leaked, f"the observation of seat {seat} holds hidden cards {sorted(leaked)}"
    own = position.hands[seat] if seat is not None else ()
    assert Counter(str(card) for card in observation.hand) == Counter(own)
    assert observation.hand_sizes == tuple(len(hand) for hand in position.hands)
    assert observation.stock_count == len(position.stock)
    return len(named)


def audit_observation(game: GameState, seat: int | None) -> int:
    """What a computer player at ``seat`` is shown, ``observe(game, seat)``, passes
    ``check_observation``; the cards it names."""
    return check_observation(observe(game, seat), position_of(game))


def _observed_at(observation: Observation) -> tuple[object, ...]:
    """What an observation shows of its position (a turned-over stock can bring a position
    back with other hidden cards: the public ones tell them apart where it matters)."""
    return (
        observation.turn,
        observation.hand_sizes,
        observation.stock_count,
        tuple(str(card) for card in observation.discard_pile),
        tuple(sorted(str(card) for card in observation.hand)),
        tuple(tuple(sorted(str(card) for card in known)) for known in observation.known_cards),
        tuple(tuple(sorted(str(card) for card in meld.cards)) for meld in observation.melds),
    )


def _position_key(position: Position, seat: int | None) -> tuple[object, ...]:
    """``_observed_at`` of ``seat``'s observation of ``position``."""
    own = position.hands[seat] if seat is not None else ()
    return (
        position.turn,
        tuple(len(hand) for hand in position.hands),
        len(position.stock),
        position.discard,
        tuple(sorted(own)),
        tuple(tuple(sorted(known)) for known in position.known),
        tuple(tuple(sorted(meld)) for meld in position.melds),
    )


def audit_sent_observations(sent: Sequence[Observation], truth: dict[int, Position]) -> int:
    """Each observation a computer player was given (``pool_observations``) is of a position
    of the game, and passes ``check_observation`` there; how many were checked."""
    positions: dict[int | None, dict[tuple[object, ...], Position]] = {}
    for observation in sent:
        seat = observation.seat
        if seat not in positions:  # each position of the game, as this seat would see it
            positions[seat] = {_position_key(p, seat): p for p in reversed(truth.values())}
        position = positions[seat].get(_observed_at(observation))
        assert position is not None, f"seat {seat} was given a position the game never had"
        check_observation(observation, position)
    return len(sent)


class _ObservationAudit(_Recorder):
    """Audits ``observe`` for every seat and a spectator at the chosen versions of a replay."""

    def __init__(self, versions: Container[int]) -> None:
        super().__init__()
        self.versions = versions
        self.checked = 0

    def _audit(self, game: GameState) -> None:
        if len(self.positions) in self.versions:
            for seat in (*range(game.seat_count), None):
                audit_observation(game, seat)
                self.checked += 1

    def dealt(self, game: GameState, deal: int) -> None:
        super().dealt(game, deal)
        self._audit(game)

    def applied(self, game: GameState, deal: int, text: str) -> None:
        super().applied(game, deal, text)
        self._audit(game)


def audit_observations(store_path: Path, table_id: str, versions: Container[int]) -> int:
    """Replay a stored table and audit ``observe`` at ``versions``; the observations checked."""
    audit = _ObservationAudit(versions)
    result = replay(load_record(stored_record(store_path, table_id)), audit)
    assert result.error is None, result.error
    return audit.checked


def random_table(rng: random.Random, levels: Sequence[BotLevel] = AUDIT_LEVELS) -> dict[str, Any]:
    """A table's settings for ``POST /api/tables``: a random preset, a seat count it allows
    (one person and one to seven computer players, two decks past six seats), one to three
    deals, at most 15 new stocks a deal, sometimes jokers or two decks, and a seed (the server
    is a test server)."""
    preset = PRESETS[rng.choice(sorted(PRESETS))]
    seats = rng.randint(preset.min_seats, preset.max_seats)
    rules: dict[str, Any] = {"deals": rng.randint(1, 3)}
    if preset.rules.renewals is None:
        # With no limit a deal can go round for ever: under "standard", about one random game
        # of computer players in seven did (the same cards come back in the same order). The
        # audit bounds it as the party preset's "no limit" does.
        rules["renewals"] = 15
    if rng.random() < 0.25:
        rules["jokers"] = rng.randint(1, 2)
    if seats > MAX_SEATS_ONE_DECK or (seats >= 4 and rng.random() < 0.25):
        rules["decks"] = 2  # seven or eight seats always
    body: dict[str, Any] = {
        "preset": preset.name,
        "opponents": [rng.choice(levels) for _ in range(seats - 1)],
        "rules": rules,
        "seed": rng.randrange(2**31),
    }
    new_table_settings(NewTable.model_validate_json(json.dumps(body)))  # playable, or why not
    return body


@dataclass(frozen=True)
class AuditedGame:
    """A whole game played over real sockets, and what its audit checked."""

    table_id: str
    body: dict[str, Any]
    sockets: tuple[tuple[int | None, list[Frame]], ...]
    """Each socket's seat and every frame it received."""
    truth: dict[int, Position]
    last: dict[str, Any]
    """The last view: the game over."""
    frames: int
    cards_named: int
    observations: int
    """Observations checked: ``observe`` at random positions, and every one the computer
    players were given during the game."""

    @property
    def seats(self) -> int:
        """How many seats played."""
        return len(self.body["opponents"]) + 1


def _watch_until_over(seat: SeatSocket) -> None:
    seat.until(lambda frame: frame["t"] == "view" and bool(frame["d"]["game_over"]))


def play_audited_game(
    server: LiveServer,
    body: dict[str, Any],
    rng: random.Random,
    *,
    tabs: int = 1,
    observed: int = 8,
) -> AuditedGame:
    """Play a table made with ``body`` to its end and audit it.

    Seat 0 plays ``simple_choice`` over a real socket, the computer at pace 0; ``tabs - 1``
    more sockets of seat 0 watch, each read by a thread of its own (a reader that stops is
    dropped by the server). Then every frame of every socket is audited against the stored
    truth (``audit_sockets``), every observation the computer players were given
    (``audit_sent_observations``), and ``observe`` for every seat and a spectator at
    ``observed`` random versions (``audit_observations``).
    """
    table_id, token = server.create_table(**body)
    with contextlib.ExitStack() as stack:
        sent = stack.enter_context(pool_observations())
        seats = [
            SeatSocket(LiveSocket(stack.enter_context(server.seat_socket(table_id, token))))
            for _ in range(tabs)
        ]
        player, watchers = seats[0], seats[1:]
        for watcher in watchers:
            watcher.recv()  # joined before the game moves
        pool = stack.enter_context(concurrent.futures.ThreadPoolExecutor(max(1, len(watchers))))
        watching = [pool.submit(_watch_until_over, watcher) for watcher in watchers]
        player.set_pace(0)
        last = play_until(player, lambda view: bool(view["game_over"]))
        for each in watching:
            each.result(timeout=STUCK_S)  # the watcher's own failure, if it had one
    truth = truth_by_version(server.store_path, table_id)
    sockets = tuple((0, seat.frames) for seat in seats)
    frames, named = audit_sockets(sockets, truth)
    chosen = set(rng.sample(sorted(truth), min(observed, len(truth))))
    observations = audit_observations(server.store_path, table_id, chosen)
    observations += audit_sent_observations(sent, truth)
    return AuditedGame(table_id, body, sockets, truth, last, frames, named, observations)
