"""Every meld a hand can make: the fast search behind legal actions and deadwood.

``enumerate_melds`` lists the groups of cards that make a meld (each distinct group of natural
cards once for each number of jokers it can take); ``meld_layouts`` lays one group out in
every way its jokers can stand. Whether a given meld is legal is decided in ``melds``
(``arrange_meld``); this module only proposes, and every proposal is checked against it.

>>> from rummykit.core.cards import parse_cards
>>> from rummykit.core.rules import Aces
>>> codes = [card.code for card in parse_cards("Js Qs Ks X".split())]
>>> sorted(meld.text for naturals, jokers in enumerate_melds(codes, Aces.LOW, substitutes=True)
...        for meld in meld_layouts([Card.from_code(code) for code in naturals], jokers, Aces.LOW)
...        if jokers)
['Js Qs X=Ks', 'Js X=Qs Ks', 'X=Js Qs Ks', 'X=Ts Js Qs', 'X=Ts Js Qs Ks']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from rummykit.core.cards import (
    JOKER,
    JOKER_CODE,
    RANK_BIT_OF_CODE,
    SUIT_OF_CODE,
    Card,
    Suit,
    card_code,
)
from rummykit.core.errors import IllegalActionError
from rummykit.core.melds import MAX_RUN, MAX_SET, TableMeld, arrange_meld, rank_at
from rummykit.core.rules import Aces


def _run_windows(aces: Aces) -> list[tuple[int, int]]:
    """Every (first position, length) a run may occupy under the aces rule."""
    windows: list[tuple[int, int]] = []
    if aces is Aces.AROUND:
        for start in range(1, 14):
            for length in range(3, MAX_RUN):
                windows.append((start, length))
        windows.append((1, MAX_RUN))
        return windows
    top = 13 if aces is Aces.LOW else 14
    for start in range(1, top - 1):
        for length in range(3, min(MAX_RUN, top - start + 1) + 1):
            windows.append((start, length))
    return windows


_WINDOWS: dict[Aces, list[tuple[int, int]]] = {aces: _run_windows(aces) for aces in Aces}

_WINDOW_BITS: dict[Aces, list[tuple[int, int]]] = {
    aces: [(length, ((1 << length) - 1) << start) for start, length in windows]
    for aces, windows in _WINDOWS.items()
}
"""Each run window's length and positions as bits (bit ``position``): ``_runs_with_jokers``."""


def enumerate_melds(
    codes: Sequence[int], aces: Aces, *, substitutes: bool = False
) -> list[tuple[tuple[int, ...], int]]:
    """Every meld these cards can make, as (natural codes, joker count) pairs.

    A joker may stand for any card, even one the hand holds. With ``substitutes`` the list
    has those melds too (a run of held cards with a joker in place of one of them: every
    legal meld, for the legal actions); without, a run takes every held card of its stretch
    (enough for a hand without a joker, and in a suit holding a card twice; the least-deadwood
    searches ask for the substitutes whenever the hand holds a joker, see ``deadwood``).

    Each distinct group of natural cards comes once for each number of jokers it can take
    (see ``meld_layouts`` for every placement of them). ``codes`` may repeat cards (two
    decks); ``JOKER_CODE`` is the joker.
    """
    jokers = 0
    suit_masks = [0, 0, 0, 0]
    suit_of, bit_of = SUIT_OF_CODE, RANK_BIT_OF_CODE  # locals: this loop is hot
    for code in codes:
        if code == JOKER_CODE:
            jokers += 1
        else:
            suit_masks[suit_of[code]] |= bit_of[code]
    doubled = [0, 0, 0, 0]
    if jokers and len(codes) - jokers > sum(mask.bit_count() for mask in suit_masks):
        doubled = _ranks_held_twice(codes)
    found: list[tuple[tuple[int, ...], int]] = []
    clubs, diamonds, hearts, spades = suit_masks
    if jokers:  # ranks held in at least two suits
        set_ranks = (clubs | diamonds) & (hearts | spades) | clubs & diamonds | hearts & spades
    else:  # ranks held in at least three suits
        set_ranks = (clubs & diamonds) & (hearts | spades) | (hearts & spades) & (clubs | diamonds)
    while set_ranks:
        low_bit = set_ranks & -set_ranks
        rank_index = low_bit.bit_length() - 1
        set_ranks ^= low_bit
        group = [card_code(rank_index + 1, suit) for suit in range(4) if suit_masks[suit] & low_bit]
        _add_sets(found, group, jokers)
    for suit, mask in enumerate(suit_masks):
        if jokers:
            if mask.bit_count() >= 2:
                found.extend(
                    sorted(_runs_with_jokers(mask, suit, jokers, aces, substitutes, doubled[suit]))
                )
            continue
        if aces is Aces.LOW_OR_HIGH:
            mask |= (mask & 1) << 13
        elif aces is Aces.AROUND:
            mask |= mask << 13
        if mask & (mask >> 1) & (mask >> 2):  # three in a row somewhere
            ranks = [index + 1 for index in range(13) if suit_masks[suit] >> index & 1]
            found.extend(sorted(_natural_runs(ranks, suit, aces)))
    return found


def _ranks_held_twice(codes: Sequence[int]) -> list[int]:
    """The ranks held twice in each suit, as rank bits (jokers are left out)."""
    once = [0, 0, 0, 0]
    twice = [0, 0, 0, 0]
    for code in codes:
        if code != JOKER_CODE:
            suit = SUIT_OF_CODE[code]
            twice[suit] |= once[suit] & RANK_BIT_OF_CODE[code]
            once[suit] |= RANK_BIT_OF_CODE[code]
    return twice


def _add_sets(found: list[tuple[tuple[int, ...], int]], group: list[int], jokers: int) -> None:
    """The sets one rank's cards (``group``, one of each suit held) can make."""
    size = len(group)
    if size >= 3:
        found.append((tuple(group), 0))
    trios = [tuple(group[:skip] + group[skip + 1 :]) for skip in range(4)] if size == 4 else []
    for trio in trios:
        found.append((trio, 0))
    if not jokers:
        return
    for first in range(size):
        for second in range(first + 1, size):
            pair = (group[first], group[second])
            found.append((pair, 1))
            if jokers >= 2:
                found.append((pair, 2))
    if size == 3:
        found.append((tuple(group), 1))
    for trio in trios:
        found.append((trio, 1))


def _natural_runs(ranks: list[int], suit: int, aces: Aces) -> set[tuple[tuple[int, ...], int]]:
    """Runs of natural cards only: every stretch of three or more within a sequence."""
    if aces is Aces.AROUND:
        return _natural_runs_around(ranks, suit)
    found: set[tuple[tuple[int, ...], int]] = set()
    positions = list(ranks)
    if aces is Aces.LOW_OR_HIGH and 1 in ranks:
        positions.append(14)
    stretch_start = 0
    for index in range(1, len(positions) + 1):
        if index == len(positions) or positions[index] != positions[index - 1] + 1:
            stretch = [card_code(rank_at(p), suit) for p in positions[stretch_start:index]]
            for low in range(len(stretch) - 2):
                for high in range(low + 3, min(len(stretch), low + MAX_RUN) + 1):
                    found.add((tuple(sorted(stretch[low:high])), 0))
            stretch_start = index
    return found


def _natural_runs_around(ranks: list[int], suit: int) -> set[tuple[tuple[int, ...], int]]:
    """``_natural_runs`` where runs may turn the corner from king to ace."""
    found: set[tuple[tuple[int, ...], int]] = set()
    if len(ranks) == MAX_RUN:
        found.add((tuple(card_code(rank, suit) for rank in ranks), 0))
        starts = ranks
    else:
        starts = [rank for rank in ranks if rank_at(rank - 1) not in ranks]
    present = set(ranks)
    for first in starts:
        position = first
        stretch: list[int] = []
        while rank_at(position) in present and len(stretch) < MAX_RUN - 1:
            stretch.append(card_code(rank_at(position), suit))
            position += 1
        for low in range(len(stretch) - 2):
            for high in range(low + 3, len(stretch) + 1):
                if high - low < MAX_RUN:
                    found.add((tuple(sorted(stretch[low:high])), 0))
    return found


def _runs_with_jokers(
    ranks: int,
    suit: int,
    jokers: int,
    aces: Aces,
    substitutes: bool,
    twice: int = 0,
) -> set[tuple[tuple[int, ...], int]]:
    """Runs that may use up to ``jokers`` jokers (and those that need none).

    ``ranks`` are the suit's ranks held, as rank bits (bit ``rank - 1``). With
    ``substitutes``, also every run where jokers stand in for cards the hand holds; else only
    in runs over a rank of ``twice`` (rank bits of the ranks the hand holds two of), where a
    joker for a held card can pay: Ac Ac 2c 2c 3c X melds whole only as Ac 2c 3c and
    Ac 2c X=3c.
    """
    found: set[tuple[tuple[int, ...], int]] = set()
    # run positions 1 to 26 as bits (14 is the high ace, and on round the corner)
    held = ranks << 1 | ranks << 14
    doubled = twice << 1 | twice << 14
    for length, window in _WINDOW_BITS[aces]:
        inside_bits = held & window
        count = inside_bits.bit_count()
        missing = length - count
        if missing > jokers or count < 2:
            continue
        inside = []
        while inside_bits:
            low = inside_bits & -inside_bits
            inside.append(card_code(rank_at(low.bit_length() - 1), suit))
            inside_bits ^= low
        inside.sort()
        found.add((tuple(inside), missing))
        if substitutes or doubled & window:
            for kept in range(max(2, length - jokers), count):
                for naturals in combinations(inside, kept):
                    found.add((naturals, length - kept))
    return found


def meld_layouts(naturals: Sequence[Card], jokers: int, aces: Aces) -> list[TableMeld]:
    """Every way to lay ``naturals`` with exactly ``jokers`` jokers as one meld."""
    if jokers == 0:
        try:
            return [arrange_meld(naturals, (), aces)]
        except IllegalActionError:
            return []
    layouts: list[TableMeld] = []
    if len({card.rank for card in naturals}) == 1:
        rank = naturals[0].rank
        missing = [Card(rank, suit) for suit in Suit if suit not in {c.suit for c in naturals}]
        if len(naturals) + jokers > MAX_SET or len(missing) < jokers:
            return []
        for combo in combinations(missing, jokers):
            cards = (*naturals, *([JOKER] * jokers))
            layouts.append(arrange_meld(cards, combo, aces))
        return layouts
    suit = naturals[0].suit
    wanted = {card.code for card in naturals}
    for start, length in _WINDOWS[aces]:
        if length != len(naturals) + jokers:
            continue
        positions = range(start, start + length)
        codes = [card_code(rank_at(position), suit or 0) for position in positions]
        if not wanted.issubset(codes) or len(set(codes)) != len(codes):
            continue
        fills = [Card.from_code(code) for code in codes if code not in wanted]
        cards = (*naturals, *([JOKER] * jokers))
        try:
            layouts.append(arrange_meld(cards, fills, aces))
        except IllegalActionError:
            continue
    unique = {layout.text: layout for layout in layouts}
    return [unique[text] for text in sorted(unique)]
