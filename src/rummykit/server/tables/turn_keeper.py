"""A table's turns kept: the turn timer, the people away, the computer standing in for them.

The turn timer (a table's ``turn_timer``): when a person's turn starts, its deadline (wall-clock
seconds, the table's ``now``) is stored in the same transaction as the action or the deal that
starts it, so a restart keeps it; a table restored from the store gives a running timer at
least ``RESTART_GRACE_S`` more and says so. The table's task arms one expiry at a time, tagged
with the version it was armed at; the expiry goes through the queue like any intent, and one
that comes once the table has moved on (the person acted just before, a new deal) is ignored.
When the time has run out, the strong computer player plays the rest of that turn for the
person, in the worker pool, and the table says so.

A person's clock never starts before they have the deal in front of them: a turn is timed from
when it starts only if a page of theirs has been sent a view of this deal, or has a page open
as the turn starts (the view that starts it goes to that page). Otherwise (the first turn of a
rematch, or of a deal dealt while they were away) the turn waits with no deadline, and the
whole turn time starts the moment a page of theirs opens and is sent the view. Meanwhile the
away grace runs as for anyone away: a person who does not come at all does not hold the table.

A person whose pages have all closed is away: on their own turn, once they have been away
``DROP_GRACE_S`` (``BYE_GRACE_S`` after a page said ``bye``), the computer stands in and plays
their turns until they come back. Away counts from the last moment one of their pages was
heard: a connection that died silently is noticed seconds later
(``rummykit.server.http.heartbeat``), and those seconds come out of the grace, not on top of it.
A table where no person has a page open is paused: nothing is armed and nobody plays, and a
running timer gets ``RESTART_GRACE_S`` when someone returns.

``TurnKeeper`` holds this part of a table: an object the ``Table`` owns, which reads the
table's seats and game and asks it to play, to broadcast and to announce.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from rummykit.core.actions import Action, Discard, Draw
from rummykit.core.observation import observe
from rummykit.core.state import GameState
from rummykit.protocol import BotLevel, ClientMessage, ServerMessage, Viewer
from rummykit.server.runtime import decide, limit_logging
from rummykit.server.store import Played
from rummykit.server.tables.table_words import ran_out, standing_in

if TYPE_CHECKING:
    from rummykit.server.tables.table import Table

logger = logging.getLogger("rummykit.table")
limit_logging(logger)


Send = Callable[[ServerMessage], Awaitable[None]]
"""Sends one message to one connection."""

Intent = tuple[int, ClientMessage, Send, str]
"""A seat's message, where its answer goes, and the id of the client that sent it."""


@dataclass(frozen=True)
class Expiry:
    """The turn timer (or an away person's grace) armed at ``version`` has run out.

    Stale once the table moved on.
    """

    version: int


@dataclass(frozen=True)
class Wake:
    """Someone came or went: the table's task looks again at who plays and what to arm."""


Work = Intent | Expiry | Wake
"""What the table's queue holds: the seats' intents, the timer's expiries, wake-ups."""

RESTART_GRACE_S: Final = 15.0
"""A turn timer running when the server stopped gets at least this long once the table is
restored: its player may have lost the page meanwhile, and a timer must never run out
unseen in the seconds a page takes to come back."""

STAND_IN: Final[BotLevel] = "strong"
"""The computer player that plays a turn whose time ran out."""

MAX_STAND_IN_STEPS: Final = 20
"""A bound on the actions of one turn played for a person (a draw, a few melds, a discard)."""

DROP_GRACE_S: Final = 20.0
"""How long a person whose pages all closed keeps their turns before the computer plays them,
from the last moment one of their pages was heard: long enough for a reload or a train's
tunnel, short enough that the others do not wait long."""

BYE_GRACE_S: Final = 5.0
"""The same grace after a page said it was being closed on purpose (``bye``)."""


class TurnKeeper:
    """A table's turn timer, its people away and the computer standing in for them."""

    def __init__(self, table: Table, turn_timer: int | None) -> None:
        self.table = table
        self.turn_timer = turn_timer
        self.deadline: float | None = None
        """When the timed turn runs out (``None`` while no turn is timed)."""
        self.timer: asyncio.Task[None] | None = None
        self.armed: tuple[int, float] | None = None
        """The version and deadline the running expiry was armed at."""
        self.restored_at: int | None = None
        """The version at which a restore gave the timer its grace: said to each page that
        joins before the table moves on."""
        self.shown: dict[int, int] = {}
        """The deal (its number of logs) last sent in a view to a page of each person: a
        person's turn clock does not start before their page has had the deal."""
        self.drop_grace_s = DROP_GRACE_S
        self.bye_grace_s = BYE_GRACE_S

    async def grace(self) -> None:
        """Re-arm a restored table's running timer with at least ``RESTART_GRACE_S`` left.

        A turn stored with no deadline is one whose person had not had the deal: it still
        waits for their page.
        """
        if self.timed_seat() is None:
            self.deadline = None
            return
        stored = await asyncio.to_thread(self.table.store.deadline, self.table.id)
        if stored is None:
            self.deadline = None
            return
        self.deadline = max(stored, self.table.now() + RESTART_GRACE_S)
        await asyncio.to_thread(self.table.store.set_deadline, self.table.id, self.deadline)
        self.restored_at = self.table.version

    def timed_seat(self, game: GameState | None = None) -> int | None:
        """The person whose turn is being timed in ``game`` (default: now), if any."""
        game = self.table.game if game is None else game
        if self.turn_timer is None or game.deal_over or game.turn in self.table.bots:
            return None
        if game is self.table.game and game.turn in self.table.standing_in:
            return None
        return game.turn

    def deadline_of(self, game: GameState, *, same_turn: bool) -> float | None:
        """The deadline once ``game`` is the table's.

        The same while a turn goes on, a fresh one when a person's turn starts, none when no
        person's turn is timed.
        """
        if self.timed_seat(game) is None:
            return None
        if same_turn and self.deadline is not None:
            return self.deadline
        seat = game.turn
        if self.shown.get(seat) != len(game.logs) and not self.table.listeners.get(seat):
            return None  # their page has not had this deal: the clock waits for it
        return self.table.now() + (self.turn_timer or 0)

    def note_shown(self, seat: Viewer) -> None:
        """A view of the current deal is going to a page of ``seat``."""
        if seat is not None:
            self.shown[seat] = len(self.table.game.logs)

    async def start_held_clock(self, seat: int) -> None:
        """A page of ``seat`` is about to get the view: a clock that waited for it starts.

        Only if the turn being timed is theirs and has no deadline yet: it gets the whole
        turn time, stored.
        """
        if self.timed_seat() != seat or self.deadline is not None:
            return
        self.deadline = self.table.now() + (self.turn_timer or 0)
        await asyncio.to_thread(self.table.store.set_deadline, self.table.id, self.deadline)

    def paused(self) -> bool:
        """Whether no person at the table has a page open: then nothing plays."""
        return not any(
            self.table.listeners.get(seat)
            for seat in self.table.humans
            if seat not in self.table.left
        )

    def _away_until(self) -> float | None:
        """When the computer takes the turn of a person who is away, if it is theirs."""
        game = self.table.game
        seat = game.turn
        if game.deal_over or seat in self.table.bots or seat in self.table.standing_in:
            return None
        since = self.table.away_since.get(seat)
        if since is None or self.table.listeners.get(seat):
            return None
        grace = self.bye_grace_s if seat in self.table.said_bye else self.drop_grace_s
        return since + grace

    def arm(self) -> None:
        """Arm the expiry of the turn being timed, or disarm it when none is (the task only)."""
        wanted = None
        due = [self._away_until(), self.table.between.next_deal_due()]
        if self.deadline is not None and self.timed_seat() is not None:
            due.append(self.deadline)
        times = [when for when in due if when is not None]
        if times and not self.paused():
            wanted = (self.table.version, min(times))
        if wanted == self.armed and self.timer is not None and not self.timer.done():
            return
        # armed again once its expiry has gone out too: an expiry that failed is tried again
        # (a duplicate finds the turn played, and is ignored as stale)
        self.disarm()
        if wanted is not None:
            self.armed = wanted
            self.timer = asyncio.get_running_loop().create_task(self._expire_at(*wanted))

    def disarm(self) -> None:
        """Cancel the armed expiry, if any."""
        if self.timer is not None:
            self.timer.cancel()
        self.timer = self.armed = None

    async def _expire_at(self, version: int, deadline: float) -> None:
        """Wait (on the table's clock) until ``deadline``, then queue the expiry."""
        while (left := deadline - self.table.now()) > 0:
            await self.table.sleep(left)
        await self.table.queue.put(Expiry(version))

    async def expire(self, expiry: Expiry) -> None:
        """The computer plays for the person whose time or grace ran out, unless stale."""
        if expiry.version != self.table.version or self.paused():
            return  # the turn moved on (an action, a new deal) since it was armed
        if self.table.game.deal_over:
            await self.table.between.next_deal_expired()
            return
        away_until = self._away_until()
        if away_until is not None and self.table.now() >= away_until:
            await self._stand_in_for(self.table.game.turn)
            return
        seat = self.timed_seat()
        if seat is None or self.deadline is None or self.table.now() < self.deadline:
            return
        if not self.table.listeners.get(seat):  # away, and their time is up: the computer sits in
            await self._stand_in_for(seat)
            return
        deal = len(self.table.game.logs)
        for _ in range(MAX_STAND_IN_STEPS):
            if (
                self.table.game.deal_over
                or self.table.game.turn != seat
                or len(self.table.game.logs) != deal
            ):
                break
            await self.table.play(await self._stand_in_action(seat), Played.TIMEOUT)
        await self.table.audience.announce(seat, ran_out)

    async def _stand_in_action(self, seat: int) -> Action:
        """The strong computer player's action for ``seat``; a plain legal one if it fails."""
        view = observe(self.table.game, seat)
        try:
            action = await self.table.workers.run(
                decide, STAND_IN, view, self.table.rng.random(), client=self.table.client
            )
            self.table.game.check(action)  # a worker's answer is checked like anyone's
        except Exception:  # the turn must still be played: the first draw, the last discard
            logger.exception("table %s: the stand-in at seat %s failed", self.table.id, seat)
            legal = view.legal_actions
            draws = [action for action in legal if isinstance(action, Draw)]
            discards = [action for action in legal if isinstance(action, Discard)]
            action = draws[0] if draws else discards[-1] if discards else legal[0]
        return action

    async def _stand_in_for(self, seat: int) -> None:
        """The computer takes the turns of a person who is away, until they come back."""
        self.table.standing_in.add(seat)
        await self.table.audience.announce(seat, standing_in)
        await self.table.audience.broadcast(None)

    async def give_grace(self) -> None:
        """At least ``RESTART_GRACE_S`` on the running timer, stored."""
        if self.deadline is None:
            return
        self.deadline = max(self.deadline, self.table.now() + RESTART_GRACE_S)
        await asyncio.to_thread(self.table.store.set_deadline, self.table.id, self.deadline)
