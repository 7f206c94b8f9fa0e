"""Budgets per identity: programs on one address each have their own, checked credentials only.

Every program on one machine shared one address's budget, so one noisy program throttled the
others. A request that shows a seat's token or a session the server has checked now counts
against that seat or account; unchecked credentials (a guessed token) still count against the
address, and all the identities of one address together have a ceiling.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rummykit.protocol import SESSION_COOKIE
from rummykit.protocol.limits import Limits
from table_client import ManualClock, bearer, create_table, limited_client

LIMITS = Limits(
    socket_burst=None,
    address_burst=8,
    address_per_second=1,
    identity_burst=5,
    identity_per_second=1,
    identities_per_address=2,
)
"""Small budgets: 8 unchecked requests an address, 5 an identity, 10 for all of them."""


@pytest.fixture
def limited(store_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """A client of a server with these small limits, on a clock the test moves."""
    with limited_client(store_path, clock, LIMITS) as client:
        yield client


def views(client: TestClient, table_id: str, token: str, count: int) -> list[int]:
    """The statuses of ``count`` asks for the seat's view."""
    path = f"/api/tables/{table_id}"
    return [client.get(path, headers=bearer(token)).status_code for _ in range(count)]


def test_a_noisy_program_is_refused_alone_and_the_others_on_its_address_play_on(
    limited: TestClient, clock: ManualClock
) -> None:
    noisy = create_table(limited)  # the address's budget: 1 of 8
    quiet = create_table(limited)  # 2 of 8
    # the first ask with a token is the address's (3 and 4 of 8) and checks the token
    assert views(limited, *noisy, 1) == [200]
    assert views(limited, *quiet, 1) == [200]
    # from then on each seat has its own 5, and the noisy one spends all of them
    assert views(limited, *noisy, 7) == [200] * 5 + [429] * 2
    refused = limited.get(f"/api/tables/{noisy[0]}", headers=bearer(noisy[1]))
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "1"  # one request a second comes back
    assert refused.json()["reason"] == "too_many_requests"
    # the quiet program is not throttled by it, nor are the address's own requests
    assert views(limited, *quiet, 5) == [200] * 5
    assert limited.get("/api/tables/t", headers=bearer("guess")).status_code == 404
    # and the noisy one is answered again once its budget has room
    clock.advance(2)
    assert views(limited, *noisy, 3) == [200, 200, 429]


def test_a_guessed_token_counts_against_the_address(limited: TestClient) -> None:
    # Guesses are never checked, so they cannot buy a budget of their own.
    statuses = [
        limited.get("/api/tables/t", headers=bearer(f"guess{n}")).status_code for n in range(10)
    ]
    assert statuses == [404] * 8 + [429] * 2


def test_the_identities_of_one_address_share_a_ceiling(limited: TestClient) -> None:
    # Making tables for their tokens cannot buy an address an unbounded rate: its identities
    # together have two identities' budgets (10 requests at once here).
    seats = [create_table(limited) for _ in range(3)]  # 3 of 8
    for seat in seats:
        assert views(limited, *seat, 1) == [200]  # checked: 6 of 8
    assert views(limited, *seats[0], 5) == [200] * 5
    assert views(limited, *seats[1], 5) == [200] * 5
    assert views(limited, *seats[2], 1) == [429]  # its own budget is full; the ceiling is not


def test_a_signed_in_session_is_counted_against_its_account(
    limited: TestClient, clock: ManualClock
) -> None:
    made = limited.post("/api/accounts", json={"name": "Ada", "password": "correct horse 42!"})
    assert made.status_code == 200, made.text
    session = limited.cookies[SESSION_COOKIE]
    limited.cookies.clear()
    signed_in = {"Cookie": f"{SESSION_COOKIE}={session}"}
    statuses = [limited.get("/api/me", headers=signed_in).status_code for _ in range(7)]
    # the first (the address's) checks the session; then the account's own 5; then refused
    assert statuses == [200] * 6 + [429]
    assert limited.get("/api/me", headers=signed_in).headers["retry-after"] == "1"
    # a visitor on the same address who is not signed in is still answered
    anonymous = [limited.get("/api/me").status_code for _ in range(5)]
    assert anonymous == [200] * 5
    assert limited.get("/api/me").json() == {"signed_in": False}
