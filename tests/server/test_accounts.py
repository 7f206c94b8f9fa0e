"""Accounts: sign up, sign in and out, who is signed in, and what guards them.

The password is never kept nor logged, a session is a cookie the page's scripts cannot read,
another site's page may not sign anyone up or in, and a flood of wrong passwords is refused
on the app's clock (moved by hand: no test sleeps).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit.protocol.account import SESSION_COOKIE
from rummykit.protocol.limits import Limits
from rummykit.server.accounts import account_routes
from rummykit.server.accounts.logins import (
    ADDRESS_FAILURES,
    NAME_FREE_FAILURES,
    NAME_WINDOW_S,
    PAIR_FAILURES,
    PAIR_WINDOW_S,
    LoginLimiter,
)
from rummykit.server.accounts.passwords import hash_password, needs_rehash, verify_password
from rummykit.server.http.guard import FOREIGN_ORIGIN_MESSAGE
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.store.store import SCHEMA_VERSION, SESSION_LIFETIME_S, Store, token_hash
from services import StoreBackend
from table_client import WORKERS, ManualClock

pytestmark = pytest.mark.timeout(60)

PASSWORD = "correct horse battery"
OWN = "http://testserver"
FOREIGN = ("https://evil.example", "null", "http://testserver.evil.example")


@contextlib.contextmanager
def serving(
    store_path: Path, clock: ManualClock, base_url: str = "http://testserver"
) -> Iterator[TestClient]:
    """The app on ``store_path``, its limits' clock and wall clock both ``clock``."""
    app = create_app(
        ServerConfig(store_path=store_path, limits=Limits.unlimited()),
        sleep=clock.sleep,
        workers=WORKERS,
        clock=clock.time,
        now=clock.time,
    )
    with TestClient(app, base_url=base_url) as client:
        yield client


@pytest.fixture
def accounts(store_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """A client of an app whose sign-in limit and sessions run on ``clock``."""
    with serving(store_path, clock) as client:
        yield client


def sign_up(
    client: TestClient, name: str = "Ada", headers: dict[str, str] | None = None, **body: Any
) -> Any:
    body.setdefault("password", PASSWORD)
    return client.post("/api/accounts", json={"name": name, **body}, headers=headers)


def sign_in(client: TestClient, name: str = "Ada", password: str = PASSWORD, **kw: Any) -> Any:
    return client.post("/api/session", json={"name": name, "password": password}, **kw)


def session_cookie(answer: Any) -> SimpleCookie:
    cookie = SimpleCookie()
    for header in answer.headers.get_list("set-cookie"):  # the session's and the device's
        cookie.load(header)
    assert SESSION_COOKIE in cookie
    return cookie


def signed_out(answer: Any) -> bool:
    """Whether ``GET /api/me`` answered that nobody is signed in (200, not an error)."""
    return bool(answer.status_code == 200 and answer.json() == {"signed_in": False})


def me_with(client: TestClient, token: str) -> Any:
    """``GET /api/me`` with that session token only (not the client's own cookies)."""
    client.cookies.clear()
    return client.get("/api/me", headers={"cookie": f"{SESSION_COOKIE}={token}"})


# ----- signing up, in and out -----------------------------------------------------------------


def test_signing_up_signs_in(accounts: TestClient) -> None:
    answer = sign_up(accounts)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"signed_in": True, "name": "Ada", "bot": False}
    assert accounts.get("/api/me").json() == {"signed_in": True, "name": "Ada", "bot": False}


def test_a_program_account_is_marked_as_one(accounts: TestClient) -> None:
    assert sign_up(accounts, "robo-1", bot=True).json() == {
        "signed_in": True,
        "name": "robo-1",
        "bot": True,
    }
    assert accounts.get("/api/me").json() == {"signed_in": True, "name": "robo-1", "bot": True}


@pytest.mark.parametrize("taken", ["Ada", "ada", "ADA"])
def test_a_name_is_taken_whatever_its_case(accounts: TestClient, taken: str) -> None:
    sign_up(accounts)
    answer = sign_up(accounts, taken, password="another password")
    assert answer.status_code == 409
    assert answer.json()["code"] == "name_taken"
    assert sign_in(accounts, taken).json() == {"signed_in": True, "name": "Ada", "bot": False}


@pytest.mark.parametrize(
    ("name", "password", "field"),
    [
        ("ab", PASSWORD, "name"),
        ("a" * 21, PASSWORD, "name"),
        ("Ada Lovelace", PASSWORD, "name"),
        ("Ad\u00e1", PASSWORD, "name"),
        ("Ada", "seven..", "password"),
        ("Ada", "x" * 129, "password"),
    ],
)
def test_names_and_passwords_out_of_bounds_are_refused(
    accounts: TestClient, name: str, password: str, field: str
) -> None:
    answer = sign_up(accounts, name, password=password)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(f"{field}:")
    assert password not in answer.text


def test_names_and_passwords_at_their_bounds_are_taken(accounts: TestClient) -> None:
    assert sign_up(accounts, "a-_", password="xK9#mQ2v").status_code == 200
    long = ("kettle piano \u00e9b\u00e8ne " * 7)[:128]
    assert sign_up(accounts, "B" * 20, password=long).status_code == 200


def test_a_body_too_large_is_refused_unread(accounts: TestClient) -> None:
    answer = sign_up(accounts, password="x" * 20_000)
    assert answer.status_code == 413


def test_sign_in_with_the_right_password_only(accounts: TestClient) -> None:
    sign_up(accounts)
    accounts.cookies.clear()
    wrong = sign_in(accounts, password="not the password")
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_login"
    assert "set-cookie" not in wrong.headers
    unknown = sign_in(accounts, "Nobody")
    assert (unknown.status_code, unknown.json()) == (401, wrong.json())  # tells nothing more
    assert signed_out(accounts.get("/api/me"))
    right = sign_in(accounts, "aDa")
    assert right.status_code == 200 and right.json() == {
        "signed_in": True,
        "name": "Ada",
        "bot": False,
    }
    assert accounts.get("/api/me").json()["name"] == "Ada"


def test_signing_out_ends_the_session_for_good(accounts: TestClient) -> None:
    token = session_cookie(sign_up(accounts))[SESSION_COOKIE].value
    answer = accounts.delete("/api/session")
    assert answer.status_code == 204
    cleared = session_cookie(answer)[SESSION_COOKIE]
    assert cleared.value == "" and cleared["max-age"] == "0"
    assert signed_out(accounts.get("/api/me"))
    assert signed_out(me_with(accounts, token))  # a copy of the cookie is no use


def test_each_sign_in_is_a_session_of_its_own(accounts: TestClient) -> None:
    """Another device signs in: signing out on one leaves the other signed in."""
    first = session_cookie(sign_up(accounts))[SESSION_COOKIE].value
    second = session_cookie(sign_in(accounts))[SESSION_COOKIE].value
    assert first != second
    accounts.cookies.clear()
    accounts.delete("/api/session", headers={"cookie": f"{SESSION_COOKIE}={first}"})
    assert signed_out(me_with(accounts, first))
    assert me_with(accounts, second).json()["name"] == "Ada"


@pytest.mark.parametrize("cookie", ["", "made-up", "x" * 500])
def test_me_without_a_working_session_answers_nobody_not_an_error(
    accounts: TestClient, cookie: str
) -> None:
    assert signed_out(me_with(accounts, cookie))


def test_a_session_ends_after_its_lifetime(accounts: TestClient, clock: ManualClock) -> None:
    token = session_cookie(sign_up(accounts))[SESSION_COOKIE].value
    clock.advance(SESSION_LIFETIME_S - 1)
    assert me_with(accounts, token).status_code == 200
    clock.advance(1)
    assert signed_out(me_with(accounts, token))


# ----- the cookie -----------------------------------------------------------------------------


def test_the_session_cookie_is_http_only_same_site_and_random(accounts: TestClient) -> None:
    cookie = session_cookie(sign_up(accounts))[SESSION_COOKIE]
    assert cookie["httponly"] is True
    assert cookie["samesite"].lower() == "lax"
    assert cookie["path"] == "/"
    assert int(cookie["max-age"]) == SESSION_LIFETIME_S
    assert not cookie["secure"]  # http: a browser would drop a Secure cookie
    assert len(cookie.value) >= 40
    other = session_cookie(sign_in(accounts))[SESSION_COOKIE]
    assert other.value != cookie.value


def test_the_session_cookie_is_secure_over_https(store_path: Path, clock: ManualClock) -> None:
    with serving(store_path, clock, base_url="https://testserver") as client:
        cookie = session_cookie(sign_up(client))[SESSION_COOKIE]
        assert cookie["secure"] is True and cookie["httponly"] is True
        assert client.get("/api/me").json()["name"] == "Ada"


def test_the_store_keeps_only_the_sessions_hash(accounts: TestClient, store_path: Path) -> None:
    token = session_cookie(sign_up(accounts))[SESSION_COOKIE].value
    with sqlite3.connect(store_path) as db:
        kept = [row[0] for row in db.execute("SELECT token FROM sessions")]
    assert kept == [token_hash(token)]
    assert signed_out(me_with(accounts, kept[0]))


def test_a_session_survives_a_server_restart(store_path: Path, clock: ManualClock) -> None:
    with serving(store_path, clock) as client:
        token = session_cookie(sign_up(client, "robo-1", bot=True))[SESSION_COOKIE].value
    with serving(store_path, clock) as client:
        assert me_with(client, token).json() == {"signed_in": True, "name": "robo-1", "bot": True}
        assert sign_in(client, "robo-1").status_code == 200


# ----- other sites' pages ---------------------------------------------------------------------


@pytest.mark.parametrize("origin", FOREIGN)
def test_another_sites_page_may_not_sign_up_in_or_out(accounts: TestClient, origin: str) -> None:
    sign_up(accounts)
    foreign = {"origin": origin}
    answers = [
        sign_up(accounts, "Eve", headers=foreign),
        sign_in(accounts, headers=foreign),
        accounts.delete("/api/session", headers=foreign),
    ]
    for answer in answers:
        assert answer.status_code == 403
        assert answer.json()["error"] == FOREIGN_ORIGIN_MESSAGE
        assert "set-cookie" not in answer.headers
    assert accounts.get("/api/me").json()["name"] == "Ada"  # still signed in
    assert sign_in(accounts, "Eve").status_code == 401  # never made


def test_the_own_page_signs_up_and_in(accounts: TestClient) -> None:
    own = {"origin": OWN}
    assert sign_up(accounts, headers=own).status_code == 200
    assert sign_in(accounts, headers=own).status_code == 200
    assert accounts.delete("/api/session", headers=own).status_code == 204


# ----- a flood of wrong passwords ---------------------------------------------------------------


def test_wrong_passwords_past_the_limit_wait_on_the_clock(
    accounts: TestClient, clock: ManualClock
) -> None:
    sign_up(accounts)
    for _ in range(PAIR_FAILURES):
        assert sign_in(accounts, password="guess guess").status_code == 401
        clock.advance(1)
    refused = sign_in(accounts)  # even the right password waits, from this address
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_attempts"
    wait = int(refused.headers["retry-after"])
    assert wait == PAIR_WINDOW_S - PAIR_FAILURES
    assert f"{wait} s" in refused.json()["error"]
    clock.advance(wait - 1)
    assert sign_in(accounts).status_code == 429
    clock.advance(1)
    assert sign_in(accounts).status_code == 200


def test_one_address_trying_many_names_is_held_back(accounts: TestClient) -> None:
    sign_up(accounts)
    for number in range(ADDRESS_FAILURES):
        assert sign_in(accounts, f"guess{number}").status_code == 401
    assert sign_in(accounts, "someone-else").status_code == 429
    assert sign_in(accounts).status_code == 429  # from this address, every name waits


def test_a_name_tried_from_many_addresses_is_only_delayed() -> None:
    clock = ManualClock()
    logins = LoginLimiter(clock.time)
    for number in range(NAME_FREE_FAILURES):
        assert logins.retry_after("Ada", f"10.0.0.{number}") is None
        logins.attempt("ada", f"10.0.0.{number}")
    # an address that failed waits the name's delay; it grows, and stops growing short
    waits = []
    for _ in range(8):
        wait = logins.retry_after("ADA", "10.0.0.1")
        assert wait is not None
        waits.append(wait)
        clock.advance(wait)
        assert logins.retry_after("ADA", "10.0.0.1") is None
        logins.attempt("Ada", f"10.0.1.{len(waits)}")
    assert waits == [1, 2, 4, 8, 10, 10, 10, 10]
    assert logins.retry_after("Bob", "10.0.0.1") is None
    assert logins.retry_after("Ada", "10.9.9.9") is None  # a new address: not delayed
    clock.advance(NAME_WINDOW_S)
    assert logins.retry_after("Ada", "10.0.0.1") is None


def test_a_right_password_forgets_the_pairs_failures() -> None:
    logins = LoginLimiter(ManualClock().time)
    for _ in range(PAIR_FAILURES - 1):
        logins.attempt("Ada", "1.2.3.4", known_device=True)
    logins.attempt("ada", "1.2.3.4", known_device=True)
    logins.succeeded("ada", "1.2.3.4", known_device=True)
    logins.attempt("Ada", "1.2.3.4", known_device=True)
    assert logins.retry_after("Ada", "1.2.3.4", known_device=True) is None


def test_attempts_sent_at_once_count_before_their_passwords_are_checked() -> None:
    logins = LoginLimiter(ManualClock().time)
    for _ in range(PAIR_FAILURES):  # none checked yet: each still waits for its hash
        assert logins.retry_after("Ada", "1.2.3.4", known_device=True) is None
        logins.attempt("Ada", "1.2.3.4", known_device=True)
    assert logins.retry_after("Ada", "1.2.3.4", known_device=True) == PAIR_WINDOW_S


def test_right_passwords_do_not_hold_an_address_back(accounts: TestClient) -> None:
    """A household behind one address: people who sign in right are never counted."""
    sign_up(accounts)
    for _ in range(2 * ADDRESS_FAILURES):
        assert sign_in(accounts).status_code == 200


# ----- the password, never in clear -------------------------------------------------------------


def test_the_password_is_never_stored_nor_logged(
    accounts: TestClient, store_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    sign_up(accounts)
    sign_up(accounts, "robo-1", bot=True)
    sign_in(accounts)
    sign_in(accounts, password=PASSWORD + "!")
    sign_in(accounts, PASSWORD)  # typed into the name's field: never logged either
    sign_in(accounts, "Nobody")
    accounts.delete("/api/session")
    secret = PASSWORD.encode()
    files = [store_path, *store_path.parent.glob(store_path.name + "-*")]
    for path in files:
        assert secret not in path.read_bytes(), path
    with sqlite3.connect(store_path) as db:
        hashes = [row[0] for row in db.execute("SELECT password FROM accounts")]
    assert all(kept.startswith("scrypt$n=16384,r=8,p=1$") for kept in hashes)
    assert caplog.records, "the accounts log their work"
    assert PASSWORD not in caplog.text


def test_passwords_are_hashed_off_the_event_loop(
    accounts: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[bool, str, int]] = []

    def watched(password: str) -> str:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        priority = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        seen.append((on_loop, threading.current_thread().name, priority))
        return hash_password(password)

    monkeypatch.setattr(account_routes, "hash_password", watched)
    sign_up(accounts)
    [(on_loop, thread, priority)] = seen
    assert not on_loop and thread.startswith("password-hash")
    assert priority > os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_a_hash_carries_its_parameters_and_a_salt_of_its_own() -> None:
    first, second = hash_password(PASSWORD), hash_password(PASSWORD)
    assert first != second  # a salt each
    assert verify_password(PASSWORD, first) and verify_password(PASSWORD, second)
    assert not verify_password(PASSWORD + " ", first)
    assert not needs_rehash(first)
    for broken in ["", "plain", "md5$x$y$z", "scrypt$n=3,r=8,p=1$AAAA$AAAA", first + "$"]:
        assert not verify_password(PASSWORD, broken)
        assert needs_rehash(broken)


def test_a_password_is_the_same_however_its_letters_were_composed() -> None:
    composed, decomposed = "caf\u00e9-password", "cafe\u0301-password"
    assert verify_password(decomposed, hash_password(composed))


def test_a_weaker_hash_is_made_stronger_at_the_next_sign_in(
    accounts: TestClient, store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rummykit.server.accounts.passwords.SCRYPT_N", 2**12)
    sign_up(accounts)
    monkeypatch.undo()

    def kept() -> str:
        with sqlite3.connect(store_path) as db:
            return str(db.execute("SELECT password FROM accounts").fetchone()[0])

    assert kept().startswith("scrypt$n=4096,") and needs_rehash(kept())
    assert sign_in(accounts).status_code == 200
    assert kept().startswith("scrypt$n=16384,") and verify_password(PASSWORD, kept())


# ----- the store's schema -----------------------------------------------------------------------


def test_a_version_4_store_gains_accounts_and_keeps_its_seats(
    tmp_path: Path, clock: ManualClock
) -> None:
    path = tmp_path / "v4.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as db:  # as version 4 wrote it: no accounts
        db.execute("DROP TABLE sessions")
        db.execute("DROP TABLE accounts")
        db.execute("PRAGMA user_version = 4")
        db.execute("INSERT INTO tables (id, created, updated, settings) VALUES ('t', 0, 0, '{}')")
        db.execute(
            "INSERT INTO seats (token, table_id, seat) VALUES (?, 't', 1)", (token_hash("tok"),)
        )
    store = Store(path)
    assert store.seat_of("t", "tok") == 1
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert {"accounts", "sessions", "sessions_by_expiry", "seats", "tables"} <= names
    with serving(path, clock) as client:
        assert sign_up(client).status_code == 200
        assert client.get("/api/me").json()["name"] == "Ada"


def test_names_are_unique_whatever_their_case_in_the_store_itself(
    store_backend: StoreBackend,
) -> None:
    store = Store(store_backend.location)
    assert store.accounts.add("Ada", False, "h") is not None
    assert store.accounts.add("aDA", True, "h") is None
    found = store.accounts.named("ADA")
    assert found is not None and (found.name, found.bot) == ("Ada", False)
    store.close()
