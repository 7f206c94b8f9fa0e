"""How a request names a party: by its link (code and a long secret), or by its code alone.

A party's code (six of 31 letters, about 30 bits) is made to be read aloud, so it can be
guessed: with a thousand parties open, about one guess in 900,000 finds one, and a find is a
seat. Its invite link therefore carries a key of 128 bits from ``secrets`` besides the code
(``/#/party/CODE.KEY``), and a request with the right key (or a member's own token) is served at
once. A request that names the code alone (typed in by someone it was read to) is served too,
but the misses of such requests are limited across every address together (``CodeGuesses``; in a
cluster, across its processes too: ``SiteCodeMisses``): many addresses buy a guesser nothing,
since the site answers so few wrong codes a minute in all. We chose that limit over codes that
expire (a party waits in its lobby for as long as its people take, and a code read aloud would
die under them) and over the host approving each join (a step at every party for what only a
guesser needs); lichess and boardgame.io name a game by a long random id alone, which is the
link here. When guessers have spent the limit, code-only requests are refused for a minute
(429): the link still works, and a page says to ask for it.
"""

from __future__ import annotations

import dataclasses
import math
import re
import secrets
import time
from typing import TYPE_CHECKING, Final

from rummykit.protocol import Clock

if TYPE_CHECKING:
    from redis import asyncio as aioredis

KEY_BYTES: Final = 16
"""The link's key: 128 bits, beyond any search."""

KEY_SEPARATOR: Final = "."
"""Between the code and the key in a link (neither ever holds it)."""

_REFERENCE: Final = re.compile(r"([A-Za-z0-9]{4,12})(?:\.([A-Za-z0-9_-]{16,86}))?")
"""A code, then optionally the separator and a key (``secrets.token_urlsafe`` letters)."""

CODE_MISSES_PER_MINUTE: Final = 30
"""Code-only requests that find no party, site-wide, a minute (and as many at once). A typo
costs one; a guesser needs about 900,000 per party found among a thousand open ones: at 30
a minute, 20 days, however many addresses it has."""


@dataclasses.dataclass(frozen=True, slots=True)
class PartyReference:
    """A party as a request names it: its code (upper case) and the link's key, if given.

    >>> PartyReference.parse("k7qm2p.abcdefghijklmnop_-123456")
    PartyReference(code='K7QM2P', key='abcdefghijklmnop_-123456')
    >>> PartyReference.parse("K7QM2P"), PartyReference.parse("K7/QM")
    (PartyReference(code='K7QM2P', key=None), None)
    """

    code: str
    key: str | None = None

    @classmethod
    def parse(cls, text: str) -> PartyReference | None:
        """The reference ``text`` spells (``CODE`` or ``CODE.KEY``); ``None`` if none."""
        found = _REFERENCE.fullmatch(text)
        if found is None:
            return None
        return cls(found.group(1).upper(), found.group(2))

    def __str__(self) -> str:
        """As a link writes it: ``CODE.KEY``, or ``CODE``."""
        return self.code if self.key is None else f"{self.code}{KEY_SEPARATOR}{self.key}"


def new_key() -> str:
    """A fresh link key (``KEY_BYTES`` from ``secrets``)."""
    return secrets.token_urlsafe(KEY_BYTES)


def invite_path(code: str, key: str | None) -> str:
    """The invite link's path: ``/#/party/CODE.KEY`` (a party made before keys: the code)."""
    return f"/#/party/{PartyReference(code, key)}"


class CodeGuesses:
    """The misses of code-only requests across every address: ``per_minute`` a minute.

    A request by code alone asks ``may_look`` before the party is looked up, so that once the
    limit is spent even a right code gets no answer (a guesser learns nothing), and reports
    a miss with ``missed``.
    """

    def __init__(
        self, per_minute: int = CODE_MISSES_PER_MINUTE, clock: Clock = time.monotonic
    ) -> None:
        """A full allowance of ``per_minute`` misses, refilled evenly on ``clock``."""
        self.per_minute = per_minute
        self.clock = clock
        self.left = float(per_minute)
        self.last = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.left = min(self.per_minute, self.left + (now - self.last) * self.per_minute / 60)
        self.last = now

    def may_look(self) -> bool:
        """Whether a code-only request may be looked up now."""
        self._refill()
        return self.left >= 1

    def missed(self) -> None:
        """A code-only request found no party: one miss spent."""
        self._refill()
        self.left = max(0.0, self.left - 1)

    def retry_after_s(self) -> int:
        """Whole seconds until a code-only request may be looked up again."""
        self._refill()
        return max(1, math.ceil((1 - self.left) * 60 / self.per_minute))


CODE_MISS_KEY: Final = "rummy:code-misses:"
"""The Redis key of a minute's misses across a cluster: this, then the minute's number."""


class SiteCodeMisses:
    """The misses of code-only requests across every process of a cluster, in Redis.

    Counted by the wall clock's minute (a key per minute, gone two minutes later): at most
    ``per_minute`` misses in any minute across the site, and at most twice that across a
    minute's turn. Each process also keeps its own ``CodeGuesses``; this one makes N
    processes allow no more than one.
    """

    def __init__(
        self,
        redis: aioredis.Redis,
        per_minute: int = CODE_MISSES_PER_MINUTE,
        clock: Clock = time.time,
    ) -> None:
        """Misses counted in ``redis``, ``per_minute`` a minute of ``clock`` (wall time)."""
        self.redis = redis
        self.per_minute = per_minute
        self.clock = clock

    def _key(self) -> str:
        return f"{CODE_MISS_KEY}{int(self.clock() // 60)}"

    async def may_look(self) -> bool:
        """Whether this minute's misses, site-wide, leave room for one more look."""
        count = await self.redis.get(self._key())
        return int(count or 0) < self.per_minute

    async def missed(self) -> None:
        """One miss more in this minute, site-wide."""
        async with self.redis.pipeline(transaction=True) as pipe:
            key = self._key()
            pipe.incr(key)
            pipe.expire(key, 120)
            await pipe.execute()

    def retry_after_s(self) -> int:
        """Whole seconds until the next minute begins."""
        return max(1, math.ceil(60 - self.clock() % 60))
