"""The lobby's open tables: the listed parties with a free seat, kept up to date as they change.

Each party tells the board after every change its members are told of (``Party.on_change``);
the board works out the party's line, and when the list changed sends it, written once, to
every lobby open on ``/ws/lobby``. A line is there while the party is listed, in its lobby,
has a seat free under its rules and one of its people has it open: a party that fills up,
starts or is left by everyone leaves the list with that change.

Each process works out the lines of the parties it holds and writes them on a board every
process of the site shares (``rummykit.server.cluster.Board``); the list is the board's. Alone,
the list changes with each party's change. With several processes, each writes its lines again
every ``SHARED_EVERY_S`` while they stand (a process that dies takes its lines away within
``LINE_S``) and reads the others' as often, telling its lobbies when the list changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
from typing import Final

from rummykit.core.rules import Scoring
from rummykit.protocol import (
    MAX_OPEN_TABLES,
    OpenTable,
    OpenTables,
    OpenTablesMessage,
    PartyView,
    Strict,
)
from rummykit.ratings import Pool
from rummykit.server.cluster import Board
from rummykit.server.http import ConnectionDropped, Outbox
from rummykit.server.parties import HostRating, Party
from rummykit.server.runtime import going_on
from rummykit.server.store import Now
from rummykit.server.tables import Sleep

BOARD: Final = "open-tables"
"""The board of the open tables."""

SHARED_EVERY_S: Final = 1.0
"""With several processes: how often each writes its lines again and reads the others'."""

LINE_S: Final = 5 * SHARED_EVERY_S
"""With several processes: how long a line stands unless written again."""


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


class ListedLine(Strict):
    """A line as it stands on the board: when its party was first listed, and the line."""

    at: float
    order: int
    """After ``at``: the order this process listed its parties in (one clock reading may
    serve several)."""
    line: OpenTable


class OpenTablesBoard:
    """The open tables of the site, this process's parties' lines, and its lobbies."""

    def __init__(
        self,
        host_rating: HostRating,
        board: Board,
        now: Now,
        sleep: Sleep,
        *,
        shared: bool = False,
        process: str = "p",
    ) -> None:
        """Ranked parties show their host's rating, read with ``host_rating``.

        The lines are written on ``board``, as ``process``'s; ``shared``: other processes
        write there too (their lines are read every ``SHARED_EVERY_S``, paced by ``sleep``).
        A party held by two processes has a line from each: the list shows it once.
        """
        self._host_rating = host_rating
        self._board = board
        self._now = now
        self._sleep = sleep
        self._shared = shared
        self._process = process
        self._lines: dict[str, ListedLine] = {}
        """This process's open parties' lines."""
        self._asked: dict[str, int] = {}
        """The latest update begun for each party: an older one that ends later is dropped."""
        self._watchers: set[Outbox] = set()
        self._order = itertools.count()
        self._keeper: asyncio.Task[None] | None = None
        self._closed = False
        self.version = 0
        self._view = OpenTables(tables=())
        self._text = self._written()

    def view(self) -> OpenTables:
        """The list: the longest waiting first, ``MAX_OPEN_TABLES`` at most."""
        return self._view

    def _written(self) -> str:
        return OpenTablesMessage(v=self.version, d=self._view).model_dump_json()

    async def watch(self, outbox: Outbox) -> None:
        """Send ``outbox`` the list now and after every change."""
        self._watchers.add(outbox)
        self._keep()
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
        if self._closed:
            return  # the process stops: its parties are listed no more
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
            await self._board.remove(BOARD, [self._key(code)])
        elif before is not None and before.line == line:
            return
        else:
            listed = await self._listed(code, line) if before is None else before
            self._lines[code] = listed.model_copy(update={"line": line})
            ours = {self._key(code): self._lines[code].model_dump_json()}
            await self._board.put(BOARD, ours, self._until())
            self._keep()
        await self._read()

    def _key(self, code: str) -> str:
        return f"{code}@{self._process}"

    async def _listed(self, code: str, line: OpenTable) -> ListedLine:
        """A party newly listed here: since when (another process may have listed it)."""
        others = [
            ListedLine.model_validate_json(text)
            for key, text in (await self._board.read(BOARD, self._now())).items()
            if key.rpartition("@")[0] == code
        ]
        if others:
            return min(others, key=lambda each: (each.at, each.order))
        return ListedLine(at=self._now(), order=next(self._order), line=line)

    def _until(self) -> float:
        return self._now() + LINE_S if self._shared else math.inf

    async def _read(self) -> None:
        """Read the list from the board; tell the lobbies if it changed."""
        standing = await self._board.read(BOARD, self._now())
        lines = sorted(
            (ListedLine.model_validate_json(text) for text in standing.values()),
            key=lambda each: (each.at, each.order, each.line.code),
        )
        shown: dict[str, OpenTable] = {}
        for each in lines:  # a party two processes hold: its first line only
            shown.setdefault(each.line.code, each.line)
        view = OpenTables(tables=tuple(shown.values())[:MAX_OPEN_TABLES])
        if view == self._view:
            return
        self._view = view
        self.version += 1
        self._text = self._written()
        for outbox in list(self._watchers):
            with going_on("sending the open tables"):
                try:
                    await outbox.send_text(self._text)
                except ConnectionDropped:
                    self._watchers.discard(outbox)

    def _keep(self) -> None:
        """With several processes: keep our lines standing, and read the others'.

        It runs while this process lists a party or a lobby of it watches.
        """
        if self._shared and (self._keeper is None or self._keeper.done()):
            self._keeper = asyncio.get_running_loop().create_task(self._keep_shared())

    async def _keep_shared(self) -> None:
        while self._lines or self._watchers:
            await self._sleep(SHARED_EVERY_S)
            with going_on("sharing the open tables"):
                ours = {
                    self._key(code): each.model_dump_json() for code, each in self._lines.items()
                }
                await self._board.put(BOARD, ours, self._until())
                await self._read()

    async def close(self) -> None:
        """Stop sharing (the process stops): our lines leave the list at once."""
        self._closed = True
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        with going_on("taking the open tables away"):
            await self._board.remove(BOARD, [self._key(code) for code in self._lines])
        self._lines.clear()

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
