"""Account names unique whatever their case, on both databases: a unique index on lower(name).

Files made before the migrations keep their ``COLLATE NOCASE`` column besides; the store
looks names up by ``lower(name)`` on every database, which this index serves.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the index."""
    op.execute("CREATE UNIQUE INDEX accounts_by_name ON accounts (lower(name))")


def downgrade() -> None:
    """Drop the index."""
    op.execute("DROP INDEX accounts_by_name")
