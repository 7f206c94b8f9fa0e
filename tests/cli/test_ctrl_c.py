"""Ctrl+C stops ``rummy serve`` with a line and no traceback, from the server or its workers.

Ctrl+C in a terminal reaches the whole process group: the server and its worker processes.
A worker still starting (importing, a second or more on a busy machine) printed a
``KeyboardInterrupt`` traceback of its own. The test sends SIGINT to the group, as a terminal
does, while a worker process is importing.

The command itself imported the whole server before its ``main`` could catch a Ctrl+C: one in
its first second or two printed a traceback. Now ``main`` imports everything a command needs,
and ``python -m rummykit`` catches a Ctrl+C from its first line; the tests send SIGINT at
moments of the start read from ``python -X importtime`` (each line tells a module imported).
What Python does before it runs any of ours (its ``site`` module, a few milliseconds) is
Python's own: a Ctrl+C there still prints Python's traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from helpers import python_output
from ports import free_port
from rummykit.cli import main
from rummykit.server import site
from table_client import STUCK_S, hello

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(sys.platform != "linux", reason="reads /proc for the worker processes"),
]


@pytest.fixture(autouse=True)
def _ctrl_c_not_ignored() -> Iterator[None]:
    """The commands started here meet Ctrl+C as a terminal's are, even when this test run was
    started in the background: a shell's ``&`` ignores SIGINT, a started program inherits that,
    and a Ctrl+C sent before the server sets its own handler was then lost (the server served
    on). A handler of Python's own is not inherited: the commands start with the default."""
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _a_worker_is_importing(pid: int) -> bool:
    """Whether a worker process of ``pid`` is half way through its imports (asyncio's core
    is loaded, the first of ``rummykit.server.runtime.workers``'s imports, and the bots and the
    rules
    are still to come)."""
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            loaded = Path(f"/proc/{child}/maps").read_text()
        except OSError:
            continue  # gone already
        if b"spawn_main" in command and "/_asyncio." in loaded:
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
    assert server.returncode == 128 + signal.SIGINT


def _stopped_by_ctrl_c(returncode: int) -> bool:
    """Whether a process ended as Ctrl+C ends a program: exit code 130, or killed by SIGINT.

    Python ends by SIGINT (which a shell shows as 130 too) when the Ctrl+C it caught had
    interrupted code run by ``exec`` of a string (``namedtuple``, ``dataclasses``, pydantic's
    models: all over a start), even though ``main`` caught it.
    """
    return returncode in (128 + signal.SIGINT, -signal.SIGINT)


# Modules in the order ``rummy serve`` imports them: its command line, the parser's modules
# (the clients' pydantic models), the server's web framework, its database layer, and the last
# module before the server opens its store and starts.
_START_MOMENTS = (
    "rummykit.cli",
    "pydantic_core",
    "uvicorn",
    "sqlalchemy",
    "rummykit.server.site.run",
)


def _imported(line: str) -> str:
    """The module an ``-X importtime`` line says was imported ("" for any other line)."""
    if not line.startswith("import time:"):
        return ""
    return line.rsplit("|", 1)[-1].strip()


@pytest.mark.parametrize("moment", _START_MOMENTS)
def test_ctrl_c_while_rummy_serve_starts_ends_it_with_a_line(moment: str, tmp_path: Path) -> None:
    environment = {**os.environ, "RUMMY_DATA_DIR": str(tmp_path / "data")}
    command = [sys.executable, "-X", "importtime", "-m", "rummykit", "serve"]
    server = subprocess.Popen(
        [*command, "--port", str(free_port()), "--workers", "1"],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        imported: list[str] = []
        for line in server.stderr:  # ends when the process does: no deadline needed
            imported.append(_imported(line))
            if imported[-1] == moment:
                server.send_signal(signal.SIGINT)
                break
        output, errors = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert moment in imported, f"{moment} was never imported"
    said = [line for line in errors.splitlines() if not _imported(line)]
    assert "Traceback" not in errors, errors
    assert said == ["Stopped (Ctrl+C)."], said
    assert "rummykit is serving" not in output  # stopped before it served
    assert _stopped_by_ctrl_c(server.returncode), server.returncode


def test_ctrl_c_before_the_server_serves_ends_the_command_quietly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*arguments: object, **options: object) -> None:
        raise KeyboardInterrupt  # as Ctrl+C during the start (the database being opened)

    monkeypatch.setattr(site, "serve", interrupted)
    assert main(["serve", "--store", str(tmp_path / "tables.sqlite3")]) == 128 + signal.SIGINT
    assert capsys.readouterr().err == "Stopped (Ctrl+C).\n"


@pytest.mark.parametrize("stopped_by_ctrl_c, code", [(True, 128 + signal.SIGINT), (False, 0)])
def test_a_server_that_ctrl_c_stopped_ends_the_command_with_130(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stopped_by_ctrl_c: bool, code: int
) -> None:
    def served(*arguments: object, **options: object) -> bool:
        return stopped_by_ctrl_c

    monkeypatch.setattr(site, "serve", served)
    store = str(tmp_path / "tables.sqlite3")
    assert main(["serve", "--store", store]) == code
    assert main(["play", "--no-browser", "--store", store]) == code


def test_the_rummy_command_imports_nothing_of_its_own_before_main(tmp_path: Path) -> None:
    # what ``rummy`` and ``python -m rummykit`` import before ``main`` catches Ctrl+C: the
    # package and its command line only, and of Python's library only what Python had loaded
    script = (
        "import sys; before = set(sys.modules); import rummykit.cli; "
        "print(sorted(set(sys.modules) - before))"
    )
    # as installed: the pure-engine switch of the tests' second run loads its finder first
    assert python_output(script) == "['__future__', 'rummykit', 'rummykit.cli']"
