"""Letters for the pages of one process, left by any process of the site, delivered at once.

A seat found by another process, a challenge for a page another process serves: the text is
left in the page's box on the board (``Board.post``), and the process that serves the page is
nudged on the bus with the box's name, so that it empties the box at once. The bus delivers at
most once; a nudge lost is made good by the process's own rounds, which empty its boxes
(``deliver``) every second or so. Alone, a process needs neither: its boxes are its own.

A box is named by its process and a name of its own (``Post.box``), so that any process knows
whom to nudge.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Final

from rummykit.server.cluster.board import Board
from rummykit.server.cluster.bus import Bus, BusUnavailable, Subscription
from rummykit.server.runtime import REDIS_GONE, going_on

BUS_GONE: Final = (*REDIS_GONE, BusUnavailable)

Deliver = Callable[[list[str]], Awaitable[None]]
"""What a box's owner does with the letters found in it, in the order posted."""


def nudges(process: str) -> str:
    """The bus channel that tells a process it has letters."""
    return f"rummy:post:{process}"


def address(process: str, name: str) -> str:
    """The box ``name`` of ``process``."""
    return f"{process}/{name}"


def process_of(box: str) -> str:
    """The process a box belongs to."""
    return box.partition("/")[0]


class Post:
    """This process's boxes: letters sent to any process's, and delivered from ours."""

    def __init__(self, board: Board, bus: Bus | None, process: str) -> None:
        """Letters on ``board``; nudges on ``bus`` (none: this process is alone)."""
        self._board = board
        self._bus = bus
        self.process = process
        self._boxes: dict[str, Deliver] = {}
        self._listener: asyncio.Task[None] | None = None

    def box(self, name: str) -> str:
        """The name of one of our boxes, as every process addresses it."""
        return address(self.process, name)

    def mine(self, box: str) -> bool:
        """Whether ``box`` is one of ours."""
        return process_of(box) == self.process

    async def open(self, box: str, deliver: Deliver) -> None:
        """Deliver the letters of one of our boxes with ``deliver`` from now on."""
        self._boxes[box] = deliver
        if self._bus is not None and self._listener is None:
            with going_on("listening for letters", expected=BUS_GONE):
                subscription = await self._bus.subscribe(nudges(self.process))
                self._listener = asyncio.get_running_loop().create_task(self._listen(subscription))

    async def close(self, box: str) -> None:
        """Close one of our boxes: letters left in it are dropped."""
        if self._boxes.pop(box, None) is not None:
            await self._board.collect(box)

    async def send(self, box: str, text: str) -> None:
        """Leave ``text`` in ``box`` (any process's) and nudge its process."""
        await self._board.post(box, text)
        if self._bus is not None:
            with going_on("nudging a process", expected=BUS_GONE):
                await self._bus.publish(nudges(process_of(box)), box.encode())

    async def deliver(self, box: str) -> None:
        """Empty one of our boxes now (a round's catch-up for a lost nudge)."""
        deliver = self._boxes.get(box)
        if deliver is not None:
            letters = await self._board.collect(box)
            if letters:
                await deliver(letters)

    async def _listen(self, subscription: Subscription) -> None:
        with going_on("listening for letters", expected=BUS_GONE):
            async with subscription:
                async for nudge in subscription:
                    boxes = [nudge.decode()] if isinstance(nudge, bytes) else list(self._boxes)
                    for box in boxes:  # after a gap (``RESYNC``), every box
                        with going_on("delivering letters"):
                            await self.deliver(box)

    async def stop(self) -> None:
        """Stop listening (the process stops)."""
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
