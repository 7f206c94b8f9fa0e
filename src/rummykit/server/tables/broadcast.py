"""What a table tells its connections: each viewer's view, the events, the notices.

Every frame is made for one viewer (a seat, or ``None`` for a spectator) in that viewer's
words (``rummykit.server.tables.table_words``); the last ``RECENT_EVENTS`` events are kept for
connections that come back, and the current deal's story for a page that asks for its log.
A connection whose send fails is closed: it is forgotten, and the game goes on.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from rummykit.core.actions import Action
from rummykit.protocol import (
    Event,
    EventMessage,
    Log,
    LogLine,
    LogMessage,
    Notice,
    NoticeMessage,
    ServerMessage,
    Viewer,
    ViewMessage,
)
from rummykit.server.runtime import note_gone_past
from rummykit.server.tables.table_words import DealStory, Said, action_said, deal_said
from rummykit.server.tables.turn_keeper import Send

if TYPE_CHECKING:
    from rummykit.server.tables.table import Table

RECENT_EVENTS: Final = 256
"""Events kept for connections that come back: a client that missed more gets the view."""


class Broadcast:
    """A table's frames to its connections, and the events kept for those that come back."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.story = DealStory()  # the current deal's lines for a reconnect's log frame
        self.recent: collections.deque[tuple[int, dict[Viewer, Event]]] = collections.deque(
            maxlen=RECENT_EVENTS
        )
        self.recent_from = 1
        """Every event from this version on is in ``recent``."""

    def events_since(self, last: int | None, seat: Viewer) -> list[EventMessage]:
        """The events ``seat`` missed since version ``last``, if they are all still kept."""
        table = self.table
        if last is None or last >= table.version or last + 1 < self.recent_from:
            return []
        return [
            EventMessage(v=version, d=events[seat])
            for version, events in self.recent
            if version > last and seat in events
        ]

    def notice(self, said: Said, viewer: Viewer) -> NoticeMessage:
        """A notice frame for ``viewer``."""
        notice = Notice(
            seat=said.seat,
            kind=said.kind,
            params=dict(said.params),
            text=said.text(viewer, self.table.names()),
        )
        return NoticeMessage(v=self.table.version, d=notice)

    async def announce(self, seat: int, text: Callable[[Sequence[str], int, Viewer], Said]) -> None:
        """Tell every connection something about ``seat``, in words for its own seat."""
        names = self.table.names()
        for viewer, sends in list(self.table.listeners.items()):
            notice = self.notice(text(names, seat, viewer), viewer)
            for send in list(sends):
                try:
                    await send(notice)
                except Exception as error:  # a closed socket: forget it
                    note_gone_past("sending a notice", error)
                    sends.discard(send)

    def view_message(self, seat: Viewer) -> ViewMessage:
        """The view frame for a page of ``seat``, which then has the current deal."""
        self.table.keeper.note_shown(seat)
        return ViewMessage(v=self.table.version, d=self.table.view(seat))

    def log_message(self, seat: Viewer) -> LogMessage:
        """The current deal's story for ``seat``, rebuilt from the stored actions."""
        game = self.table.game
        deal = len(game.logs) - 1
        said = [deal_said(game, deal, seat), *self.story.update(game)] if game.logs else []
        if game.logs and game.deal_over:
            said.append(Said("deal_over", {}))
        names = self.table.names()
        lines = tuple(
            LogLine(
                kind=each.seen_by(seat).kind,
                seat=each.seat,
                params=dict(each.seen_by(seat).params),
                text=each.text(seat, names),
            )
            for each in said
        )
        return LogMessage(v=self.table.version, d=Log(deal=max(deal, 0), lines=lines))

    async def broadcast(
        self,
        acted: Action | None,
        *,
        besides: Send | None = None,
        before: Sequence[Said] = (),
        after: Sequence[Said] = (),
    ) -> None:
        """Send every connection its seat's view, after the event of ``acted`` if any.

        All but ``besides``, which has been answered already. ``before`` and ``after`` are
        notices said just before and after the event (the stock turned over; running low).
        """
        events: dict[Viewer, Event] = {}
        if acted is not None:
            viewers: list[Viewer] = [*self.table.humans, None, *self.table.listeners]
            said = action_said(self.table.game, acted)
            names = self.table.names()
            events = {
                viewer: Event(
                    seat=acted.seat,
                    action=said.action or "",
                    card=said.card,
                    kind=said.seen_by(viewer).kind,
                    params=dict(said.seen_by(viewer).params),
                    text=said.text(viewer, names),
                )
                for viewer in viewers
            }
            if len(self.recent) == self.recent.maxlen:
                self.recent_from = self.recent[0][0] + 1
            self.recent.append((self.table.version, events))
        for seat, sends in list(self.table.listeners.items()):
            frames: list[ServerMessage] = [self.notice(each, seat) for each in before]
            if acted is not None:
                frames.append(EventMessage(v=self.table.version, d=events[seat]))
            frames.extend(self.notice(each, seat) for each in after)
            frames.append(self.view_message(seat))
            for send in [send for send in sends if send is not besides]:
                for frame in frames:
                    try:
                        await send(frame)
                    except Exception as error:  # a closed socket: forget it, the game goes on
                        note_gone_past("sending a frame", error)
                        sends.discard(send)
                        break
