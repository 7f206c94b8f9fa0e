"""Quick pairing: players wait in a pool, and are seated together as soon as a table fits.

Signed-in players wait in the pool's ranked queue and are paired by rating
(``rummykit.ratings.tables_to_make``: each one's range widens with the wait); guests wait
in its friendly queue, first come first seated. A table is an ordinary party, made and started
at once with the players as its members (the first one seated hosts it), so the table, its
turn timer and what happens to a player who never arrives (the computer plays their turns
after the drop grace) are a party's.

A pairing round runs when someone joins a queue and then every ``TICK_S`` while anyone waits;
each round also tells every waiting player how long they have waited and the range accepted.
A pool lives in the process its players are connected to.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
from collections.abc import Awaitable, Callable
from typing import Final

from rummykit.protocol import (
    QUICK_POOLS,
    PairedMessage,
    PoolsAnswer,
    PoolView,
    QuickPool,
    SeekingMessage,
    SeekingView,
    Strict,
    names_params,
    wait_params,
)
from rummykit.ratings import Pool, Seeker, rating_range, tables_to_make
from rummykit.server.pairing.answers import party_refusal
from rummykit.server.pairing.seating import Terms, seat_together
from rummykit.server.parties import Lobby, PartyError
from rummykit.server.runtime import going_on
from rummykit.server.store import Account, Now
from rummykit.server.tables import Sleep

TICK_S: Final = 1.0
"""Seconds between pairing rounds while anyone waits (the range widens by the second)."""

INLINE_SEEKERS: Final = 64
"""A queue longer than this is paired in a thread, off the event loop (``tables_to_make``
takes about a millisecond for 50 players, 10 for a thousand)."""

GUEST_RATING: Final = 1500
"""What a guest counts as in the friendly queue: all alike, so first come first seated."""

Send = Callable[[Strict], Awaitable[None]]


@dataclasses.dataclass(eq=False)
class Waiting:
    """One player in a queue, and their connection."""

    ticket: int
    pool: QuickPool
    name: str
    account: Account | None
    rating: int
    provisional: bool
    since: float
    send: Send

    @property
    def ranked(self) -> bool:
        """Signed in: paired by rating, and the game is rated."""
        return self.account is not None


RatingNow = Callable[[int, Pool], Awaitable[tuple[int, bool]]]
"""An account's displayed rating in a pool now, and whether it is provisional."""


class QuickPairing:
    """The pools of this process: who waits where, and the rounds that seat them."""

    def __init__(self, lobby: Lobby, rating_now: RatingNow, now: Now, sleep: Sleep) -> None:
        """Tables are made in ``lobby``; waits are timed by ``now`` and paced by ``sleep``."""
        self._lobby = lobby
        self._rating_now = rating_now
        self._now = now
        self._sleep = sleep
        self._queues: dict[tuple[str, bool], list[Waiting]] = {
            (pool.name, ranked): [] for pool in QUICK_POOLS for ranked in (True, False)
        }
        self._tickets = itertools.count(1)
        self._ticker: asyncio.Task[None] | None = None
        self._seating: set[asyncio.Task[None]] = set()

    def view(self) -> PoolsAnswer:
        """The pools and how many wait in each queue."""
        return PoolsAnswer(
            pools=tuple(
                PoolView(
                    pool=pool,
                    ranked=len(self._queues[pool.name, True]),
                    friendly=len(self._queues[pool.name, False]),
                )
                for pool in QUICK_POOLS
            )
        )

    def _waiting_account(self, account: int) -> bool:
        return any(
            each.account is not None and each.account.id == account
            for queue in self._queues.values()
            for each in queue
        )

    async def seek(
        self, pool: QuickPool, name: str, account: Account | None, send: Send
    ) -> Waiting:
        """Wait in ``pool``, as ``account`` (``None``: a guest named ``name``).

        ``PartyError`` when this player may not: waiting already, a wait owed after leaving
        ranked games, a ranked game going on.
        """
        rating, provisional = GUEST_RATING, False
        if account is not None:
            await self._check_account(account)
            rating, provisional = await self._rating_now(account.id, Pool.WINNER)
            if self._waiting_account(account.id):  # checked again: the awaits let others in
                raise PartyError("already_seeking")
        waiting = Waiting(
            next(self._tickets), pool, name, account, rating, provisional, self._now(), send
        )
        self._queues[pool.name, waiting.ranked].append(waiting)
        await self._round(pool, waiting.ranked)
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.get_running_loop().create_task(self._tick_while_waiting())
        return waiting

    async def _check_account(self, account: Account) -> None:
        if self._waiting_account(account.id):
            raise PartyError("already_seeking")
        waits = await self._lobby.ranked.waits([account.id])
        if waits:
            raise PartyError("ranked_wait", **wait_params(waits[account.id]))
        if await self._lobby.ranked.busy([account.id]):
            raise PartyError("ranked_busy", **names_params([account.name]))

    def cancel(self, waiting: Waiting) -> None:
        """Stop waiting (the page cancelled, or its socket closed)."""
        queue = self._queues[waiting.pool.name, waiting.ranked]
        if waiting in queue:
            queue.remove(waiting)

    async def tick(self) -> None:
        """One round in every queue, then each player still waiting is told how it goes."""
        for pool in QUICK_POOLS:
            for ranked in (True, False):
                await self._round(pool, ranked)

    async def _tick_while_waiting(self) -> None:
        while any(self._queues.values()):
            await self._sleep(TICK_S)
            await self.tick()

    async def _round(self, pool: QuickPool, ranked: bool) -> None:
        queue = self._queues[pool.name, ranked]
        now = self._now()
        seekers = [Seeker(each, each.rating, each.since) for each in queue]
        if len(seekers) > INLINE_SEEKERS:
            tables = await asyncio.to_thread(tables_to_make, seekers, pool.seats, now)
        else:
            tables = tables_to_make(seekers, pool.seats, now)
        for table in tables:
            players = [seeker.key for seeker in table]
            if not all(each in queue for each in players):
                continue  # one left, or was seated by another round, meanwhile
            for each in players:
                queue.remove(each)
            # seated in a task of its own: making a party and its table takes the store's time
            seating = asyncio.get_running_loop().create_task(self._seat(pool, players))
            self._seating.add(seating)
            seating.add_done_callback(self._seating.discard)
        for each in list(queue):
            with going_on("telling a player how the wait goes"):
                await each.send(self._seeking(each, len(queue), now))

    def _seeking(self, waiting: Waiting, count: int, now: float) -> SeekingMessage:
        waited = max(0.0, now - waiting.since)
        reach = rating_range(waited) if waiting.ranked else None
        return SeekingMessage(
            v=0,
            d=SeekingView(
                pool=waiting.pool.name,
                ranked=waiting.ranked,
                rating=waiting.rating if waiting.ranked else None,
                provisional=waiting.provisional,
                low=None if reach is None else round(waiting.rating - reach),
                high=None if reach is None else round(waiting.rating + reach),
                waited_s=int(waited),
                waiting=count,
            ),
        )

    async def _seat(self, pool: QuickPool, players: list[Waiting]) -> None:
        """Make the party of ``players`` and start its table; tell each their seat."""
        terms = Terms(pool.preset, pool.turn_timer, ranked=players[0].ranked)
        try:
            seats = await seat_together(
                self._lobby, terms, [(each.name, each.account) for each in players]
            )
        except PartyError as error:
            for each in players:
                with going_on("telling a player their table could not be made"):
                    await each.send(party_refusal(error))
            return
        for each, seat in zip(players, seats, strict=True):
            with going_on("telling a player their seat"):
                await each.send(PairedMessage(v=0, d=seat))

    async def close(self) -> None:
        """Stop the rounds (the server stops)."""
        tasks = [*self._seating, *([self._ticker] if self._ticker is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with going_on("stopping quick pairing"), contextlib.suppress(asyncio.CancelledError):
                await task
