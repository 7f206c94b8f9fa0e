"""docs/PROTOCOL.md's lists against the code: the server's own codes and the notices are
generated; the tables of messages and of close codes are held here."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from rummykit.core.contract import stale
from rummykit.core.errors import ErrorCode
from rummykit.protocol import CloseCode, contract
from rummykit.protocol.bot_stream import (
    ANSWER_WITHIN_S,
    DECLINE_REASONS,
    Invitation,
    InvitationGone,
    Welcome,
)
from rummykit.protocol.challenges import INBOX_CLIENT_MESSAGES
from rummykit.protocol.codes import ServerCode
from rummykit.protocol.facts import MAX_BOT_GAMES
from rummykit.protocol.limits import MAX_SOCKET_MESSAGE_BYTES, Limits
from rummykit.protocol.messages import (
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    ActionText,
    ProtocolError,
    parse_client_message,
)
from rummykit.protocol.party import PARTY_CLIENT_MESSAGES, PlayerName
from rummykit.protocol.party_words import PARTY_REFUSALS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_server_codes_table_is_up_to_date() -> None:
    assert stale(DOCS, contract.GENERATED) == [], f"run `{contract.COMMAND}`"


def test_every_code_rules_and_server_is_listed_once() -> None:
    text = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8")
    for code in [*ErrorCode, *ServerCode]:
        assert text.count(f"| `{code.value}` |") >= 1, code
    assert not {code.value for code in ErrorCode} & {code.value for code in ServerCode}


def test_protocol_md_table_of_what_to_do_names_real_codes() -> None:
    text = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8")
    section = text[text.index("What a program\ndoes") :]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert rows
    for row in rows:
        code = row.split("`")[1]
        if code.isdigit():  # the close codes' table follows
            break
        assert code in {*ErrorCode, *ServerCode}, code


def _kinds_of_table(header: str) -> set[str]:
    """The ``t`` of each row of PROTOCOL.md's table that starts with ``header``."""
    lines = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(header)
    rows = itertools.takewhile(lambda line: line.startswith("|"), lines[start + 2 :])
    return {row.split("`")[1] for row in rows}


def _kinds_of(adapter: TypeAdapter[Any]) -> set[str]:
    """The ``t`` of every message a union of messages holds (from its JSON Schema)."""
    schema = adapter.json_schema()
    parts = schema["$defs"].values()
    return {part["properties"]["t"]["const"] for part in parts if "t" in part.get("properties", {})}


def test_the_tables_of_messages_list_every_message_and_no_other() -> None:
    assert _kinds_of_table("| t | d | what |") == _kinds_of(CLIENT_MESSAGES) - {"hello"}
    assert _kinds_of_table("| t | d |") == _kinds_of(SERVER_MESSAGES)
    party = _kinds_of(PARTY_CLIENT_MESSAGES) - {"hello"}
    assert _kinds_of_table("| t | d | who | what |") == party
    inbox = _kinds_of(INBOX_CLIENT_MESSAGES) - {"hello"}
    assert _kinds_of_table("| t | d | what it does |") == inbox


def test_the_close_codes_table_lists_every_close_code() -> None:
    lines = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("| close code | meaning | reconnect? |")
    rows = itertools.takewhile(lambda line: line.startswith("|"), lines[start + 2 :])
    assert [int(row.split("`")[1]) for row in rows] == [code.value for code in CloseCode]


def test_the_limits_table_holds_what_the_server_applies() -> None:
    """Each length in the table is one the protocol's types accept and one more they refuse;
    each rate is ``Limits()``'s, as served."""
    table = contract.limits_table()
    value = {
        row.split(" | ")[0].lstrip("| "): row.split(" | ")[1] for row in table.splitlines()[2:]
    }
    longest = int(value["characters in an action"].replace(",", ""))
    actions = TypeAdapter(ActionText)
    assert actions.validate_python("x" * longest)
    with pytest.raises(ValidationError):
        actions.validate_python("x" * (longest + 1))
    names = TypeAdapter(PlayerName)
    name_length = int(value["characters in a name"])
    assert names.validate_python("A" * name_length)
    with pytest.raises(ValidationError):
        names.validate_python("A" * (name_length + 1))
    with pytest.raises(ProtocolError):  # a message one character past the limit
        parse_client_message(
            "x" * (int(value["characters in one message of a client"].replace(",", "")) + 1)
        )
    served = Limits()
    assert value["messages a socket may send at once"] == str(served.socket_burst)
    unchecked = "requests a second an address may keep making, without a checked credential"
    assert value[unchecked] == f"{served.address_per_second:g}"
    identity = "requests a second a seat's token or a signed-in account may keep making"
    assert value[identity] == f"{served.identity_per_second:g}"
    assert value["budgets of tokens and accounts one address may use in all"] == str(
        served.identities_per_address
    )
    assert value["bytes in one socket frame"] == f"{MAX_SOCKET_MESSAGE_BYTES:,}"


def test_the_recorded_session_answers_every_numbered_intent_by_its_number() -> None:
    """§5's session, read as a client would: each intent it numbers gets its answer named by
    that number (``applied`` or ``refused``) before the client sends anything else."""
    text = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8")
    session = text.split("## 5. A session", 1)[1].split("```", 2)[1]
    waiting: dict[str, int] = {}  # the client, and the number of its intent not yet answered
    answered = 0
    for line in session.splitlines():
        found = re.match(r"^([<>]) (\w+)/table (\{.*\})$", line)
        if found is None:
            continue
        arrow, client, frame = found.groups()
        kind = re.search(r'"t": "(\w+)"', frame)
        number = re.search(r'"n": (\d+)', frame)
        assert kind is not None
        if arrow == ">":
            assert client not in waiting, f"{client} sent again before its intent was answered"
            if number is not None:
                waiting[client] = int(number.group(1))
        elif kind.group(1) in ("applied", "refused") and client in waiting:
            assert number is not None and int(number.group(1)) == waiting.pop(client), line
            answered += 1
    assert not waiting, f"intents never answered: {waiting}"
    assert answered >= 4


# ----- §7: a program's account online ---------------------------------------------------------


def _section_7() -> str:
    text = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8")
    return text.split("## 7. A program's account online", 1)[1]


def test_the_bot_streams_lists_are_its_code() -> None:
    section = _section_7()
    said = re.search(r"A decline's `reason` is one of (.+?)\n\(", section, re.S)
    assert said is not None
    assert re.findall(r"`(\w+)`", said.group(1)) == list(DECLINE_REASONS)
    kinds = {model.model_fields["t"].default for model in (Welcome, Invitation, InvitationGone)}
    kinds |= {"game_started", "game_ended", "hello", "accept", "decline"}
    for kind in kinds:
        assert f'"t": "{kind}"' in section or f"`{kind}`" in section, kind
    refusals = re.search(r"reason is (`bot_offline`.+?)\(the party", section, re.S)
    assert refusals is not None
    named = set(re.findall(r"`(\w+)`", refusals.group(1)))
    programs = {reason for reason in PARTY_REFUSALS if reason.startswith(("bot_", "declined_"))}
    assert named | {f"declined_{reason}" for reason in DECLINE_REASONS} == programs | {
        "declined_REASON"
    }
    assert f"(1 to {MAX_BOT_GAMES})" in section
    assert f"waits {ANSWER_WITHIN_S:.0f} s" in section
