"""The README's first command, as a stranger runs it on a fresh machine, then a deal in Chromium.

The test copies the repository's files (as a clean clone has them) into an empty folder,
runs the first line of the README's command block **exactly as written there** (``make
run``) with an empty home folder and no data folder, and waits for the address it prints.
The "browser" it opens is a script that notes the address, so the test knows that the
command tried to open it. Then Chromium plays a whole deal against the computer on that
server, and no page error or console error may happen on the way.

It also checks the README's figure for the size of that install against the folder the
command made, and prints the figures measured (the first run's time, the install's size),
so ``pytest -s`` shows them.

The install comes from the package index, as a stranger's does: this test needs the
network to PyPI, which CI has.
"""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from table_client import LiveServer
from web.test_table_page import start_from_lobby
from web_helpers import ClickPlayer, fresh_page, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900), pytest.mark.heavy]

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

FIRST_RUN_S = 600.0
"""The longest wait for the first run to serve: a fresh virtual environment and the game's
packages from PyPI (about half a minute here; a slow mirror may take several)."""

SIZE_TOLERANCE = 0.25
"""How far the README's "about N MB" may be from the measured install: packages move a
little with each release, the figure should not move with them."""

SERVING = re.compile(r"rummykit is serving at (http://127\.0\.0\.1:\d+)/")


def readme_first_command() -> str:
    """The first line of the README's command block, without its comment."""
    lines = README.read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```bash") + 1 : lines.index("```")]
    return block[0].split("#", 1)[0].strip()


def readme_install_megabytes() -> int:
    """The README's figure for what the first command installs."""
    flat = " ".join(README.read_text(encoding="utf-8").split())
    found = re.search(r"`make run` installs only what the game needs \(about (\d+) MB\)", flat)
    assert found, "the README gives the size of what `make run` installs"
    return int(found.group(1))


def clean_copy(target: Path) -> Path:
    """The repository's files as a fresh clone has them (tracked and new, never ignored:
    no ``.venv``, no ``node_modules``), in ``target``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if not source.is_file():
            continue  # deleted in the working tree
        copied = target / name
        copied.parent.mkdir(parents=True, exist_ok=True)
        copied.write_bytes(source.read_bytes())
        copied.chmod(source.stat().st_mode)
    return target


def stranger_environment(home: Path, opened: Path, browser: Path) -> dict[str, str]:
    """A new user's environment: an empty home, nothing of ours set, no virtual environment."""
    kept = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("RUMMY_", "XDG_", "PIP_", "VIRTUAL_ENV"))
        and key not in ("HOME", "PYTHONPATH", "PYTHONHOME", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")
    }
    browser.write_text(f'#!/bin/sh\necho "$1" >> "{opened}"\n', encoding="utf-8")
    browser.chmod(0o755)
    return {**kept, "HOME": str(home), "BROWSER": str(browser)}


class ServedByTheCommand(LiveServer):
    """The server the README's command started, asked only for a seat's view, as slowly as a
    stranger's server allows: it keeps its default limits (5 requests a second from an
    address, after a burst), and the page asks from the same address."""

    ASK_EVERY_S = 0.4
    """The test's own requests stay below half of the address's steady rate."""

    def __init__(self, store_path: Path, port: int) -> None:
        super().__init__(store_path, port)
        self.asked = 0.0

    def view(self, table_id: str, token: str) -> dict[str, Any]:
        """The seat's view; after a 429, again once the server's ``Retry-After`` has passed."""
        for _ in range(10):
            time.sleep(max(0.0, self.asked + self.ASK_EVERY_S - time.monotonic()))
            self.asked = time.monotonic()
            try:
                return super().view(table_id, token)
            except urllib.error.HTTPError as error:
                if error.code != 429:
                    raise
                time.sleep(float(error.headers.get("Retry-After", "1")))
        raise AssertionError("the server kept refusing the test's few requests (429)")


def folder_megabytes(folder: Path) -> float:
    """The size of the files under ``folder``, in MB (10^6 bytes, as pip and du -h --si)."""
    total = sum(path.lstat().st_size for path in folder.rglob("*") if not path.is_symlink())
    return total / 1e6


@pytest.fixture
def first_run(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The README's first command running in a clean copy, with an empty home; stopped with
    Ctrl+C (to its whole process group) after the test."""
    repository = clean_copy(tmp_path / "rummykit")
    home = tmp_path / "home"
    home.mkdir()
    opened = tmp_path / "opened.txt"
    environment = stranger_environment(home, opened, tmp_path / "browser.sh")
    log = tmp_path / "first-run.log"
    command = readme_first_command()
    started = time.monotonic()
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["bash", "-c", command],
            cwd=repository,
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def address() -> str | None:
        code = process.poll()
        text = log.read_text(encoding="utf-8", errors="replace")
        assert code is None, f"`{command}` exited with {code}:\n{text}"
        found = SERVING.search(text)
        return found.group(1) if found else None

    try:
        url = wait_until(address, timeout=FIRST_RUN_S, what=f"`{command}` to serve")
        run = {
            "command": command,
            "repository": repository,
            "home": home,
            "url": url,
            "log": log,
            "opened": opened,
            "seconds": time.monotonic() - started,
        }
        yield run
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text, text


def test_the_readmes_first_command_serves_a_table_a_stranger_can_play(
    browser: Any, first_run: dict[str, Any]
) -> None:
    assert first_run["command"] == "make run"  # the README's own words, read from it
    url: str = first_run["url"]
    # it made the data folder, the owner's alone, and keeps the games there
    data = first_run["home"] / ".local" / "share" / "rummykit"
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert str(data / "tables.sqlite3") in first_run["log"].read_text(encoding="utf-8")
    # and it opened the address in the browser (here, the script standing in for one)
    wait_until(
        lambda: (
            first_run["opened"].exists()
            and url + "/" in first_run["opened"].read_text(encoding="utf-8")
        ),
        timeout=10,
        what="the command to open its address in the browser",
    )
    # a stranger plays a whole deal; any page or console error fails the test (fresh_page)
    port = int(url.rsplit(":", 1)[1])
    server = ServedByTheCommand(data / "tables.sqlite3", port)
    with fresh_page(browser, {"width": 1280, "height": 860}) as page:
        table = start_from_lobby(page, server)
        table.set_pace(0)
        played = table.play_deal(ClickPlayer(table))
        assert played > 0
        assert table.view()["phase"] == "over"
        page.get_by_test_id("deal-summary").wait_for(state="visible")

    installed = folder_megabytes(first_run["repository"] / ".venv")
    stated = readme_install_megabytes()
    print(
        f"\nfirst run of `{first_run['command']}`: {first_run['seconds']:.1f} s to serve; "
        f"install {installed:.0f} MB (README: about {stated} MB)"
    )
    assert abs(installed - stated) <= SIZE_TOLERANCE * installed, (
        f"the README says about {stated} MB; `make run` installed {installed:.0f} MB"
    )
