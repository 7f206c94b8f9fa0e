"""A known device: a cookie, set at a right sign-in, that proves the device signed in before.

The sign-in limit's delay per name (``rummykit.server.accounts.logins``) does not hold back a device
that shows this cookie for that account: strangers failing at a name cannot keep its owner
out on the owner's own devices (the "device cookie" defence OWASP describes against lockouts).

The cookie is ``ACCOUNT.NONCE.MAC``: the account's id, a random nonce, and an HMAC-SHA256 of
both keyed with the account's stored password hash, which never leaves the server. So it needs
no key of its own nor a table: it holds across restarts and every process of a cluster (they
share the store), only the server can make one, it names one account, and a new password
ends every device's proof of that account. It proves nothing but "this browser signed in to
this account before", and grants nothing but skipping a delay: the password is still checked.
HttpOnly (no script reads it), SameSite=Strict, sent only to ``/api/session``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Final

DEVICE_COOKIE: Final = "rummy_device"
"""The cookie's name."""
DEVICE_COOKIE_PATH: Final = "/api/session"
"""The only path the browser sends it to: the sign-in."""
DEVICE_LIFETIME_S: Final = 365 * 24 * 3600
"""How long a device stays known without signing in again: a year (each sign-in renews it)."""
MAX_COOKIE_LENGTH: Final = 200
"""Longer values are not read at all (a real one is about 80 characters)."""


def _mac(account: int, nonce: str, password_hash: str) -> str:
    message = f"rummykit known device\n{account}\n{nonce}".encode()
    digest = hmac.new(password_hash.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def device_proof(account: int, password_hash: str) -> str:
    """A new cookie value proving a sign-in to ``account`` (whose hash is ``password_hash``)."""
    nonce = secrets.token_urlsafe(12)
    return f"{account}.{nonce}.{_mac(account, nonce, password_hash)}"


def proof_account(value: str | None) -> int | None:
    """The account a cookie value claims (not yet checked), or ``None`` if it is no proof."""
    if not value or len(value) > MAX_COOKIE_LENGTH or value.count(".") != 2:
        return None
    account = value.split(".", 1)[0]
    return int(account) if account.isdecimal() and len(account) < 19 else None


def is_known_device(value: str | None, account: int, password_hash: str) -> bool:
    """Whether the cookie ``value`` proves a past sign-in to ``account`` (constant-time)."""
    if proof_account(value) != account or value is None:
        return False
    _, nonce, mac = value.split(".")
    return hmac.compare_digest(mac, _mac(account, nonce, password_hash))
