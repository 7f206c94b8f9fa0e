"""Arenas: tournaments for people that run for a set time, pairing players as they come free.

An arena is made with its rules, turn timer, table size, start and length. Signed-in players
join it from its page; while the arena runs, a player whose page is open, who is not paused
and not at one of its tables waits, and every ``TICK_S`` the waiting are seated together as
quick pairing seats them (by rating; ``rummykit.ratings.tables_to_make``). Each game's places
score by ``rummykit.ratings.arena``. At the end no table is made any more; games still going
count when they end, and the first of the standings wins.

Every change is stored before it is told (the arena's JSON in the store's ``arenas`` table),
so a restart finds each arena as it stood, its clock the wall clock's. On a site of several
processes, every process runs the rounds of every arena, and each change is made under the
arena's lock (shared by the processes) on the arena read again from the store, so that one
change follows another whichever process makes it and no player is seated twice. Who has an
arena's page open is shared on a board (``rummykit.server.pairing.arena_pages``); a process
tells its own pages of a change made elsewhere at its next round.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import secrets
from typing import Final

from pydantic import Field

from rummykit.core.errors import RulesError
from rummykit.core.rules import Scoring
from rummykit.protocol import (
    ArenaMessage,
    ArenaStanding,
    ArenaView,
    NewArena,
    PairedMessage,
    RuleValue,
    Strict,
    TurnTimer,
    detail_params,
)
from rummykit.ratings import Pool, Seeker, final_order, tables_to_make
from rummykit.ratings.arena import ArenaScore, standings
from rummykit.server.cluster import Board, Locks, Post
from rummykit.server.pairing.arena_pages import ArenaPages, Watcher
from rummykit.server.pairing.quick_pairing import INLINE_SEEKERS, RatingNow
from rummykit.server.pairing.seating import Terms, seat_together
from rummykit.server.parties import Lobby, PartyError
from rummykit.server.runtime import going_on
from rummykit.server.store import Account, Now, SeatFigures, Store
from rummykit.server.tables import Sleep, Table, rules_in_play

TICK_S: Final = 1.0
"""Seconds between an arena's rounds: its start and end, and the pairing of the waiting."""

ARENAS_AT_ONCE: Final = 2
"""Arenas one account may have upcoming or running at once: enough to plan the next, too few
to fill the list."""


class ArenaPlayer(Strict):
    """A player of an arena, as stored."""

    account: int
    name: str
    rating: int
    points: int = 0
    games: int = 0
    wins: int = 0
    run: int = 0
    paused: bool = False
    free_since: float = 0.0
    """When the player last came free (joined, or their game ended): the longest free is
    seated first."""

    @property
    def score(self) -> ArenaScore:
        """The player's score, to add a game to."""
        return ArenaScore(self.points, self.games, self.wins, self.run)


class ArenaRecord(Strict):
    """An arena as stored."""

    id: str
    name: str
    creator: str
    preset: str
    rules: dict[str, RuleValue]
    turn_timer: TurnTimer
    seats: int
    minutes: int
    starts: float
    ends: float
    players: dict[str, ArenaPlayer] = Field(default_factory=dict)
    """By account id (as text: JSON keys)."""
    tables: dict[str, list[int]] = Field(default_factory=dict)
    """The games going on: table id to the accounts at it."""
    games: int = 0
    finished: bool = False
    winner: str | None = None


class Arenas:
    """The arenas of the site, and the pages of this process watching them."""

    def __init__(
        self,
        lobby: Lobby,
        store: Store,
        rating_now: RatingNow,
        now: Now,
        sleep: Sleep,
        *,
        board: Board,
        locks: Locks,
        post: Post,
    ) -> None:
        """Tables are made in ``lobby``; arenas kept in ``store``; time is ``now``'s.

        ``board`` and ``locks`` are shared with the site's other processes: who has a page
        open, and one change of an arena at a time; seats for their pages go by ``post``.
        """
        self._lobby = lobby
        self._store = store
        self._rating_now = rating_now
        self._now = now
        self._sleep = sleep
        self._locks = locks
        self._arenas: dict[str, ArenaRecord] = {}
        """Each arena as last read or written here."""
        self._told: dict[str, ArenaView] = {}
        """What this process's pages of each arena were last sent (``me`` aside)."""
        self._pages = ArenaPages(board, post, now)
        self._ticker: asyncio.Task[None] | None = None
        lobby.games_over.append(self._game_over)

    def start(self) -> None:
        """Read the unfinished arenas from the store, and run them (in a task of its own)."""
        self._ticker = asyncio.get_running_loop().create_task(self._resume())

    async def _resume(self) -> None:
        with going_on("reading the unfinished arenas"):
            await self._read_unfinished()
        await self._tick_while_running()

    def _running(self) -> bool:
        return any(not each.finished for each in self._arenas.values())

    def _run(self) -> None:
        """Run the rounds while an arena known here is unfinished (one made or seen)."""
        if self._running() and (self._ticker is None or self._ticker.done()):
            self._ticker = asyncio.get_running_loop().create_task(self._tick_while_running())

    async def stop(self) -> None:
        """Stop the rounds (the server stops; the arenas stay stored)."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker

    # ----- reading ---------------------------------------------------------------------------

    async def _read(self, arena_id: str) -> ArenaRecord | None:
        """The arena as stored now."""
        text = await asyncio.to_thread(self._store.arenas.get, arena_id)
        if text is None:
            return None
        record = ArenaRecord.model_validate_json(text)
        self._arenas[arena_id] = record
        self._run()
        return record

    async def _read_unfinished(self) -> list[ArenaRecord]:
        """The unfinished arenas as stored.

        Those known here that ended meanwhile (another process ended them) are read again.
        """
        records = [
            ArenaRecord.model_validate_json(text)
            for text in await asyncio.to_thread(self._store.arenas.unfinished)
        ]
        unfinished = {each.id for each in records}
        self._arenas.update((each.id, each) for each in records)
        for arena_id, known in list(self._arenas.items()):
            if arena_id not in unfinished and not (known.finished and not known.tables):
                await self._read(arena_id)
        return records

    async def find(self, arena_id: str) -> ArenaRecord | None:
        """An arena by id, as stored."""
        return await self._read(arena_id)

    async def listed(self) -> list[ArenaView]:
        """The upcoming and running arenas, then the lately finished."""
        recent = await asyncio.to_thread(self._store.arenas.recent)
        finished = [ArenaRecord.model_validate_json(text) for text in recent]
        stored = {each.id for each in finished}
        going = sorted(
            (each for each in await self._read_unfinished() if each.id not in stored),
            key=lambda each: (each.finished, each.starts),
        )
        return [self.view(each, None) for each in [*going, *finished]]

    def view(self, record: ArenaRecord, me: Account | None) -> ArenaView:
        """The arena as a page of ``me`` sees it."""
        now = self._now()
        playing = {account for accounts in record.tables.values() for account in accounts}
        present = self._pages.present(record.id)
        ranked = standings(
            (player, player.name, player.score) for player in record.players.values()
        )
        return ArenaView(
            id=record.id,
            name=record.name,
            creator=record.creator,
            preset=record.preset,
            rules=record.rules,
            turn_timer=record.turn_timer,
            seats=record.seats,
            minutes=record.minutes,
            state="finished"
            if record.finished
            else "running"
            if now >= record.starts
            else "upcoming",
            starts_in_s=max(0, round(record.starts - now)),
            ends_in_s=0 if record.finished else max(0, round(record.ends - now)),
            standings=tuple(
                ArenaStanding(
                    name=player.name,
                    points=player.points,
                    games=player.games,
                    wins=player.wins,
                    on_fire=score.on_fire,
                    playing=player.account in playing,
                    paused=player.paused or player.account not in present,
                )
                for player, _, score in ranked
            ),
            games=record.games,
            winner=record.winner,
            me=None if me is None or str(me.id) not in record.players else me.name,
        )

    # ----- changes ---------------------------------------------------------------------------

    async def create(self, request: NewArena, account: Account) -> ArenaRecord:
        """A new arena made by ``account``; ``PartyError`` when its rules cannot be played."""
        try:
            in_play = rules_in_play(request.preset, dict(request.rules or {}))
        except RulesError as error:
            raise PartyError("rules_refused", **detail_params(error)) from None
        if request.seats not in in_play.seats:
            raise PartyError("arena_seats", seats=request.seats)
        async with self._locks(f"arenas-of:{account.id}"):
            mine = [each for each in await self._read_unfinished() if each.creator == account.name]
            if sum(not each.finished for each in mine) >= ARENAS_AT_ONCE:
                raise PartyError("arena_limit", count=ARENAS_AT_ONCE)
            starts = self._now() + 60 * request.starts_in_min
            record = ArenaRecord(
                id=secrets.token_urlsafe(6),
                name=request.name,
                creator=account.name,
                preset=request.preset,
                rules=in_play.rules,
                turn_timer=request.turn_timer,
                seats=request.seats,
                minutes=request.minutes,
                starts=starts,
                ends=starts + 60 * request.minutes,
            )
            await self._save(record)
        self._run()
        return record

    async def _save(self, record: ArenaRecord) -> None:
        """Store the arena, then tell this process's pages."""
        self._arenas[record.id] = record
        done = record.finished and not record.tables
        await asyncio.to_thread(
            functools.partial(
                self._store.arenas.save,
                record.id,
                record.model_dump_json(),
                name=record.name,
                finished=done,
                winner=record.winner if done else None,
            )
        )
        await self._tell_all(record.id)

    async def watch(self, record: ArenaRecord, watcher: Watcher) -> None:
        """Send a page the arena now and after every change."""
        self._arenas.setdefault(record.id, record)
        await self._pages.add(record.id, watcher)
        await watcher.send(ArenaMessage(v=0, d=self.view(record, watcher.account)))
        if watcher.account is not None and str(watcher.account.id) in record.players:
            await self._tell_all(record.id)  # present again

    async def unwatch(self, arena_id: str, watcher: Watcher) -> None:
        """A page closed; a finished arena nobody here watches leaves memory."""
        await self._pages.remove(arena_id, watcher)
        record = self._arenas.get(arena_id)
        if record is not None and record.finished and not self._pages.of(arena_id):
            self._arenas.pop(arena_id, None)
            self._told.pop(arena_id, None)
            self._pages.forget(arena_id)
        else:
            await self._tell_all(arena_id)

    async def _tell_all(self, arena_id: str) -> None:
        """Send every page of the arena here the arena as it stands, if that changed."""
        record = self._arenas.get(arena_id)
        if record is None:
            return
        shared = self.view(record, None)  # made once; each page's differs only in ``me``
        told = self._told.get(arena_id)
        if told is not None and told == shared.model_copy(
            update={"starts_in_s": told.starts_in_s, "ends_in_s": told.ends_in_s}
        ):
            return  # only the countdowns moved: each page counts down by itself
        self._told[arena_id] = shared
        for each in self._pages.of(arena_id):
            me = each.account
            mine = me.name if me is not None and str(me.id) in record.players else None
            with going_on("sending an arena's standings"):
                await each.send(ArenaMessage(v=0, d=shared.model_copy(update={"me": mine})))

    async def join(self, arena_id: str, account: Account) -> None:
        """``account`` plays in the arena (again, after a pause)."""
        async with self._locks(f"arena:{arena_id}"):
            record = await self._read(arena_id)
            if record is None or record.finished:
                raise PartyError("arena_over")
            key = str(account.id)
            player = record.players.get(key)
            if player is None:
                scoring = Scoring(
                    str(rules_in_play(record.preset, record.rules).in_play["scoring"])
                )
                rating, _ = await self._rating_now(account.id, Pool.of(scoring))
                player = ArenaPlayer(account=account.id, name=account.name, rating=rating)
            joined = player.model_copy(update={"paused": False, "free_since": self._now()})
            await self._save(record.model_copy(update={"players": {**record.players, key: joined}}))

    async def pause(self, arena_id: str, account: Account) -> None:
        """``account`` is not paired for now."""
        async with self._locks(f"arena:{arena_id}"):
            record = await self._read(arena_id)
            player = None if record is None else record.players.get(str(account.id))
            if record is None or player is None:
                return
            players = {
                **record.players,
                str(account.id): player.model_copy(update={"paused": True}),
            }
            await self._save(record.model_copy(update={"players": players}))

    # ----- the rounds ------------------------------------------------------------------------

    async def _tick_while_running(self) -> None:
        while self._running():
            await self._sleep(TICK_S)
            with going_on("an arena's round"):  # a fault of one round must not stop the next
                await self.tick()

    async def tick(self) -> None:
        """One round of every arena: started, ended, or its waiting players seated.

        Then this process's pages are told of what changed, here or elsewhere, and given the
        seats found for them elsewhere.
        """
        now = self._now()
        for record in await self._read_unfinished():
            if record.finished or now < record.starts:
                continue
            async with self._locks(f"arena:{record.id}"):
                fresh = await self._read(record.id)
                if fresh is None or fresh.finished:
                    continue
                if now >= fresh.ends:
                    ended = {"finished": True, "winner": _first(fresh)}
                    await self._save(fresh.model_copy(update=ended))
                else:
                    await self._pages.share(fresh.id)
                    await self._pair(fresh, now)
        for arena_id in self._pages.arenas():
            await self._pages.share(arena_id)
            await self._pages.collect_seats(arena_id)
            await self._tell_all(arena_id)

    def _waiting(self, record: ArenaRecord) -> list[ArenaPlayer]:
        playing = {account for accounts in record.tables.values() for account in accounts}
        present = self._pages.present(record.id)
        return [
            player
            for player in record.players.values()
            if not player.paused and player.account in present and player.account not in playing
        ]

    async def _pair(self, record: ArenaRecord, now: float) -> None:
        seekers = [
            Seeker(player, float(player.rating), player.free_since)
            for player in self._waiting(record)
        ]
        if len(seekers) > INLINE_SEEKERS:  # a crowd is paired off the event loop
            tables = await asyncio.to_thread(tables_to_make, seekers, record.seats, now)
        else:
            tables = tables_to_make(seekers, record.seats, now)
        for table in tables:
            players = [seeker.key for seeker in table]
            terms = Terms(record.preset, record.turn_timer, ranked=True, rules=record.rules)
            try:
                accounts = [await self._account(player) for player in players]
                seats = await seat_together(
                    self._lobby,
                    terms,
                    [
                        (player.name, account)
                        for player, account in zip(players, accounts, strict=True)
                    ],
                )
            except PartyError:
                continue  # a ranked check failed (a game elsewhere): they wait for the next round
            tables_now = {**record.tables, seats[0].table: [player.account for player in players]}
            record = record.model_copy(update={"tables": tables_now})
            await self._save(record)
            for player, seat in zip(players, seats, strict=True):
                await self._pages.tell_seat(record.id, player.account, PairedMessage(v=0, d=seat))

    async def _outcome(self, table: Table) -> tuple[list[int], set[int]]:
        """Each seat's place in a game (0: first), as its rating counted it; the seats away.

        Away: the computer played the seat for the most part (its player never came, or
        left). A seat that left, or that the computer mostly played, ranks below the others whatever
        its total. An unrated game (no whole deal) ranks by the totals, and no seat is away.
        """
        rated = await asyncio.to_thread(self._store.rated_games.of_game, table.id)
        if rated:
            rows = sorted(rated, key=lambda row: int(row["seat"]))
            away = {
                seat
                for seat, row in enumerate(rows)
                if SeatFigures.from_json(json.loads(row["figures"] or "{}")).mostly_computer()
            }
            return [int(row["rank"]) for row in rows], away
        lower_wins = table.rules.scoring is Scoring.PENALTY
        return list(final_order(list(table.game.scores), lower_wins, left=table.left)), set()

    async def _account(self, player: ArenaPlayer) -> Account:
        account = await asyncio.to_thread(self._store.accounts.named, player.name)
        if account is None:
            raise PartyError("player_unknown", name=player.name)
        return account

    async def _game_over(self, table: Table) -> None:
        """A game ended: if an arena's, its places score."""
        known = next((each for each in self._arenas.values() if table.id in each.tables), None)
        if known is None:
            return
        async with self._locks(f"arena:{known.id}"):
            record = await self._read(known.id)
            if record is None or table.id not in record.tables:
                return
            accounts = record.tables[table.id]
            ranks, away = await self._outcome(table)
            players = dict(record.players)
            now = self._now()
            for seat, account in enumerate(accounts):
                player = players[str(account)]
                tied = ranks.count(ranks[seat]) > 1
                place = ranks[seat] + 1  # final_order counts from 0
                score = player.score.after_game(place, tied=tied, seats=len(accounts))
                # a player the computer stood in for is not seated again until they rejoin
                paused = player.paused or seat in away
                players[str(account)] = player.model_copy(
                    update={**dataclasses.asdict(score), "free_since": now, "paused": paused}
                )
            tables = {key: value for key, value in record.tables.items() if key != table.id}
            record = record.model_copy(
                update={"players": players, "tables": tables, "games": record.games + 1}
            )
            if record.finished:
                record = record.model_copy(update={"winner": _first(record)})
            await self._save(record)


def _first(record: ArenaRecord) -> str | None:
    """The first of the standings, once someone has played a game."""
    ranked = standings((player, player.name, player.score) for player in record.players.values())
    return ranked[0][1] if ranked and ranked[0][2].games else None
