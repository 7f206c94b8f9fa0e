"""Database servers for the tests: a throwaway PostgreSQL, started once per pytest session.

``postgres_server`` (session): a PostgreSQL of its own, made with ``initdb`` in a temporary
folder (as the ``postgres`` user when the tests run as root: PostgreSQL refuses root), on
127.0.0.1 and a free port, durability off (``fsync``), stopped and deleted at the end. With
``RUMMY_TEST_DATABASE_URL`` set, that server is used instead (its user may create databases).
Without PostgreSQL's programs a test that needs it skips on a developer's machine and fails
with ``CI`` set.

``postgres_url``: a fresh database on it for one test, dropped afterwards.
``store_backend``: each store test twice, on a SQLite file and on a fresh PostgreSQL database.

Imported for every test by ``tests/conftest.py``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import sqlite3
import subprocess
import tempfile
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from helpers import IN_CI
from ports import free_port
from rummykit.server.store.database import postgres_sql

DATABASE_URL_ENV = "RUMMY_TEST_DATABASE_URL"
"""A PostgreSQL server the tests use instead of starting their own."""

START_S = 60
"""How long PostgreSQL may take to start (``pg_ctl -t``)."""


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (the newest version's), if installed."""
    found = shutil.which("initdb")
    if found is not None:
        return Path(found).parent
    folders = glob.glob("/usr/lib/postgresql/*/bin")
    folders.sort(key=lambda folder: [int(part) for part in folder.split("/")[4].split(".")])
    return Path(folders[-1]) if folders else None


def _as_postgres(command: list[str]) -> list[str]:
    """``command`` as the ``postgres`` user when we are root (PostgreSQL refuses root)."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextlib.contextmanager
def local_postgres(*, durable: bool = False) -> Iterator[tuple[str, tuple[list[str], list[str]]]]:
    """A PostgreSQL server of its own for as long as the block runs: its URL, and the
    commands that start and stop it again.

    Durability is off (no ``fsync``) unless ``durable``: the tests need no crash safety, a
    benchmark set against SQLite with ``synchronous=FULL`` does.
    """
    binaries = postgres_bin()
    if binaries is None:
        message = "PostgreSQL's programs (initdb, pg_ctl) are not installed"
        if IN_CI:
            pytest.fail(message + ": CI runs every test")
        pytest.skip(message)
    folder = Path(tempfile.mkdtemp(prefix="rummy-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data, port = folder / "data", free_port()
    initdb = [str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]
    subprocess.run(
        _as_postgres([*initdb, "--no-sync", "-E", "UTF8"]), check=True, capture_output=True
    )
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c max_connections=300"
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    pg_ctl = str(binaries / "pg_ctl")
    log = folder / "pg.log"
    start = [pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", str(START_S), "-o", options]
    try:
        subprocess.run(_as_postgres([*start, "start"]), check=True, capture_output=True)
        fast_stop = [pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"]
        control = (_as_postgres([*start, "start"]), _as_postgres(fast_stop))
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres", control
    finally:
        stop = [pg_ctl, "-D", str(data), "-m", "immediate", "stop"]
        subprocess.run(_as_postgres(stop), check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@dataclass(frozen=True)
class PostgresServer:
    """A PostgreSQL server the tests may create databases on."""

    url: str
    """Its maintenance database's URL (``postgres``)."""
    control: tuple[list[str], list[str]] | None = None
    """The commands that start and stop it, for a server of the tests' own (``None``:
    another's, named by ``RUMMY_TEST_DATABASE_URL``)."""

    @contextlib.contextmanager
    def down(self) -> Iterator[None]:
        """The server stopped for as long as the block runs, then started again."""
        if self.control is None:
            pytest.skip(f"{DATABASE_URL_ENV} names a server the tests cannot stop")
        start, stop = self.control
        subprocess.run(stop, check=True, capture_output=True)
        try:
            yield
        finally:
            subprocess.run(start, check=True, capture_output=True)

    def new_database(self) -> str:
        """A new empty database's URL."""
        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return database_url(self.url, name)

    def drop_database(self, url: str) -> None:
        """Drop a database made by ``new_database``, whoever is still connected to it."""
        name = urllib.parse.urlsplit(url).path.lstrip("/")
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def database_url(server_url: str, name: str) -> str:
    """The URL of the database ``name`` on the server of ``server_url``."""
    return urllib.parse.urlsplit(server_url)._replace(path="/" + name).geturl()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server: ``RUMMY_TEST_DATABASE_URL``'s, or one of its own."""
    given = os.environ.get(DATABASE_URL_ENV)
    if given:
        yield PostgresServer(given)
        return
    with local_postgres() as (url, control):
        yield PostgresServer(url, control)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh database for one test, dropped after it."""
    url = postgres_server.new_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


@dataclass(frozen=True)
class StoreBackend:
    """Where a test's store lives: ``kind`` is ``sqlite`` or ``postgresql``."""

    kind: str
    location: str
    """What ``Store`` and ``create_app`` take: a SQLite file's path or a PostgreSQL URL."""

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (``?`` placeholders) on a connection of its own, committed."""
        if self.kind == "sqlite":
            with contextlib.closing(sqlite3.connect(self.location)) as lite, lite:
                return list(lite.execute(sql, params).fetchall())
        with psycopg.connect(self.location, autocommit=True) as server:
            cursor = server.execute(postgres_sql(sql), params)
            return list(cursor.fetchall()) if cursor.description else []


@pytest.fixture(params=["sqlite", "postgresql"])
def store_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreBackend]:
    """A store's location for one test, on each database in turn."""
    if request.param == "sqlite":
        yield StoreBackend("sqlite", str(tmp_path / "tables.sqlite3"))
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.new_database()
    try:
        yield StoreBackend("postgresql", url)
    finally:
        server.drop_database(url)
