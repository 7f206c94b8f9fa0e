"""Passwords kept as scrypt hashes: memory-hard, salted, compared in constant time.

A password is never kept nor logged: only ``hash_password``'s string, which carries its own
parameters (``scrypt$n=16384,r=8,p=1$SALT$KEY``, base64 without padding), so that they can be
raised later: a hash made with weaker ones still verifies, and ``needs_rehash`` says to hash
the password again at its next sign-in.

scrypt with n=2**14, r=8 needs 16 MiB and about 40 ms of one core for each hash. It releases
the interpreter's lock while it runs, so the server runs it in threads of its own
(``off_the_loop``) rather than in the worker processes, where a sign-in would wait behind the
computer players' thinking: ``HASHES_AT_ONCE`` threads, at a lower priority than the event
loop (as the workers are), so that a burst of sign-ins slows the sign-ins, not the tables, and
apart from the default executor, where the store's reads would wait behind them.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import functools
import hashlib
import hmac
import os
import threading
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

SCRYPT_N: Final = 2**14
"""CPU and memory cost (a power of two): 16 MiB with ``SCRYPT_R`` 8."""
SCRYPT_R: Final = 8
"""Block size."""
SCRYPT_P: Final = 1
"""Parallelism."""
SALT_BYTES: Final = 16
"""A fresh random salt for each password."""
KEY_BYTES: Final = 32
"""The length of the derived key kept."""
SCHEME: Final = "scrypt"

MAX_SCRYPT_N: Final = 2**20
"""The largest cost a stored hash may name (1 GiB at r=8): a store edited by hand cannot make
one sign-in take the server's memory."""

HASHES_AT_ONCE: Final = 2
"""Hashes the server computes at once (16 MiB each); more wait their turn."""

HASHING_NICENESS: Final = 5
"""How much lower the hashing threads' priority is than the event loop's (``nice``, per
thread on Linux)."""

T = TypeVar("T")

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _lower_priority() -> None:
    """A hashing thread's start: a lower priority, where the system allows one per thread."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHING_NICENESS)


def _hashing_pool() -> ThreadPoolExecutor:
    global _pool  # one pool for every app of the process: hashing keeps no state
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                HASHES_AT_ONCE, thread_name_prefix="password-hash", initializer=_lower_priority
            )
        return _pool


async def off_the_loop(function: Callable[..., T], *args: object) -> T:
    """``function(*args)`` in a hashing thread, never on the event loop."""
    return await asyncio.get_running_loop().run_in_executor(_hashing_pool(), function, *args)


def _memory(n: int, r: int, p: int) -> int:
    """The ``maxmem`` scrypt needs for these parameters, with room to spare."""
    return 128 * r * (n + p + 2) + 2**20


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)


def _normalized(password: str) -> bytes:
    """The password's bytes, the same whichever way a keyboard composed its characters."""
    return unicodedata.normalize("NFKC", password).encode("utf-8")


def _derive(password: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(
        _normalized(password), salt=salt, n=n, r=r, p=p, maxmem=_memory(n, r, p), dklen=length
    )


def hash_password(password: str) -> str:
    """The string to keep for ``password``: scheme, parameters, salt and key."""
    salt = os.urandom(SALT_BYTES)
    key = _derive(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P, KEY_BYTES)
    parameters = f"n={SCRYPT_N},r={SCRYPT_R},p={SCRYPT_P}"
    return f"{SCHEME}${parameters}${_b64(salt)}${_b64(key)}"


def _parse(encoded: str) -> tuple[int, int, int, bytes, bytes] | None:
    """n, r, p, salt and key of a stored hash; ``None`` if it is not one this module made."""
    try:
        scheme, parameters, salt, key = encoded.split("$")
        values = dict(part.split("=", 1) for part in parameters.split(","))
        n, r, p = int(values["n"]), int(values["r"]), int(values["p"])
        raw_salt, raw_key = _unb64(salt), _unb64(key)
    except (ValueError, KeyError, binascii.Error):
        return None
    if scheme != SCHEME or not (1 < n <= MAX_SCRYPT_N and n & (n - 1) == 0):
        return None
    if not (0 < r <= 32 and 0 < p <= 16 and raw_salt and raw_key):
        return None
    return n, r, p, raw_salt, raw_key


def verify_password(password: str, encoded: str) -> bool:
    """Whether ``password`` is the one ``encoded`` was made from (constant-time compare)."""
    parsed = _parse(encoded)
    if parsed is None:
        return False
    n, r, p, salt, key = parsed
    return hmac.compare_digest(_derive(password, salt, n, r, p, len(key)), key)


def needs_rehash(encoded: str) -> bool:
    """Whether a stored hash was made with weaker parameters than today's."""
    parsed = _parse(encoded)
    if parsed is None:
        return True
    n, r, p, _, key = parsed
    return (n, r, p) < (SCRYPT_N, SCRYPT_R, SCRYPT_P) or len(key) < KEY_BYTES


@functools.cache
def dummy_hash() -> str:
    """A hash to check against when no account has the name (made once, when needed).

    An unknown name then takes as long to refuse as a wrong password: the time tells nothing.
    """
    return hash_password("not a password anyone has: " + _b64(os.urandom(12)))
