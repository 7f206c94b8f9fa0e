"""The shared boards: entries kept alive by their writer, taken all or none, and letters.

Each test runs on the in-memory board, then on the Redis one (two clients on one Redis, as two
processes hold them); times are the test's.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

from bus_backends import Backend
from rummykit.server.cluster.board import Board, MemoryBoard, RedisBoard
from rummykit.server.cluster.lease import redis_client

Scenario = Callable[[Board, Board, str], Awaitable[None]]


def run(backend: Backend, scenario: Scenario) -> None:
    """``scenario`` with two processes' views of one board (the same object in memory)."""

    async def go() -> None:
        name = f"test:{secrets.token_hex(4)}"
        if backend.service is None:
            board = MemoryBoard()
            await scenario(board, board, name)
            return
        clients = [redis_client(backend.service.url) for _ in range(2)]
        try:
            await scenario(RedisBoard(clients[0]), RedisBoard(clients[1]), name)
        finally:
            for client in clients:
                await client.aclose()

    asyncio.run(go())


def test_an_entry_stands_until_its_time_unless_renewed(backend: Backend) -> None:
    async def scenario(one: Board, other: Board, name: str) -> None:
        await one.put(name, {"a": "Ann", "b": "Bob|with a bar"}, until=10.0)
        assert await other.read(name, now=5.0) == {"a": "Ann", "b": "Bob|with a bar"}
        assert await one.renew(name, ["a"], until=20.0) == set()
        assert await other.read(name, now=15.0) == {"a": "Ann"}  # b was not written again
        assert await one.renew(name, ["a", "b"], until=30.0) == {"b"}  # never written back
        assert await other.read(name, now=25.0) == {"a": "Ann"}

    run(backend, scenario)


def test_a_read_by_prefix_finds_only_the_keys_that_start_with_it(backend: Backend) -> None:
    async def scenario(one: Board, other: Board, name: str) -> None:
        entries = {"12@a": "x", "12@b": "y", "123@a": "z", "1*@a": "star", "2@a": "w"}
        await one.put(name, entries, until=10.0)
        assert await other.read(name, now=0.0, prefix="12@") == {"12@a": "x", "12@b": "y"}
        assert await other.read(name, now=0.0, prefix="1*@") == {"1*@a": "star"}  # not a glob
        assert await other.read(name, now=20.0, prefix="12@") == {}  # past their time

    run(backend, scenario)


def test_take_removes_every_key_or_none(backend: Backend) -> None:
    async def scenario(one: Board, other: Board, name: str) -> None:
        await one.put(name, {"a": "1", "b": "2", "c": "3"}, until=100.0)
        assert not await other.take(name, ["a", "z"])  # z is not there: nothing taken
        assert await other.read(name, now=0.0) == {"a": "1", "b": "2", "c": "3"}
        assert await other.take(name, ["a", "b"])
        assert not await one.take(name, ["b", "c"])  # b is gone: the second take fails whole
        assert await one.read(name, now=0.0) == {"c": "3"}
        assert await one.renew(name, ["a", "c"], until=200.0) == {"a"}
        await one.remove(name, ["c", "never there"])
        assert await other.read(name, now=0.0) == {}

    run(backend, scenario)


def test_two_processes_taking_the_same_entries_at_once_never_both_get_them(
    backend: Backend,
) -> None:
    async def scenario(one: Board, other: Board, name: str) -> None:
        for round_ in range(20):
            keys = [f"{round_}-{seat}" for seat in range(4)]
            await one.put(name, dict.fromkeys(keys, "x"), until=100.0)
            taken = await asyncio.gather(one.take(name, keys), other.take(name, keys[1:]))
            assert sum(taken) == 1, taken
            await one.remove(name, keys)

    run(backend, scenario)


def test_letters_are_collected_once_in_the_order_posted(backend: Backend) -> None:
    async def scenario(one: Board, other: Board, name: str) -> None:
        assert await other.collect(name) == []
        await one.post(name, '{"t": "paired"}')
        await other.post(name, "second")
        assert await other.collect(name) == ['{"t": "paired"}', "second"]
        assert await one.collect(name) == []

    run(backend, scenario)
