"""A table's intents from its seats, each carried out once, in order.

A seat's intent numbered ``n`` applies once: a resend of one already applied (a page that
reconnected without its answer) gets the view instead. Intents that play no card are the
asides' (``rummykit.server.tables.table_asides``); "next deal" is the wait between deals'.
"""

from __future__ import annotations

import asyncio
import collections
from typing import TYPE_CHECKING, Final, assert_never

from rummykit.core.actions import parse_action
from rummykit.core.errors import IllegalActionError, InvalidActionError
from rummykit.core.state import GameState
from rummykit.protocol import (
    Act,
    AppliedMessage,
    BeatBack,
    Bye,
    ClientMessage,
    Hello,
    HintRequest,
    Leave,
    Next,
    Pace,
    React,
    Redeal,
    Rematch,
    ServerMessage,
    intent_number,
    numbered,
    refused,
    refused_for,
)
from rummykit.server.store import Played
from rummykit.server.tables.turn_keeper import Send

if TYPE_CHECKING:
    from rummykit.server.tables.table import Table

MAX_CLIENTS_KEPT: Final = 64
"""The clients whose last intent numbers a table keeps: far more pages than its seats hold."""


def answering(reply: Send, message: ClientMessage) -> Send:
    """``reply`` for ``message``: each refusal it carries names the intent's ``n``."""
    number = intent_number(message)
    if number is None:
        return reply

    async def answer(sent: ServerMessage) -> None:
        await reply(numbered(sent, number))

    return answer


class Intents:
    """What a table's seats ask of it, carried out by the table's one task."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.applied: collections.OrderedDict[tuple[int, str], int] = collections.OrderedDict()
        """The last intent number applied for each seat and client (the newest kept)."""

    async def _applied(self, seat: int, client: str, number: int | None, reply: Send) -> None:
        """Remember an applied intent's number and tell its sender (``applied``).

        The numbers of the newest ``MAX_CLIENTS_KEPT`` clients are kept.
        """
        if number is None:
            return
        self.applied[(seat, client)] = number
        self.applied.move_to_end((seat, client))
        while len(self.applied) > MAX_CLIENTS_KEPT:
            self.applied.popitem(last=False)
        await self._acknowledge(number, reply)

    async def _acknowledge(self, number: int | None, reply: Send) -> None:
        """Tell the sender that its intent ``number`` is applied (``applied``)."""
        if number is not None:
            await reply(AppliedMessage(v=self.table.version, n=number))

    async def handle(
        self,
        seat: int,
        message: ClientMessage,
        reply: Send,
        client: str = "",
        *,
        origin: Send | None = None,
    ) -> None:
        """Carry out one intent of ``seat`` from ``client``.

        ``reply`` answers it, on connection ``origin``.
        """
        match message:
            case Act() | Next() | Redeal() if message.n is not None and message.n <= (
                self.applied.get((seat, client), 0)
            ):
                await reply(self.table.audience.view_message(seat))  # a resend of what was applied
                await self._acknowledge(message.n, reply)
            case HintRequest() | React() | Leave() | Rematch() | Bye() | Hello() | BeatBack():
                await self.table.asides.handle(seat, message, reply)
            case Pace():
                settings = self.table.settings.model_copy(update={"pace_ms": message.d.ms})
                await asyncio.to_thread(
                    self.table.store.save_settings, self.table.id, settings
                )  # restarts
                self.table.settings = settings
                self.table.pace_ms = message.d.ms
                await reply(self.table.audience.view_message(seat))
                await self.table.audience.broadcast(
                    None, besides=origin
                )  # every page shows the new pace
                await self._acknowledge(message.n, reply)
            case Act() | Next() | Redeal() if message.v > self.table.version:
                version, table = message.v, self.table.version
                await reply(refused(table, "version_ahead", sent=version, table=table))
                await reply(self.table.audience.view_message(seat))
            case Act() | Next() | Redeal() if message.v != self.table.version:
                await reply(refused(self.table.version, "stale"))
                await reply(self.table.audience.view_message(seat))
            case Act():
                if await self._act(seat, message.d.action, reply):
                    await self._applied(seat, client, message.n, reply)
            case Next():
                if await self.table.between.next_deal(seat, reply):
                    await self._applied(seat, client, message.n, reply)
            case Redeal():
                if await self._redeal(reply):
                    await self._applied(seat, client, message.n, reply)
            case _:
                assert_never(message)

    async def _act(self, seat: int, text: str, reply: Send) -> bool:
        if self.table.game.game_over:
            await reply(refused(self.table.version, "game_over"))
            return False
        if seat in self.table.left:
            await reply(refused(self.table.version, "left_already"))
            return False
        try:
            action = parse_action(f"{seat} {text}")
            self.table.game.check(action)
        except (InvalidActionError, IllegalActionError) as error:
            await reply(refused_for(self.table.version, error))
            return False
        await self.table.play(action, Played.PERSON)
        return True

    async def _redeal(self, reply: Send) -> bool:
        if self.table.game.game_over:
            await reply(refused(self.table.version, "game_over"))
            return False
        if len(self.table.humans) > 1:
            await reply(refused(self.table.version, "no_redeal_at_parties"))
            return False
        if self.table.game.deal_over:
            await reply(refused(self.table.version, "deal_is_over"))
            return False
        deals = (await asyncio.to_thread(self.table.store.deals, self.table.id))[:-1]
        if deals:
            # Replaying a long game takes milliseconds to seconds: never on the event loop,
            # where 100 redeals once froze every table for 5.8 s.
            self.table.game = await self.table.dealer.replayed(deals)
        else:
            self.table.game = GameState(
                self.table.rules, len(self.table.players), dealer=self.table.game.logs[0].dealer
            )
        self.table.keeper.deadline = None  # a new deal: a new turn
        await self.table.dealer.deal()
        await self.table.audience.broadcast(None)
        return True
