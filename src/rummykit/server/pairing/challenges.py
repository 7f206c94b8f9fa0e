"""Challenges between people: who is reachable, the challenges waiting, and their answers.

A signed-in page keeps an inbox open (``/ws/inbox``); a person is online while one of theirs
is. A challenge goes to every inbox of the person challenged and waits
``CHALLENGE_EXPIRES_S`` for an answer; the challenger has one waiting at a time, and a person
at most ``MAX_CHALLENGES_WAITING``. Accepted, it becomes a party of the two, made and started
at once (the challenger hosts it), as quick pairing's tables are. The inboxes live in the
process the pages are connected to.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import math
from collections.abc import Awaitable, Callable

from rummykit.core.errors import RulesError
from rummykit.protocol import (
    CHALLENGE_EXPIRES_S,
    MAX_CHALLENGES_WAITING,
    ChallengedMessage,
    ChallengeGone,
    ChallengeGoneMessage,
    ChallengeSentMessage,
    ChallengeView,
    GoneReason,
    InboxMessage,
    InboxView,
    NewPersonChallenge,
    PairedMessage,
    Strict,
    detail_params,
)
from rummykit.server.pairing.answers import party_refusal
from rummykit.server.pairing.seating import Terms, seat_together
from rummykit.server.parties import Lobby, PartyError, checked_rules
from rummykit.server.runtime import going_on
from rummykit.server.store import Account, Now
from rummykit.server.tables import Sleep

Send = Callable[[Strict], Awaitable[None]]

FindAccount = Callable[[str], Awaitable[Account | None]]
"""The account of a name (names are compared without regard to case), if any."""


@dataclasses.dataclass(eq=False)
class Inbox:
    """One signed-in page's inbox socket."""

    account: Account
    send: Send


@dataclasses.dataclass(eq=False)
class Challenge:
    """A challenge waiting for its answer."""

    id: int
    sender: Inbox
    to: Account
    terms: NewPersonChallenge
    expires: float
    timer: asyncio.Task[None] | None = None


class Challenges:
    """The inboxes open in this process and the challenges between their people."""

    def __init__(
        self,
        lobby: Lobby,
        find_account: FindAccount,
        now: Now,
        sleep: Sleep,
        expires_s: float = CHALLENGE_EXPIRES_S,
    ) -> None:
        """Parties are made in ``lobby``; challenges expire after ``expires_s`` of ``sleep``."""
        self._lobby = lobby
        self._find = find_account
        self._now = now
        self._sleep = sleep
        self._expires_s = expires_s
        self._inboxes: dict[int, list[Inbox]] = {}
        self._open: dict[int, Challenge] = {}
        self._ids = itertools.count(1)

    def is_online(self, account: int) -> bool:
        """Whether the account has an inbox open here."""
        return bool(self._inboxes.get(account))

    async def open(self, inbox: Inbox) -> None:
        """A page's inbox opened: it is told of the challenges waiting for its answer.

        Each new one reaches it from now on.
        """
        self._inboxes.setdefault(inbox.account.id, []).append(inbox)
        waiting = tuple(
            self._view(each) for each in self._open.values() if each.to.id == inbox.account.id
        )
        opened = InboxView(name=inbox.account.name, challenges=waiting)
        await self._tell(inbox, InboxMessage(v=0, d=opened))

    async def close(self, inbox: Inbox) -> None:
        """A page's inbox closed: its challenge is withdrawn.

        When it was its person's last page, the challenges to them close too.
        """
        pages = self._inboxes.get(inbox.account.id, [])
        if inbox in pages:
            pages.remove(inbox)
        if not pages:
            self._inboxes.pop(inbox.account.id, None)
        for challenge in list(self._open.values()):
            if challenge.sender is inbox:
                await self._end(challenge, "offline")
            elif challenge.to.id == inbox.account.id and not pages:
                await self._end(challenge, "offline")
                await self._tell(
                    challenge.sender,
                    party_refusal(PartyError("player_offline", name=challenge.to.name)),
                )

    def _view(self, challenge: Challenge) -> ChallengeView:
        return ChallengeView(
            id=challenge.id,
            by=challenge.sender.account.name,
            to=challenge.to.name,
            preset=challenge.terms.preset,
            turn_timer=challenge.terms.turn_timer,
            ranked=challenge.terms.ranked,
            expires_in_s=max(0, math.ceil(challenge.expires - self._now())),
        )

    async def send(self, sender: Inbox, terms: NewPersonChallenge) -> None:
        """Challenge a person; ``PartyError`` says why not."""
        waiting = next((each for each in self._open.values() if each.sender is sender), None)
        if waiting is not None:
            raise PartyError("challenge_waiting", name=waiting.to.name)
        try:
            checked_rules(terms.preset, {})
        except RulesError as error:
            raise PartyError("rules_refused", **detail_params(error)) from None
        if terms.ranked and terms.turn_timer is None:
            raise PartyError("ranked_timer")
        to = await self._find(terms.player)
        if to is None:
            raise PartyError("player_unknown", name=terms.player)
        if to.id == sender.account.id:
            raise PartyError("challenge_self")
        if to.bot:
            raise PartyError("player_is_program", name=to.name)
        if not self.is_online(to.id):
            raise PartyError("player_offline", name=to.name)
        if sum(each.to.id == to.id for each in self._open.values()) >= MAX_CHALLENGES_WAITING:
            raise PartyError("too_many_challenges", name=to.name)
        challenge = Challenge(next(self._ids), sender, to, terms, self._now() + self._expires_s)
        self._open[challenge.id] = challenge
        challenge.timer = asyncio.get_running_loop().create_task(self._expire(challenge))
        view = self._view(challenge)
        await self._tell(sender, ChallengeSentMessage(v=0, d=view))
        for inbox in list(self._inboxes.get(to.id, [])):
            await self._tell(inbox, ChallengedMessage(v=0, d=view))

    async def _expire(self, challenge: Challenge) -> None:
        await self._sleep(self._expires_s)
        if self._open.get(challenge.id) is challenge:
            challenge.timer = None  # this task: not cancelled by its own end
            await self._end(challenge, "expired")
            await self._tell(
                challenge.sender,
                party_refusal(PartyError("challenge_expired", name=challenge.to.name)),
            )

    def _addressed(self, inbox: Inbox, challenge_id: int) -> Challenge:
        challenge = self._open.get(challenge_id)
        if challenge is None or challenge.to.id != inbox.account.id:
            raise PartyError("challenge_closed")
        return challenge

    async def decline(self, inbox: Inbox, challenge_id: int) -> None:
        """Decline a challenge made to the inbox's person."""
        challenge = self._addressed(inbox, challenge_id)
        await self._end(challenge, "declined")
        await self._tell(
            challenge.sender,
            party_refusal(PartyError("challenge_declined", name=challenge.to.name)),
        )

    async def withdraw(self, sender: Inbox) -> None:
        """Withdraw the challenge this inbox made (none: nothing happens)."""
        for challenge in list(self._open.values()):
            if challenge.sender is sender:
                await self._end(challenge, "withdrawn")

    async def accept(self, inbox: Inbox, challenge_id: int) -> None:
        """Accept a challenge made to the inbox's person: the game starts for both."""
        challenge = self._addressed(inbox, challenge_id)
        await self._end(challenge, "accepted", besides=inbox)
        sender, terms = challenge.sender, challenge.terms
        players = [(sender.account.name, sender.account), (inbox.account.name, inbox.account)]
        try:
            seats = await seat_together(
                self._lobby, Terms(terms.preset, terms.turn_timer, terms.ranked), players
            )
        except PartyError as error:
            for each in (sender, inbox):
                await self._tell(each, party_refusal(error))
            return
        for each, seat in zip((sender, inbox), seats, strict=True):
            await self._tell(each, PairedMessage(v=0, d=seat))

    async def _end(
        self, challenge: Challenge, reason: GoneReason, besides: Inbox | None = None
    ) -> None:
        """Close a challenge; the pages that showed it are told (but ``besides``)."""
        self._open.pop(challenge.id, None)
        if challenge.timer is not None:
            challenge.timer.cancel()
        gone = ChallengeGoneMessage(v=0, d=ChallengeGone(id=challenge.id, reason=reason))
        for inbox in [challenge.sender, *self._inboxes.get(challenge.to.id, [])]:
            if inbox is not besides:
                await self._tell(inbox, gone)

    async def _told_sender(self, challenge: Challenge, ending: PartyError) -> None:
        """Tell the challenger how their challenge ended (a refusal saying why)."""
        await self._tell(challenge.sender, party_refusal(ending))

    @staticmethod
    async def _tell(inbox: Inbox, message: Strict) -> None:
        with going_on("telling a page of a challenge"):
            await inbox.send(message)

    async def stop(self) -> None:
        """The server stops: the challenges' timers with it."""
        for challenge in self._open.values():
            if challenge.timer is not None:
                challenge.timer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await challenge.timer
        self._open.clear()
