"""The table's WebSocket protocol and HTTP API: every refusal answered, seats and tokens.

Each refusal must come back as ``{"t": "refused", "v": V, "d": {"code", "message"}}`` at the
table's current version, and must change nothing. The computer is held back by the tables'
``ManualClock`` (conftest): it moves only at pace 0 or when a test advances the clock.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.core.cards import Card
from rummykit.core.errors import IllegalActionError
from rummykit.core.melds import arrange_meld
from rummykit.core.rules import Aces
from rummykit.server.protocol import CLIENT_TYPES, ProtocolError, parse_client_message
from rummykit.server.table import Table
from table_client import SeatSocket, create_table, is_my_turn, seeded_deal

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
    with client.websocket_connect(f"/ws/{table_id}?token={token}") as websocket:
        seat = SeatSocket(websocket)
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
        "act", "next", "redeal", "hint", "pace", "react", "bye", "leave", "rematch", "hello"
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

    monkeypatch.setattr(Table, "_handle", broken)
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
    url = f"/ws/{table_id}?token={token}"
    with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
        one, two = SeatSocket(first), SeatSocket(second)
        one.recv()
        two.recv()
        one.act("draw stock")
        seen = two.until(lambda frame: frame["t"] == "view" and frame["v"] == one.version)
        assert seen["d"]["hand"] == one.view["hand"]


# ----- seats and tokens --------------------------------------------------------------------


def _close_code(client: TestClient, url: str) -> int:
    """The code the server closed the socket with (before or just after accepting it)."""
    try:
        with client.websocket_connect(url) as websocket:
            websocket.receive_text()
    except WebSocketDisconnect as closed:
        return closed.code
    raise AssertionError(f"{url} was served a frame")


def test_socket_without_a_seat_is_closed_4404(client: TestClient) -> None:
    table_id, _ = create_table(client)
    assert _close_code(client, f"/ws/{table_id}?token=not-a-token") == 4404


@pytest.mark.parametrize("query", ["", "?token=", "?token=a&token=b", "?token=abc&seat=0"])
def test_socket_with_an_unreadable_query_is_closed_4400(client: TestClient, query: str) -> None:
    table_id, _ = create_table(client)
    assert _close_code(client, f"/ws/{table_id}{query}") == 4400


def test_socket_token_of_another_table_is_closed_4404(client: TestClient) -> None:
    first, _ = create_table(client)
    _, other_token = create_table(client)
    assert _close_code(client, f"/ws/{first}?token={other_token}") == 4404


def test_socket_to_an_unknown_table_is_closed_4404(client: TestClient) -> None:
    _, token = create_table(client)
    assert _close_code(client, f"/ws/no-such-table?token={token}") == 4404


def test_http_view_needs_the_seat_token(client: TestClient) -> None:
    table_id, token = create_table(client, seed=HUMAN_FIRST)
    missing = client.get(f"/api/tables/{table_id}")
    assert missing.status_code == 400 and "token" in missing.json()["error"]
    assert client.get(f"/api/tables/{table_id}?token=").status_code == 400
    assert client.get(f"/api/tables/{table_id}?token={'a' * 65}").status_code == 400
    assert client.get(f"/api/tables/{table_id}?token={token}&x=1").status_code == 400
    assert client.get(f"/api/tables/{table_id}?token=wrong").status_code == 404
    assert client.get(f"/api/tables/nothing?token={token}").status_code == 404
    answer = client.get(f"/api/tables/{table_id}?token={token}")
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
        ({"opponents": ["basic"] * 6}, "opponents"),
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
    assert options["levels"] == ["basic", "strong", "expert"]


def test_page_is_served(client: TestClient) -> None:
    answer = client.get("/")
    assert answer.status_code == 200
    assert "<html" in answer.text.lower() or "<!doctype html" in answer.text.lower()


def test_seed_makes_the_deal_reproducible(client: TestClient) -> None:
    views = []
    for _ in range(2):
        table_id, token = create_table(client, seed=12345)
        views.append(client.get(f"/api/tables/{table_id}?token={token}").json()["view"])
    assert views[0]["hand"] == views[1]["hand"]
    assert views[0]["discard"] == views[1]["discard"]
    dealer, deck = seeded_deal(12345, 2)
    assert views[0]["dealer"] == dealer
    assert views[0]["discard"] == [deck[20]]


def test_practice_table_explains_its_topics(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"practice": True, "seed": 3})
    assert answer.status_code == 200, answer.text
    table_id, token = answer.json()["table"], answer.json()["token"]
    with client.websocket_connect(f"/ws/{table_id}?token={token}") as websocket:
        seat = SeatSocket(websocket)
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
    view = client.get(f"/api/tables/{table_id}?token={token}").json()["view"]
    assert not view["practice"] and view["topics"] == []
