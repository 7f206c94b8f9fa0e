"""The table's WebSocket protocol and HTTP API: every refusal answered, seats and tokens.

Each refusal must come back as ``{"t": "refused", "v": V, "d": {"code", "message"}}`` at the
table's current version, and must change nothing. The computer is held back by the tables'
``ManualClock`` (conftest): it moves only at pace 0 or when a test advances the clock.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.core.cards import Card
from rummykit.core.errors import IllegalActionError
from rummykit.core.melds import arrange_meld
from rummykit.core.rules import Aces
from rummykit.protocol.limits import Limits
from rummykit.protocol.messages import CLIENT_TYPES, CloseCode, ProtocolError, parse_client_message
from rummykit.server.http.hello import HELLO_FIRST, NO_HELLO, NO_ONE
from rummykit.server.site.app import (
    NO_SEAT,
    NOT_WATCHABLE,
    TOKEN_IN_HEADER,
    TOKEN_IN_HELLO,
    create_app,
)
from rummykit.server.site.config import ServerConfig
from rummykit.server.tables.intents import Intents
from table_client import (
    WORKERS,
    ManualClock,
    SeatSocket,
    bearer,
    create_table,
    hello,
    is_my_turn,
    seat_connection,
    seeded_deal,
)

pytestmark = pytest.mark.timeout(60)


def _seed_where_human_starts() -> int:
    """A seed whose first deal is dealt by the computer (seat 1), so seat 0 acts first."""
    for seed in range(100):
        dealer, _ = seeded_deal(seed, 2)
        if dealer == 1:
            return seed
    raise AssertionError("no seed found")


HUMAN_FIRST = _seed_where_human_starts()


@pytest.fixture
def seat(client: TestClient) -> Iterator[SeatSocket]:
    """Seat 0 of a two-seat classic table where seat 0 acts first, the computer held back
    (the clock stands still: nothing moves unless we act)."""
    table_id, token = create_table(client, seed=HUMAN_FIRST)
    with seat_connection(client, table_id, token) as seat:
        first = seat.recv()
        assert first["t"] == "view" and first["v"] == 1
        assert is_my_turn(first["d"])
        yield seat


def _refusal(seat: SeatSocket, code: str) -> dict[str, Any]:
    frame = seat.refused()
    assert frame["d"]["code"] == code, frame
    assert isinstance(frame["d"]["message"], str) and frame["d"]["message"].strip()
    return frame


# ----- messages that cannot be read ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('"act"', "JSON object"),
        (json.dumps({"t": "fly", "v": 1, "d": {}}), "Unknown message type t='fly'"),
        (json.dumps({"v": 1, "d": {}}), "no type t"),
        (json.dumps({"t": "act", "d": {"action": "draw stock"}}), "v: Field required"),
        (json.dumps({"t": "act", "v": "1", "d": {"action": "draw stock"}}), "v: "),
        (json.dumps({"t": "act", "v": True, "d": {"action": "draw stock"}}), "v: "),
        (json.dumps({"t": "act", "v": -1, "d": {"action": "draw stock"}}), "v: "),
        (json.dumps({"t": "act", "v": 1, "d": []}), "d: "),
        (json.dumps({"t": "act", "v": 1}), "d: Field required"),
        (json.dumps({"t": "act", "v": 1, "d": {}}), "d.action: Field required"),
        (json.dumps({"t": "act", "v": 1, "d": {"action": "   "}}), "d.action: "),
        (json.dumps({"t": "act", "v": 1, "d": {"action": 7}}), "d.action: "),
        (json.dumps({"t": "act", "v": 1, "d": {"action": "x" * 201}}), "d.action: "),
        (json.dumps({"t": "act", "v": 1, "d": {"action": "draw", "seat": 1}}), "d.seat: "),
        (json.dumps({"t": "hint", "v": 1, "d": {}, "x": 1}), "x: "),
        (json.dumps({"t": "next", "v": 1, "d": {"now": True}}), "d.now: "),
        (json.dumps({"t": "pace", "v": 1, "d": {"ms": -1}}), "d.ms: "),
        (json.dumps({"t": "pace", "v": 1, "d": {"ms": 5001}}), "d.ms: "),
        (json.dumps({"t": "pace", "v": 1, "d": {"ms": "fast"}}), "d.ms: "),
        (json.dumps({"t": "pace", "v": 1, "d": {"ms": 700.0}}), "d.ms: "),
        ("x" * 5000, "longer than"),
    ],
)
def test_unreadable_message_is_refused_with_bad_message(
    seat: SeatSocket, text: str, words: str
) -> None:
    version = seat.version
    seat.send_raw(text)
    frame = _refusal(seat, "bad_message")
    assert words in frame["d"]["message"]
    assert frame["v"] == version
    # the connection stays open and the table unchanged: a good message still works
    seat.send("hint")
    assert seat.until(lambda frame: frame["t"] == "hint")["v"] == version


def test_binary_message_is_refused_with_bad_message(seat: SeatSocket) -> None:
    seat.ws.send_bytes(json.dumps({"t": "hint", "v": seat.version, "d": {}}).encode())
    assert "text" in _refusal(seat, "bad_message")["d"]["message"]
    seat.send("hint")
    seat.until(lambda frame: frame["t"] == "hint")


def test_parser_accepts_every_client_type() -> None:
    assert CLIENT_TYPES == (
        "act", "next", "redeal", "hint", "pace", "react", "bye", "leave", "rematch", "hello",
        "beat",
    )  # fmt: skip
    data_of = {
        "act": {"action": "draw stock"},
        "pace": {"ms": 0},
        "react": {"reaction": "thanks"},
        "hello": {"token": "abc"},
    }
    for kind in CLIENT_TYPES:
        data = data_of.get(kind, {})
        message = parse_client_message(json.dumps({"t": kind, "v": 3, "d": data}))
        assert (message.t, message.v) == (kind, 3)
    with pytest.raises(ProtocolError):
        parse_client_message(json.dumps({"t": "view", "v": 3, "d": {}}))


# ----- intents the table refuses ---------------------------------------------------------


def test_unreadable_action_is_refused_with_bad_action(seat: SeatSocket) -> None:
    version = seat.version
    seat.send("act", {"action": "fly away"})
    frame = _refusal(seat, "bad_action")
    assert frame["v"] == version
    seat.send("act", {"action": "discard Zz"})
    _refusal(seat, "bad_action")


def test_an_intent_that_fails_inside_the_table_is_still_answered(
    seat: SeatSocket, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError("a bug in the table")

    monkeypatch.setattr(Intents, "handle", broken)
    version = seat.version
    seat.send("act", {"action": "draw stock"})
    frame = _refusal(seat, "bad_message")
    assert frame["v"] == version and "changed nothing" in frame["d"]["message"]


@pytest.mark.parametrize("action", ["draw discard ²", "layoff Kc ①", "layoff Kc " + "9" * 150])
def test_numbers_that_are_no_numbers_are_refused_with_bad_action(
    seat: SeatSocket, action: str
) -> None:
    # "²" passes str.isdigit() but not int(): such an action was never answered.
    seat.send("act", {"action": action})
    _refusal(seat, "bad_action")


def test_illegal_meld_is_refused_naming_its_cards(seat: SeatSocket) -> None:
    view = seat.act("draw stock")["d"]
    hand = [Card.parse(text) for text in view["hand"]]
    # three cards that are neither a set nor a run
    chosen = None
    for i, first in enumerate(hand):
        for j in range(i + 1, len(hand)):
            for k in range(j + 1, len(hand)):
                trio = (first, hand[j], hand[k])
                try:
                    arrange_meld(trio, (), Aces.LOW)
                except IllegalActionError:
                    chosen = trio
                    break
            if chosen:
                break
        if chosen:
            break
    assert chosen is not None
    version = seat.version
    seat.send("act", {"action": "meld " + " ".join(str(card) for card in chosen)})
    frame = _refusal(seat, "invalid_meld")
    assert frame["v"] == version
    for card in chosen:
        assert card.symbol in frame["d"]["message"], frame
    # nothing changed: the hand is still whole
    seat.send("hint")
    seat.until(lambda frame: frame["t"] == "hint")


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("discard {card}", "wrong_phase"),  # before drawing
        ("meld {card} {card} {card}", "wrong_phase"),
        ("draw discard 2", "discard_take_not_allowed"),
    ],
)
def test_illegal_action_before_drawing(seat: SeatSocket, action: str, code: str) -> None:
    card = seat.view["hand"][0]
    version = seat.version
    seat.send("act", {"action": action.format(card=card)})
    frame = _refusal(seat, code)
    assert frame["v"] == version


def test_card_not_in_hand_names_the_card(seat: SeatSocket) -> None:
    view = seat.act("draw stock")["d"]
    missing = next(
        card for card in ("Ks", "Kh", "Kd", "Kc", "Qs", "Qh") if card not in view["hand"]
    )
    seat.send("act", {"action": f"discard {missing}"})
    frame = _refusal(seat, "card_not_in_hand")
    assert Card.parse(missing).symbol in frame["d"]["message"]


def test_acting_out_of_turn_is_refused(seat: SeatSocket) -> None:
    seat.act("draw stock")
    view = seat.act("discard " + seat.view["hand"][-1])["d"]
    assert view["turn"] == 1  # the computer's turn; it waits for the clock
    version = seat.version
    seat.send("act", {"action": "draw stock"})
    frame = _refusal(seat, "not_your_turn")
    assert frame["v"] == version


def test_stale_version_is_refused_and_the_view_follows(seat: SeatSocket) -> None:
    version = seat.version
    seat.send("act", {"action": "draw stock"}, version=version - 1)
    frame = _refusal(seat, "stale")
    assert frame["v"] == version
    follow = seat.recv()
    assert follow["t"] == "view" and follow["v"] == version
    assert follow["d"]["phase"] == "draw"  # the stale draw was not played
    # a version from the future is just as stale
    seat.send("act", {"action": "draw stock"}, version=version + 5)
    _refusal(seat, "stale")
    seat.act("draw stock")


def test_next_before_the_deal_is_over_is_refused(seat: SeatSocket) -> None:
    version = seat.version
    seat.send("next")
    frame = _refusal(seat, "wrong_phase")
    assert frame["v"] == version


def test_hint_on_your_turn_and_refused_when_not(seat: SeatSocket) -> None:
    seat.send("hint")
    frame = seat.until(lambda frame: frame["t"] in ("hint", "refused"))
    assert frame["t"] == "hint", frame
    assert frame["d"]["action"] in seat.view["legal"]
    assert frame["d"]["reason"].strip()
    seat.act("draw stock")
    seat.act("discard " + seat.view["hand"][-1])
    assert seat.view["turn"] == 1
    seat.send("hint")
    _refusal(seat, "not_your_turn")


def test_pace_is_answered_with_a_view(seat: SeatSocket) -> None:
    frame = seat.set_pace(0)
    assert frame["d"]["pace_ms"] == 0


def test_each_connection_of_a_seat_gets_the_views(client: TestClient) -> None:
    table_id, token = create_table(client, seed=HUMAN_FIRST)
    with (
        seat_connection(client, table_id, token) as one,
        seat_connection(client, table_id, token) as two,
    ):
        one.recv()
        two.recv()
        one.act("draw stock")
        seen = two.until(lambda frame: frame["t"] == "view" and frame["v"] == one.version)
        assert seen["d"]["hand"] == one.view["hand"]


# ----- seats and tokens --------------------------------------------------------------------


def _closed(client: TestClient, path: str, first: str | bytes | None) -> tuple[int, str]:
    """The code and reason the server closed the socket at ``path`` with, ``first`` sent as
    its first message (``None``: nothing)."""
    try:
        with client.websocket_connect(path) as websocket:
            if isinstance(first, bytes):
                websocket.send_bytes(first)
            elif first is not None:
                websocket.send_text(first)
            websocket.receive_text()
    except WebSocketDisconnect as closed:
        return closed.code, closed.reason
    raise AssertionError(f"{path} was served a frame")


@pytest.mark.parametrize("who", ["not-a-token", "other table", "no table", "watch"])
def test_a_hello_that_holds_no_seat_is_closed_4404(client: TestClient, who: str) -> None:
    table_id, token = create_table(client)
    _, other_token = create_table(client)
    first = {
        "not-a-token": hello("not-a-token"),
        "other table": hello(other_token),
        "no table": hello(token),
        "watch": hello(None),  # a table of one person and the computer is not watched
    }[who]
    path = "/ws/no-such-table" if who == "no table" else f"/ws/{table_id}"
    reason = NOT_WATCHABLE if who == "watch" else NO_SEAT
    assert _closed(client, path, first) == (CloseCode.NO_SEAT, reason)


def test_a_hello_with_neither_token_nor_watch_is_closed_4400_as_a_mistake(
    client: TestClient,
) -> None:
    table_id, _ = create_table(client)
    nobody = json.dumps({"t": "hello", "v": 0, "d": {}})
    assert _closed(client, f"/ws/{table_id}", nobody) == (CloseCode.BAD_QUERY, NO_ONE)


@pytest.mark.parametrize(
    ("first", "words"),
    [
        ('{"t": "act", "v": 1, "d": {"action": "draw stock"}}', HELLO_FIRST),
        (b'{"t": "hello", "v": 0, "d": {"token": "abc"}}', HELLO_FIRST),  # binary
        ("not json", "not JSON"),
        ('{"t": "hello", "v": 0, "d": {"token": "a b"}}', "d.token"),
        ('{"t": "hello", "v": 0, "d": {"token": "' + "a" * 65 + '"}}', "d.token"),
        ('{"t": "hello", "v": -1, "d": {"token": "abc"}}', "v:"),
        ('{"t": "hello", "v": 0, "d": {"token": "abc", "seat": 0}}', "d.seat"),
    ],
)
def test_a_first_message_that_is_no_readable_hello_is_closed_4400_saying_why(
    client: TestClient, first: str | bytes, words: str
) -> None:
    table_id, _ = create_table(client)
    code, reason = _closed(client, f"/ws/{table_id}", first)
    assert code == CloseCode.BAD_QUERY
    assert words in reason, reason


def test_a_socket_that_says_no_hello_in_time_is_closed_4400(
    store_path: Path, clock: ManualClock
) -> None:
    limits = dataclasses.replace(Limits.unlimited(), header_timeout_s=0.05)
    app = create_app(
        ServerConfig(store_path=store_path, accept_seeds=True, limits=limits),
        sleep=clock.sleep,
        workers=WORKERS,
    )
    with TestClient(app) as slow:
        table_id, token = create_table(slow)
        assert _closed(slow, f"/ws/{table_id}", None) == (CloseCode.BAD_QUERY, NO_HELLO)
        with seat_connection(slow, table_id, token) as seat:  # one that says it at once plays
            assert seat.recv()["t"] == "view"


@pytest.mark.parametrize("query", ["?token={token}", "?token=", "?x=1", "?token=a&token=b"])
@pytest.mark.parametrize("says_hello", [False, True])
def test_a_socket_whose_address_has_a_query_is_closed_4400_saying_where_the_token_goes(
    client: TestClient, query: str, says_hello: bool
) -> None:
    """A token in the address is not read, even a good one with its hello behind it."""
    table_id, token = create_table(client)
    first = hello(token) if says_hello else None
    path = f"/ws/{table_id}" + query.format(token=token)
    assert _closed(client, path, first) == (CloseCode.BAD_QUERY, TOKEN_IN_HELLO)


def test_http_view_needs_the_seat_token_in_its_header(client: TestClient) -> None:
    table_id, token = create_table(client, seed=HUMAN_FIRST)
    path = f"/api/tables/{table_id}"
    for refused in (
        client.get(path),
        client.get(f"{path}?token={token}"),  # the address is never read for a token
        client.get(f"{path}?token={token}", headers=bearer(token)),
        client.get(f"{path}?x=1", headers=bearer(token)),
    ):
        assert refused.status_code == 400
        assert refused.json()["error"] == TOKEN_IN_HEADER
    assert client.get(path, headers={"Authorization": f"Basic {token}"}).status_code == 400
    assert client.get(path, headers=bearer("a" * 65)).status_code == 400
    assert client.get(path, headers=bearer("wrong")).status_code == 404
    assert client.get("/api/tables/nothing", headers=bearer(token)).status_code == 404
    answer = client.get(path, headers=bearer(token))
    assert answer.status_code == 200
    body = answer.json()
    assert body["seat"] == 0 and body["version"] == 1
    assert len(body["view"]["hand"]) == 10
    assert isinstance(body["view"]["stock"], int)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"preset": "nope"}, "preset"),
        ({"opponents": ["grandmaster"]}, "opponents.0"),
        ({"opponents": []}, "opponents"),
        ({"opponents": ["basic"] * 8}, "opponents"),
        ({"rules": {"decks": 3}}, "decks"),
        ({"rules": {"no_such_option": 1}}, "no_such_option"),
        ({"preset": "practice", "opponents": ["basic", "basic"]}, "seats"),
    ],
)
def test_bad_table_settings_are_refused_400(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400, answer.text
    assert words.lower() in answer.json()["error"].lower()


def test_table_settings_must_be_a_json_object(client: TestClient) -> None:
    assert client.post("/api/tables", content=b"{oops").status_code == 400
    assert client.post("/api/tables", json=[1, 2]).status_code == 400


def test_options_list_presets_rules_and_levels(client: TestClient) -> None:
    options = client.get("/api/options").json()
    assert {"classic", "standard", "practice", "party"} <= set(options["presets"])
    assert all(option["help"] for option in options["options"])
    assert options["levels"] == ["basic", "strong", "expert", "master"]


def test_page_is_served(client: TestClient) -> None:
    answer = client.get("/")
    assert answer.status_code == 200
    assert "<html" in answer.text.lower() or "<!doctype html" in answer.text.lower()


def test_seed_makes_the_deal_reproducible(client: TestClient) -> None:
    views = []
    for _ in range(2):
        table_id, token = create_table(client, seed=12345)
        views.append(client.get(f"/api/tables/{table_id}", headers=bearer(token)).json()["view"])
    assert views[0]["hand"] == views[1]["hand"]
    assert views[0]["discard"] == views[1]["discard"]
    dealer, deck = seeded_deal(12345, 2)
    assert views[0]["dealer"] == dealer
    assert views[0]["discard"] == [deck[20]]


def test_practice_table_explains_its_topics(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"practice": True, "seed": 3})
    assert answer.status_code == 200, answer.text
    table_id, token = answer.json()["table"], answer.json()["token"]
    with seat_connection(client, table_id, token) as seat:
        view = seat.recv()["d"]
        assert view["practice"] and view["preset"] == "practice"
        assert [player["level"] for player in view["players"]] == [None, "strong"]
        seat.set_pace(0)
        view = seat.my_turn_view()["d"]
        assert "draw" in view["topics"]
        view = seat.act("draw stock")["d"]
        assert "discard" in view["topics"] and "draw" not in view["topics"]


def test_topics_are_only_for_practice(client: TestClient) -> None:
    table_id, token = create_table(client, seed=HUMAN_FIRST)
    view = client.get(f"/api/tables/{table_id}", headers=bearer(token)).json()["view"]
    assert not view["practice"] and view["topics"] == []
