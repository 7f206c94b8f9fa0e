"""Ranked games: each rated once as it ends, the ranked games left early, who plays one now.

A ranked game is rated in the transaction that stores its last action (``rate_in``, called
by the store's ``add_action``), or by ``rate`` after the fact; never twice.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from rummykit.ratings import NETWORK_WINDOW_DAYS, REPEAT_WINDOW_DAYS, Rating, Standing
from rummykit.server.store.common import Now
from rummykit.server.store.database import Database, Rows, Session
from rummykit.server.store.rated import DAY_S, RatedGame, StoredRating, rated_rows
from rummykit.server.store.seat_figures import Played, SeatFigures, StoredAction, seat_figures


class RatedGames:
    """The ``rated_games``, ``ratings`` and ``ranked_leaves`` tables, as ranked games use them."""

    def __init__(self, db: Database, now: Now) -> None:
        """Over ``db``, stamping with ``now``."""
        self._db = db
        self._now = now

    def in_ranked_games(self, accounts: Sequence[int]) -> set[int]:
        """Which of these accounts hold a seat at a ranked table not finished yet."""
        if not accounts:
            return set()
        with self._db.read() as db:
            seated = self._db.json_numbers("tables.settings", "accounts")
            rows = db.execute(
                f"SELECT DISTINCT CAST(value AS INTEGER) FROM tables, {seated} "
                "WHERE tables.finished = 0 "
                f"AND CAST(value AS INTEGER) IN ({', '.join('?' * len(accounts))})",
                tuple(accounts),
            ).fetchall()
        return {int(row[0]) for row in rows}

    def rate(self, rated: RatedGame) -> bool:
        """Rate a finished ranked game, unless it was rated already; whether it was now.

        A game is rated at most once: a second call (a retried finish) changes nothing, and
        the key of ``rated_games`` refuses a second row for a game and account anyway.
        """
        with self._db.transaction() as db:
            return self.rate_in(db, rated, self._now())

    def rate_in(self, db: Session, rated: RatedGame, now: float) -> bool:
        """Rate ``rated`` in the transaction ``db`` (the one that ends the game), unless rated."""
        self._db.serialize(db, "ratings")  # two games of one account: one rated after the other
        if _was_rated(db, rated.table_id):
            return False
        pool = rated.pool.value
        marks = ", ".join("?" * len(rated.accounts))
        ratings = {
            int(account): StoredRating(Rating(mu, sigma), int(games), float(last))
            for account, mu, sigma, games, last in db.execute(
                f"SELECT account, mu, sigma, games, last_played FROM ratings "
                f"WHERE pool = ? AND account IN ({marks})",
                (pool, *rated.accounts),
            )
        }
        figures = self._figures(db, rated)
        mostly_computer = {seat for seat, each in enumerate(figures) if each.mostly_computer()}
        rated = dataclasses.replace(
            rated, computer_majority=rated.computer_majority | mostly_computer
        )
        recent = self._recent_meetings(db, rated.accounts, now)
        standings = self._standings(db, rated.accounts, now)
        rows = rated_rows(rated, ratings, recent, now, standings)
        for row in rows:
            db.execute(
                "INSERT INTO rated_games (table_id, account, pool, seat, rank, total, "
                "mu_before, sigma_before, mu_after, sigma_after, weight, at, figures) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rated.table_id,
                    row.account,
                    pool,
                    row.seat,
                    row.rank,
                    row.total,
                    row.before.mu,
                    row.before.sigma,
                    row.after.mu,
                    row.after.sigma,
                    row.weight,
                    now,
                    json.dumps(figures[row.seat].to_json()),
                ),
            )
            db.execute(
                "INSERT INTO ratings (account, pool, mu, sigma, games, last_played) "
                "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (account, pool) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1, "
                "last_played = excluded.last_played",
                (row.account, pool, row.after.mu, row.after.sigma, now),
            )
        return bool(rows)

    def _figures(self, db: Session, rated: RatedGame) -> list[SeatFigures]:
        """Each seat's figures in the game ``rated`` finishes, from its stored actions."""
        dealt_at = dict(
            db.execute("SELECT deal, at FROM deals WHERE table_id = ?", (rated.table_id,))
        )
        actions = [
            StoredAction(deal, seat, None if by is None else Played(by), at)
            for deal, seat, by, at in db.execute(
                "SELECT deal, seat, by, at FROM actions WHERE table_id = ? ORDER BY deal, seq",
                (rated.table_id,),
            )
        ]
        return seat_figures(len(rated.accounts), rated.deals, dealt_at, actions)

    def _recent_meetings(self, db: Session, accounts: Sequence[int], now: float) -> list[set[int]]:
        """The account sets of the rated games, within the repeat window, of any of these."""
        marks = ", ".join("?" * len(accounts))
        rows = db.execute(
            "SELECT table_id, account FROM rated_games WHERE at > ? AND table_id IN "
            f"(SELECT table_id FROM rated_games WHERE account IN ({marks}))",
            (now - REPEAT_WINDOW_DAYS * DAY_S, *accounts),
        ).fetchall()
        games: dict[str, set[int]] = {}
        for table_id, account in rows:
            games.setdefault(str(table_id), set()).add(int(account))
        return list(games.values())

    def _standings(self, db: Session, accounts: Sequence[int], now: float) -> dict[int, Standing]:
        """How well each of these accounts is known, before the game that is being rated.

        Its rated games (every pool) and the days since the first, the distinct accounts it met
        less those that share one of its networks, and its networks, each seen within
        ``NETWORK_WINDOW_DAYS``.
        """
        marks = ", ".join("?" * len(accounts))
        since = now - NETWORK_WINDOW_DAYS * DAY_S
        games = {
            int(account): (int(count), float(first))
            for account, count, first in db.execute(
                f"SELECT account, COUNT(*), MIN(at) FROM rated_games WHERE account IN ({marks}) "
                "GROUP BY account",
                tuple(accounts),
            ).fetchall()
        }
        networks: dict[int, set[str]] = {}
        for account, network in db.execute(
            f"SELECT account, network FROM account_networks WHERE account IN ({marks}) "
            "AND seen > ?",
            (*accounts, since),
        ).fetchall():
            networks.setdefault(int(account), set()).add(str(network))
        met: dict[int, set[int]] = {}
        for account, other in db.execute(
            "SELECT DISTINCT own.account, other.account FROM rated_games AS own "
            "JOIN rated_games AS other ON other.table_id = own.table_id "
            f"AND other.account != own.account WHERE own.account IN ({marks}) "
            "AND NOT EXISTS (SELECT 1 FROM account_networks AS mine "
            "JOIN account_networks AS theirs ON theirs.network = mine.network "
            "WHERE mine.account = own.account AND theirs.account = other.account "
            "AND mine.seen > ? AND theirs.seen > ?)",
            (*accounts, since, since),
        ).fetchall():
            met.setdefault(int(account), set()).add(int(other))
        standings = {}
        for account in accounts:
            count, first = games.get(account, (0, now))
            standings[account] = Standing(
                count,
                frozenset(met.get(account, ())),
                frozenset(networks.get(account, ())),
                max(0.0, now - first) / DAY_S,
            )
        return standings

    def was_rated(self, table_id: str) -> bool:
        """Whether the game at ``table_id`` finished and was rated."""
        with self._db.read() as db:
            return _was_rated(db, table_id)

    def of_game(self, table_id: str) -> list[dict[str, Any]]:
        """The rated_games rows of one game, by seat (empty: the game was not rated)."""
        with self._db.read() as db:
            cursor = db.execute(
                "SELECT * FROM rated_games WHERE table_id = ? ORDER BY seat", (table_id,)
            )
            names = [column[0] for column in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def of_account(self, account: int) -> list[dict[str, Any]]:
        """An account's rated games in every pool, oldest first.

        Its ``rated_games`` rows, each with ``seats`` (the game's rated accounts),
        ``sharing`` (how many of them share its rank, itself included) and ``summary`` (the
        finished game's summary as JSON text: its players and preset).
        """
        with self._db.read() as db:
            cursor = db.execute(
                "SELECT own.*, (SELECT summary FROM tables WHERE tables.id = own.table_id) "
                "AS summary, (SELECT COUNT(*) FROM rated_games AS other "
                "WHERE other.table_id = own.table_id) AS seats, "
                "(SELECT COUNT(*) FROM rated_games AS other WHERE other.table_id = own.table_id "
                "AND other.rank = own.rank) AS sharing "
                "FROM rated_games AS own WHERE own.account = ? ORDER BY own.at, own.table_id",
                (account,),
            )
            return _rows(cursor)

    def leaves(self, accounts: Sequence[int], since: float) -> dict[int, list[float]]:
        """When each of these accounts left a ranked game early, since ``since``, oldest first."""
        marks = ", ".join("?" * len(accounts))
        with self._db.read() as db:
            rows = db.execute(
                f"SELECT account, at FROM ranked_leaves WHERE at > ? AND account IN ({marks}) "
                "ORDER BY at",
                (since, *accounts),
            ).fetchall()
        leaves: dict[int, list[float]] = {}
        for account, at in rows:
            leaves.setdefault(int(account), []).append(float(at))
        return leaves


def _rows(cursor: Rows) -> list[dict[str, Any]]:
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _was_rated(db: Session, table_id: str) -> bool:
    found = db.execute("SELECT 1 FROM rated_games WHERE table_id = ? LIMIT 1", (table_id,))
    return found.fetchone() is not None
