"""Crash safety: ``rummy serve`` killed with SIGKILL at random moments, again and again.

The server commits every change to the store before it tells anyone, so whatever a client was
told (an ``event`` or a ``view`` at version v: everything up to v is committed) must survive
any crash, and an intent whose answer never came is applied once or not at all. Here the
server runs as a process of its own on a SQLite file; the test plays the human seat against
two computer players at pace 0 and kills the process at random moments: after a random delay
(during the computer's moves, a commit, a broadcast...) and right after sending an intent,
before its answer. After each kill, with the server still down, the store is read and checked
against everything acknowledged; then the server is started again on the same store, the
seat reconnects and plays on from the view it is sent.

A second test kills the server while it makes a table (before, between or after its two
commits) and in a table's first deal: a table whose answer came is whole, one whose answer
never came may be in the store, half made, and is dealt when first asked for.

A live server shuffles with the operating system's randomness, so the decks differ from run
to run; the kill moments and plans come from a seeded ``random.Random``.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import random
import select
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from ports import free_port
from rummykit.core.record import load_record, replay
from rummykit.server.store.store import Store
from rummykit.server.tables.table import restore_table
from server_process import ServerProcess
from table_client import (
    STUCK_S,
    WORKERS,
    Frame,
    LiveSocket,
    Position,
    SeatSocket,
    is_my_turn,
    simple_choice,
    stored_record,
    truth_by_version,
)

KILLS = 24
"""SIGKILLs in the game test: the issue asks for at least 20; each costs a restart (~0.5 s)."""

CREATION_ROUNDS = 8
"""Rounds of the creation test, each with a kill while a table is created and one while its
first deal is played."""

TABLE = {"preset": "classic", "opponents": ["basic", "basic"], "rules": {"deals": 2}}
"""Two computer players; two deals a game, so that games end (and new ones begin) between
kills."""

DELAY_S = (0.005, 0.1)
"""A kill after a random delay lands within this long of connecting. At pace 0 a deal of
about 55 steps takes some 0.1 s here: the kill falls anywhere from the first steps after
the restart to the next deal."""

MOST_SENDS = 4
"""A kill right after a send comes after one to this many of the seat's intents."""

LINGER_S = 0.003
"""A kill right after an intent lands up to this long after it is sent: the server answers in
about 2 ms here (it reads, checks, commits with an fsync, then answers), so the kill falls
before the intent is read, while it is committed, or while its answer is on its way."""

SENDS_PER_LIFE = 30
"""However fast the machine plays, a connection sends at most this many intents before its
kill: a live server closes a socket past 40 messages at once (``Limits.socket_burst``)."""

FIRST_DEAL_S = 0.05
"""A kill in a table's first deal lands within this long of the seat's joining: the first
few moves."""

# a hang guard, not a time limit: 24 server starts take about two minutes on a loaded machine
pytestmark = [pytest.mark.timeout(360), pytest.mark.heavy]


@dataclass
class Sent:
    """An intent sent against ``version``: the store's entry at ``version + 1`` if applied."""

    version: int
    entry: str


@dataclass
class Acknowledged:
    """What the server told the seat of one table: every version up to ``top`` is committed."""

    top: int = 0
    events: dict[int, str] = field(default_factory=dict)
    """The action of each version announced by an event, as the store writes it."""
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    """The seat's view at each version."""
    pace_zero: bool = False
    """Whether pace 0 was acknowledged: every later view must keep it, restarts included."""
    sent: dict[int, str] = field(default_factory=dict)
    """Every intent sent, by the version it was sent against."""
    pending: Sent | None = None
    """The last intent sent whose answer has not come."""

    def note(self, frame: Frame) -> None:
        """Take in one frame from the server."""
        assert frame["t"] != "refused", f"an intent was refused: {frame['d']}"
        version: int = frame["v"]
        self.top = max(self.top, version)
        if self.pending is not None and version > self.pending.version:
            self.pending = None  # answered
        if frame["t"] == "event":
            self.events[version] = f"{frame['d']['seat']} {frame['d']['action']}"
        elif frame["t"] == "view":
            view: dict[str, Any] = frame["d"]
            assert view["pace_ms"] == 0 or not self.pace_zero, "the pace was lost"
            self.pace_zero = self.pace_zero or view["pace_ms"] == 0
            self.views[version] = view

    def send(self, seat: SeatSocket, kind: str, data: dict[str, Any], version: int) -> None:
        """Send an intent against ``version``, keeping what it would write to the store."""
        dealt = f"deal {self.views[version]['deal'] + 1}"  # deals count from 0
        entry = f"0 {data['action']}" if kind == "act" else dealt
        # a resend after a restart is the same intent: the same position, the same choice
        assert self.sent.setdefault(version, entry) == entry
        self.pending = Sent(version, entry)
        seat.send(kind, data, version=version)


@dataclass(frozen=True)
class KillPlan:
    """When to kill: ``delay_s`` after connecting, or ``linger_s`` after the seat's
    ``after_sends``-th intent (its answer may be on its way, or not), whichever comes first."""

    after_sends: int
    delay_s: float | None = None
    linger_s: float = 0.0

    @staticmethod
    def draw(rng: random.Random) -> KillPlan:
        """Half the kills after a delay, half right after an intent."""
        if rng.random() < 0.5:
            return KillPlan(SENDS_PER_LIFE, delay_s=rng.uniform(*DELAY_S))
        return KillPlan(rng.randint(1, MOST_SENDS), linger_s=rng.uniform(0, LINGER_S))


# ----- the store, checked against what was acknowledged ----------------------------------


def entries_by_version(deals: list[dict[str, Any]]) -> dict[int, str]:
    """What each table version is in the store: ``deal N`` for a deal dealt, else an action."""
    entries: list[str] = []
    for number, deal in enumerate(deals):
        entries.append(f"deal {number}")
        entries += deal["actions"]
    return dict(enumerate(entries, start=1))


def deal_by_version(entries: dict[int, str]) -> dict[int, int]:
    """The deal (from 0) each table version belongs to."""
    deal, by_version = -1, {}
    for version in sorted(entries):
        if entries[version].startswith("deal "):
            deal += 1
        by_version[version] = deal
    return by_version


def assert_view_shows(view: dict[str, Any], position: Position, deal: int, version: int) -> None:
    """The seat's view at ``version`` is the stored game's position there, as far as it sees."""
    shown = (
        view["deal"],
        sorted(view["hand"]),
        list(view["discard"]),
        [list(meld["cards"]) for meld in view["melds"]],
        view["stock"],
        list(view["hand_sizes"]),
        list(view["scores"]),
        view["turn"],
        view["phase"] == "over",
    )
    stored = (
        deal,
        sorted(position.hands[0]),
        list(position.discard),
        [list(meld) for meld in position.melds],
        len(position.stock),
        [len(hand) for hand in position.hands],
        list(position.scores),
        position.turn,
        position.over,
    )
    assert shown == stored, f"the view acknowledged at version {version} is not what is stored"


def finished_ids(store_path: Path) -> set[str]:
    """The tables the store marks finished (the history)."""
    store = Store(store_path)
    try:
        return {game.id for game in store.history(limit=1_000_000)}
    finally:
        store.close()


def check_store(store_path: Path, table_id: str, acked: Acknowledged) -> int:
    """Check the stored table against what was acknowledged; its stored version.

    Run while the server is down: what it finds is what a restart rebuilds.
    """
    record = stored_record(store_path, table_id)
    entries = entries_by_version(record["deals"])
    store = Store(store_path)
    try:
        version = store.version(table_id)
    finally:
        store.close()
    # contiguous: one version per deal dealt and per action, none missing, none extra
    assert sorted(entries) == list(range(1, version + 1)), (version, len(entries))
    assert version >= acked.top, f"acknowledged up to {acked.top}, stored only {version}"
    for at, action in acked.events.items():
        assert entries[at] == action, f"version {at}: announced {action!r}, stored {entries[at]!r}"
    # nothing of the seat's applied twice, nor at another place: every entry the seat's
    # intents make (its actions, the deals after the first) answers an intent sent against
    # the version just before it
    for at, entry in entries.items():
        if entry.startswith("0 ") or (entry.startswith("deal ") and entry != "deal 0"):
            assert acked.sent.get(at - 1) == entry, f"version {at}: {entry!r} was never sent"
    if acked.pending is not None and version > acked.pending.version:
        assert entries[acked.pending.version + 1] == acked.pending.entry
    # the game replays, its finished mark agrees, and every acknowledged view is in it
    replayed = replay(load_record(record))
    assert replayed.error is None and replayed.state is not None, replayed.error
    assert (table_id in finished_ids(store_path)) == replayed.state.game_over
    truth = truth_by_version(store_path, table_id)
    assert len(truth) == version
    deals = deal_by_version(entries)
    for at, view in acked.views.items():
        assert_view_shows(view, truth[at], deals[at], at)
    return version


# ----- the seat ------------------------------------------------------------------------------


class Seat(SeatSocket):
    """One connection of the human seat over a real socket."""

    def __init__(self, live: LiveSocket) -> None:
        super().__init__(live)
        self.live = live

    def recv_before(self, deadline: float | None) -> Frame | None:
        """The next frame, or ``None`` once ``deadline`` (``time.monotonic``) has passed."""
        remaining = STUCK_S if deadline is None else deadline - time.monotonic()
        if remaining <= 0:
            return None
        self.live.timeout = min(remaining, STUCK_S)
        try:
            return self.recv()
        except TimeoutError:
            if deadline is not None and time.monotonic() >= deadline:
                return None
            raise
        finally:
            self.live.timeout = STUCK_S

    def drain(self, acked: Acknowledged) -> None:
        """After a kill: take in the frames that reached us before the line went down."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                acked.note(self.recv())


def intent_for(view: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """What the seat sends on ``view``: the next deal, its action, or nothing."""
    if view["phase"] == "over":
        return "next", {}
    if is_my_turn(view):
        return "act", {"action": simple_choice(view["legal"])}
    return None


def play(seat: Seat, acked: Acknowledged, plan: KillPlan, first: Frame) -> bool:
    """Play the human seat from its ``first`` view until the plan says kill (``False``) or
    the game is over (``True``).

    Acts once per version on each view where the seat is to act, deals the next deal when
    one is over, and sets the pace to 0 whenever a view shows another.
    """
    deadline = None if plan.delay_s is None else time.monotonic() + plan.delay_s
    acted_at = -1
    sends = 0
    pace_asked = False
    frame: Frame | None = first
    while frame is not None:
        acked.note(frame)
        version, view = frame["v"], frame["d"]
        if frame["t"] == "view":
            if view["game_over"]:
                return True
            if view["pace_ms"] != 0 and not pace_asked:
                seat.send("pace", {"ms": 0})
                pace_asked = True
            intent = intent_for(view) if version != acted_at else None
            if intent is not None and sends < plan.after_sends:
                acked.send(seat, *intent, version)
                acted_at = version
                sends += 1
                if sends == plan.after_sends:  # no more intents: the kill comes
                    linger = time.monotonic() + plan.linger_s
                    deadline = linger if deadline is None else min(deadline, linger)
        frame = seat.recv_before(deadline)
    return False


@contextlib.contextmanager
def join(
    server: ServerProcess, table_id: str, token: str, stored: int
) -> Iterator[tuple[Seat, Frame]]:
    """The seat's socket, and its first view: the table as stored, no further."""
    with server.seat_socket(table_id, token, open_timeout=STUCK_S, close_timeout=1) as connection:
        seat = Seat(LiveSocket(connection, timeout=STUCK_S))
        first = seat.recv()
        assert first["t"] == "view", first
        assert first["v"] == stored, f"the table came back at {first['v']}, stored at {stored}"
        yield seat, first


def kill_and_check(server: ServerProcess, seat: Seat, table_id: str, acked: Acknowledged) -> int:
    """SIGKILL the server, check the store while it is down, start it again; the version
    stored."""
    server.kill()
    seat.drain(acked)
    stored = check_store(server.store_path, table_id, acked)
    server.start()
    return stored


def check_record(server: ServerProcess, table_id: str, token: str) -> None:
    """A finished game's record, as the server gives it, holds the stored deals and actions."""
    given = server.record(table_id, token)["deals"]
    stored = stored_record(server.store_path, table_id)["deals"]
    assert [(deal["deck"], deal["actions"]) for deal in given] == [
        (deal["deck"], deal["actions"]) for deal in stored
    ]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """``rummy serve`` on a fresh store, stopped whatever happens."""
    with ServerProcess(
        tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log"
    ) as process:
        process.start()
        yield process


def test_every_acknowledged_action_survives_sigkill_and_none_is_applied_twice(
    server: ServerProcess,
) -> None:
    rng = random.Random(8)
    kills = 0
    table: tuple[str, str] | None = None
    acked = Acknowledged()
    stored = 1
    while kills < KILLS:
        if table is None:
            table = server.create_table(**TABLE)
            acked, stored = Acknowledged(), 1
        with join(server, *table, stored) as (seat, first):
            over = play(seat, acked, KillPlan.draw(rng), first)
            if not over:
                stored = kill_and_check(server, seat, table[0], acked)
                kills += 1
        if over:
            check_store(server.store_path, table[0], acked)  # nothing moves in a finished game
            check_record(server, *table)
            table = None
    assert kills >= 20


# ----- a table being made ------------------------------------------------------------------


def create_and_kill(server: ServerProcess, kill_after_s: float) -> tuple[str, str] | None:
    """POST a new table and SIGKILL the server ``kill_after_s`` later, or as its answer
    comes; the table and token if the answer came before the kill."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=STUCK_S)
    try:
        body = json.dumps(TABLE)
        connection.request("POST", "/api/tables", body, {"Content-Type": "application/json"})
        assert connection.sock is not None
        select.select([connection.sock], [], [], kill_after_s)
        server.kill()
        try:
            answer = connection.getresponse()
            text = answer.read()
        except (http.client.HTTPException, OSError):
            return None  # never answered: nobody holds its token
        assert answer.status == 200, text
        created = json.loads(text)
        return created["table"], created["token"]
    finally:
        connection.close()


def stored_tables(store_path: Path) -> dict[str, int]:
    """Every table in the store, with its stored version."""
    with contextlib.closing(sqlite3.connect(store_path)) as db:
        rows = db.execute("SELECT id, version FROM tables").fetchall()
    return {table_id: version for table_id, version in rows}


def check_tables(store_path: Path, given: set[str]) -> None:
    """Every stored table is whole: made and dealt in one transaction, never one without the
    other (a table made but not dealt was once left behind by a kill between the two)."""
    tables = stored_tables(store_path)
    assert given <= set(tables), "a table given out is not in the store"
    store = Store(store_path)
    try:
        for table_id, version in tables.items():
            assert version >= 1, f"table {table_id} was stored but never dealt"
            restored = asyncio.run(restore_table(store, table_id, WORKERS))
            assert restored.version == version
    finally:
        store.close()


def made_in(server: ServerProcess) -> tuple[tuple[str, str], float]:
    """A new table and its token, and how long the server took to make it."""
    start = time.monotonic()
    table = server.create_table(**TABLE)
    return table, time.monotonic() - start


def test_a_table_being_made_or_dealt_when_killed_is_whole_or_never_given_out(
    server: ServerProcess,
) -> None:
    rng = random.Random(11)
    given: set[str] = set()
    for _ in range(CREATION_ROUNDS):
        # The first table after a start warms the server up (10 to 35 ms here); the next
        # times a making (2 to 5 ms). The kill lands at a random moment within twice that
        # after the request: before it is read, while the table and its first deal are stored, with
        # its answer on its way, or after.
        warm, _ = made_in(server)
        timed, took = made_in(server)
        created = create_and_kill(server, rng.uniform(0, 2 * took))
        given |= {warm[0], timed[0]} | ({created[0]} if created else set())
        check_tables(server.store_path, given)
        server.start()
        # the first deal: the computer players' first moves, the seat's first intents
        plan = KillPlan(
            rng.randint(1, MOST_SENDS),
            delay_s=rng.uniform(0, FIRST_DEAL_S),
            linger_s=rng.uniform(0, LINGER_S),
        )
        table = created or timed
        acked = Acknowledged()
        with join(server, *table, 1) as (seat, first):
            if not play(seat, acked, plan, first):  # a game is not over after four intents
                kill_and_check(server, seat, table[0], acked)
