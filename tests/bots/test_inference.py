"""The inferred sampler: what it reads (only what every player saw), what it weighs, and that
its positions are as consistent with the observation as uniform ones.

``completes`` is checked against the engine's own meld rule in both directions; the
positions against the real game, swapped hidden cards and the seat's own view.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot_games import positions, random_game, reshuffle_hidden
from rummykit.bots import StrongBot
from rummykit.bots.inference import (
    REFUSED_MELD,
    THROWN_PARTNER,
    completes,
    inferred_position,
    likelihood,
)
from rummykit.core.actions import Discard, Knock, parse_action
from rummykit.core.cards import ALL_CARDS, JOKER, Card, parse_cards
from rummykit.core.determinize import unseen_cards
from rummykit.core.errors import IllegalActionError
from rummykit.core.melds import arrange_meld
from rummykit.core.observation import observe
from rummykit.core.rules import Aces, Rules
from rummykit.core.state import GameState

CARDS = st.sampled_from(ALL_CARDS)  # the joker included; lists may repeat cards (two decks)


def is_meld(cards: list[Card], aces: Aces) -> bool:
    """The oracle: the engine lays these cards out as a meld."""
    try:
        arrange_meld(cards, (), aces)
    except IllegalActionError:
        return False
    return True


@settings(max_examples=400)
@given(CARDS, st.lists(CARDS, max_size=7), st.sampled_from(list(Aces)))
def test_a_card_completes_a_hand_exactly_when_the_engine_takes_the_three_as_a_meld(
    card: Card, hand: list[Card], aces: Aces
) -> None:
    expected = any(is_meld([card, a, b], aces) for a, b in itertools.combinations(hand, 2))
    assert completes(card, hand, Rules(aces=aces, jokers=2)) == expected


def test_what_completes_a_hand_under_each_aces_rule() -> None:
    queen, king, two, three, ace = parse_cards(["Qh", "Kh", "2h", "3h", "Ah"])
    assert completes(ace, [two, three], Rules(aces=Aces.LOW))
    assert not completes(ace, [queen, king], Rules(aces=Aces.LOW))
    assert completes(ace, [queen, king], Rules(aces=Aces.LOW_OR_HIGH))
    assert completes(ace, [king, two], Rules(aces=Aces.AROUND))
    assert completes(JOKER, [king, two], Rules(aces=Aces.AROUND, jokers=2))
    assert not completes(two, [JOKER, JOKER], Rules(jokers=2))


def test_a_hand_that_could_have_melded_a_refused_card_weighs_less() -> None:
    rules = Rules()
    refused = parse_cards(["7h"])
    could = parse_cards(["7s", "7d", "2c", "Kd"])
    could_not = parse_cards(["7s", "9d", "2c", "Kd"])
    assert likelihood(could, refused, (), rules) == REFUSED_MELD
    assert likelihood(could_not, refused, (), rules) < 1  # half a pair: a little less likely
    assert likelihood(parse_cards(["9d", "2c", "Kd"]), refused, (), rules) == 1


def test_a_hand_holding_a_partner_of_a_thrown_card_weighs_less() -> None:
    rules = Rules()
    thrown = parse_cards(["9c", "Jd"])
    assert likelihood(parse_cards(["9s", "Qd", "4h"]), (), thrown, rules) == THROWN_PARTNER**2
    assert likelihood(parse_cards(["5s", "2d", "4h"]), (), thrown, rules) == 1


def discards_in_log(game: GameState) -> list[list[Card]]:
    """Each seat's discards and knocks in the deal's log, in order."""
    thrown: list[list[Card]] = [[] for _ in range(game.seat_count)]
    for text in game.logs[-1].actions:
        action = parse_action(text)
        if isinstance(action, Discard | Knock):
            thrown[action.seat].append(action.card)
    return thrown


def test_the_game_keeps_each_seats_discards_in_order() -> None:
    for seed in range(12):
        game, rng = random_game(seed, seats=2 + seed % 3)
        bots = [StrongBot()] * game.seat_count
        for _ in positions(game, bots, rng):
            assert [list(cards) for cards in game.thrown] == discards_in_log(game)
        assert [list(cards) for cards in game.thrown] == discards_in_log(game)
        assert sum(map(len, game.thrown)) > 0


def consistent(sampled: GameState, game: GameState, seat: int) -> None:
    """``sampled`` is a position ``seat`` could not tell from ``game``."""
    view = observe(game, seat)
    assert sampled.hands[seat] == list(view.hand)
    assert [len(hand) for hand in sampled.hands] == [len(hand) for hand in game.hands]
    assert len(sampled.stock) == len(game.stock)
    for other, known in enumerate(view.known_cards):
        if other != seat:
            assert not Counter(known) - Counter(sampled.hands[other])
    hidden = Counter(sampled.stock)
    for other, hand in enumerate(sampled.hands):
        if other != seat:
            hidden.update(Counter(hand) - Counter(view.known_cards[other]))
    assert hidden == unseen_cards(view)
    assert observe(sampled, seat).legal_actions == view.legal_actions


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4), st.integers(0, 60))
def test_inferred_positions_are_consistent_and_read_no_hidden_card(
    seed: int, seats: int, steps: int
) -> None:
    game, rng = random_game(seed, seats)
    bots = [StrongBot()] * seats
    for index, _ in enumerate(positions(game, bots, rng)):
        if index == steps or game.deal_over:
            break
    if game.deal_over:
        return
    seat = game.turn
    sampled = inferred_position(observe(game, seat), random.Random(seed))
    consistent(sampled, game, seat)
    # The same draws, whatever the hidden cards really are: nothing unseen was read.
    swapped = reshuffle_hidden(game, seat, random.Random(seed + 1))
    again = inferred_position(observe(swapped, seat), random.Random(seed))
    assert again.hands == sampled.hands and again.stock == sampled.stock
