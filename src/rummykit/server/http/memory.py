"""Memory of closed sockets given back to the system.

1,000 sockets that came and went left the server 90 MB larger (83 MB at start, 176 MB after),
though nothing of ours outlived them: each connection's asyncio transport is a reference cycle
(it and its own bound methods), freed only by Python's full collections, which come seldom in
a process of 150,000 long-lived objects; until then they pin the allocator's arenas, and the
memory of everything freed around them cannot go back. ``MemoryKeeper`` collects every
``COLLECT_EVERY`` closed sockets and hands the freed heap back (``malloc_trim``, where the C
library has it); ``freeze_startup_objects`` (called by ``rummy serve``, whose process is the
server's alone) keeps the server's modules and the app out of those collections, so that each
takes a few milliseconds.

Python's own full collections stalled a busy server: at 450 live two-seat tables each went
through about 180,000 objects and held the event loop 150-240 ms, every 9 s (each action's
new game state outlives the young collections, so the old generation turns over quickly);
one round trip in a hundred waited for one. ``defer_full_collections`` (``rummy serve``) turns
them off; the keeper runs one every ``FULL_COLLECTION_S`` instead (and as sockets close), so
the stall comes once in minutes, and memory held by cyclic garbage is bounded by what that
time makes. The young collections go on as Python runs them.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
from collections.abc import Awaitable, Callable
from typing import Final

COLLECT_EVERY: Final = 256
"""Closed sockets between collections: a collection of the objects made since startup takes
milliseconds, and 256 sockets' garbage is a few megabytes."""

FULL_COLLECTION_S: Final = 300.0
"""Seconds between the keeper's full collections, whatever closes."""

NEVER: Final = 2**31 - 1
"""A threshold the old generation's count never reaches: no full collection of Python's own."""


def _malloc_trim() -> Callable[[], object]:
    """Glibc's ``malloc_trim(0)``, or nothing where there is no such function."""
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        trim = None
    if trim is None:
        return lambda: None
    return lambda: trim(0)


def freeze_startup_objects() -> None:
    """Leave everything alive now (modules, the app) out of later collections."""
    gc.collect()
    gc.freeze()


def defer_full_collections() -> None:
    """Python's own full collections off in this process: ``MemoryKeeper`` runs them."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)


class MemoryKeeper:
    """Collects cyclic garbage, and gives the freed heap back, as sockets close."""

    def __init__(
        self,
        every: int = COLLECT_EVERY,
        collect: Callable[[], object] = gc.collect,
        trim: Callable[[], object] | None = None,
    ) -> None:
        """A collection (``collect``, then ``trim``) every ``every`` closed sockets."""
        self.every = every
        self.collect = collect
        self.trim = trim if trim is not None else _malloc_trim()
        self.closed_since = 0
        self.collections = 0

    def socket_closed(self) -> None:
        """Count a socket closed; collect when ``every`` have closed since the last time."""
        self.closed_since += 1
        if self.closed_since >= self.every:
            self.closed_since = 0
            self.collect_now()

    def collect_now(self) -> None:
        """Collect every generation, and give the freed heap back."""
        self.collections += 1
        self.collect()
        self.trim()

    async def collect_periodically(
        self,
        every: float = FULL_COLLECTION_S,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        """Collect every ``every`` seconds (``sleep`` waits them), until cancelled."""
        while True:
            await sleep(every)
            self.collect_now()
