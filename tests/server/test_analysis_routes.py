"""``POST /api/games/{id}/analysis``: a seat's decision tried again, in a world it could see.

A tried move is judged as the review judges the decision; an illegal one is refused with the
engine's code and changes nothing; only the seat to act at a step may try a move there; the
answer holds no card the seat could not see, and does not depend on the cards the record hid;
the limits are kept; and the game is refused as its review is to those who may not see it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit.analysis import COMPUTER, analyse
from rummykit.core.actions import parse_action
from rummykit.core.observation import Observation, observe
from rummykit.core.record import GameRecord, load_record
from rummykit.protocol import ErrorAnswer
from rummykit.protocol.analysis import AnalysisRequest
from rummykit.protocol.answer_words import answer_text
from rummykit.protocol.limits import Limits
from rummykit.review import DecisionPoint, decision_points, judge
from rummykit.review.judge import JUDGE
from rummykit.review.walk import position_at
from rummykit.server.reviews import analysis_routes
from rummykit.server.reviews.analysis_routes import analysis_answer
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import ManualClock, bearer, create_table, play_to_game_over

pytestmark = pytest.mark.timeout(180)

SAMPLES = 3
"""Samples a decision, as the review's tests use: the plumbing, quickly."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server for the file's tests (its worker pool starts once)."""
    store_path: Path = tmp_path_factory.mktemp("analysis") / "games.sqlite3"
    config = ServerConfig(
        store_path=store_path,
        accept_seeds=True,
        limits=Limits.unlimited(),
        review_samples=SAMPLES,
    )
    with TestClient(create_app(config, sleep=ManualClock().sleep)) as served:
        yield served


@pytest.fixture(scope="module")
def game(client: TestClient) -> tuple[str, str, GameRecord]:
    """A two-seat game to 10, played to its end: its id, the person's token, its record."""
    table_id, token = create_table(client, rules={"target": 10}, name="Ann", seed=3)
    play_to_game_over(client, table_id, token)
    record = client.get(f"/api/games/{table_id}/record", headers=bearer(token)).json()
    return table_id, token, load_record(record)


def tried(client: TestClient, table_id: str, token: str | None, body: dict[str, Any]) -> Any:
    headers = bearer(token) if token else {}
    return client.post(f"/api/games/{table_id}/analysis", json=body, headers=headers)


def a_decision(record: GameRecord, seat: int = 0, index: int = 2) -> DecisionPoint:
    """One of the seat's decisions with a choice (a discard, most likely)."""
    return decision_points(record, seat)[index]


def body_of(point: DecisionPoint, moves: list[str]) -> dict[str, Any]:
    return {
        "seat": point.observation.seat,
        "deal": point.deal,
        "action": point.action,
        "moves": moves,
    }


def test_a_tried_move_is_judged_as_the_review_judges_it(
    client: TestClient, game: tuple[str, str, GameRecord]
) -> None:
    table_id, token, record = game
    point = a_decision(record)
    for action in point.observation.legal_actions[:3]:
        answer = tried(client, table_id, token, body_of(point, [str(action)]))
        assert answer.status_code == 200, answer.text
        judged = answer.json()["judgement"]
        direct = judge(point.observation, action, samples=SAMPLES, seed=point.seed)
        assert judged["played"] == str(action) and judged["best"] == str(direct.best)
        assert judged["value"] == round(direct.value, 2)
        assert judged["loss"] == round(direct.loss, 2)
        assert judged["loss_ci95"] == round(direct.loss_ci95, 2)
        assert judged["best_value"] == round(direct.value + direct.loss, 2)
        assert judged["samples"] == direct.samples == SAMPLES


def test_no_move_shows_the_step_as_the_seat_saw_it_and_judges_nothing(
    client: TestClient, game: tuple[str, str, GameRecord]
) -> None:
    table_id, token, record = game
    point = a_decision(record)
    answer = tried(client, table_id, token, body_of(point, [])).json()
    seen = point.observation
    assert answer["judgement"] is None and answer["moves"] == [] and answer["line"] == []
    assert answer["view"]["hand"] == [str(card) for card in seen.hand]
    assert answer["view"]["discard"] == [str(card) for card in seen.discard_pile]
    assert answer["view"]["legal"] == [str(action) for action in seen.legal_actions]


def test_an_illegal_move_is_refused_with_its_code_and_changes_nothing(
    client: TestClient, game: tuple[str, str, GameRecord]
) -> None:
    table_id, token, record = game
    point = a_decision(record)
    first = str(point.played)
    before = tried(client, table_id, token, body_of(point, [first])).json()
    seat = point.observation.seat
    drawn = [first, COMPUTER, f"{seat} draw stock"]
    held = set(tried(client, table_id, token, body_of(point, drawn)).json()["view"]["hand"])
    missing = next(card for card in ("As", "2s", "3s", "4s", "5s") if card not in held)
    for illegal, code in (
        (f"{seat} discard {missing}", "card_not_in_hand"),
        (f"{seat} draw stock", "wrong_phase"),
        ("hello", "bad_action"),
    ):
        refused = tried(client, table_id, token, body_of(point, [*drawn, illegal]))
        assert refused.status_code == 409, refused.text
        said = refused.json()
        assert (said["code"], said["move"]) == (code, 3) and said["reason"]
        if code == "card_not_in_hand":
            assert missing in str(said["params"]) and "♠" in said["error"]  # names it
    again = tried(client, table_id, token, body_of(point, [first])).json()
    assert again == before  # nothing kept: the same moves, the same answer


def test_only_the_seat_to_act_at_a_step_may_try_a_move_there(
    client: TestClient, game: tuple[str, str, GameRecord]
) -> None:
    table_id, token, record = game
    deal = record.deals[0]
    others = next(index for index, text in enumerate(deal.actions) if parse_action(text).seat == 1)
    body = {"seat": 0, "deal": 0, "action": others, "moves": []}
    answer = tried(client, table_id, token, body)
    assert (answer.status_code, answer.json()) == (
        409,
        ErrorAnswer.said("not_seat_decision").model_dump(),
    )
    for far in ({"deal": 999, "action": 0}, {"deal": 0, "action": 99_999}):
        answer = tried(client, table_id, token, {"seat": 0, "moves": [], **far})
        assert answer.status_code == 404 and answer.json()["reason"] == "no_such_step"
    bad = tried(client, table_id, token, {"seat": 0, "deal": 0, "action": 0, "moves": ["x"] * 201})
    assert bad.status_code == 400


CARD = re.compile(r"\b(?:10|[2-9TJQKA])[shdc]\b")


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in an answer."""
    return set(CARD.findall(repr(value)))


def visible(seen: Observation) -> set[str]:
    """Every card the seat could see at a step: its hand, and what lay or had lain face up."""
    cards = {str(card) for card in seen.hand} | {str(card) for card in seen.discard_pile}
    for meld in seen.melds:
        cards |= set(CARD.findall(meld.text))
    for group in (*seen.known_cards, *seen.refused, *seen.thrown):
        cards |= {str(card) for card in group}
    return cards


def test_the_answer_holds_no_card_the_seat_could_not_see(
    client: TestClient, game: tuple[str, str, GameRecord]
) -> None:
    table_id, token, record = game
    for point in decision_points(record, 0)[:6]:
        moves = [str(point.played), COMPUTER, COMPUTER]
        answer = tried(client, table_id, token, body_of(point, moves)).json()
        allowed = visible(point.observation) | set(answer["view"]["hand"])
        shown_by_others: set[str] = set()
        for move in answer["line"]:
            if not move["action"].startswith(f"{point.observation.seat} "):
                shown_by_others |= cards_in(move["action"])
            else:  # cards it took from the pile, or drew from the stock and then played
                allowed |= set(move["taken"]) | cards_in(move["action"])
        # a card the seat did not see at the step and does not hold was laid face up since
        assert cards_in(answer) <= allowed | shown_by_others
        # before any other seat acts, nothing it could not see is named at all
        alone = tried(client, table_id, token, body_of(point, [])).json()
        assert cards_in(alone) <= visible(point.observation)


def test_the_answer_does_not_depend_on_the_cards_the_record_hid(
    client: TestClient, game: tuple[str, str, GameRecord]
) -> None:
    table_id, token, record = game
    point = a_decision(record, index=3)
    moves = [str(point.played), COMPUTER, COMPUTER]
    answer = tried(client, table_id, token, body_of(point, moves)).json()
    # another world the seat could not tell from the true one: its hidden cards dealt afresh
    other = JUDGE.sampler(point.observation, random.Random(99))
    assert observe(other, 0) == point.observation
    truth = position_at(record, point.deal, point.action)
    assert [sorted(hand) for hand in other.hands] != [sorted(hand) for hand in truth.hands]
    elsewhere = DecisionPoint(point.deal, point.action, observe(other, 0), point.played)
    made = analyse(elsewhere, moves, SAMPLES)
    body = body_of(point, moves)
    assert (
        analysis_answer(AnalysisRequest.model_validate(body), made).model_dump(mode="json")
        == answer
    )


def test_too_many_analyses_at_once_are_refused(
    client: TestClient, game: tuple[str, str, GameRecord], monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, token, record = game
    body = body_of(a_decision(record), [])
    monkeypatch.setattr(analysis_routes, "MAX_ANALYSES_A_CLIENT", 0)
    answer = tried(client, table_id, token, body)
    own = ErrorAnswer.said("own_analyses_busy", count=0).model_dump()
    assert (answer.status_code, answer.json()) == (429, own)
    monkeypatch.setattr(analysis_routes, "MAX_ANALYSES_A_CLIENT", 2)
    monkeypatch.setattr(analysis_routes, "MAX_ANALYSES", 0)
    answer = tried(client, table_id, token, body)
    busy = {"error": answer_text("analyses_busy"), "reason": "analyses_busy"}
    assert (answer.status_code, answer.json()) == (503, busy)
    monkeypatch.setattr(analysis_routes, "MAX_ANALYSES", 8)
    assert tried(client, table_id, token, body).status_code == 200
    assert not analysis_routes.analyses_of(client.app).running  # type: ignore[arg-type]


def test_a_game_one_may_not_see_or_not_over_is_refused_as_its_review_is(
    client: TestClient, game: tuple[str, str, GameRecord]
) -> None:
    table_id, _, record = game
    body = body_of(a_decision(record), [])
    unseen = ErrorAnswer.said("game_unseen").model_dump()
    for where in (table_id, "nosuchgame"):
        answer = tried(client, where, None, body)
        assert (answer.status_code, answer.json()) == (404, unseen)
    going_on, token = create_table(client, name="Ann", seed=3)
    answer = tried(client, going_on, token, body)
    not_over = ErrorAnswer.said("game_not_over").model_dump()
    assert (answer.status_code, answer.json()) == (409, not_over)
