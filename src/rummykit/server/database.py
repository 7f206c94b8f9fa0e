"""The two databases under the store: one SQLite file, or a PostgreSQL server.

The store writes each statement once, in SQL both understand, with ``?`` placeholders; a
``Database`` runs it. ``transaction()`` is one write transaction (committed when the block
ends, rolled back if it raises); ``read()`` runs statements outside one (each on its own, so a
read that must see one moment is one statement).

- ``SQLiteDatabase``: one connection shared by the threads under a lock, WAL, each write in
  ``BEGIN IMMEDIATE``. One process at a time may serve a file (``hold_file``).
- ``PostgresDatabase``: psycopg 3 with a ``psycopg_pool.ConnectionPool``; ``?`` becomes ``%s``.

Where the two must differ, the difference is a method of the database (``json_numbers``,
``serialize``), never a second copy of a statement.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from rummykit.data_folder import OWNER_ONLY_FILE, private_folder

if TYPE_CHECKING:
    import psycopg

POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")
"""How a PostgreSQL URL begins (anything else names a SQLite file)."""

POOL_MAX: Final = 8
"""Connections one process keeps open to PostgreSQL at most (its threads share them)."""

POOL_WAIT_S: Final = 1.0
"""The longest a statement waits for a pooled connection. Past it the database is taken as out
of reach (``PoolTimeout``) and the request answered ``503``: every answer comes within 2 s
even while PostgreSQL is down (the pool's default, 30 s, held pages and sockets that long)."""

CONNECT_TIMEOUT_S: Final = 2
"""libpq's ``connect_timeout`` (whole seconds, 2 at least): a server that does not answer a new
connection (a host cut off, not merely stopped) is given up after it, in the pool's
background, so it never holds a request (``POOL_WAIT_S`` does)."""

STATEMENT_TIMEOUT_MS: Final = 1_500
"""The longest PostgreSQL runs one statement of the store's (lock waits included): a request
then has its answer within 2 s, a ``503`` at worst. The store's statements take milliseconds
(an indexed row, or a pool's ratings); migrations run on a connection of their own."""

RECONNECT_S: Final = 1.5
"""How long the pool tries again to open a connection it lost (at once, then 1 s later, then
at this time) before it gives that try up; the next request that finds no connection starts a
new try at once. So once PostgreSQL is back, the store is too within about a second. Without a
bound the pool's waits doubled to a minute and more (its default gives up after 5 minutes)."""

DATABASE_URL_ENV: Final = "RUMMY_DATABASE_URL"
"""The environment variable that names a PostgreSQL database for ``rummy serve``."""

Params = Sequence[Any]


class Rows(Protocol):
    """What a statement gives back: a DB-API cursor, as both drivers' are."""

    @property
    def rowcount(self) -> int:
        """How many rows an INSERT, UPDATE or DELETE changed."""

    @property
    def description(self) -> Any:
        """The columns of a SELECT (each one's name first)."""

    def fetchone(self) -> Any:
        """The next row, or ``None``."""

    def fetchall(self) -> list[Any]:
        """The rows left."""

    def __iter__(self) -> Iterator[Any]: ...


class Session(Protocol):
    """A connection in use: inside a transaction or a read."""

    def execute(self, sql: str, params: Params = ()) -> Rows:
        """Run one statement (``?`` placeholders) with its parameters."""


class Database(Protocol):
    """A database the store runs its SQL on."""

    dialect: str
    """``sqlite`` or ``postgresql`` (as SQLAlchemy and Alembic name them)."""

    def transaction(self) -> contextlib.AbstractContextManager[Session]:
        """One write transaction, committed when the block ends (rolled back if it raises)."""

    def read(self) -> contextlib.AbstractContextManager[Session]:
        """Statements run one by one, outside a transaction."""

    def json_numbers(self, column: str, key: str) -> str:
        """A FROM item: the numbers of the JSON array at ``key`` of the JSON text ``column``.

        One row each, in a column ``value`` (no rows when there is no array).
        """

    def serialize(self, session: Session, name: str) -> None:
        """Hold the lock ``name`` until the transaction ends: such writers go one by one."""

    def close(self) -> None:
        """Close every connection."""


def is_postgres_url(location: str) -> bool:
    """Whether ``location`` names a PostgreSQL database rather than a SQLite file."""
    return location.startswith(POSTGRES_SCHEMES)


def open_database(location: Path | str) -> Database:
    """The database at ``location``: a ``postgresql://`` URL, a SQLite file, or ``:memory:``."""
    text = str(location)
    if is_postgres_url(text):
        return PostgresDatabase(text)
    return SQLiteDatabase(text)


def is_unavailable(error: BaseException) -> bool:
    """Whether ``error`` says the database is out of reach now.

    Down, restarting, locked past the wait, or its disk full: nothing was written, and the
    same write may work in a moment.
    """
    if isinstance(error, sqlite3.OperationalError):
        return True
    import psycopg
    from psycopg_pool import PoolTimeout

    return isinstance(error, psycopg.OperationalError | PoolTimeout)


class SQLiteDatabase:
    """One SQLite file (or ``:memory:``): one connection shared under a lock, WAL."""

    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        """Open (and create, private to its owner) the file at ``path``."""
        if path != ":memory:":
            _private_file(Path(path))
        self.path = path
        self._lock = threading.Lock()
        self.connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=FULL")

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` on the shared connection, under the lock.

        A failed ``COMMIT`` (the disk full) is rolled back too: left open, the transaction
        would refuse every later ``BEGIN`` once the disk has room again.
        """
        with self._lock:
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
                self.connection.execute("COMMIT")
            except BaseException:
                # SQLite may have rolled it back already (SQLITE_FULL does); the error raised
                # is the one that says why
                if self.connection.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self.connection.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def read(self) -> Iterator[Session]:
        """The shared connection under the lock, each statement on its own."""
        with self._lock:
            yield self.connection

    def json_numbers(self, column: str, key: str) -> str:
        """SQLite's ``json_each`` (its ``value`` column)."""
        return f"json_each({column}, '$.{key}')"

    def serialize(self, session: Session, name: str) -> None:
        """Nothing: ``BEGIN IMMEDIATE`` already makes every writer wait for the one before."""

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self.connection.close()


class PostgresDatabase:
    """A PostgreSQL database through a pool of psycopg 3 connections."""

    dialect = "postgresql"

    def __init__(self, url: str, *, max_size: int = POOL_MAX) -> None:
        """Connect to ``url`` (the pool opens its connections now, and fails if it cannot).

        Out of reach later, a statement fails within ``POOL_WAIT_S`` or
        ``STATEMENT_TIMEOUT_MS`` (``is_unavailable`` says so), and the pool connects again
        by itself once the server is back.
        """
        from psycopg_pool import ConnectionPool

        self.url = url
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs={
                "autocommit": True,
                "connect_timeout": CONNECT_TIMEOUT_S,
                "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
            },
            check=ConnectionPool.check_connection,
            timeout=POOL_WAIT_S,
            reconnect_timeout=RECONNECT_S,
            open=True,
            name="rummykit-store",
        )
        self.pool.wait()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        """A pooled connection in one transaction."""
        with self.pool.connection() as connection, connection.transaction():
            yield _PostgresSession(connection)

    @contextlib.contextmanager
    def read(self) -> Iterator[Session]:
        """A pooled connection in autocommit: each statement on its own."""
        with self.pool.connection() as connection:
            yield _PostgresSession(connection)

    def json_numbers(self, column: str, key: str) -> str:
        """``jsonb_array_elements_text`` of the array (none when it is not an array)."""
        array = f"(CAST({column} AS jsonb) -> '{key}')"
        return (
            f"jsonb_array_elements_text(CASE WHEN jsonb_typeof({array}) = 'array' "
            f"THEN {array} ELSE '[]' END) AS _numbers(value)"
        )

    def serialize(self, session: Session, name: str) -> None:
        """A transaction-scoped advisory lock keyed by ``name``."""
        session.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (f"rummykit:{name}",))

    def close(self) -> None:
        """Close the pool and its connections."""
        self.pool.close()


class _PostgresSession:
    """A psycopg connection that takes the store's ``?`` placeholders."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self.connection = connection

    def execute(self, sql: str, params: Params = ()) -> Rows:
        return self.connection.execute(postgres_sql(sql), tuple(params))


@functools.lru_cache(maxsize=512)
def postgres_sql(sql: str) -> str:
    """``sql`` with psycopg's placeholders: each ``?`` outside quotes becomes ``%s``.

    A ``%`` becomes ``%%`` (psycopg reads ``%`` as the start of a placeholder).

    >>> postgres_sql("SELECT '?', x FROM t WHERE a = ? AND b LIKE '5%'")
    "SELECT '?', x FROM t WHERE a = %s AND b LIKE '5%%'"
    """
    out: list[str] = []
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "%":
            out.append("%%")
        elif char == "?" and not quoted:
            out.append("%s")
        else:
            out.append(char)
    return "".join(out)


def _private_file(path: Path) -> None:
    """Create ``path`` readable by its owner only, or make it so.

    SQLite gives its journal files the database file's mode, so they are private too.
    """
    private_folder(path.parent)
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, OWNER_ONLY_FILE))
    path.chmod(OWNER_ONLY_FILE)


class FileInUse(RuntimeError):
    """Another process serves this SQLite file already."""


_held: dict[str, tuple[int, int]] = {}
"""The lock files this process holds: path -> (descriptor, how many holders here)."""
_held_lock = threading.Lock()


def lock_path(path: Path | str) -> Path:
    """The lock file beside a SQLite file: ``store.sqlite3`` -> ``store.sqlite3.lock``."""
    return Path(f"{path}.lock")


@contextlib.contextmanager
def hold_file(path: Path | str) -> Iterator[None]:
    """Hold the SQLite file at ``path`` for this process, or raise ``FileInUse``.

    An exclusive ``flock`` on ``lock_path(path)``, taken once per process (the apps and stores
    of one process share it, as tests do) and let go when the last holder here is done, or
    when the process ends however it ends. A second process on the file would keep tables of
    its own in memory and write over the first one's games.
    """
    key = os.path.realpath(path)
    with _held_lock:
        if key in _held:
            descriptor, count = _held[key]
            _held[key] = (descriptor, count + 1)
        else:
            private_folder(Path(path).parent)  # the lock is the first file made there
            descriptor = os.open(lock_path(path), os.O_CREAT | os.O_RDWR, OWNER_ONLY_FILE)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(descriptor)
                raise FileInUse(
                    f"another rummykit server is already using {path} (its lock "
                    f"{lock_path(path)} is held): stop it first, or give this one another "
                    "--store"
                ) from None
            _held[key] = (descriptor, 1)
    try:
        yield
    finally:
        with _held_lock:
            descriptor, count = _held[key]
            if count > 1:
                _held[key] = (descriptor, count - 1)
            else:
                del _held[key]
                os.close(descriptor)
