"""Closing a SQLite database while another thread reads waits for the read, never pulls it.

A server that stops cancels its tasks, but a read a task handed to a thread runs on; closing
that thread's connection under it crashed the whole process (a CI run died of it, in
``arenas.unfinished``). These tests hold a read open on purpose and close meanwhile.
"""

from __future__ import annotations

import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rummykit.server.store.database import SQLiteDatabase

WAIT_S = 10.0
"""The longest a test waits for its threads (they take milliseconds)."""


def _database(tmp_path: Path) -> SQLiteDatabase:
    db = SQLiteDatabase(str(tmp_path / "store.sqlite3"))
    with db.transaction() as session:
        session.execute("CREATE TABLE notes (writer TEXT)")
        session.execute("INSERT INTO notes VALUES ('first')")
    return db


def test_close_waits_for_a_read_under_way_and_the_read_ends_whole(tmp_path: Path) -> None:
    db = _database(tmp_path)
    reading, may_finish = threading.Event(), threading.Event()

    def read_slowly() -> list[str]:
        with db.read() as session:
            reading.set()
            assert may_finish.wait(WAIT_S)
            return [row[0] for row in session.execute("SELECT writer FROM notes")]

    with ThreadPoolExecutor(2) as threads:
        read = threads.submit(read_slowly)
        assert reading.wait(WAIT_S)
        closing = threads.submit(db.close)
        # the reader is still lent out: close is waiting for it, not closing it underneath
        assert not closing.done()
        with pytest.raises(TimeoutError):
            closing.result(timeout=0.05)
        may_finish.set()
        assert read.result(timeout=WAIT_S) == ["first"]
        closing.result(timeout=WAIT_S)


def test_a_read_begun_after_close_is_refused_and_opens_no_connection(tmp_path: Path) -> None:
    db = _database(tmp_path)
    with db.read() as session:  # one reader opened and given back
        session.execute("SELECT 1")
    db.close()
    with pytest.raises(sqlite3.ProgrammingError), db.read():
        pass
    with pytest.raises(sqlite3.ProgrammingError), db.transaction() as session:
        session.execute("SELECT 1")


def test_closing_with_readers_idle_closes_every_one(tmp_path: Path) -> None:
    db = _database(tmp_path)
    opened: list[sqlite3.Connection] = []
    with db.read() as first, db.read() as second:  # two at once: two connections
        opened += [first, second]  # type: ignore[list-item]
    db.close()
    for connection in opened:
        with pytest.raises(sqlite3.ProgrammingError):
            connection.execute("SELECT 1")
