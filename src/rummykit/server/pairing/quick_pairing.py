"""Quick pairing: players wait in a pool, and are seated together as soon as a table fits.

Signed-in players wait in the pool's ranked queue and are paired by rating
(``rummykit.ratings.tables_to_make``: each one's range widens with the wait); guests wait
in its friendly queue, first come first seated. A table is an ordinary party, made and started
at once with the players as its members (the first one seated hosts it), so the table, its
turn timer and what happens to a player who never arrives (the computer plays their turns
after the drop grace) are a party's.

The queues are boards every process of the site shares (``rummykit.server.cluster.Board``):
each process writes its own waiting players there, and writes them again every round while
they wait. A pairing round runs when someone joins a queue and then every ``TICK_S`` while
anyone waits here; it reads the whole queue, and the players of each table it finds are taken
off the board at once, all or none, so that two processes pairing at the same moment never
seat one player twice. A player seated by another process is sent their seat by post
(``rummykit.server.cluster.Post``): their own process gives it to them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from rummykit.protocol import (
    PAIRING_SERVER_MESSAGES,
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
from rummykit.server.cluster import Board, Post
from rummykit.server.pairing.answers import party_refusal
from rummykit.server.pairing.seating import Terms, seat_together
from rummykit.server.parties import Lobby, PartyError
from rummykit.server.runtime import going_on
from rummykit.server.store import Account, Now
from rummykit.server.tables import Sleep

TICK_S: Final = 1.0
"""Seconds between pairing rounds while anyone waits (the range widens by the second)."""

ENTRY_S: Final = 5 * TICK_S
"""How long a waiting player's entry stands on the board unless written again: a process
that died takes its players off every queue within this time."""

LOST_SEAT_S: Final = 10 * TICK_S
"""A player taken off the board whose seat has not come after this long (the process seating
them died) waits again."""

INLINE_SEEKERS: Final = 64
"""A queue longer than this is paired in a thread, off the event loop (``tables_to_make``
takes about a millisecond for 50 players, 10 for a thousand)."""

GUEST_RATING: Final = 1500
"""What a guest counts as in the friendly queue: all alike, so first come first seated."""

Send = Callable[[Strict], Awaitable[None]]

FindAccount = Callable[[str], Awaitable[Account | None]]
"""The account of a name, if any."""


class SeekEntry(Strict):
    """One waiting player as every process reads them on the board."""

    ticket: str
    """The player's box (``Post.box``): their seat is sent there."""
    name: str
    account: int | None
    rating: int
    provisional: bool
    since: float


@dataclasses.dataclass(eq=False)
class Waiting:
    """One player of this process in a queue, and their connection."""

    entry: SeekEntry
    pool: QuickPool
    account: Account | None
    send: Send
    missing_since: float | None = None
    """When the player was first found off the board without a seat (being seated elsewhere)."""

    @property
    def ranked(self) -> bool:
        """Signed in: paired by rating, and the game is rated."""
        return self.account is not None


RatingNow = Callable[[int, Pool], Awaitable[tuple[int, bool]]]
"""An account's displayed rating in a pool now, and whether it is provisional."""


def queue_name(pool: QuickPool, ranked: bool) -> str:
    """The board of one queue of a pool."""
    return f"pool:{pool.name}:{'ranked' if ranked else 'friendly'}"


class QuickPairing:
    """The pools: who waits here, and the rounds that seat the players of every process."""

    def __init__(
        self,
        lobby: Lobby,
        rating_now: RatingNow,
        find_account: FindAccount,
        now: Now,
        sleep: Sleep,
        board: Board,
        post: Post,
    ) -> None:
        """Tables are made in ``lobby``; the queues are on ``board``.

        The board is shared with the other processes, and seats they find for our players
        come by ``post``; waits are timed by ``now`` and paced by ``sleep``.
        """
        self._lobby = lobby
        self._rating_now = rating_now
        self._find_account = find_account
        self._now = now
        self._sleep = sleep
        self._board = board
        self._post = post
        self._mine: dict[str, Waiting] = {}
        """This process's waiting players, by ticket."""
        self._tickets = itertools.count(1)
        self._ticker: asyncio.Task[None] | None = None
        self._seating: set[asyncio.Task[None]] = set()

    async def _entries(self, pool: QuickPool, ranked: bool) -> list[SeekEntry]:
        standing = await self._board.read(queue_name(pool, ranked), self._now())
        return [SeekEntry.model_validate_json(text) for text in standing.values()]

    async def view(self) -> PoolsAnswer:
        """The pools and how many wait in each queue (in every process)."""
        views = []
        for pool in QUICK_POOLS:
            ranked = len(await self._entries(pool, True))
            friendly = len(await self._entries(pool, False))
            views.append(PoolView(pool=pool, ranked=ranked, friendly=friendly))
        return PoolsAnswer(pools=tuple(views))

    async def _waiting_account(self, account: int) -> bool:
        if any(each.entry.account == account for each in self._mine.values()):
            return True
        for pool in QUICK_POOLS:
            if any(each.account == account for each in await self._entries(pool, True)):
                return True
        return False

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
            if await self._waiting_account(account.id):  # again: the awaits let others in
                raise PartyError("already_seeking")
        entry = SeekEntry(
            ticket=self._post.box(f"seat-{next(self._tickets)}"),
            name=name if account is None else account.name,
            account=None if account is None else account.id,
            rating=rating,
            provisional=provisional,
            since=self._now(),
        )
        waiting = Waiting(entry, pool, account, send)
        self._mine[entry.ticket] = waiting

        async def seated(letters: list[str]) -> None:
            await self._deliver(entry.ticket, PAIRING_SERVER_MESSAGES.validate_json(letters[0]))

        await self._post.open(entry.ticket, seated)
        await self._write(waiting)
        await self._round(pool, waiting.ranked)
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.get_running_loop().create_task(self._tick_while_waiting())
        return waiting

    async def _check_account(self, account: Account) -> None:
        if await self._waiting_account(account.id):
            raise PartyError("already_seeking")
        waits = await self._lobby.ranked.waits([account.id])
        if waits:
            raise PartyError("ranked_wait", **wait_params(waits[account.id]))
        if await self._lobby.ranked.busy([account.id]):
            raise PartyError("ranked_busy", **names_params([account.name]))

    async def cancel(self, waiting: Waiting) -> None:
        """Stop waiting (the page cancelled, or its socket closed)."""
        if self._mine.pop(waiting.entry.ticket, None) is not None:
            queue = queue_name(waiting.pool, waiting.ranked)
            with going_on("taking a player off a queue"):
                await self._board.remove(queue, [waiting.entry.ticket])
                await self._post.close(waiting.entry.ticket)

    def _here(self, pool: QuickPool, ranked: bool) -> list[Waiting]:
        return [each for each in self._mine.values() if each.pool == pool and each.ranked == ranked]

    async def _write(self, waiting: Waiting) -> None:
        """Put a player of ours on their queue's board."""
        entry = waiting.entry
        queue = queue_name(waiting.pool, waiting.ranked)
        await self._board.put(queue, {entry.ticket: entry.model_dump_json()}, self._until())

    def _until(self) -> float:
        return self._now() + ENTRY_S

    async def _renew(self, pool: QuickPool, ranked: bool) -> None:
        """Our players of a queue stand on for another ``ENTRY_S``.

        Those taken off by another process (being seated there) are marked so.
        """
        here = [each for each in self._here(pool, ranked) if each.missing_since is None]
        queue = queue_name(pool, ranked)
        taken = await self._board.renew(queue, [each.entry.ticket for each in here], self._until())
        for each in here:
            if each.entry.ticket in taken:
                each.missing_since = self._now()

    async def tick(self) -> None:
        """One round in every queue anyone waits in here.

        Each player still waiting is told how it goes.
        """
        for pool in QUICK_POOLS:
            for ranked in (True, False):
                if self._here(pool, ranked):
                    with going_on("a quick pairing round"):
                        await self._renew(pool, ranked)
                        await self._round(pool, ranked)

    async def _tick_while_waiting(self) -> None:
        while self._mine:
            await self._sleep(TICK_S)
            await self.tick()

    async def _round(self, pool: QuickPool, ranked: bool) -> None:
        now = self._now()
        queue = queue_name(pool, ranked)
        entries = await self._entries(pool, ranked)
        seekers = [Seeker(each, each.rating, each.since) for each in entries]
        if len(seekers) > INLINE_SEEKERS:
            tables = await asyncio.to_thread(tables_to_make, seekers, pool.seats, now)
        else:
            tables = tables_to_make(seekers, pool.seats, now)
        seated: set[str] = set()
        for table in tables:
            players = [seeker.key for seeker in table]
            tickets = [each.ticket for each in players]
            if not await self._board.take(queue, tickets):
                continue  # one left, or another process seated them, meanwhile
            seated.update(tickets)
            for ticket in tickets:
                if ticket in self._mine:
                    self._mine[ticket].missing_since = now  # its seat is on its way
            # seated in a task of its own: making a party and its table takes the store's time
            seating = asyncio.get_running_loop().create_task(self._seat(pool, players))
            self._seating.add(seating)
            seating.add_done_callback(self._seating.discard)
        standing = {each.ticket for each in entries} - seated
        for each in self._here(pool, ranked):
            if each.entry.ticket in standing:
                with going_on("telling a player how the wait goes"):
                    await each.send(self._seeking(each, len(standing), now))
            elif each.entry.ticket not in seated:
                await self._look_for_seat(each, now)

    async def _look_for_seat(self, waiting: Waiting, now: float) -> None:
        """A player of ours is off the board: their seat, if another process sent it."""
        await self._post.deliver(waiting.entry.ticket)
        if waiting.entry.ticket not in self._mine:
            return  # seated
        if waiting.missing_since is None:
            waiting.missing_since = now
        elif now - waiting.missing_since >= LOST_SEAT_S:
            waiting.missing_since = None  # the process seating them is gone: wait again
            await self._write(waiting)

    def _seeking(self, waiting: Waiting, count: int, now: float) -> SeekingMessage:
        entry = waiting.entry
        waited = max(0.0, now - entry.since)
        reach = rating_range(waited) if waiting.ranked else None
        return SeekingMessage(
            v=0,
            d=SeekingView(
                pool=waiting.pool.name,
                ranked=waiting.ranked,
                rating=entry.rating if waiting.ranked else None,
                provisional=entry.provisional,
                low=None if reach is None else round(entry.rating - reach),
                high=None if reach is None else round(entry.rating + reach),
                waited_s=int(waited),
                waiting=count,
            ),
        )

    async def _accounts(self, players: Sequence[SeekEntry]) -> list[Account | None]:
        found: list[Account | None] = []
        for each in players:
            mine = self._mine.get(each.ticket)
            if mine is not None or each.account is None:
                found.append(None if mine is None else mine.account)
            else:
                found.append(await self._find_account(each.name))
        return found

    async def _seat(self, pool: QuickPool, players: Sequence[SeekEntry]) -> None:
        """Make the party of ``players`` and start its table; tell each their seat."""
        ranked = players[0].account is not None
        terms = Terms(pool.preset, pool.turn_timer, ranked=ranked)
        messages: list[Strict]
        try:
            accounts = await self._accounts(players)
            if ranked and None in accounts:
                raise PartyError("pairing_failed")  # an account gone meanwhile
            seats = await seat_together(
                self._lobby,
                terms,
                [(each.name, account) for each, account in zip(players, accounts, strict=True)],
            )
            messages = [PairedMessage(v=0, d=seat) for seat in seats]
        except PartyError as error:
            messages = [party_refusal(error)] * len(players)
        for each, message in zip(players, messages, strict=True):
            await self._deliver(each.ticket, message)

    async def _deliver(self, ticket: str, message: Strict) -> None:
        """Tell a seated player: at once when theirs is a page of ours, else by post."""
        waiting = self._mine.pop(ticket, None)
        with going_on("telling a player their seat"):
            if waiting is not None:
                await self._post.close(ticket)
                await waiting.send(message)
            elif not self._post.mine(ticket):  # ours and gone: nobody to tell
                await self._post.send(ticket, message.model_dump_json())

    async def close(self) -> None:
        """Stop the rounds (the server stops); this process's players leave the queues."""
        tasks = [*self._seating, *([self._ticker] if self._ticker is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with going_on("stopping quick pairing"), contextlib.suppress(asyncio.CancelledError):
                await task
        for waiting in list(self._mine.values()):
            await self.cancel(waiting)
