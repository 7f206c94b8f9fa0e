"""A member's side of a party's socket, until the party's table is dealt.

The socket ``/ws/party/{code}`` sends the party as it stands after every change. This side
decides from each view alone what to send, so that a reconnect (which brings a fresh view)
picks up where it was: a member marks itself ready; the host adds the computer players it was
asked for and starts once enough members are ready. It is done when the view names the
party's table. A refusal that waiting cannot mend (a ranked party's ``ranked_*`` codes: a
computer seat, no timer, a member without an account, one already in a ranked game, or one
who must wait after leaving ranked games) ends it with ``PartyStopped``.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Final

from pydantic import BaseModel, ValidationError
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK
from websockets.sync.client import ClientConnection

from rummykit.client.report import BOT_MARK, Report
from rummykit.client.servers import Servers, reconnect_note, signed_for
from rummykit.client.sockets import Backoff, SeatLost, keep_trying, opened, party_socket_url
from rummykit.protocol import (
    PARTY_SERVER_MESSAGES,
    AddCpu,
    AddCpuData,
    BotLevel,
    Hello,
    HelloData,
    LeaveParty,
    NoData,
    PartyMessage,
    PartyView,
    Ready,
    ReadyData,
    RefusedMessage,
    Start,
)

Send = Callable[[BaseModel], None]


@dataclasses.dataclass(frozen=True, slots=True)
class PartyPlan:
    """What this member wants before the start."""

    host: bool = False
    """The host adds computer players and starts."""
    seats: int = 2
    """The host starts once this many members (computer players too) are there and ready."""
    cpus: tuple[BotLevel, ...] = ()
    """The computer players the host adds, by level."""
    start_within_s: float | None = None
    """A member leaves the party when its table is not dealt this long after joining
    (``rummy bot``: a host who never starts does not hold the program's games at once)."""


def wanted(view: PartyView, plan: PartyPlan) -> BaseModel | None:
    """The one message this member should send now, if any, from the view alone."""
    me = next((member for member in view.members if member.id == view.me), None)
    if me is None or view.state != "lobby":
        return None
    if not me.ready:
        return Ready(t="ready", v=0, d=ReadyData(ready=True))
    if not plan.host:
        return None
    computers = sum(member.kind == "bot" for member in view.members)
    if computers < len(plan.cpus) and len(view.members) < view.max_seats:
        return AddCpu(t="add_cpu", v=0, d=AddCpuData(level=plan.cpus[computers]))
    everyone_ready = all(member.ready for member in view.members)
    if len(view.members) >= plan.seats and everyone_ready:
        return Start(t="start", v=0, d=NoData())
    return None


def seats_sentence(view: PartyView) -> str:
    """Who is at the party, for people: ``Seats: Ann (host, ready), Bob; 1 of 2 ready``.

    A program's account is marked BOT; a ranked party says so first.
    """
    parts = []
    for member in view.members:
        marks = [BOT_MARK] if member.program else []
        if member.id == view.host:
            marks.append("host")
        if member.kind == "bot":
            marks.append(f"computer, {member.level}")
        elif member.ready:
            marks.append("ready")
        if member.id == view.me:
            marks.append("you")
        parts.append(member.name + (f" ({', '.join(marks)})" if marks else ""))
    ready = sum(member.ready for member in view.members)
    ranked = "Ranked. " if view.ranked else ""
    return f"{ranked}Seats: {', '.join(parts)}; {ready} of {len(view.members)} ready."


STARTED_TABLE_WAIT: Final = "The party has started; waiting for its table."

LEAVE_ANSWER_S: Final = 5.0
"""How long a member that leaves waits for the server's view without it before it stops."""

NOT_STARTED: Final = "not_started"
"""The code of ``PartyStopped`` when the party was not started in time (``start_within_s``)."""

FATAL_PREFIX: Final = "ranked_"
"""The refusals of a ranked party's rules: sending the same again would be refused again."""


class PartyStopped(Exception):
    """The party refused what this member must do, for a reason waiting cannot mend."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code


class PartySession:
    """One member's connection to a party's socket, reconnecting until the table is dealt."""

    def __init__(
        self,
        server: str | Servers,
        code: str,
        token: str,
        report: Report,
        *,
        backoff: Backoff | None = None,
        sleep: Callable[[float], None] = time.sleep,
        signed: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.servers = server if isinstance(server, Servers) else Servers([server])
        self.code = code
        self.token = token
        self.report = report
        self.signed = signed
        """The headers that sign this member's account in, sent with the socket's handshake."""
        self.backoff = backoff or Backoff()
        self.sleep = sleep
        self.clock = clock
        self.since = clock()
        """When this member began to wait for the party's table."""
        self.view: PartyView | None = None
        self.version = 0
        """The version of the last view."""
        self._said = ""
        self._asked: set[tuple[str, int]] = set()

    def _signed(self) -> dict[str, str] | None:
        """The account's headers for the address in use."""
        return signed_for(self.signed, self.servers.current)

    def wait_for_table(self, plan: PartyPlan) -> PartyView:
        """Send what ``plan`` asks until the party's table is dealt; the view naming it.

        ``SeatLost`` when this member has no seat (removed, or a token the party never gave);
        ``PartyStopped`` when the party refuses for good (a ranked party's rules).
        """

        def dropped(why: str, wait: float) -> None:
            self.servers.move_on()  # the process it dropped from may be gone: try another
            self.report.note(reconnect_note("party", why, wait, self.servers))

        keep_trying(lambda: self._attempt(plan), self.backoff, self.sleep, dropped)
        assert self.view is not None
        return self.view

    def _attempt(self, plan: PartyPlan) -> bool:
        # Each connection asks afresh. Versions are counted by each server process on its
        # own, so after a move to another process the same number may be another moment of
        # the party; and what went on a lost connection may never have arrived (its process
        # killed before it answered). Asking again is harmless: a view or a refusal answers.
        self._asked.clear()
        with opened(
            party_socket_url(self.servers.current, self.code), self._signed()
        ) as connection:
            hello = Hello(t="hello", v=0, d=HelloData(token=self.token))
            connection.send(hello.model_dump_json())
            for text in self._texts(connection, plan):
                try:
                    message = PARTY_SERVER_MESSAGES.validate_json(text)
                except ValidationError as error:
                    self.report.note(f"Ignored a party message that cannot be read: {error}")
                    continue
                if isinstance(message, RefusedMessage):
                    code = message.d.code.value
                    if code.startswith(FATAL_PREFIX):
                        raise PartyStopped(message.d.message, code)
                    self.report.note(f"The party refused: {message.d.message}")
                    continue
                self.backoff.reset()
                if self._seen(message, plan, connection):
                    return True
        return False

    def _texts(self, connection: ClientConnection, plan: PartyPlan) -> Iterator[str | bytes]:
        """The connection's messages until it closes.

        It looks up now and then to leave a party not started within ``plan.start_within_s``.
        """
        wait = None if plan.start_within_s is None else min(1.0, plan.start_within_s)
        while True:
            try:
                yield connection.recv(timeout=wait)
            except TimeoutError:
                self._leave_if_late(plan, connection)
            except ConnectionClosedOK:
                return

    def _leave_if_late(self, plan: PartyPlan, connection: ClientConnection) -> None:
        """Leave the party and stop (``PartyStopped``) once it waited past ``start_within_s``."""
        if plan.start_within_s is None or self.clock() - self.since <= plan.start_within_s:
            return
        if self.view is not None and self.view.state == "lobby":
            connection.send(LeaveParty(t="leave", v=self.version, d=NoData()).model_dump_json())
            self._await_leaving(connection)
        raise PartyStopped(
            f"The party did not start within {plan.start_within_s:.0f} s: this member left it.",
            NOT_STARTED,
        )

    def _await_leaving(self, connection: ClientConnection) -> None:
        """Read on until the server's view no longer counts this member.

        The server sends that view once the leave is committed; the connection ending or
        ``LEAVE_ANSWER_S`` passing ends the wait too. A program that says it left has then
        left: the party's next look no longer lists it.
        """
        deadline = time.monotonic() + LEAVE_ANSWER_S
        while (left := deadline - time.monotonic()) > 0:
            try:
                text = connection.recv(timeout=left)
            except (TimeoutError, ConnectionClosed):
                return
            try:
                message = PARTY_SERVER_MESSAGES.validate_json(text)
            except ValidationError:
                continue
            if isinstance(message, PartyMessage) and message.d.me is None:
                return

    def _seen(self, message: PartyMessage, plan: PartyPlan, connection: ClientConnection) -> bool:
        """Take in a view of the party; whether the table is dealt."""
        view = message.d
        self.view = view
        self.version = message.v
        if view.me is None:
            raise SeatLost("This seat is no longer a member of the party (removed by the host?).")
        if view.state == "closed":
            raise SeatLost("The party was closed.")
        said = seats_sentence(view)
        if said != self._said:
            self.report.say(said)
            self._said = said
        if view.table is not None:
            return True
        if view.state == "playing":
            self.report.say(STARTED_TABLE_WAIT)
            return False
        self._leave_if_late(plan, connection)
        reply = wanted(view, plan)
        if reply is not None:
            kind = str(getattr(reply, "t", ""))
            if (kind, message.v) not in self._asked:  # once per version and connection
                self._asked.add((kind, message.v))
                connection.send(reply.model_copy(update={"v": message.v}).model_dump_json())
        return False
