"""Fixtures for the server tests: an app on a temporary SQLite store, driven by TestClient.

The socket helpers live in ``tests/table_client.py``.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rummykit.protocol.limits import Limits
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import WORKERS, ManualClock, clocked_app


@pytest.fixture
def clock() -> ManualClock:
    """The tables' clock: the computer's pace passes only when the test advances it."""
    return ManualClock()


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """A fresh database file for one test."""
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(store_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """The app on ``store_path`` and ``clock``, started (lifespan) and stopped around the test.

    It accepts seeds, as only a server made for tests does, so that a test knows its deals.
    """
    app = create_app(
        ServerConfig(store_path=store_path, accept_seeds=True, limits=Limits.unlimited()),
        sleep=clock.sleep,
        workers=WORKERS,
    )
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def app_client(store_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """The app with one clock for the pace, the timers, the graces and the wall."""
    with TestClient(clocked_app(store_path, clock)) as client:
        yield client
