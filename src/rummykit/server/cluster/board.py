"""Lists every process of a site reads and writes: entries kept alive by their writer, letters.

Quick pairing's queues, the lobby's open tables, who has an inbox or an arena open: each is a
named board of entries (a key and a text). A process writes its own entries with a time they
hold until, and writes them again before then while they still stand; an entry not written again
(its process died) is no longer read. ``take`` removes several entries at once, all or none, so
that two processes seating the same waiting players cannot both seat them. Letters are texts
left in a box for one reader (a seat made by another process, a page's messages), collected
once, in the order posted.

``MemoryBoard`` serves one process; ``RedisBoard`` every process on one Redis. Times are the
callers' (their injected wall clock), so that tests move them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import redis.asyncio as aioredis
from redis.typing import EncodableT

LETTER_S: Final = 120
"""How long letters wait to be collected (from the last one posted)."""

_COLLECT: Final = """
local letters = redis.call('LRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
return letters
"""

_RENEW: Final = """
local gone = {}
for i, key in ipairs(ARGV) do
  if i > 1 then
    local value = redis.call('HGET', KEYS[1], key)
    if value then
      local text = string.sub(value, string.find(value, '|', 1, true) + 1)
      redis.call('HSET', KEYS[1], key, ARGV[1] .. '|' .. text)
    else
      table.insert(gone, key)
    end
  end
end
return gone
"""

_TAKE: Final = """
for i, key in ipairs(ARGV) do
  if redis.call('HEXISTS', KEYS[1], key) == 0 then return 0 end
end
redis.call('HDEL', KEYS[1], unpack(ARGV))
return 1
"""


def board_key(board: str) -> str:
    """The Redis hash of a board."""
    return f"rummy:board:{board}"


def letter_key(box: str) -> str:
    """The Redis key of a letter."""
    return f"rummy:letter:{box}"


def _written(until: float, text: str) -> str:
    return f"{until!r}|{text}"


def _read(value: bytes | str) -> tuple[float, str]:
    raw = value.decode() if isinstance(value, bytes) else value
    until, _, text = raw.partition("|")
    return float(until), text


class Board(ABC):
    """Named boards of entries, and letters."""

    @abstractmethod
    async def put(self, board: str, entries: Mapping[str, str], until: float) -> None:
        """Write (or write again) ``entries``, standing until ``until``."""

    @abstractmethod
    async def renew(self, board: str, keys: Iterable[str], until: float) -> set[str]:
        """Let these entries stand until ``until``, those still there; the keys not there.

        An entry taken meanwhile (its player seated by another process) is never written back.
        """

    @abstractmethod
    async def remove(self, board: str, keys: Iterable[str]) -> None:
        """Remove these entries (those that are there)."""

    @abstractmethod
    async def read(self, board: str, now: float, prefix: str = "") -> dict[str, str]:
        """The entries standing at ``now`` (only those whose key starts with ``prefix``)."""

    @abstractmethod
    async def take(self, board: str, keys: Sequence[str]) -> bool:
        """Remove all of ``keys``, if every one is there; whether they were."""

    @abstractmethod
    async def post(self, box: str, text: str) -> None:
        """Leave ``text`` in ``box`` for its reader, after those there (they wait ``LETTER_S``)."""

    @abstractmethod
    async def collect(self, box: str) -> list[str]:
        """The letters in ``box``, in the order posted, taken out."""


class MemoryBoard(Board):
    """The boards of one process, in memory."""

    def __init__(self) -> None:
        self._boards: dict[str, dict[str, tuple[float, str]]] = {}
        self._letters: dict[str, list[str]] = {}

    async def put(self, board: str, entries: Mapping[str, str], until: float) -> None:
        """Write (or write again) ``entries``, standing until ``until``."""
        self._boards.setdefault(board, {}).update(
            (key, (until, text)) for key, text in entries.items()
        )

    async def renew(self, board: str, keys: Iterable[str], until: float) -> set[str]:
        """Let these entries stand until ``until``, those still there; the keys not there."""
        entries = self._boards.get(board, {})
        gone: set[str] = set()
        for key in keys:
            if key in entries:
                entries[key] = (until, entries[key][1])
            else:
                gone.add(key)
        return gone

    async def remove(self, board: str, keys: Iterable[str]) -> None:
        """Remove these entries (those that are there)."""
        entries = self._boards.get(board, {})
        for key in keys:
            entries.pop(key, None)

    async def read(self, board: str, now: float, prefix: str = "") -> dict[str, str]:
        """The entries standing at ``now`` whose key starts with ``prefix``.

        The entries past their time are dropped.
        """
        entries = self._boards.get(board, {})
        for key in [key for key, (until, _) in entries.items() if until <= now]:
            del entries[key]
        return {key: text for key, (_, text) in entries.items() if key.startswith(prefix)}

    async def take(self, board: str, keys: Sequence[str]) -> bool:
        """Remove all of ``keys``, if every one is there; whether they were."""
        entries = self._boards.get(board, {})
        if not all(key in entries for key in keys):
            return False
        for key in keys:
            del entries[key]
        return True

    async def post(self, box: str, text: str) -> None:
        """Leave ``text`` in ``box`` for its reader, after those there."""
        self._letters.setdefault(box, []).append(text)

    async def collect(self, box: str) -> list[str]:
        """The letters in ``box``, in the order posted, taken out."""
        return self._letters.pop(box, [])


class RedisBoard(Board):
    """The boards of every process of a site, on one Redis (a hash a board)."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self._redis = redis
        self._take = redis.register_script(_TAKE)
        self._renew = redis.register_script(_RENEW)
        self._collect = redis.register_script(_COLLECT)

    async def put(self, board: str, entries: Mapping[str, str], until: float) -> None:
        """Write (or write again) ``entries``, standing until ``until``."""
        if entries:
            mapping: dict[EncodableT, EncodableT] = {
                key: _written(until, text) for key, text in entries.items()
            }
            await self._redis.hset(board_key(board), mapping=mapping)

    async def renew(self, board: str, keys: Iterable[str], until: float) -> set[str]:
        """Let these entries stand until ``until``, those still there; the keys not there.

        Done at once, in Redis: an entry taken meanwhile is never written back.
        """
        keys = list(keys)
        if not keys:
            return set()
        gone = await self._renew(keys=[board_key(board)], args=[repr(until), *keys])
        return {key.decode() if isinstance(key, bytes) else str(key) for key in gone}

    async def remove(self, board: str, keys: Iterable[str]) -> None:
        """Remove these entries (those that are there)."""
        keys = list(keys)
        if keys:
            await self._redis.hdel(board_key(board), *keys)

    async def read(self, board: str, now: float, prefix: str = "") -> dict[str, str]:
        """The entries standing at ``now`` whose key starts with ``prefix``.

        Those read past their time are removed. With a prefix, Redis sends only the matching
        entries (``HSCAN ... MATCH``): a person's pages among everyone's, not the whole board.
        """
        if prefix:
            pattern = "".join(f"\\{char}" if char in "*?[]\\" else char for char in prefix)
            raw = {
                field: value
                async for field, value in self._redis.hscan_iter(
                    board_key(board), match=f"{pattern}*", count=1000
                )
            }
        else:
            raw = await self._redis.hgetall(board_key(board))
        standing: dict[str, str] = {}
        stale: list[str] = []
        for field, value in raw.items():
            key = field.decode() if isinstance(field, bytes) else str(field)
            until, text = _read(value)
            if until > now:
                standing[key] = text
            else:
                stale.append(key)
        if stale:
            await self.remove(board, stale)
        return standing

    async def take(self, board: str, keys: Sequence[str]) -> bool:
        """Remove all of ``keys``, if every one is there (at once, in Redis); whether they were."""
        if not keys:
            return True
        taken = await self._take(keys=[board_key(board)], args=list(keys))
        return bool(taken)

    async def post(self, box: str, text: str) -> None:
        """Leave ``text`` in ``box`` for its reader, after those there (for ``LETTER_S``)."""
        pipeline = self._redis.pipeline(transaction=True)
        pipeline.rpush(letter_key(box), text)
        pipeline.expire(letter_key(box), LETTER_S)
        await pipeline.execute()

    async def collect(self, box: str) -> list[str]:
        """The letters in ``box``, in the order posted, taken out (by one reader only)."""
        letters = await self._collect(keys=[letter_key(box)])
        return [each.decode() if isinstance(each, bytes) else str(each) for each in letters]
