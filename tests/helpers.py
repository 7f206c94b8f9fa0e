"""Shared helpers for tests: stacked decks and games set up from readable hands."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummykit.core.cards import Card, parse_cards, standard_deck
from rummykit.core.rules import Rules
from rummykit.core.state import GameState


def stacked_deck(
    rules: Rules,
    hands: Sequence[str],
    up: str,
    stock: str = "",
    dealer: int = 0,
) -> list[Card]:
    """A whole deck (top first) that deals ``hands`` (seat by seat), ``up`` and then ``stock``.

    ``hands[seat]`` is a space-separated card list of exactly the rules' hand size; ``stock``
    gives the first stock cards, top first; the rest of the deck follows in code order.
    """
    seats = len(hands)
    size = rules.hand_size_for(seats)
    held = [list(parse_cards(hand.split())) for hand in hands]
    for seat, cards in enumerate(held):
        assert len(cards) == size, f"seat {seat} needs {size} cards, not {len(cards)}"
    wanted = [card for cards in held for card in cards] + [Card.parse(up)]
    wanted += list(parse_cards(stock.split()))
    rest = Counter(standard_deck(rules.decks, rules.jokers))
    rest.subtract(Counter(wanted))
    assert all(count >= 0 for count in rest.values()), "a card is used more often than the deck has"
    deck: list[Card] = []
    for index in range(seats * size):
        seat = (dealer + 1 + index) % seats
        deck.append(held[seat][index // seats])
    deck.append(Card.parse(up))
    deck.extend(parse_cards(stock.split()))
    deck.extend(sorted(rest.elements()))
    return deck


def stacked_game(
    rules: Rules,
    hands: Sequence[str],
    up: str,
    stock: str = "",
    dealer: int = 0,
) -> GameState:
    """A game whose first deal gives ``hands``, turns up ``up`` and stacks ``stock`` on top."""
    deck = stacked_deck(rules, hands, up, stock, dealer)
    return GameState.new(rules, len(hands), dealer=dealer, deck=deck)
