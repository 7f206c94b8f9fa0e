"""SQLite's grouped commits: writers queued behind one share its COMMIT, and none returns early.

Each test makes a group on purpose: the first writer holds its block open until the others
wait behind it (``wait_for_queued_writers``), so they all join its transaction.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.store.database import Session, SQLiteDatabase, is_unavailable

WAIT_S = 10.0
"""The longest a test waits for its threads (they take milliseconds)."""


@pytest.fixture
def database(tmp_path: Path) -> Iterator[SQLiteDatabase]:
    db = SQLiteDatabase(str(tmp_path / "store.sqlite3"))
    with db.transaction() as session:
        session.execute("CREATE TABLE notes (writer TEXT)")
    yield db
    db.close()


def _rows(path: str) -> list[str]:
    """The notes as another connection (another process would) sees them."""
    with sqlite3.connect(path) as outside:
        return sorted(row[0] for row in outside.execute("SELECT writer FROM notes"))


def _note(name: str, *, fail: bool = False) -> Callable[[Session], None]:
    def write(session: Session) -> None:
        session.execute("INSERT INTO notes VALUES (?)", (name,))
        if fail:
            raise ValueError(f"{name} changed its mind")

    return write


def _group(
    database: SQLiteDatabase, first: Callable[[Session], None], *rest: Callable[[Session], None]
) -> list[Future[None]]:
    """Run ``first``, holding the lock until every one of ``rest`` is queued behind it."""
    holding, released = threading.Event(), threading.Event()

    def leader(session: Session) -> None:
        holding.set()
        assert released.wait(WAIT_S)
        first(session)

    def write(block: Callable[[Session], None]) -> None:
        with database.transaction() as session:
            block(session)

    pool = ThreadPoolExecutor(len(rest) + 1)
    futures = [pool.submit(write, leader)]
    assert holding.wait(WAIT_S)
    futures += [pool.submit(write, block) for block in rest]
    assert database.wait_for_queued_writers(len(rest), WAIT_S)
    released.set()
    pool.shutdown(wait=True)
    return futures


def test_writers_queued_behind_one_commit_together_and_each_returns_committed(
    database: SQLiteDatabase,
) -> None:
    commits: list[str] = []
    real = database.connection

    class Counting:
        def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
            if sql == "COMMIT":
                commits.append(sql)
            return real.execute(sql, params)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    database.connection = Counting()  # type: ignore[assignment]
    futures = _group(database, _note("a"), _note("b"), _note("c"), _note("d"))
    assert [future.result() for future in futures] == [None] * 4
    assert len(commits) == 1  # one fsync for four writes
    assert _rows(database.path) == ["a", "b", "c", "d"]


def test_a_writer_that_raises_takes_back_only_its_own_statements(
    database: SQLiteDatabase,
) -> None:
    futures = _group(database, _note("a"), _note("b", fail=True), _note("c"))
    assert futures[0].result() is None
    with pytest.raises(ValueError, match="b changed its mind"):
        futures[1].result()
    assert futures[2].result() is None
    assert _rows(database.path) == ["a", "c"]


def test_a_leader_that_raises_leaves_the_rest_of_its_group_to_commit(
    database: SQLiteDatabase,
) -> None:
    futures = _group(database, _note("a", fail=True), _note("b"), _note("c"))
    with pytest.raises(ValueError):
        futures[0].result()
    assert [futures[1].result(), futures[2].result()] == [None, None]
    assert _rows(database.path) == ["b", "c"]


def test_a_failed_commit_fails_every_writer_of_the_group_and_writes_none(
    database: SQLiteDatabase,
) -> None:
    real = database.connection
    full = threading.Event()

    class FullOnCommit:
        def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
            if sql == "COMMIT" and full.is_set():
                raise disk_full()
            return real.execute(sql, params)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    database.connection = FullOnCommit()  # type: ignore[assignment]
    full.set()
    futures = _group(database, _note("a"), _note("b"), _note("c"))
    for future in futures:
        with pytest.raises(sqlite3.OperationalError, match="disk is full"):
            future.result()
    assert _rows(database.path) == []
    full.clear()  # room again: the next write begins afresh and commits
    with database.transaction() as session:
        _note("later")(session)
    assert _rows(database.path) == ["later"]


def test_a_read_does_not_wait_for_a_write_in_progress(database: SQLiteDatabase) -> None:
    with database.transaction() as session:
        _note("before")(session)
    writing, read_done = threading.Event(), threading.Event()

    def slow_writer(session: Session) -> None:
        _note("during")(session)
        writing.set()
        assert read_done.wait(WAIT_S)  # the read below finishes while this write is open

    with ThreadPoolExecutor(1) as pool:
        write = pool.submit(lambda: _run(database, slow_writer))
        assert writing.wait(WAIT_S)
        with database.read() as session:
            seen = [row[0] for row in session.execute("SELECT writer FROM notes")]
        read_done.set()
        write.result()
    assert seen == ["before"]  # not the uncommitted write
    with database.read() as session:
        assert sorted(row[0] for row in session.execute("SELECT writer FROM notes")) == [
            "before",
            "during",
        ]


def _run(database: SQLiteDatabase, block: Callable[[Session], None]) -> None:
    with database.transaction() as session:
        block(session)


def disk_full() -> sqlite3.OperationalError:
    """The error SQLite raises on a full disk, with its result code (``SQLITE_FULL``)."""
    error = sqlite3.OperationalError("database or disk is full")
    error.sqlite_errorcode = sqlite3.SQLITE_FULL
    error.sqlite_errorname = "SQLITE_FULL"
    return error


def test_only_an_outage_of_sqlite_counts_as_unavailable(tmp_path: Path) -> None:
    """A full disk or a busy file may pass; a mistake of ours (SQLITE_ERROR) fails loudly."""
    assert is_unavailable(disk_full())
    connection = sqlite3.connect(tmp_path / "x.sqlite3")
    with pytest.raises(sqlite3.OperationalError) as mistake:
        connection.execute("SELECT * FROM no_such_table")
    connection.close()
    assert not is_unavailable(mistake.value)
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = sqlite3.SQLITE_BUSY
    assert is_unavailable(busy)
    assert not is_unavailable(sqlite3.OperationalError("no code"))  # not SQLite's own


def test_every_writer_of_a_group_that_could_not_commit_is_told_it_is_an_outage(
    database: SQLiteDatabase,
) -> None:
    real = database.connection

    class FullOnCommit:
        def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
            if sql == "COMMIT":
                raise disk_full()
            return real.execute(sql, params)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    database.connection = FullOnCommit()  # type: ignore[assignment]
    futures = _group(database, _note("a"), _note("b"))
    errors = [future.exception() for future in futures]
    assert all(error is not None and is_unavailable(error) for error in errors)
