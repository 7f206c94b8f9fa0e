"""The programs' pools: a rated game with a program's account at it is rated in its own pool.

``ratings.pool`` and ``rated_games.pool`` take ``winner_bots`` and ``penalty_bots`` besides
``winner`` and ``penalty`` (``rummykit.ratings.Pool``). PostgreSQL changes the named check;
SQLite cannot change a check, so the two tables are made again and their rows copied.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_WIDE = "('winner', 'penalty', 'winner_bots', 'penalty_bots')"
_NARROW = "('winner', 'penalty')"

_RATINGS = """CREATE TABLE ratings (
    account INTEGER NOT NULL REFERENCES accounts(id),
    pool TEXT NOT NULL CHECK (pool IN {pools}),
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    last_played DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account, pool)
)"""

_RATED_GAMES = """CREATE TABLE rated_games (
    table_id TEXT NOT NULL REFERENCES tables(id),
    account INTEGER NOT NULL REFERENCES accounts(id),
    pool TEXT NOT NULL CHECK (pool IN {pools}),
    seat INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    total INTEGER NOT NULL,
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after DOUBLE PRECISION NOT NULL,
    sigma_after DOUBLE PRECISION NOT NULL,
    weight DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    figures TEXT,
    PRIMARY KEY (table_id, account)
)"""


def _pools(pools: str) -> None:
    if op.get_bind().dialect.name != "sqlite":
        for table in ("ratings", "rated_games"):
            op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {table}_pool_check")
            op.execute(
                f"ALTER TABLE {table} ADD CONSTRAINT {table}_pool_check CHECK (pool IN {pools})"
            )
        return
    op.execute("DROP INDEX rated_games_by_account")
    for table, create in (("ratings", _RATINGS), ("rated_games", _RATED_GAMES)):
        op.execute(f"ALTER TABLE {table} RENAME TO {table}_before")
        op.execute(create.format(pools=pools))
        op.execute(f"INSERT INTO {table} SELECT * FROM {table}_before")
        op.execute(f"DROP TABLE {table}_before")
    op.execute("CREATE INDEX rated_games_by_account ON rated_games (account, at)")


def upgrade() -> None:
    """Widen the checks."""
    _pools(_WIDE)


def downgrade() -> None:
    """Forget the programs' pools' ratings, and narrow the checks again."""
    for table in ("ratings", "rated_games"):
        op.execute(f"DELETE FROM {table} WHERE pool IN ('winner_bots', 'penalty_bots')")
    _pools(_NARROW)
