"""Programs' accounts online: the bot stream, challenges, invitations, their games and pool.

A program's stream is opened here by hand (``/ws/bot`` with its session cookie), as a program
written from docs/PROTOCOL.md would; a challenge waits for the program's answer, so it is
posted from a thread while the test answers on the stream.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from party_client import (
    SHORT_GAME,
    account,
    open_seat,
    party_socket,
    play_everyone,
    post,
    wait_ready,
)
from rummykit.protocol.bot_stream import BOT_SERVER_MESSAGES
from rummykit.protocol.messages import CloseCode

pytestmark = pytest.mark.timeout(120)

Frame = dict[str, Any]


class Stream:
    """A program's side of ``/ws/bot``: every frame checked against the published models."""

    def __init__(self, websocket: Any) -> None:
        self.websocket = websocket

    def recv(self) -> Frame:
        text = self.websocket.receive_text()
        BOT_SERVER_MESSAGES.validate_json(text)
        frame: Frame = json.loads(text)
        return frame

    def until(self, kind: str) -> Frame:
        for _ in range(50):
            frame = self.recv()
            if frame["t"] == kind:
                return frame
        raise AssertionError(f"no {kind} came")

    def send(self, kind: str, data: dict[str, Any]) -> None:
        self.websocket.send_text(json.dumps({"t": kind, "v": 0, "d": data}))


@contextlib.contextmanager
def online(client: TestClient, who: dict[str, str], **limits: Any) -> Iterator[Stream]:
    """The program whose session headers are ``who`` online with ``limits``: welcomed."""
    client.cookies.clear()
    with client.websocket_connect("/ws/bot", headers=who) as websocket:
        stream = Stream(websocket)
        stream.send("hello", {"limits": limits})
        welcome = stream.until("welcome")
        assert welcome["d"]["limits"] == {**welcome["d"]["limits"], **limits}
        yield stream


def challenge(client: TestClient, who: dict[str, str] | None, **body: Any) -> Any:
    """POST a ranked challenge of a short game, 60 s a turn (``body`` changes it)."""
    wanted = {"bot": "robo", "rules": SHORT_GAME, "turn_timer": 60, **body}
    return post(client, "/api/challenges", wanted, who)


def in_background(call: Any, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
    pool = concurrent.futures.ThreadPoolExecutor(1)
    future = pool.submit(call, *args, **kwargs)
    pool.shutdown(wait=False)
    return future


def test_the_stream_is_for_programs_accounts_only(app_client: TestClient) -> None:
    person = account(app_client, "Ada")
    for who in ({}, person):
        app_client.cookies.clear()
        with (
            app_client.websocket_connect("/ws/bot", headers=who) as websocket,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            websocket.receive_text()
        assert closed.value.code == CloseCode.NOT_A_PROGRAM


def test_a_program_online_is_listed_with_its_limits_and_a_second_stream_takes_over(
    app_client: TestClient,
) -> None:
    robo = account(app_client, "robo", bot=True)
    assert app_client.get("/api/bots").json() == {"bots": []}
    with online(app_client, robo, presets=["classic"], games=2) as first:
        (listed,) = app_client.get("/api/bots").json()["bots"]
        assert listed["name"] == "robo" and listed["playing"] == 0
        assert listed["limits"]["presets"] == ["classic"] and listed["limits"]["games"] == 2
        page = app_client.get("/api/players/robo").json()
        assert page["online"] is True and page["accepts"]["games"] == 2
        with online(app_client, robo, games=3):
            with pytest.raises(WebSocketDisconnect) as closed:
                first.recv()
            assert closed.value.code == CloseCode.REPLACED
            assert app_client.get("/api/bots").json()["bots"][0]["limits"]["games"] == 3
    assert app_client.get("/api/bots").json() == {"bots": []}
    assert app_client.get("/api/players/robo").json()["online"] is False


def test_a_challenge_accepted_is_played_to_its_end_and_rated_in_the_programs_pool(
    app_client: TestClient,
) -> None:
    ada, robo = account(app_client, "Ada"), account(app_client, "robo", bot=True)
    with online(app_client, robo) as stream:
        asked = in_background(challenge, app_client, ada)
        invitation = stream.until("invitation")["d"]
        assert invitation["host"] == "Ada" and invitation["challenge"] is True
        assert (invitation["ranked"], invitation["turn_timer"], invitation["seats"]) == (
            True,
            60,
            1,
        )
        stream.send("accept", {"invitation": invitation["id"]})
        answered = asked.result(timeout=30)
        assert answered.status_code == 200, answered.text
        made = answered.json()
        assert made["code"] == invitation["code"] and made["url"] == invitation["url"]
        joined = post(
            app_client, f"/api/parties/{invitation['url'].split('/')[-1]}/join", {"name": "x"}, robo
        )
        assert joined.status_code == 200, joined.text
        with party_socket(app_client, made["code"], joined.json()["token"]) as member:
            member.send("ready", {"ready": True})
            wait_ready(member)
        with party_socket(app_client, made["code"], made["token"]) as lobby:
            view = lobby.until_party(lambda party: len(party["members"]) == 2)
            assert [each["program"] for each in view["members"]] == [False, True]
            lobby.send("start")
            table = lobby.until_party(lambda party: party["table"] is not None)["table"]
        started = stream.until("game_started")["d"]
        assert started == {"code": made["code"], "table": table}
        assert app_client.get("/api/bots").json()["bots"][0]["playing"] == 1
        tokens = [made["token"], joined.json()["token"]]
        with (
            open_seat(app_client, table, tokens[0]) as one,
            open_seat(app_client, table, tokens[1]) as two,
        ):
            play_everyone({0: one, 1: two})
        assert stream.until("game_ended")["d"] == started
        assert app_client.get("/api/bots").json()["bots"][0]["playing"] == 0
        board = app_client.get("/api/leaderboard?pool=winner_bots&all=1").json()
        assert {(row["name"], row["bot"], row["online"]) for row in board} == {
            ("Ada", False, False),
            ("robo", True, True),
        }
    assert app_client.get("/api/leaderboard?pool=winner&all=1").json() == []
    assert set(app_client.get("/api/players/robo").json()["pools"]) == {"winner_bots"}


def test_a_person_may_choose_the_peoples_pool(app_client: TestClient) -> None:
    ada, robo = account(app_client, "Ada"), account(app_client, "robo", bot=True)
    with online(app_client, robo) as stream:
        asked = in_background(challenge, app_client, ada, program_pool=False)
        stream.send("accept", {"invitation": stream.until("invitation")["d"]["id"]})
        made = asked.result(timeout=30).json()
    party = app_client.get(f"/api/parties/{made['url'].split('/')[-1]}").json()
    assert party["program_pool"] is False and party["ranked"] is True


def test_a_declined_challenge_says_why_and_closes_its_party(app_client: TestClient) -> None:
    ada, robo = account(app_client, "Ada"), account(app_client, "robo", bot=True)
    with online(app_client, robo, presets=["classic"]) as stream:
        asked = in_background(challenge, app_client, ada, preset="party")
        invitation = stream.until("invitation")["d"]
        assert invitation["preset"] == "party"
        stream.send("decline", {"invitation": invitation["id"], "reason": "preset"})
        answered = asked.result(timeout=30)
        assert answered.status_code == 409
        refusal = answered.json()
        assert (refusal["code"], refusal["reason"]) == ("declined", "declined_preset")
        assert refusal["error"] == "robo declined: it does not play these house rules."
        assert refusal["params"] == {"name": "robo"}
        party = app_client.get(f"/api/parties/{invitation['url'].split('/')[-1]}").json()
        assert party["state"] == "closed"
        # an answer to an invitation no longer waiting is refused, and the stream goes on
        stream.send("accept", {"invitation": invitation["id"]})
        assert stream.until("refused")["d"]["code"] == "bad_message"


def test_a_silent_program_loses_the_invitation(app_client: TestClient) -> None:
    ada, robo = account(app_client, "Ada"), account(app_client, "robo", bot=True)
    app_client.app.state.lobby.bots.answer_within_s = 0.2  # type: ignore[attr-defined]
    with online(app_client, robo) as stream:
        answered = challenge(app_client, ada)
        assert (answered.status_code, answered.json()["reason"]) == (409, "bot_silent")
        invitation = stream.until("invitation")["d"]
        assert stream.until("invitation_gone")["d"] == {"invitation": invitation["id"]}


def test_challenges_need_a_signed_in_person_and_an_online_program(app_client: TestClient) -> None:
    ada = account(app_client, "Ada")
    guest = challenge(app_client, None)
    assert (guest.status_code, guest.json()["reason"]) == (401, "challenge_sign_in")
    for name, reason in (("nobody", "bot_unknown"), ("Ada", "bot_unknown")):
        answered = challenge(app_client, ada, bot=name)
        assert (answered.status_code, answered.json()["reason"]) == (409, reason)
    account(app_client, "robo", bot=True)
    offline = challenge(app_client, ada)
    assert (offline.status_code, offline.json()["reason"]) == (409, "bot_offline")
    assert offline.json()["error"] == "robo is not online just now: try again later."


def test_the_host_invites_a_program_to_the_party(app_client: TestClient) -> None:
    ada, robo = account(app_client, "Ada"), account(app_client, "robo", bot=True)
    made = post(app_client, "/api/parties", {"name": "Ada"}, ada).json()
    code = made["code"]
    guest = post(app_client, f"/api/parties/{code}/join", {"name": "Gus"}, None).json()
    with online(app_client, robo) as stream:
        not_host = post(
            app_client,
            f"/api/parties/{code}/invite",
            {"token": guest["token"], "bot": "robo"},
            None,
        )
        assert (not_host.status_code, not_host.json()["reason"]) == (409, "not_host")
        asked = in_background(
            post,
            app_client,
            f"/api/parties/{code}/invite",
            {"token": made["token"], "bot": "robo"},
            None,
        )
        invitation = stream.until("invitation")["d"]
        assert (invitation["challenge"], invitation["ranked"], invitation["seats"]) == (
            False,
            False,
            2,
        )
        stream.send("accept", {"invitation": invitation["id"]})
        answered = asked.result(timeout=30)
        assert answered.json() == {"accepted": True, "bot": "robo"}


def test_a_host_who_leaves_hands_the_party_to_a_person_never_to_a_program(
    app_client: TestClient,
) -> None:
    ada, robo = account(app_client, "Ada"), account(app_client, "robo", bot=True)
    made = post(app_client, "/api/parties", {"name": "Ada"}, ada).json()
    code = made["code"]
    assert post(app_client, f"/api/parties/{code}/join", {"name": "x"}, robo).status_code == 200
    with party_socket(app_client, code, made["token"]) as lobby:
        lobby.send("leave")
        lobby.until_party(lambda party: party["state"] == "closed")
    party = app_client.get(f"/api/parties/{code}").json()
    assert party["state"] == "closed" and [each["name"] for each in party["members"]] == ["robo"]
