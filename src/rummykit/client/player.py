"""A program in its seat at a table: the table's socket, a bot deciding, and reconnects.

The socket ``/ws/{table}`` opens with ``hello``: the seat's token and the last version seen.
The table answers with the events missed (when it holds them) and the whole view, then an
event and a view after each change. When the view shows this seat to act, the bot decides
from the observation the view carries whole (``rummykit.protocol.views.observation_of``: what
the server's own computer players are given), and the program sends ``act`` with the view's
version and a new intent number ``n`` (1, 2, 3... under the program's own ``client`` id, given
in ``hello``). When a deal is over, it asks for the next one.

An intent stays pending until a view past its version comes (or it is refused). If the
connection drops meanwhile, the program reconnects and sends it again as it was, same ``v``
and ``n``: a table that applied it already answers with the view and does not apply it
twice; one that did not applies it now; and if the table moved on, it refuses it as stale.
An action is *acknowledged* when its event comes back at the version it made.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Final

from pydantic import ValidationError

from rummykit.bots import make_bot
from rummykit.client.report import Report
from rummykit.client.servers import Servers, reconnect_note, signed_for
from rummykit.client.sockets import Backoff, Throttle, keep_trying, opened, table_socket_url
from rummykit.protocol import (
    SERVER_MESSAGES,
    Act,
    ActData,
    AppliedMessage,
    EventMessage,
    Hello,
    HelloData,
    Next,
    NoData,
    NoticeMessage,
    Pace,
    PaceData,
    RefusedMessage,
    SeatView,
    ServerCode,
    ServerMessage,
    ViewMessage,
    observation_of,
)

REFUSALS_BEFORE_GIVING_UP: Final = 20
"""Refused intents in a row after which the program stops: the bot picks from the legal
actions the table lists, so a refusal means the table and the program disagree, and sending
more would only hit the rate limit."""


@dataclasses.dataclass(frozen=True, slots=True)
class Intent:
    """An intent sent and not yet answered."""

    message: Act | Next

    @property
    def version(self) -> int:
        """The table's version it was sent at."""
        return self.message.v

    @property
    def action(self) -> str | None:
        """The action it plays (``None`` for ``next``)."""
        return self.message.d.action if isinstance(self.message, Act) else None


class GaveUp(Exception):
    """The table refused this program's intents again and again."""


class TablePlayer:
    """One seat's program at one table, until the game is over."""

    def __init__(
        self,
        server: str | Servers,
        table: str,
        token: str,
        bot: str,
        report: Report,
        *,
        client: str | None = None,
        rng: random.Random | None = None,
        backoff: Backoff | None = None,
        sleep: Callable[[float], None] = time.sleep,
        pace_ms: int | None = None,
        signed: Mapping[str, str] | None = None,
    ):
        self.servers = server if isinstance(server, Servers) else Servers([server])
        self.signed = signed
        """The headers that sign the seat's account in, sent with the socket's handshake."""
        self.table = table
        self.token = token
        self.bot = make_bot(bot)
        self.report = report
        self.client = client or secrets.token_urlsafe(12)
        """This program's id: its intent numbers count from 1 under it, across reconnects."""
        self.intents = 0
        self.rng = rng or random.Random()
        self.backoff = backoff or Backoff()
        self.sleep = sleep
        self.pace_ms = pace_ms
        self.throttle = Throttle(sleep=sleep)
        self.version = 0
        """The last version seen (sent in ``hello``)."""
        self.view: SeatView | None = None
        self.pending: Intent | None = None
        self.acknowledged: list[tuple[int, str]] = []
        """(version, action) of each action of this seat the table applied, seen applied."""
        self.reconnects = 0
        self._reported_deals: set[int] = set()
        self._refused: set[tuple[int, str]] = set()
        self._asked_next: set[int] = set()
        self._refusals = 0

    # ----- the connection -------------------------------------------------------------

    def _signed(self) -> dict[str, str] | None:
        """The account's headers for the address in use."""
        return signed_for(self.signed, self.servers.current)

    def play(self) -> SeatView:
        """Play the seat until the game is over; the last view.

        Reconnects for as long as it takes; ``SeatLost`` if the server says there is no seat.
        """

        def dropped(why: str, wait: float) -> None:
            self.reconnects += 1
            self.servers.move_on()  # the process it dropped from may be gone: try another
            self.report.note(reconnect_note("table", why, wait, self.servers))

        keep_trying(self._attempt, self.backoff, self.sleep, dropped)
        assert self.view is not None
        return self.view

    def _attempt(self) -> bool:
        with opened(
            table_socket_url(self.servers.current, self.table), self._signed()
        ) as connection:
            hello = Hello(
                t="hello", v=self.version, d=HelloData(token=self.token, client=self.client)
            )
            connection.send(hello.model_dump_json())
            if self.pending is not None:
                connection.send(self.pending.message.model_dump_json())  # the resend
            if self.pace_ms is not None:
                pace = Pace(t="pace", v=self.version, d=PaceData(ms=self.pace_ms))
                connection.send(pace.model_dump_json())
            for text in connection:
                try:
                    message = SERVER_MESSAGES.validate_json(text)
                except ValidationError as error:
                    self.report.note(f"Ignored a table message that cannot be read: {error}")
                    continue
                self.backoff.reset()
                if self._take(message):
                    return True
                if not isinstance(message, ViewMessage | RefusedMessage):
                    continue  # decide on the view that follows
                intent = self._decide()
                if intent is not None:
                    self.pending = intent
                    self.throttle.wait()
                    connection.send(intent.message.model_dump_json())
        return False

    # ----- what comes ----------------------------------------------------------------

    def _take(self, message: ServerMessage) -> bool:
        """Take in one message; whether the game is over."""
        if isinstance(message, EventMessage):
            pending = self.pending
            if (
                pending is not None
                and self.view is not None
                and message.d.seat == self.view.seat
                and message.v == pending.version + 1
                and message.d.action == pending.action
            ):
                self.acknowledged.append((message.v, message.d.action))
                self.report.acked(self.view, message.v, message.d.action)
        elif isinstance(message, ViewMessage):
            return self._view(message)
        elif isinstance(message, RefusedMessage):
            self._refusal(message)
        elif isinstance(message, AppliedMessage):
            if self.pending is not None and message.n == self.pending.message.n:
                self.pending = None  # applied; the view before it showed the table
                self._refusals = 0
        elif isinstance(message, NoticeMessage):
            self.report.say(message.d.text)
        return False

    def _view(self, message: ViewMessage) -> bool:
        view = message.d
        self.view = view
        self.version = message.v
        if self.pending is not None and message.v > self.pending.version:
            self.pending = None  # answered: applied, or the table moved on without it
            self._refusals = 0
        if view.phase == "over" and view.deal not in self._reported_deals:
            self._reported_deals.add(view.deal)
            self.report.deal_over(view)
        return view.game_over

    def _refusal(self, message: RefusedMessage) -> None:
        pending = self.pending
        if pending is not None and message.n is not None and message.n != pending.message.n:
            return  # the answer to an earlier intent, not to the one pending: no blame on it
        self.pending = None
        refusal = message.d
        if refusal.code is ServerCode.STALE:
            return  # the view that follows shows where the table stands
        self._refusals += 1
        if pending is not None and pending.action is not None:
            self._refused.add((pending.version, pending.action))
        self.report.note(f"The table refused: {refusal.message} [{refusal.code.value}]")
        if self._refusals >= REFUSALS_BEFORE_GIVING_UP:
            raise GaveUp(f"The table refused {self._refusals} intents in a row: {refusal.message}")

    def _number(self) -> int:
        self.intents += 1
        return self.intents

    # ----- deciding --------------------------------------------------------------------

    def _decide(self) -> Intent | None:
        """The intent to send now, if this seat is to act and has nothing pending."""
        view = self.view
        if view is None or self.pending is not None or view.game_over:
            return None
        if view.phase == "over":
            if self.version in self._asked_next:
                return None
            self._asked_next.add(self.version)  # once per version: a refusal is the answer
            return Intent(Next(t="next", v=self.version, n=self._number(), d=NoData()))
        if view.seat != view.turn or not view.legal:
            return None
        observation = observation_of(view)
        refused = {text for version, text in self._refused if version == self.version}
        if refused:
            prefix = f"{view.seat} "
            kept = tuple(
                action
                for action in observation.legal_actions
                if str(action).removeprefix(prefix) not in refused
            )
            if not kept:
                return None
            observation = dataclasses.replace(observation, legal_actions=kept)
        chosen = self.bot.choose(observation, self.rng)
        text = str(chosen).split(" ", 1)[1]
        act = Act(t="act", v=self.version, n=self._number(), d=ActData(action=text))
        return Intent(act)
