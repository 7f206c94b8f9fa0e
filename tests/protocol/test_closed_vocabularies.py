"""The wire's closed vocabularies: listed by the schema, each exactly its source's words.

Both directions: every word the source defines is in the published schema (a word added to
the source is on the wire at once), and nothing else is (the models refuse any other).
"""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from pydantic import ValidationError

from rummykit.core.deal import DealResult, Phase
from rummykit.core.melds import MeldKind
from rummykit.protocol import (
    ACTION_EVENTS,
    BOT_LEVELS,
    EVENTS,
    NOTICES,
    SERVER_MESSAGES,
    AccountRefusal,
    PartyRefusal,
    ServerCode,
)
from rummykit.protocol.account_words import ACCOUNT_REFUSALS
from rummykit.protocol.messages import DealSummaryView, Position
from rummykit.protocol.party_words import PARTY_REFUSALS
from rummykit.protocol.schema import protocol_schema
from rummykit.protocol.table_refusals import ALL_REFUSALS

DEFS: dict[str, Any] = protocol_schema()["$defs"]


def _words(schema: dict[str, Any]) -> set[object]:
    """The words a schema allows: its ``enum``, through a ``$ref`` and a nullable ``anyOf``."""
    if "$ref" in schema:
        return _words(DEFS[schema["$ref"].rsplit("/", 1)[1]])
    if "anyOf" in schema:
        return set().union(*(_words(each) for each in schema["anyOf"] if each != {"type": "null"}))
    if "const" in schema:
        return {schema["const"]}
    return set(schema["enum"])


def _field(model: str, field: str) -> set[object]:
    return _words(DEFS[model]["properties"][field])


VOCABULARIES: dict[str, tuple[tuple[str, str], set[str]]] = {
    "phase": (("SeatView", "phase"), {phase.value for phase in Phase}),
    "meld kind": (("MeldView", "kind"), {kind.value for kind in MeldKind}),
    "deal result": (("DealResultView", "result"), {result.value for result in DealResult}),
    "score sheet's result": (
        ("DealSummaryView", "result"),
        {result.value for result in DealResult},
    ),
    "player's level": (("PlayerView", "level"), set(BOT_LEVELS)),
    "member's level": (("MemberView", "level"), set(BOT_LEVELS)),
    "position": (("PlayerView", "position"), {*get_args(Position), ""}),
    "event kind": (("Event", "kind"), set(ACTION_EVENTS)),
    "notice kind": (("Notice", "kind"), set(NOTICES)),
    "log line kind": (("LogLine", "kind"), set(EVENTS)),
    "refusal reason": (("Refusal", "reason"), set(ALL_REFUSALS) | set(PARTY_REFUSALS)),
    "party refusal reason": (("PartyRefusal", "reason"), set(PARTY_REFUSALS)),
    "account refusal reason": (("AccountRefusal", "reason"), set(ACCOUNT_REFUSALS)),
    "server code": (("AccountRefusal", "code"), {code.value for code in ServerCode}),
}
"""Each closed vocabulary: the schema's field that carries it, and its source's words."""


@pytest.mark.parametrize("name", VOCABULARIES)
def test_each_vocabulary_in_the_schema_is_its_sources_words(name: str) -> None:
    (model, field), source = VOCABULARIES[name]
    assert _field(model, field) == source


def test_the_core_enums_are_named_once_in_the_schema() -> None:
    for enum_type in (Phase, MeldKind, DealResult):
        assert DEFS[enum_type.__name__]["enum"] == [member.value for member in enum_type]


def test_every_reason_the_sources_give_is_a_reason_a_refusal_may_carry() -> None:
    for reason in [*ALL_REFUSALS, *PARTY_REFUSALS]:
        message = {"t": "refused", "v": 1, "d": {"code": "stale", "reason": reason, "message": ""}}
        assert SERVER_MESSAGES.validate_json(json.dumps(message)).d.reason == reason  # type: ignore[union-attr]


@pytest.mark.parametrize("reason", ["", "no_such_reason", "STALE", "party_full "])
def test_a_refusal_with_an_unknown_reason_is_refused(reason: str) -> None:
    message = {"t": "refused", "v": 1, "d": {"code": "stale", "reason": reason, "message": ""}}
    with pytest.raises(ValidationError, match="reason"):
        SERVER_MESSAGES.validate_json(json.dumps(message))
    body = {"error": "No.", "code": "party_full", "reason": reason, "watch": False}
    with pytest.raises(ValidationError, match="reason"):
        PartyRefusal.model_validate_json(json.dumps(body))
    account = {"error": "No.", "code": "bad_login", "reason": reason}
    with pytest.raises(ValidationError, match="reason"):
        AccountRefusal.model_validate_json(json.dumps(account))


def test_an_account_reason_is_not_a_party_reason() -> None:
    body = {"error": "No.", "code": "bad_login", "reason": "bad_login", "watch": False}
    with pytest.raises(ValidationError, match="reason"):
        PartyRefusal.model_validate_json(json.dumps(body))


@pytest.mark.parametrize(
    ("frame", "kind"),
    [("event", "time_ran_out"), ("notice", "draw_stock"), ("notice", "deal")],
)
def test_an_event_and_a_notice_take_only_their_own_kinds(frame: str, kind: str) -> None:
    data: dict[str, object] = {"seat": 0, "kind": kind, "params": {}, "text": "."}
    if frame == "event":
        data |= {"action": "draw stock", "card": None}
    with pytest.raises(ValidationError, match="kind"):
        SERVER_MESSAGES.validate_json(json.dumps({"t": frame, "v": 1, "d": data}))


def test_a_view_reads_the_core_enums_from_their_values() -> None:
    # a client's or a test's frames are plain dicts: the core's enums are read from values
    view = {"dealer": 0, "result": "rummy", "winner": 0, "points": (25, 0)}
    assert DealSummaryView.model_validate(view).result is DealResult.RUMMY
    with pytest.raises(ValidationError, match="result"):
        DealSummaryView.model_validate({**view, "result": "won"})
