"""Puzzle ratings: each account's puzzle rating, each puzzle's, and who answered which.

A puzzle answered by a signed-in player is a two-sided rated match (``server.puzzles``):
the first answer of an account to a puzzle is kept in ``puzzle_attempts`` with both ratings
before and after, and only that one moves them.

Revision ID: 0008
Revises: 0007
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the three tables, and the attempts' index by account and time."""
    op.execute(
        "CREATE TABLE puzzle_players ("
        " account INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,"
        " mu DOUBLE PRECISION NOT NULL,"
        " sigma DOUBLE PRECISION NOT NULL,"
        " attempts INTEGER NOT NULL,"
        " last_played DOUBLE PRECISION NOT NULL)"
    )
    op.execute(
        "CREATE TABLE puzzle_ratings ("
        " puzzle TEXT PRIMARY KEY,"
        " mu DOUBLE PRECISION NOT NULL,"
        " sigma DOUBLE PRECISION NOT NULL,"
        " attempts INTEGER NOT NULL,"
        " solved INTEGER NOT NULL)"
    )
    op.execute(
        "CREATE TABLE puzzle_attempts ("
        " account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,"
        " puzzle TEXT NOT NULL,"
        " correct BOOLEAN NOT NULL,"
        " at DOUBLE PRECISION NOT NULL,"
        " mu_before DOUBLE PRECISION NOT NULL,"
        " sigma_before DOUBLE PRECISION NOT NULL,"
        " mu_after DOUBLE PRECISION NOT NULL,"
        " sigma_after DOUBLE PRECISION NOT NULL,"
        " PRIMARY KEY (account, puzzle))"
    )
    op.execute("CREATE INDEX puzzle_attempts_by_account ON puzzle_attempts (account, at)")


def downgrade() -> None:
    """Drop the tables."""
    op.execute("DROP TABLE puzzle_attempts")
    op.execute("DROP TABLE puzzle_ratings")
    op.execute("DROP TABLE puzzle_players")
