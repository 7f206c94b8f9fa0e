"""The lobby's open tables: the listed parties with a free seat, kept up to date as they change.

Each party tells the board after every change its members are told of (``Party.on_change``);
the board works out the party's line, and when the list changed sends it, written once, to
every lobby open on ``/ws/lobby``. A line is there while the party is listed, in its lobby,
has a seat free under its rules and one of its people has it open: a party that fills up,
starts or is left by everyone leaves the list with that change.

The list covers the parties this process holds: with several processes, a party shows in the
lobbies of the process its people are connected to.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable

from rummykit.core.rules import Scoring
from rummykit.protocol import (
    MAX_OPEN_TABLES,
    OpenTable,
    OpenTables,
    OpenTablesMessage,
    PartyView,
)
from rummykit.ratings import Pool, display_value, is_settled
from rummykit.server.http import ConnectionDropped, Outbox
from rummykit.server.parties.party import Party
from rummykit.server.runtime import going_on
from rummykit.server.store import Now, Store, current_rating

HostRating = Callable[[int, Pool], Awaitable[tuple[int, bool]]]
"""An account's displayed rating in a pool now, and whether it is still provisional."""


def stored_ratings(store: Store, now: Now) -> HostRating:
    """Accounts' ratings as ``store`` keeps them, drifted to ``now``."""

    async def rating_now(account: int, pool: Pool) -> tuple[int, bool]:
        stored = await asyncio.to_thread(store.ratings.of, account, pool)
        rating = current_rating(stored, now())
        return display_value(rating), not is_settled(rating)

    return rating_now


def open_seats(view: PartyView) -> int:
    """The most people the party's rules seat (0: none: its rules cannot be dealt)."""
    return max(view.seats, default=0)


def is_open(view: PartyView) -> bool:
    """Whether the party belongs on the list: listed, not started, a seat free, someone there."""
    someone_here = any(each.kind == "human" and each.connected for each in view.members)
    return (
        view.listed
        and view.state == "lobby"
        and len(view.members) < open_seats(view)
        and someone_here
    )


def rated_pool(view: PartyView) -> Pool:
    """The pool a listed party's games are rated in (its people's: nobody is a program yet)."""
    return Pool.of(Scoring(str(view.in_play.get("scoring", Scoring.WINNER.value))))


class OpenTablesBoard:
    """The open tables of this process and the lobbies watching them."""

    def __init__(self, host_rating: HostRating) -> None:
        """Ranked parties show their host's rating, read with ``host_rating``."""
        self._host_rating = host_rating
        self._lines: dict[str, tuple[int, OpenTable]] = {}
        """Each open party's line, after the order it was first listed in."""
        self._order = itertools.count()
        self._asked: dict[str, int] = {}
        """The latest update begun for each party: an older one that ends later is dropped."""
        self._watchers: set[Outbox] = set()
        self.version = 0
        self._text = self._written()

    def view(self) -> OpenTables:
        """The list: the longest waiting first, ``MAX_OPEN_TABLES`` at most."""
        lines = sorted(self._lines.values(), key=lambda each: each[0])
        return OpenTables(tables=tuple(line for _, line in lines[:MAX_OPEN_TABLES]))

    def _written(self) -> str:
        return OpenTablesMessage(v=self.version, d=self.view()).model_dump_json()

    async def watch(self, outbox: Outbox) -> None:
        """Send ``outbox`` the list now and after every change."""
        self._watchers.add(outbox)
        await outbox.send_text(self._text)

    def unwatch(self, outbox: Outbox) -> None:
        """Stop sending to ``outbox``."""
        self._watchers.discard(outbox)

    @property
    def watchers(self) -> int:
        """How many lobbies watch the list."""
        return len(self._watchers)

    async def update(self, party: Party) -> None:
        """Work out ``party``'s line again; tell the lobbies if the list changed."""
        code = party.code
        ticket = self._asked[code] = self._asked.get(code, 0) + 1
        view = party.view(None)
        try:
            line = await self._line(party, view) if is_open(view) else None
        except BaseException:
            if self._asked.get(code) == ticket:
                del self._asked[code]
            raise
        if self._asked.get(code) != ticket:
            return  # a later change of the party is being worked out: it decides
        del self._asked[code]
        before = self._lines.get(code)
        if line is None:
            if before is None:
                return
            del self._lines[code]
        elif before is not None and before[1] == line:
            return
        else:
            self._lines[code] = (next(self._order) if before is None else before[0], line)
        self.version += 1
        self._text = self._written()
        for outbox in list(self._watchers):
            with going_on("sending the open tables"):
                try:
                    await outbox.send_text(self._text)
                except ConnectionDropped:
                    self._watchers.discard(outbox)

    async def _line(self, party: Party, view: PartyView) -> OpenTable:
        record = party.record
        host = next((each for each in record.members if each.id == record.host), None)
        rating: tuple[int, bool] | None = None
        if view.ranked and host is not None and host.account is not None:
            rating = await self._host_rating(host.account, rated_pool(view))
        target = view.in_play.get("target")
        deals = view.in_play.get("deals")
        return OpenTable(
            code=view.code,
            url=view.url,
            preset=view.preset,
            target=target if isinstance(target, int) else None,
            deals=deals if isinstance(deals, int) else None,
            turn_timer=view.turn_timer,
            ranked=view.ranked,
            seats_taken=len(view.members),
            seats=open_seats(view),
            host="" if host is None else host.name,
            host_rating=None if rating is None else rating[0],
            host_provisional=rating is not None and rating[1],
        )
