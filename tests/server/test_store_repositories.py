"""The store's repositories (accounts, parties, ratings, reviews) on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rummykit.protocol.api import NewTable
from rummykit.ratings import NETWORK_WINDOW_DAYS, Pool, Rating
from rummykit.server.store.accounts import SESSION_LIFETIME_S, Account, AccountName
from rummykit.server.store.parties import StoredParty
from rummykit.server.store.rated import DAY_S, StoredRating
from rummykit.server.store.ratings import PoolRating
from rummykit.server.store.store import Store
from rummykit.server.tables.table import new_table_settings
from services import StoreBackend


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(store_backend: StoreBackend, clock: Clock) -> Iterator[Store]:
    opened = Store(store_backend.location, now=clock)
    try:
        yield opened
    finally:
        opened.close()


def test_an_account_is_added_once_whatever_the_case_of_its_name(store: Store) -> None:
    ada = store.accounts.add("Ada", False, "hash")
    assert ada is not None and ada == Account(ada.id, "Ada", False, "hash")
    assert store.accounts.add("ADA", True, "other") is None
    bot = store.accounts.add("Bolt", True, "hash")
    assert bot is not None and bot.bot
    assert store.accounts.named("aDa") == ada
    assert store.accounts.named("Nobody") is None


def test_the_names_after_an_id_come_as_typed_pairs_by_id(store: Store) -> None:
    first = store.accounts.add("Ada", False, "h")
    second = store.accounts.add("Bob", False, "h")
    assert first is not None and second is not None
    names = store.accounts.names_after(first.id)
    assert names == [AccountName(second.id, "Bob")]
    assert names[0].name == "Bob" and tuple(names[0]) == (second.id, "Bob")
    assert store.accounts.names_after(second.id) == []


def test_a_new_password_hash_is_kept(store: Store) -> None:
    ada = store.accounts.add("Ada", False, "old")
    assert ada is not None
    store.accounts.set_password_hash(ada.id, "new")
    found = store.accounts.named("Ada")
    assert found is not None and found.password_hash == "new"


def test_a_session_signs_in_until_it_ends_or_expires(store: Store, clock: Clock) -> None:
    ada = store.accounts.add("Ada", False, "h")
    assert ada is not None
    assert store.accounts.add_session(ada.id, "kept") == clock.now + SESSION_LIFETIME_S
    store.accounts.add_session(ada.id, "ended")
    assert store.accounts.session_account("kept") == ada
    store.accounts.end_session("ended")
    assert store.accounts.session_account("ended") is None
    store.accounts.end_session("never issued")
    clock.now += SESSION_LIFETIME_S
    assert store.accounts.session_account("kept") is None


def test_a_network_is_remembered_within_the_window(store: Store, clock: Clock) -> None:
    ada = store.accounts.add("Ada", False, "h")
    assert ada is not None
    store.accounts.note_network(ada.id, "192.0.2.1")
    clock.now += DAY_S
    store.accounts.note_network(ada.id, "198.51.100.7")
    assert store.accounts.networks(ada.id) == {"192.0.2.1", "198.51.100.7"}
    clock.now += (NETWORK_WINDOW_DAYS - 0.5) * DAY_S
    assert store.accounts.networks(ada.id) == {"198.51.100.7"}


def test_a_new_party_takes_its_code_once_and_changes_after(store: Store, clock: Clock) -> None:
    assert store.parties.get("ABCD") is None
    assert store.parties.save("ABCD", '{"first": 1}', new=True)
    assert not store.parties.save("ABCD", '{"second": 2}', new=True)
    assert store.parties.get("ABCD") == StoredParty('{"first": 1}', clock.now)
    clock.now += 5
    assert store.parties.save("ABCD", '{"third": 3}')
    found = store.parties.get("ABCD")
    assert found is not None and found.party == '{"third": 3}' and found.updated == clock.now


def test_a_review_is_kept_once_per_seat(store: Store) -> None:
    store.create_table("t1", new_table_settings(NewTable(preset="classic")), {0: "token"})
    assert store.reviews.get("t1", 0) is None
    store.reviews.save("t1", 0, {"moves": [1, 2]})
    store.reviews.save("t1", 0, {"moves": [3]})
    store.reviews.save("t1", 1, {"moves": []})
    assert store.reviews.get("t1", 0) == {"moves": [1, 2]}
    assert store.reviews.get("t1", 1) == {"moves": []}


def test_ratings_are_read_by_account_and_by_pool(store: Store, store_backend: StoreBackend) -> None:
    ada = store.accounts.add("Ada", False, "h")
    bolt = store.accounts.add("Bolt", True, "h")
    assert ada is not None and bolt is not None
    for account, mu in ((ada.id, 27.5), (bolt.id, 22.0)):
        store_backend.execute(
            "INSERT INTO ratings (account, pool, mu, sigma, games, last_played) "
            "VALUES (?, 'winner', ?, 4.0, 3, 500.0)",
            (account, mu),
        )
    assert store.ratings.of(ada.id, Pool.WINNER) == StoredRating(Rating(27.5, 4.0), 3, 500.0)
    assert store.ratings.of(ada.id, Pool.PENALTY) is None
    pool = sorted(store.ratings.pool(Pool.WINNER), key=lambda row: row.name)
    assert pool == [
        PoolRating("Ada", False, Rating(27.5, 4.0), 3, 500.0, 0),
        PoolRating("Bolt", True, Rating(22.0, 4.0), 3, 500.0, 0),
    ]
    assert store.ratings.pool(Pool.PENALTY) == []


def test_an_arena_is_kept_changed_and_listed_by_whether_it_finished(
    store: Store, clock: Clock
) -> None:
    store.arenas.save("a2", '{"n": 1}', name="Two", finished=False)
    clock.now += 1
    store.arenas.save("a1", '{"n": 2}', name="One", finished=False)
    store.arenas.save("a2", '{"n": 3}', name="Two", finished=False)  # changed: its place stays
    assert store.arenas.get("a2") == '{"n": 3}' and store.arenas.get("nope") is None
    assert store.arenas.unfinished() == ['{"n": 3}', '{"n": 2}']
    assert store.arenas.won_by("Ada") == []
    store.arenas.save("a2", '{"n": 4}', name="Two", finished=True, winner="Ada")
    assert store.arenas.unfinished() == ['{"n": 2}']
    assert store.arenas.recent() == ['{"n": 4}']
    assert store.arenas.won_by("Ada") == [("a2", "Two")] and store.arenas.won_by("Bob") == []
