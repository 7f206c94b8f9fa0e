"""Ctrl+C stops ``rummy serve`` with a line and no traceback, from the server or its workers.

Ctrl+C in a terminal reaches the whole process group: the server and its worker processes.
A worker still starting (importing, a second or more on a busy machine) printed a
``KeyboardInterrupt`` traceback of its own. The test sends SIGINT to the group, as a terminal
does, while a worker process is importing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from websockets.sync.client import connect

from rummykit.cli import main
from rummykit.server import run
from rummykit.server.run import free_port
from table_client import STUCK_S, hello

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(sys.platform != "linux", reason="reads /proc for the worker processes"),
]


def _a_worker_is_importing(pid: int) -> bool:
    """Whether a worker process of ``pid`` is half way through its imports (pydantic's core
    is loaded, and rummykit's server modules are still to come)."""
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            loaded = Path(f"/proc/{child}/maps").read_text()
        except OSError:
            continue  # gone already
        if b"spawn_main" in command and "pydantic_core" in loaded:
            return True
    return False


def _wait_for(condition_met: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + STUCK_S
    while not condition_met():
        assert time.monotonic() < deadline, f"no {what} within {STUCK_S} s"
        time.sleep(0.01)  # polling a process from outside: nothing to wait on


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=1):
            return True
    except OSError:
        return False


def test_ctrl_c_while_a_worker_starts_prints_no_traceback(tmp_path: Path) -> None:
    port = free_port()
    environment = {**os.environ, "RUMMY_DATA_DIR": str(tmp_path / "data")}
    command = [sys.executable, "-m", "rummykit", "serve", "--port", str(port), "--workers", "2"]
    server = subprocess.Popen(
        command,
        env=environment,
        start_new_session=True,  # a group of its own, as a terminal's job is
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        _wait_for(lambda: _answers(port) or server.poll() is not None, "answer")
        body = json.dumps({"preset": "classic", "opponents": ["basic"]}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables",
            data=body,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            created = json.loads(answer.read())
        with connect(f"ws://127.0.0.1:{port}/ws/{created['table']}") as websocket:
            websocket.send(hello(created["token"]))
            view = json.loads(websocket.recv(timeout=STUCK_S))
            websocket.send(json.dumps({"t": "hint", "v": view["v"], "d": {}}))  # workers start
            _wait_for(lambda: _a_worker_is_importing(server.pid), "worker starting")
            os.killpg(server.pid, signal.SIGINT)  # Ctrl+C: the whole group
        output, _ = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()
    assert "Traceback" not in output, output
    assert "KeyboardInterrupt" not in output, output
    assert output.rstrip().endswith("rummykit stopped."), output
    assert server.returncode == 0


def test_ctrl_c_before_the_server_serves_ends_the_command_quietly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*arguments: object, **options: object) -> None:
        raise KeyboardInterrupt  # as Ctrl+C during the start (the database being opened)

    monkeypatch.setattr(run, "serve", interrupted)
    assert main(["serve", "--store", str(tmp_path / "tables.sqlite3")]) == 128 + signal.SIGINT
    assert capsys.readouterr().err == "Stopped (Ctrl+C).\n"
