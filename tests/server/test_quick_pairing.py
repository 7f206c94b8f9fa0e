"""Quick pairing over the socket: players who seek in a pool are seated together at once.

The pool's clock is the tests' ``ManualClock``: a second of waiting passes when a test moves
it, and with it a round that tells each player the range they now accept.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from finding_sockets import pairing, waiting
from party_client import account, known_accounts, open_seat, play_everyone
from rummykit.ratings import START_RANGE, WIDEN_PER_S, Pool
from rummykit.server.pairing import quick_pairing
from rummykit.server.store.store import Store
from rummykit.server.tables.turn_keeper import DROP_GRACE_S
from table_client import ManualClock

pytestmark = pytest.mark.timeout(30)


def test_two_guests_who_press_play_now_are_seated_at_one_table(app_client: TestClient) -> None:
    with pairing(app_client) as ann, pairing(app_client) as bob:
        first = ann.seek("duel_30", "Ann")
        assert first["t"] == "seeking"
        assert first["d"] | {} == {
            "pool": "duel_30",
            "ranked": False,
            "rating": None,
            "provisional": False,
            "low": None,
            "high": None,
            "waited_s": 0,
            "waiting": 1,
        }
        assert waiting(app_client)["duel_30"] == (0, 1)
        bob.send_seek("duel_30", "Bob")
        seats = [ann.paired(), bob.paired()]
    assert seats[0]["table"] == seats[1]["table"] and seats[0]["code"] == seats[1]["code"]
    assert seats[0]["token"] != seats[1]["token"] and not seats[0]["ranked"]
    assert waiting(app_client)["duel_30"] == (0, 0)
    views = []
    for seat in seats:
        with open_seat(app_client, seat["table"], seat["token"]) as socket:
            views.append(socket.view)
    assert [view["seat"] for view in views] == [0, 1]
    assert [player["name"] for player in views[0]["players"]] == ["Ann", "Bob"]
    assert views[0]["turn_timer"] == 30


def test_signed_in_players_are_paired_ranked_and_guests_apart(app_client: TestClient) -> None:
    ann, bob = account(app_client, "Annika"), account(app_client, "Bobby")
    with pairing(app_client, ann) as first, pairing(app_client) as guest:
        seeking = first.seek("duel_60")
        assert seeking["d"]["ranked"] and seeking["d"]["rating"] == 1500
        assert seeking["d"]["provisional"]
        assert (seeking["d"]["low"], seeking["d"]["high"]) == (
            1500 - START_RANGE,
            1500 + START_RANGE,
        )
        assert guest.seek("duel_60", "Gus")["t"] == "seeking"  # a guest waits apart
        assert waiting(app_client)["duel_60"] == (1, 1)
        with pairing(app_client, bob) as second:
            second.send_seek("duel_60", "ignored")
            seat = first.paired()
            assert second.paired()["table"] == seat["table"]
    assert seat["ranked"]
    party = app_client.get(f"/api/parties/{seat['url'].rsplit('/', 1)[1]}").json()
    assert party["ranked"] and [m["name"] for m in party["members"]] == ["Annika", "Bobby"]


def test_the_range_widens_each_second_and_a_cancel_leaves_the_pool(
    app_client: TestClient, clock: ManualClock
) -> None:
    with pairing(app_client, account(app_client, "Wanda")) as wanda:
        wanda.seek("four_30")
        for second in (1, 2):
            clock.advance_once_sleeping(1.0)
            frame = wanda.recv()
            assert frame["d"]["waited_s"] == second
            reach = START_RANGE + second * WIDEN_PER_S
            assert (frame["d"]["low"], frame["d"]["high"]) == (1500 - reach, 1500 + reach)
        wanda.ws.send_text(json.dumps({"t": "cancel", "v": 0, "d": {}}))
        wanda.ws.send_text(json.dumps({"t": "seek", "v": 0, "d": {"pool": "nope"}}))
        assert wanda.until(lambda frame: frame["t"] == "refused")["d"]["code"] == "bad_message"
        assert waiting(app_client)["four_30"] == (0, 0)


def test_one_account_waits_in_one_place(app_client: TestClient) -> None:
    ann = account(app_client, "Annette")
    with pairing(app_client, ann) as first, pairing(app_client, ann) as second:
        assert first.seek("duel_30")["t"] == "seeking"
        refused = second.seek("duel_60")
        assert refused["t"] == "refused" and refused["d"]["reason"] == "already_seeking"
        assert first.seek("duel_60")["t"] == "seeking"  # the same page may change its pool
        assert waiting(app_client)["duel_30"] == (0, 0)
        assert waiting(app_client)["duel_60"] == (1, 0)
    assert waiting(app_client)["duel_60"] == (0, 0)  # the page closed: out of the pool


@pytest.mark.parametrize("in_thread", [False, True])
def test_four_players_fill_a_four_seat_table_under_the_party_rules(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch, in_thread: bool
) -> None:
    if in_thread:  # as a long queue is paired: off the event loop
        monkeypatch.setattr(quick_pairing, "INLINE_SEEKERS", 1)
    with contextlib.ExitStack() as stack:
        pages = [stack.enter_context(pairing(app_client)) for _ in range(4)]
        for n, page in enumerate(pages[:3]):
            assert page.seek("four_60", f"P{n}")["d"]["waiting"] == n + 1
        pages[3].send_seek("four_60", "P3")
        seats = [page.paired() for page in pages]
    assert len({seat["table"] for seat in seats}) == 1
    assert sorted(seat["member"] for seat in seats) == [0, 1, 2, 3]
    party = app_client.get(f"/api/parties/{seats[0]['url'].rsplit('/', 1)[1]}").json()
    assert party["preset"] == "party" and party["turn_timer"] == 60
    assert party["state"] == "playing" and len(party["members"]) == 4


def test_a_ranked_pairing_is_played_to_its_end_and_rated(
    app_client: TestClient, store_path: Path, clock: ManualClock
) -> None:
    """Two strangers of known accounts press "Play now": their game, the pool's own rules to
    the preset's target, ends rated in the people's pool, each rating moved."""
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    known_accounts(store_path, clock, (1, 2))
    with pairing(app_client, people[0]) as ada_page, pairing(app_client, people[1]) as bob_page:
        ada_page.send_seek("duel_60")
        bob_page.send_seek("duel_60")
        seats = [ada_page.paired(), bob_page.paired()]
    table = seats[0]["table"]
    with (
        open_seat(app_client, table, seats[0]["token"]) as ada,
        open_seat(app_client, table, seats[1]["token"]) as bob,
    ):
        finals = play_everyone({0: ada, 1: bob})
    assert max(finals[0]["scores"]) >= 100  # to the classic preset's target
    store = Store(store_path)
    rows = store.rated_games.of_game(table)
    # rows come in seat order, and who is seated first is whose seek the server read first
    assert sorted(row["account"] for row in rows) == [1, 2]
    for row in rows:
        assert row["weight"] == 1 and row["mu_after"] != row["mu_before"]
        stored = store.ratings.of(row["account"], Pool.WINNER)
        assert stored is not None and stored.rating.mu == row["mu_after"]


def test_a_paired_player_who_never_comes_is_played_for_after_the_grace(
    app_client: TestClient, clock: ManualClock
) -> None:
    with pairing(app_client) as ann, pairing(app_client) as bob:
        ann.send_seek("duel_30", "Ann")
        bob.send_seek("duel_30", "Bob")
        seats = [ann.paired(), bob.paired()]
    table = seats[0]["table"]
    view = app_client.get(
        f"/api/tables/{table}", headers={"Authorization": f"Bearer {seats[0]['token']}"}
    ).json()["view"]
    first = view["turn"]
    with open_seat(app_client, table, seats[1 - first]["token"]) as here:
        here.set_pace(0)
        clock.advance(DROP_GRACE_S + 1)
        said = here.until(lambda frame: frame["t"] == "notice")["d"]
        assert said["kind"] == "standing_in" and said["seat"] == first
