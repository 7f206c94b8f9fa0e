"""A process of a site of several, in the tests: an app of its own on one PostgreSQL database
and one Redis, as `rummy serve --database-url --redis-url` makes it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from starlette.testclient import TestClient

from redis_service import RedisService
from rummykit.protocol.limits import Limits
from rummykit.server.cluster.site import Cluster
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import WORKERS, ManualClock

LEASE_S = 3.0
"""Short leases (a stopped owner releases its own at once); long enough to be renewed on a
loaded machine (at 1 s, owners lost tables mid-game when two pytest workers shared 2 cores)."""


@contextmanager
def process(
    tmp_path: Path, database_url: str, redis: RedisService, clock: ManualClock | None = None
) -> Iterator[TestClient]:
    """One server process of the site, started and stopped around the ``with``.

    Its own event loop, Redis connections and database pool; its time is ``clock``'s when
    given (its rounds and timers move when the test moves it), else the real clock's.
    """
    app = create_app(
        ServerConfig(
            store_path=tmp_path / "unused.sqlite3",
            database_url=database_url,
            accept_seeds=True,
            limits=Limits.unlimited(),
        ),
        cluster=Cluster.on_redis(redis.url, lease_s=LEASE_S),
        workers=WORKERS,
        sleep=asyncio.sleep if clock is None else clock.sleep,
        now=time.time if clock is None else clock.time,
        clock=time.monotonic if clock is None else clock.time,
    )
    with TestClient(app) as client:
        yield client
