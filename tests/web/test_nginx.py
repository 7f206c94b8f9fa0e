"""The site behind nginx, with `deploy/nginx.conf` itself: a browser plays through it.

The test writes the deploy file with its own ports: nginx on a free loopback port, in front of
the test's server and one address where nothing listens (nginx must move on from it,
as it does when a process of the site is gone). The page loads, the lobby makes a table, the
table's socket is upgraded through nginx, and a whole deal is played by clicks; a reload finds
the seat again.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import IN_CI
from ports import free_port
from table_client import STUCK_S, LiveServer
from web.test_table_page import start_from_lobby
from web_helpers import ClickPlayer

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def site_config(listen: int, processes: list[int]) -> str:
    """``deploy/nginx.conf`` with these ports: nginx's own, and each process's."""
    text = DEPLOY.read_text()
    text, listens = re.subn(r"listen 127\.0\.0\.1:\d+;", f"listen 127.0.0.1:{listen};", text)
    upstream = "".join(
        f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;\n" for port in processes
    )
    text, upstreams = re.subn(r"(?:        server 127\.0\.0\.1:\d+ [^\n]*\n)+", upstream, text)
    assert (listens, upstreams) == (1, 1), "deploy/nginx.conf no longer has the lines to fill"
    return text


def _wait_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STUCK_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"nginx stopped: {log.read_text(errors='replace')}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    raise AssertionError("nginx did not listen")


@contextlib.contextmanager
def nginx_in_front(prefix: Path, processes: list[int]) -> Iterator[int]:
    """nginx, run from the deploy file with these processes behind it: its port."""
    if not Path(NGINX).exists():
        if IN_CI:
            pytest.fail("nginx is missing (CI must run the deploy test): apt-get install nginx")
        pytest.skip("nginx is missing: apt-get install -y --no-upgrade nginx")
    port = free_port()
    (prefix / "tmp").mkdir(parents=True)
    config = prefix / "nginx.conf"
    config.write_text(site_config(port, processes))
    log = prefix / "error.log"
    command = [NGINX, "-p", str(prefix), "-c", str(config), "-g", "daemon off;"]
    process = subprocess.Popen(command, stderr=subprocess.STDOUT, stdout=log.open("wb"))
    try:
        _wait_listening(port, process, log)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def edge(tmp_path: Path) -> Iterator[LiveServer]:
    """The site as a browser reaches it: through nginx, in front of the test's server and of
    an address where nothing listens (a ``LiveServer`` at nginx's address, for the helpers
    that read a seat's view; the test's server has no rate limits, so they may poll). The
    server trusts nginx's ``X-Forwarded-For``, as deploy/nginx.conf says to run it."""
    server = LiveServer(tmp_path / "tables.sqlite3", free_port(), trusted_proxies=("127.0.0.1",))
    server.start()
    gone = free_port()  # a process of the site that is not there
    try:
        with nginx_in_front(tmp_path / "nginx", [gone, server.port]) as port:
            yield LiveServer(server.store_path, port)
    finally:
        server.stop()


def test_the_deploy_config_is_valid_nginx(tmp_path: Path) -> None:
    with nginx_in_front(tmp_path / "nginx", [free_port()]) as port:
        assert port > 0
    checked = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path / "nginx"), "-c", str(tmp_path / "nginx/nginx.conf")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


def test_a_deal_is_played_through_nginx_and_a_reload_finds_the_seat(
    page: Any, edge: LiveServer
) -> None:
    table = start_from_lobby(page, edge)
    assert table.page.url.startswith(edge.url)
    table.set_pace(0)
    table.play_deal(ClickPlayer(table))
    assert table.view()["phase"] == "over"
    table.page.reload()
    table.wait_synced(table.view())  # the hand left at the deal's end: none if we went out
    assert table.view()["phase"] == "over"
