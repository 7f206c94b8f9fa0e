"""How good a hand is for a seat that knows what it has seen: deadwood and live chances."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from rummykit.core.cards import Card, Rank, Suit
from rummykit.core.deadwood import Partition, best_partition
from rummykit.core.determinize import unseen_cards
from rummykit.core.errors import IllegalActionError
from rummykit.core.frozen import rebuild_by_fields
from rummykit.core.melds import arrange_meld, meld_accepts
from rummykit.core.observation import Observation
from rummykit.core.rules import Aces, Melding, Rules

CHANCE_WEIGHT = 2.0
"""Points a live card that would turn two deadwood cards into a meld is worth. Tuned by
duplicate tournaments against ``basic`` (classic, 200 games each): 0.6 lost, 1.2 won 57%,
2.0 and 3.0 won 65% with a wider take margin."""


def live_cards(observation: Observation) -> Counter[Card]:
    """Cards that may still be drawn or taken: the unseen ones and the top discard.

    Cards buried in the discard pile count as dead (only its top can be taken), as do
    cards other seats are known to hold.
    """
    live = unseen_cards(observation)
    top = observation.discard_top
    if top is not None:
        live[top] += 1
    return live


@cache
def third_ranks(aces: Aces, first: int, second: int) -> tuple[int, ...]:
    """The ranks that make a run with these two ranks of one suit, under the aces rule."""
    thirds = []
    for rank in range(1, 14):
        if rank in (first, second):
            continue
        cards = [Card(Rank(value), Suit.CLUBS) for value in (first, second, rank)]
        try:
            arrange_meld(cards, (), aces)
        except IllegalActionError:
            continue
        thirds.append(rank)
    return tuple(thirds)


def chances(deadwood: Sequence[Card], live: Counter[Card], rules: Rules) -> int:
    """Live cards that would make a meld of two deadwood cards (counted for each pair)."""
    outs = 0
    naturals = [card for card in deadwood if card.rank is not None and card.suit is not None]
    for index, first in enumerate(naturals):
        for second in naturals[index + 1 :]:
            if first.rank is second.rank:
                if first.suit is not second.suit:
                    outs += sum(
                        live[Card(first.rank, suit)]
                        for suit in Suit
                        if suit is not first.suit and suit is not second.suit
                    )
            elif first.suit is second.suit:
                for rank in third_ranks(rules.aces, int(first.rank or 0), int(second.rank or 0)):
                    outs += live[Card(Rank(rank), first.suit)]
    return outs


def partnered(card: Card, others: Sequence[Card], rules: Rules) -> bool:
    """Whether ``card`` and one of ``others`` are two cards of a meld still to make.

    A pair of one rank, or two cards of one suit that a third makes a run of under the aces
    rule. A joker is always worth keeping; the jokers among ``others`` are left out (with
    one, every card would be a partner).
    """
    if card.is_joker:
        return True
    rank = int(card.rank or 0)
    for other in others:
        if other is card or other.is_joker:
            continue
        if other.rank is card.rank:
            if other.suit is not card.suit:
                return True
        elif other.suit is card.suit and third_ranks(rules.aces, rank, int(other.rank or 0)):
            return True
    return False


@dataclasses.dataclass(frozen=True, slots=True)
class HandValue:
    """A hand's worth: its best split, and a score that counts live chances (lower is better)."""

    partition: Partition
    outs: int
    score: float

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


LOOSE_CARD_WEIGHT = 20.0
"""Where only the whole hand is melded (``Melding.WHOLE_HAND``), what each card in no meld
adds to a hand's score besides its cost: every one stands between the hand and going out.
Duplicate games of ``strong`` against ``basic`` (published Boathouse, two seats, 160 deals):
0 won 24% of the deals, 10 won 34%, and 20 won 58% once ``strong`` also stopped sparing the
next seat's collection (see ``strong``); 40 won no more."""


def evaluate(hand: Sequence[Card], live: Counter[Card], rules: Rules) -> HandValue:
    """The hand's deadwood less what its live chances are worth.

    Under whole-hand melding each loose card also counts ``LOOSE_CARD_WEIGHT``.
    """
    partition = best_partition(hand, rules)
    outs = chances(partition.deadwood, live, rules)
    score = partition.value - CHANCE_WEIGHT * outs
    if rules.melding is Melding.WHOLE_HAND:
        score += LOOSE_CARD_WEIGHT * len(partition.deadwood)
    return HandValue(partition, outs, score)


def fits_table(card: Card, observation: Observation) -> bool:
    """Whether ``card`` would extend a meld on the table (so the next seat could lay it off)."""
    if card.is_joker:
        return bool(observation.melds)
    aces = observation.rules.aces
    return any(card in meld_accepts(meld, aces) for meld in observation.melds)


def collected_by(card: Card, seat: int, observation: Observation) -> bool:
    """Whether ``seat`` visibly collects cards like ``card``.

    It does when it took a card of that rank, or of that suit one or two ranks away, from the
    pile and still holds it.
    """
    if card.is_joker:
        return True
    for taken in observation.known_cards[seat]:
        if taken.is_joker:
            continue
        if taken.rank is card.rank:
            return True
        if taken.suit is card.suit and abs(int(taken.rank or 0) - int(card.rank or 0)) <= 2:
            return True
    return False
