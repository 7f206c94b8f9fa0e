"""``rummy account new|signin|show``: accounts on servers, kept on this device.

``rummy account new`` creates an account (``POST /api/accounts``), asking for its password
(``getpass``, or ``--password-file``), and keeps its credentials (the server, the name, and
the session cookie the server set: never the password) in ``accounts.json`` in the user's
data folder (``RUMMY_DATA_DIR`` if set), readable by its owner only. ``rummy account signin``
signs a kept (or another device's) account in again (``POST /api/session``) when its session
has ended. ``rummy account show`` lists them. ``rummy party new`` and ``rummy join`` play as
one with ``--account NAME`` (``kept_account``, ``signed_in``, ``account_headers``).
Exit codes: 0 done; 1 the server refused (a sentence says why); 2 a usage error.
"""

from __future__ import annotations

import http.cookies
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from rummykit.client.addresses import base_url
from rummykit.client.seat_file import write_private
from rummykit.client.web import HTTP_TIMEOUT_S, ServerError, _sentence
from rummykit.data_folder import data_folder
from rummykit.protocol import (
    SESSION_COOKIE,
    AccountRefusal,
    Me,
    MeAnswer,
    NewAccount,
    NobodySignedIn,
    ServerCode,
    SignIn,
)


class Credentials(BaseModel):
    """An account as this device keeps it: where, who, and its session."""

    model_config = ConfigDict(extra="ignore")

    server: str
    name: str
    bot: bool
    session: str
    """The session cookie's value: it signs the account in (keep it private)."""


_KEPT: Final[TypeAdapter[list[Credentials]]] = TypeAdapter(list[Credentials])
_ME_ANSWER: Final[TypeAdapter[Me | NobodySignedIn]] = TypeAdapter(MeAnswer)


class AccountFileError(ValueError):
    """A credentials file that cannot be read."""


def default_accounts_path() -> Path:
    """The credentials file, in the user's data folder."""
    return data_folder() / "accounts.json"


def load_accounts(path: Path) -> list[Credentials]:
    """The credentials kept in ``path`` (none if there is no file yet)."""
    try:
        return _KEPT.validate_json(path.read_bytes())
    except FileNotFoundError:
        return []
    except OSError as error:
        raise AccountFileError(f"Cannot read {path}: {error.strerror}.") from None
    except ValidationError:
        raise AccountFileError(f"{path} does not hold accounts: move it away.") from None


def keep_account(path: Path, kept: Credentials) -> None:
    """Add (or replace: same server and name) an account's credentials in ``path`` (0600)."""
    others = [
        each
        for each in load_accounts(path)
        if (each.server, each.name.casefold()) != (kept.server, kept.name.casefold())
    ]
    write_private(path, _KEPT.dump_json([*others, kept], indent=2).decode() + "\n")


def _session_of(headers: list[str]) -> str | None:
    """The session token among an answer's ``Set-Cookie`` headers."""
    for header in headers:
        cookie = http.cookies.SimpleCookie()
        cookie.load(header)
        if SESSION_COOKIE in cookie and cookie[SESSION_COOKIE].value:
            return cookie[SESSION_COOKIE].value
    return None


def _refusal(status: int, body: bytes) -> ServerError:
    """The server's refusal, with its sentence and code when it gave them."""
    try:
        refusal = AccountRefusal.model_validate_json(body, strict=False)
    except ValidationError:
        return ServerError(_sentence(status, body), status=status)
    return ServerError(refusal.error, status=status, code=refusal.code.value)


def _signed_up_or_in(server: str, path: str, body: NewAccount | SignIn) -> Credentials:
    """POST ``body`` to ``path``: the credentials of the session it starts; ``ServerError``."""
    request = urllib.request.Request(
        base_url(server) + path,
        data=body.model_dump_json().encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as answer:
            data, cookies = answer.read(), answer.headers.get_all("Set-Cookie") or []
    except urllib.error.HTTPError as error:
        with error:
            raise _refusal(error.code, error.read()) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ServerError(f"Cannot reach the server at {server}: {reason}.") from None
    try:
        me = Me.model_validate_json(data, strict=False)
    except ValidationError:
        raise ServerError("The server's answer is not an account.") from None
    session = _session_of(cookies)
    if session is None:
        raise ServerError("The server answered but set no session cookie.")
    return Credentials(server=base_url(server), name=me.name, bot=me.bot, session=session)


def create_account(server: str, wanted: NewAccount) -> Credentials:
    """``POST /api/accounts``: the new account's credentials; ``ServerError`` if refused."""
    return _signed_up_or_in(server, "/api/accounts", wanted)


def sign_in(server: str, wanted: SignIn) -> Credentials:
    """``POST /api/session``: the account's credentials with a new session.

    ``ServerError`` if refused (a wrong name or password, too many attempts).
    """
    return _signed_up_or_in(server, "/api/session", wanted)


class AccountNotKept(LookupError):
    """``--account NAME`` names no account kept on this device for that server."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _kept_list(kept: list[Credentials]) -> str:
    return ", ".join(f"{each.name} on {each.server}" for each in kept)


def kept_account(path: Path, name: str, server: str) -> Credentials:
    """The credentials kept in ``path`` for account ``name`` on ``server``.

    ``AccountNotKept`` with a sentence that lists the accounts kept when there is none (or
    only on other servers); ``AccountFileError`` for a file that cannot be read.
    """
    server = base_url(server)
    kept = load_accounts(path)
    named = [each for each in kept if each.name.casefold() == name.casefold()]
    here = next((each for each in named if each.server == server), None)
    if here is not None:
        return here
    make = f"rummy account new --server {server} --name {name}"
    if named:
        elsewhere = ", ".join(each.server for each in named)
        raise AccountNotKept(
            f"The account {name} is kept for {elsewhere}, not for {server}: an account "
            f"belongs to one server. Make one there with `{make}`."
        )
    if not kept:
        raise AccountNotKept(f"No account is kept on this device ({path}): make one with `{make}`.")
    raise AccountNotKept(
        f"No account {name} is kept on this device; kept: {_kept_list(kept)}. "
        f"Make it with `{make}`."
    )


def account_headers(kept: Credentials) -> dict[str, str]:
    """The headers that sign ``kept`` in, for requests and sockets.

    Its session cookie, and the server's own ``Origin`` (what its guard accepts from its own
    pages: a state-changing request that carries a session must come from the same site).
    """
    parts = urllib.parse.urlsplit(kept.server)
    return {
        "Cookie": f"{SESSION_COOKIE}={kept.session}",
        "Origin": f"{parts.scheme}://{parts.netloc}",
    }


def signed_in(kept: Credentials) -> Me:
    """``GET /api/me`` with ``kept``'s session: who it signs in.

    ``ServerError`` if the server refuses it (an ended session: sign in again) or signs in
    someone else.
    """
    request = urllib.request.Request(
        kept.server + "/api/me",
        headers={**account_headers(kept), "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as answer:
            data = answer.read()
    except urllib.error.HTTPError as error:
        with error:
            raise _refusal(error.code, error.read()) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ServerError(f"Cannot reach the server at {kept.server}: {reason}.") from None
    again = f"rummy account signin --server {kept.server} --name {kept.name}"
    try:
        me = _ME_ANSWER.validate_json(data, strict=False)
    except ValidationError:
        raise ServerError("The server's answer to /api/me is not an account.") from None
    if isinstance(me, NobodySignedIn):
        raise ServerError(
            f"The server refused the session kept for {kept.name} (it ended, or the server "
            f"forgot it): sign in again with `{again}`.",
            status=401,
            code=ServerCode.NOT_SIGNED_IN,
        )
    if me.name.casefold() != kept.name.casefold():
        raise ServerError(
            f"The session kept for {kept.name} signs in {me.name} on {kept.server}: sign in "
            f"again with `{again}`."
        )
    return me
