"""Positions consistent with what one seat sees: for bots that search by sampling.

A seat knows its own hand, the table, the discard pile, how many cards each seat and the
stock hold, and which cards other seats took from the pile and still hold. Every card it
has not seen could be in any other hand or anywhere in the stock; ``sample_position`` deals
them out at random into a full ``GameState`` that the bot may play forward freely.

>>> from rummykit.core.presets import find_preset
>>> from rummykit.core.observation import observe
>>> from rummykit.core.state import GameState
>>> import random
>>> game = GameState.new(find_preset("classic").rules, seats=3, seed=5)
>>> view = observe(game, 1)
>>> sampled = sample_position(view, random.Random(0))
>>> sampled.hands[1] == sorted(game.hands[1]), [len(hand) for hand in sampled.hands]
(True, [7, 7, 7])
>>> sum(unseen_cards(view).values()) == 52 - 7 - 1
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from rummykit.core.cards import Card, standard_deck
from rummykit.core.deal import DealLog, DealState
from rummykit.core.observation import Observation
from rummykit.core.state import GameState


def unseen_cards(observation: Observation) -> Counter[Card]:
    """The cards this seat has not seen: the other hands (less their known cards) and stock."""
    rules = observation.rules
    unseen = Counter(standard_deck(rules.decks, rules.jokers))
    unseen.subtract(observation.hand)
    unseen.subtract(observation.discard_pile)
    for meld in observation.melds:
        unseen.subtract(meld.cards)
    for seat, known in enumerate(observation.known_cards):
        if seat != observation.seat:
            unseen.subtract(known)
    return +unseen


def determinize(
    observation: Observation, hands: Sequence[Sequence[Card]], stock: Sequence[Card]
) -> GameState:
    """The full position the observation shows, with the hidden cards as given.

    ``hands`` gives every seat's hand (the observer's own must match), ``stock`` the stock
    top first. Scores, the table, the pile and the turn's progress come from the observation.
    """
    seats = observation.seat_count
    if len(hands) != seats or [len(hand) for hand in hands] != list(observation.hand_sizes):
        raise ValueError("The hands must have the sizes the observation shows.")
    if len(stock) != observation.stock_count:
        raise ValueError("The stock must have the size the observation shows.")
    game = GameState(observation.rules, seats, observation.dealer)
    game.scores = list(observation.scores)
    game.logs = [DealLog(observation.dealer, ())]
    game.deal = DealState(
        hands=[list(hand) for hand in hands],
        stock=list(reversed(stock)),
        discard_pile=list(observation.discard_pile),
        melds=list(observation.melds),
        turn=observation.turn,
        phase=observation.phase,
        turn_number=observation.turn_number,
        taken_top=observation.taken_top,
        must_play=observation.must_play,
        stock_extra=None,  # only words tell of it, and a sampled future says nothing
        melds_this_turn=observation.melds_this_turn,
        played_this_turn=observation.played_this_turn,
        played_before=list(observation.has_laid),
        first_meld_turn=list(observation.first_meld_turns),
        known=[list(cards) for cards in observation.known_cards],
        refused=[list(cards) for cards in observation.refused],
        thrown=[list(cards) for cards in observation.thrown],
        renewals_used=observation.renewals_used,
        idle_renewals_used=observation.idle_renewals_used,
        result=observation.result,
        winner=observation.deal_winner,
        points=observation.deal_points,
        knocker=observation.knocker,
        layouts=observation.layouts,
        given_reshuffles=[],  # a sampled future shuffles from its own seed
        shuffle_seed=0,
        shuffle_rng=None,
        meld_points=list(observation.meld_points),
        table_points=list(observation.table_points),
    )
    game.game_over = observation.game_over
    game.winner = observation.winner
    return game


def deal_unseen(
    observation: Observation, unseen: Sequence[Card], rng: random.Random
) -> tuple[list[list[Card]], list[Card]]:
    """The ``unseen`` cards shuffled and dealt out: every seat's hand, and the stock.

    The observer's hand is its own; another seat's is its known cards, filled up to its
    size. ``unseen`` must be the observation's ``unseen_cards``.
    """
    pool = list(unseen)
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for seat in range(observation.seat_count):
        if seat == observation.seat:
            hands.append(list(observation.hand))
            continue
        hand = list(observation.known_cards[seat])
        missing = observation.hand_sizes[seat] - len(hand)
        hand.extend(pool[:missing])
        del pool[:missing]
        hands.append(hand)
    return hands, pool


def sample_position(observation: Observation, rng: random.Random) -> GameState:
    """A position drawn at random among those consistent with the observation."""
    if observation.seat is None:
        raise ValueError("A spectator has no hand to sample around.")
    hands, stock = deal_unseen(observation, sorted(unseen_cards(observation).elements()), rng)
    return determinize(observation, hands, stock)
