"""``X-Forwarded-For`` names a request's address only when a proxy the host named sent it.

uvicorn believed it from 127.0.0.1 by default, so anyone on the server's machine could name a
new address with each request and escape the limits per address.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ports import free_port
from rummykit.cli import main
from rummykit.protocol.limits import Limits
from rummykit.server import site
from table_client import LiveServer

pytestmark = pytest.mark.timeout(60)

BURST = 2
LIMITS = Limits(
    socket_burst=None,
    address_burst=BURST,
    address_per_second=0.001,  # nothing comes back during the test
    sockets_per_address=None,
    connections_per_address=None,
)


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[list[LiveServer]]:
    started: list[LiveServer] = []
    yield started
    for server in started:
        server.stop()


def start(serving: list[LiveServer], tmp_path: Path, trusted: tuple[str, ...]) -> LiveServer:
    server = LiveServer(
        tmp_path / f"tables-{len(serving)}.sqlite3",
        free_port(),
        limits=LIMITS,
        trusted_proxies=trusted,
    )
    server.start()
    serving.append(server)
    return server


def status(server: LiveServer, forwarded_for: str) -> int:
    request = urllib.request.Request(
        server.url + "/api/options", headers={"X-Forwarded-For": forwarded_for}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            code: int = answer.status
            return code
    except urllib.error.HTTPError as error:
        with error:
            return error.code


def test_forwarded_for_from_an_untrusted_address_does_not_escape_the_limit(
    serving: list[LiveServer], tmp_path: Path
) -> None:
    server = start(serving, tmp_path, trusted=())  # the default: no proxy
    answers = [status(server, f"198.51.100.{number}") for number in range(BURST + 1)]
    assert answers == [200] * BURST + [429]


def test_forwarded_for_from_a_trusted_proxy_names_the_players_address(
    serving: list[LiveServer], tmp_path: Path
) -> None:
    server = start(serving, tmp_path, trusted=("127.0.0.1",))  # as behind nginx
    assert [status(server, f"198.51.100.{number}") for number in range(BURST + 1)] == [200] * 3
    same = [status(server, "203.0.113.5") for _ in range(BURST + 1)]
    assert same == [200] * BURST + [429]  # one player is still limited


def test_rummy_serve_trusts_only_the_proxies_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[dict[str, Any]] = []

    def serve(host: str, port: int, store: Path, open_browser: bool, **options: Any) -> None:
        calls.append(options)

    monkeypatch.setattr(site, "serve", serve)
    store = str(tmp_path / "tables.sqlite3")
    assert main(["serve", "--store", store]) == 0
    named = ["--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8"]
    assert main(["serve", "--store", store, *named]) == 0
    assert [call["trusted_proxies"] for call in calls] == [[], ["127.0.0.1", "10.0.0.0/8"]]
    with pytest.raises(SystemExit):
        main(["serve", "--trusted-proxy", "nginx.local"])
    assert "not an IP address or network" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--trusted-proxy ADDR" in capsys.readouterr().out
