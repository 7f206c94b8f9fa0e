"""Every answer names its intent (issue 31): a refusal carries the ``n`` of the intent it
refuses, an applied ``act``, ``next``, ``redeal`` or ``pace`` is acknowledged with ``applied``
and its ``n``, and every intent may carry an ``n``. A client with several intents in flight
then never blames the wrong one."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from table_client import (
    Frame,
    SeatSocket,
    create_table,
    is_my_turn,
    seat_connection,
    seed_where_human_starts,
)

pytestmark = pytest.mark.timeout(60)


def answer_to(seat: SeatSocket, n: int) -> Frame:
    """The next ``refused`` or ``applied`` that names intent ``n`` (others are skipped)."""
    return seat.until(lambda frame: frame["t"] in ("refused", "applied") and frame.get("n") == n)


def my_turn(seat: SeatSocket) -> dict[str, Any]:
    view = seat.until(lambda frame: frame["t"] == "view" and is_my_turn(frame["d"]))
    seen: dict[str, Any] = view["d"]
    return seen


def test_two_intents_in_flight_are_answered_each_by_its_number(client: TestClient) -> None:
    table_id, token = create_table(client, seed=seed_where_human_starts(2), opponents=["basic"])
    with seat_connection(client, table_id, token) as seat:
        view = my_turn(seat)
        judged = seat.version
        discard = next(card for card in view["hand"])
        # both sent against the same version, before either is answered
        seat.send("act", {"action": "draw stock"}, version=judged, n=1)
        seat.send("act", {"action": f"discard {discard}"}, version=judged, n=2)
        answers = [seat.until(lambda frame: frame["t"] in ("refused", "applied")) for _ in range(2)]
        applied, refused = sorted(answers, key=lambda frame: frame["n"])
        assert applied == {"t": "applied", "v": judged + 1, "n": 1}
        assert refused["t"] == "refused" and refused["n"] == 2
        assert refused["d"]["code"] == "stale" and refused["v"] == judged + 1
        # a move the rules refuse names its number too, and the table does not move
        seat.send("act", {"action": "discard ZZ"}, n=3)
        refusal = answer_to(seat, 3)
        assert refusal["t"] == "refused" and refusal["v"] == judged + 1
        # a resend of an applied intent: the view, and its applied again; nothing played twice
        seat.send("act", {"action": "draw stock"}, version=judged, n=1)
        again = answer_to(seat, 1)
        assert again == {"t": "applied", "v": judged + 1, "n": 1}


def test_every_intent_may_carry_a_number_and_its_refusal_names_it(client: TestClient) -> None:
    table_id, token = create_table(client, seed=seed_where_human_starts(2), opponents=["basic"])
    with seat_connection(client, table_id, token) as seat:
        my_turn(seat)
        seat.send("pace", {"ms": 0}, n=1)
        assert answer_to(seat, 1)["t"] == "applied"
        # a table of one person and the computer is no party's: these are refused, by number
        for n, kind in ((2, "leave"), (3, "rematch"), (4, "next")):
            seat.send(kind, n=n)
            refusal = answer_to(seat, n)
            assert refusal["t"] == "refused", kind
            assert refusal["d"]["code"] != "bad_message", refusal
        seat.send("react", {"reaction": "good_luck"}, n=5)
        seat.send("hint", n=6)
        seat.until(lambda frame: frame["t"] == "hint")
        seat.send("hello", {"token": token}, n=7)  # a hello carries no number: unreadable
        refusal = seat.refused()
        assert refusal["d"]["code"] == "bad_message" and "n" not in refusal


def test_an_intent_without_a_number_gets_no_applied(client: TestClient) -> None:
    table_id, token = create_table(client, seed=seed_where_human_starts(2), opponents=["basic"])
    with seat_connection(client, table_id, token) as seat:
        my_turn(seat)
        before = seat.version
        seat.send("act", {"action": "draw stock"})
        seat.until(lambda frame: frame["t"] == "view" and frame["v"] > before)
        seat.send("act", {"action": "discard ZZ"})
        refusal = seat.refused()
        assert "n" not in refusal
        assert not [frame for frame in seat.frames if frame["t"] == "applied"]


def test_a_version_from_the_future_is_refused_as_such(client: TestClient) -> None:
    table_id, token = create_table(client, seed=seed_where_human_starts(2), opponents=["basic"])
    with seat_connection(client, table_id, token) as seat:
        my_turn(seat)
        now = seat.version
        seat.send("act", {"action": "draw stock"}, version=now + 100, n=1)
        refusal = answer_to(seat, 1)
        assert refusal["d"]["code"] == "stale" and refusal["d"]["reason"] == "version_ahead"
        assert refusal["d"]["params"] == {"sent": now + 100, "table": now}
        seat.send("act", {"action": "draw stock"}, version=now - 1, n=2)
        assert answer_to(seat, 2)["d"]["reason"] == "stale"  # behind: merely stale
    # a hello from the future: the same refusal, then the view
    with seat_connection(client, table_id, token, last=now + 5) as seat:
        first = seat.recv()
        assert first["t"] == "refused" and first["d"]["reason"] == "version_ahead"
        assert first["d"]["params"] == {"sent": now + 5, "table": now}
        assert seat.recv()["t"] == "view"
