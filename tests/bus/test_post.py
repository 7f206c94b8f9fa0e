"""The post: letters for another process's boxes, delivered at once by a nudge on the bus, or
at the owner's next round when the nudge was lost. On the in-memory board and bus, then on
Redis (two processes' clients on one Redis)."""

from __future__ import annotations

import asyncio
import secrets

from bus_backends import Backend
from rummykit.server.cluster.board import Board, MemoryBoard, RedisBoard
from rummykit.server.cluster.lease import redis_client
from rummykit.server.cluster.post import Post, address


def test_a_letter_reaches_the_box_of_another_process_at_once_and_only_once(
    backend: Backend,
) -> None:
    async def scenario() -> None:
        boards: list[Board]
        clients = []
        if backend.service is None:
            boards = [MemoryBoard()] * 2
        else:
            clients = [redis_client(backend.service.url) for _ in range(2)]
            boards = [RedisBoard(client) for client in clients]
        async with backend.buses(2) as buses:
            here = Post(boards[0], buses[0], f"here{secrets.token_hex(3)}")
            there = Post(boards[1], buses[1], f"there{secrets.token_hex(3)}")
            got: asyncio.Queue[list[str]] = asyncio.Queue()
            box = here.box("page-1")
            assert here.mine(box) and not there.mine(box)
            assert box == address(here.process, "page-1")
            await here.open(box, got.put)
            await there.send(box, "first")
            await there.send(box, "second")
            letters = [*await asyncio.wait_for(got.get(), 5)]
            while len(letters) < 2:
                letters += await asyncio.wait_for(got.get(), 5)
            assert letters == ["first", "second"]
            await here.deliver(box)  # nothing left: nothing delivered twice
            assert got.empty()
            # a nudge lost (sent without a bus): the owner's round delivers it
            await Post(boards[1], None, there.process).send(box, "late")
            await here.deliver(box)
            assert await asyncio.wait_for(got.get(), 5) == ["late"]
            # a closed box drops what is left and delivers nothing more
            await here.close(box)
            await there.send(box, "to nobody")
            await here.deliver(box)
            assert got.empty()
            await here.stop()
        for client in clients:
            await client.aclose()

    asyncio.run(scenario())
