"""Fencing: in a cluster, a table's owner writes only while no later owner has claimed it.

Two ``Store`` objects on one database stand for two processes. The first owns the table at
epoch 1; the second claims it at epoch 2 (the first was paused past its lease); from then on
every write of the first is refused (``StaleOwner``) and changes nothing, while the second
writes freely. A process alone (no ``own``) is never fenced. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest

from rummykit.core.cards import standard_deck
from rummykit.protocol.settings import HumanPlayer, TableSettings
from rummykit.server.cluster.lease import StaleOwner
from rummykit.server.store.store import Store
from services import StoreBackend

SETTINGS = TableSettings(
    rules="standard",
    players=(HumanPlayer(kind="human", name="Ada"), HumanPlayer(kind="human", name="Bo")),
    practice=False,
)


def test_a_paused_owner_never_writes_after_a_later_owner_claims_the_table(
    store_backend: StoreBackend,
) -> None:
    first, second = Store(store_backend.location), Store(store_backend.location)
    deck = list(standard_deck(1, 0))
    first.create_table("t", SETTINGS, {}, (0, deck, 1))
    first.own("t", 1)
    first.add_action("t", 0, 0, "1 draw stock", [], 2, seat=1)
    second.own("t", 2)  # the first was paused past its lease: the second took the table
    with pytest.raises(StaleOwner):
        first.add_action("t", 0, 1, "1 discard 2c", [], 3, seat=1)
    with pytest.raises(StaleOwner):
        first.set_deadline("t", 99.0)
    with pytest.raises(StaleOwner):
        first.save_settings("t", SETTINGS)
    with pytest.raises(StaleOwner):
        first.add_deal("t", 1, 1, deck, 5, 9)
    with pytest.raises(StaleOwner):
        first.own("t", 1)
    assert [deal["actions"] for deal in second.deals("t")] == [["1 draw stock"]]
    assert second.version("t") == 2 and second.deadline("t") is None
    second.add_action("t", 0, 1, "1 discard 3c", [], 3, seat=1)  # the owner writes on
    assert second.deals("t")[0]["actions"] == ["1 draw stock", "1 discard 3c"]
    assert second.epoch("t") == 2
    first.close()
    second.close()


def test_a_process_alone_is_never_fenced(store_backend: StoreBackend) -> None:
    alone = Store(store_backend.location)
    alone.create_table("t", SETTINGS, {}, (0, list(standard_deck(1, 0)), 1))
    alone.add_action("t", 0, 0, "1 draw stock", [], 2, seat=1)
    assert alone.epoch("t") == 0 and alone.deals("t")[0]["actions"] == ["1 draw stock"]
    alone.close()


def test_a_table_made_under_a_lease_is_stored_with_its_owners_epoch_in_the_same_write(
    store_backend: StoreBackend,
) -> None:
    first, second = Store(store_backend.location), Store(store_backend.location)
    first.create_table("t", SETTINGS, {}, (0, list(standard_deck(1, 0)), 1), epoch=3)
    assert first.epoch("t") == 3 and first.epochs == {"t": 3}  # no moment without its owner
    first.add_action("t", 0, 0, "1 draw stock", [], 2, seat=1)
    with pytest.raises(StaleOwner):
        second.own("t", 2)  # an older lease cannot take it
    second.own("t", 4)
    with pytest.raises(StaleOwner):
        first.add_action("t", 0, 1, "1 discard 2c", [], 3, seat=1)
    first.close()
    second.close()
