"""Other sites' pages may not play for you: origins, hosts, and the headers of every answer.

Each of these was open before: a socket opened from ``https://evil.example`` (or ``null``)
was accepted and got the seat's hand, a cross-site POST created tables, any ``Host`` was
answered (DNS rebinding of the local server), and no answer carried a security header.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from rummykit.protocol.limits import Limits
from rummykit.protocol.messages import CloseCode
from rummykit.server.http.guard import (
    FOREIGN_ORIGIN_MESSAGE,
    LOOPBACK_HOSTS,
    SECURITY_HEADERS,
    loopback_hosts,
)
from rummykit.server.site.app import MAX_CONNECTIONS_PER_SEAT, create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.site.run import answered_hosts
from rummykit.server.store.store import Store
from table_client import (
    ManualClock,
    bearer,
    create_table,
    hello,
    limited_client,
    seat_connection,
)

OWN = "http://testserver"
"""The origin of the test client's own pages (its Host is ``testserver``)."""
FOREIGN = ("https://evil.example", "null", "http://testserver.evil.example")


@pytest.mark.parametrize("origin", FOREIGN)
def test_another_sites_page_may_not_create_a_table(client: TestClient, origin: str) -> None:
    answer = client.post("/api/tables", json={"preset": "classic"}, headers={"origin": origin})
    assert answer.status_code == 403
    assert "other sites" in answer.json()["error"]


@pytest.mark.parametrize("origin", [OWN, None])
def test_the_own_page_and_programs_may_create_tables(
    client: TestClient, origin: str | None
) -> None:
    headers = {"origin": origin} if origin else {}
    answer = client.post("/api/tables", json={"preset": "classic"}, headers=headers)
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("origin", FOREIGN)
def test_another_sites_page_may_not_open_a_seats_socket(client: TestClient, origin: str) -> None:
    table_id, token = create_table(client)
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        seat_connection(client, table_id, token, headers={"origin": origin}) as seat,
    ):
        seat.ws.receive_json()  # nothing comes: the socket is closed, saying why
    assert closed.value.code == CloseCode.FOREIGN_ORIGIN
    assert closed.value.reason == FOREIGN_ORIGIN_MESSAGE


def test_the_own_page_opens_its_socket_and_gets_its_view(client: TestClient) -> None:
    table_id, token = create_table(client)
    with seat_connection(client, table_id, token, headers={"origin": OWN}) as seat:
        assert seat.recv()["t"] == "view"


def test_an_origin_the_host_allows_may_play(store_path: Path, clock: ManualClock) -> None:
    app = create_app(
        ServerConfig(store_path=store_path, allowed_origins=["https://rummy.example/"]),
        sleep=clock.sleep,
    )
    with TestClient(app) as client:
        headers = {"origin": "https://rummy.example"}
        answer = client.post("/api/tables", json={"preset": "classic"}, headers=headers)
        assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("path", ["/", "/api/options", "/static/app.js", "/api/tables/x"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    answer = client.get(path)
    for name, value in SECURITY_HEADERS:
        assert answer.headers[name.decode()] == value.decode(), name
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


def test_a_local_server_answers_only_its_loopback_names(
    store_path: Path, clock: ManualClock
) -> None:
    # A page of evil.example whose name was rebound to 127.0.0.1 reaches the local server with
    # Host: evil.example; it must get nothing.
    app = create_app(
        ServerConfig(store_path=store_path, allowed_hosts=LOOPBACK_HOSTS), sleep=clock.sleep
    )
    with TestClient(app, base_url="http://evil.example:8000") as rebound:
        assert rebound.get("/api/options").status_code == 400
        assert rebound.post("/api/tables", json={"preset": "classic"}).status_code == 400
    for host in ("127.0.0.1", "localhost"):
        with TestClient(app, base_url=f"http://{host}:8000") as local:
            assert local.get("/api/options").status_code == 200


def test_a_local_server_without_allowed_hosts_answers_its_loopback_names_at_its_port(
    store_path: Path, clock: ManualClock
) -> None:
    allowed = answered_hosts("127.0.0.1", 8000, None)
    assert allowed == loopback_hosts(8000)
    app = create_app(ServerConfig(store_path=store_path, allowed_hosts=allowed), sleep=clock.sleep)
    for base in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
        with TestClient(app, base_url=base) as local:
            assert local.get("/api/options").status_code == 200, base
    refused = (
        "http://evil.example:8000",  # rebound
        "http://localhost:8001",  # another port: another server's name
        "http://127.0.0.1.evil.example:8000",
        "http://localhost",
    )
    for base in refused:
        with TestClient(app, base_url=base) as rebound:
            assert rebound.get("/").status_code == 400, base
            assert rebound.post("/api/tables", json={"preset": "classic"}).status_code == 400


def test_which_hosts_a_server_answers_depends_on_its_address_and_the_hosts_given() -> None:
    assert answered_hosts("::1", 80, None) == loopback_hosts(80)
    assert "localhost" in loopback_hosts(80)  # a browser leaves port 80 out
    assert answered_hosts("localhost", 9000, None) == loopback_hosts(9000)
    assert answered_hosts("127.0.0.1", 8000, ["rummy.example"]) == ["rummy.example"]
    assert answered_hosts("0.0.0.0", 8000, None) is None  # a public server: the host names it
    assert answered_hosts("192.0.2.7", 8000, None) is None


def test_allowed_hosts_match_at_any_port_or_under_a_wildcard(
    store_path: Path, clock: ManualClock
) -> None:
    app = create_app(
        ServerConfig(store_path=store_path, allowed_hosts=["rummy.example", "*.games.example"]),
        sleep=clock.sleep,
    )
    for base, status in (
        ("http://rummy.example:8443", 200),
        ("http://rummy.example", 200),
        ("http://cards.games.example", 200),
        ("http://games.example.evil.example", 400),
        ("http://evil.example", 400),
    ):
        with TestClient(app, base_url=base) as client:
            assert client.get("/api/options").status_code == status, base


@pytest.fixture
def local_client(store_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """A client of a server that answers only the loopback names."""
    app = create_app(
        ServerConfig(store_path=store_path, allowed_hosts=LOOPBACK_HOSTS), sleep=clock.sleep
    )
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        yield client


def test_a_local_servers_own_page_plays(local_client: TestClient) -> None:
    origin = {"origin": "http://127.0.0.1:8000"}
    answer = local_client.post("/api/tables", json={"preset": "classic"}, headers=origin)
    assert answer.status_code == 200, answer.text
    created = answer.json()
    url = f"ws://127.0.0.1:8000/ws/{created['table']}"  # the test client's own is testserver
    with local_client.websocket_connect(url, headers=origin) as websocket:
        websocket.send_text(hello(created["token"]))
        assert websocket.receive_json()["t"] == "view"


def test_a_rebound_page_may_not_open_a_local_socket(local_client: TestClient) -> None:
    created = local_client.post("/api/tables", json={"preset": "classic"}).json()
    url = f"ws://evil.example:8000/ws/{created['table']}"
    with pytest.raises(WebSocketDenialResponse), local_client.websocket_connect(url):
        pass  # refused at the handshake, before any hello


def test_a_live_server_refuses_a_seed_from_a_client(store_path: Path, clock: ManualClock) -> None:
    # With a seed of their choosing, a probe knew the computer's hand and the stock.
    with TestClient(create_app(ServerConfig(store_path=store_path), sleep=clock.sleep)) as live:
        answer = live.post("/api/tables", json={"preset": "classic", "seed": 7})
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("seed:")


def test_a_live_table_shuffles_unpredictably_and_keeps_its_decks(
    store_path: Path, clock: ManualClock
) -> None:
    created: list[dict[str, str]] = []
    with TestClient(create_app(ServerConfig(store_path=store_path), sleep=clock.sleep)) as live:
        for _ in range(3):
            created.append(live.post("/api/tables", json={"preset": "classic"}).json())
    store = Store(store_path)
    decks = []
    for table in created:
        settings = store.settings(table["table"])
        assert settings is not None and settings.seed is None  # no seed to search for
        decks.append(tuple(store.deals(table["table"])[0]["deck"]))  # the deck is kept
    store.close()
    assert len(set(decks)) == 3 and all(len(deck) == 52 for deck in decks)


@pytest.fixture
def limited(store_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """A client of a server with small limits, on a clock the test moves."""
    limits = Limits(socket_burst=5, socket_per_second=1, address_burst=8, address_per_second=1)
    with limited_client(store_path, clock, limits) as client:
        yield client


def test_an_address_asking_too_fast_is_answered_429_until_it_slows_down(
    limited: TestClient, clock: ManualClock
) -> None:
    # Seat tokens were guessed at 1,177 a second with no throttle.
    guess = bearer("guess")
    answers = [limited.get("/api/tables/t", headers=guess).status_code for _ in range(10)]
    assert answers == [404] * 8 + [429] * 2
    refused = limited.get("/api/tables/t", headers=guess)
    assert refused.status_code == 429 and "wait" in refused.json()["error"]
    assert refused.headers["retry-after"]
    clock.advance(3)
    assert [limited.get("/api/tables/t", headers=guess).status_code for _ in range(4)] == [
        404,
        404,
        404,
        429,
    ]
    assert limited.get("/").status_code == 200  # the page itself is never counted


def test_a_socket_sending_faster_than_a_person_plays_is_closed_4429(
    limited: TestClient,
) -> None:
    created = limited.post("/api/tables", json={"preset": "classic"}).json()
    with seat_connection(limited, created["table"], created["token"]) as seat:
        ws = seat.ws
        assert ws.receive_json()["t"] == "view"
        for _ in range(6):
            ws.send_json({"t": "hint", "v": 0, "d": {}})
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()  # answers (hints or refusals), until the sixth closes it
    assert closed.value.code == CloseCode.TOO_MANY_MESSAGES
    assert "Too many messages" in closed.value.reason


def test_a_seat_opened_in_too_many_pages_refuses_one_more(client: TestClient) -> None:
    # 3,000 sockets on one seat slowed every action of every table by 250 ms.
    table_id, token = create_table(client)
    with contextlib.ExitStack() as pages:
        for _ in range(MAX_CONNECTIONS_PER_SEAT):
            page = pages.enter_context(seat_connection(client, table_id, token))
            assert page.recv()["t"] == "view"
        with (
            seat_connection(client, table_id, token) as one_more,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            one_more.recv()
        assert closed.value.code == CloseCode.TOO_MANY_PAGES
    with seat_connection(client, table_id, token) as again:  # the others closed: room again
        assert again.recv()["t"] == "view"
