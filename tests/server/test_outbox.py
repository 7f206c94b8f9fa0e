"""One slow reader never holds up its table: frames queue, and a reader too far behind is cut.

A second tab of a seat that stopped reading froze its whole table for about 35 seconds: the
table waited on that socket's send. Now the table only queues each frame.
"""

from __future__ import annotations

import asyncio

import pytest

from rummykit.protocol.codes import ServerCode
from rummykit.protocol.messages import CloseCode, refusal
from rummykit.server.http.outbox import ConnectionDropped, Outbox


class Reader:
    """A connection's far end: reads what is written, or stalls until told to go on."""

    def __init__(self, *, stalled: bool) -> None:
        self.go_on = asyncio.Event()
        if not stalled:
            self.go_on.set()
        self.read: list[str] = []
        self.closed: list[tuple[int, str]] = []

    async def write(self, text: str) -> None:
        await self.go_on.wait()
        self.read.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed.append((code, reason))


def test_frames_reach_a_reader_in_order() -> None:
    async def scenario() -> list[int]:
        reader = Reader(stalled=False)
        outbox = Outbox(reader.write, reader.close, limit=4)
        outbox.start()
        for number in range(10):
            await outbox.send(refusal(number, ServerCode.STALE, "m"))
            await asyncio.sleep(0)  # the reader keeps up
        while len(reader.read) < 10:
            await asyncio.sleep(0)
        await outbox.stop()
        return [int(text.split('"v":')[1].split(",")[0]) for text in reader.read]

    assert asyncio.run(scenario()) == list(range(10))


def test_a_reader_that_stops_never_makes_the_table_wait_and_is_cut_when_too_far_behind() -> None:
    async def scenario() -> tuple[int, list[tuple[int, str]], bool]:
        reader = Reader(stalled=True)
        outbox = Outbox(reader.write, reader.close, limit=8)
        outbox.start()
        queued = 0
        with pytest.raises(ConnectionDropped):
            for number in range(100):
                # each send must return at once: a wait here would be the table waiting
                await asyncio.wait_for(outbox.send(refusal(number, ServerCode.STALE, "m")), 1)
                queued += 1
        for _ in range(10):
            await asyncio.sleep(0)  # let the drop close the connection
        with pytest.raises(ConnectionDropped):
            await outbox.send(refusal(0, ServerCode.STALE, "m"))  # and stays dropped
        return queued, reader.closed, outbox.dropped

    queued, closed, dropped = asyncio.run(scenario())
    assert queued == 8 + 1  # the pump holds one frame, the queue eight more
    assert dropped and [code for code, _ in closed] == [CloseCode.TOO_SLOW]
