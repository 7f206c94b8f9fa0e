"""Where tables live between requests and restarts: SQLite, an append-only log per table.

A table is its settings, its deals (dealer, deck, seed) and its actions in order; it is
rebuilt by replaying them as a game record. An action is committed before it is
acknowledged, so an acknowledged action survives a crash.

A seat's token is kept only as its SHA-256 (a token is 24 random bytes: no table of guesses
reaches it), and the database, its folder and its journal are the owner's alone: whoever
reads the file cannot take anyone's seat. A token works while its game goes on and for
``TOKEN_LIFETIME_S`` after it ends (to see the final view, the record and the replay); then
it is refused like one never issued, and deleted.

The store keeps wall-clock times (``time.time`` unless a test gives its own ``now``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from rummykit.core.cards import Card, parse_cards
from rummykit.protocol import FinishedGame, TableSettings
from rummykit.server.cluster import check_epoch
from rummykit.server.store import legacy_sqlite, migrate
from rummykit.server.store.accounts import SESSION_LIFETIME_S, Account, Accounts
from rummykit.server.store.arenas import Arenas
from rummykit.server.store.common import Now, token_hash
from rummykit.server.store.database import (
    Database,
    Session,
    SQLiteDatabase,
    hold_file,
    is_postgres_url,
    open_database,
)
from rummykit.server.store.parties import Parties
from rummykit.server.store.rated import RatedGame
from rummykit.server.store.rated_games import RatedGames
from rummykit.server.store.ratings import Ratings
from rummykit.server.store.reviews import Reviews
from rummykit.server.store.seat_figures import Played

__all__ = ["SESSION_LIFETIME_S", "Account", "Now", "Store", "token_hash"]

SCHEMA_VERSION = legacy_sqlite.LEGACY_VERSION
"""The last version of the hand-written upgrades of SQLite files (``legacy_sqlite``); the
schema goes on from there in Alembic revisions (``migrations/``)."""

TOKEN_LIFETIME_S: Final = 30 * 24 * 3600.0
"""How long a seat's token keeps working after its game ends: 30 days.

After the game the token only shows that game (its final view, record and replay), so this
is the time a player has to look back at it or download it; it is also how long a token that
leaked (a shared computer, a copied profile) tells anyone about the game. A month covers
coming back to last weekend's game; a host who wants games kept for all to see turns the
public history on.
"""

EXPIRY_SWEEP_S: Final = 3600.0
"""How often at most the expired seats are deleted in one sweep (a write): an expired token
is refused at once whenever it comes, so the sweep only keeps the file from growing."""

FirstDeal = tuple[int, Sequence[Card], int | None]
"""A table's first deal as stored with it: the dealer, the deck in order, the seed.

A deal without a seed (a live table's: its new stocks come from ``secrets``) is stored with
0, which a record reads as no seed given: every new stock is kept with the action that made
it (``actions.reshuffles``), so a replay never reaches the seed.
"""


class Store:
    """The store on SQLite (WAL) or PostgreSQL, safe to share between threads.

    Its methods block: the server calls them through ``asyncio.to_thread``.
    """

    def __init__(self, path: Path | str, *, now: Now = time.time, exclusive: bool = False) -> None:
        """Open (and create if needed) the database at ``path``, and migrate it.

        ``path``: a SQLite file, ``:memory:`` (tests), or a ``postgresql://`` URL.
        ``now`` is the wall clock that stamps tables and decides when a token has expired.
        ``exclusive``: this process serves the SQLite file, and no other may at the same time
        (``FileInUse`` if one does; see ``database.hold_file``).
        """
        self.path = str(path)
        self.now = now
        self.epochs: dict[str, int] = {}
        """The tables this process owns in a cluster, with its epoch for each (``own``)."""
        self._held = contextlib.ExitStack()
        if exclusive and _is_file(self.path):
            self._held.enter_context(hold_file(self.path))
        try:
            self._db: Database = open_database(self.path)
        except BaseException:
            self._held.close()
            raise
        self._migrate()
        self.accounts = Accounts(self._db, now, self._sweep_if_due)
        """The accounts, their sessions and networks."""
        self.parties = Parties(self._db, now)
        self.arenas = Arenas(self._db, now)
        """The parties."""
        self.ratings = Ratings(self._db)
        """The accounts' ratings, read (a ranked game's end writes them: ``rate_game``)."""
        self.reviews = Reviews(self._db, now)
        self.database = self._db
        """The database, for a wing that keeps tables of its own (``server.puzzles``)."""
        self.rated_games = RatedGames(self._db, now)
        """Ranked games: rated as they end, the ranked games left early, who plays one now."""
        """The reviews of finished games."""
        self._last_sweep = self.now()
        self.forget_expired()

    def _migrate(self) -> None:
        """Bring the schema to the newest revision (a SQLite file of before: by hand to 7)."""
        stamp = False
        if isinstance(self._db, SQLiteDatabase):
            raw = self._db.connection
            if legacy_sqlite.is_legacy_file(raw):
                legacy_sqlite.upgrade_to_7(raw, token_hash, TOKEN_LIFETIME_S)
            stamp = _has_table(raw, "tables") and not _has_table(raw, "alembic_version")
        migrate.upgrade(self._db, stamp_baseline=stamp)

    def _transaction(self) -> contextlib.AbstractContextManager[Session]:
        return self._db.transaction()

    def _read(self) -> contextlib.AbstractContextManager[Session]:
        return self._db.read()

    @contextlib.contextmanager
    def _writing(self, table_id: str) -> Iterator[Session]:
        """A transaction that writes to ``table_id``: fenced when this process owns it.

        An owner in a cluster (``own``) writes only while the table's stored epoch is not above
        its own: ``StaleOwner`` otherwise, and nothing is written. The check holds the table's
        lock until the commit, so a new owner's claim waits for it, and then wins.
        """
        with self._transaction() as db:
            mine = self.epochs.get(table_id)
            if mine is not None:
                self._db.serialize(db, f"table:{table_id}")
                row = db.execute("SELECT epoch FROM tables WHERE id = ?", (table_id,)).fetchone()
                check_epoch(None if row is None else int(row[0]), mine)
            yield db

    def own(self, table_id: str, epoch: int) -> None:
        """This process owns ``table_id`` at ``epoch`` (a lease's).

        The table's epoch is raised to it, so no earlier owner writes again; ``StaleOwner`` if
        a later one has claimed it.
        """
        with self._transaction() as db:
            self._db.serialize(db, f"table:{table_id}")
            row = db.execute("SELECT epoch FROM tables WHERE id = ?", (table_id,)).fetchone()
            check_epoch(None if row is None else int(row[0]), epoch)
            db.execute("UPDATE tables SET epoch = ? WHERE id = ?", (epoch, table_id))
        self.epochs[table_id] = epoch

    def disown(self, table_id: str) -> None:
        """This process no longer owns ``table_id``: it writes to it unfenced no more."""
        self.epochs.pop(table_id, None)

    def epoch(self, table_id: str) -> int:
        """The table's epoch as stored (0: never owned in a cluster, or no such table)."""
        with self._read() as db:
            row = db.execute("SELECT epoch FROM tables WHERE id = ?", (table_id,)).fetchone()
        return 0 if row is None else int(row[0])

    def close(self) -> None:
        """Close the database (and let go of the SQLite file, if this store held it)."""
        try:
            self._db.close()
        finally:
            self._held.close()

    def create_table(
        self,
        table_id: str,
        settings: TableSettings,
        tokens: dict[int, str],
        first_deal: FirstDeal | None = None,
        deadline: float | None = None,
        token_hashes: dict[int, str] | None = None,
        epoch: int | None = None,
    ) -> None:
        """Store a new table: its settings, its human seats' tokens, and its first deal.

        One transaction, so that a crash never leaves a table made but not dealt.
        ``deadline``: when the first turn's time runs out, if it is timed. ``token_hashes``:
        seats given by tokens the server knows only hashed (a party's members'). ``epoch``:
        this process owns the new table at that epoch (a lease's; see ``own``), stored with
        it, so that no row is ever left without its owner.
        """
        hashes = {seat: token_hash(token) for seat, token in tokens.items()}
        hashes.update(token_hashes or {})
        now = self.now()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, created, updated, settings, epoch) VALUES (?, ?, ?, ?, ?)",
                (table_id, now, now, settings.model_dump_json(), epoch or 0),
            )
            for seat, hashed in hashes.items():
                db.execute(
                    "INSERT INTO seats (token, table_id, seat) VALUES (?, ?, ?)",
                    (hashed, table_id, seat),
                )
            if first_deal is not None:
                self._write_deal(db, table_id, 0, *first_deal, version=1, deadline=deadline)
        if epoch is not None:
            self.epochs[table_id] = epoch

    def add_seat(self, table_id: str, seat: int, hashed: str) -> None:
        """Let a token (known by its hash) hold a seat at a table: a member back on a device."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO seats (token, table_id, seat) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (hashed, table_id, seat),
            )

    def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat a token holds at a table, if any and if the token has not expired.

        An expired token is deleted as it is found.
        """
        now = self.now()
        with self._read() as db:
            self._sweep_if_due(db, now)
            row = db.execute(
                "SELECT seat, expires FROM seats WHERE token = ? AND table_id = ?",
                (token_hash(token), table_id),
            ).fetchone()
            if row is not None and _has_expired(row[1], now):
                db.execute(
                    "DELETE FROM seats WHERE token = ? AND table_id = ?",
                    (token_hash(token), table_id),
                )
                return None
        return int(row[0]) if row else None

    def forget_expired(self) -> int:
        """Delete every seat and session whose token has expired; how many."""
        now = self.now()
        with self._read() as db:
            return self._forget_expired(db, now)

    def _forget_expired(self, db: Session, now: float) -> int:
        self._last_sweep = now
        deleted = db.execute("DELETE FROM seats WHERE expires <= ?", (now,))
        ended = db.execute("DELETE FROM sessions WHERE expires <= ?", (now,))
        return deleted.rowcount + ended.rowcount

    def _sweep_if_due(self, db: Session, now: float) -> None:
        # a time that went back (the wall clock was set) sweeps too, and starts over from it
        if not 0 <= now - self._last_sweep < EXPIRY_SWEEP_S:
            self._forget_expired(db, now)

    def add_deal(
        self,
        table_id: str,
        deal: int,
        dealer: int,
        deck: Sequence[Card],
        seed: int | None,
        version: int = 0,
        deadline: float | None = None,
    ) -> None:
        """Record a new deal and the table's version once it is dealt.

        A thrown-away deal of the same number is replaced. ``seed``: see ``FirstDeal``.
        ``deadline``: when the first turn's time runs out, if it is timed (stored in the same
        transaction).
        """
        with self._writing(table_id) as db:
            self._write_deal(
                db, table_id, deal, dealer, deck, seed, version=version, deadline=deadline
            )

    def _write_deal(
        self,
        db: Session,
        table_id: str,
        deal: int,
        dealer: int,
        deck: Sequence[Card],
        seed: int | None,
        *,
        version: int,
        deadline: float | None,
    ) -> None:
        db.execute("DELETE FROM actions WHERE table_id = ? AND deal = ?", (table_id, deal))
        db.execute(
            "INSERT INTO deals (table_id, deal, dealer, deck, seed, at) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, deal) DO UPDATE SET dealer = excluded.dealer, "
            "deck = excluded.deck, seed = excluded.seed, at = excluded.at",
            (
                table_id,
                deal,
                dealer,
                " ".join(str(card) for card in deck),
                0 if seed is None else seed,
                self.now(),
            ),
        )
        db.execute(
            "UPDATE tables SET updated = ?, version = ?, deadline = ? WHERE id = ?",
            (self.now(), version, deadline, table_id),
        )

    def add_action(
        self,
        table_id: str,
        deal: int,
        seq: int,
        text: str,
        reshuffles: Sequence[Sequence[Card]],
        version: int = 0,
        finished: dict[str, Any] | None = None,
        deadline: float | None = None,
        rated: RatedGame | None = None,
        *,
        seat: int | None = None,
        by: Played | None = None,
    ) -> None:
        """Append one action, any stock it shuffled, and the table's version after it.

        ``seat`` played it, and ``by`` says who played it there (kept, with the time, for the
        player pages' figures and to tell the seats the computer played for).

        ``deadline`` is when the turn after it runs out of time, if it is timed: stored with
        the action that starts the turn (or goes on with it), so that a restart keeps it.

        ``finished`` is the summary of the game when this action ends it: the game is then
        marked over in the same transaction, so a crash can never keep a finished game out of
        the history, and its seats' tokens expire ``TOKEN_LIFETIME_S`` from now. Committed
        when this returns. ``rated``: the ranked game it ends, rated in that same transaction
        (see ``RatedGames.rate``).
        """
        with self._writing(table_id) as db:
            shuffled = json.dumps([[str(card) for card in order] for order in reshuffles])
            now = self.now()
            db.execute(
                "INSERT INTO actions (table_id, deal, seq, text, reshuffles, seat, by, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, deal, seq, text, shuffled, seat, by, now),
            )
            db.execute(
                "UPDATE tables SET updated = ?, version = ?, deadline = ? WHERE id = ?",
                (now, version, deadline, table_id),
            )
            if finished is not None:
                db.execute(
                    "UPDATE tables SET finished = 1, summary = ? WHERE id = ?",
                    (json.dumps(finished), table_id),
                )
                db.execute(
                    "UPDATE seats SET expires = ? WHERE table_id = ?",
                    (now + TOKEN_LIFETIME_S, table_id),
                )
                if rated is not None:
                    self.rated_games.rate_in(db, rated, now)

    def version(self, table_id: str) -> int:
        """The table's version as last stored (0 for an unknown table)."""
        with self._read() as db:
            row = db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
        return int(row[0]) if row else 0

    def deadline(self, table_id: str) -> float | None:
        """When the turn being timed at the table runs out, as last stored (``None``: none)."""
        with self._read() as db:
            row = db.execute("SELECT deadline FROM tables WHERE id = ?", (table_id,)).fetchone()
        return float(row[0]) if row and row[0] is not None else None

    def set_deadline(self, table_id: str, deadline: float | None) -> None:
        """Move the timed turn's deadline (the restart grace); the version stays."""
        with self._writing(table_id) as db:
            db.execute("UPDATE tables SET deadline = ? WHERE id = ?", (deadline, table_id))

    def save_settings(
        self, table_id: str, settings: TableSettings, *, leaver: int | None = None
    ) -> None:
        """Replace a table's settings (the pace changed, say): a restart starts from these.

        ``leaver``: the account whose leaving the ranked game changed them, kept in the same
        transaction among the ranked games left early (``ranked_leaves``).
        """
        with self._writing(table_id) as db:
            now = self.now()
            db.execute(
                "UPDATE tables SET settings = ?, updated = ? WHERE id = ?",
                (settings.model_dump_json(), now, table_id),
            )
            if leaver is not None:
                db.execute(
                    "INSERT INTO ranked_leaves (account, table_id, at) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (leaver, table_id, now),
                )

    def settings(self, table_id: str) -> TableSettings | None:
        """A table's settings, or ``None`` if there is no such table."""
        with self._read() as db:
            row = db.execute("SELECT settings FROM tables WHERE id = ?", (table_id,)).fetchone()
        return TableSettings.model_validate_json(row[0]) if row else None

    def deals(self, table_id: str) -> list[dict[str, Any]]:
        """A table's deals in order, each with its actions and reshuffles (record shape)."""
        # one statement, so that it sees one moment (a deal and its actions, never a deal's
        # actions without it): each deal's row (seq -1) comes before its actions
        with self._read() as db:
            rows = db.execute(
                "SELECT deal, -1 AS seq, dealer, deck, seed, NULL AS text, NULL AS reshuffles "
                "FROM deals WHERE table_id = ? UNION ALL "
                "SELECT deal, seq, NULL, NULL, NULL, text, reshuffles FROM actions "
                "WHERE table_id = ? ORDER BY 1, 2",
                (table_id, table_id),
            ).fetchall()
        deals: list[dict[str, Any]] = []
        for _, seq, dealer, deck, seed, text, reshuffles in rows:
            if seq < 0:
                deals.append(
                    {
                        "dealer": dealer,
                        "deck": [str(card) for card in parse_cards(deck.split())],
                        "actions": [],
                        "reshuffles": [],
                        "seed": seed,
                    }
                )
            else:
                deals[-1]["actions"].append(text)
                deals[-1]["reshuffles"].extend(json.loads(reshuffles))
        return deals

    def history(self, limit: int = 100) -> list[StoredGame]:
        """Every finished game, newest first (at most ``limit``): id, when, and the summary.

        For a server whose host made the history public; else see ``games_of``.
        """
        with self._read() as db:
            rows = db.execute(
                "SELECT id, created, updated, summary FROM tables WHERE finished = 1 "
                "ORDER BY updated DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [_finished_game(*row) for row in rows]

    def games_of(self, tokens: Sequence[str]) -> tuple[list[StoredGame], list[str]]:
        """The finished games of these tokens, and the tokens that hold no seat.

        The games are those where a token holds a seat, newest first, as ``history`` gives
        them; the tokens that hold none (never issued, or expired) come in the order given.
        """
        if not tokens:
            return [], []
        hashes = {token_hash(token): token for token in tokens}
        now = self.now()
        with self._read() as db:
            self._sweep_if_due(db, now)
            rows = db.execute(
                "SELECT seats.token, tables.id, tables.created, tables.updated, tables.summary, "
                "tables.finished, seats.seat FROM seats JOIN tables ON tables.id = seats.table_id "
                f"WHERE seats.token IN ({', '.join('?' * len(hashes))}) "
                "AND (seats.expires IS NULL OR seats.expires > ?) "
                "ORDER BY tables.updated DESC",
                (*hashes, now),
            ).fetchall()
        held = {row[0] for row in rows}
        games = _held_games(rows)
        return list(games.values()), [token for token in tokens if token_hash(token) not in held]


@dataclasses.dataclass(frozen=True, slots=True)
class StoredGame:
    """A finished game as the history lists it."""

    id: str
    """The table's id."""
    created: float
    """When the table was made (seconds since the epoch)."""
    finished: float
    """When the game ended (seconds since the epoch)."""
    summary: dict[str, Any]
    """The summary kept when it ended (``protocol.api.FinishedGame``'s other fields)."""
    seat: int | None = None
    """The seat of the token that found it (``games_of``); ``None``: listed for everyone."""

    def answer(self) -> FinishedGame:
        """The game as ``/api/history`` lists it."""
        fields = {"id": self.id, "created": self.created, "finished": self.finished}
        if self.seat is not None:
            fields["seat"] = self.seat
        return FinishedGame.model_validate({**fields, **self.summary})


def _has_expired(expires: float | None, now: float) -> bool:
    return expires is not None and expires <= now


def _held_games(rows: Sequence[Sequence[Any]]) -> dict[str, StoredGame]:
    """The finished games among ``games_of``'s rows, by id, each with its token's seat.

    A row is (token, id, created, updated, summary, finished, seat).
    """
    return {
        row[1]: _finished_game(row[1], row[2], row[3], row[4], int(row[6]))
        for row in rows
        if row[5]
    }


def _finished_game(
    table_id: str, created: float, finished: float, summary: str | None, seat: int | None = None
) -> StoredGame:
    summed_up = json.loads(summary or "{}")
    return StoredGame(str(table_id), float(created), float(finished), summed_up, seat)


def _is_file(location: str) -> bool:
    """Whether ``location`` names a SQLite file (not ``:memory:``, not a server's URL)."""
    return location != ":memory:" and not is_postgres_url(location)


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    """Whether the SQLite file has a table of that name."""
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
    return found.fetchone() is not None
