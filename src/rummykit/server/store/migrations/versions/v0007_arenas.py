"""Arenas: tournaments for people, each kept as its JSON (``server.pairing.arenas``).

Revision ID: 0007
Revises: 0006
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table, and its indexes: by state and by winner.

    The server reads the unfinished at start; a player's page lists the arenas they won.
    """
    op.execute(
        "CREATE TABLE arenas ("
        " id TEXT PRIMARY KEY,"
        " created DOUBLE PRECISION NOT NULL,"
        " updated DOUBLE PRECISION NOT NULL,"
        " finished BOOLEAN NOT NULL DEFAULT FALSE,"
        " name TEXT NOT NULL,"
        " winner TEXT,"
        " arena TEXT NOT NULL)"
    )
    op.execute("CREATE INDEX arenas_by_finished ON arenas (finished, created)")
    op.execute("CREATE INDEX arenas_by_winner ON arenas (winner)")


def downgrade() -> None:
    """Drop the table."""
    op.execute("DROP TABLE arenas")
