"""The lobby's open tables: listed parties with a free seat, over HTTP and live on /ws/lobby.

A party is on the list exactly while it is listed, in its lobby, has a seat free under its
rules and one of its people has it open; each change reaches every lobby open at once.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from finding_sockets import codes, lobby
from party_client import account, join_party, new_party, party_socket, post
from rummykit.protocol import CloseCode
from rummykit.protocol.open_tables import OpenTables

pytestmark = pytest.mark.timeout(20)


def listed(client: TestClient) -> list[dict[str, Any]]:
    """GET /api/open-tables: the list's lines (checked against the schema)."""
    answer = client.get("/api/open-tables")
    assert answer.status_code == 200
    OpenTables.model_validate_json(answer.text)
    tables: list[dict[str, Any]] = answer.json()["tables"]
    return tables


def test_a_party_is_not_listed_unless_its_host_lists_it(app_client: TestClient) -> None:
    code, host = new_party(app_client, "Ann")
    with party_socket(app_client, code, host) as ann:
        ann.until_party(lambda party: party["members"][0]["connected"])
        assert not ann.party["listed"]
        assert listed(app_client) == []


def test_a_listed_party_shows_its_rules_seats_and_host_while_someone_has_it_open(
    app_client: TestClient,
) -> None:
    code, host = new_party(app_client, "Ann", listed=True, turn_timer=30)
    assert listed(app_client) == []  # nobody has it open yet: not worth a click
    with lobby(app_client) as watcher, party_socket(app_client, code, host) as ann:
        assert ann.party["listed"]
        (line,) = watcher.until(lambda tables: bool(tables))
        assert line == {
            "code": code,
            "url": ann.party["url"],
            "preset": "classic",
            "target": 100,
            "deals": None,
            "turn_timer": 30,
            "ranked": False,
            "seats_taken": 1,
            "seats": 6,
            "host": "Ann",
            "host_rating": None,
            "host_provisional": False,
        }
        assert listed(app_client) == [line]
        # one click: the line's link is the invite link, and takes a seat at once
        reference = line["url"].rsplit("/", 1)[1]
        joined = app_client.post(f"/api/parties/{reference}/join", json={"name": "Bob"})
        assert joined.status_code == 200, joined.text
        (line,) = watcher.until(lambda tables: tables[0]["seats_taken"] == 2)
        assert line["seats_taken"] == 2
    # everyone closed it: abandoned, it leaves the list
    assert listed(app_client) == []


def test_a_full_or_started_party_leaves_the_list_at_once(app_client: TestClient) -> None:
    full, full_host = new_party(app_client, "Ann", listed=True)
    started, started_host = new_party(app_client, "Cy", listed=True, rules={"deals": 1})
    with (
        lobby(app_client) as watcher,
        party_socket(app_client, full, full_host),
        party_socket(app_client, started, started_host) as cy,
    ):
        watcher.until(lambda tables: codes(tables) == [full, started])  # the first listed first
        for n in range(1, 6):
            join_party(app_client, full, f"P{n}")
        watcher.until(lambda tables: codes(tables) == [started])
        dee = join_party(app_client, started, "Dee")
        with party_socket(app_client, started, dee) as member:
            member.send("ready", {"ready": True})
            cy.until_party(lambda party: any(each["ready"] for each in party["members"]))
            watcher.until(lambda tables: bool(tables) and tables[0]["seats_taken"] == 2)
            cy.send("start")
            watcher.until(lambda tables: tables == [])
            cy.until_party(lambda party: party["table"] is not None)
    assert listed(app_client) == []


def test_the_host_lists_and_unlists_without_clearing_anyone_s_ready(
    app_client: TestClient,
) -> None:
    code, host = new_party(app_client, "Ann")
    bob = join_party(app_client, code, "Bob")
    with (
        lobby(app_client) as watcher,
        party_socket(app_client, code, host) as ann,
        party_socket(app_client, code, bob) as member,
    ):
        member.send("ready", {"ready": True})
        ann.until_party(lambda party: party["members"][1]["ready"])
        member.send("settings", {"listed": True})  # only the host lists a party
        assert member.refused()["d"]["reason"] == "not_host"
        ann.send("settings", {"listed": True})
        assert codes(watcher.until(bool)) == [code]
        assert ann.until_party(lambda party: party["listed"])["members"][1]["ready"]
        ann.send("settings", {"listed": False})
        watcher.until(lambda tables: tables == [])
        party = ann.until_party(lambda party: not party["listed"])
        assert party["members"][1]["ready"]
        ann.send("settings", {"turn_timer": 60})  # the rules still clear it
        ann.until_party(lambda party: not party["members"][1]["ready"])


def ranked_listed_party(client: TestClient, host: str) -> tuple[str, str]:
    """A ranked party, listed, hosted by a new account ``host``: its code and the host's token."""
    made = post(
        client,
        "/api/parties",
        {"name": "x", "ranked": True, "turn_timer": 60, "listed": True},
        account(client, host),
    )
    assert made.status_code == 200, made.text
    return made.json()["code"], made.json()["token"]


def test_a_ranked_listed_party_shows_its_host_s_rating(app_client: TestClient) -> None:
    code, token = ranked_listed_party(app_client, "Annie")
    with lobby(app_client) as watcher, party_socket(app_client, code, token):
        watcher.until(lambda tables: codes(tables) == [code])  # her rating read, listed
        (line,) = listed(app_client)
    assert line["ranked"] and line["host"] == "Annie"
    assert (line["host_rating"], line["host_provisional"]) == (1500, True)  # a newcomer's
    guest = app_client.post(
        f"/api/parties/{line['url'].rsplit('/', 1)[1]}/join", json={"name": "G"}
    )
    assert guest.status_code == 409 and guest.json()["reason"] == "ranked_sign_in"


def test_the_lobby_socket_only_sends(app_client: TestClient) -> None:
    with lobby(app_client) as watcher:
        watcher.ws.send_text(json.dumps({"t": "ready", "v": 0, "d": {"ready": True}}))
        with pytest.raises(WebSocketDisconnect) as closed:
            watcher.ws.receive_text()
    assert closed.value.code == CloseCode.BAD_QUERY


def test_every_lobby_open_hears_of_each_change_and_versions_grow(app_client: TestClient) -> None:
    code, host = new_party(app_client, "Ann", listed=True)
    with lobby(app_client) as first, lobby(app_client) as second:
        with party_socket(app_client, code, host):
            for each in (first, second):
                each.until(lambda tables: codes(tables) == [code])
        for each in (first, second):
            each.until(lambda tables: tables == [])
            assert each.versions == sorted(set(each.versions))


def test_a_listing_that_fails_never_undoes_the_party_s_change(app_client: TestClient) -> None:
    """The host's rating out of reach: the party changes as asked, and is not listed."""

    async def unreachable(account: int, pool: Any) -> tuple[int, bool]:
        raise ConnectionError("the store is out of reach")

    board = app_client.app.state.open_tables  # type: ignore[attr-defined]
    board._host_rating = unreachable
    code, token = ranked_listed_party(app_client, "Annie")
    with party_socket(app_client, code, token) as annie:
        annie.send("settings", {"turn_timer": 30})
        assert annie.until_party(lambda party: party["turn_timer"] == 30)["listed"]
        assert listed(app_client) == []
