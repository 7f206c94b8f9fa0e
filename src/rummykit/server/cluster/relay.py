"""Sockets on one process, their table on another: intents forwarded, frames relayed.

With several server processes, any process accepts any socket, but each table is played by
its one owner (``rummykit.server.cluster.lease``). A socket that reaches another process is served
there by a ``RemoteTable``: it looks to the socket's handler like the table itself (``join``,
``submit``, ``note_bye``, ``leave``), and forwards each of these to the owner on the table's
intents channel (``rummykit.server.cluster.bus``). The owner's ``Desk`` carries them out on the real
table, with a ``Send`` for each remote connection that publishes that connection's frames on
the table's frames channel, where the relaying process hands them to the socket.

The bus may lose messages (it says so with ``RESYNC``): a relaying process that may have lost
frames asks the owner for each of its connections' current view (``Sync``), and an owner that
may have lost intents sends each remote connection its current view, as a reconnecting page
would get; an intent lost on the way is sent again by the page, numbered, so it applies once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Literal, Protocol, TypeAlias

from pydantic import Field, TypeAdapter, ValidationError

from rummykit.protocol import (
    SERVER_MESSAGES,
    ClientMessage,
    ProtocolError,
    SeatView,
    ServerMessage,
    Strict,
    TableSettings,
    Viewer,
    ViewMessage,
    encode,
    parse_client_message,
    refused,
)
from rummykit.server.cluster.bus import RESYNC, Bus, BusUnavailable, Subscription, frames_channel
from rummykit.server.cluster.bus import intents_channel as intents_of

logger = logging.getLogger("rummykit.relay")

Send = Callable[[ServerMessage], Awaitable[None]]


class RelayedTable(Protocol):
    """What a socket's handler uses of a table: a real ``Table``, or a ``RemoteTable``."""

    id: str
    version: int
    settings: TableSettings
    listeners: dict[Viewer, set[Send]]

    async def join(  # noqa: D102 (the Table's and the RemoteTable's say it)
        self, seat: Viewer, send: Send, last: int | None = None, *, log: bool = False
    ) -> None: ...

    async def submit(  # noqa: D102
        self, seat: int, message: ClientMessage, send: Send, client: str = ""
    ) -> None: ...

    def note_bye(self, seat: int) -> None: ...  # noqa: D102

    async def leave(  # noqa: D102
        self, seat: Viewer, send: Send, heard: float | None = None
    ) -> None: ...


class OwnedTable(RelayedTable, Protocol):
    """What the owner's ``Desk`` also needs: a seat's current view."""

    def view(self, seat: Viewer) -> SeatView: ...  # noqa: D102


# ----- the messages on the bus ----------------------------------------------------------------


class Join(Strict):
    """A connection of the relaying process joins the table (after its ``hello``)."""

    op: Literal["join"]
    conn: str
    seat: int | None
    last: int | None
    log: bool


class Submit(Strict):
    """An intent of a relayed connection, as the page sent it (checked again by the owner)."""

    op: Literal["submit"]
    conn: str
    seat: int
    client: str
    text: str


class ByeNote(Strict):
    """The page of a seat said it is closing on purpose."""

    op: Literal["bye"]
    seat: int


class LeaveNote(Strict):
    """A relayed connection closed."""

    op: Literal["leave"]
    conn: str
    heard: float | None = None
    """When the client was last heard (wall-clock seconds; ``None``: as it closed)."""


class Sync(Strict):
    """The relaying process may have lost frames of this connection: its current view."""

    op: Literal["sync"]
    conn: str


ToOwner: TypeAlias = Annotated[
    Join | Submit | ByeNote | LeaveNote | Sync, Field(discriminator="op")
]
TO_OWNER: TypeAdapter[ToOwner] = TypeAdapter(ToOwner)


class Frame(Strict):
    """A frame of the owner's table for one relayed connection."""

    conn: str
    text: str


FRAME: TypeAdapter[Frame] = TypeAdapter(Frame)


# ----- the owner's side ------------------------------------------------------------------------


class Desk:
    """The owner's side: carries out the relayed connections' intents on its tables."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.remote: dict[str, dict[str, tuple[Viewer, Send]]] = {}
        """Per table, each relayed connection's viewer and the ``Send`` that relays to it."""

    async def serve(self, table: OwnedTable) -> None:
        """Take the intents of ``table`` from the bus, until ``stop``."""
        if table.id in self.tasks:
            return
        subscription = await self.bus.subscribe(intents_of(table.id))
        self.remote[table.id] = {}
        self.tasks[table.id] = asyncio.get_running_loop().create_task(
            self._run(table, subscription)
        )

    async def stop(self, table_id: str) -> None:
        """Stop serving ``table_id`` (its lease was lost, or it left memory)."""
        task = self.tasks.pop(table_id, None)
        self.remote.pop(table_id, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def aclose(self) -> None:
        """Stop serving every table."""
        for table_id in list(self.tasks):
            await self.stop(table_id)

    async def _run(self, table: OwnedTable, subscription: Subscription) -> None:
        async with subscription:
            async for item in subscription:
                try:
                    if item is RESYNC:
                        await self._resync(table)
                    else:
                        assert isinstance(item, bytes)
                        await self._carry_out(table, TO_OWNER.validate_json(item))
                except ValidationError:
                    logger.warning("table %s: an unreadable message on the bus", table.id)
                except Exception:
                    logger.exception("table %s: a relayed intent failed", table.id)

    def _sender(self, table_id: str, conn: str) -> Send:
        channel = frames_channel(table_id)

        async def send(message: ServerMessage) -> None:
            frame = Frame(conn=conn, text=encode(message))
            with contextlib.suppress(BusUnavailable):  # the page resyncs when it comes back
                await self.bus.publish(channel, frame.model_dump_json().encode())

        return send

    async def _carry_out(self, table: OwnedTable, message: ToOwner) -> None:
        remote = self.remote[table.id]
        match message:
            case Join():
                send = self._sender(table.id, message.conn)
                old = remote.get(message.conn)
                remote[message.conn] = (message.seat, send)
                if old is not None:
                    await table.leave(*old)
                await table.join(message.seat, send, message.last, log=message.log)
            case Submit():
                found = remote.get(message.conn)
                if found is None or found[0] != message.seat:
                    return  # a connection that never joined, or not for this seat
                try:
                    intent = parse_client_message(message.text)
                except ProtocolError as error:
                    await found[1](refused(table.version, "bad_message", detail=str(error)))
                    return
                await table.submit(message.seat, intent, found[1], message.client)
            case ByeNote():
                table.note_bye(message.seat)
            case LeaveNote():
                left = remote.pop(message.conn, None)
                if left is not None:
                    await table.leave(*left, message.heard)
            case Sync():
                found = remote.get(message.conn)
                if found is not None:
                    await found[1](ViewMessage(v=table.version, d=table.view(found[0])))

    async def _resync(self, table: OwnedTable) -> None:
        """Intents may have been lost: each relayed connection gets its current view."""
        for viewer, send in list(self.remote[table.id].values()):
            await send(ViewMessage(v=table.version, d=table.view(viewer)))


# ----- the relaying side -----------------------------------------------------------------------


class RemoteTable:
    """A table owned by another process, as this process's sockets use it."""

    _numbers = itertools.count(1)

    def __init__(self, bus: Bus, table_id: str, settings: TableSettings, process: str) -> None:
        self.bus = bus
        self.id = table_id
        self.settings = settings
        self.process = process
        self.version = 0
        """The newest version relayed (for the refusals this process says itself)."""
        self.listeners: dict[Viewer, set[Send]] = {}
        self.conns: dict[str, tuple[Viewer, Send]] = {}
        self.by_send: dict[Send, str] = {}
        self.subscription: Subscription | None = None
        self.task: asyncio.Task[None] | None = None
        self.gone = asyncio.Event()
        """Set when the owner changed: the relayed sockets close, and reconnect."""
        self.watcher: asyncio.Task[None] | None = None
        """The lobby's watch on the owner's lease."""

    async def _forward(self, message: ToOwner) -> None:
        await self.bus.publish(intents_of(self.id), message.model_dump_json().encode())

    async def _relaying(self) -> None:
        if self.subscription is None:
            self.subscription = await self.bus.subscribe(frames_channel(self.id))
            self.task = asyncio.get_running_loop().create_task(self._relay(self.subscription))

    async def _relay(self, subscription: Subscription) -> None:
        async for item in subscription:
            if item is RESYNC:
                for conn in list(self.conns):
                    with contextlib.suppress(BusUnavailable):
                        await self._forward(Sync(op="sync", conn=conn))
                continue
            assert isinstance(item, bytes)
            try:
                frame = FRAME.validate_json(item)
            except ValidationError:
                continue
            found = self.conns.get(frame.conn)
            if found is None:
                continue  # another process's connection, or one that has closed
            message = SERVER_MESSAGES.validate_json(frame.text)
            self.version = max(self.version, message.v)
            await found[1](message)

    async def join(
        self, seat: Viewer, send: Send, last: int | None = None, *, log: bool = False
    ) -> None:
        """Relay the table to a new connection: the owner sends it what a hello gets."""
        await self._relaying()
        conn = f"{self.process}:{next(self._numbers)}"
        self.conns[conn] = (seat, send)
        self.by_send[send] = conn
        self.listeners.setdefault(seat, set()).add(send)
        await self._forward(Join(op="join", conn=conn, seat=seat, last=last, log=log))

    async def submit(self, seat: int, message: ClientMessage, send: Send, client: str = "") -> None:
        """Forward an intent to the owner; its answer comes back as frames."""
        conn = self.by_send.get(send)
        if conn is None:
            return
        text = message.model_dump_json()
        try:
            await self._forward(Submit(op="submit", conn=conn, seat=seat, client=client, text=text))
        except BusUnavailable:  # not passed on: the page may send it again, it applies once
            await send(refused(self.version, "try_again"))

    def note_bye(self, seat: int) -> None:
        """Tell the owner the seat's page is closing on purpose (sent in the background)."""
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self._forward(ByeNote(op="bye", seat=seat)))

    async def leave(self, seat: Viewer, send: Send, heard: float | None = None) -> None:
        """A connection closed: the owner stops sending to it.

        ``heard``: when its client was last heard, for one that beat (``None``: just now).
        """
        conn = self.by_send.pop(send, None)
        self.listeners.get(seat, set()).discard(send)
        if conn is None:
            return
        self.conns.pop(conn, None)
        with contextlib.suppress(BusUnavailable):
            await self._forward(LeaveNote(op="leave", conn=conn, heard=heard))

    def is_watched(self) -> bool:
        """Whether any connection of this process still relays the table."""
        return bool(self.conns)

    async def stop(self) -> None:
        """Stop relaying (no connection of this process is left)."""
        if self.subscription is not None:
            await self.subscription.aclose()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        self.subscription = self.task = None
        if self.watcher is not None and self.watcher is not asyncio.current_task():
            self.watcher.cancel()
