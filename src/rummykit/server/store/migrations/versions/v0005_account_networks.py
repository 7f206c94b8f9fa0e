"""The networks accounts were seen at, for the ratings' trust (``rummykit.ratings.trust``).

Rated games between accounts of one network count little until both have met other people.

Revision ID: 0005
Revises: 0004
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table and its index by network."""
    op.execute(
        "CREATE TABLE account_networks ("
        " account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,"
        " network TEXT NOT NULL,"
        " seen DOUBLE PRECISION NOT NULL,"
        " PRIMARY KEY (account, network))"
    )
    op.execute("CREATE INDEX account_networks_by_network ON account_networks (network)")


def downgrade() -> None:
    """Drop the table."""
    op.execute("DROP TABLE account_networks")
