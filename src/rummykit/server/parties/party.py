"""A party: people (and computer players) who play one table after another, and its lobby.

Every change to a party happens under its lock and is stored before anyone is told, so that
twelve people joining at once seat exactly as many as there are seats, and a rematch pressed by
everyone at once makes one table. A member's token (from ``secrets``) is kept only hashed; it
is their seat at every table of the party.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Final, Literal, Protocol

from rummykit.core.errors import RulesError
from rummykit.core.presets import preset_with_overrides
from rummykit.core.refusals import ParamValue
from rummykit.protocol import (
    MAX_PARTY_SEATS,
    MIN_PARTY_SEATS,
    RECORD_RULES,
    BotLevel,
    BotPlayer,
    HumanPlayer,
    MemberView,
    Params,
    PartyMessage,
    PartyState,
    PartyView,
    Player,
    RefusedMessage,
    RulesInPlay,
    RuleValue,
    SettingsData,
    Strict,
    TableSettings,
    TurnTimer,
    detail_params,
    names_params,
    party_code,
    party_text,
    refusal,
    wait_params,
)
from rummykit.server.parties.party_reference import invite_path
from rummykit.server.runtime import going_on
from rummykit.server.store import Account, is_unavailable, token_hash
from rummykit.server.tables import computer_names, rules_in_play

CODE_LETTERS: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""A party code's letters: none that reads as another (no 0/O, 1/I/L)."""

CODE_LENGTH: Final = 6
"""31 letters, 6 of them: about 30 bits, so that codes are short to read aloud. That can be
guessed: the link carries a long key besides, and requests by code alone are limited across
every address (``rummykit.server.parties.party_reference``)."""

PARTY_IDLE_S: Final = 24 * 3600.0
"""A party nobody has touched for a day, with nobody connected, is closed: its finished games
stay in the history."""


def new_code() -> str:
    """A fresh party code."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


class Member(Strict):
    """A member as stored: a person (with their token's hash) or a computer player."""

    id: int
    name: str
    kind: Literal["human", "bot"]
    level: BotLevel | None = None
    token: str | None = None
    """The SHA-256 of the person's token."""
    ready: bool = False
    account: int | None = None
    """The account the person joined with (signed in), if any: a ranked party's members all
    have one, and the same account joining again takes the seat back."""
    program: bool = False
    """That account is a program's."""


class PartyRecord(Strict):
    """A party as stored."""

    code: str
    key: str | None = None
    """The invite link's secret besides the code (``party_reference``); ``None``: a party
    made before links had one, found by its code alone."""
    host: int
    members: tuple[Member, ...]
    next_id: int
    preset: str
    rules: dict[str, RuleValue]
    turn_timer: TurnTimer | None
    spectators: bool
    ranked: bool = False
    """The party's games are rated: people with accounts only, a turn timer."""
    program_pool: bool = True
    """A ranked game with a program's account at it is rated in the programs' pool."""
    listed: bool = False
    """The host lists the party in the lobby's open tables."""
    state: PartyState = "lobby"
    table: str | None = None
    games: int = 0
    seed: int | None = None
    """Tests only: the first table's seed (each rematch's is one more)."""


class PartyError(ValueError):
    """A party change refused: its reason (``PARTY_REFUSALS``), code, parameters and sentence.

    The page words the reason and parameters in its own language; ``message`` is the English
    sentence, for programs and logs.
    """

    def __init__(self, reason: str, **params: ParamValue) -> None:
        self.code = party_code(reason)
        self.reason = reason
        self.params: Params = params
        self.message = party_text(reason, params)
        super().__init__(self.message)


Send = Callable[[Strict], Awaitable[None]]
"""Sends one message to one connection of the party's socket."""

StartTable = Callable[[TableSettings, dict[int, str]], Awaitable[str]]
"""Makes a table from settings and its seats' token hashes: its id."""

GiveSeat = Callable[[str, int, str], Awaitable[None]]
"""Lets a token's hash hold a seat at a table (table id, seat, hash)."""

Busy = Callable[[Sequence[int]], Awaitable[set[int]]]
"""Which of these accounts are playing a ranked game now."""


class Sharing(Protocol):
    """What the processes serving one site share of its parties (``Lobby`` gives it)."""

    def lock(self, code: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the party's lock across every process."""
        ...

    async def load(self, code: str) -> PartyRecord | None:
        """The party's record as stored."""
        ...

    async def changed(self, code: str) -> None:
        """Tell the other processes the party changed (they read it again)."""
        ...


Waits = Callable[[Sequence[int]], Awaitable[dict[int, float]]]
"""The seconds each of these accounts still waits before its next ranked game (having left
ranked games early); those that wait only."""


def check_ranked(record: PartyRecord) -> None:
    """``PartyError`` unless ``record`` may be ranked: people with accounts, a timer."""
    if any(member.kind == "bot" for member in record.members):
        raise PartyError("ranked_computer")
    if record.turn_timer is None:
        raise PartyError("ranked_timer")
    guests = [member.name for member in record.members if member.account is None]
    if guests:
        raise PartyError("ranked_account", **names_params(guests))


def checked_rules(preset: str, rules: Mapping[str, object]) -> dict[str, RuleValue]:
    """The options that differ from ``preset``, as the engine reads them.

    ``RulesError`` if they cannot be played.
    """
    return rules_in_play(preset, rules).rules


@functools.lru_cache(maxsize=256)
def _in_play(preset: str, rules: frozenset[tuple[str, RuleValue]]) -> RulesInPlay:
    """What a party's rules make (the same few rule sets are viewed over and over)."""
    return rules_in_play(preset, dict(rules))


def party_view(
    record: PartyRecord,
    me: int | None,
    connected: set[int | None],
    present: Callable[[int], bool],
) -> PartyView:
    """The party as member ``me`` (``None``: a visitor) sees it.

    ``connected``: the members connected to its lobby; ``present(seat)``: whether a seat's
    person has the table open.
    """
    in_play = _in_play(record.preset, frozenset(record.rules.items()))
    return PartyView(
        code=record.code,
        url=invite_path(record.code, record.key),
        state=record.state,
        host=record.host,
        me=me,
        members=tuple(
            MemberView(
                id=member.id,
                name=member.name,
                kind=member.kind,
                level=member.level,
                ready=member.ready or member.kind == "bot",
                connected=member.kind == "bot" or member.id in connected or present(seat),
                host=member.id == record.host,
                program=member.program,
            )
            for seat, member in enumerate(record.members)
        ),
        preset=record.preset,
        rules=record.rules,
        in_play=in_play.in_play,
        seats=tuple(
            seats for seats in in_play.seats if MIN_PARTY_SEATS <= seats <= MAX_PARTY_SEATS
        ),
        turn_timer=record.turn_timer,
        spectators=record.spectators,
        ranked=record.ranked,
        program_pool=record.program_pool,
        listed=record.listed,
        table=record.table,
        games=record.games,
    )


def table_settings_of(
    record: PartyRecord, dealer: int | None
) -> tuple[TableSettings, dict[int, str]]:
    """The settings of a table for the party as it stands, and its seats' token hashes."""
    players: list[Player] = []
    for member in record.members:
        if member.kind == "bot" and member.level is not None:
            players.append(BotPlayer(kind="bot", name=member.name, level=member.level))
        else:
            players.append(HumanPlayer(kind="human", name=member.name, program=member.program))
    settings = TableSettings(
        rules=RECORD_RULES.validate_python({"preset": record.preset, **record.rules}),
        players=tuple(players),
        practice=False,
        turn_timer=record.turn_timer,
        party=record.code,
        spectators=record.spectators,
        dealer=dealer,
        seed=None if record.seed is None else record.seed + record.games,
        accounts=_accounts(record) if record.ranked else None,
        program_pool=record.program_pool,
    )
    hashes = {
        seat: member.token for seat, member in enumerate(record.members) if member.token is not None
    }
    return settings, hashes


class Party:
    """One party in memory: its record, its lock, the connections to its lobby."""

    def __init__(self, record: PartyRecord, save: Callable[[PartyRecord], Awaitable[None]]):
        """A party from its ``record``; every change is kept by ``save`` before it is told."""
        self.record = record
        self.save = save
        self.lock = asyncio.Lock()
        self.version = 1
        self.listeners: dict[Send, int | None] = {}
        self.present: Callable[[int], bool] = lambda seat: False
        """Whether the person at a seat of the party's current table has it open."""
        self.elsewhere: set[int] = set()
        """With several processes: the members connected through the others."""
        self.nudge: Callable[[], None] = lambda: None
        """Called when a connection comes or goes (with several processes, they are told)."""
        self.give_seat: GiveSeat | None = None
        """Lets a new token hold a seat at the current table (an account back on a device)."""
        self.busy: Busy | None = None
        """Which accounts play a ranked game now (one at a time per account)."""
        self.waits: Waits | None = None
        """How long accounts that left ranked games early wait before the next."""
        self.shared: Sharing | None = None
        """With several processes: the lock, the stored record and the news they share."""
        self.on_change: Callable[[Party], Awaitable[None]] | None = None
        """Told after every change its connections are told of (the lobby's open tables)."""

    @property
    def code(self) -> str:
        """The party's code."""
        return self.record.code

    # ----- reading ---------------------------------------------------------------------------

    def has_key(self, key: str) -> bool:
        """Whether ``key`` is the party's link key (compared in constant time)."""
        return self.record.key is not None and hmac.compare_digest(self.record.key, key)

    def member_of(self, token: str) -> Member | None:
        """The person holding ``token``, if any (compared in constant time)."""
        hashed = token_hash(token)
        found = None
        for member in self.record.members:
            if member.token is not None and hmac.compare_digest(member.token, hashed):
                found = member
        return found

    def view(self, me: int | None) -> PartyView:
        """The party as member ``me`` (``None``: a visitor) sees it."""
        connected = set(self.listeners.values()) | self.elsewhere
        return party_view(self.record, me, connected, self.present)

    def here(self) -> set[int]:
        """The members connected to this process: to the party's lobby or at its table."""
        found = {member for member in self.listeners.values() if member is not None}
        for seat, member in enumerate(self.record.members):
            if member.kind != "bot" and self.present(seat):
                found.add(member.id)
        return found

    def idle_since(self, updated: float, now: float, idle_s: float = PARTY_IDLE_S) -> bool:
        """Whether the party should close: untouched since ``updated`` and nobody here."""
        return not self.listeners and now - updated >= idle_s

    # ----- the lobby's connections -----------------------------------------------------------

    async def attach(self, send: Send, me: int | None) -> None:
        """Send this connection the party after every change, starting now.

        With several processes, the record is read again first: the process that made the
        last change may have died after storing it and before telling the others (its news
        lost with it), and a member who moved here must see the party as it stands.
        """
        self.listeners[send] = me
        try:
            await self.refresh()
        except Exception as error:  # the store out of reach: the party as last known
            if not is_unavailable(error):
                raise
        await send(self._message(me))
        await self.broadcast(besides=send)  # the others see who is here
        self.nudge()

    async def detach(self, send: Send) -> None:
        """Stop sending to a connection."""
        if self.listeners.pop(send, None) is not None:
            await self.broadcast()
            self.nudge()

    def _message(self, me: int | None) -> PartyMessage:
        return PartyMessage(v=self.version, d=self.view(me))

    async def broadcast(self, besides: Send | None = None) -> None:
        """Send every connection the party as it stands."""
        for send, me in list(self.listeners.items()):
            if send is besides:
                continue
            message = self._message(me)  # a fault in making it is ours: not suppressed
            with going_on("sending a party's view"):  # a closed socket: it detaches itself
                await send(message)
        if self.on_change is not None:
            with going_on("updating the open tables"):  # a listing never undoes a change
                await self.on_change(self)

    def refusal(self, error: PartyError) -> RefusedMessage:
        """The refusal of ``error`` at this version."""
        return refusal(
            self.version, error.code, error.message, reason=error.reason, params=error.params
        )

    # ----- changes ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _changing(self) -> AsyncIterator[None]:
        """One change at a time: in this process, and, with several, across them all.

        Under the shared lock the record is read again from the store: another process may
        have changed it.
        """
        async with self.lock:
            if self.shared is None:
                yield
                return
            async with self.shared.lock(self.code):
                await self.refresh()
                yield

    async def refresh(self) -> None:
        """Read the record again from the store (another process changed it); tell if new."""
        if self.shared is None:
            return
        stored = await self.shared.load(self.code)
        if stored is not None and stored != self.record:
            self.record = stored
            self.version += 1
            await self.broadcast()

    async def _commit(self, record: PartyRecord) -> None:
        await self.save(record)
        self.record = record
        self.version += 1
        await self.broadcast()
        if self.shared is not None:
            await self.shared.changed(self.code)

    def _members(self, member: int) -> tuple[Member, ...]:
        return tuple(each for each in self.record.members if each.id != member)

    def _must_be_open(self) -> None:
        if self.record.state == "closed":
            raise PartyError("party_closed")
        if self.record.state != "lobby":
            raise PartyError("party_started")

    def _must_be_host(self, member: int) -> None:
        if member != self.record.host:
            raise PartyError("not_host")

    async def join(self, name: str, account: Account | None = None) -> tuple[Member, str]:
        """A new person in the first free seat, and their token.

        Joining signed in binds the member to the ``account`` (and names them after it); the
        same account joining again, from another device, gets its seat back with a new token,
        in the lobby or during a game.
        """
        async with self._changing():
            if account is not None:
                back = next(
                    (each for each in self.record.members if each.account == account.id), None
                )
                if back is not None and self.record.state != "closed":
                    return await self._seat_back(back)
            self._must_be_open()
            if len(self.record.members) >= MAX_PARTY_SEATS:
                raise PartyError("party_full")
            if self.record.ranked and account is None:
                raise PartyError("ranked_sign_in")
            if self.record.ranked and account is not None:
                await self._check_waits({account.id: account.name})
            token = secrets.token_urlsafe(32)
            member = Member(
                id=self.record.next_id,
                name=name if account is None else account.name,
                kind="human",
                token=token_hash(token),
                account=None if account is None else account.id,
                program=account is not None and account.bot,
            )
            await self._commit(
                self.record.model_copy(
                    update={
                        "members": (*self.record.members, member),
                        "next_id": self.record.next_id + 1,
                    }
                )
            )
            return member, token

    async def _seat_back(self, member: Member) -> tuple[Member, str]:
        """A new token for ``member`` (the old one stays at tables already made)."""
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        table = self.record.table
        if table is not None and self.give_seat is not None:
            seat = next(
                seat for seat, each in enumerate(self.record.members) if each.id == member.id
            )
            await self.give_seat(table, seat, hashed)
        renewed = member.model_copy(update={"token": hashed})
        members = tuple(renewed if each.id == member.id else each for each in self.record.members)
        await self._commit(self.record.model_copy(update={"members": members}))
        return renewed, token

    async def set_ready(self, member: int, ready: bool) -> None:
        """Mark a person ready (or not)."""
        async with self._changing():
            self._must_be_open()
            members = tuple(
                each.model_copy(update={"ready": ready}) if each.id == member else each
                for each in self.record.members
            )
            await self._commit(self.record.model_copy(update={"members": members}))

    async def change_settings(self, member: int, data: SettingsData) -> None:
        """The host changes the house rules (everyone's ready is cleared) or the listing."""
        async with self._changing():
            self._must_be_open()
            self._must_be_host(member)
            preset = data.preset or self.record.preset
            wanted = self.record.rules if data.rules is None else dict(data.rules)
            if data.preset is not None and data.rules is None:
                wanted = {}  # a new preset starts from its own rules
            try:
                rules = checked_rules(preset, wanted)
            except RulesError as error:
                raise PartyError("rules_refused", **detail_params(error)) from None
            timer = None if data.no_timer else data.turn_timer or self.record.turn_timer
            spectators = self.record.spectators if data.spectators is None else data.spectators
            ranked = self.record.ranked if data.ranked is None else data.ranked
            program_pool = (
                self.record.program_pool if data.program_pool is None else data.program_pool
            )
            update: dict[str, object] = {
                "preset": preset,
                "rules": rules,
                "turn_timer": timer,
                "spectators": spectators,
                "ranked": ranked,
                "program_pool": program_pool,
            }
            if self.record.model_copy(update=update) != self.record:
                # what is played changed: everyone looks again before the start
                update["members"] = tuple(
                    each.model_copy(update={"ready": False}) for each in self.record.members
                )
            if data.listed is not None:
                update["listed"] = data.listed
            changed = self.record.model_copy(update=update)
            if ranked:
                check_ranked(changed)
            await self._commit(changed)

    async def add_cpu(self, member: int, level: BotLevel) -> None:
        """The host seats a computer player."""
        async with self._changing():
            self._must_be_open()
            self._must_be_host(member)
            if len(self.record.members) >= MAX_PARTY_SEATS:
                raise PartyError("party_full")
            if self.record.ranked:
                raise PartyError("ranked_no_cpu")
            # a name of its own, as at a table against the computer: none of the members'
            seed = None if self.record.seed is None else self.record.seed + self.record.next_id
            taken = [each.name for each in self.record.members]
            (name,) = computer_names(1, taken, seed)
            bot = Member(id=self.record.next_id, name=name, kind="bot", level=level, ready=True)
            await self._commit(
                self.record.model_copy(
                    update={
                        "members": (*self.record.members, bot),
                        "next_id": self.record.next_id + 1,
                    }
                )
            )

    async def remove(self, member: int, removed: int) -> None:
        """The host removes a member before the start (not themselves)."""
        async with self._changing():
            self._must_be_open()
            self._must_be_host(member)
            if removed == member:
                raise PartyError("host_stays")
            if all(each.id != removed for each in self.record.members):
                raise PartyError("no_such_member")
            await self._commit(self.record.model_copy(update={"members": self._members(removed)}))
            await self._drop_connections(removed)

    async def leave(self, member: int) -> None:
        """A person leaves before the start; a host who leaves hands the host on."""
        async with self._changing():
            self._must_be_open()
            members = self._members(member)
            # the host is handed to a person: a program's account never starts a party
            people = [each for each in members if each.kind == "human" and not each.program]
            update: dict[str, object] = {"members": members}
            if member == self.record.host:
                if people:
                    update["host"] = people[0].id
                else:
                    update["state"] = "closed"
            await self._commit(self.record.model_copy(update=update))
            await self._drop_connections(member)

    async def _drop_connections(self, member: int) -> None:
        for send, me in list(self.listeners.items()):
            if me == member:
                self.listeners[send] = None  # still connected, now as a visitor
                message = self._message(None)
                with going_on("sending a party's view"):  # a closed socket detaches itself
                    await send(message)

    def table_settings(self, dealer: int | None) -> tuple[TableSettings, dict[int, str]]:
        """The settings of a table for the party as it stands, and its seats' token hashes."""
        return table_settings_of(self.record, dealer)

    async def start(self, member: int, make_table: StartTable) -> str:
        """The host starts the game: every person ready, a table size the rules deal; its id."""
        async with self._changing():
            self._must_be_open()
            self._must_be_host(member)
            members = self.record.members
            if not MIN_PARTY_SEATS <= len(members) <= MAX_PARTY_SEATS:
                raise PartyError("seats_needed", min=MIN_PARTY_SEATS, max=MAX_PARTY_SEATS)
            waiting = [
                each.name
                for each in members
                if each.kind == "human" and not each.ready and each.id != member
            ]
            if waiting:
                raise PartyError("not_ready", **names_params(waiting))
            if self.record.ranked:
                await self._check_ranked_start()
            settings, hashes = self.table_settings(None)
            try:
                preset, rules = preset_with_overrides(settings.rules)
                preset.check_seats(len(members))
                rules.check_seats(len(members))
            except RulesError as error:
                raise PartyError("seats_refused", **detail_params(error)) from None
            table = await make_table(settings, hashes)
            await self._commit(
                self.record.model_copy(update={"state": "playing", "table": table, "games": 1})
            )
            return table

    async def _check_ranked_start(self) -> None:
        """``PartyError`` unless this ranked game may start: every account free."""
        check_ranked(self.record)
        playing = set() if self.busy is None else await self.busy(_accounts(self.record))
        # a program's account plays as many games at once as it takes (its own limits)
        names = [
            each.name
            for each in self.record.members
            if each.account in playing and not each.program
        ]
        if names:
            raise PartyError("ranked_busy", **names_params(names))
        await self._check_waits(
            {each.account: each.name for each in self.record.members if each.account is not None}
        )

    async def _check_waits(self, names: dict[int, str]) -> None:
        """``PartyError`` if any of these accounts (with the names to say) must still wait."""
        waits = {} if self.waits is None else await self.waits(tuple(names))
        if not waits:
            return
        who = [names[account] for account in waits]
        seconds = max(waits.values())
        raise PartyError("ranked_wait", names=who, **wait_params(seconds))

    async def rematch(self, finished: str, dealer: int, make_table: StartTable) -> str:
        """The next table after ``finished``: made by the first to ask, found by the others."""
        async with self._changing():
            if self.record.table != finished:
                return self.record.table or finished
            settings, hashes = self.table_settings(dealer)
            table = await make_table(settings, hashes)
            await self._commit(
                self.record.model_copy(update={"table": table, "games": self.record.games + 1})
            )
            return table


def _accounts(record: PartyRecord) -> tuple[int, ...]:
    """Each seat's account, in seat order (a ranked party's members all have one)."""
    return tuple(member.account or 0 for member in record.members)
