"""Challenges between people over their inbox sockets: made, shown, answered, closed.

The challenges' clock is the tests' ``ManualClock``: a challenge runs out only when a test
moves it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from finding_sockets import InboxSocket, inbox_page
from party_client import account
from rummykit.protocol import (
    CHALLENGE_EXPIRES_S,
    MAX_CHALLENGES_WAITING,
    CloseCode,
)
from table_client import ManualClock

pytestmark = pytest.mark.timeout(30)


Opener = Callable[[dict[str, str]], contextlib.AbstractContextManager[InboxSocket]]


@pytest.fixture
def inbox(app_client: TestClient) -> Opener:
    def opened(who: dict[str, str]) -> contextlib.AbstractContextManager[InboxSocket]:
        return inbox_page(app_client, who)

    return opened


def test_a_challenge_accepted_seats_both_at_a_ranked_table(
    app_client: TestClient, inbox: Opener
) -> None:
    ada, bob = account(app_client, "Ada"), account(app_client, "Bob")
    with inbox(ada) as mine, inbox(bob) as phone, inbox(bob) as laptop:
        mine.challenge("bob", preset="classic", turn_timer=60, ranked=True)  # any case
        sent = mine.data_of("challenge_sent")
        assert sent | {} == {
            "id": sent["id"],
            "by": "Ada",
            "to": "Bob",
            "preset": "classic",
            "turn_timer": 60,
            "ranked": True,
            "expires_in_s": int(CHALLENGE_EXPIRES_S),
        }
        assert phone.data_of("challenged") == laptop.data_of("challenged") == sent
        laptop.send("accept", {"id": sent["id"]})
        seats = [mine.data_of("paired"), laptop.data_of("paired")]
        assert phone.data_of("challenge_gone") == {"id": sent["id"], "reason": "accepted"}
    assert seats[0]["table"] == seats[1]["table"] and seats[0]["ranked"]
    party = app_client.get(f"/api/parties/{seats[0]['url'].rsplit('/', 1)[1]}").json()
    assert [member["name"] for member in party["members"]] == ["Ada", "Bob"]
    assert party["ranked"] and party["state"] == "playing" and party["turn_timer"] == 60


def test_a_challenge_declined_or_run_out_is_said_to_the_challenger(
    app_client: TestClient, inbox: Opener, clock: ManualClock
) -> None:
    ada, bob = account(app_client, "Ada"), account(app_client, "Bob")
    with inbox(ada) as mine, inbox(bob) as theirs:
        mine.challenge("Bob")
        first = theirs.data_of("challenged")
        theirs.send("decline", {"id": first["id"]})
        assert mine.data_of("challenge_gone")["reason"] == "declined"
        refused = mine.refused()
        assert refused["reason"] == "challenge_declined" and refused["params"] == {"name": "Bob"}
        assert refused["message"] == "Bob declined your challenge."
        theirs.send("accept", {"id": first["id"]})  # too late: it is closed
        assert theirs.refused()["reason"] == "challenge_closed"
        mine.challenge("Bob", turn_timer=30)
        second = theirs.data_of("challenged")
        assert second["id"] != first["id"] and second["turn_timer"] == 30
        clock.advance_once_sleeping(CHALLENGE_EXPIRES_S)
        assert theirs.data_of("challenge_gone") == {"id": second["id"], "reason": "expired"}
        assert mine.refused()["reason"] == "challenge_expired"


def test_a_challenge_is_refused_with_the_reason(app_client: TestClient, inbox: Opener) -> None:
    ada, bob = account(app_client, "Ada"), account(app_client, "Bob")
    account(app_client, "Robo", bot=True)
    with inbox(ada) as mine:
        for player, terms, reason in (
            ("Nobody", {}, "player_unknown"),
            ("ADA", {}, "challenge_self"),
            ("Bob", {}, "player_offline"),
            ("Robo", {}, "player_is_program"),
            ("Bob", {"ranked": True}, "ranked_timer"),
        ):
            mine.challenge(player, **terms)
            assert mine.refused()["reason"] == reason, player
        with inbox(bob):
            mine.challenge("Bob")
            mine.data_of("challenge_sent")
            mine.challenge("Bob")
            assert mine.refused()["reason"] == "challenge_waiting"
            mine.send("withdraw")
            assert mine.data_of("challenge_gone")["reason"] == "withdrawn"


def test_a_person_has_at_most_a_few_challenges_waiting(
    app_client: TestClient, inbox: Opener
) -> None:
    bob = account(app_client, "Bob")
    others = [account(app_client, f"Fan{n}") for n in range(MAX_CHALLENGES_WAITING + 1)]
    with contextlib.ExitStack() as stack, inbox(bob) as theirs:
        pages = [stack.enter_context(inbox(who)) for who in others]
        for page in pages[:-1]:
            page.challenge("Bob")
            page.data_of("challenge_sent")
        pages[-1].challenge("Bob")
        assert pages[-1].refused()["reason"] == "too_many_challenges"
        seen = [theirs.data_of("challenged")["by"] for _ in range(MAX_CHALLENGES_WAITING)]
        assert seen == [f"Fan{n}" for n in range(MAX_CHALLENGES_WAITING)]


def test_pages_that_close_close_their_challenges(app_client: TestClient, inbox: Opener) -> None:
    ada, bob = account(app_client, "Ada"), account(app_client, "Bob")
    with inbox(bob) as theirs:
        with inbox(ada) as mine:
            mine.challenge("Bob")
            theirs.data_of("challenged")
        assert theirs.data_of("challenge_gone")["reason"] == "offline"  # the challenger left
    with inbox(ada) as mine:
        with inbox(bob):
            mine.challenge("Bob")
            mine.data_of("challenge_sent")
        assert mine.data_of("challenge_gone")["reason"] == "offline"  # nobody to answer
        assert mine.refused()["reason"] == "player_offline"


def test_a_person_is_online_while_a_page_of_theirs_is_open(
    app_client: TestClient, inbox: Opener
) -> None:
    bob = account(app_client, "Bob")

    def online() -> bool:
        answer: bool = app_client.get("/api/players/Bob").json()["online"]
        return answer

    assert not online()
    with inbox(bob), inbox(bob):
        assert online()
    assert not online()  # both pages closed (their closing ran to its end)


def test_a_page_opened_later_sees_the_challenges_waiting(
    app_client: TestClient, inbox: Opener
) -> None:
    ada, bob = account(app_client, "Ada"), account(app_client, "Bob")
    with inbox(bob), inbox(ada) as mine:
        mine.challenge("Bob", turn_timer=30)
        sent = mine.data_of("challenge_sent")
        app_client.cookies.clear()
        with app_client.websocket_connect("/ws/inbox", headers=bob) as websocket:
            websocket.send_text(json.dumps({"t": "hello", "v": 0, "d": {}}))
            opened = InboxSocket(websocket).data_of("inbox")
    assert opened == {"name": "Bob", "challenges": [sent]}


def test_a_guest_has_no_inbox(app_client: TestClient) -> None:
    app_client.cookies.clear()
    with app_client.websocket_connect("/ws/inbox") as websocket:
        websocket.send_text(json.dumps({"t": "hello", "v": 0, "d": {}}))
        with pytest.raises(WebSocketDisconnect) as closed:
            websocket.receive_text()
    assert closed.value.code == CloseCode.NO_SEAT
