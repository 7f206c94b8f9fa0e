"""Minimum deadwood: the best way to split a hand into melds, the rest counted against it.

>>> from rummykit.core.cards import parse_cards
>>> from rummykit.core.rules import Rules
>>> hand = parse_cards("4h 5h 6h 7h 7c 7d Ks Kd 2c 3s".split())
>>> best = best_partition(hand, Rules(aces="low"))
>>> best.value, [meld.text for meld in best.melds], str(best.deadwood[0])
(25, ['4h 5h 6h', '7c 7d 7h'], 'Ks')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache

from rummykit.core.cards import JOKER, JOKER_CODE, Card
from rummykit.core.melds import TableMeld, enumerate_melds, meld_layouts
from rummykit.core.rules import Aces, Rules

_FIELD_BITS = 2  # two decks hold a card at most twice: two bits count its copies
_JOKER_SHIFT = 2 * 53


@dataclasses.dataclass(frozen=True, slots=True)
class Partition:
    """A hand split into melds and deadwood, with the deadwood's value."""

    value: int
    """What the deadwood costs under the rules."""
    melds: tuple[TableMeld, ...]
    """The melds, each laid out (jokers with what they stand for)."""
    deadwood: tuple[Card, ...]
    """The cards in no meld, dearest first."""


@lru_cache(maxsize=1 << 16)
def _solve(
    codes: tuple[int, ...], aces: Aces, points: tuple[int, ...]
) -> tuple[int, tuple[int, ...]]:
    """(least deadwood, the meld indices chosen) for a sorted tuple of card codes.

    The search walks the hand's lowest card first: it is either deadwood or in one of the
    melds whose lowest card it is. Positions are memoised by the count of each card left.
    """
    distinct = sorted({code for code in codes if code != JOKER_CODE})
    index_of = {code: index for index, code in enumerate(distinct)}
    state = 0
    for code in codes:
        if code == JOKER_CODE:
            state += 1 << _JOKER_SHIFT
        else:
            state += 1 << (_FIELD_BITS * index_of[code])
    melds = list(enumerate_melds(codes, aces))
    by_lowest: list[list[tuple[int, int, int]]] = [[] for _ in distinct]
    for meld_index, (naturals, jokers) in enumerate(melds):
        ones = 0
        for code in naturals:
            ones |= 1 << (_FIELD_BITS * index_of[code])
        lowest = index_of[naturals[0]]
        by_lowest[lowest].append((ones, jokers << _JOKER_SHIFT, meld_index))
    values = [points[code] for code in distinct]
    joker_value = points[JOKER_CODE]
    low_bits = sum(1 << (_FIELD_BITS * index) for index in range(len(distinct)))
    natural_mask = (1 << _JOKER_SHIFT) - 1
    memo: dict[int, tuple[int, tuple[int, ...]]] = {}

    def search(state: int) -> tuple[int, tuple[int, ...]]:
        found = memo.get(state)
        if found is not None:
            return found
        naturals = state & natural_mask
        if not naturals:
            result: tuple[int, tuple[int, ...]] = ((state >> _JOKER_SHIFT) * joker_value, ())
            memo[state] = result
            return result
        nonzero = (naturals | (naturals >> 1)) & low_bits
        lowest_bit = nonzero & -nonzero
        index = lowest_bit.bit_length() // _FIELD_BITS
        rest_value, rest_melds = search(state - lowest_bit)
        best = (values[index] + rest_value, rest_melds)
        jokers_left = state >> _JOKER_SHIFT << _JOKER_SHIFT
        for ones, joker_cost, meld_index in by_lowest[index]:
            if nonzero & ones == ones and joker_cost <= jokers_left:
                value, chosen = search(state - ones - joker_cost)
                if value < best[0]:
                    best = (value, (meld_index, *chosen))
                    if value == 0:
                        break
        memo[state] = best
        return best

    value, chosen = search(state)
    encoded = tuple(
        code for meld_index in chosen for code in (*melds[meld_index][0], -1 - melds[meld_index][1])
    )
    return value, encoded


def _points(rules: Rules) -> tuple[int, ...]:
    return _points_for(rules.ace_points, rules.joker_points)


@lru_cache(maxsize=64)
def _points_for(ace_points: int, joker_points: int) -> tuple[int, ...]:
    rules = Rules(ace_points=ace_points, joker_points=joker_points)
    return tuple(rules.card_points(code) for code in range(JOKER_CODE + 1))


def deadwood_value(cards: Sequence[Card], rules: Rules) -> int:
    """The least a hand can be left holding in deadwood, melding all it can."""
    return _solve(tuple(sorted(card.code for card in cards)), rules.aces, _points(rules))[0]


def best_partition(cards: Sequence[Card], rules: Rules) -> Partition:
    """The split of ``cards`` into melds that leaves the least deadwood (ties: the first found).

    Deadwood comes dearest first. Lay-offs on the table are not considered: this is the
    hand's own value.
    """
    codes = tuple(sorted(card.code for card in cards))
    value, encoded = _solve(codes, rules.aces, _points(rules))
    melds: list[TableMeld] = []
    remaining = list(cards)
    naturals: list[Card] = []
    for code in encoded:
        if code >= 0:
            naturals.append(Card.from_code(code))
            continue
        jokers = -1 - code
        melds.append(meld_layouts(naturals, jokers, rules.aces)[0])
        for card in naturals:
            remaining.remove(card)
        for _ in range(jokers):
            remaining.remove(JOKER)
        naturals = []
    deadwood = sorted(remaining, key=lambda card: (-rules.card_points(card.code), -card.code))
    return Partition(value, tuple(melds), tuple(deadwood))


def best_discard(cards: Sequence[Card], rules: Rules) -> tuple[Card, int]:
    """The card to throw from ``cards`` that leaves the least deadwood, and that deadwood.

    Ties go to the dearer card, then the higher one.
    """
    points = _points(rules)
    codes = sorted(card.code for card in cards)
    best: tuple[int, int, int] | None = None
    for position, code in enumerate(codes):
        if position and codes[position - 1] == code:
            continue
        rest = tuple(codes[:position] + codes[position + 1 :])
        value = _solve(rest, rules.aces, points)[0]
        key = (value, -points[code], -code)
        if best is None or key < best:
            best = key
    if best is None:
        raise ValueError("best_discard needs at least one card")
    return Card.from_code(-best[2]), best[0]
