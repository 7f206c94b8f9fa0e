"""The JSON Schema of the server's protocol, generated from its models.

``python -m rummykit.protocol.schema > docs/protocol.schema.json`` rewrites the published copy;
a test fails when that copy is out of date.
"""

from __future__ import annotations

import json
from typing import Any, Final

from pydantic import TypeAdapter

from rummykit.protocol.account import AccountRefusal, Me, MeAnswer, NewAccount, SignIn
from rummykit.protocol.analysis import AnalysisAnswer, AnalysisRefusal, AnalysisRequest
from rummykit.protocol.answers import GameRecordAnswer, OptionsAnswer, ReplayAnswer
from rummykit.protocol.api import (
    ErrorAnswer,
    HistoryAnswer,
    HistoryRequest,
    NewTable,
    RulesAsked,
    RulesInPlay,
    ShareAnswer,
    TableAnswer,
    TableCreated,
)
from rummykit.protocol.arenas import (
    ARENA_CLIENT_MESSAGES,
    ARENA_SERVER_MESSAGES,
    ArenaList,
    ArenaView,
    NewArena,
)
from rummykit.protocol.bot_stream import (
    BOT_CLIENT_MESSAGES,
    BOT_SERVER_MESSAGES,
    InviteAnswered,
    InviteBot,
    NewChallenge,
    OnlineBots,
)
from rummykit.protocol.challenges import INBOX_CLIENT_MESSAGES, INBOX_SERVER_MESSAGES
from rummykit.protocol.leaderboard import LEADERBOARD, LeaderboardThresholds, PlayerAnswer
from rummykit.protocol.messages import CLIENT_MESSAGES, SERVER_MESSAGES
from rummykit.protocol.open_tables import OPEN_TABLES_MESSAGES, OpenTables
from rummykit.protocol.pairing import (
    PAIRING_CLIENT_MESSAGES,
    PAIRING_SERVER_MESSAGES,
    PoolsAnswer,
)
from rummykit.protocol.party import (
    PARTY_CLIENT_MESSAGES,
    PARTY_SERVER_MESSAGES,
    JoinParty,
    NewParty,
    PartyJoined,
    PartyRefusal,
    PartyView,
)
from rummykit.protocol.puzzles import (
    PlayerPuzzles,
    PuzzleAnswerAsked,
    PuzzleRefusal,
    PuzzleShown,
    PuzzleThemes,
    PuzzleVerdict,
)
from rummykit.protocol.review import ReviewAnswer

SCHEMA_ID: Final = "https://rummykit.invalid/protocol.schema.json"
"""A name for the document, not a place to fetch it from."""

_REF_TEMPLATE: Final = "#/$defs/{model}"

PARTS: Final[dict[str, tuple[TypeAdapter[Any], str]]] = {
    "ClientMessage": (CLIENT_MESSAGES, "What a client sends on /ws/{table} (hello first)."),
    "ServerMessage": (SERVER_MESSAGES, "What the server sends on the socket."),
    "OptionsAnswer": (TypeAdapter(OptionsAnswer), "The answer to GET /api/options."),
    "RulesAsked": (TypeAdapter(RulesAsked), "The body of POST /api/rules."),
    "RulesInPlay": (TypeAdapter(RulesInPlay), "The answer to POST /api/rules."),
    "NewTableRequest": (TypeAdapter(NewTable), "The body of POST /api/tables."),
    "TableCreated": (TypeAdapter(TableCreated), "The answer to POST /api/tables."),
    "TableAnswer": (TypeAdapter(TableAnswer), "The answer to GET /api/tables/{table}."),
    "HistoryRequest": (TypeAdapter(HistoryRequest), "The body of POST /api/history."),
    "HistoryAnswer": (
        TypeAdapter(HistoryAnswer),
        "The answer to POST /api/history (and to GET where it is public).",
    ),
    "GameRecordAnswer": (
        TypeAdapter(GameRecordAnswer),
        "The answer to GET /api/games/{table}/record.",
    ),
    "ReplayAnswer": (TypeAdapter(ReplayAnswer), "The answer to GET /api/games/{table}/frames."),
    "ShareAnswer": (TypeAdapter(ShareAnswer), "The answer to GET /api/games/{table}/share."),
    "ErrorAnswer": (TypeAdapter(ErrorAnswer), "Every 4xx answer of the HTTP API."),
    "NewParty": (TypeAdapter(NewParty), "The body of POST /api/parties."),
    "JoinParty": (TypeAdapter(JoinParty), "The body of POST /api/parties/{code}/join."),
    "PartyJoined": (TypeAdapter(PartyJoined), "The answer to creating or joining a party."),
    "PartyRefusal": (TypeAdapter(PartyRefusal), "The 409 answer to a join refused."),
    "PartyView": (TypeAdapter(PartyView), "GET /api/parties/{code}, and each party frame."),
    "PartyClientMessage": (
        PARTY_CLIENT_MESSAGES,
        "What a client sends on /ws/party/{code} (hello first).",
    ),
    "PartyServerMessage": (PARTY_SERVER_MESSAGES, "What the server sends on a party's socket."),
    "OpenTables": (TypeAdapter(OpenTables), "The answer to GET /api/open-tables."),
    "OpenTablesMessage": (OPEN_TABLES_MESSAGES, "What the server sends on /ws/lobby."),
    "PoolsAnswer": (TypeAdapter(PoolsAnswer), "The answer to GET /api/pools."),
    "PairingClientMessage": (
        PAIRING_CLIENT_MESSAGES,
        "What a client sends on /ws/pairing (hello first).",
    ),
    "PairingServerMessage": (PAIRING_SERVER_MESSAGES, "What the server sends on /ws/pairing."),
    "InboxClientMessage": (INBOX_CLIENT_MESSAGES, "What a page sends on /ws/inbox (hello first)."),
    "InboxServerMessage": (INBOX_SERVER_MESSAGES, "What the server sends on /ws/inbox."),
    "NewArena": (TypeAdapter(NewArena), "The body of POST /api/arenas."),
    "ArenaView": (TypeAdapter(ArenaView), "POST /api/arenas, GET /api/arenas/{id}, arena frames."),
    "ArenaList": (TypeAdapter(ArenaList), "The answer to GET /api/arenas."),
    "ArenaClientMessage": (ARENA_CLIENT_MESSAGES, "What a page sends on /ws/arena/{id}."),
    "ArenaServerMessage": (ARENA_SERVER_MESSAGES, "What the server sends on /ws/arena/{id}."),
    "NewAccount": (TypeAdapter(NewAccount), "The body of POST /api/accounts."),
    "SignIn": (TypeAdapter(SignIn), "The body of POST /api/session."),
    "Me": (TypeAdapter(Me), "The answer to signing up or in, and GET /api/me when signed in."),
    "MeAnswer": (TypeAdapter(MeAnswer), "GET /api/me: the account signed in, or nobody."),
    "AccountRefusal": (TypeAdapter(AccountRefusal), "A refused account request (401, 409, 429)."),
    "ReviewAnswer": (TypeAdapter(ReviewAnswer), "GET and POST /api/games/{table}/review/{seat}."),
    "AnalysisRequest": (
        TypeAdapter(AnalysisRequest),
        "The body of POST /api/games/{table}/analysis: moves tried at a seat's decision.",
    ),
    "AnalysisAnswer": (
        TypeAdapter(AnalysisAnswer),
        "POST /api/games/{table}/analysis: the sampled world as the seat sees it, judged.",
    ),
    "AnalysisRefusal": (
        TypeAdapter(AnalysisRefusal),
        "A move the analysis board refuses (409): the rules' code, naming the cards.",
    ),
    "PuzzleShown": (
        TypeAdapter(PuzzleShown),
        "GET /api/puzzles/next and /api/puzzles/daily: a puzzle, without its answer.",
    ),
    "PuzzleThemes": (TypeAdapter(PuzzleThemes), "The answer to GET /api/puzzles/themes."),
    "PlayerPuzzles": (
        TypeAdapter(PlayerPuzzles),
        "The answer to GET /api/players/{name}/puzzles.",
    ),
    "PuzzleAnswerAsked": (
        TypeAdapter(PuzzleAnswerAsked),
        "The body of POST /api/puzzles/{id}/answer: the action chosen.",
    ),
    "PuzzleVerdict": (
        TypeAdapter(PuzzleVerdict),
        "POST /api/puzzles/{id}/answer: right or not, the solutions, the ratings moved.",
    ),
    "PuzzleRefusal": (
        TypeAdapter(PuzzleRefusal),
        "An answer the puzzle's position does not allow (409): the rules' code.",
    ),
    "Leaderboard": (
        LEADERBOARD,
        "The answer to GET /api/leaderboard?pool=POOL[&all=1]: accounts, best first.",
    ),
    "LeaderboardThresholds": (
        TypeAdapter(LeaderboardThresholds),
        "The answer to GET /api/leaderboard/thresholds.",
    ),
    "PlayerAnswer": (TypeAdapter(PlayerAnswer), "The answer to GET /api/players/{name}."),
    "BotClientMessage": (
        BOT_CLIENT_MESSAGES,
        "What a program's account sends on /ws/bot (hello first).",
    ),
    "BotServerMessage": (BOT_SERVER_MESSAGES, "What the server sends on /ws/bot."),
    "NewChallenge": (TypeAdapter(NewChallenge), "The body of POST /api/challenges."),
    "InviteBot": (TypeAdapter(InviteBot), "The body of POST /api/parties/{code}/invite."),
    "InviteAnswered": (TypeAdapter(InviteAnswered), "The answer to an invitation accepted."),
    "OnlineBots": (TypeAdapter(OnlineBots), "The answer to GET /api/bots."),
}
"""Each part of the protocol by name, with a line that says where it travels, used where the
part has no docstring of its own (the two unions of messages)."""


def protocol_schema() -> dict[str, Any]:
    """One JSON Schema document: every part in ``$defs``, each model once."""
    definitions: dict[str, Any] = {}
    for name, (adapter, where) in PARTS.items():
        schema = adapter.json_schema(ref_template=_REF_TEMPLATE)
        for model, definition in schema.pop("$defs", {}).items():
            if definitions.setdefault(model, definition) != definition:
                raise ValueError(f"Two different models are both called {model}.")
        schema.setdefault("description", where)
        if definitions.setdefault(name, schema) != schema:
            raise ValueError(f"The part {name} has the name of a model.")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "rummykit table protocol",
        "description": (
            "Socket messages are envelopes {t, v, d}: t the type, v the table's version, "
            "d the data. The parts: " + ", ".join(PARTS) + "."
        ),
        "anyOf": [{"$ref": _REF_TEMPLATE.format(model=name)} for name in PARTS],
        "$defs": dict(sorted(definitions.items())),
    }


def schema_text() -> str:
    """The schema as the published file holds it."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    """Print the schema."""
    print(schema_text(), end="")


if __name__ == "__main__":
    main()
