"""A throwaway Redis for the tests (and the bus benchmark): ``redis-server`` on a free loopback
port in a temporary folder, without persistence, stopped at the end.

``RUMMY_TEST_REDIS_URL`` names a Redis to use instead. Where ``redis-server`` is missing the
tests that need it skip, except in CI, where they fail (``apt-get install redis-server``).

A test may ``restart`` the server mid-test: every connection drops and the data is gone, as
after a real Redis restart without persistence. On a Redis named by ``RUMMY_TEST_REDIS_URL``
(not ours to restart) the same is done by hand: ``CLIENT KILL`` of every other connection and
``FLUSHDB``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

import pytest
import redis

from helpers import IN_CI
from ports import free_port

URL_VARIABLE = "RUMMY_TEST_REDIS_URL"
START_S = 10.0
"""The longest a starting ``redis-server`` may take to answer (it takes about 20 ms)."""
POLL_S = 0.01
"""The wait between two pings while ``redis-server`` starts: spent on the process itself."""


class RedisProcess:
    """``redis-server`` on 127.0.0.1 at a free port, data in memory only; ``start`` and
    ``stop`` by its pid, ``restart`` on the same port."""

    def __init__(self, folder: Path, binary: str = "redis-server") -> None:
        self.folder = folder
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server and wait until it answers."""
        log = (self.folder / "redis.log").open("ab")
        self.process = subprocess.Popen(
            [
                self.binary,
                *("--bind", "127.0.0.1", "--port", str(self.port)),
                *("--save", "", "--appendonly", "no", "--dir", str(self.folder)),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + START_S
        with redis.Redis.from_url(self.url, socket_connect_timeout=1.0) as probe:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(f"redis-server ended at start: {self.log_tail()}")
                try:
                    probe.ping()
                    return
                except redis.ConnectionError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(POLL_S)

    def stop(self) -> None:
        """Stop the server (SIGTERM to its pid: no save, it has no persistence)."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=START_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def restart(self) -> None:
        """Stop and start again on the same port: connections drop, data is gone."""
        self.stop()
        self.start()

    def log_tail(self) -> str:
        path = self.folder / "redis.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def __enter__(self) -> RedisProcess:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


class RedisService:
    """The Redis the tests use: its ``url``, and ``restart`` (see the module's docstring)."""

    def __init__(self, url: str, process: RedisProcess | None) -> None:
        self.url = url
        self.process = process

    def restart(self) -> None:
        """Drop every connection and every key, by a real restart where the server is ours."""
        if self.process is not None:
            self.process.restart()
            return
        with redis.Redis.from_url(self.url) as admin:
            admin.client_kill_filter(_type="pubsub", skipme=True)
            admin.client_kill_filter(_type="normal", skipme=True)
            admin.flushdb()

    @contextlib.contextmanager
    def down(self) -> Iterator[None]:
        """The server stopped for as long as the block runs, then started again (empty)."""
        if self.process is None:
            pytest.skip(f"{URL_VARIABLE} names a Redis the tests cannot stop")
        self.process.stop()
        try:
            yield
        finally:
            self.process.start()


def redis_binary() -> str | None:
    """The path of ``redis-server``, or ``None`` when it is not installed."""
    return shutil.which("redis-server")


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisService]:
    """A Redis for the whole session: ``RUMMY_TEST_REDIS_URL`` if set, else our own."""
    url = os.environ.get(URL_VARIABLE)
    if url:
        yield RedisService(url, None)
        return
    binary = redis_binary()
    if binary is None:
        reason = "redis-server is not installed (apt-get install redis-server)"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    with (
        tempfile.TemporaryDirectory(prefix="rummy-redis-") as folder,
        RedisProcess(Path(folder), binary) as process,
    ):
        yield RedisService(process.url, process)
