"""The wire's closed vocabularies: listed by the schema, each exactly its source's words.

Both directions: every word the source defines is in the published schema (a word added to
the source is on the wire at once), and nothing else is (the models refuse any other).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, get_args

import pytest
from pydantic import ValidationError
from starlette.routing import BaseRoute, Route
from starlette.testclient import TestClient

from party_client import store_rated_game
from rummykit.bots import BOTS
from rummykit.bots.hint_words import ADVICE, REASONS
from rummykit.bots.hints import HINT_LEVELS
from rummykit.core.deal import DealResult, Phase
from rummykit.core.errors import ErrorCode
from rummykit.core.melds import MeldKind
from rummykit.core.options import OptionKind
from rummykit.core.presets import PRESETS
from rummykit.core.record import FORMAT
from rummykit.core.rules import option_specs
from rummykit.protocol import (
    ACTION_EVENTS,
    BOT_LEVELS,
    DEFAULT_HINT_LEVEL,
    EVENTS,
    NOTICES,
    SERVER_MESSAGES,
    TABLE_HINT_LEVELS,
    AccountRefusal,
    PartyRefusal,
    ServerCode,
)
from rummykit.protocol.account_words import ACCOUNT_REFUSALS
from rummykit.protocol.messages import REACTIONS, DealSummaryView, Position, Reaction
from rummykit.protocol.party import PartyState
from rummykit.protocol.party_words import PARTY_REFUSALS
from rummykit.protocol.review import ReviewState, ReviewSummary
from rummykit.protocol.schema import PARTS, protocol_schema
from rummykit.protocol.settings import BotPlayer, HumanPlayer
from rummykit.protocol.table_refusals import ALL_REFUSALS
from rummykit.protocol.vocabularies import PracticeTopic
from rummykit.ratings import Pool
from rummykit.review import Mark
from rummykit.server.site.app import WEB_DIR as WEB
from rummykit.server.store.rated import RatedGame
from table_client import ManualClock, bearer, clocked_app, play_to_game_over

pytestmark = pytest.mark.timeout(180)

DEFS: dict[str, Any] = protocol_schema()["$defs"]


def _words(schema: dict[str, Any]) -> set[object]:
    """The words a schema allows: its ``enum``, through a ``$ref``, an ``anyOf`` (null left
    out), an array's items and an object's keys."""
    if "items" in schema:
        return _words(schema["items"])
    if "propertyNames" in schema:
        return _words(schema["propertyNames"])
    if "$ref" in schema:
        return _words(DEFS[schema["$ref"].rsplit("/", 1)[1]])
    if "anyOf" in schema:
        return set().union(*(_words(each) for each in schema["anyOf"] if each != {"type": "null"}))
    if "const" in schema:
        return {schema["const"]}
    return set(schema["enum"])


def _field(model: str, field: str) -> set[object]:
    return _words(DEFS[model]["properties"][field])


PLAYER_KINDS: set[str] = {
    get_args(player.model_fields["kind"].annotation)[0] for player in (HumanPlayer, BotPlayer)
}
"""Whoever sits at a seat, as a table's stored settings say (``rummykit.protocol.settings``)."""

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
    "hint's level": (("HintData", "level"), set(TABLE_HINT_LEVELS)),
    "position": (("PlayerView", "position"), {*get_args(Position), ""}),
    "event kind": (("Event", "kind"), set(ACTION_EVENTS)),
    "notice kind": (("Notice", "kind"), set(NOTICES)),
    "log line kind": (("LogLine", "kind"), set(EVENTS)),
    "refusal reason": (("Refusal", "reason"), set(ALL_REFUSALS) | set(PARTY_REFUSALS)),
    "party refusal reason": (("PartyRefusal", "reason"), set(PARTY_REFUSALS)),
    "account refusal reason": (("AccountRefusal", "reason"), set(ACCOUNT_REFUSALS)),
    "server code": (("AccountRefusal", "code"), {code.value for code in ServerCode}),
    "refusal code": (
        ("Refusal", "code"),
        {code.value for code in ErrorCode} | {code.value for code in ServerCode},
    ),
    "party refusal code": (
        ("PartyRefusal", "code"),
        {code.value for code in ErrorCode} | {code.value for code in ServerCode},
    ),
    "hint's reason": (("Advice", "kind"), set(REASONS)),
    "hint's advice": (("Advice", "action_kind"), set(ADVICE)),
    "practice topic": (("SeatView", "topics"), set(get_args(PracticeTopic))),
    "view's preset": (("SeatView", "preset"), set(PRESETS)),
    "view's rule names": (("SeatView", "rules"), {spec.name for spec in option_specs()}),
    "party's preset": (("PartyView", "preset"), set(PRESETS)),
    "party's rule names": (("PartyView", "in_play"), {spec.name for spec in option_specs()}),
    "rules in play's preset": (("RulesInPlay", "preset"), set(PRESETS)),
    "rules in play's names": (("RulesInPlay", "in_play"), {spec.name for spec in option_specs()}),
    "options' presets": (("OptionsAnswer", "presets"), set(PRESETS)),
    "options' names": (("OptionDefaults", "name"), {spec.name for spec in option_specs()}),
    "option kind": (("OptionDefaults", "kind"), {kind.value for kind in OptionKind}),
    "options' levels": (("OptionsAnswer", "levels"), set(BOT_LEVELS)),
    "options' reactions": (("OptionsAnswer", "reactions"), set(REACTIONS)),
    "replay's phase": (("ReplayFrame", "phase"), {phase.value for phase in Phase}),
    "replay's kind": (("ReplayFrame", "kind"), set(EVENTS)),
    "replay's notice kind": (("ReplayLine", "kind"), set(EVENTS)),
    "replay's result": (("ReplayDealResult", "result"), {result.value for result in DealResult}),
    "record's format": (("GameRecordAnswer", "format"), {FORMAT}),
    "recent game's pool": (("RecentGame", "pool"), {pool.value for pool in Pool}),
    "player's pools": (("PlayerAnswer", "pools"), {pool.value for pool in Pool}),
    "player's kind": (("PlayerView", "kind"), PLAYER_KINDS),
    "member's kind": (("MemberView", "kind"), PLAYER_KINDS),
    "party state": (("PartyView", "state"), set(get_args(PartyState))),
    "review state": (("ReviewAnswer", "state"), set(get_args(ReviewState))),
    "review's mark": (("ReviewDecision", "mark"), {mark.value for mark in Mark}),
}
"""Each closed vocabulary: the schema's field that carries it, and its source's words."""


def test_a_reviews_summary_counts_each_mark_and_nothing_else_by_a_marks_name() -> None:
    totals = {"decisions", "deals", "points_lost", "points_lost_per_deal"}
    assert set(ReviewSummary.model_fields) - totals == {mark.value for mark in Mark}


@pytest.mark.parametrize("name", VOCABULARIES)
def test_each_vocabulary_in_the_schema_is_its_sources_words(name: str) -> None:
    (model, field), source = VOCABULARIES[name]
    assert _field(model, field) == source


def test_the_seatable_levels_are_bots_and_the_reactions_are_worded() -> None:
    assert set(BOT_LEVELS) <= set(BOTS)
    assert set(TABLE_HINT_LEVELS) <= set(HINT_LEVELS)
    assert DEFAULT_HINT_LEVEL in TABLE_HINT_LEVELS
    assert list(REACTIONS) == list(get_args(Reaction))


def test_the_page_explains_every_practice_topic() -> None:
    words = (WEB / "i18n" / "en" / "practice.js").read_text(encoding="utf-8")
    for topic in get_args(PracticeTopic):
        assert f'"practice.{topic}":' in words


def test_the_core_enums_are_named_once_in_the_schema() -> None:
    for enum_type in (Phase, MeldKind, DealResult, OptionKind):
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


# ----- every JSON route answers through a model of the schema -------------------------------

ROUTE_ANSWERS: dict[str, frozenset[str]] = {
    "/api/options": frozenset({"OptionsAnswer"}),
    "/api/rules": frozenset({"RulesInPlay", "ErrorAnswer"}),
    "/api/tables": frozenset({"TableCreated", "ErrorAnswer"}),
    "/api/tables/{table_id}": frozenset({"TableAnswer", "ErrorAnswer"}),
    "/api/history": frozenset({"HistoryAnswer", "ErrorAnswer"}),
    "/api/games/{table_id}/record": frozenset({"GameRecordAnswer", "ErrorAnswer"}),
    "/api/games/{table_id}/frames": frozenset({"ReplayAnswer", "ErrorAnswer"}),
    "/api/games/{table_id}/review/{seat}": frozenset({"ReviewAnswer", "ErrorAnswer"}),
    "/api/games/{table_id}/analysis": frozenset(
        {"AnalysisAnswer", "AnalysisRefusal", "ErrorAnswer"}
    ),
    "/api/puzzles/next": frozenset({"PuzzleShown", "ErrorAnswer"}),
    "/api/puzzles/daily": frozenset({"PuzzleShown", "ErrorAnswer"}),
    "/api/puzzles/themes": frozenset({"PuzzleThemes", "ErrorAnswer"}),
    "/api/players/{name}/puzzles": frozenset({"PlayerPuzzles", "ErrorAnswer"}),
    "/api/puzzles/{puzzle_id}/answer": frozenset({"PuzzleVerdict", "PuzzleRefusal", "ErrorAnswer"}),
    "/api/parties": frozenset({"PartyJoined", "PartyRefusal", "ErrorAnswer"}),
    "/api/parties/{code}": frozenset({"PartyView", "ErrorAnswer"}),
    "/api/parties/{code}/join": frozenset({"PartyJoined", "PartyRefusal", "ErrorAnswer"}),
    "/api/accounts": frozenset({"Me", "AccountRefusal", "ErrorAnswer"}),
    "/api/session": frozenset({"Me", "AccountRefusal", "ErrorAnswer"}),  # DELETE: 204, no body
    "/api/me": frozenset({"MeAnswer"}),
    "/api/leaderboard": frozenset({"Leaderboard", "ErrorAnswer"}),
    "/api/leaderboard/thresholds": frozenset({"LeaderboardThresholds", "ErrorAnswer"}),
    "/api/players/{name}": frozenset({"PlayerAnswer", "ErrorAnswer"}),
    "/api/bots": frozenset({"OnlineBots"}),
    "/api/open-tables": frozenset({"OpenTables"}),
    "/api/pools": frozenset({"PoolsAnswer"}),
    "/api/arenas": frozenset({"ArenaView", "ArenaList", "PartyRefusal", "ErrorAnswer"}),
    "/api/arenas/{arena_id}": frozenset({"ArenaView", "ErrorAnswer"}),
    "/api/games/{table_id}/share": frozenset({"ShareAnswer"}),
    "/api/challenges": frozenset({"PartyJoined", "PartyRefusal", "ErrorAnswer"}),
    "/api/parties/{code}/invite": frozenset({"InviteAnswered", "PartyRefusal", "ErrorAnswer"}),
}
"""Every route of the HTTP API and the schema's parts its answers are."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the routes' answers: seeds taken, no limits, the computer at pace 0."""
    store_path = tmp_path_factory.mktemp("answers") / "tables.sqlite3"
    with TestClient(clocked_app(store_path, ManualClock())) as client:
        yield client


def answered(response: Any, part: str, status: int = 200) -> Any:
    """The answer read by the schema's ``part``, strictly, as a client reads it."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    return PARTS[part][0].validate_json(response.content)


def _api_paths(routes: Iterable[BaseRoute]) -> set[str]:
    return {
        route.path
        for route in routes
        if isinstance(route, Route) and route.path.startswith("/api/")
    }


def test_every_route_of_the_api_has_its_answers_in_the_schema(site: TestClient) -> None:
    assert _api_paths(site.app.routes) == set(ROUTE_ANSWERS)  # type: ignore[attr-defined]
    for parts in ROUTE_ANSWERS.values():
        assert parts <= set(PARTS)


def test_the_tables_routes_answer_as_their_models(site: TestClient) -> None:
    options = answered(site.get("/api/options"), "OptionsAnswer")
    assert list(options.levels) == list(BOT_LEVELS)
    answered(site.post("/api/rules", json={"preset": "classic", "rules": {}}), "RulesInPlay")
    answered(site.post("/api/rules", json={"preset": "nope"}), "ErrorAnswer", 400)
    made = answered(
        site.post("/api/tables", json={"rules": {"deals": 1}, "name": "Ann", "seed": 5}),
        "TableCreated",
    )
    answered(site.post("/api/tables", json={"opponents": ["nobody"]}), "ErrorAnswer", 400)
    table = f"/api/tables/{made.table}"
    answered(site.get(table, headers=bearer(made.token)), "TableAnswer")
    answered(site.get(table), "ErrorAnswer", 400)
    answered(
        site.get(f"/api/games/{made.table}/frames", headers=bearer(made.token)), "ErrorAnswer", 409
    )
    answered(site.get(f"/api/games/{made.table}/frames"), "ErrorAnswer", 404)
    play_to_game_over(site, made.table, made.token)
    games = f"/api/games/{made.table}"
    record = answered(site.get(f"{games}/record", headers=bearer(made.token)), "GameRecordAnswer")
    assert record.players[0] == "Ann"
    replay = answered(site.get(f"{games}/frames", headers=bearer(made.token)), "ReplayAnswer")
    assert replay.frames[-1].phase is Phase.OVER
    answered(site.get(f"{games}/review/0", headers=bearer(made.token)), "ReviewAnswer")
    answered(site.get(f"{games}/review/9", headers=bearer(made.token)), "ErrorAnswer", 404)
    history = answered(site.post("/api/history", json={"tokens": [made.token]}), "HistoryAnswer")
    assert [game.id for game in history.games] == [made.table]
    answered(site.get("/api/history"), "ErrorAnswer", 403)


def test_the_parties_and_accounts_routes_answer_as_their_models(site: TestClient) -> None:
    site.cookies.clear()
    answered(site.get("/api/me"), "MeAnswer")
    body = {"name": "vocab_ann", "password": "correct horse battery staple"}
    answered(site.post("/api/accounts", json=body), "Me")
    answered(site.get("/api/me"), "MeAnswer")
    site.cookies.clear()
    answered(site.post("/api/accounts", json=body), "AccountRefusal", 409)
    answered(site.post("/api/session", json=body), "Me")
    answered(
        site.post("/api/session", json={**body, "password": "wrong" * 3}), "AccountRefusal", 401
    )
    site.cookies.clear()
    joined = answered(site.post("/api/parties", json={"name": "Ann"}), "PartyJoined")
    answered(site.get(f"/api/parties/{joined.code}"), "PartyView")
    answered(site.post(f"/api/parties/{joined.code}/join", json={"name": "Bob"}), "PartyJoined")
    ranked = answered(
        site.post("/api/parties", json={"name": "Ann", "ranked": True, "turn_timer": 60}),
        "PartyRefusal",
        409,
    )
    assert ranked.reason in PARTY_REFUSALS
    answered(site.get("/api/parties/NOPE00"), "ErrorAnswer", 404)
    # programs' accounts: none online here (a whole challenge: tests/server/test_bot_accounts)
    assert answered(site.get("/api/bots"), "OnlineBots").bots == ()
    site.cookies.clear()
    answered(site.post("/api/challenges", json={"bot": "x"}), "PartyRefusal", 401)
    answered(site.post("/api/challenges", json={"bot": 3}), "ErrorAnswer", 400)
    invite = {"token": joined.token, "bot": "nobody_here"}
    answered(site.post(f"/api/parties/{joined.code}/invite", json=invite), "PartyRefusal", 409)
    answered(site.post("/api/parties/NOPE00/invite", json=invite), "ErrorAnswer", 404)


def test_the_ratings_routes_answer_as_their_models(site: TestClient) -> None:
    site.cookies.clear()
    for name in ("vocab_p1", "vocab_p2"):
        body = {"name": name, "password": "correct horse battery staple"}
        answered(site.post("/api/accounts", json=body), "Me")
        site.cookies.clear()
    store = site.app.state.lobby.store  # type: ignore[attr-defined]
    first, second = (store.accounts.named(name).id for name in ("vocab_p1", "vocab_p2"))
    store_rated_game(store, RatedGame("vocab-rated", Pool.PENALTY, (first, second), (10, 90), 1))
    board = answered(site.get("/api/leaderboard?pool=penalty&all=1"), "Leaderboard")
    assert {entry.name for entry in board} == {"vocab_p1", "vocab_p2"}
    answered(site.get("/api/leaderboard?pool=nope"), "ErrorAnswer", 400)
    answered(site.get("/api/leaderboard/thresholds"), "LeaderboardThresholds")
    page = answered(site.get("/api/players/vocab_p1"), "PlayerAnswer")
    assert list(page.pools) == [Pool.PENALTY] and page.recent[0].pool is Pool.PENALTY
    answered(site.get("/api/players/nobody_here"), "ErrorAnswer", 404)
