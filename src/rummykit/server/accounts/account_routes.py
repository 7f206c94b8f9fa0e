"""Accounts: sign up, sign in, sign out, and who is signed in.

The routes: ``POST /api/accounts``, ``POST`` and ``DELETE /api/session``, ``GET /api/me``.

A session is a random token in a cookie (``SESSION_COOKIE``: HttpOnly, SameSite=Lax, Path=/,
Secure when the request came over https); the store keeps only its SHA-256. Passwords are
hashed with scrypt (``rummykit.server.accounts.passwords``) in threads, never on the event loop, and
are never kept nor logged. These requests change state, so ``OriginGuard`` refuses them from
other sites' pages (403) like every other; failed sign-ins are limited per address and per
name and address, with only a short delay per name that a known device skips
(``rummykit.server.accounts.logins``, ``rummykit.server.accounts.known_devices``): 429 with
``Retry-After``.


A new account's password must be hard enough to guess
(``rummykit.server.accounts.password_strength``)
and its name free of hidden characters, of the word BOT (but for a program's account), and
unlike any existing account's name (``rummykit.protocol.names``); an address makes a few
accounts an hour (``Limits.accounts_per_address``). Each refusal has a code and a sentence.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from rummykit.core.refusals import ParamValue
from rummykit.protocol import (
    SESSION_COOKIE,
    AccountRefusal,
    BadRequest,
    Clock,
    LookAlikes,
    Me,
    NewAccount,
    NobodySignedIn,
    SignIn,
    account_code,
    account_text,
    has_bot_mark,
    read_body,
)
from rummykit.server.accounts.known_devices import (
    DEVICE_COOKIE,
    DEVICE_COOKIE_PATH,
    DEVICE_LIFETIME_S,
    device_proof,
    is_known_device,
    proof_account,
)
from rummykit.server.accounts.logins import AccountLimiter, LoginLimiter
from rummykit.server.accounts.password_strength import password_problem
from rummykit.server.accounts.passwords import (
    dummy_hash,
    hash_password,
    needs_rehash,
    off_the_loop,
    verify_password,
)
from rummykit.server.http import account_identity, read_request_body, refused_request, vouch_for
from rummykit.server.store import SESSION_LIFETIME_S, Account, Store

logger = logging.getLogger("rummykit.accounts")


def _refused(
    reason: str,
    status: int,
    *,
    params: dict[str, ParamValue] | None = None,
    like: str | None = None,
    **headers: str,
) -> Response:
    """The refusal of ``reason`` (``ACCOUNT_REFUSALS``): its code, words and params."""
    said = params or {}
    answer = AccountRefusal(
        error=account_text(reason, said),
        code=account_code(reason),
        reason=reason,
        params=said,
        like=like,
    )
    body = answer.model_dump(mode="json", exclude_none=True)
    return JSONResponse(body, status, headers=headers or None)


def _store(connection: HTTPConnection) -> Store:
    store: Store = connection.app.state.lobby.store
    return store


class AccountGate:
    """What the account routes keep between requests.

    Failed sign-ins, new accounts by address, and the look-alike keys of the accounts' names.
    """

    def __init__(self, clock: Clock, accounts_per_address: int | None = None) -> None:
        """Failed sign-ins and new accounts timed by ``clock`` (the app's).

        At most ``accounts_per_address`` new accounts an hour from an address (``None``: no
        limit).
        """
        self.logins = LoginLimiter(clock)
        self.sign_ups = AccountLimiter(accounts_per_address, clock)
        self.names = LookAlikes()


def _gate(connection: HTTPConnection) -> AccountGate:
    gate: AccountGate = connection.app.state.accounts
    return gate


def _check(password: str, encoded: str | None) -> bool:
    """``verify_password``, against a dummy hash for no account (as slow, and never true)."""
    return verify_password(password, dummy_hash() if encoded is None else encoded) and (
        encoded is not None
    )


async def _hash(password: str) -> str:
    return await off_the_loop(hash_password, password)


async def _verify(password: str, encoded: str | None) -> bool:
    return await off_the_loop(_check, password, encoded)


async def _signed_in(request: Request, account: Account) -> Response:
    """Start a session for ``account``: the answer, with its cookie and the device's proof."""
    token = secrets.token_urlsafe(32)
    await asyncio.to_thread(_store(request).accounts.add_session, account.id, token)
    response = JSONResponse(Me(name=account.name, bot=account.bot).model_dump())
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_LIFETIME_S),
        path="/",
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="lax",
    )
    response.set_cookie(
        DEVICE_COOKIE,
        device_proof(account.id, account.password_hash),
        max_age=DEVICE_LIFETIME_S,
        path=DEVICE_COOKIE_PATH,
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
    return response


def _name_problem(wanted: NewAccount) -> str | None:
    """Why the name asked for may not be a new account's (before the store is asked).

    Hidden characters cannot get this far: ``ACCOUNT_NAME`` allows ASCII letters only.
    """
    if not wanted.bot and has_bot_mark(wanted.name):
        return "name_not_allowed"
    return None


def _wait_minutes(seconds: int) -> int:
    return max(1, -(-seconds // 60))


async def create_account(request: Request) -> Response:
    """``POST /api/accounts``: a new account, signed in (409 if the name is taken)."""
    try:
        wanted = read_body(NewAccount, await read_request_body(request))
    except BadRequest as error:
        return refused_request(error)
    gate, address = _gate(request), _address(request)
    wait = gate.sign_ups.retry_after(address)
    if wait is not None:
        minutes = _wait_minutes(wait)
        return _refused(
            "too_many_accounts", 429, params={"count": minutes}, **{"retry-after": str(wait)}
        )
    name_problem = _name_problem(wanted)
    if name_problem is not None:
        return _refused(name_problem, 400)
    weak = password_problem(wanted.password, (wanted.name,))
    if weak is not None:
        return _refused(weak[0], 400, params=weak[1])
    store = _store(request)
    if await asyncio.to_thread(store.accounts.named, wanted.name) is not None:
        return _refused("name_taken", 409)  # before hashing for nothing
    await asyncio.to_thread(gate.names.refresh, store.accounts.names_after)
    existing = gate.names.existing(wanted.name)
    if existing is not None:
        return _refused("name_looks_taken", 409, params={"name": existing}, like=existing)
    gate.sign_ups.attempt(address)  # before hashing: accounts asked at once count at once
    hashed = await _hash(wanted.password)
    account = await asyncio.to_thread(store.accounts.add, wanted.name, wanted.bot, hashed)
    if account is None:  # taken while the password was hashed
        gate.sign_ups.refused(address)
        return _refused("name_taken", 409)
    gate.names.add(account.name)
    logger.info("account %s created (%s)", account.name, "bot" if account.bot else "person")
    return await _signed_in(request, account)


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def sign_in(request: Request) -> Response:
    """``POST /api/session``: sign in (401 for a wrong name or password, 429 past the limit)."""
    try:
        wanted = read_body(SignIn, await read_request_body(request))
    except BadRequest as error:
        return refused_request(error)
    logins, address = _gate(request).logins, _address(request)
    store = _store(request)
    proof = request.cookies.get(DEVICE_COOKIE)
    has_proof = proof_account(proof) is not None
    account, known = None, False
    if has_proof:  # without one, a refused flood costs no read of the store
        account = await asyncio.to_thread(store.accounts.named, wanted.name)
        known = account is not None and is_known_device(proof, account.id, account.password_hash)
    wait = logins.retry_after(wanted.name, address, known_device=known)
    if wait is not None:
        return _refused(
            "too_many_attempts", 429, params={"count": wait}, **{"retry-after": str(wait)}
        )
    logins.attempt(wanted.name, address, known_device=known)
    if not has_proof:
        account = await asyncio.to_thread(store.accounts.named, wanted.name)
    encoded = account.password_hash if account is not None else None
    if not await _verify(wanted.password, encoded) or account is None:
        # never the name sent for no account: it may be a password typed in the wrong field
        logger.info("failed sign-in for %s", account.name if account else "no account")
        return _refused("bad_login", 401)
    logins.succeeded(wanted.name, address, known_device=known)
    if needs_rehash(account.password_hash):  # parameters raised since it was hashed
        rehashed = await _hash(wanted.password)
        await asyncio.to_thread(store.accounts.set_password_hash, account.id, rehashed)
        account = dataclasses.replace(account, password_hash=rehashed)  # the device's proof
    return await _signed_in(request, account)


async def sign_out(request: Request) -> Response:
    """``DELETE /api/session``: end this session (and clear its cookie); 204 in any case."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await asyncio.to_thread(_store(request).accounts.end_session, token)
    response = Response(status_code=204)
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="lax",
    )
    return response


async def session_account(connection: HTTPConnection) -> Account | None:
    """The account a request's (or a socket's) session cookie signs in, if any."""
    token = connection.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 128:
        return None
    account = await asyncio.to_thread(_store(connection).accounts.session_account, token)
    if account is not None:
        vouch_for(connection, "session", token, account_identity(account.id))
    return account


async def me(request: Request) -> Response:
    """``GET /api/me``: who is signed in, or ``{"signed_in": false}``.

    A visitor who is not signed in is the usual case, not an error: the answer is 200 either
    way, so that no page logs a failed request on a normal visit.
    """
    account = await session_account(request)
    if account is None:
        return JSONResponse(NobodySignedIn().model_dump())
    return JSONResponse(Me(name=account.name, bot=account.bot).model_dump())


ACCOUNT_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/accounts", create_account, methods=["POST"]),
    Route("/api/session", sign_in, methods=["POST"]),
    Route("/api/session", sign_out, methods=["DELETE"]),
    Route("/api/me", me),
]
"""The routes of accounts, mounted by the app."""
