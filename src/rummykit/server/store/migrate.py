"""Running the schema migrations (Alembic, ``migrations/``) when a store opens.

One history for both databases; Alembic keeps the revision reached in ``alembic_version``. A
SQLite file made before the migrations is first brought to version 7 by the hand-written
upgrades (``legacy_sqlite``), then stamped with the first revision, which is that version.
On PostgreSQL the whole upgrade holds an advisory lock, so that servers starting together
migrate one at a time (the second finds nothing left to do); within one process a lock does
the same (Alembic's ``context`` is global).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import sqlalchemy
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.pool import NullPool, StaticPool

from rummykit.server.store.database import Database, PostgresDatabase, SQLiteDatabase

MIGRATIONS_DIR: Final = Path(__file__).with_name("migrations")

BASELINE: Final = "0001"
"""The first revision: the schema of the store's version 7."""

_in_process = threading.Lock()
"""Alembic's ``context`` is one per process: one migration at a time in a process."""

_LOCK_SQL: Final = "SELECT pg_advisory_xact_lock(hashtext('rummykit:migrations'))"


def alembic_config() -> Config:
    """Alembic's configuration for the store's migrations (no ini file)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head() -> str:
    """The newest revision."""
    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert found is not None
    return found


def upgrade(database: Database, *, stamp_baseline: bool = False) -> None:
    """Bring ``database`` to the newest revision; first mark it as at ``BASELINE`` if told.

    ``stamp_baseline``: the database has version 7's tables already (a SQLite file upgraded
    by hand) but no revision yet (no ``alembic_version`` table).
    """
    config = alembic_config()
    with _in_process, _connection(database) as connection:
        config.attributes["connection"] = connection
        if stamp_baseline:
            command.stamp(config, BASELINE)
        command.upgrade(config, "head")
        connection.commit()  # each command committed its own; nothing is left open


def current(database: Database) -> str | None:
    """The revision ``database`` is at (``None``: none yet)."""
    with _in_process, _connection(database) as connection:
        return MigrationContext.configure(connection).get_current_revision()


def run_environment() -> None:
    """Alembic's ``env.py``: run the migrations on the connection handed over.

    In one transaction: both databases change their schema transactionally.
    """
    from alembic import context

    connection: sqlalchemy.Connection = context.config.attributes["connection"]
    context.configure(connection=connection, transactional_ddl=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(_LOCK_SQL)
        context.run_migrations()


@contextlib.contextmanager
def _connection(database: Database) -> Iterator[sqlalchemy.Connection]:
    """A SQLAlchemy connection to ``database`` for Alembic (the store's queries use none).

    SQLite: the store's own connection (so that ``:memory:`` works), with ``BEGIN IMMEDIATE``
    at the start of each transaction (the driver, in autocommit, would not begin one).
    PostgreSQL: a connection of its own, closed afterwards.
    """
    if isinstance(database, SQLiteDatabase):
        raw = database.connection
        engine = sqlalchemy.create_engine("sqlite://", creator=lambda: raw, poolclass=StaticPool)

        @sqlalchemy.event.listens_for(engine, "begin")
        def _begin(connection: sqlalchemy.Connection) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

    else:
        assert isinstance(database, PostgresDatabase)
        url = sqlalchemy.make_url(database.url).set(drivername="postgresql+psycopg")
        engine = sqlalchemy.create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        if not isinstance(database, SQLiteDatabase):
            engine.dispose()
