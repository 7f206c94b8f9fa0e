"""The programs' accounts online in this process: their streams, invitations and games.

A program's stream (``/ws/bot``, ``rummykit.protocol.bot_stream``) registers its account here
with its limits; a challenge or an invitation asks the program and waits for its answer; a
party's table dealt or finished is told to the programs seated at it. Only this process's
streams are known: with several processes behind one site, a program is online at the
process its stream reached.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import Awaitable, Callable, Iterable

from rummykit.protocol import (
    ANSWER_WITHIN_S,
    BotLimits,
    CloseCode,
    DeclineReason,
    GameData,
    GameEnded,
    GameStarted,
    Invitation,
    InvitationGone,
    InvitationGoneData,
    InvitationView,
    OnlineBot,
    ProtocolError,
    Strict,
    Welcome,
    WelcomeData,
)
from rummykit.server.parties.party import PartyError
from rummykit.server.runtime import going_on

REPLACED = "Another connection of this account took over its stream."

Send = Callable[[Strict], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]
Answer = DeclineReason | None
"""A program's answer: why it declines, or ``None``: it accepts."""


@dataclasses.dataclass(eq=False)
class BotLine:
    """One program's stream: its account, its limits, and the invitations it has not answered."""

    account: int
    name: str
    limits: BotLimits
    send: Send
    close: Close
    sent: int = 0
    """Frames sent on the stream: each one's ``v``."""
    waiting: dict[int, asyncio.Future[Answer]] = dataclasses.field(default_factory=dict)


class BotDesk:
    """Who is online, the invitations waiting for an answer, the games each program plays."""

    def __init__(self, answer_within_s: float = ANSWER_WITHIN_S) -> None:
        """Invitations wait ``answer_within_s`` seconds for an answer."""
        self.answer_within_s = answer_within_s
        self.lines: dict[int, BotLine] = {}
        """The stream of each account online, by account id."""
        self.playing: dict[int, set[str]] = {}
        """The tables not yet over of each program's account, by account id."""
        self._ids = itertools.count(1)

    # ----- streams -------------------------------------------------------------------------

    async def connect(
        self, account: int, name: str, limits: BotLimits, send: Send, close: Close
    ) -> BotLine:
        """The account online with this stream (another stream of it is closed); welcomed."""
        line = BotLine(account, name, limits, send, close)
        before = self.lines.get(account)
        self.lines[account] = line
        if before is not None:
            self._forget(before)
            with going_on("closing a replaced bot stream"):
                await before.close(CloseCode.REPLACED, REPLACED)
        await self._send(line, lambda v: Welcome(v=v, d=WelcomeData(name=name, limits=limits)))
        return line

    def disconnect(self, line: BotLine) -> None:
        """The stream closed: its account is offline unless another stream took over."""
        if self.lines.get(line.account) is line:
            del self.lines[line.account]
        self._forget(line)

    @staticmethod
    def _forget(line: BotLine) -> None:
        for waiting in line.waiting.values():
            if not waiting.done():
                waiting.cancel()

    async def _send(self, line: BotLine, message: Callable[[int], Strict]) -> None:
        line.sent += 1
        with going_on("sending on a bot stream"):
            await line.send(message(line.sent))

    # ----- who is online -------------------------------------------------------------------

    def online(self) -> tuple[OnlineBot, ...]:
        """The accounts online, by name."""
        return tuple(
            OnlineBot(
                name=line.name,
                limits=line.limits,
                playing=len(self.playing.get(line.account, ())),
            )
            for line in sorted(self.lines.values(), key=lambda line: line.name.casefold())
        )

    def is_online(self, account: int) -> bool:
        """Whether the account has a stream here."""
        return account in self.lines

    def limits_of(self, account: int) -> BotLimits | None:
        """What an account online takes (``None``: offline)."""
        line = self.lines.get(account)
        return None if line is None else line.limits

    # ----- invitations ---------------------------------------------------------------------

    async def invite(
        self, account: int, name: str, invitation: Callable[[int], InvitationView]
    ) -> None:
        """Ask the account to join a party; returns once it accepts.

        ``invitation(id)`` is what it is asked. ``PartyError``: ``bot_offline`` (no stream,
        or it closed before answering), ``bot_silent`` (no answer in time), ``declined_*``
        (its reason).
        """
        line = self.lines.get(account)
        if line is None:
            raise PartyError("bot_offline", name=name)
        number = next(self._ids)
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        line.waiting[number] = answer
        try:
            await self._send(line, lambda v: Invitation(v=v, d=invitation(number)))
            async with asyncio.timeout(self.answer_within_s):
                reason = await answer
        except TimeoutError:
            gone = InvitationGoneData(invitation=number)
            await self._send(line, lambda v: InvitationGone(v=v, d=gone))
            raise PartyError("bot_silent", name=name) from None
        except asyncio.CancelledError:
            if answer.cancelled() and not _cancelling():
                raise PartyError("bot_offline", name=name) from None
            raise
        finally:
            line.waiting.pop(number, None)
        if reason is not None:
            raise declined(reason, name)

    def answered(self, line: BotLine, invitation: int, reason: Answer) -> None:
        """The program's answer to one of its invitations.

        ``ProtocolError`` for an invitation it was not asked, or no longer waiting.
        """
        waiting = line.waiting.get(invitation)
        if waiting is None or waiting.done():
            raise ProtocolError(f"No invitation {invitation} is waiting for your answer.")
        waiting.set_result(reason)

    # ----- games ---------------------------------------------------------------------------

    async def started(self, accounts: Iterable[int], code: str, table: str) -> None:
        """A party's table was dealt with these programs' accounts at it."""
        game = GameData(code=code, table=table)
        for account in accounts:
            self.playing.setdefault(account, set()).add(table)
            await self._tell(account, lambda v: GameStarted(v=v, d=game))

    async def ended(self, accounts: Iterable[int], code: str, table: str) -> None:
        """A party's table with these programs' accounts at it finished."""
        game = GameData(code=code, table=table)
        for account in accounts:
            tables = self.playing.get(account, set())
            tables.discard(table)
            if not tables:
                self.playing.pop(account, None)
            await self._tell(account, lambda v: GameEnded(v=v, d=game))

    async def _tell(self, account: int, message: Callable[[int], Strict]) -> None:
        line = self.lines.get(account)
        if line is not None:
            await self._send(line, message)


def declined(reason: DeclineReason, name: str) -> PartyError:
    """The refusal that says why the program ``name`` declined."""
    match reason:
        case "preset":
            return PartyError("declined_preset", name=name)
        case "timer":
            return PartyError("declined_timer", name=name)
        case "seats":
            return PartyError("declined_seats", name=name)
        case "ranked":
            return PartyError("declined_ranked", name=name)
        case "friendly":
            return PartyError("declined_friendly", name=name)
        case "busy":
            return PartyError("declined_busy", name=name)


def _cancelling() -> bool:
    """Whether the task itself is being cancelled (not only the future it waited on)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
