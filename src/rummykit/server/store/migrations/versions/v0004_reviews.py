"""Post-game reviews: one a finished game's seat, computed once and kept (``rummy review``'s JSON).

Revision ID: 0004
Revises: 0003
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table."""
    op.execute(
        "CREATE TABLE reviews ("
        " table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,"
        " seat INTEGER NOT NULL,"
        " review TEXT NOT NULL,"
        " created DOUBLE PRECISION NOT NULL,"
        " PRIMARY KEY (table_id, seat))"
    )


def downgrade() -> None:
    """Drop the table."""
    op.execute("DROP TABLE reviews")
