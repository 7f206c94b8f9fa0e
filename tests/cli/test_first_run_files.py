"""Every ``rummy`` command that writes a file works on a fresh machine: an empty home folder.

A newcomer has no data folder yet, and may name a ``--store``, a ``RUMMY_DATA_DIR`` or an
output file in a folder nobody has made. Each command here runs as a process of its own,
as a person types it, with ``HOME`` an empty folder and no ``RUMMY_DATA_DIR`` (unless the
test sets one that does not exist): it must make the folders it writes in, the data folder
and its files readable by their owner only, and not crash. (The first ``make run`` once
crashed on every fresh machine because the store's lock file came before its folder.)
"""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from ports import free_port

pytestmark = pytest.mark.timeout(120)

START_S = 30.0
"""The longest wait for a server process to answer: it starts in about a second."""

PASSWORD = "correct horse battery"


def fresh_environment(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a person on a new machine: ``home`` empty, no data folder set."""
    kept = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("RUMMY_", "XDG_")) and key not in ("HOME", "PYTHONPATH")
    }
    # this process's import path, so that the command runs the code under test
    source = str(Path(__file__).resolve().parents[2] / "src")
    return {**kept, "HOME": str(home), "PYTHONPATH": source, **extra}


def rummy(*arguments: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``rummy ARGUMENTS`` run to its end."""
    return subprocess.run(
        [sys.executable, "-m", "rummykit", *arguments],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )


class Serving:
    """``rummy serve`` or ``rummy play --no-browser`` as a process, until ``stop``."""

    def __init__(self, arguments: list[str], env: dict[str, str], cwd: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = cwd / f"server-{self.port}.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "rummykit", *arguments, "--port", str(self.port)],
                env=env,
                cwd=cwd,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self._wait_ready()

    def _wait_ready(self) -> None:
        # A poll, with a deadline: the server is another process, and its port is all there
        # is to wait on (it prints its address before it listens, and nothing once it does).
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            code = self.process.poll()
            if code is not None:
                raise AssertionError(f"exited with {code} on start:\n{self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/api/options", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.05)
        raise AssertionError(f"no answer within {START_S} s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        """Ctrl+C, as a person stops it; it must end cleanly."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise AssertionError(f"Ctrl+C did not stop it:\n{self.output()}") from None


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def serving() -> Iterator[list[Serving]]:
    started: list[Serving] = []
    yield started
    for each in started:
        each.stop()


def data_folder_of(home: Path) -> Path:
    """Where a user's data folder is on Linux with nothing set (platformdirs' answer)."""
    return home / ".local" / "share" / "rummykit"


def assert_owner_only(folder: Path, *files: str) -> None:
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    for name in files:
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, folder / name


@pytest.mark.parametrize("command", [["serve"], ["play", "--no-browser"]])
def test_the_server_commands_make_the_data_folder_on_a_fresh_machine(
    command: list[str], home: Path, tmp_path: Path, serving: list[Serving]
) -> None:
    server = Serving(command, fresh_environment(home), tmp_path)
    serving.append(server)
    folder = data_folder_of(home)
    assert str(folder / "tables.sqlite3") in server.output()  # it says where games are kept
    assert_owner_only(folder, "tables.sqlite3", "tables.sqlite3.lock")
    server.stop()
    assert server.process.returncode == 128 + signal.SIGINT, server.output()  # as Ctrl+C ends
    assert "Traceback" not in server.output()


@pytest.mark.parametrize("command", [["serve"], ["play", "--no-browser"]])
def test_a_port_taken_by_another_program_is_said_and_no_address_is_announced(
    command: list[str], home: Path, tmp_path: Path
) -> None:
    with socket.create_server(("127.0.0.1", free_port())) as taken:
        port = taken.getsockname()[1]
        ended = rummy(*command, "--port", str(port), env=fresh_environment(home), cwd=tmp_path)
    assert ended.returncode == 1, ended
    said = f"rummy {command[0]}: another program already listens on 127.0.0.1:{port}"
    assert ended.stderr.startswith(said), ended.stderr
    assert "--port" in ended.stderr  # what to do about it
    assert "serving at" not in ended.stdout, ended.stdout  # never announced, then refused
    assert "Traceback" not in ended.stderr


def test_a_store_or_data_folder_in_folders_not_made_yet_is_made(
    home: Path, tmp_path: Path, serving: list[Serving]
) -> None:
    data = home / "not" / "made" / "yet"
    environment = fresh_environment(home, RUMMY_DATA_DIR=str(data))
    serving.append(Serving(["serve"], environment, tmp_path))
    assert_owner_only(data, "tables.sqlite3", "tables.sqlite3.lock")
    store = tmp_path / "new" / "dir" / "x.sqlite3"
    serving.append(Serving(["serve", "--store", str(store)], fresh_environment(home), tmp_path))
    assert_owner_only(store.parent, "x.sqlite3", "x.sqlite3.lock")


def test_accounts_and_seats_are_kept_in_a_data_folder_made_for_them(
    home: Path, tmp_path: Path, serving: list[Serving]
) -> None:
    server_home = tmp_path / "server-home"
    server_home.mkdir()
    server = Serving(["serve"], fresh_environment(server_home), tmp_path)
    serving.append(server)
    environment = fresh_environment(home)
    password = tmp_path / "password.txt"
    password.write_text(PASSWORD + "\n", encoding="utf-8")
    account = ["account", "new", "--server", server.url, "--name", "robo-1", "--bot-account"]
    made = rummy(*account, "--password-file", str(password), env=environment, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    folder = data_folder_of(home)
    assert_owner_only(folder, "accounts.json")
    shown = rummy("account", "show", env=environment, cwd=tmp_path)
    assert shown.returncode == 0 and "robo-1" in shown.stdout, shown.stderr

    # a party played by two programs; the seat is kept in the data folder, the record in a
    # folder the command makes
    short = ["--rule", "target=1", "--rule", "deals=1", "--pace", "0", "--bot", "basic"]
    party = ["party", "new", "--server", server.url, "--players", "2", "--name", "Host"]
    host = subprocess.Popen(
        [sys.executable, "-m", "rummykit", *party, "--json", *short],
        env=environment,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout is not None
        invite = json.loads(host.stdout.readline())
        record = tmp_path / "games" / "of" / "today.json"
        join = ["join", invite["code"], "--server", server.url, "--name", "Guest", "--json"]
        joined = rummy(
            *join, "--bot", "basic", "--record", str(record), env=environment, cwd=tmp_path
        )
        assert joined.returncode == 0, joined.stderr
        assert host.wait(timeout=60) == 0, host.stderr.read() if host.stderr else ""
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert json.loads(record.read_text(encoding="utf-8"))["format"].startswith("rummy-record")
    # the joiner's seat (the host keeps one only when given --seat-file)
    seats = sorted(path.name for path in (folder / "seats").iterdir())
    assert len(seats) == 1 and seats[0].startswith(invite["code"])
    assert_owner_only(folder / "seats", *seats)


def test_a_tournament_writes_into_folders_it_makes(home: Path, tmp_path: Path) -> None:
    folders = ["--records", "out/records", "--checkpoint", "out/kept", "--plot", "out/p/sim.png"]
    finished = rummy(
        *("sim", "basic", "random", "--games", "2", "--deals-only", "--seed", "1", "--quiet"),
        *folders,
        env={**fresh_environment(home), "MPLBACKEND": "Agg"},
        cwd=tmp_path,
    )
    assert finished.returncode == 0, finished.stderr
    assert list((tmp_path / "out" / "records").iterdir())
    assert list((tmp_path / "out" / "kept").iterdir())
    assert (tmp_path / "out" / "p" / "sim.png").stat().st_size > 0
