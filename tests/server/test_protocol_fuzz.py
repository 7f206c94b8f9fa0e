"""Protocol fuzzing against a live server: uvicorn on 127.0.0.1, real sockets, hypothesis.

Hostile messages (malformed or deep JSON, wrong types, unknown kinds, huge integers, digits
that are no ASCII digits, binary frames, oversized frames, out-of-turn and stale actions,
other seats' cards, actions written for another seat, floods) go to two tables held still: one
where the person is to play (the computer waits), one where the computer is to play and its
clock never moves. After each batch a ``pace`` marker with a value of its own goes through the
same table queue, so every answer to the batch has arrived once the marker's view has.

What must hold: every message is answered (one ``refused`` with a code and a sentence, or a
hint) or its socket is closed with a code and a reason; the table is unchanged (version and
view); a third table, played meanwhile by another client, only moves with its own actions and
stays what the HTTP API says; the server logs no error and no traceback; and afterwards a new
table is created and played to its end. ``POST /api/tables`` is fuzzed too: a 4xx JSON answer
with an ``error`` sentence (or a table, for a body that happens to be valid), never a 500.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from ports import free_port
from rummykit.core.actions import parse_action
from rummykit.core.errors import ErrorCode, InvalidActionError
from rummykit.protocol.codes import ServerCode
from rummykit.protocol.facts import MAX_PACE_MS
from rummykit.protocol.limits import MAX_SOCKET_MESSAGE_BYTES, TOO_MANY_MESSAGES, Limits
from rummykit.protocol.messages import (
    CLIENT_TYPES,
    MAX_MESSAGE_CHARS,
    Act,
    BeatBack,
    Bye,
    CloseCode,
    Pace,
    ProtocolError,
    Redeal,
    parse_client_message,
)
from table_client import (
    STUCK_S,
    Frame,
    LiveServer,
    LiveSocket,
    ManualClock,
    SeatSocket,
    is_my_turn,
    play_until,
    seed_where_human_starts,
    seeded_deal,
    simple_choice,
    truth_by_version,
)

pytestmark = pytest.mark.timeout(120)

CLOSE_CODES = frozenset(CloseCode)
"""The codes a socket may be closed with (1009, message too big, is uvicorn's, listed there)."""

ERROR_CODES = frozenset(code.value for code in (*ErrorCode, *ServerCode))
"""The rules' codes and the server's own."""


# ----- the log: no error, no traceback -----------------------------------------------------------


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def log() -> Iterator[_Collector]:
    """Every record of the server's loggers (uvicorn's do not reach the root logger)."""
    collector = _Collector()
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "rummykit")]
    for logger in loggers:
        logger.addHandler(collector)
    yield collector
    for logger in loggers:
        logger.removeHandler(collector)


@pytest.fixture(autouse=True)
def no_error_logged(log: _Collector) -> Iterator[None]:
    """After each test: nothing logged at ERROR or with a traceback."""
    yield
    bad = [r for r in log.records if r.levelno >= logging.ERROR or r.exc_info is not None]
    log.records.clear()
    assert not bad, [f"{r.name}: {r.getMessage()}" for r in bad]


# ----- the server and its tables -----------------------------------------------------------------


@dataclass
class Fuzzed:
    """A table held still and one socket of its person's seat, with the view it started from."""

    name: str
    table_id: str
    token: str
    seat: SeatSocket
    connection: ClientConnection
    baseline: dict[str, Any]
    version: int
    legal: frozenset[str]
    mine: tuple[str, ...]
    """The person's cards."""
    hidden: tuple[str, ...]
    """Cards of the other seat and of the stock."""
    markers: int = 0

    def __repr__(self) -> str:  # hypothesis prints the fixtures of a failing example
        return f"Fuzzed({self.name!r}, {self.table_id}, version {self.version})"

    def sync(self) -> list[Frame]:
        """Send a ``pace`` marker; every frame that came before its view."""
        self.markers += 1
        ms = 1 + self.markers % MAX_PACE_MS  # never 0: the computer's clock must stay still
        self.seat.send("pace", {"ms": ms})
        before: list[Frame] = []
        while True:
            try:
                frame = self.seat.recv()
            except ConnectionClosed as closed:
                said = closed.rcvd or "without a close frame (1006)"
                raise AssertionError(f"{self.name}: the socket was closed {said}") from None
            if frame["t"] == "view" and frame["d"]["pace_ms"] == ms:
                self.check_unchanged(frame)
                return before
            before.append(frame)

    def check_unchanged(self, frame: Frame) -> None:
        """A view of the table as it was (the pace aside)."""
        assert frame["v"] == self.version, f"{self.name}: the version moved: {frame}"
        assert {**frame["d"], "pace_ms": None} == {**self.baseline, "pace_ms": None}, self.name


@dataclass
class Bystander:
    """A table played by another client meanwhile, the computer at pace 0."""

    table_id: str
    token: str
    seat: SeatSocket
    connection: ClientConnection
    turns: int = 0

    def check_quiet(self) -> None:
        """Nothing came while only the fuzzed tables were sent messages."""
        try:
            text = self.connection.recv(timeout=0)
        except TimeoutError:
            return
        raise AssertionError(f"the other table sent a frame it was not asked for: {text!r}")

    def play_a_turn(self, server: LiveServer) -> None:
        """One turn of its own (or the next deal), then the computer's; the versions move one
        by one and the view is the one the HTTP API gives."""
        view, before = self.seat.view, self.seat.version
        if view["game_over"]:
            return
        if view["phase"] == "over":
            self.seat.send("next", version=before)
        else:
            self.seat.send("act", {"action": simple_choice(view["legal"])}, version=before)
        start = len(self.seat.frames)
        self.seat.until(
            lambda frame: (
                frame["t"] == "view"
                and frame["v"] > before
                and (frame["d"]["phase"] == "over" or is_my_turn(frame["d"]))
            )
        )
        last = before
        for frame in self.seat.frames[start:]:
            # each action is announced at the version it made, then shown; a new deal is a
            # view one version on; the stock's notices come with the action that made them
            if frame["t"] == "notice":
                assert frame["v"] in (last, last + 1) and frame["d"]["kind"], frame
                continue
            assert frame["t"] in ("event", "view"), frame
            assert frame["v"] == last + 1 or (frame["t"] == "view" and frame["v"] == last), (
                f"the other table's version jumped from {last}: {frame}"
            )
            last = frame["v"]
        assert server.view(self.table_id, self.token) == {
            **self.seat.view,
            "version": self.seat.version,
        }
        self.turns += 1


@dataclass
class Tables:
    server: LiveServer
    fuzzed: tuple[Fuzzed, ...]
    bystander: Bystander

    def __repr__(self) -> str:
        return f"Tables({self.server.url}, {self.fuzzed}, bystander {self.bystander.table_id})"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, log: _Collector) -> Iterator[LiveServer]:
    live = LiveServer(
        tmp_path_factory.mktemp("fuzz") / "tables.sqlite3", free_port(), sleep=ManualClock().sleep
    )
    live.start()
    yield live
    live.stop()


def _seed_where_computer_starts() -> int:
    return next(seed for seed in range(1000) if seeded_deal(seed, 2)[0] == 0)


def _fuzzed(
    server: LiveServer, sockets: contextlib.ExitStack, name: str, seed: int, draw: bool
) -> Fuzzed:
    table_id, token = server.create_table(seed=seed)
    connection = sockets.enter_context(server.seat_socket(table_id, token))
    seat = SeatSocket(LiveSocket(connection, timeout=STUCK_S))
    seat.recv()
    if draw:  # the play phase: more of the person's actions can be refused
        seat.act("draw stock")
    position = truth_by_version(server.store_path, table_id)[seat.version]
    view = seat.view
    return Fuzzed(
        name=name,
        table_id=table_id,
        token=token,
        seat=seat,
        connection=connection,
        baseline=view,
        version=seat.version,
        legal=frozenset(view["legal"]),
        mine=tuple(view["hand"]),
        hidden=(*position.hands[1], *position.stock),
    )


@pytest.fixture(scope="module")
def tables(server: LiveServer) -> Iterator[Tables]:
    """Two tables held still for the fuzz (the person to play; the computer to play, its
    clock never moving) and a third one played meanwhile."""
    with contextlib.ExitStack() as sockets:
        mine = _fuzzed(server, sockets, "my turn", seed_where_human_starts(), draw=True)
        theirs = _fuzzed(server, sockets, "their turn", _seed_where_computer_starts(), draw=False)
        assert is_my_turn(mine.baseline) and not is_my_turn(theirs.baseline)
        table_id, token = server.create_table(seed=seed_where_human_starts(start=100))
        connection = sockets.enter_context(server.seat_socket(table_id, token))
        seat = SeatSocket(LiveSocket(connection, timeout=STUCK_S))
        assert is_my_turn(seat.set_pace(0)["d"])
        yield Tables(server, (mine, theirs), Bystander(table_id, token, seat, connection))


# ----- hostile messages --------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)

KINDS = st.sampled_from((*CLIENT_TYPES, "view", "event", "refused", "ACT", "", "act ")) | st.text(
    max_size=8
)

FOREIGN_DIGITS = st.characters(categories=["Nd", "No", "Nl"]).filter(lambda c: not c.isascii())


def _envelope(kind: str, version: Any, data: Any) -> str:
    return json.dumps({"t": kind, "v": version, "d": data})


def action_texts(table: Fuzzed) -> st.SearchStrategy[str]:
    """Actions of every shape: verbs, cards of every seat and of the stock, junk numbers, a
    seat written in front, and plain text."""
    cards = st.sampled_from(table.mine + table.hidden) | st.sampled_from(
        ("Zz", "10h", "1h", "X", "X=7h", "X=X", "7H", "♥7", "🃏")
    )
    numbers = st.integers(-3, 10).map(str) | st.integers(10**15, 10**60).map(str) | FOREIGN_DIGITS
    words = st.lists(cards | numbers | st.sampled_from(("stock", "discard")), max_size=5)
    verbs = st.sampled_from(("draw", "meld", "layoff", "discard", "DRAW", "pass", "1", "0 draw"))
    grammar = st.builds(lambda verb, rest: " ".join([verb, *rest]), verbs, words)
    other_seat = st.builds(lambda seat, text: f"{seat} {text}", st.integers(0, 7), grammar)
    return grammar | other_seat | st.text(max_size=40)


def well_formed_actions(table: Fuzzed) -> st.SearchStrategy[str]:
    """Readable actions with the person's cards and others' (the other seat's hand, the
    stock): the table, not the parser, must refuse them."""
    cards = st.sampled_from(table.mine) | st.sampled_from(table.hidden)
    return st.one_of(
        st.sampled_from(("draw stock", "draw discard", "draw discard 2")),
        st.sampled_from(table.hidden).map(lambda card: f"discard {card}"),
        st.lists(cards, min_size=3, max_size=4, unique=True).map(
            lambda chosen: "meld " + " ".join(chosen)
        ),
        st.builds(lambda card, meld: f"layoff {card} {meld}", cards, st.integers(0, 3)),
    )


def harmless(table: Fuzzed, message: str | bytes) -> bool:
    """Whether ``message`` must leave the table as it is: anything but a valid ``pace``, a
    ``redeal`` or a legal action at the current version."""
    try:
        parsed = parse_client_message(message)
    except ProtocolError:
        return True
    match parsed:
        case Pace():
            return False
        case Redeal() | Act() if parsed.v != table.version:
            return True
        case Redeal():
            return False
        case Act():
            try:
                action = str(parse_action(f"0 {parsed.d.action}"))
            except InvalidActionError:
                return True
            return action.split(" ", 1)[1] not in table.legal
        case _:
            return True  # a hint, or the next deal before this one is over


def hostile_messages(table: Fuzzed) -> st.SearchStrategy[str | bytes]:
    """Messages the table must refuse (or answer with a hint) without changing."""
    current = table.version
    stale = st.integers(0, 2**53 - 1).filter(lambda v: v != current)
    any_version = st.just(current) | stale | JSON_VALUES
    acts = st.builds(
        lambda version, text: (version, text), st.just(current) | stale, action_texts(table)
    )
    depth = st.integers(1, 1200)
    return st.one_of(
        st.text(max_size=120),
        JSON_VALUES.map(json.dumps),
        st.builds(_envelope, KINDS, any_version, JSON_VALUES),
        acts.map(lambda pair: _envelope("act", pair[0], {"action": pair[1]})),
        well_formed_actions(table).map(lambda text: _envelope("act", current, {"action": text})),
        st.builds(_envelope, st.sampled_from(("next", "hint")), any_version, st.just({})),
        stale.map(lambda version: _envelope("redeal", version, {})),
        st.builds(
            _envelope,
            st.just("pace"),
            any_version,
            st.builds(
                lambda ms: {"ms": ms},
                st.integers(max_value=-1) | st.integers(min_value=MAX_PACE_MS + 1) | JSON_VALUES,
            ),
        ),
        depth.map(lambda n: "[" * n + "]" * n),
        depth.map(lambda n: '{"t": "act", "v": 1, "d": ' + '{"a": ' * n + "1" + "}" * n + "}"),
        st.integers(16, 4000).map(lambda n: _envelope("hint", 0, {}).replace("0", "9" * n, 1)),
        st.integers(16, 4000).map(lambda n: '{"t": "pace", "v": 1, "d": {"ms": -' + "9" * n + "}}"),
        st.integers(MAX_MESSAGE_CHARS + 1, MAX_SOCKET_MESSAGE_BYTES).map(lambda n: "x" * n),
        st.binary(max_size=200),
    ).filter(lambda message: harmless(table, message))


def _needs_no_answer(message: str | bytes) -> bool:
    """Whether a message is a well-formed ``bye`` (the page closing: the socket closes right
    after it) or ``beat`` (the page's answer to the server's beat): neither is answered, and
    neither changes a view."""
    if not isinstance(message, str):
        return False
    try:
        return isinstance(parse_client_message(message), Bye | BeatBack)
    except ProtocolError:
        return False


def check_answers(table: Fuzzed, sent: list[str | bytes], frames: list[Frame]) -> None:
    """One answer to each message (a well-formed ``bye`` or ``beat`` aside): a refusal with a
    code and a sentence, or a hint; views only of the unchanged table; nothing played."""
    answers = [frame for frame in frames if frame["t"] in ("refused", "hint")]
    expected = [message for message in sent if not _needs_no_answer(message)]
    assert len(answers) == len(expected), (sent, frames)
    for frame in frames:
        assert frame["t"] != "event", f"{table.name}: a hostile message was played: {frame}"
        if frame["t"] == "view":
            table.check_unchanged(frame)
        elif frame["t"] == "refused":
            assert frame["d"]["code"] in ERROR_CODES and frame["d"]["message"].strip()
            event(f"{table.name}: refused {frame['d']['code']}")
            assert frame["v"] == table.version
        else:
            assert table.name == "my turn", f"a hint out of turn: {frame}"
            event(f"{table.name}: hint")


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_every_hostile_message_is_answered_and_changes_nothing(
    tables: Tables, data: st.DataObject
) -> None:
    table = data.draw(st.sampled_from(tables.fuzzed), label="table")
    sent = data.draw(st.lists(hostile_messages(table), min_size=1, max_size=4), label="messages")
    for message in sent:
        table.connection.send(message)
    check_answers(table, sent, table.sync())
    tables.bystander.check_quiet()
    if data.draw(st.booleans(), label="the other table plays"):
        tables.bystander.play_a_turn(tables.server)


def test_a_bye_is_not_answered_and_changes_nothing(tables: Tables) -> None:
    """The one well-formed message with no answer: the page says it is closing, and the
    table stays as it was (its seat is still connected, so nobody plays for it)."""
    for table in tables.fuzzed:
        sent: list[str | bytes] = [json.dumps({"t": "bye", "v": table.version, "d": {}})]
        table.connection.send(sent[0])
        check_answers(table, sent, table.sync())


def _close_of(connection: ClientConnection) -> tuple[int, str]:
    """Read until the server closes; its close code and reason (every frame before it is a
    refusal or a view)."""
    try:
        while True:
            connection.recv(timeout=STUCK_S)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "closed without a close frame (1006)"
        return closed.rcvd.code, closed.rcvd.reason


@settings(max_examples=10, deadline=None)
@given(
    size=st.integers(MAX_SOCKET_MESSAGE_BYTES + 1, 8 * MAX_SOCKET_MESSAGE_BYTES),
    binary=st.booleans(),
)
def test_an_oversized_frame_closes_its_socket_with_a_code_and_a_reason(
    tables: Tables, size: int, binary: bool
) -> None:
    table = tables.fuzzed[0]
    with tables.server.seat_socket(table.table_id, table.token) as connection:
        connection.recv(timeout=STUCK_S)  # the view
        connection.send(b"x" * size if binary else "x" * size)
        code, reason = _close_of(connection)
    assert code in CLOSE_CODES and reason.strip()
    check_unchanged_over_http(tables.server, table)
    check_answers(table, [], table.sync())  # the seat's other socket got nothing
    tables.bystander.check_quiet()


def check_unchanged_over_http(server: LiveServer, table: Fuzzed) -> None:
    """The table as the HTTP API gives it is the one the fuzz began with (the pace aside)."""
    view = server.view(table.table_id, table.token)
    table.check_unchanged({"t": "view", "v": view.pop("version"), "d": view})


def test_a_flood_closes_only_its_own_socket_4429(tmp_path: Path, tables: Tables) -> None:
    """More messages than the per-socket limit, on a server with the real ``Limits()``."""
    limited = LiveServer(tmp_path / "limited.sqlite3", free_port(), ManualClock().sleep, Limits())
    limited.start()
    try:
        table_id, token = limited.create_table(seed=seed_where_human_starts())
        burst = Limits().socket_burst
        assert burst is not None
        flood = 5 * burst
        with limited.seat_socket(table_id, token) as connection:
            first = json.loads(connection.recv(timeout=STUCK_S))
            stale = _envelope("act", first["v"] + 1, {"action": "draw stock"})
            try:
                for _ in range(flood):
                    connection.send(stale)
            except ConnectionClosed:
                pass  # closed while still sending: the close frame says why
            code, reason = _close_of(connection)
        assert code == CloseCode.TOO_MANY_MESSAGES and reason == TOO_MANY_MESSAGES
        # the seat and its table are still served, unchanged
        assert limited.view(table_id, token)["version"] == first["v"]
        with limited.seat_socket(table_id, token) as connection:
            seat = SeatSocket(LiveSocket(connection, timeout=STUCK_S))
            assert seat.recv()["v"] == first["v"]
            assert len(seat.act("draw stock")["d"]["hand"]) == len(first["d"]["hand"]) + 1
    finally:
        limited.stop()
    tables.bystander.check_quiet()
    tables.bystander.play_a_turn(tables.server)


# ----- POST /api/tables --------------------------------------------------------------------------

TABLE_FIELDS = ("preset", "rules", "opponents", "name", "practice", "seed")

BODIES = st.one_of(
    st.binary(max_size=300),
    st.binary(min_size=1, max_size=60).map(lambda junk: b'{"name": "' + junk + b'\xff"}'),
    st.integers(1, 3000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(1, 3000).map(lambda n: b'{"rules": ' + b'{"a": ' * n + b"1" + b"}" * (n + 1)),
    st.builds(
        lambda name, n: json.dumps({name: 0}).replace("0", "9" * n).encode(),
        st.sampled_from(TABLE_FIELDS),
        st.integers(16, 5000),
    ),
    st.builds(
        lambda option, n: json.dumps({"rules": {option: 0}}).replace("0", "9" * n).encode(),
        st.sampled_from(("target", "deals", "jokers", "renewals", "hand_size")),
        st.integers(16, 5000),
    ),
    JSON_VALUES.map(lambda value: json.dumps(value).encode()),
    st.dictionaries(st.sampled_from(TABLE_FIELDS), JSON_VALUES, max_size=4).map(
        lambda body: json.dumps(body).encode()
    ),
)


@settings(max_examples=150, deadline=None)
@given(body=BODIES)
def test_any_body_for_a_new_table_is_answered_4xx_with_a_sentence(
    server: LiveServer, body: bytes
) -> None:
    status, content_type, answer = server.post("/api/tables", body)
    assert status < 500, answer
    assert content_type.startswith("application/json"), content_type
    data = json.loads(answer)
    if status == 200:  # a body that happened to be a valid table
        assert set(data) == {"table", "token", "seat"}
    else:
        assert 400 <= status < 500
        assert isinstance(data["error"], str) and data["error"].strip(), data


# ----- afterwards ---------------------------------------------------------------------------------


def test_after_the_fuzz_the_tables_are_unchanged_and_a_new_game_plays_to_its_end(
    tables: Tables,
) -> None:
    for table in tables.fuzzed:
        check_unchanged_over_http(tables.server, table)
        check_answers(table, [], table.sync())
    tables.bystander.check_quiet()
    tables.bystander.play_a_turn(tables.server)
    assert tables.bystander.turns > 1, "the other table was hardly played"
    table_id, token = tables.server.create_table(
        opponents=["basic", "basic"], rules={"deals": 1}, seed=3
    )
    with tables.server.seat_socket(table_id, token) as connection:
        seat = SeatSocket(LiveSocket(connection, timeout=STUCK_S))
        seat.set_pace(0)
        last = play_until(seat, lambda view: bool(view["game_over"]))
    assert last["game_over"] and last["phase"] == "over"
