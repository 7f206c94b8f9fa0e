"""A live table's new stocks come from the operating system, are stored, and replay.

Issue 29: a new stock shuffled by a seed below 2**31 was found by a search from four draws.
"""

from __future__ import annotations

import asyncio

import pytest

from helpers import RecordingRandom
from rummykit.core import state as state_module
from rummykit.core.actions import parse_action
from rummykit.core.cards import Card
from rummykit.core.presets import describe_rules, find_preset
from rummykit.core.record import load_record, replay
from rummykit.protocol.settings import RECORD_RULES, HumanPlayer, TableSettings
from rummykit.server.store.seat_figures import Played
from rummykit.server.store.store import Store
from rummykit.server.tables.table import Table, deal_new_table_with_seats, restore_table
from table_client import WORKERS, ManualClock


def party_settings(seed: int | None) -> TableSettings:
    """Two people at a ``party`` table (new stocks shuffled), live (``seed`` ``None``) or not."""
    party = find_preset("party")
    return TableSettings(
        rules=RECORD_RULES.validate_python(describe_rules(party, party.rules)),
        players=(HumanPlayer(kind="human", name="Ann"), HumanPlayer(kind="human", name="Bo")),
        practice=False,
        seed=seed,
    )


async def stall_to_renewal(table: Table) -> tuple[Card, ...]:
    """Each person draws from the stock and throws that card back until the stock is renewed."""
    shuffled = len(table.game.logs[-1].reshuffles)
    while len(table.game.logs[-1].reshuffles) == shuffled:
        seat = table.game.turn
        await table.play(parse_action(f"{seat} draw stock"), Played.PERSON)
        if len(table.game.logs[-1].reshuffles) > shuffled:
            break
        drawn = table.game.hands[seat][-1]
        await table.play(parse_action(f"{seat} discard {drawn}"), Played.PERSON)
    return table.game.logs[-1].reshuffles[-1]


def stored_record(store: Store, table: Table) -> dict[str, object]:
    return {
        "format": "rummy-record/1",
        "rules": table.settings.rules,
        "players": ["Ann", "Bo"],
        "deals": store.deals(table.id),
    }


def test_a_live_tables_new_stock_is_drawn_from_the_system_and_stored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorder = RecordingRandom()
    monkeypatch.setattr(state_module, "_SYSTEM_RANDOM", recorder)

    async def scenario() -> None:
        store = Store(":memory:")
        table = await deal_new_table_with_seats(
            store, party_settings(None), WORKERS, {}, sleep=ManualClock().sleep
        )
        order = await stall_to_renewal(table)
        assert recorder.orders == [order]  # the system's order, not a seed's
        deal = store.deals(table.id)[-1]
        assert deal["seed"] == 0  # no seed is kept: there is none to find
        assert [tuple(Card.parse(card) for card in each) for each in deal["reshuffles"]] == [order]
        # the stored record replays the game exactly
        replayed = replay(load_record(stored_record(store, table))).state
        assert replayed is not None
        assert replayed.stock == table.game.stock
        assert replayed.discard_pile == table.game.discard_pile
        assert [list(replayed.hands[seat]) for seat in range(2)] == [
            list(table.game.hands[seat]) for seat in range(2)
        ]
        # a restored live table draws its next new stock from the system too
        await table.stop()
        restored = await restore_table(store, table.id, WORKERS, sleep=ManualClock().sleep)
        assert restored.game.stock == table.game.stock
        second = await stall_to_renewal(restored)
        assert recorder.orders == [order, second]
        await restored.stop()
        store.close()

    asyncio.run(scenario())


def test_a_seeded_table_keeps_its_seed_and_follows_it() -> None:
    """A test table (a seed asked for) still shuffles its new stocks by the recorded seed."""

    async def renewal() -> tuple[int, tuple[Card, ...]]:
        store = Store(":memory:")
        table = await deal_new_table_with_seats(
            store, party_settings(12), WORKERS, {}, sleep=ManualClock().sleep
        )
        order = await stall_to_renewal(table)
        seed = store.deals(table.id)[-1]["seed"]
        await table.stop()
        store.close()
        return seed, order

    first, second = asyncio.run(renewal()), asyncio.run(renewal())
    assert first == second
    assert first[0] != 0
