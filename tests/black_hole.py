"""A TCP proxy on 127.0.0.1 that can turn into a black hole: connections stay open, no byte passes.

This is how a connection dies without closing (a stalled proxy, a phone between networks, a
Wi-Fi network that swallows traffic): neither end gets a FIN or a reset, only silence.
``BlackHole`` forwards bytes both ways between its clients and ``target`` until ``swallow()``;
from then on it reads and drops everything in both directions, and new connections are
accepted and swallowed alike, until ``restore()``. It runs its own event loop in a daemon
thread, so that a sync test (Playwright's) and a server in another thread can use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Final

CHUNK: Final = 65_536
"""Bytes read at once."""


class BlackHole:
    """A proxy from ``port`` (a free one on 127.0.0.1) to ``target_port``, switchable."""

    def __init__(self, target_port: int, host: str = "127.0.0.1") -> None:
        """Not listening yet: ``start`` it (or use ``running``)."""
        self.host = host
        self.target_port = target_port
        self.port = 0
        self.passing = asyncio.Event()
        """Set while bytes pass; clear while every byte is swallowed. Switched on the proxy's
        loop only (``swallow``, ``restore``): its pumps wait on it."""
        self.passing.set()
        self.swallowed = 0
        """Bytes swallowed so far, both ways (``wait_swallowed`` waits for a count)."""
        self._swallowing = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="black-hole", daemon=True)
        self.server: asyncio.Server | None = None

    def start(self) -> None:
        """Listen, in a thread of its own; ``port`` is then set."""
        self.thread.start()
        started = asyncio.run_coroutine_threadsafe(self._listen(), self.loop)
        started.result(timeout=10)

    def stop(self) -> None:
        """Stop listening and drop every connection."""

        async def close() -> None:
            if self.server is not None:
                self.server.close()
            for task in asyncio.all_tasks() - {asyncio.current_task()}:
                task.cancel()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(close(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    def swallow(self) -> None:
        """From now on no byte passes, either way; every connection stays open."""
        self._switch(self.passing.clear)

    def restore(self) -> None:
        """Bytes pass again (those swallowed meanwhile are gone for good)."""
        self._switch(self.passing.set)

    def wait_swallowed(self, count: int, timeout: float = 10) -> None:
        """Return once ``count`` bytes in all have been swallowed (``AssertionError`` if not
        within ``timeout`` seconds)."""
        with self._swallowing:
            if not self._swallowing.wait_for(lambda: self.swallowed >= count, timeout=timeout):
                raise AssertionError(f"{self.swallowed} bytes swallowed, not {count}")

    def _switch(self, change: Callable[[], None]) -> None:
        """Make ``change`` on the proxy's loop, and return once it is made: a byte sent after
        ``swallow`` returns is swallowed."""
        if not self.thread.is_alive():  # not started: nothing else uses it yet
            change()
            return

        async def switch() -> None:
            change()

        asyncio.run_coroutine_threadsafe(switch(), self.loop).result(timeout=10)

    @property
    def url(self) -> str:
        """The proxy's address for a browser."""
        return f"http://{self.host}:{self.port}"

    async def _listen(self) -> None:
        self.server = await asyncio.start_server(self._serve, self.host, 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(
                self.host, self.target_port
            )
        except OSError:
            writer.close()
            return
        pumps = [
            asyncio.ensure_future(self._pump(reader, upstream_writer)),
            asyncio.ensure_future(self._pump(upstream_reader, writer)),
        ]
        # stopped (cancelled) or an end closed: either way the connection ends here, and the
        # task ends plainly (asyncio's streams log a cancelled connection task as an error)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for pump in pumps:
            pump.cancel()
        for each in (writer, upstream_writer):
            with contextlib.suppress(Exception):
                each.close()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Copy ``reader`` to ``writer`` while passing; read and drop while swallowing.

        An end closed while swallowing is swallowed too: the other end hears nothing, as
        through a real black hole.
        """
        while data := await reader.read(CHUNK):
            if not self.passing.is_set():
                with self._swallowing:
                    self.swallowed += len(data)
                    self._swallowing.notify_all()
                continue
            writer.write(data)
            await writer.drain()
        await self.passing.wait()  # a close in the dark is not passed on


@contextlib.contextmanager
def running(target_port: int) -> Iterator[BlackHole]:
    """A ``BlackHole`` to ``target_port``, listening for the ``with`` block."""
    hole = BlackHole(target_port)
    hole.start()
    try:
        yield hole
    finally:
        hole.stop()
