"""Each table's epoch: the highest owner's epoch that has written to it (several processes).

The store refuses a write to a table whose epoch is above the writer's
(``rummykit.server.cluster.lease.check_epoch``), so an owner paused past its lease never writes
again.

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column (0: no owner has claimed the table; one process alone never does)."""
    op.execute("ALTER TABLE tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0")


def downgrade() -> None:
    """Drop the column."""
    op.execute("ALTER TABLE tables DROP COLUMN epoch")
