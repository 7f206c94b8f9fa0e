"""``rummy serve`` as a process of its own, for tests that kill the server the hard way.

``ServerProcess`` is a ``LiveServer`` (same address, same JSON calls) whose server runs in a
separate process, as in production: a live server that shuffles with the operating system's
randomness and keeps the default limits. ``kill`` ends it with SIGKILL, as a crash or the
out-of-memory killer would: no shutdown, no flush, no close of the database. ``start`` again
serves the same store on the same port. Its output goes to a log file, shown when it fails.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

from table_client import STUCK_S, LiveServer

READY_POLL_S = 0.02
"""The wait between two readiness probes while the process starts (about 0.5 s): it is spent
waiting on the process itself, so a server that dies on start is seen at once."""


class ServerProcess(LiveServer):
    """``python -m rummykit serve`` on ``store_path`` and ``port``; always stopped on exit."""

    def __init__(self, store_path: Path, port: int, log_path: Path, *options: str) -> None:
        """A server to be started; its output is appended to ``log_path``; ``options`` go to
        ``rummy serve`` (``--database-url URL --redis-url URL`` for a site of several)."""
        super().__init__(store_path, port)
        self.log_path = log_path
        self.options = options
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        """The running server's process id."""
        assert self.process is not None, "the server is not running"
        return self.process.pid

    def start(self) -> None:
        """Start the process and wait until it answers ``GET /api/options``."""
        self.launch()
        self._wait_ready()

    def launch(self) -> None:
        """Start the process without waiting: ``wait_ready`` then (servers start side by side)."""
        assert self.process is None, "the server is already running"
        command = [sys.executable, "-m", "rummykit", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--store", str(self.store_path), *self.options]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    def wait_ready(self) -> None:
        """Wait until the launched process answers (``RuntimeError`` if it ends or does not)."""
        self._wait_ready()

    def _wait_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + STUCK_S
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/api/options", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass  # not listening yet
            try:
                code = self.process.wait(timeout=READY_POLL_S)
            except subprocess.TimeoutExpired:
                continue  # still starting
            self.process = None
            raise RuntimeError(f"the server exited with {code} on start:\n{self.log()}")
        raise RuntimeError(f"the server did not answer within {STUCK_S} s:\n{self.log()}")

    def signal(self, sent: signal.Signals) -> None:
        """Send the server a signal (``SIGSTOP``, ``SIGCONT``...)."""
        assert self.process is not None, "the server is not running"
        os.kill(self.process.pid, sent)

    def kill(self) -> None:
        """SIGKILL the server and reap it."""
        assert self.process is not None, "the server is not running"
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        """Stop the server if it runs: SIGTERM, then SIGKILL if it lingers."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def log(self) -> str:
        """What the server processes have printed (the last lines)."""
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-40:])

    def record(self, table_id: str, token: str) -> dict[str, Any]:
        """A finished game's record, as ``GET /api/games/{id}/record`` gives a seat of it."""
        request = urllib.request.Request(
            f"{self.url}/api/games/{urllib.parse.quote(table_id)}/record",
            headers={"Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request, timeout=STUCK_S) as answer:
            record: dict[str, Any] = json.loads(answer.read())
            return record

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
