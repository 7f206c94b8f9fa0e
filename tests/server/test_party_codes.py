"""A party's code can be guessed, so its link carries a key and codes alone are limited.

Issue 29: codes carry about 30 bits and 50 addresses got 544 guesses a second answered, so a
hundred addresses found one of a thousand parties in about half an hour, and a find is a
seat. Now the invite link holds a key of 128 bits, and requests naming a party by its code
alone may miss ``CODE_MISSES_PER_MINUTE`` times a minute across every address together.
"""

from __future__ import annotations

import json
import random

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from party_client import party_socket
from rummykit.protocol.messages import CloseCode
from rummykit.server.parties.party import CODE_LENGTH, CODE_LETTERS, PartyRecord
from rummykit.server.parties.party_reference import (
    CODE_MISSES_PER_MINUTE,
    CodeGuesses,
    PartyReference,
)
from table_client import ManualClock, hello


def made_party(client: TestClient) -> tuple[str, str, str]:
    """A new party: its code, its link's reference (``CODE.KEY``) and the host's token."""
    answer = client.post("/api/parties", json={"name": "Ann"}).json()
    reference = answer["url"].removeprefix("/#/party/")
    return answer["code"], reference, answer["token"]


def wrong_codes(count: int, taken: str) -> list[str]:
    """``count`` party codes other than ``taken``, as a guesser draws them."""
    draw = random.Random(29)
    codes: list[str] = []
    while len(codes) < count:
        code = "".join(draw.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if code != taken:
            codes.append(code)
    return codes


def spend_the_misses(client: TestClient, taken: str) -> None:
    for code in wrong_codes(CODE_MISSES_PER_MINUTE, taken):
        assert client.get(f"/api/parties/{code}").status_code == 404


def test_the_invite_link_carries_a_key_of_128_bits(app_client: TestClient) -> None:
    keys = set()
    for _ in range(20):
        code, reference, _ = made_party(app_client)
        found = PartyReference.parse(reference)
        assert found is not None and found.code == code and found.key is not None
        assert len(found.key) == 22  # 16 bytes of secrets.token_urlsafe
        keys.add(found.key)
    assert len(keys) == 20


def test_once_wrong_codes_are_spent_a_code_alone_gets_no_answer(
    app_client: TestClient, clock: ManualClock
) -> None:
    code, _, _ = made_party(app_client)
    spend_the_misses(app_client, code)
    # the right code now gets no answer either: a guesser cannot tell a hit from a miss
    looked = app_client.get(f"/api/parties/{code}")
    assert looked.status_code == 429
    assert 1 <= int(looked.headers["Retry-After"]) <= 60
    joined = app_client.post(f"/api/parties/{code}/join", json={"name": "Guess"})
    assert joined.status_code == 429
    assert "invite link" in joined.json()["error"]
    # the allowance comes back with time: 30 a minute
    clock.advance(60 / CODE_MISSES_PER_MINUTE)
    assert app_client.get(f"/api/parties/{code}").status_code == 200


def test_right_codes_do_not_spend_the_allowance(app_client: TestClient) -> None:
    code, _, _ = made_party(app_client)
    for _ in range(3 * CODE_MISSES_PER_MINUTE):
        assert app_client.get(f"/api/parties/{code}").status_code == 200


def test_the_link_and_a_members_token_work_whatever_guessers_did(
    app_client: TestClient,
) -> None:
    code, reference, host = made_party(app_client)
    spend_the_misses(app_client, code)
    assert app_client.get(f"/api/parties/{reference}").status_code == 200
    joined = app_client.post(f"/api/parties/{reference}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
    with party_socket(app_client, code, host) as ann:  # a member: the code and a token
        assert len(ann.party["members"]) == 2
    with party_socket(app_client, reference, None) as visitor:  # a visitor with the link
        assert visitor.party["code"] == code


def test_a_wrong_key_is_a_code_alone(app_client: TestClient) -> None:
    code, _, _ = made_party(app_client)
    forged = f"{code}.{'A' * 22}"
    spend_the_misses(app_client, code)
    assert app_client.get(f"/api/parties/{forged}").status_code == 429


def test_a_visitor_by_code_alone_is_closed_once_the_misses_are_spent(
    app_client: TestClient,
) -> None:
    code, _, _ = made_party(app_client)
    spend_the_misses(app_client, code)
    with app_client.websocket_connect(f"/ws/party/{code}") as websocket:
        websocket.send_text(hello(None))
        with pytest.raises(WebSocketDisconnect) as closed:
            websocket.receive_text()
    assert closed.value.code == CloseCode.NO_SEAT


def test_a_guesser_gets_no_seat_and_few_answers(app_client: TestClient, clock: ManualClock) -> None:
    """Ten minutes of guessing, four times the allowed rate: no seat, 30 misses a minute."""
    code, _, _ = made_party(app_client)
    answered: list[int] = []
    guesses = iter(wrong_codes(2400, code))
    for _ in range(600):  # ten minutes, two guesses a second
        for _ in range(2):
            tried = app_client.post(f"/api/parties/{next(guesses)}/join", json={"name": "G"})
            if tried.status_code != 429:
                answered.append(tried.status_code)
        clock.advance(1)
    assert set(answered) == {404}  # and so no seat
    # a full allowance, then 30 a minute: 330 answers in ten minutes, at most
    assert CODE_MISSES_PER_MINUTE * 10 <= len(answered) <= CODE_MISSES_PER_MINUTE * 11


def test_the_allowance_refills_evenly() -> None:
    now = [0.0]
    guesses = CodeGuesses(per_minute=30, clock=lambda: now[0])
    for _ in range(30):
        assert guesses.may_look()
        guesses.missed()
    assert not guesses.may_look()
    assert guesses.retry_after_s() == 2
    now[0] += 2
    assert guesses.may_look()
    now[0] += 3600
    guesses.missed()
    assert guesses.left == 29  # never more than a minute's worth saved up


def expected_days_to_find_a_party(parties: int, per_minute: int) -> float:
    """The guesser's expected time at the site-wide rate, whatever its addresses."""
    codes = len(CODE_LETTERS) ** CODE_LENGTH
    return codes / parties / per_minute / 60 / 24


def test_a_thousand_parties_take_a_guesser_weeks_to_find_one() -> None:
    assert expected_days_to_find_a_party(1000, CODE_MISSES_PER_MINUTE) > 14


def test_a_party_made_before_links_had_keys_is_still_found_by_its_code(
    app_client: TestClient,
) -> None:
    code, _, _ = made_party(app_client)
    party = app_client.app.state.lobby.parties[code]  # type: ignore[attr-defined]
    stored = party.record.model_dump(mode="json")
    del stored["key"]  # as such a party was stored
    party.record = PartyRecord.model_validate_json(json.dumps(stored))  # as the store reads it
    assert party.record.key is None
    view = app_client.get(f"/api/parties/{code}")
    assert view.status_code == 200 and view.json()["url"] == f"/#/party/{code}"
    joined = app_client.post(f"/api/parties/{code}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
