"""One table: the single task that changes it, its seats, its bots and its listeners.

Everything that would change the game (a browser's intent, a bot's move) goes through the
table's queue and is applied in order by its one task: the engine checks it, the store
commits it, and only then is it acknowledged and every seat sent its own view. The store is
written in a thread (a commit waits for the disk; the event loop must not), and the computer
players think in worker processes (``rummykit.server.runtime.workers``).

The computer waits its pace before each action through the table's ``sleep``: ``asyncio.sleep``
in production, a clock the test moves by hand in the tests.

A table seats people (each holding a seat's token) and computer players. It is made of parts
it owns, each an object with one job that reads the table and asks it to play:

- ``keeper`` (``TurnKeeper``): the turn timer, the people away, the computer standing in;
- ``between`` (``BetweenDeals``): the wait for the next deal at a table of several people;
- ``asides`` (``Asides``): hints, reactions, leaving for good, rematches;
- ``audience`` (``Broadcast``): each viewer's frames, and the events kept for those who come
  back (the last ``RECENT_EVENTS``), in each viewer's words (``table_words``);
- ``dealer`` (``Dealer``): each deal shuffled, stored and adopted; a stored game rebuilt;
- ``intents`` (``Intents``): the seats' intents, each numbered ``n`` carried out once.

Every view, for a seat or a spectator, is ``rummykit.protocol.views.seat_view``. A new table
is ``deal_new_table`` (or ``fresh_table``, then ``dealer.store_new``); a stored one,
``restore_table``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from rummykit.core.actions import (
    Action,
)
from rummykit.core.observation import observe
from rummykit.core.presets import Preset, preset_with_overrides
from rummykit.core.record import record_of
from rummykit.core.rules import Rules
from rummykit.core.state import GameState
from rummykit.protocol import (
    BOT_LEVELS,
    DEFAULT_PACE_MS,
    BotLevel,
    BotPlayer,
    ClientMessage,
    HumanPlayer,
    Player,
    Presence,
    SeatView,
    TableSettings,
    Viewer,
    refused,
    seat_view,
)
from rummykit.ratings import Pool
from rummykit.server.cluster import StaleOwner
from rummykit.server.runtime import WorkerPool, decide, going_on, limit_logging
from rummykit.server.store import (
    Now,
    Played,
    RatedGame,
    Store,
    is_unavailable,
    note_outage,
    token_hash,
)
from rummykit.server.tables.broadcast import Broadcast
from rummykit.server.tables.dealing import Dealer
from rummykit.server.tables.intents import Intents, answering
from rummykit.server.tables.new_table import TableError, new_table_settings
from rummykit.server.tables.next_deal import NEXT_DEAL_WAIT_S, BetweenDeals
from rummykit.server.tables.table_asides import Asides, quietly
from rummykit.server.tables.table_words import (
    is_back,
    restarted,
    stock_told,
)
from rummykit.server.tables.turn_keeper import (
    RESTART_GRACE_S,
    STAND_IN,
    Expiry,
    Send,
    TurnKeeper,
    Wake,
    Work,
)

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_PACE_MS",
    "NEXT_DEAL_WAIT_S",
    "RESTART_GRACE_S",
    "Expiry",
    "Send",
    "Sleep",
    "Table",
    "TableError",
    "new_table_settings",
    "table_client",
]

Sleep = Callable[[float], Awaitable[None]]
"""Waits so many seconds: ``asyncio.sleep``, or a test's clock."""

RematchHook = Callable[["Table"], Awaitable[str]]
"""Makes (or finds) a party's next table once this one's game is over: its id."""

MAX_CLIENTS_KEPT: Final = 64
"""The clients whose last intent numbers a table keeps: far more pages than its seats hold."""

RECENT_EVENTS: Final = 256
"""Events kept for connections that come back: a client that missed more gets the view."""

BOT_FAILURE_PAUSE_S: Final = 1.0
"""After a computer player fails, wait this long before it tries again, so that a bot that
keeps failing does not spin the table's task."""


logger = logging.getLogger("rummykit.table")
limit_logging(logger)  # one client's failing intents must not flood the log


def table_client(table_id: str, settings: TableSettings) -> str:
    """Whom a table's work is for when nobody said: its party, or else the table alone."""
    return f"party:{settings.party}" if settings.party else f"table:{table_id}"


def new_seat_token() -> tuple[str, str]:
    """A seat's new token, and its hash (all the store keeps of it)."""
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


class Table:
    """A game in progress and everything around it; only ``run`` changes the game."""

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        store: Store,
        workers: WorkerPool,
        *,
        sleep: Sleep = asyncio.sleep,
        now: Now = time.time,
        client: str | None = None,
    ) -> None:
        """A table from its settings (``deal_new_table`` deals it, ``restore_table`` rebuilds).

        The computer players think in ``workers`` and wait their pace with ``sleep`` (tests
        pass a clock they move by hand); ``now`` is the wall clock of the turn timer's
        deadlines (tests pass that clock's time, so that one clock moves both).
        ``client``: who opened the table (an address), whose turns in ``workers`` its
        computer players take; by default its party, or the table alone.
        """
        self.id = table_id
        self.settings = settings
        self.store = store
        self.workers = workers
        self.client = client or table_client(table_id, settings)
        """Whom the table's work in the pool is for: turns there are fair across clients."""
        self.sleep = sleep
        self.now = now
        preset, rules = preset_with_overrides(settings.rules)
        self.preset: Preset = preset
        self.rules: Rules = rules
        self.players: tuple[Player, ...] = settings.players
        self.practice = settings.practice
        self.pace_ms = settings.pace_ms
        self.rng: random.Random = (
            secrets.SystemRandom() if settings.seed is None else random.Random(settings.seed)
        )
        self.bots: dict[int, BotLevel] = {
            seat: player.level
            for seat, player in enumerate(self.players)
            if isinstance(player, BotPlayer)
        }
        self.humans = tuple(seat for seat in range(len(self.players)) if seat not in self.bots)
        self.left: set[int] = set(settings.left)
        """Seats whose people left for good: the computer plays them to the end."""
        for seat in self.left:
            self.bots[seat] = STAND_IN
        dealer = settings.dealer
        if dealer is None:
            dealer = self.rng.randrange(len(self.players))
        self.game = GameState(rules, len(self.players), dealer=dealer)
        self.version = 0
        self.listeners: dict[Viewer, set[Send]] = {}
        self.standing_in: set[int] = set()
        """Seats of people away past their grace: the computer plays their turns."""
        self.away_since: dict[int, float] = {seat: now() for seat in self.humans}
        """When each person away was last heard (everyone is away until a page opens)."""
        self.last_heard: dict[int, float] = {}
        """For a seat with pages still open: the latest moment one of its closed pages was
        heard (the seat's away time, should the others turn out to be dead too)."""
        self.said_bye: set[int] = set()
        self.queue: asyncio.Queue[Work] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.gone = asyncio.Event()
        """Set when this process no longer serves the table (another owns it now): its
        sockets close with ``MOVED``, and the pages reconnect to the new owner."""
        self.keeper = TurnKeeper(self, settings.turn_timer)
        """The turn timer, the people away, the computer standing in for them."""
        self.between = BetweenDeals(self)
        """The wait for the next deal, at a table of several people."""
        self.asides = Asides(self)
        """Hints, reactions, leaving for good, rematches."""
        self.audience = Broadcast(self)
        """The frames to the connections, and the events kept for those that come back."""
        self.dealer = Dealer(self)
        """Deals each deal, and rebuilds a stored game."""
        self.intents = Intents(self)
        """The seats' intents, each carried out once."""
        self.on_game_over: Callable[[Table], Awaitable[None]] | None = None
        """Told once the game is over (a party's lobby tells the programs at the table)."""

    # ----- making and restoring ------------------------------------------------------

    def names(self) -> list[str]:
        """The players' names, in seat order."""
        return [player.name for player in self.players]

    def record_json(self) -> dict[str, Any]:
        """The game record so far (the decks reveal every card: only for finished games)."""
        names = [player.name for player in self.players]
        return record_of(self.game, self.preset, names).to_json()

    # ----- listeners -----------------------------------------------------------------

    def presence(self) -> Presence:
        """Who is at the table now."""
        return Presence(
            connected=frozenset(seat for seat in self.humans if self.listeners.get(seat)),
            standing_in=frozenset(self.standing_in),
            left=frozenset(self.left),
            watchers=len(self.listeners.get(None, ())),
            paused=self.keeper.paused() and not self.game.game_over,
        )

    def view(self, seat: Viewer) -> SeatView:
        """Seat ``seat``'s view of the table (``None``: a spectator's)."""
        deadline = self.keeper.deadline if self.keeper.timed_seat() is not None else None
        between = self.between.wait()
        timed = deadline is not None or between.deadline is not None
        return seat_view(
            self.game,
            seat,
            self.players,
            table_id=self.id,
            preset=self.preset.name,
            practice=self.practice,
            pace_ms=self.pace_ms,
            turn_timer=self.keeper.turn_timer,
            deadline=deadline,
            server_now=self.now() if timed else None,
            party=self.settings.party,
            next_table=self.asides.next_table,
            presence=self.presence(),
            between=between,
        )

    async def join(
        self, seat: Viewer, send: Send, last: int | None = None, *, log: bool = False
    ) -> None:
        """Start sending ``seat``'s frames to a connection (``None``: a spectator's).

        First the events since version ``last`` (when they are all still kept; a client that
        saw nothing, or missed more, gets only the view; one ahead of the table is refused
        ``version_ahead``), then the whole view; with ``log``,
        then the current deal's story (``log``), rebuilt from the stored actions.
        """
        was_paused = self.keeper.paused()
        self.listeners.setdefault(seat, set()).add(send)
        back = seat is not None and seat in self.standing_in
        if seat is not None:
            self.standing_in.discard(seat)
            self.away_since.pop(seat, None)
            self.said_bye.discard(seat)
        if was_paused and not self.keeper.paused():
            if self.keeper.timed_seat() is not None:
                await self.keeper.give_grace()  # nobody was there to see the timer run
            await self.between.wait_grace()  # nor the countdown to the next deal
        if seat is not None:
            await self.keeper.start_held_clock(seat)  # their first sight of the deal
        for missed in self.audience.events_since(last, seat):
            await send(missed)
        if last is not None and last > self.version:  # a version this table never reached
            await send(refused(self.version, "version_ahead", sent=last, table=self.version))
        await send(self.audience.view_message(seat))
        if log:
            await send(self.audience.log_message(seat))
        timed = self.keeper.timed_seat()
        if self.keeper.restored_at == self.version and timed is not None:
            await send(self.audience.notice(restarted(timed, int(RESTART_GRACE_S)), seat))
        if back and seat is not None:
            await self.audience.announce(seat, is_back)
        await self.audience.broadcast(None, besides=send)  # everyone sees who is here
        await self.queue.put(Wake())
        self.ensure_running()

    async def leave(self, seat: Viewer, send: Send, heard: float | None = None) -> None:
        """Stop sending to a connection; a person whose last page closed is away.

        Away since the last moment any of their pages was heard: ``heard`` is when this
        connection was (``None``: now, as for a page that just closed). A connection found
        silent is closed a while after its last word; the grace counts from that word.
        """
        self.listeners.get(seat, set()).discard(send)
        if seat is None:
            return
        when = self.now() if heard is None else min(heard, self.now())
        when = max(when, self.last_heard.get(seat, when))
        if self.listeners.get(seat):
            self.last_heard[seat] = when  # the seat is still heard through another page
        else:
            self.last_heard.pop(seat, None)
            self.away_since[seat] = when
            await self.audience.broadcast(None)
            with contextlib.suppress(RuntimeError):  # no loop: the app is stopping
                await self.queue.put(Wake())

    def note_bye(self, seat: int) -> None:
        """The seat's page says it is being closed on purpose: a shorter grace."""
        self.said_bye.add(seat)

    def is_watched(self) -> bool:
        """Whether any connection is listening, or an intent waits to be handled."""
        return any(self.listeners.values()) or not self.queue.empty()

    # ----- the one task ------------------------------------------------------------------

    def ensure_running(self) -> None:
        """Start the table's task if it is not running."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        """Stop the table's task and its timer (the game and the deadline stay stored)."""
        self.keeper.disarm()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def submit(
        self, seat: int, message: ClientMessage, reply: Send, client: str = ""
    ) -> None:
        """Queue an intent from ``seat``; the answer goes to ``reply``.

        ``client``: the id the sender's hello gave, whose intent numbers these are.
        """
        self.ensure_running()
        await self.queue.put((seat, message, reply, client))

    def _bot_to_act(self) -> int | None:
        """The seat the computer plays now (a computer's, or a person's it stands in for)."""
        game = self.game
        if game.deal_over or self.keeper.paused():
            return None
        if game.turn not in self.bots and game.turn not in self.standing_in:
            return None
        return game.turn

    async def run(self) -> None:
        """Apply intents, expiries and bot moves in order, forever (until stopped)."""
        pacing: tuple[int, int, int] | None = None  # the computer's move whose pace runs
        pace: asyncio.Future[None] | None = None
        try:
            while True:
                self.keeper.arm()
                bot_seat = self._bot_to_act()
                key = None if bot_seat is None else (bot_seat, self.version, self.pace_ms)
                if key != pacing:
                    # the pace runs once for each move: an intent, or someone coming or
                    # going, meanwhile does not start it again
                    if pace is not None:
                        pace.cancel()
                    pacing = key
                    pace = (
                        None
                        if key is None
                        else asyncio.ensure_future(self.sleep(self.pace_ms / 1000))
                    )
                intent = await self._next_work(pace)
                await self._carry(intent, bot_seat)
        except StaleOwner:
            # another process owns the table now (this one was paused past its lease): it
            # plays no more, and its sockets close so that the pages reach the new owner
            logger.warning("table %s: another process owns it now; let go", self.id)
            self.gone.set()
        finally:
            if pace is not None:
                pace.cancel()

    async def _carry(self, intent: Work | None, bot_seat: int | None) -> None:
        """Carry out one piece of work; ``None``: the computer at ``bot_seat`` moves."""
        if isinstance(intent, Wake):
            # a page closed: nobody left reading may mean the next deal now
            await self._between_deals_check()
            return
        if isinstance(intent, Expiry):
            try:
                await self.keeper.expire(intent)
            except StaleOwner:
                raise
            except Exception as error:  # a failing stand-in must not take the table down
                self._failed(error, "table %s: the turn timer's expiry failed")
                await self.sleep(BOT_FAILURE_PAUSE_S)
        elif intent is None and bot_seat is not None:
            try:
                await self._bot_move(bot_seat)
            except StaleOwner:
                raise
            except Exception as error:  # a failing bot must not take the table down with it
                self._failed(error, "table %s: the computer at seat %s failed", bot_seat)
                await self.sleep(BOT_FAILURE_PAUSE_S)
        elif intent is not None:
            seat, message, reply, client = intent
            answer = answering(quietly(reply), message)  # its refusals name its ``n``
            try:
                await self.intents.handle(seat, message, answer, client, origin=reply)
                await self._between_deals_check()  # someone left for good, say
            except StaleOwner:
                raise
            except (
                Exception
            ) as error:  # one bad intent must never stop the table, nor go unanswered
                if is_unavailable(error):  # nothing was written or applied: it may be sent again
                    note_outage(error)  # one line for the whole outage
                    await answer(refused(self.version, "try_again"))
                    return
                logger.exception("table %s: an intent failed", self.id)
                await answer(refused(self.version, "unreadable"))

    def _failed(self, error: Exception, what: str, *args: object) -> None:
        """Log the table's own work failing (called in the ``except``), with its traceback.

        Not when the database is out of reach: the outage log says that once for all tables,
        and the work is tried again after the pause.
        """
        if not note_outage(error):
            logger.exception(what, self.id, *args)

    async def _between_deals_check(self) -> None:
        """Deal the next deal if nobody with a page open is still reading the summary."""
        try:
            await self.between.deal_if_everyone_is_ready()
        except StaleOwner:
            raise
        except Exception as error:  # the countdown deals it, or the next check
            self._failed(error, "table %s: the next deal could not be dealt")

    async def _next_work(self, pace: asyncio.Future[None] | None) -> Work | None:
        """The next piece of work; ``None`` if ``pace`` (the computer's wait) ends first.

        Work already queued always comes first; without a pace, wait for work.
        """
        if not self.queue.empty() or pace is None:
            return await self.queue.get()
        getting = asyncio.ensure_future(self.queue.get())
        try:
            await asyncio.wait((getting, pace), return_when=asyncio.FIRST_COMPLETED)
        finally:
            got = getting.done()
            if not got:
                getting.cancel()  # nothing was taken off the queue: it stays for the next turn
        return getting.result() if got else None

    async def _bot_move(self, seat: int) -> None:
        view = observe(self.game, seat)
        level = self.bots.get(seat, STAND_IN)
        budget = self.workers.search_budget_ms()
        seed = self.rng.random()
        action = await self.workers.run(decide, level, view, seed, budget, client=self.client)
        if self._bot_to_act() != seat:
            return  # the person came back (or everyone left) while it thought: dropped
        self.game.check(action)  # a worker's answer is checked like anyone's
        await self.play(action)

    async def play(self, action: Action, by: Played = Played.COMPUTER) -> None:
        """Apply a legal action: on a copy, then stored, then adopted and announced.

        ``by``: who played it (the store keeps it for the rated games' figures).
        """
        game = self.game.clone()
        shuffled_before = len(game.logs[-1].reshuffles)
        renewals_before = game.renewals_used
        stock_before = game.stock_count
        turn, deal = game.turn, len(game.logs)
        game.apply(action)
        log = game.logs[-1]
        deadline = self.keeper.deadline_of(
            game, same_turn=game.turn == turn and len(game.logs) == deal
        )
        await asyncio.to_thread(
            self.store.add_action,
            self.id,
            len(game.logs) - 1,
            len(log.actions) - 1,
            log.actions[-1],
            log.reshuffles[shuffled_before:],
            self.version + 1,
            finished=game_summary(self, game) if game.game_over else None,
            deadline=deadline,
            rated=rated_game(self, game) if game.game_over else None,
            seat=turn,
            by=by,
        )
        self.game = game
        self.keeper.deadline = deadline
        self.version += 1
        renewed = game.renewals_used > renewals_before
        before, after = stock_told(game, action, stock_before, renewed)
        await self.audience.broadcast(action, before=before, after=after)
        if game.game_over and self.on_game_over is not None:
            with going_on("telling that the game is over"):
                await self.on_game_over(self)


async def deal_new_table(
    store: Store,
    settings: TableSettings,
    workers: WorkerPool,
    *,
    sleep: Sleep = asyncio.sleep,
    now: Now = time.time,
    client: str | None = None,
) -> tuple[Table, str]:
    """A new table, stored, with its first deal dealt; and the human seat's token.

    ``client``: who asked for it (their address), for fair turns in ``workers``.
    """
    token, hashed = new_seat_token()
    table = await deal_new_table_with_seats(
        store, settings, workers, {0: hashed}, sleep=sleep, now=now, client=client
    )
    return table, token


async def deal_new_table_with_seats(
    store: Store,
    settings: TableSettings,
    workers: WorkerPool,
    token_hashes: dict[int, str],
    *,
    sleep: Sleep = asyncio.sleep,
    now: Now = time.time,
    client: str | None = None,
) -> Table:
    """A new table whose seats are held by tokens known by their hashes (a party's)."""
    table = fresh_table(store, settings, workers, sleep=sleep, now=now, client=client)
    await table.dealer.store_new(token_hashes)
    return table


def fresh_table(
    store: Store,
    settings: TableSettings,
    workers: WorkerPool,
    *,
    sleep: Sleep = asyncio.sleep,
    now: Now = time.time,
    client: str | None = None,
) -> Table:
    """A new table in memory only, under an id of its own.

    ``table.dealer.store_new`` deals and stores it (in a cluster, once its lease is taken:
    ``Lobby.open_table``).
    """
    table_id = secrets.token_urlsafe(9)
    return Table(table_id, settings, store, workers, sleep=sleep, now=now, client=client)


async def restore_table(
    store: Store,
    table_id: str,
    workers: WorkerPool,
    *,
    sleep: Sleep = asyncio.sleep,
    now: Now = time.time,
) -> Table:
    """A stored table rebuilt by replaying its record (in a worker: it may be long).

    A turn timer that was running gets at least ``RESTART_GRACE_S`` more, stored.
    """
    settings = await asyncio.to_thread(store.settings, table_id)
    if settings is None:
        raise TableError(f"There is no table {table_id!r}.")
    table = Table(table_id, settings, store, workers, sleep=sleep, now=now)
    deals = await asyncio.to_thread(store.deals, table_id)
    if deals:
        table.game = await table.dealer.replayed(deals)
    else:
        await table.dealer.deal()
    table.version = max(table.version, await asyncio.to_thread(store.version, table_id))
    table.audience.recent_from = table.version + 1
    await table.keeper.grace()
    await table.between.restore_wait()
    return table


def rated_game(table: Table, game: GameState) -> RatedGame | None:
    """What rates a ranked game that ``game`` finishes (``None``: not a ranked table).

    The store adds the seats the computer played for most of their turns (from who
    played each stored action): they rank last, as those that left.
    """
    accounts = table.settings.accounts
    if accounts is None:
        return None
    return RatedGame(
        table_id=table.id,
        pool=Pool.of(table.rules.scoring, programs=programs_pool(table.settings)),
        accounts=accounts,
        totals=tuple(game.scores),
        deals_completed=len(game.summaries),
        left=frozenset(table.left),
        deals=tuple(game.summaries),
    )


def programs_pool(settings: TableSettings) -> bool:
    """Whether a ranked table is rated in the programs' pool.

    It is when a program's account sits at it and its people did not choose theirs.
    """
    return settings.program_pool and any(
        isinstance(player, HumanPlayer) and player.program for player in settings.players
    )


def game_summary(table: Table, game: GameState) -> dict[str, Any]:
    """What the history page shows of a finished game."""
    return {
        "players": [player.name for player in table.players],
        "scores": list(game.scores),
        "winner": game.winner,
        "deals": len(game.summaries),
        "preset": table.preset.name,
    }
