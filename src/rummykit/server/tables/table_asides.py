"""A table's intents that play no card: hints, reactions, leaving for good, rematches.

``Asides`` holds this part of a table: an object the ``Table`` owns, which reads the table's
seats and game, and asks it to announce and to broadcast.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, assert_never

from rummykit.core.observation import Observation, observe
from rummykit.protocol import (
    REACTIONS,
    Advice,
    BeatBack,
    Bye,
    Hello,
    HintLevel,
    HintMessage,
    HintRequest,
    Leave,
    NextTable,
    React,
    Reacted,
    Reaction,
    ReactionMessage,
    Rematch,
    RematchMessage,
    ServerMessage,
    refused,
)
from rummykit.server.runtime import advise, going_on
from rummykit.server.tables.table_words import (
    REACTION_WINDOW_S,
    REACTIONS_PER_WINDOW,
    has_left,
)
from rummykit.server.tables.turn_keeper import STAND_IN, Send

if TYPE_CHECKING:
    from rummykit.server.tables.table import Table


def quietly(send: Send) -> Send:
    """``send`` that forgets a connection gone away instead of failing the table."""

    async def quiet(message: ServerMessage) -> None:
        with going_on("sending to a connection"):
            await send(message)

    return quiet


RematchHook = Callable[["Table"], Awaitable[str]]
"""Makes (or finds) a party's next table once this one's game is over: its id."""


class Asides:
    """Hints, reactions, leaving for good and rematches of a table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.reactions: dict[int, collections.deque[float]] = {}
        self.next_table: str | None = None
        """The party's next table, once someone asked for a rematch."""
        self.hints: dict[tuple[int, int, str], asyncio.Future[Advice]] = {}
        """The advice asked for at this version of the table, by seat and level: asked again
        (a page reloaded, a key held down), it is sent again, not searched for again."""
        self.on_rematch: RematchHook | None = None
        """Makes (or finds) a party's next table once this one's game is over: its id."""

    async def handle(
        self,
        seat: int,
        message: HintRequest | React | Leave | Rematch | Bye | Hello | BeatBack,
        reply: Send,
    ) -> None:
        """The intents that play no card: hints, reactions, leaving, rematches."""
        match message:
            case HintRequest():
                await self._hint(seat, message.d.level, reply)
            case React():
                await self._react(seat, message.d.reaction, reply)
            case Leave():
                await self._leave_for_good(seat, reply)
            case Rematch():
                await self._rematch(seat, reply)
            case Bye():
                self.table.note_bye(seat)
            case Hello():
                await reply(refused(self.table.version, "hello_once"))
            case BeatBack():
                pass  # heard by the socket, which answers for its own liveness
            case _:
                assert_never(message)

    async def _react(self, seat: int, reaction: Reaction, reply: Send) -> None:
        now = self.table.now()
        sent = self.reactions.setdefault(seat, collections.deque())
        while sent and now - sent[0] >= REACTION_WINDOW_S:
            sent.popleft()
        if len(sent) >= REACTIONS_PER_WINDOW:
            await reply(
                refused(
                    self.table.version,
                    "too_many_reactions",
                    count=REACTIONS_PER_WINDOW,
                    seconds=int(REACTION_WINDOW_S),
                )
            )
            return
        sent.append(now)
        message = ReactionMessage(
            v=self.table.version, d=Reacted(seat=seat, reaction=reaction, text=REACTIONS[reaction])
        )
        for sends in list(self.table.listeners.values()):
            for send in list(sends):
                await quietly(send)(message)

    async def _leave_for_good(self, seat: int, reply: Send) -> None:
        if self.table.settings.party is None:
            await reply(refused(self.table.version, "not_a_party_leave"))
            return
        if seat in self.table.left or self.table.game.game_over:
            await reply(self.table.audience.view_message(seat))
            return
        left = tuple(sorted({*self.table.left, seat}))
        settings = self.table.settings.model_copy(update={"left": left})
        accounts = self.table.settings.accounts
        leaver = None if accounts is None else accounts[seat]
        await asyncio.to_thread(
            self.table.store.save_settings, self.table.id, settings, leaver=leaver
        )
        self.table.settings = settings
        self.table.left.add(seat)
        self.table.bots[seat] = STAND_IN
        self.table.standing_in.discard(seat)
        await self.table.audience.announce(seat, has_left)
        await self.table.audience.broadcast(None)

    async def _rematch(self, seat: int, reply: Send) -> None:
        if self.on_rematch is None:
            await reply(refused(self.table.version, "not_a_party_rematch"))
            return
        if not self.table.game.game_over:
            await reply(refused(self.table.version, "not_over_yet"))
            return
        first = self.next_table is None
        self.next_table = await self.on_rematch(self.table)
        await reply(
            RematchMessage(v=self.table.version, d=NextTable(table=self.next_table, seat=seat))
        )
        if first:
            await self.table.audience.broadcast(None)  # every page offers to join it

    async def _hint(self, seat: int, level: HintLevel, reply: Send) -> None:
        if len(self.table.humans) > 1:  # the computer's advice would play for one of them
            await reply(refused(self.table.version, "no_hints"))
            return
        view = observe(self.table.game, seat)
        if not view.is_my_turn:
            await reply(refused(self.table.version, "hint_waits"))
            return
        version = self.table.version
        key = (seat, version, level)
        asked = self.hints.get(key)
        if asked is None:
            self.hints = {
                known: future for known, future in self.hints.items() if known[1] == version
            }
            asked = asyncio.ensure_future(self._advice(view, level))
            self.hints[key] = asked
        words = await asyncio.shield(asked)
        await reply(HintMessage(v=version, d=words))

    async def _advice(self, view: Observation, level: HintLevel) -> Advice:
        advice = await self.table.workers.run(advise, view, level, client=self.table.client)
        return Advice(
            action=str(advice.action).split(" ", 1)[1],
            reason=advice.reason,
            kind=advice.kind,
            params=dict(advice.params),
            action_kind=advice.action_kind,
            action_params=dict(advice.action_params),
        )
