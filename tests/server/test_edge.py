"""The server's edge: every request body, query and socket message is read once into typed
models; whatever cannot be read is answered 4xx (HTTP) or ``refused`` with ``bad_message``
(socket), with a sentence naming the field, never a 500 and never a silent default.

Also: the published JSON Schema is the one the models make, every error code is in the
README, and the computer waits for the table's clock, not the wall's.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from rummykit.core.errors import ErrorCode
from rummykit.core.rules import MAX_SEATS
from rummykit.protocol.api import MAX_BODY_BYTES, NewTable
from rummykit.protocol.codes import ServerCode
from rummykit.protocol.messages import (
    CLIENT_MESSAGES,
    POSITION_WORDS,
    SERVER_MESSAGES,
    CloseCode,
    Pace,
    PaceData,
    PlayerView,
    ProtocolError,
    RefusedMessage,
    SeatView,
    ServerMessage,
    parse_client_message,
)
from rummykit.protocol.schema import schema_text
from rummykit.protocol.settings import BotPlayer
from rummykit.server.store.store import Store
from rummykit.server.tables.new_table import COMPUTER_NAMES
from rummykit.server.tables.table import deal_new_table, new_table_settings
from table_client import (
    WORKERS,
    ManualClock,
    SeatSocket,
    create_table,
    is_my_turn,
    seat_connection,
    seed_where_human_starts,
)

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]


def refused_400(client: TestClient, body: Any, *, status: int = 400) -> str:
    """POST ``body`` (JSON unless bytes); the error sentence of the 4xx answer."""
    if isinstance(body, bytes):
        answer = client.post(
            "/api/tables", content=body, headers={"Content-Type": "application/json"}
        )
    else:
        answer = client.post("/api/tables", json=body)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert isinstance(error, str) and error.strip()
    return error


# ----- the bugs of issue 7, each answered now ----------------------------------------------------


def test_practice_flag_must_be_a_boolean(client: TestClient) -> None:
    """``"practice": "false"`` used to make a practice table, dropping preset and opponents."""
    body = {"practice": "false", "preset": "party", "opponents": ["basic", "basic"]}
    assert refused_400(client, body).startswith("practice:")


def test_opponents_must_be_a_list_not_a_word(client: TestClient) -> None:
    """``"opponents": "basic"`` used to be read letter by letter ("Unknown level 'b'")."""
    error = refused_400(client, {"opponents": "basic"})
    assert error.startswith("opponents:") and "'b'" not in error


@pytest.mark.parametrize("seed", ["12", 1.5, True, [1]])
def test_seed_must_be_an_integer(client: TestClient, seed: Any) -> None:
    """A seed that is no integer used to become a random seed in silence."""
    assert refused_400(client, {"seed": seed}).startswith("seed:")


@pytest.mark.parametrize(
    "body",
    [
        b"\x80",  # not UTF-8: this one answered 500
        b'{"name": "\x80"}',
        b'{"name": "\\ud800"}',  # a lone surrogate
        b"{oops",
        b"",
        b"\xff\xfe{}",
        b"[1, 2]",
        b"null",
        b'"classic"',
        b"5",
        b"{}}",
    ],
)
def test_unreadable_body_is_400_never_500(client: TestClient, body: bytes) -> None:
    """Bodies that are not a JSON object; text that is not UTF-8 used to answer 500."""
    error = refused_400(client, body)
    assert "request body" in error


# ----- every kind of bad body ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        # wrong types
        ({"preset": 3}, "preset"),
        ({"preset": ["classic"]}, "preset"),
        ({"name": 5}, "name"),
        ({"rules": [["target", 50]]}, "rules"),
        ({"rules": "party"}, "rules"),
        ({"rules": {"target": {"value": 50}}}, "rules.target"),
        ({"rules": {"target": 1e300}}, "rules.target"),
        ({"opponents": [1]}, "opponents.0"),
        ({"opponents": ["Basic"]}, "opponents.0"),
        # extra fields
        ({"seats": 3}, "seats"),
        ({"preset": "classic", "token": "x"}, "token"),
        # empty or too much
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 25}, "name"),
        ({"preset": ""}, "preset"),
        ({"preset": "p" * 41}, "preset"),
        ({"opponents": []}, "opponents"),
        ({"opponents": ["basic"] * MAX_SEATS}, "opponents"),
        ({"opponents": ["basic"] * 1_000}, "opponents"),
        ({"rules": {f"option{n}": 1 for n in range(65)}}, "rules"),
        ({"rules": {"o" * 41: 1}}, "rules"),
        ({"rules": {"aces": "a" * 41}}, "rules.aces"),
        ({"rules": {"target": 2**40}}, "rules.target"),
        ({"rules": {"preset": "party"}}, "rules.preset"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
    ],
)
def test_bad_body_names_the_field(client: TestClient, body: dict[str, Any], field: str) -> None:
    error = refused_400(client, body)
    assert error.startswith(f"{field}") or f"{field}:" in error, error


def test_seven_or_eight_seats_with_one_deck_are_refused_with_the_reason(
    client: TestClient,
) -> None:
    error = refused_400(client, {"preset": "standard", "opponents": ["basic"] * 6})
    assert error == "7 seats need two decks: one deck serves 2 to 6 seats."
    made = client.post(
        "/api/tables",
        json={"preset": "standard", "rules": {"decks": 2}, "opponents": ["basic"] * 7},
    )
    assert made.status_code == 200, made.text


def test_body_past_the_size_limit_is_413(client: TestClient) -> None:
    body = json.dumps({"name": "x" * (MAX_BODY_BYTES + 1)}).encode()
    assert "larger than" in refused_400(client, body, status=413)


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"target": 0}, "target"),
        ({"target": 50.5}, "whole number"),
        ({"aces": "sideways"}, "aces"),
        ({"decks": 3}, "decks"),
        ({"renewals": "many"}, "renewals"),
        ({"no_such_option": True}, "no_such_option"),
    ],
)
def test_rule_options_are_checked_by_the_rules(
    client: TestClient, rules: dict[str, Any], words: str
) -> None:
    assert words in refused_400(client, {"rules": rules})


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"practice": True, "preset": "party"}, "preset"),
        ({"practice": True, "rules": {"target": 50}}, "rules"),
        ({"practice": True, "opponents": ["basic", "basic"]}, "opponents"),
    ],
)
def test_practice_table_refuses_other_settings(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    """A practice table plays the practice rules: other settings are refused, not dropped."""
    assert refused_400(client, body).startswith(f"{field}:")


def test_the_lobbys_bodies_are_accepted(client: TestClient) -> None:
    """The bodies web/lobby.js sends, field for field."""
    game = {
        "name": "Ada",
        "practice": False,
        "preset": "party",
        "rules": {"target": 200, "renewals": None, "aces": "low_or_high"},
        "opponents": ["basic", "strong"],
    }
    practice = {
        "name": "You",
        "practice": True,
        "preset": "practice",
        "rules": {},
        "opponents": ["strong"],
    }
    for body in (game, practice):
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 200, answer.text
        assert set(answer.json()) == {"table", "token", "seat"}


def test_settings_left_out_take_their_documented_defaults(
    client: TestClient, store_path: Path
) -> None:
    answer = client.post("/api/tables", json={})
    assert answer.status_code == 200, answer.text
    store = Store(store_path)
    try:
        settings = store.settings(answer.json()["table"])
    finally:
        store.close()
    assert settings is not None
    assert settings.rules == "classic" and not settings.practice
    human, bot = settings.players
    assert (human.kind, human.name) == ("human", "You")
    assert isinstance(bot, BotPlayer) and bot.level == "basic"
    assert bot.name in COMPUTER_NAMES  # a computer player's own name, not its level


# ----- every kind of bad socket message --------------------------------------------------------


@pytest.fixture
def seat(client: TestClient) -> Any:
    table_id, token = create_table(client, seed=seed_where_human_starts())
    with seat_connection(client, table_id, token) as seat:
        assert is_my_turn(seat.recv()["d"])
        yield seat


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({"t": "act", "v": 1, "d": {"action": ["draw", "stock"]}}, "d.action:"),
        ({"t": "act", "v": 1.0, "d": {"action": "draw stock"}}, "v:"),
        ({"t": "act", "v": 2**53, "d": {"action": "draw stock"}}, "v:"),
        ({"t": "act", "v": 1, "d": None}, "d:"),
        ({"t": "pace", "v": 1, "d": {"ms": True}}, "d.ms:"),
        ({"t": "pace", "v": 1, "d": {}}, "d.ms:"),
        ({"t": "pace", "v": 1, "d": {"ms": 0, "seat": 1}}, "d.seat:"),
        ({"t": "redeal", "v": "1", "d": {}}, "v:"),
        ({"t": "next", "d": {}}, "v:"),
        ({"t": "view", "v": 1, "d": {}}, "message type t='view'"),
        ({"t": None, "v": 1, "d": {}}, "message type t="),
    ],
)
def test_bad_message_is_refused_naming_the_field(
    seat: SeatSocket, message: dict[str, Any], field: str
) -> None:
    version = seat.version
    seat.send_raw(json.dumps(message))
    frame = seat.refused()
    assert frame["d"]["code"] == "bad_message" and frame["v"] == version
    assert field in frame["d"]["message"], frame["d"]["message"]
    # the table is as it was
    seat.act("draw stock")


def test_every_client_message_reads_and_writes_the_same() -> None:
    """What the browser sends today reads into the models, and back to the same JSON."""
    for text in (
        '{"t": "act", "v": 41, "d": {"action": "discard Ks"}}',
        '{"t": "next", "v": 0, "d": {}}',
        '{"t": "redeal", "v": 3, "d": {}}',
        '{"t": "hint", "v": 3, "d": {}}',
        '{"t": "pace", "v": 3, "d": {"ms": 700}}',
        '{"t": "act", "v": 41, "n": 7, "d": {"action": "discard Ks"}}',
        '{"t": "hello", "v": 12, "d": {"token": "abc"}}',
        '{"t": "hello", "v": 0, "d": {"watch": true}}',
        '{"t": "hello", "v": 12, "d": {"token": "abc", "beat": true}}',
        '{"t": "beat", "v": 12, "d": {}}',
        '{"t": "react", "v": 3, "d": {"reaction": "good_game"}}',
        '{"t": "bye", "v": 3, "d": {}}',
        '{"t": "leave", "v": 3, "d": {}}',
        '{"t": "rematch", "v": 3, "d": {}}',
    ):
        message = CLIENT_MESSAGES.validate_json(text)
        assert json.loads(message.model_dump_json(exclude_unset=True)) == json.loads(text)
    assert CLIENT_MESSAGES.validate_json('{"t": "pace", "v": 3, "d": {"ms": 5}}') == Pace(
        t="pace", v=3, d=PaceData(ms=5)
    )


def test_server_messages_carry_error_codes_from_the_enum() -> None:
    body = {"code": "stale", "reason": "stale", "message": "Moved on."}
    refused = {"t": "refused", "v": 1, "d": body}
    message = SERVER_MESSAGES.validate_json(json.dumps(refused))
    assert isinstance(message, RefusedMessage) and message.d.code is ServerCode.STALE
    with pytest.raises(ValueError, match="code"):
        SERVER_MESSAGES.validate_json(json.dumps({**refused, "d": {**body, "code": "x"}}))


# ----- the published schema and the README --------------------------------------------------------


def test_published_schema_is_the_one_the_models_make() -> None:
    published = (ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8")
    assert published == schema_text(), (
        "docs/protocol.schema.json is out of date: "
        "python -m rummykit.protocol.schema > docs/protocol.schema.json"
    )


def test_schema_names_every_client_and_server_message_type() -> None:
    definitions = json.loads(schema_text())["$defs"]
    kinds = {
        definition["properties"]["t"]["const"]
        for definition in definitions.values()
        if "t" in definition.get("properties", {})
    }
    kinds_sent = {"view", "event", "refused", "applied", "notice", "log", "reaction", "rematch"}
    kinds_sent |= {"party", "open_tables", "seeking", "paired"}
    kinds_sent |= {"inbox", "challenged", "challenge_sent", "challenge_gone", "arena"}
    kinds_sent |= {"beat"}
    table_kinds = {"act", "next", "redeal", "hint", "pace", "react", "bye", "leave", "hello"}
    table_kinds |= {"beat"}
    party_kinds = {"ready", "settings", "add_cpu", "remove", "start"}
    pairing_kinds = {"seek", "cancel", "challenge", "withdraw", "join", "pause"}
    bot_stream_kinds = {"accept", "decline", "welcome", "invitation", "invitation_gone"}
    bot_stream_kinds |= {"game_started", "game_ended"}
    assert kinds == table_kinds | party_kinds | pairing_kinds | kinds_sent | bot_stream_kinds
    assert definitions["NewTableRequest"]["additionalProperties"] is False


def test_protocol_guide_names_every_view_field_and_no_other() -> None:
    guide = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    section = guide.split("The fields of `SeatView`", 1)[1].split("### ", 1)[0]
    named = set(re.findall(r"`([a-z_]+)`", section))
    values = {"draw", "play", "over"} | set(POSITION_WORDS)  # a phase's, a position's codes
    player_fields = set(PlayerView.model_fields)
    assert set(SeatView.model_fields) - named == set(), "PROTOCOL.md leaves out view fields"
    assert named - values - player_fields - set(SeatView.model_fields) == set(), (
        "PROTOCOL.md names view fields that do not exist"
    )


def test_readme_lists_every_error_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)
    assert listed == [code.value for code in ErrorCode] + [code.value for code in ServerCode]


def test_readme_lists_every_close_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `(1[0-9]{3}|4[0-9]{3})` \|", readme, flags=re.MULTILINE)
    assert [int(code) for code in listed] == [code.value for code in CloseCode]


# ----- the computer's pace on the table's clock -------------------------------------------------


def test_computer_waits_its_pace_on_the_tables_clock(
    client: TestClient, clock: ManualClock
) -> None:
    table_id, token = create_table(client, seed=seed_where_human_starts())
    with seat_connection(client, table_id, token) as seat:
        seat.recv()
        seat.set_pace(5000)
        seat.act("draw stock")
        seat.act("discard " + seat.view["hand"][-1])
        waiting = seat.version
        assert seat.view["turn"] == 1
        clock.advance_once_sleeping(4.999)  # not yet the pace: the computer has not moved
        seat.send("hint")  # answered in order, so anything the computer did comes first
        assert seat.refused()["v"] == waiting
        clock.advance_once_sleeping(5)  # the hint began the wait anew; now it is over
        moved = seat.until(lambda frame: frame["t"] == "event")
        assert moved["d"]["seat"] == 1 and moved["v"] == waiting + 1


def test_intent_queued_before_the_computers_turn_comes_first() -> None:
    """With the computer to act at pace 0, an intent already waiting is handled first."""

    seed = seed_where_human_starts()

    async def scenario() -> list[tuple[str, int]]:
        store = Store(":memory:")
        settings = new_table_settings(NewTable(seed=seed))
        table, _ = await deal_new_table(store, settings, WORKERS, sleep=ManualClock().sleep)
        table.pace_ms = 0
        answers: list[tuple[str, int]] = []
        answered = asyncio.Event()

        async def reply(message: ServerMessage) -> None:
            answers.append((message.t, message.v))
            answered.set()

        discard = str(table.game.hands[0][0])
        for text in (
            _act("draw stock", 1),
            _act(f"discard {discard}", 2),
            '{"t": "hint", "v": 3, "d": {}}',  # the computer's turn by then
        ):
            await table.submit(0, CLIENT_MESSAGES.validate_json(text), reply)
        await asyncio.wait_for(answered.wait(), timeout=20)
        await table.stop()
        store.close()
        return answers

    assert asyncio.run(scenario()) == [("refused", 3)]


def _act(action: str, version: int) -> str:
    return json.dumps({"t": "act", "v": version, "d": {"action": action}})


# ----- anything at all: a sentence, never a crash ------------------------------------------------

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
_BODY_FIELDS = st.sampled_from(["preset", "rules", "opponents", "name", "practice", "seed", "x"])
_MESSAGE_FIELDS = st.sampled_from(["t", "v", "d", "action", "ms", "x"])


def test_any_json_body_is_a_table_or_a_400(client: TestClient) -> None:
    @settings(max_examples=150, deadline=None)
    @given(body=st.dictionaries(_BODY_FIELDS, _JSON, max_size=6) | _JSON)
    def post(body: Any) -> None:
        answer = client.post("/api/tables", json=body)
        assert answer.status_code in (200, 400), answer.text
        if answer.status_code == 400:
            assert answer.json()["error"].strip()

    post()


@settings(max_examples=300, deadline=None)
@given(
    message=st.fixed_dictionaries(
        {"t": st.sampled_from(["act", "next", "redeal", "hint", "pace", "view"]) | _JSON},
        optional={"v": _JSON | st.integers(), "d": st.dictionaries(_MESSAGE_FIELDS, _JSON)},
    )
    | _JSON
)
@example(message={"t": "hint", "v": 0, "d": {}})  # a field left out is not read as sent
def test_any_json_message_is_read_or_refused_with_a_sentence(message: Any) -> None:
    try:
        read = parse_client_message(json.dumps(message))
    except ProtocolError as error:
        assert error.code is ServerCode.BAD_MESSAGE and str(error).strip()
    else:
        assert (read.t, read.v) == (message["t"], message["v"])
        assert set(read.d.model_dump(exclude_unset=True)) == set(message["d"])
