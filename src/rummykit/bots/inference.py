"""Reading the other hands from how they were played: positions weighed by likelihood.

``sample_position`` deals the unseen cards uniformly: every hand consistent with what the
seat saw is as likely as any other. But players give their hands away. A player who left a
discard lying most likely could not meld it, and a player who threw a card most likely had
nothing that belonged with it. ``inferred_position`` deals several positions uniformly and
keeps one of them with a chance in proportion to how well its hands explain what each player
was seen to refuse and throw (sampling-importance-resampling).

Only what every player at the table saw is read: the observation's ``refused`` and
``thrown``. The weights were chosen by how well the sampled hands predict the real ones in
games between computer players (``benchmarks/inference.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from rummykit.bots.evaluate import partnered, third_ranks
from rummykit.core.cards import Card
from rummykit.core.determinize import deal_unseen, determinize, unseen_cards
from rummykit.core.observation import Observation
from rummykit.core.rules import Rules
from rummykit.core.state import GameState

CANDIDATE_DEALS: Final = 12
"""Uniform deals drawn for each position kept: more follow the weights more closely."""

REFUSED_MELD: Final = 0.05
"""A hand's weight for each discard its player left lying that would have made a meld in it."""

REFUSED_PARTNER: Final = 0.5
"""For each discard left lying that would have been half a pair or two thirds of a run."""

THROWN_PARTNER: Final = 0.3
"""For each card its player threw that belongs with a card of the hand."""


def completes(card: Card, hand: Sequence[Card], rules: Rules) -> bool:
    """Whether ``card`` and two cards of ``hand`` make a meld under the rules' aces.

    A joker makes one with two natural cards that a third would make one with; a natural
    card makes one with a joker and a partner (two jokers and one card are no meld).
    """
    if card.is_joker:
        naturals = [other for other in hand if not other.is_joker]
        return any(partnered(other, naturals, rules) for other in naturals)
    if any(other.is_joker for other in hand) and partnered(card, hand, rules):
        return True
    rank = int(card.rank or 0)
    suits = {other.suit for other in hand if other.rank is card.rank} - {card.suit}
    if len(suits) >= 2:
        return True
    ranks = sorted({int(other.rank or 0) for other in hand if other.suit is card.suit} - {rank})
    for index, first in enumerate(ranks):
        for second in ranks[index + 1 :]:
            if rank in third_ranks(rules.aces, first, second):
                return True
    return False


def likelihood(
    hand: Sequence[Card], refused: Sequence[Card], thrown: Sequence[Card], rules: Rules
) -> float:
    """How well ``hand`` explains the discards its player refused and threw (at most 1)."""
    weight = 1.0
    for card in refused:
        if completes(card, hand, rules):
            weight *= REFUSED_MELD
        elif partnered(card, hand, rules):
            weight *= REFUSED_PARTNER
    for card in thrown:
        if partnered(card, hand, rules):
            weight *= THROWN_PARTNER
    return weight


def inferred_position(observation: Observation, rng: random.Random) -> GameState:
    """A position consistent with the observation, drawn with the other hands' likelihood."""
    if observation.seat is None:
        raise ValueError("A spectator has no hand to sample around.")
    rules = observation.rules
    unseen = sorted(unseen_cards(observation).elements())
    deals: list[tuple[list[list[Card]], list[Card]]] = []
    weights: list[float] = []
    for _ in range(CANDIDATE_DEALS):
        hands, stock = deal_unseen(observation, unseen, rng)
        weight = 1.0
        for seat, hand in enumerate(hands):
            if seat != observation.seat:
                refused, thrown = observation.refused[seat], observation.thrown[seat]
                weight *= likelihood(hand, refused, thrown, rules)
        deals.append((hands, stock))
        weights.append(weight)
    hands, stock = rng.choices(deals, weights)[0]
    return determinize(observation, hands, stock)
