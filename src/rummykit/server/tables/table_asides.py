"""A table's intents that play no card: hints, reactions, leaving for good, rematches.

``Asides`` holds this part of ``rummykit.server.tables.table.Table``, which it is mixed into (with
``TurnKeeper``, the timer and the stand-in).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, assert_never

from rummykit.core.observation import observe
from rummykit.protocol import (
    REACTIONS,
    Advice,
    BeatBack,
    Bye,
    Hello,
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
    TableSettings,
    Viewer,
    ViewMessage,
    refused,
)
from rummykit.server.runtime import advise
from rummykit.server.tables.table_words import (
    REACTION_WINDOW_S,
    REACTIONS_PER_WINDOW,
    has_left,
)
from rummykit.server.tables.turn_keeper import STAND_IN, Send, TurnKeeper


def quietly(send: Send) -> Send:
    """``send`` that forgets a connection gone away instead of failing the table."""

    async def quiet(message: ServerMessage) -> None:
        with contextlib.suppress(Exception):
            await send(message)

    return quiet


class Asides(TurnKeeper):
    """Hints, reactions, leaving and rematches of a table (mixed into ``Table``)."""

    settings: TableSettings
    reactions: dict[int, collections.deque[float]]
    next_table: str | None
    on_rematch: Callable[[Any], Awaitable[str]] | None
    """Makes (or finds) a party's next table once this one's game is over: its id (given
    the ``Table``, which this module cannot name without importing it in a circle)."""

    def note_bye(self, seat: int) -> None:  # noqa: D102 (Table's)
        raise NotImplementedError

    def _view_message(self, seat: Viewer) -> ViewMessage:
        raise NotImplementedError  # Table's

    async def _handle_aside(
        self,
        seat: int,
        message: HintRequest | React | Leave | Rematch | Bye | Hello | BeatBack,
        reply: Send,
    ) -> None:
        """The intents that play no card: hints, reactions, leaving, rematches."""
        match message:
            case HintRequest():
                await self._hint(seat, reply)
            case React():
                await self._react(seat, message.d.reaction, reply)
            case Leave():
                await self._leave_for_good(seat, reply)
            case Rematch():
                await self._rematch(seat, reply)
            case Bye():
                self.note_bye(seat)
            case Hello():
                await reply(refused(self.version, "hello_once"))
            case BeatBack():
                pass  # heard by the socket, which answers for its own liveness
            case _:
                assert_never(message)

    async def _react(self, seat: int, reaction: Reaction, reply: Send) -> None:
        now = self.now()
        sent = self.reactions.setdefault(seat, collections.deque())
        while sent and now - sent[0] >= REACTION_WINDOW_S:
            sent.popleft()
        if len(sent) >= REACTIONS_PER_WINDOW:
            await reply(
                refused(
                    self.version,
                    "too_many_reactions",
                    count=REACTIONS_PER_WINDOW,
                    seconds=int(REACTION_WINDOW_S),
                )
            )
            return
        sent.append(now)
        message = ReactionMessage(
            v=self.version, d=Reacted(seat=seat, reaction=reaction, text=REACTIONS[reaction])
        )
        for sends in list(self.listeners.values()):
            for send in list(sends):
                await quietly(send)(message)

    async def _leave_for_good(self, seat: int, reply: Send) -> None:
        if self.settings.party is None:
            await reply(refused(self.version, "not_a_party_leave"))
            return
        if seat in self.left or self.game.game_over:
            await reply(self._view_message(seat))
            return
        left = tuple(sorted({*self.left, seat}))
        settings = self.settings.model_copy(update={"left": left})
        accounts = self.settings.accounts
        leaver = None if accounts is None else accounts[seat]
        await asyncio.to_thread(self.store.save_settings, self.id, settings, leaver=leaver)
        self.settings = settings
        self.left.add(seat)
        self.bots[seat] = STAND_IN
        self.standing_in.discard(seat)
        await self._announce(seat, has_left)
        await self._broadcast(None)

    async def _rematch(self, seat: int, reply: Send) -> None:
        if self.on_rematch is None:
            await reply(refused(self.version, "not_a_party_rematch"))
            return
        if not self.game.game_over:
            await reply(refused(self.version, "not_over_yet"))
            return
        first = self.next_table is None
        self.next_table = await self.on_rematch(self)
        await reply(RematchMessage(v=self.version, d=NextTable(table=self.next_table, seat=seat)))
        if first:
            await self._broadcast(None)  # every page offers to join it

    async def _hint(self, seat: int, reply: Send) -> None:
        if len(self.humans) > 1:  # the strong player's advice would play for one of them
            await reply(refused(self.version, "no_hints"))
            return
        view = observe(self.game, seat)
        if not view.is_my_turn:
            await reply(refused(self.version, "hint_waits"))
            return
        advice = await self.workers.run(advise, view, client=self.client)
        action = str(advice.action).split(" ", 1)[1]
        words = Advice(
            action=action,
            reason=advice.reason,
            kind=advice.kind,
            params=dict(advice.params),
            action_kind=advice.action_kind,
            action_params=dict(advice.action_params),
        )
        await reply(HintMessage(v=self.version, d=words))
