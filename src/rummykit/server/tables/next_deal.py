"""Between two deals: a table of several people waits for them to read the deal's summary.

At a table of one person (against the computer) "next deal" deals the next deal at once. At a
table of several people it says that this person is ready: the next deal is dealt once every
person with a page open has pressed it, or ``NEXT_DEAL_WAIT_S`` after the first press,
whoever is still reading. Computer players are always ready, and a person with no page open
(away, or gone for good) does not hold the table up. Nobody is ever pushed from the summary
into a deal before the countdown that everyone sees has run out.

The countdown is a deadline on the table's clock, stored in the table's ``deadline`` (which
holds no turn's deadline while no deal is played), so a restart keeps it: a table restored
between two deals waits at least ``RESTART_GRACE_S`` more (the presses themselves are not
stored: each page shows its button again). It is armed like the turn timer, tagged with the
table's version: an expiry that comes once the next deal has been dealt is ignored. A table
where nobody has a page open waits, and gives the countdown the same grace when someone
comes back.

``BetweenDeals`` holds this part of a table: an object the ``Table`` owns, which reads the
table's seats and game, and asks it to deal and to broadcast.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Final

from rummykit.protocol import Between, refused
from rummykit.server.tables.turn_keeper import RESTART_GRACE_S, Send

if TYPE_CHECKING:
    from rummykit.server.tables.table import Table

NEXT_DEAL_WAIT_S: Final = 20.0
"""How long a table of several people waits, after the first "next deal", for those still
reading the deal's summary: long enough to read every hand and the scores at leisure, short
enough that the quick readers are not left waiting for someone who has wandered off with
the page open. Everyone sees it count down."""


class BetweenDeals:
    """The wait for the next deal of a table of several people."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.next_ready: set[int] = set()
        """Seats whose people pressed "next deal" since the deal ended."""
        self.next_due: float | None = None
        """When the next deal starts whoever is still reading (from the first press)."""

    def waits_for_people(self) -> bool:
        """Whether "next deal" waits for others: more than one person still at the table."""
        return len([seat for seat in self.table.humans if seat not in self.table.left]) > 1

    def _between(self) -> bool:
        """Whether the table is between two deals of a game that goes on."""
        return self.table.game.deal_over and not self.table.game.game_over

    def _still_reading(self) -> frozenset[int]:
        """The people with a page open who have not pressed "next deal"."""
        return frozenset(
            seat
            for seat in self.table.humans
            if seat not in self.table.left
            and seat not in self.next_ready
            and self.table.listeners.get(seat)
        )

    def wait(self) -> Between:
        """The wait as every view shows it.

        Empty while a deal is played, and at a table of one person.
        """
        if not self._between() or not self.waits_for_people():
            return Between()
        waiting = self._still_reading() if self.next_due is not None else frozenset()
        return Between(frozenset(self.next_ready), waiting, self.next_due)

    def next_deal_due(self) -> float | None:
        """When the countdown to the next deal runs out, if one runs (the keeper arms it)."""
        return self.next_due if self._between() else None

    async def next_deal(self, seat: int, reply: Send) -> bool:
        """Seat ``seat`` pressed "next deal": deal now, or note it and wait for the others."""
        if not self.table.game.deal_over:
            await reply(refused(self.table.version, "finish_deal_first"))
            return False
        if self.table.game.game_over:
            await reply(refused(self.table.version, "game_over"))
            return False
        if not self.waits_for_people():
            await self._start_next_deal()
            return True
        self.next_ready.add(seat)
        if self.next_due is None:
            self.next_due = self.table.now() + NEXT_DEAL_WAIT_S
            await asyncio.to_thread(self.table.store.set_deadline, self.table.id, self.next_due)
        if not await self.deal_if_everyone_is_ready():
            await self.table.audience.broadcast(
                None
            )  # everyone sees who is ready, and the countdown
        return True

    async def deal_if_everyone_is_ready(self) -> bool:
        """Deal the next deal if someone pressed and nobody with a page open still reads.

        Checked after a press, a page closing, someone leaving for good.
        """
        if not self._between() or not self.next_ready or self.table.keeper.paused():
            return False
        if self._still_reading():
            return False
        await self._start_next_deal()
        return True

    async def next_deal_expired(self) -> None:
        """The countdown ran out (an expiry at the current version): deal, whoever reads."""
        if self._between() and self.next_due is not None and self.table.now() >= self.next_due:
            await self._start_next_deal()

    async def _start_next_deal(self) -> None:
        self.next_ready.clear()
        self.next_due = None
        await self.table.dealer.deal()
        await self.table.audience.broadcast(None)

    async def restore_wait(self) -> None:
        """A table restored between two deals: its countdown, with at least the grace."""
        if not self._between() or not self.waits_for_people():
            return
        stored = await asyncio.to_thread(self.table.store.deadline, self.table.id)
        if stored is not None:
            self.next_due = stored
            await self.wait_grace()

    async def wait_grace(self) -> None:
        """At least ``RESTART_GRACE_S`` on a running countdown, stored.

        Nobody was there to see it run: a restart, or a table where no page was open.
        """
        if self.next_due is None or not self._between():
            return
        self.next_due = max(self.next_due, self.table.now() + RESTART_GRACE_S)
        await asyncio.to_thread(self.table.store.set_deadline, self.table.id, self.next_due)
