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
import queue
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

IDLE_IN_TRANSACTION_MS: Final = 3_000
"""The longest PostgreSQL lets a store connection sit in a transaction between statements
before it ends that connection. A process stopped mid-transaction (a stalled machine, a
`SIGSTOP`) would otherwise keep its row and advisory locks, and every other process's writes
behind them would time out for as long as it slept: the table it lost could not go on on
another process. The store's transactions send their statements back to back, in
milliseconds."""

RECONNECT_S: Final = 1.5
"""How long the pool tries again to open a connection it lost (at once, then 1 s later, then
at this time) before it gives that try up; the next request that finds no connection starts a
new try at once. So once PostgreSQL is back, the store is too within about a second. Without a
bound the pool's waits doubled to a minute and more (its default gives up after 5 minutes)."""

CLOSE_WAIT_S: Final = 10.0
"""How long closing a SQLite database waits for a read under way on another thread to end
(reads take milliseconds; past it the connection is left open rather than pulled from under
the thread, which crashes the process)."""

MAX_COMMIT_GROUP: Final = 64
"""The most writes one SQLite ``COMMIT`` takes (so a steady stream of writers still commits)."""

SQLITE_TRANSIENT_CODES: Final = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PROTOCOL,
    }
)
"""SQLite's primary result codes that mean "not now" rather than "wrong": the file busy or
locked past the wait, memory or the disk short, the file out of reach."""

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

    Down, restarting, locked past the wait, its disk full, or the transaction ended while
    its process slept: nothing was written, and the same write may work in a moment. A
    SQLite error is judged by its primary result code (``SQLITE_TRANSIENT_CODES``): a mistake
    of ours (a syntax error, a missing table, all ``SQLITE_ERROR``) is not an outage, and
    fails loudly.
    """
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        return code is not None and code & 0xFF in SQLITE_TRANSIENT_CODES
    import psycopg
    from psycopg_pool import PoolTimeout

    # a transaction PostgreSQL ended while its process slept (``IDLE_IN_TRANSACTION_MS``)
    # was rolled back whole: nothing was written
    ended = psycopg.errors.IdleInTransactionSessionTimeout
    return isinstance(error, psycopg.OperationalError | PoolTimeout | ended)


class SQLiteDatabase:
    """One SQLite file (or ``:memory:``) in WAL: one writing connection, and readers beside it.

    Writes share one connection under a lock, each in ``BEGIN IMMEDIATE``. Commits are grouped:
    a writer that finds others queued behind it leaves its work in the open transaction (under
    a savepoint of its own) for the last of them to commit, and every writer of the group
    returns once that one ``COMMIT`` (one ``fsync``) is on the disk. So an acknowledged write
    is as durable as before, and a burst of N writes costs one wait for the disk, not N.
    Reads of a file run on connections of their own, beside the writer (WAL lets them), so
    they never wait for a commit; ``:memory:`` has one connection, which reads share.
    """

    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        """Open (and create, private to its owner) the file at ``path``."""
        if path != ":memory:":
            _private_file(Path(path))
        self.path = path
        self._lock = threading.Lock()
        self.connection = self._connect()
        self.connection.execute("PRAGMA journal_mode=WAL")
        self._group: _CommitGroup | None = None
        self._queued = 0
        """Writers waiting for the lock (read and changed under ``_queue_changed``)."""
        self._queue_changed = threading.Condition()
        self._readers: list[sqlite3.Connection] = []
        """Every reading connection opened (closed with the database)."""
        self._idle_readers: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._closed = False
        """Set by ``close``: no reading connection is opened or lent any more."""

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        connection.execute("PRAGMA synchronous=FULL")
        return connection

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        """One write, committed (with the writes queued behind it) before the block returns.

        The block runs under a savepoint of its own: if it raises, its statements are undone
        and the rest of its group still commits. A failed ``COMMIT`` (the disk full) is rolled
        back, and every writer of the group gets the error: none of them was written. Left
        open, the transaction would refuse every later ``BEGIN`` once the disk has room again.
        """
        self._count_queued(+1)
        self._lock.acquire()
        self._count_queued(-1)
        try:
            group = self._join_group()
        except BaseException:
            self._lock.release()
            raise
        try:
            self.connection.execute("SAVEPOINT write")
            yield self.connection
        except BaseException as error:
            self._undo_write(group, error)
            raise
        else:
            self.connection.execute("RELEASE write")
        finally:
            self._hand_on(group)
        group.wait()

    def _count_queued(self, change: int) -> None:
        with self._queue_changed:
            self._queued += change
            self._queue_changed.notify_all()

    def wait_for_queued_writers(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` writers wait for the one writing (``False``: not by ``timeout``).

        For tests that make a group on purpose.
        """
        with self._queue_changed:
            return self._queue_changed.wait_for(lambda: self._queued >= count, timeout)

    def _join_group(self) -> _CommitGroup:
        """The open transaction's group, or a new one (``BEGIN IMMEDIATE``); the lock held."""
        if self._group is None:
            self.connection.execute("BEGIN IMMEDIATE")
            self._group = _CommitGroup()
        return self._group

    def _undo_write(self, group: _CommitGroup, error: BaseException) -> None:
        """Undo the block that raised ``error``.

        If SQLite undid the whole transaction (a full disk may), the group ends with ``error``.
        """
        if self.connection.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.connection.execute("ROLLBACK TO write")
                self.connection.execute("RELEASE write")
        if not self.connection.in_transaction:
            group.error = error

    def _hand_on(self, group: _CommitGroup) -> None:
        """Commit the group now unless a writer is queued to join it; let go of the lock."""
        try:
            with self._queue_changed:
                queued = self._queued
            if group.error is None and queued and self.path != ":memory:":
                group.members += 1
                if group.members < MAX_COMMIT_GROUP:
                    return  # the next writer joins the transaction and commits it, or passes on
            self._group = None
            if group.error is None:
                try:
                    self.connection.execute("COMMIT")
                except sqlite3.Error as error:
                    group.error = error
            if group.error is not None and self.connection.in_transaction:
                # SQLite may have rolled it back already (SQLITE_FULL does)
                with contextlib.suppress(sqlite3.Error):
                    self.connection.execute("ROLLBACK")
            group.done.set()
        finally:
            self._lock.release()

    @contextlib.contextmanager
    def read(self) -> Iterator[Session]:
        """A reading connection of its own, each statement on its own.

        It sees every write committed before the statement began, and waits for none.
        ``:memory:`` has one connection: its reads take the writers' lock.
        """
        if self.path == ":memory:":
            with self._lock:
                yield self.connection
            return
        with self._queue_changed:
            if self._closed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            try:
                reader = self._idle_readers.get_nowait()
            except queue.Empty:
                reader = self._connect()
                self._readers.append(reader)
        try:
            yield reader
        finally:
            self._idle_readers.put(reader)

    def json_numbers(self, column: str, key: str) -> str:
        """SQLite's ``json_each`` (its ``value`` column)."""
        return f"json_each({column}, '$.{key}')"

    def serialize(self, session: Session, name: str) -> None:
        """Nothing: ``BEGIN IMMEDIATE`` already makes every writer wait for the one before."""

    def close(self) -> None:
        """Close the connections, once the reads under way on other threads have ended.

        A thread may still be reading when the server stops (a task cancelled while its
        ``to_thread`` read runs on); closing its connection under it crashes the process, so
        each reader is closed only once it is back. A read begun after ``close`` is refused.
        """
        with self._queue_changed:
            self._closed = True
            readers, self._readers = self._readers, []
        for _ in readers:
            try:
                self._idle_readers.get(timeout=CLOSE_WAIT_S).close()
            except queue.Empty:
                break  # a read that never ends: its connection is left to the process's end
        with self._lock:
            self.connection.close()


class _CommitGroup:
    """Writers whose work one ``COMMIT`` makes durable; each waits for it (``done``)."""

    def __init__(self) -> None:
        self.members = 0
        """Writers whose work is in the transaction, its committer not counted."""
        self.error: BaseException | None = None
        """Why nothing of the group was written (``None``: committed)."""
        self.done = threading.Event()

    def wait(self) -> None:
        """Return once the group is committed; raise if it could not be."""
        self.done.wait()
        if self.error is not None:
            raise _again(self.error)


def _again(error: BaseException) -> BaseException:
    """A new exception like ``error``, for one more thread of its group to raise."""
    try:
        copy = type(error)(*error.args)
    except Exception:  # an exception that cannot be made again from its args
        return error
    for name in ("sqlite_errorcode", "sqlite_errorname"):  # what is_unavailable reads
        if hasattr(error, name):
            setattr(copy, name, getattr(error, name))
    copy.__cause__ = error
    return copy


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
                "options": (
                    f"-c statement_timeout={STATEMENT_TIMEOUT_MS} "
                    f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"
                ),
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
