"""The tables and parties this process serves, restored from the store on first use."""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Awaitable, Callable
from typing import Final

from rummykit.protocol import Clock, NewParty, TableSettings
from rummykit.server.cluster import (
    Cluster,
    OwnedElsewhere,
    RemoteTable,
    StaleOwner,
)
from rummykit.server.parties.bot_desk import BotDesk
from rummykit.server.parties.following import PartyFollowers
from rummykit.server.parties.party import (
    Member,
    Party,
    PartyError,
    PartyRecord,
    checked_rules,
    new_code,
)
from rummykit.server.parties.party_reference import CodeGuesses, SiteCodeMisses, new_key
from rummykit.server.parties.ranked_checks import RankedChecks
from rummykit.server.parties.shared import SharedParties
from rummykit.server.runtime import WorkerPool
from rummykit.server.store import Account, Now, Store
from rummykit.server.tables import (
    Sleep,
    Table,
    TableError,
    fresh_table,
    replay_frames_json,
    restore_table,
)

CODE_ATTEMPTS: Final = 8
"""New codes tried for a party before giving up (a code already taken is drawn again)."""


REPLAYS_KEPT: Final = 64
"""Finished games whose replay frames the lobby keeps made (each some tens of kilobytes):
rated games are public, and asking for one again and again costs a dictionary lookup."""

IDLE_TABLE_S: Final = 600.0
"""A table nobody watches or asks for this long leaves memory (each held about 79 KB, and
before this they all stayed for good); the store keeps it, and the next request rebuilds it."""
SWEEP_EVERY_S: Final = 30.0
"""How often at most the lobby looks for idle tables: a sweep walks every table in memory."""


class Lobby:
    """The tables this process serves, restored from the store on first use."""

    def __init__(
        self,
        store: Store,
        workers: WorkerPool,
        sleep: Sleep = asyncio.sleep,
        *,
        accept_seeds: bool = False,
        clock: Clock = time.monotonic,
        now: Now = time.time,
        idle_table_s: float | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        """Tables kept in ``store``; their computer players think in ``workers``.

        The computer players wait their pace with ``sleep``; turn timers' deadlines are
        times of the wall clock ``now`` (the store's).
        With ``accept_seeds`` a new table may name its seed (tests only: a seed makes every
        deck known in advance). ``clock`` times how long a table has been left alone;
        ``idle_table_s`` is how long until it leaves memory (default ``IDLE_TABLE_S``).
        ``cluster``: the other processes serving the site, if any
        (``rummykit.server.cluster.site``):
        a table is then played by its owner, and relayed by the others.
        """
        self.store = store
        self.workers = workers
        self.sleep = sleep
        self.accept_seeds = accept_seeds
        self.clock = clock
        self.idle_table_s = IDLE_TABLE_S if idle_table_s is None else idle_table_s
        # a sweep less often than the idle time would keep a table up to twice as long
        self.sweep_every_s = min(SWEEP_EVERY_S, self.idle_table_s)
        self.now = now
        self.started = now()
        """When the server started: no leaver waits in its first minutes (``ranked_wait``)."""
        self.tables: dict[str, Table] = {}
        self.last_used: dict[str, float] = {}
        self.last_sweep = clock()
        self.parties: dict[str, Party] = {}
        self.code_guesses = CodeGuesses(clock=clock)
        """Requests naming a party by its code alone that found none, across every address,
        in this process."""
        self.site_code_misses = (
            None if cluster is None or cluster.redis is None else SiteCodeMisses(cluster.redis)
        )
        """The same across every process of the cluster (none: one process)."""
        self.replays: collections.OrderedDict[str, bytes] = collections.OrderedDict()
        """The replay frames of finished games, as JSON, the last ``REPLAYS_KEPT`` asked for."""
        self.cluster = cluster
        self.followers = None if cluster is None else PartyFollowers(cluster)
        """In a cluster: the parties in memory whose changes by other processes are followed."""
        self.closing = False
        """Set once ``close`` has begun."""
        self.remote: dict[str, RemoteTable] = {}
        """Tables another process owns that sockets of this one use, relayed."""
        self.games_over: list[Callable[[Table], Awaitable[None]]] = []
        """Told of each party's table whose game ended here (an arena's results)."""
        self.bots = BotDesk()
        """The programs' accounts online in this process, their invitations and games."""
        self.ranked = RankedChecks(store, now, self.started)
        """Whether accounts play a ranked game now, or wait before the next."""
        self.party_changes: list[Callable[[Party], Awaitable[None]]] = []
        """Told of each party's change after its members (the open tables)."""
        self.drop_grace_s: float | None = None
        self.bye_grace_s: float | None = None
        """The tables' graces for people who are away (``None``: the tables' defaults)."""

    async def get(self, table_id: str) -> Table:
        """The table of this id, restored from the store if it is not in memory.

        Restoring replays the whole game, so it runs in a worker, off the event loop. In a
        cluster, this process first takes the table's lease: ``OwnedElsewhere`` when another
        process owns it.
        """
        table = self.tables.get(table_id)
        if table is not None and table.gone.is_set():  # it lost the table to another owner
            await self.lost(table_id)
            table = None
        if table is None:
            await self._claim(table_id)
            restored = await restore_table(
                self.store, table_id, self.workers, sleep=self.sleep, now=self.now
            )
            await self._fit(restored)
            # another request may have restored it meanwhile: keep the first one
            table = self.tables.setdefault(table_id, restored)
            if table is restored:
                await self._serve_relayed(table)
        self.last_used[table_id] = self.clock()
        return table

    async def serving(self, table_id: str) -> Table | RemoteTable:
        """The table for a socket: this process's own, or relayed from its owner."""
        try:
            return await self.get(table_id)
        except OwnedElsewhere as elsewhere:
            assert self.cluster is not None
            remote = self.remote.get(table_id)
            if remote is None or remote.gone.is_set():
                settings = await asyncio.to_thread(self.store.settings, table_id)
                if settings is None:
                    raise TableError(f"There is no table {table_id!r}.") from None
                remote = RemoteTable(self.cluster.bus, table_id, settings, self.cluster.process)
                self.remote[table_id] = remote
                epoch = elsewhere.holder.epoch if elsewhere.holder is not None else 0
                watch = self._watch_owner(remote, epoch)
                remote.watcher = asyncio.get_running_loop().create_task(watch)
            return remote

    async def readable(self, table_id: str) -> Table:
        """The table to read (a view, a record): this process's own, or rebuilt from the store.

        When another process owns it, the store has every action it acknowledged.
        """
        try:
            return await self.get(table_id)
        except OwnedElsewhere:
            return await restore_table(
                self.store, table_id, self.workers, sleep=self.sleep, now=self.now
            )

    async def _watch_owner(self, remote: RemoteTable, epoch: int) -> None:
        """Relay until the owner changes (it died, or let the table go).

        Then the relayed sockets close with ``MOVED``, and reconnect to the next owner.
        """
        assert self.cluster is not None
        while True:
            await asyncio.sleep(self.cluster.lease_s / 3)
            holder = await self.cluster.leases.holder(remote.id)
            if holder is None or holder.epoch != epoch:
                break
        remote.gone.set()
        if self.remote.get(remote.id) is remote:
            del self.remote[remote.id]
        await remote.stop()

    async def _claim(self, table_id: str) -> None:
        """In a cluster: own the table from now on, before reading it or writing to it.

        Its lease is taken (``OwnedElsewhere`` when another process holds it) and its epoch
        raised in the store, above any earlier owner's.
        """
        if self.cluster is None:
            return
        stored = await asyncio.to_thread(self.store.epoch, table_id)
        lease = await self.cluster.acquire(table_id, after=stored)
        try:
            await asyncio.to_thread(self.store.own, table_id, lease.epoch)
        except StaleOwner:
            await self.cluster.release(table_id)
            raise OwnedElsewhere(table_id, None) from None

    async def _serve_relayed(self, table: Table) -> None:
        """In a cluster, carry out the intents other processes relay to this table."""
        if self.cluster is not None:
            await self.cluster.desk.serve(table)

    async def open_table(
        self, settings: TableSettings, token_hashes: dict[int, str], client: str | None = None
    ) -> Table:
        """A new table, dealt, stored and served by this process.

        Its seats are held by the tokens whose hashes are ``token_hashes``; ``client`` is who
        asked for it (see ``Table``). In a cluster the table is leased, and its relayed
        intents listened for, before it is stored: a table this process cannot own (Redis out
        of reach) is refused with no row left behind, one whose row cannot be written
        leaves no lease, and the row is written with its owner's epoch.
        """
        table = fresh_table(
            self.store, settings, self.workers, sleep=self.sleep, now=self.now, client=client
        )
        await self._fit(table)
        if self.cluster is None:
            await table.dealer.store_new(token_hashes)
        else:
            lease = await self.cluster.acquire(table.id)
            try:
                await self._serve_relayed(table)
                await table.dealer.store_new(token_hashes, epoch=lease.epoch)
            except BaseException:
                await self.cluster.release(table.id)
                raise
        self.tables[table.id] = table
        self.last_used[table.id] = self.clock()
        return table

    async def lost(self, table_id: str) -> None:
        """This process lost the table's lease: it stops playing it at once.

        Its sockets close with ``MOVED``, so that pages reconnect to the new owner.
        """
        table = self.tables.pop(table_id, None)
        self.last_used.pop(table_id, None)
        self.store.disown(table_id)
        if self.cluster is not None:
            await self.cluster.release(table_id)
        if table is not None:
            table.gone.set()
            await table.stop()

    async def replay(self, table: Table) -> bytes:
        """A finished game's replay frames as JSON: made once, in a worker, then kept."""
        made = self.replays.get(table.id)
        if made is None:
            made = await self.workers.run(replay_frames_json, table.record_json())
            self.replays[table.id] = made
            while len(self.replays) > REPLAYS_KEPT:
                self.replays.popitem(last=False)
        self.replays.move_to_end(table.id)
        return made

    async def _fit(self, table: Table) -> None:
        """Give a table the lobby's graces, and a party's table its rematch."""
        if self.drop_grace_s is not None:
            table.keeper.drop_grace_s = self.drop_grace_s
        if self.bye_grace_s is not None:
            table.keeper.bye_grace_s = self.bye_grace_s
        code = table.settings.party
        if code is None:
            return
        party = await self.party(code)
        if party is None:
            return
        table.asides.on_rematch = self._rematch
        table.on_game_over = self._game_over
        if party.record.table not in (None, table.id):
            table.asides.next_table = party.record.table

    # ----- parties ---------------------------------------------------------------------------

    async def party(self, code: str) -> Party | None:
        """The party of this code (read without regard to case), if there is one.

        A party nobody has come back to for ``PARTY_IDLE_S`` is closed as it is found.
        """
        code = code.upper()
        party = self.parties.get(code)
        if party is None:
            stored = await asyncio.to_thread(self.store.parties.get, code)
            if stored is None:
                return None
            record = PartyRecord.model_validate_json(stored.party)
            party = self.parties.setdefault(code, self._party(record))
            await self._follow(party)
            if record.state != "closed" and party.idle_since(stored.updated, self.now()):
                closed = record.model_copy(update={"state": "closed"})
                await self._save(closed)
                party.record = closed
        return party

    def _party(self, record: PartyRecord) -> Party:
        party = Party(record, self._save)
        if self.cluster is not None:
            party.shared = SharedParties(self.cluster, self.store)

        def present(seat: int) -> bool:
            table_id = party.record.table or ""
            table = self.tables.get(table_id) or self.remote.get(table_id)
            return table is not None and bool(table.listeners.get(seat))

        party.present = present

        async def give_seat(table_id: str, seat: int, hashed: str) -> None:
            await asyncio.to_thread(self.store.add_seat, table_id, seat, hashed)

        party.give_seat = give_seat
        party.busy = self.ranked.busy
        party.waits = self.ranked.waits
        party.on_change = self._changed
        return party

    async def _changed(self, party: Party) -> None:
        for listener in self.party_changes:
            await listener(party)

    async def _follow(self, party: Party) -> None:
        """In a cluster, show the party's members here each change another process made."""
        if self.followers is not None and not self.closing:
            await self.followers.follow(party)

    async def _save(self, record: PartyRecord) -> None:
        await asyncio.to_thread(self.store.parties.save, record.code, record.model_dump_json())

    async def new_party(
        self, request: NewParty, account: Account | None = None
    ) -> tuple[Party, Member, str]:
        """A new party with its host (bound to ``account`` if signed in); their member and token.

        ``PartyError`` for a ranked party whose host is not signed in or that has no timer.
        """
        rules = dict(request.rules or {})
        if request.ranked and account is None:
            raise PartyError("ranked_sign_in")
        if request.ranked and request.turn_timer is None:
            raise PartyError("ranked_timer")
        for _ in range(CODE_ATTEMPTS):
            code = new_code()
            record = PartyRecord(
                code=code,
                key=new_key(),
                host=0,
                members=(),
                next_id=0,
                preset=request.preset,
                rules=checked_rules(request.preset, rules),
                turn_timer=request.turn_timer,
                spectators=request.spectators,
                ranked=request.ranked,
                program_pool=request.program_pool,
                listed=request.listed,
                seed=request.seed,
            )
            kept = await asyncio.to_thread(
                self.store.parties.save, code, record.model_dump_json(), new=True
            )
            if kept:
                party = self.parties.setdefault(code, self._party(record))
                await self._follow(party)
                member, token = await party.join(request.name, account)
                return party, member, token
        raise RuntimeError("No free party code was found.")  # 1 in 2**30 per try: never

    async def make_party_table(self, settings: TableSettings, hashes: dict[int, str]) -> str:
        """A party's table, made, stored and served: its id. The programs at it are told."""
        table = await self.open_table(settings, hashes)
        code = settings.party or ""
        await self.bots.started(self._programs(code), code, table.id)
        return table.id

    async def _game_over(self, table: Table) -> None:
        code = table.settings.party or ""
        await self.bots.ended(self._programs(code), code, table.id)
        for listener in self.games_over:
            await listener(table)

    def _programs(self, code: str) -> list[int]:
        """The programs' accounts among a party's members (in memory here)."""
        party = self.parties.get(code)
        if party is None:
            return []
        return [each.account for each in party.record.members if each.program and each.account]

    async def _rematch(self, table: Table) -> str:
        party = await self.party(table.settings.party or "")
        if party is None:
            raise RuntimeError(f"The party of table {table.id} is gone.")
        dealer = (table.game.logs[-1].dealer + 1) % table.game.seat_count
        return await party.rematch(table.id, dealer, self.make_party_table)

    async def evict_idle(self) -> int:
        """Let go of the tables nobody watches and nobody has asked for in a while.

        They are rebuilt from the store on the next request. Sweeps at most every
        ``SWEEP_EVERY_S`` (or the idle time, if shorter); the number of tables let go.
        """
        now = self.clock()
        if now - self.last_sweep < self.sweep_every_s:
            return 0
        self.last_sweep = now
        idle = [
            table_id
            for table_id, table in self.tables.items()
            if not table.is_watched() and now - self.last_used[table_id] >= self.idle_table_s
        ]
        for table_id in idle:
            await self.tables.pop(table_id).stop()
            del self.last_used[table_id]
            self.store.disown(table_id)
            if self.cluster is not None:
                await self.cluster.release(table_id)
        # a party nobody has open, whose table has left memory, is read again when asked for
        # (and closed then if nobody came back for PARTY_IDLE_S)
        for code, party in list(self.parties.items()):
            if not party.listeners and party.record.table not in self.tables:
                del self.parties[code]
                if self.followers is not None:
                    await self.followers.unfollow(code)
        return len(idle)

    async def close(self) -> None:
        """Stop every table's task (and, in a cluster, hand the tables to the others).

        In a cluster, the tables' sockets first close with ``MOVED``: their pages reconnect to
        the other processes, which take the tables as soon as the leases are released.
        """
        self.closing = True  # no party is followed from now on (the bus is about to go)
        for table in self.tables.values():
            if self.cluster is not None:
                table.gone.set()
            await table.stop()
        for remote in list(self.remote.values()):
            remote.gone.set()
            await remote.stop()
        if self.followers is not None:
            await self.followers.close()
        if self.cluster is not None:
            await self.cluster.aclose()
