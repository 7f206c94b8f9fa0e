"""The accounts' ratings as stored, one per pool (written with a ranked game's end)."""

from __future__ import annotations

import dataclasses

from rummykit.ratings import Pool, Rating
from rummykit.server.store.database import Database
from rummykit.server.store.rated import StoredRating


@dataclasses.dataclass(frozen=True, slots=True)
class PoolRating:
    """An account's rating in a pool, with what the leaderboard shows of it."""

    name: str
    """The account's name."""
    bot: bool
    """Whether it is a program's account."""
    rating: Rating
    """As stored, not drifted."""
    games: int
    """Its rated games in the pool."""
    last_played: float
    """When its last rated game in the pool ended (seconds since the epoch)."""
    opponents: int
    """The distinct accounts it met in the pool's games."""


class Ratings:
    """Reading the ``ratings`` table (``Store.rated_games.rate`` writes it with the game)."""

    def __init__(self, db: Database) -> None:
        """Over ``db``."""
        self._db = db

    def of(self, account: int, pool: Pool) -> StoredRating | None:
        """An account's rating in a pool as stored (not drifted), or ``None``: never rated."""
        with self._db.read() as db:
            row = db.execute(
                "SELECT mu, sigma, games, last_played FROM ratings WHERE account = ? AND pool = ?",
                (account, pool.value),
            ).fetchone()
        return StoredRating(Rating(row[0], row[1]), int(row[2]), float(row[3])) if row else None

    def pool(self, pool: Pool) -> list[PoolRating]:
        """Every account rated in ``pool``, unsorted."""
        with self._db.read() as db:
            rows = db.execute(
                "SELECT accounts.name, CASE WHEN accounts.kind = 'bot' THEN 1 ELSE 0 END AS bot, "
                "ratings.mu, ratings.sigma, ratings.games, ratings.last_played, "
                "(SELECT COUNT(DISTINCT other.account) FROM rated_games AS own "
                "JOIN rated_games AS other ON other.table_id = own.table_id "
                "AND other.account != own.account "
                "WHERE own.account = ratings.account AND own.pool = ratings.pool) AS opponents "
                "FROM ratings JOIN accounts ON accounts.id = ratings.account "
                "WHERE ratings.pool = ?",
                (pool.value,),
            ).fetchall()
        return [
            PoolRating(
                str(name),
                bool(bot),
                Rating(float(mu), float(sigma)),
                int(games),
                float(last_played),
                int(opponents),
            )
            for name, bot, mu, sigma, games, last_played, opponents in rows
        ]
