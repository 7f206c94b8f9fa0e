"""A site's addresses: ``--server`` given more than once, and moving on when one fails."""

from __future__ import annotations

import pytest

from rummykit.client.servers import Servers, reconnect_note, signed_for
from rummykit.client.web import ServerError

DEAD = ServerError("Cannot reach the server: connection refused.")


def test_addresses_are_checked_kept_in_order_and_named_by_the_first() -> None:
    sites = Servers(["http://a:1/", "http://b:2", "http://a:1"])
    assert sites.urls == ("http://a:1", "http://b:2")
    assert (sites.site, sites.current) == ("http://a:1", "http://a:1")
    assert sites.move_on() == "http://b:2" and sites.move_on() == "http://a:1"
    with pytest.raises(ValueError, match="not a server address"):
        Servers(["ftp://a"])
    with pytest.raises(ValueError, match="--server"):
        Servers([])


def test_a_request_moves_on_past_addresses_that_do_not_answer() -> None:
    sites = Servers(["http://a:1", "http://b:2", "http://c:3"])
    asked: list[str] = []

    def call(url: str) -> str:
        asked.append(url)
        if url != "http://c:3":
            raise DEAD
        return "answered"

    assert sites.first_answer(call) == "answered"
    assert asked == ["http://a:1", "http://b:2", "http://c:3"]
    assert sites.current == "http://c:3"  # and stays there for what comes next
    asked.clear()
    assert sites.first_answer(call) == "answered" and asked == ["http://c:3"]


def test_a_refusal_is_the_sites_answer_and_is_not_asked_again_elsewhere() -> None:
    sites = Servers(["http://a:1", "http://b:2"])
    asked: list[str] = []

    def call(url: str) -> str:
        asked.append(url)
        raise ServerError("Every seat of this party is taken.", status=409, code="party_full")

    with pytest.raises(ServerError, match="taken"):
        sites.first_answer(call)
    assert asked == ["http://a:1"]


def test_when_no_address_answers_the_last_failure_is_said() -> None:
    sites = Servers(["http://a:1", "http://b:2"])

    def call(url: str) -> str:
        raise ServerError(f"Cannot reach {url}.")

    with pytest.raises(ServerError, match="Cannot reach http://b:2"):
        sites.first_answer(call)


def test_the_note_names_the_next_address_only_when_there_are_several() -> None:
    one, two = Servers(["http://a:1"]), Servers(["http://a:1", "http://b:2"])
    assert reconnect_note("table", "reset", 0.5, one) == (
        "Lost the table's connection (reset); trying again in 0.5 s."
    )
    two.move_on()
    assert reconnect_note("party", "reset", 1.25, two).endswith("again in 1.2 s at http://b:2.")


def test_an_accounts_headers_carry_the_origin_of_the_address_in_use() -> None:
    signed = {"Cookie": "rummy_session=s", "Origin": "http://a:1"}
    assert signed_for(signed, "http://b:2/x") == {
        "Cookie": "rummy_session=s",
        "Origin": "http://b:2",
    }
    assert signed_for(None, "http://b:2") is None
