"""A deal without a seed (a live table's) draws each new stock from the operating system.

The pile's order is public, so a new stock shuffled by a seed that a search can find would be
predictable from a few draws; without a seed the order comes from ``secrets`` and the record
keeps it, so that a replay still reproduces the game.
"""

from __future__ import annotations

import random

import pytest

from helpers import RecordingRandom
from rummykit.core import state as state_module
from rummykit.core.actions import parse_action
from rummykit.core.cards import Card, standard_deck
from rummykit.core.presets import find_preset
from rummykit.core.record import dump_record, load_record, record_of, replay
from rummykit.core.state import GameState

PARTY = find_preset("party")


def party_game(seed: int | None) -> GameState:
    """A two-seat ``party`` game (the pile but its top shuffled into a new stock), one deck."""
    deck = list(standard_deck(PARTY.rules.decks, PARTY.rules.jokers))
    random.Random(29).shuffle(deck)
    game = GameState(PARTY.rules, 2)
    game.start_deal(deck, seed=seed)
    return game


def stall_to_renewal(game: GameState) -> tuple[Card, ...]:
    """Each seat draws from the stock and throws that card back until the stock is renewed."""
    log = game.logs[-1]
    while not log.reshuffles:
        seat = game.turn
        game.apply(parse_action(f"{seat} draw stock"))
        if log.reshuffles:
            break
        game.apply(parse_action(f"{seat} discard {game.hands[seat][-1]}"))
    return log.reshuffles[0]


def test_a_new_stock_without_a_seed_is_drawn_from_the_system(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorder = RecordingRandom()
    monkeypatch.setattr(state_module, "_SYSTEM_RANDOM", recorder)
    game = party_game(None)
    order = stall_to_renewal(game)
    assert recorder.orders == [order]


def test_identical_deals_without_a_seed_get_different_new_stocks() -> None:
    orders = {stall_to_renewal(party_game(None)) for _ in range(20)}
    # 40-odd cards: two equal shuffles from the system would be a 1 in 10**40 event
    assert len(orders) == 20


def test_identical_deals_with_a_seed_get_the_same_new_stock() -> None:
    first, second = stall_to_renewal(party_game(5)), stall_to_renewal(party_game(5))
    assert first == second
    assert stall_to_renewal(party_game(6)) != first


def test_a_record_of_a_deal_without_a_seed_replays_it() -> None:
    game = party_game(None)
    stall_to_renewal(game)
    for _ in range(6):  # a few turns on the new stock
        seat = game.turn
        game.apply(parse_action(f"{seat} draw stock"))
        game.apply(parse_action(f"{seat} discard {game.hands[seat][-1]}"))
    text = dump_record(record_of(game, PARTY, ("Ann", "Bo")))
    assert '"seed"' not in text  # no seed is stored: the list holds every new stock
    replayed = replay(load_record(text)).state
    assert replayed is not None
    assert replayed.logs[-1].reshuffles == game.logs[-1].reshuffles
    assert replayed.stock == game.stock
    assert [list(replayed.hands[seat]) for seat in range(2)] == [
        list(game.hands[seat]) for seat in range(2)
    ]
    assert replayed.discard_pile == game.discard_pile


def test_a_rebuilt_deal_told_to_draw_from_the_system_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A live table rebuilt from its record (seed 0 in the store) draws on from the system."""
    recorder = RecordingRandom()
    monkeypatch.setattr(state_module, "_SYSTEM_RANDOM", recorder)
    game = party_game(0)
    game.draw_renewals_from_system()
    order = stall_to_renewal(game)
    assert recorder.orders == [order]
