"""Puzzle ratings as stored: each account's, each puzzle's, and each first answer.

A signed-in player's first answer to a puzzle rates them against it (``answer``); a later
answer to the same puzzle changes nothing. How the two ratings move is the caller's rule
(``rummykit.server.puzzles``): this module only keeps the before and after, in one
transaction, so that two answers sent at once are counted once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from rummykit.ratings import Rating
from rummykit.server.store import Database, Now, Session

PuzzleRule = Callable[[Rating, Rating, bool], tuple[Rating, Rating]]
"""How a player's rating and a puzzle's move when the player solves it (``True``) or not:
``(player, puzzle, solved) -> (player after, puzzle after)``."""


@dataclasses.dataclass(frozen=True, slots=True)
class PuzzleAnswered:
    """The ratings around one answer: moved when it was the account's first to the puzzle."""

    counted: bool
    """Whether this answer was rated (the account's first to the puzzle)."""
    player_before: Rating
    player_after: Rating
    """Equal to ``player_before`` when not counted."""
    puzzle_before: Rating
    puzzle_after: Rating
    """Equal to ``puzzle_before`` when not counted."""


class PuzzleRatings:
    """The ``puzzle_players``, ``puzzle_ratings`` and ``puzzle_attempts`` tables.

    Their schema is the store's (its migration 0008); their reads and writes are here, as
    blocking as the store's own: call them through ``asyncio.to_thread``.
    """

    def __init__(self, db: Database, now: Now) -> None:
        """Over ``db``, stamping answers with ``now``."""
        self._db = db
        self._now = now

    def player(self, account: int) -> Rating | None:
        """An account's puzzle rating, or ``None``: it never answered one signed in."""
        with self._db.read() as db:
            return _player(db, account)

    def ratings(self) -> dict[str, Rating]:
        """Every puzzle rated at least once, by id (a puzzle never answered keeps its start)."""
        with self._db.read() as db:
            rows = db.execute("SELECT puzzle, mu, sigma FROM puzzle_ratings").fetchall()
        return {str(puzzle): Rating(float(mu), float(sigma)) for puzzle, mu, sigma in rows}

    def answered_since(self, account: int, since: float) -> set[str]:
        """The puzzles ``account`` answered (rated) at ``since`` or later."""
        with self._db.read() as db:
            rows = db.execute(
                "SELECT puzzle FROM puzzle_attempts WHERE account = ? AND at >= ?",
                (account, since),
            ).fetchall()
        return {str(row[0]) for row in rows}

    def answer(
        self, account: int, puzzle: str, start: Rating, solved: bool, rule: PuzzleRule
    ) -> PuzzleAnswered:
        """Rate ``account``'s answer to ``puzzle`` by ``rule``, unless it answered it before.

        ``start``: the puzzle's rating before anyone answered it. A new player starts at
        ``Rating()``.
        """
        now = self._now()
        with self._db.transaction() as db:
            # two answers at once (two tabs): one rated after the other, the second not at all
            self._db.serialize(db, "puzzle_ratings")
            player = _player(db, account) or Rating()
            rated = _puzzle(db, puzzle) or start
            if db.execute(
                "SELECT 1 FROM puzzle_attempts WHERE account = ? AND puzzle = ?",
                (account, puzzle),
            ).fetchone():
                return PuzzleAnswered(False, player, player, rated, rated)
            player_after, puzzle_after = rule(player, rated, solved)
            db.execute(
                "INSERT INTO puzzle_attempts (account, puzzle, correct, at, mu_before, "
                "sigma_before, mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    account,
                    puzzle,
                    solved,
                    now,
                    player.mu,
                    player.sigma,
                    player_after.mu,
                    player_after.sigma,
                ),
            )
            db.execute(
                "INSERT INTO puzzle_players (account, mu, sigma, attempts, last_played) "
                "VALUES (?, ?, ?, 1, ?) ON CONFLICT (account) DO UPDATE SET mu = excluded.mu, "
                "sigma = excluded.sigma, attempts = puzzle_players.attempts + 1, "
                "last_played = excluded.last_played",
                (account, player_after.mu, player_after.sigma, now),
            )
            db.execute(
                "INSERT INTO puzzle_ratings (puzzle, mu, sigma, attempts, solved) "
                "VALUES (?, ?, ?, 1, ?) ON CONFLICT (puzzle) DO UPDATE SET mu = excluded.mu, "
                "sigma = excluded.sigma, attempts = puzzle_ratings.attempts + 1, "
                "solved = puzzle_ratings.solved + excluded.solved",
                (puzzle, puzzle_after.mu, puzzle_after.sigma, int(solved)),
            )
        return PuzzleAnswered(True, player, player_after, rated, puzzle_after)


def _player(db: Session, account: int) -> Rating | None:
    row = db.execute(
        "SELECT mu, sigma FROM puzzle_players WHERE account = ?", (account,)
    ).fetchone()
    return None if row is None else Rating(float(row[0]), float(row[1]))


def _puzzle(db: Session, puzzle: str) -> Rating | None:
    row = db.execute("SELECT mu, sigma FROM puzzle_ratings WHERE puzzle = ?", (puzzle,)).fetchone()
    return None if row is None else Rating(float(row[0]), float(row[1]))
