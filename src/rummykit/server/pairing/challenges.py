"""Challenges between people: who is reachable, the challenges waiting, and their answers.

A signed-in page keeps an inbox open (``/ws/inbox``); a person is online while one of theirs
is. A challenge goes to every inbox of the person challenged and waits
``CHALLENGE_EXPIRES_S`` for an answer; the challenger has one waiting at a time, and a person
at most ``MAX_CHALLENGES_WAITING``. Accepted, it becomes a party of the two, made and started
at once (the challenger hosts it), as quick pairing's tables are.

The pages may be connected to any process of the site, so what they share is on boards
(``rummykit.server.cluster.Board``): the inboxes open (``inboxes``, each entry written again
every ``TICK_S`` by its process while the page stays open) and the challenges waiting
(``challenges``, each standing until it expires). A challenge is closed by taking it off the
board, which only one process can do: an answer, a withdrawal and the expiry never both
happen. A message for a page of another process is sent to that page's box
(``rummykit.server.cluster.Post``), which its process empties at once; it also empties its
pages' boxes every ``TICK_S``, should a nudge be lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import math
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Final

from rummykit.core.errors import RulesError
from rummykit.protocol import (
    CHALLENGE_EXPIRES_S,
    INBOX_SERVER_MESSAGES,
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
from rummykit.server.cluster import Board, Post
from rummykit.server.pairing.answers import party_refusal
from rummykit.server.pairing.seating import Terms, seat_together
from rummykit.server.parties import Lobby, PartyError, checked_rules
from rummykit.server.runtime import going_on
from rummykit.server.store import Account, Now
from rummykit.server.tables import Sleep

TICK_S: Final = 1.0
"""How often a process writes its open inboxes again and empties their letter boxes."""

INBOX_S: Final = 5 * TICK_S
"""How long an inbox's entry stands unless written again (its process died: it is offline)."""

INBOXES: Final = "inboxes"
CHALLENGES: Final = "challenges"

Send = Callable[[Strict], Awaitable[None]]

FindAccount = Callable[[str], Awaitable[Account | None]]
"""The account of a name (names are compared without regard to case), if any."""


@dataclasses.dataclass(eq=False)
class Inbox:
    """One signed-in page's inbox socket (``key``: its name on the site, given when opened)."""

    account: Account
    send: Send
    key: str = ""
    """The page's box (``Post.box``), which names it on the site."""


class Challenge(Strict):
    """A challenge waiting for its answer, as it stands on the board."""

    id: int
    by: int
    by_name: str
    by_page: str
    """The key of the challenger's page (``Inbox.key``)."""
    to: int
    to_name: str
    terms: NewPersonChallenge
    expires: float


def _inbox_key(account: int, page: str) -> str:
    return f"{account}@{page}"


class Challenges:
    """The inboxes open in this process, and the challenges between the site's people."""

    def __init__(
        self,
        lobby: Lobby,
        find_account: FindAccount,
        now: Now,
        sleep: Sleep,
        board: Board,
        post: Post,
        expires_s: float = CHALLENGE_EXPIRES_S,
    ) -> None:
        """Parties are made in ``lobby``; challenges expire after ``expires_s`` of ``sleep``.

        What the pages share is on ``board``; messages for another process's pages go by
        ``post``.
        """
        self._lobby = lobby
        self._find = find_account
        self._now = now
        self._sleep = sleep
        self._board = board
        self._post = post
        self._expires_s = expires_s
        self._pages: dict[str, Inbox] = {}
        """This process's inboxes, by key."""
        self._numbers = itertools.count(1)
        self._timers: dict[int, asyncio.Task[None]] = {}
        """The expiry of each challenge made here."""
        self._ticker: asyncio.Task[None] | None = None

    # ----- who is online ---------------------------------------------------------------------

    async def _pages_of(self, account: int) -> list[str]:
        """The keys of the account's open inboxes, on every process."""
        prefix = f"{account}@"
        standing = await self._board.read(INBOXES, self._now(), prefix)
        return [key.removeprefix(prefix) for key in standing]

    async def is_online(self, account: int) -> bool:
        """Whether the account has an inbox open (on any process)."""
        return bool(await self._pages_of(account))

    async def _waiting(self) -> list[Challenge]:
        """The challenges open now (one past its time waits for its expiry to close it)."""
        now = self._now()
        standing = await self._board.read(CHALLENGES, now)
        challenges = [Challenge.model_validate_json(text) for text in standing.values()]
        return [each for each in challenges if each.expires > now]

    # ----- pages -----------------------------------------------------------------------------

    async def open(self, inbox: Inbox) -> None:
        """A page's inbox opened: it is told of the challenges waiting for its answer.

        Each new one reaches it from now on.
        """
        inbox.key = self._post.box(f"inbox-{next(self._numbers)}")
        self._pages[inbox.key] = inbox

        async def deliver(letters: list[str]) -> None:
            for letter in letters:
                await self._tell(inbox.key, INBOX_SERVER_MESSAGES.validate_json(letter))

        await self._post.open(inbox.key, deliver)
        entry = {_inbox_key(inbox.account.id, inbox.key): inbox.account.name}
        await self._board.put(INBOXES, entry, self._now() + INBOX_S)
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.get_running_loop().create_task(self._tick_while_open())
        waiting = tuple(
            self._view(each) for each in await self._waiting() if each.to == inbox.account.id
        )
        opened = InboxView(name=inbox.account.name, challenges=waiting)
        await self._tell(inbox.key, InboxMessage(v=0, d=opened))

    async def close(self, inbox: Inbox) -> None:
        """A page's inbox closed: its challenge is withdrawn.

        When it was its person's last page, the challenges to them close too.
        """
        self._pages.pop(inbox.key, None)
        await self._board.remove(INBOXES, [_inbox_key(inbox.account.id, inbox.key)])
        await self._post.close(inbox.key)
        offline = not await self.is_online(inbox.account.id)
        for challenge in await self._waiting():
            if challenge.by_page == inbox.key:
                await self._end(challenge, "offline")
            elif (
                challenge.to == inbox.account.id
                and offline
                and await self._end(challenge, "offline")
            ):
                refusal = PartyError("player_offline", name=challenge.to_name)
                await self._tell(challenge.by_page, party_refusal(refusal))

    async def _tick_while_open(self) -> None:
        while self._pages:
            await self._sleep(TICK_S)
            with going_on("keeping the inboxes"):
                await self.tick()

    async def tick(self) -> None:
        """Our open inboxes stand on; each page is given its letters.

        Only entries still there are written again: a page that closed meanwhile stays gone.
        """
        keys = [_inbox_key(inbox.account.id, key) for key, inbox in self._pages.items()]
        await self._board.renew(INBOXES, keys, self._now() + INBOX_S)
        for key in list(self._pages):
            await self._post.deliver(key)

    async def _tell(self, page: str, message: Strict) -> None:
        """Send a page a message: at once if it is ours, else to its box."""
        with going_on("telling a page of a challenge"):
            inbox = self._pages.get(page)
            if inbox is not None:
                await inbox.send(message)
            elif not self._post.mine(page):  # ours and closed: nobody to tell
                await self._post.send(page, message.model_dump_json())

    async def _tell_all(self, pages: Iterable[str], message: Strict) -> None:
        for page in pages:
            await self._tell(page, message)

    # ----- challenges ------------------------------------------------------------------------

    def _view(self, challenge: Challenge) -> ChallengeView:
        return ChallengeView(
            id=challenge.id,
            by=challenge.by_name,
            to=challenge.to_name,
            preset=challenge.terms.preset,
            turn_timer=challenge.terms.turn_timer,
            ranked=challenge.terms.ranked,
            expires_in_s=max(0, math.ceil(challenge.expires - self._now())),
        )

    async def send(self, sender: Inbox, terms: NewPersonChallenge) -> None:
        """Challenge a person; ``PartyError`` says why not."""
        waiting = await self._waiting()
        mine = next((each for each in waiting if each.by_page == sender.key), None)
        if mine is not None:
            raise PartyError("challenge_waiting", name=mine.to_name)
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
        pages = await self._pages_of(to.id)
        if not pages:
            raise PartyError("player_offline", name=to.name)
        if sum(each.to == to.id for each in waiting) >= MAX_CHALLENGES_WAITING:
            raise PartyError("too_many_challenges", name=to.name)
        challenge = Challenge(
            id=1 + secrets.randbelow(2**53),
            by=sender.account.id,
            by_name=sender.account.name,
            by_page=sender.key,
            to=to.id,
            to_name=to.name,
            terms=terms,
            expires=self._now() + self._expires_s,
        )
        entry = {str(challenge.id): challenge.model_dump_json()}
        # it stands a little past its time: its expiry, not a reader, takes it off
        await self._board.put(CHALLENGES, entry, challenge.expires + INBOX_S)
        self._timers[challenge.id] = asyncio.get_running_loop().create_task(self._expire(challenge))
        view = self._view(challenge)
        await self._tell_all(pages, ChallengedMessage(v=0, d=view))
        await self._tell(sender.key, ChallengeSentMessage(v=0, d=view))

    async def _expire(self, challenge: Challenge) -> None:
        await self._sleep(self._expires_s)
        self._timers.pop(challenge.id, None)  # this task: not cancelled by its own end
        if await self._end(challenge, "expired"):
            refusal = PartyError("challenge_expired", name=challenge.to_name)
            await self._tell(challenge.by_page, party_refusal(refusal))

    async def _addressed(self, inbox: Inbox, challenge_id: int) -> Challenge:
        challenge = next((each for each in await self._waiting() if each.id == challenge_id), None)
        if challenge is None or challenge.to != inbox.account.id:
            raise PartyError("challenge_closed")
        return challenge

    async def decline(self, inbox: Inbox, challenge_id: int) -> None:
        """Decline a challenge made to the inbox's person."""
        challenge = await self._addressed(inbox, challenge_id)
        if not await self._end(challenge, "declined"):
            raise PartyError("challenge_closed")
        refusal = PartyError("challenge_declined", name=challenge.to_name)
        await self._tell(challenge.by_page, party_refusal(refusal))

    async def withdraw(self, sender: Inbox) -> None:
        """Withdraw the challenge this inbox made (none: nothing happens)."""
        for challenge in await self._waiting():
            if challenge.by_page == sender.key:
                await self._end(challenge, "withdrawn")

    async def accept(self, inbox: Inbox, challenge_id: int) -> None:
        """Accept a challenge made to the inbox's person: the game starts for both."""
        challenge = await self._addressed(inbox, challenge_id)
        if not await self._end(challenge, "accepted", besides=inbox.key):
            raise PartyError("challenge_closed")
        terms = challenge.terms
        pages = (challenge.by_page, inbox.key)
        try:
            sender = await self._find(challenge.by_name)
            if sender is None:
                raise PartyError("player_unknown", name=challenge.by_name)
            players = [(sender.name, sender), (inbox.account.name, inbox.account)]
            seats = await seat_together(
                self._lobby, Terms(terms.preset, terms.turn_timer, terms.ranked), players
            )
        except PartyError as error:
            await self._tell_all(pages, party_refusal(error))
            return
        for page, seat in zip(pages, seats, strict=True):
            await self._tell(page, PairedMessage(v=0, d=seat))

    async def _end(self, challenge: Challenge, reason: GoneReason, besides: str = "") -> bool:
        """Close a challenge, if it is still open; whether this closed it.

        Another process may have, at the same moment. The pages that showed it are told (but
        ``besides``).
        """
        if not await self._board.take(CHALLENGES, [str(challenge.id)]):
            return False
        timer = self._timers.pop(challenge.id, None)
        if timer is not None:
            timer.cancel()
        gone = ChallengeGoneMessage(v=0, d=ChallengeGone(id=challenge.id, reason=reason))
        pages = [challenge.by_page, *await self._pages_of(challenge.to)]
        await self._tell_all((page for page in pages if page != besides), gone)
        return True

    async def stop(self) -> None:
        """The server stops: the timers with it; this process's inboxes go offline."""
        tasks = [*self._timers.values(), *([self._ticker] if self._ticker is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._timers.clear()
        for inbox in list(self._pages.values()):
            with going_on("closing an inbox"):
                await self.close(inbox)
