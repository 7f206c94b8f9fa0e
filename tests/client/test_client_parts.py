"""The client's small parts: the waits between tries, the send throttle, what a member sends
from a party view, the seat file, and the codes read from links."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummykit.client.addresses import party_code, party_reference
from rummykit.client.party import PartyPlan, wanted
from rummykit.client.seat_file import Seat, SeatFileError, load_seat, save_seat
from rummykit.client.sockets import Backoff, Throttle, socket_url
from rummykit.protocol.party import AddCpu, MemberView, PartyView, Ready, Start


def test_the_waits_double_from_half_a_second_to_eight_with_jitter() -> None:
    backoff = Backoff(rng=random.Random(4))
    waits = [backoff.next_wait() for _ in range(10)]
    wholes = [0.5, 1, 2, 4, 8, 8, 8, 8, 8, 8]
    assert all(whole / 2 <= wait <= whole for wait, whole in zip(waits, wholes, strict=True))
    assert len(set(waits)) == len(waits)  # drawn, not fixed
    backoff.reset()
    assert backoff.next_wait() <= 0.5


def test_the_throttle_waits_only_past_its_burst() -> None:
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    throttle = Throttle(burst=3, per_second=2.0, sleep=sleep, clock=lambda: now[0])
    for _ in range(3):
        throttle.wait()
    assert slept == []
    throttle.wait()
    assert slept and sum(slept) == pytest.approx(0.5)


def _member(id: int, kind: str = "human", ready: bool = False) -> MemberView:
    level = "basic" if kind == "bot" else None
    return MemberView.model_validate(
        {
            "id": id,
            "name": f"M{id}",
            "kind": kind,
            "level": level,
            "ready": ready or kind == "bot",
            "connected": True,
            "host": id == 0,
        }
    )


def _party(*members: MemberView, me: int = 0, state: str = "lobby") -> PartyView:
    return PartyView.model_validate(
        {
            "code": "ABCDEF",
            "url": "/#/party/ABCDEF",
            "state": state,
            "host": 0,
            "me": me,
            "members": [member.model_dump() for member in members],
            "preset": "classic",
            "rules": {},
            "turn_timer": None,
            "spectators": True,
            "table": None,
            "games": 0,
        },
        strict=False,
    )


def test_a_member_marks_ready_then_waits() -> None:
    assert isinstance(wanted(_party(_member(0), _member(1), me=1), PartyPlan()), Ready)
    ready = _party(_member(0), _member(1, ready=True), me=1)
    assert wanted(ready, PartyPlan()) is None


def test_the_host_adds_its_computer_players_then_starts_when_enough_are_ready() -> None:
    plan = PartyPlan(host=True, seats=3, cpus=("basic",))
    host = _member(0, ready=True)
    added = wanted(_party(host), plan)
    assert isinstance(added, AddCpu) and added.d.level == "basic"
    assert wanted(_party(host, _member(1, "bot")), plan) is None  # two of three
    waiting = _party(host, _member(1, "bot"), _member(2))
    assert wanted(waiting, plan) is None  # the third is not ready
    assert isinstance(wanted(_party(host, _member(1, "bot"), _member(2, ready=True)), plan), Start)
    assert wanted(_party(host, state="playing"), plan) is None


def test_a_seat_file_keeps_one_partys_seat(tmp_path: Path) -> None:
    path = tmp_path / "seat.json"
    assert load_seat(path, "http://h:1", "ABCDEF") is None
    seat = Seat(server="http://h:1", code="ABCDEF", token="t", member=2, name="Bob")
    save_seat(path, seat)
    assert load_seat(path, "http://h:1", "abcdef") == seat
    with pytest.raises(SeatFileError, match="another file"):
        load_seat(path, "http://h:1", "ZZZZZZ")
    path.write_text("{}")
    with pytest.raises(SeatFileError, match="not a seat"):
        load_seat(path, "http://h:1", "ABCDEF")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("K7QM2P", "K7QM2P"),
        ("k7qm2p", "K7QM2P"),
        ("http://127.0.0.1:8000/#/party/K7QM2P", "K7QM2P"),
        ("https://rummy.example/#/party/k7qm2p?x=1", "K7QM2P"),
    ],
)
def test_a_party_is_found_by_its_code_or_its_link(text: str, code: str) -> None:
    assert party_code(text) == code


KEY = "q7Bn-_0123456789abcdef"
"""A link's key as the server makes them (22 letters of ``secrets.token_urlsafe(16)``)."""


@pytest.mark.parametrize(
    ("text", "reference"),
    [
        (f"http://127.0.0.1:8000/#/party/k7qm2p.{KEY}", f"K7QM2P.{KEY}"),
        (f"https://rummy.example/#/party/K7QM2P.{KEY}?x=1", f"K7QM2P.{KEY}"),
        ("http://127.0.0.1:8000/#/party/K7QM2P", "K7QM2P"),
        ("k7qm2p", "K7QM2P"),
    ],
)
def test_a_join_names_the_party_by_its_links_key_when_it_has_one(text: str, reference: str) -> None:
    assert party_reference(text) == reference
    assert party_code(text) == "K7QM2P"


@pytest.mark.parametrize("text", ["", "K7", "K7QM-2P", "http://127.0.0.1:8000/"])
def test_anything_else_is_no_party(text: str) -> None:
    with pytest.raises(ValueError, match="party"):
        party_code(text)


def test_sockets_live_on_the_servers_address() -> None:
    assert socket_url("http://127.0.0.1:8000/", "/ws/t") == "ws://127.0.0.1:8000/ws/t"
    assert socket_url("https://rummy.example/base", "/ws/t") == "wss://rummy.example/base/ws/t"
