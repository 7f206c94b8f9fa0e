"""Two server processes serving one site: one PostgreSQL database, one Redis.

Each "process" here is an app of its own in the test (its own event loop, Redis connections
and database pool), as `rummy serve --database-url --redis-url` makes them. A table is owned
by the process that made it; a seat whose socket reaches the other process plays through the
relay, and when the owner stops, the other takes the table over and the seat plays on.
"""

from __future__ import annotations

import json
import secrets
from itertools import count
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from cluster_sites import process
from party_client import (
    SHORT_GAME,
    join_party,
    new_party,
    open_seat,
    party_socket,
    play_everyone,
    play_seat,
)
from redis_service import RedisService, redis_server
from rummykit.protocol.messages import CloseCode
from rummykit.server.parties.party import CODE_LENGTH, CODE_LETTERS
from rummykit.server.parties.party_reference import CODE_MISSES_PER_MINUTE, SiteCodeMisses
from rummykit.server.store.store import Store
from services import PostgresServer
from table_client import (
    bearer,
    create_table,
    seat_connection,
    seed_where_human_starts,
    sent_until_applied,
)

__all__ = ["redis_server"]

pytestmark = [pytest.mark.timeout(120), pytest.mark.heavy]


def test_a_seat_on_the_other_process_plays_the_owners_table_to_the_end(
    tmp_path: Path, postgres_url: str, redis_server: RedisService
) -> None:
    with (
        process(tmp_path, postgres_url, redis_server) as owner,
        process(tmp_path, postgres_url, redis_server) as other,
    ):
        table, token = create_table(owner, seed=seed_where_human_starts())
        with seat_connection(other, table, token) as seat:
            seat.recv()
            assert seat.view["table"] == table and seat.view["seat"] == 0
            seat.set_pace(0)
            final = play_seat(seat)
        assert final["game_over"]
        answer = owner.get(f"/api/tables/{table}", headers=bearer(token)).json()
        assert answer["view"]["scores"] == final["scores"]  # the owner played the same game
    store = Store(postgres_url)
    assert store.deals(table)[-1]["actions"], "the game is in the shared database"
    store.close()


def test_when_the_owner_stops_the_other_process_takes_the_table_and_the_seat_plays_on(
    tmp_path: Path, postgres_url: str, redis_server: RedisService
) -> None:
    with process(tmp_path, postgres_url, redis_server) as other:
        with process(tmp_path, postgres_url, redis_server) as owner:
            table, token = create_table(owner, seed=seed_where_human_starts())
            seat_cm = seat_connection(other, table, token)
            seat = seat_cm.__enter__()
            seat.recv()
            seat.set_pace(0)
            seat.act(_first_draw(seat.view["legal"]))
            seen = seat.version
        # the owner has stopped (its leases released): the relayed socket closes with MOVED
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                seat.recv()
        assert closed.value.code == CloseCode.MOVED
        seat_cm.__exit__(None, None, None)
        with seat_connection(other, table, token, last=seen) as again:  # now owned here
            again.until(lambda frame: frame["t"] == "view")
            assert again.view["seat"] == 0 and again.version >= seen
            again.set_pace(0)
            final = play_seat(again)
        assert final["game_over"]


def _epoch(url: str, table: str) -> int:
    store = Store(url)
    try:
        return store.epoch(table)
    finally:
        store.close()


def _first_draw(legal: list[str]) -> str:
    return next(action for action in legal if action.startswith("draw"))


def test_a_party_whose_members_use_different_processes_plays_to_the_end(
    tmp_path: Path, postgres_url: str, redis_server: RedisService
) -> None:
    """The host on one process, the guest on the other, from the join to the last card: the
    guest's ready reaches the host's lobby, the host's start reaches the guest's, and the game
    is played with each seat's socket on its own process."""
    with (
        process(tmp_path, postgres_url, redis_server) as first,
        process(tmp_path, postgres_url, redis_server) as second,
    ):
        code, host = new_party(first, "Ann", rules=SHORT_GAME, seed=seed_where_human_starts())
        guest = join_party(second, code, "Bob")  # joined at the other process
        with party_socket(first, code, host) as lobby, party_socket(second, code, guest) as bob:
            lobby.until_party(lambda party: len(party["members"]) == 2)
            bob.send("ready", {"ready": True})
            lobby.until_party(lambda party: party["members"][1]["ready"])
            lobby.send("start")
            table = lobby.until_party(lambda party: party["table"] is not None)["table"]
            assert bob.until_party(lambda party: party["table"] is not None)["table"] == table
        with open_seat(first, table, host) as ann_seat, open_seat(second, table, guest) as bob_seat:
            finals = play_everyone({0: ann_seat, 1: bob_seat})
        assert finals[0]["game_over"] and finals[0]["scores"] == finals[1]["scores"]


def test_a_redis_restart_mid_game_loses_nothing_and_the_game_ends(
    tmp_path: Path, postgres_url: str, redis_server: RedisService
) -> None:
    """Redis restarts empty: the leases are gone, the bus reconnects. The owner finds its
    lease lost and lets the table go (its socket closes with MOVED); the page reconnects, a
    process claims the table again at a higher epoch than the stored one, and the seat plays
    on from where it was."""
    with (
        process(tmp_path, postgres_url, redis_server) as owner,
        process(tmp_path, postgres_url, redis_server) as other,
    ):
        table, token = create_table(owner, seed=seed_where_human_starts())
        with seat_connection(owner, table, token) as seat:
            seat.recv()
            seat.set_pace(0)
            seat.act(_first_draw(seat.view["legal"]))
            seen = seat.version
            redis_server.restart()
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    seat.recv()
            assert closed.value.code == CloseCode.MOVED
        epoch_before = _epoch(postgres_url, table)
        with seat_connection(other, table, token, last=seen) as again:
            again.until(lambda frame: frame["t"] == "view")
            assert again.version >= seen
            again.set_pace(0)
            final = play_seat(again)
        assert final["game_over"]
    assert _epoch(postgres_url, table) > epoch_before


def test_while_postgresql_restarts_an_intent_is_refused_with_try_again_and_nothing_diverges(
    tmp_path: Path, postgres_url: str, postgres_server: PostgresServer, redis_server: RedisService
) -> None:
    with process(tmp_path, postgres_url, redis_server) as owner:
        table, token = create_table(owner, seed=seed_where_human_starts())
        with seat_connection(owner, table, token) as seat:
            seat.recv()
            seat.set_pace(0)
            draw = _first_draw(seat.view["legal"])
            before = seat.version
            with postgres_server.down():
                seat.send("act", {"action": draw})
                refused = seat.refused()
                assert refused["d"]["code"] == "try_again" and refused["v"] == before
            # the same intent, once the database is back (the pool reconnecting may refuse it
            # with try_again a moment longer): applied once
            sent_until_applied(seat, draw)
            assert seat.version == before + 1
            final = play_seat(seat)
        assert final["game_over"]
    store = Store(postgres_url)
    assert store.deals(table)[0]["actions"][0] == f"0 {draw}"
    store.close()


def test_the_code_only_misses_are_counted_once_across_the_processes(
    tmp_path: Path, postgres_url: str, redis_server: RedisService
) -> None:
    minute = 60.0 * secrets.randbelow(10**9)  # a minute of its own in the shared Redis
    with (
        process(tmp_path, postgres_url, redis_server) as first,
        process(tmp_path, postgres_url, redis_server) as second,
    ):
        for client in (first, second):
            misses: SiteCodeMisses = client.app.state.lobby.site_code_misses  # type: ignore[attr-defined]
            misses.clock = lambda: minute + 30.0
        codes = ("".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH)) for _ in count())
        half = CODE_MISSES_PER_MINUTE // 2
        for client, misses_here in ((first, half), (second, CODE_MISSES_PER_MINUTE - half)):
            for _ in range(misses_here):
                assert client.get(f"/api/parties/{next(codes)}").status_code == 404
        for client in (first, second):  # each process alone has room left: the site has none
            refused = client.get(f"/api/parties/{next(codes)}")
            assert refused.status_code == 429
            assert refused.headers["Retry-After"] == "30"


def test_a_member_connecting_sees_the_party_as_stored_though_its_changer_died_untold(
    tmp_path: Path, postgres_url: str, redis_server: RedisService
) -> None:
    """A process stored a change of the party and died before saying so on the bus (issue
    29): the others still hold the party as before. A member whose program moves to one of
    them (a new connection) is shown the party as stored, and so are those connected there."""
    with (
        process(tmp_path, postgres_url, redis_server) as first,
        process(tmp_path, postgres_url, redis_server) as second,
    ):
        code, host = new_party(first, "Ann")
        guest = join_party(second, code, "Bob")  # the second holds the party from now on
        with party_socket(second, code, guest) as bob:
            assert not bob.party["members"][0]["ready"]
            store = Store(postgres_url)
            try:  # the first's change, stored, its news lost with it
                stored = json.loads(store.parties.get(code).party)  # type: ignore[union-attr]
                stored["members"][0]["ready"] = True
                store.parties.save(code, json.dumps(stored))
            finally:
                store.close()
            with party_socket(second, code, host) as ann:
                assert ann.party["members"][0]["ready"]
            assert bob.until_party(lambda party: party["members"][0]["ready"])
