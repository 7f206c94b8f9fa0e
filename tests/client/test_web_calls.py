"""The client's requests (``rummykit.client.web`` and the leaderboard's) against a fake answer:
what each sends, and how each answer, refusal or failure comes back. No server, no network."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.client import addresses, ratings, web
from rummykit.client.web import PartyRefused, ServerError
from rummykit.protocol.party import NewParty
from rummykit.ratings import Pool


class FakeServer:
    """Answers every request with the next answer given, and keeps the requests."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, bytes]] = []
        self.requests: list[urllib.request.Request] = []

    def answer(self, status: int, body: object) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.answers.append((status, data))

    def __call__(self, request: urllib.request.Request) -> tuple[int, bytes]:
        self.requests.append(request)
        return self.answers.pop(0)

    @property
    def last(self) -> urllib.request.Request:
        return self.requests[-1]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    fake = FakeServer()
    monkeypatch.setattr(web, "_answer", fake)
    yield fake
    assert not fake.answers, "an answer was left unasked"


JOINED = {"code": "K7QM2P", "member": 2, "token": "t" * 32, "url": "/#/party/K7QM2P"}


@pytest.mark.parametrize(
    ("given", "address"),
    [
        ("http://host:8000", "http://host:8000"),
        (" https://host/rummy/ ", "https://host/rummy"),
        ("http://host:8000/?x=1#y", "http://host:8000"),
    ],
)
def test_an_address_is_kept_without_its_trailing_slash(given: str, address: str) -> None:
    assert addresses.base_url(given) == address


@pytest.mark.parametrize("given", ["host:8000", "ftp://host", "http://", ""])
def test_what_is_no_server_address_is_refused(given: str) -> None:
    with pytest.raises(ValueError, match="is not a server address"):
        addresses.base_url(given)


def test_a_get_asks_for_json_and_carries_the_token_and_the_signed_headers(
    server: FakeServer,
) -> None:
    server.answer(200, {"ok": True})
    answer = web._call("http://host/", "/api/x", token="secret", signed={"Cookie": "s=1"})
    assert answer == {"ok": True}
    request = server.last
    assert (request.get_method(), request.full_url) == ("GET", "http://host/api/x")
    assert request.get_header("Authorization") == "Bearer secret"
    assert request.get_header("Cookie") == "s=1"
    assert request.get_header("Accept") == "application/json"
    assert request.data is None


def test_a_new_party_is_posted_without_its_defaults(server: FakeServer) -> None:
    server.answer(200, JOINED)
    joined = web.create_party("http://host", NewParty(name="Ann", turn_timer=30))
    assert (joined.code, joined.member) == ("K7QM2P", 2)
    request = server.last
    assert (request.get_method(), request.full_url) == ("POST", "http://host/api/parties")
    assert isinstance(request.data, bytes)
    assert json.loads(request.data) == {"name": "Ann", "turn_timer": 30}


def test_a_refusal_says_the_servers_sentence_and_status(server: FakeServer) -> None:
    server.answer(403, {"error": "Not yours."})
    with pytest.raises(ServerError) as refused:
        web._call("http://host", "/api/x")
    assert (refused.value.message, refused.value.status) == ("Not yours.", 403)
    server.answer(500, b"<html>oops</html>")
    with pytest.raises(ServerError, match=r"The server answered 500\."):
        web._call("http://host", "/api/x")


def test_an_answer_that_is_not_json_is_said_so(server: FakeServer) -> None:
    server.answer(200, b"<html>")
    with pytest.raises(ServerError, match="answer to /api/x is not JSON"):
        web._call("http://host", "/api/x")


def test_a_join_refused_with_409_carries_its_code_and_whether_to_watch(server: FakeServer) -> None:
    refusal = {
        "error": "Every seat is taken.",
        "code": "party_full",
        "reason": "party_full",
        "watch": True,
    }
    server.answer(409, refusal)
    with pytest.raises(PartyRefused) as refused:
        web.join_party("http://host", "K7QM2P.abcdefghijklmnop", "Ann")
    assert (refused.value.code, refused.value.watch) == ("party_full", True)
    assert refused.value.message == "Every seat is taken."
    assert server.last.full_url == "http://host/api/parties/K7QM2P.abcdefghijklmnop/join"
    server.answer(409, {"error": "Started."})  # a 409 of another shape: its sentence still
    with pytest.raises(PartyRefused, match=r"Started\.") as other:
        web.join_party("http://host", "K7QM2P", "Ann")
    assert (other.value.code, other.value.watch) == (None, False)


def test_a_join_of_a_party_the_server_does_not_know_names_the_code(server: FakeServer) -> None:
    server.answer(404, {"error": "Not found."})
    with pytest.raises(PartyRefused) as refused:
        web.join_party("http://host", "K7QM2P.abcdefghijklmnop", "Ann")
    assert refused.value.code == "unknown_party"
    assert refused.value.message == "There is no party K7QM2P on this server: check the code."


def test_a_join_answered_with_something_else_is_not_taken_for_a_seat(server: FakeServer) -> None:
    server.answer(200, {"code": "K7QM2P"})
    with pytest.raises(ServerError, match="is not a PartyJoined"):
        web.join_party("http://host", "K7QM2P", "Ann")


def test_a_game_record_must_be_an_object(server: FakeServer) -> None:
    server.answer(200, {"format": "rummy-record/1"})
    assert web.game_record("http://host", "t/1", "tok") == {"format": "rummy-record/1"}
    assert server.last.full_url == "http://host/api/games/t/1/record"
    assert server.last.get_header("Authorization") == "Bearer tok"
    server.answer(200, [1, 2])
    with pytest.raises(ServerError, match="record is not a JSON object"):
        web.game_record("http://host", "t1", "tok")


def test_the_invite_link_is_the_address_and_the_partys_path() -> None:
    assert web.invite_link("http://host:8000/", "/#/party/K7QM2P") == (
        "http://host:8000/#/party/K7QM2P"
    )


def test_a_server_that_cannot_be_reached_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(request: Any, timeout: float) -> Any:
        raise ConnectionRefusedError("refused")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    with pytest.raises(ServerError, match=r"Cannot reach the server at host:9: refused\.") as error:
        web._call("http://host:9", "/api/x")
    assert error.value.status is None


def test_the_leaderboard_asks_for_its_pool_and_everyone_only_when_told(server: FakeServer) -> None:
    entry = {"name": "Ann", "rating": 1510, "provisional": False, "games": 12, "bot": False}
    server.answer(200, [entry])
    assert ratings.leaderboard("http://host", Pool.WINNER, everyone=False) == [entry]
    assert server.last.full_url == "http://host/api/leaderboard?pool=winner"
    server.answer(200, [])
    ratings.leaderboard("http://host", Pool.PENALTY, everyone=True)
    assert server.last.full_url == "http://host/api/leaderboard?pool=penalty&all=1"
    server.answer(200, {"players": []})
    with pytest.raises(ServerError, match="not a list of players"):
        ratings.leaderboard("http://host", Pool.WINNER, everyone=False)


def test_the_leaderboard_table_marks_programs_and_provisional_ratings() -> None:
    lines = ratings.leaderboard_lines(
        [
            {"name": "Ann", "rating": 1510, "provisional": False, "games": 12, "bot": False},
            {"name": "Robot", "rating": 1490, "provisional": True, "games": 3, "bot": True},
        ]
    )
    assert lines == [
        "   #  NAME         RATING  GAMES",
        "   1  Ann            1510     12",
        "   2  Robot [BOT]   1490?      3",
    ]
