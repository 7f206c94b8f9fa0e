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
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Final

from rummykit.core.cards import (
    ALL_CARDS,
    JOKER,
    JOKER_CODE,
    RANK_OF_CODE,
    SUIT_OF_CODE,
    Card,
    Rank,
)
from rummykit.core.frozen import rebuild_by_fields
from rummykit.core.meld_search import enumerate_melds, meld_layouts
from rummykit.core.melds import TableMeld
from rummykit.core.rules import Aces, Rules

_FIELD_BITS = 2  # two decks hold a card at most twice: two bits count its copies

_LONGEST_NEEDED_RUN: Final = 5
"""Natural runs longer than this are left out of the searches (whole-hand melding, and least
deadwood where no ace is in the run): any such run splits into runs of three to five, which
hold the same cards."""


@dataclasses.dataclass(frozen=True, slots=True)
class Partition:
    """A hand split into melds and deadwood, with the deadwood's value."""

    value: int
    """What the deadwood costs under the rules."""
    melds: tuple[TableMeld, ...]
    """The melds, each laid out (jokers with what they stand for)."""
    deadwood: tuple[Card, ...]
    """The cards in no meld, dearest first."""

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


class _OutOfBudget(Exception):
    """A whole-hand search tried more positions than it was given (see ``GoingOut``)."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Cover:
    """What a whole-hand search asks of the cards it leaves over."""

    exact: bool
    """Exactly the allowance is left over (a card must be thrown), not at most."""
    kept: int
    """The bit of the one card (a natural's field, or the joker's) that must be melded: the
    only copy of the card a deep take must use; 0 for none."""


_NO_BOUND: Final = 1 << 30
"""A bound no deadwood reaches: ``_Solver.search`` without a bound."""

_AT_LEAST: Final = -2
"""In ``_Solver.memo``, in place of a meld: the value is a bound the deadwood is not under."""


class _Solver:
    """The least deadwood of a hand and of any part of it, sharing one memo.

    Only cards that belong to some meld are searched: the others are deadwood whatever
    happens. The search takes the first card left: it is either deadwood or in one of the
    melds whose first card it is. Cards come in their order, or with ``fewest_first`` the card
    held by the fewest melds first (which suits some whole-hand searches, see ``GoingOut``).
    A position is the count of each card left (two bits a card, as two decks hold a card at
    most twice) plus the jokers left, counted in the bits above the searched cards' fields
    (``joker_shift``): a position of up to 29 searched cards fits in a machine word, where
    the compiled build's integers are fastest.
    """

    __slots__ = (
        "budget",
        "by_lowest",
        "field_of",
        "fits",
        "joker_shift",
        "joker_value",
        "low_bits",
        "melds",
        "memo",
        "natural_mask",
        "values",
    )

    def __init__(
        self,
        melds: list[tuple[tuple[int, ...], int]],
        points: tuple[int, ...],
        *,
        fewest_first: bool = False,
    ) -> None:
        self.melds = melds
        involved = sorted({code for naturals, _ in self.melds for code in naturals})
        if fewest_first:
            holding = dict.fromkeys(involved, 0)
            for naturals, _ in self.melds:
                for code in naturals:
                    holding[code] += 1
            involved.sort(key=lambda code: holding[code])
        self.field_of = {code: index for index, code in enumerate(involved)}
        self.values = [points[code] for code in involved]
        self.joker_value = points[JOKER_CODE]
        self.joker_shift = _FIELD_BITS * len(involved)
        self.natural_mask = (1 << self.joker_shift) - 1
        self.low_bits = sum(1 << (_FIELD_BITS * index) for index in range(len(involved)))
        self.by_lowest: list[list[tuple[int, int, int]]] = [[] for _ in involved]
        self.fits: list[tuple[int, int]] = []
        for meld_index, (naturals, jokers) in enumerate(self.melds):
            ones = 0
            for code in naturals:
                ones |= 1 << (_FIELD_BITS * self.field_of[code])
            # the first field of a meld, in either order: its lowest bit
            first = (ones & -ones).bit_length() // _FIELD_BITS
            self.by_lowest[first].append((ones, jokers << self.joker_shift, meld_index))
            self.fits.append((ones, jokers << self.joker_shift))
        self.memo: dict[int, tuple[int, int]] = {}
        self.budget = 0

    def split(self, codes: Sequence[int], points: tuple[int, ...]) -> tuple[int, int]:
        """(the position of the searched cards, the value of the cards in no meld)."""
        state = 0
        free = 0
        field_of = self.field_of
        for code in codes:
            if code == JOKER_CODE:
                state += 1 << self.joker_shift
            elif code in field_of:
                state += 1 << (_FIELD_BITS * field_of[code])
            else:
                free += points[code]
        return state, free

    def search(self, state: int, bound: int = _NO_BOUND) -> int:
        """The least deadwood of a position, when it is under ``bound``.

        Otherwise some number at least ``bound`` that the deadwood is not under: a branch
        that cannot beat the best split found so far is cut short (branch and bound). The
        exact answers are remembered in ``memo`` with their best meld, the others as bounds.
        The meld chosen is the first of the least-deadwood ones, as an unbounded search's:
        a branch is only cut when it cannot beat, or tie with an earlier, choice.
        """
        found = self.memo.get(state)
        if found is not None and (found[1] != _AT_LEAST or found[0] >= bound):
            return found[0]
        if bound <= 0:
            return 0  # no deadwood is below nothing
        shift = self.joker_shift
        naturals = state & self.natural_mask
        if not naturals:
            value = (state >> shift) * self.joker_value
            self.memo[state] = (value, -1)
            return value
        nonzero = (naturals | (naturals >> 1)) & self.low_bits
        lowest_bit = nonzero & -nonzero
        index = lowest_bit.bit_length() // _FIELD_BITS
        loose = self.values[index]
        best = loose + self.search(state - lowest_bit, bound - loose)
        choice = -1
        jokers_left = state >> shift << shift
        for ones, joker_cost, meld_index in self.by_lowest[index]:
            if nonzero & ones == ones and joker_cost <= jokers_left:
                value = self.search(state - ones - joker_cost, min(bound, best))
                if value < best:
                    best = value
                    choice = meld_index
                    if value == 0:
                        break
        self.memo[state] = (best, choice) if best < bound else (best, _AT_LEAST)
        return best

    def covers(self, state: int, allowance: int, seen: set[int], cover: _Cover) -> bool:
        """Whether melds can hold every card of a position but ``allowance`` at most.

        Cuts off as soon as more cards are left over than allowed, where ``search`` would
        weigh every split: the question of whole-hand melding, asked of hands that may have
        grown large. ``cover`` says whether exactly ``allowance`` cards must be left over and
        which may not be; ``seen`` holds the (position, allowance) pairs known to fail under it.
        Each position tried spends one of ``budget``: past it, ``_OutOfBudget`` is raised
        (``seen`` keeps what was proved so far).
        """
        key = state << 2 | allowance
        if key in seen:
            return False
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        shift = self.joker_shift
        naturals = state & self.natural_mask
        if not naturals:
            return self._jokers_left_over(state, allowance, cover)
        nonzero = (naturals | (naturals >> 1)) & self.low_bits
        lowest_bit = nonzero & -nonzero
        index = lowest_bit.bit_length() // _FIELD_BITS
        jokers_left = state >> shift << shift
        for ones, joker_cost, _ in self.by_lowest[index]:
            fits = nonzero & ones == ones and joker_cost <= jokers_left
            if fits and self.covers(state - ones - joker_cost, allowance, seen, cover):
                return True
        if (
            allowance
            and not lowest_bit & cover.kept
            and self.covers(state - lowest_bit, allowance - 1, seen, cover)
        ):
            return True
        seen.add(key)
        return False

    def covers_most_constrained(
        self, state: int, allowance: int, seen: set[int], cover: _Cover
    ) -> bool:
        """``covers`` settling first, at every position, the card the fewest fitting melds hold.

        Each position weighs every meld that fitted the position before it (``budget`` is
        spent accordingly), where ``covers`` weighs only those of one card; in return a hand
        that cannot go out is mostly proved so in a few thousand positions, where a fixed card
        order may need millions. The answer and the meaning of ``seen`` are those of ``covers``
        in the same fields.
        """
        return self._most_constrained(state, allowance, seen, cover, self.fits)

    def _most_constrained(
        self,
        state: int,
        allowance: int,
        seen: set[int],
        cover: _Cover,
        candidates: list[tuple[int, int]],
    ) -> bool:
        """``covers_most_constrained`` of a position whose fitting melds are among ``candidates``.

        A meld that does not fit a position fits none of its parts: each position passes its
        fitting melds down, and the positions deep in a search weigh few melds.
        """
        key = state << 2 | allowance
        if key in seen:
            return False
        self.budget -= 1 + len(candidates) // _MELDS_A_POSITION
        if self.budget < 0:
            raise _OutOfBudget
        shift = self.joker_shift
        naturals = state & self.natural_mask
        if not naturals:
            return self._jokers_left_over(state, allowance, cover)
        nonzero = (naturals | (naturals >> 1)) & self.low_bits
        jokers_left = state >> shift << shift
        fitting = [
            (ones, joker_cost)
            for ones, joker_cost in candidates
            if nonzero & ones == ones and joker_cost <= jokers_left
        ]
        held = 0
        for ones, _ in fitting:
            held |= ones
        stranded = naturals & (nonzero & ~held) * 3
        if stranded:  # cards no meld can hold: all of them must be left over
            count = (stranded & self.low_bits).bit_count() + 2 * (
                stranded >> 1 & self.low_bits
            ).bit_count()
            if (
                count <= allowance
                and not stranded & cover.kept
                and self._most_constrained(
                    state - stranded, allowance - count, seen, cover, fitting
                )
            ):
                return True
            seen.add(key)
            return False
        chosen = _held_by_fewest(nonzero, fitting)
        for ones, joker_cost in fitting:
            if ones & chosen and self._most_constrained(
                state - ones - joker_cost, allowance, seen, cover, fitting
            ):
                return True
        if (
            allowance
            and not chosen & cover.kept
            and self._most_constrained(state - chosen, allowance - 1, seen, cover, fitting)
        ):
            return True
        seen.add(key)
        return False

    def usable(self, state: int, allowance: int, exact: bool, memo: dict[int, int]) -> int:
        """The melds found in some cover of a position, as bits of their indices.

        -1 if no cover leaves ``allowance`` cards over at most (exactly, with ``exact``).
        Every cover is weighed, where ``covers`` stops at the first: one search answers, for
        every meld at once, whether the position less that meld still covers (it does exactly
        when the meld lies in some cover). ``memo`` holds the answer of each (position,
        allowance) met, whichever search found it; each new one spends one of ``budget``.
        """
        key = state << 2 | allowance
        found = memo.get(key)
        if found is not None:
            return found
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        shift = self.joker_shift
        naturals = state & self.natural_mask
        if not naturals:
            return self._jokers_usable(key, state >> shift, allowance, exact, memo)
        nonzero = (naturals | (naturals >> 1)) & self.low_bits
        lowest_bit = nonzero & -nonzero
        index = lowest_bit.bit_length() // _FIELD_BITS
        jokers_left = state >> shift << shift
        used = -1
        for ones, joker_cost, meld_index in self.by_lowest[index]:
            if nonzero & ones == ones and joker_cost <= jokers_left:
                rest = self.usable(state - ones - joker_cost, allowance, exact, memo)
                if rest >= 0:
                    used = max(used, 0) | rest | 1 << meld_index
        if allowance:
            rest = self.usable(state - lowest_bit, allowance - 1, exact, memo)
            if rest >= 0:
                used = max(used, 0) | rest
        memo[key] = used
        return used

    @staticmethod
    def _jokers_usable(
        key: int, jokers: int, allowance: int, exact: bool, memo: dict[int, int]
    ) -> int:
        """``usable`` of a position of jokers only: they are all left over."""
        fits = jokers == allowance if exact else jokers <= allowance
        memo[key] = 0 if fits else -1
        return memo[key]

    def usable_most_constrained(
        self, state: int, allowance: int, exact: bool, memo: dict[int, int]
    ) -> int:
        """``usable`` settling first, at every position, the card fewest fitting melds hold.

        As ``covers_most_constrained`` does: each position weighs more melds, and hopeless
        positions end sooner. The same answer, and the same ``memo``.
        """
        fits = [(ones, joker_cost, index) for index, (ones, joker_cost) in enumerate(self.fits)]
        return self._usable(state, allowance, exact, memo, fits)

    def _usable(
        self,
        state: int,
        allowance: int,
        exact: bool,
        memo: dict[int, int],
        candidates: list[tuple[int, int, int]],
    ) -> int:
        """``usable_most_constrained`` of a position whose fitting melds are in ``candidates``."""
        key = state << 2 | allowance
        found = memo.get(key)
        if found is not None:
            return found
        self.budget -= 1 + len(candidates) // _MELDS_A_POSITION
        if self.budget < 0:
            raise _OutOfBudget
        shift = self.joker_shift
        naturals = state & self.natural_mask
        if not naturals:
            return self._jokers_usable(key, state >> shift, allowance, exact, memo)
        nonzero = (naturals | (naturals >> 1)) & self.low_bits
        jokers_left = state >> shift << shift
        fitting = [
            (ones, joker_cost, index)
            for ones, joker_cost, index in candidates
            if nonzero & ones == ones and joker_cost <= jokers_left
        ]
        held = 0
        for ones, _, _ in fitting:
            held |= ones
        stranded = naturals & (nonzero & ~held) * 3
        used = -1
        if stranded:  # cards no meld can hold: all of them are left over
            low_bits = self.low_bits
            count = (stranded & low_bits).bit_count() + 2 * (stranded >> 1 & low_bits).bit_count()
            if count <= allowance:
                used = self._usable(state - stranded, allowance - count, exact, memo, fitting)
            memo[key] = used
            return used
        chosen = _held_by_fewest(nonzero, [(ones, joker_cost) for ones, joker_cost, _ in fitting])
        for ones, joker_cost, index in fitting:
            if ones & chosen:
                rest = self._usable(state - ones - joker_cost, allowance, exact, memo, fitting)
                if rest >= 0:
                    used = max(used, 0) | rest | 1 << index
        if allowance:
            rest = self._usable(state - chosen, allowance - 1, exact, memo, fitting)
            if rest >= 0:
                used = max(used, 0) | rest
        memo[key] = used
        return used

    def _jokers_left_over(self, state: int, allowance: int, cover: _Cover) -> bool:
        """``covers`` of a position holding jokers only: they are all left over."""
        jokers = state >> self.joker_shift
        if jokers and cover.kept >> self.joker_shift:
            return False  # the one joker that must be melded is left over
        return jokers == allowance if cover.exact else jokers <= allowance

    def stranded(self, state: int) -> int:
        """The cards of a position that no meld fitting in it holds (a position of them).

        Each must be left over, whatever the melds: a quick bound for ``covers``, which
        would otherwise prove a hand cannot go out by trying every split of it.
        """
        naturals = state & self.natural_mask
        nonzero = (naturals | (naturals >> 1)) & self.low_bits
        jokers_left = state >> self.joker_shift << self.joker_shift
        held = 0
        for ones, joker_cost in self.fits:
            if nonzero & ones == ones and joker_cost <= jokers_left:
                held |= ones
        return naturals & (nonzero & ~held) * 3  # both bits of each such card's field

    def chosen_melds(self, state: int) -> list[tuple[tuple[int, ...], int]]:
        """The melds of the best split of a searched position."""
        chosen = []
        while state & self.natural_mask:
            self.search(state)
            meld_index = self.memo[state][1]
            if meld_index < 0:
                naturals = state & self.natural_mask
                nonzero = (naturals | (naturals >> 1)) & self.low_bits
                state -= nonzero & -nonzero
                continue
            naturals_codes, jokers = self.melds[meld_index]
            chosen.append((naturals_codes, jokers))
            for code in naturals_codes:
                state -= 1 << (_FIELD_BITS * self.field_of[code])
            state -= jokers << self.joker_shift
        return chosen


def _held_by_fewest(cards: int, melds: list[tuple[int, int]]) -> int:
    """The low bit of the card (a field of ``cards``) that the fewest of ``melds`` hold."""
    chosen, fewest = 0, len(melds) + 1
    while cards:
        bit = cards & -cards
        cards ^= bit
        count = 0
        for ones, _ in melds:
            if ones & bit:
                count += 1
                if count >= fewest:
                    break
        if count < fewest:
            chosen, fewest = bit, count
            if count == 1:
                break
    return chosen


@lru_cache(maxsize=1 << 16)
def _solve(
    codes: tuple[int, ...], aces: Aces, points: tuple[int, ...], long_runs: bool
) -> tuple[int, tuple[tuple[tuple[int, ...], int], ...]]:
    """(least deadwood, the melds chosen) for a sorted tuple of card codes."""
    solver = _Solver(_searched_melds(codes, aces, long_runs), points)
    state, free = solver.split(codes, points)
    value = free + solver.search(state)
    return value, tuple(solver.chosen_melds(state))


def _searched_melds(
    codes: Sequence[int], aces: Aces, long_runs: bool = False
) -> list[tuple[tuple[int, ...], int]]:
    """The melds a least-deadwood search weighs: all but long runs that two runs hold.

    With a joker in the hand, the runs where it stands in for a card the hand holds are
    weighed too (``enumerate_melds``' substitutes): that card may be wanted in a set (4♦ X 6♦
    beside 5♦ 5♣ X leaves nothing), or thrown (once the A♣ is thrown, K♣ X 2♣ turn the
    corner: ``best_discard`` searches the hand less each card with the whole hand's melds).

    Long is over five cards (``long_runs`` keeps them too). A natural one is never the split
    chosen: its first three cards are a run too, listed before it (a prefix sorts first), and
    the rest, three cards or more, is a run, so the short run is as good, and the search keeps
    the first of equal choices. A run with an ace and a king stays: in 9-T-J-Q-K-A, or K-A-2
    round the corner, the ace is the lowest card code but not the first card, so the short
    run that starts at it is not a prefix. A long run with jokers goes where it cuts into two
    runs the search weighs (``_splits_in_two_runs``), for the same reason. Leaving these out
    changes neither the value nor the melds chosen, and makes the search of a fifty-card
    two-deck hand faster.
    """
    melds = enumerate_melds(codes, aces, substitutes=JOKER_CODE in codes)
    if long_runs:
        return melds
    searched: list[tuple[tuple[int, ...], int]] = []
    held: list[int] | None = None  # made only for a long run with jokers (few hands)
    for naturals, jokers in melds:
        if len(naturals) + jokers <= _LONGEST_NEEDED_RUN:
            searched.append((naturals, jokers))
        elif not jokers:
            if RANK_OF_CODE[naturals[0]] == Rank.ACE and RANK_OF_CODE[naturals[-1]] == Rank.KING:
                searched.append((naturals, jokers))
        else:
            if held is None:
                held = _ranks_held_by_suit(codes)
            if not _splits_in_two_runs(naturals, jokers, held):
                searched.append((naturals, jokers))
    return searched


def _ranks_held_by_suit(codes: Sequence[int]) -> list[int]:
    """The ranks each suit holds, as bits (bit ``rank``; jokers left out)."""
    held = [0, 0, 0, 0]
    for code in codes:
        if code != JOKER_CODE:
            held[SUIT_OF_CODE[code]] |= 1 << RANK_OF_CODE[code]
    return held


def _splits_in_two_runs(naturals: tuple[int, ...], jokers: int, held: list[int]) -> bool:
    """Whether a run with jokers is two shorter searched runs laid side by side.

    That is: some stretch of ranks from the ace to the king (not round the corner) of the
    run's length holds exactly the run's naturals among the hand's cards of its suit, and
    cuts into a first and a second stretch, three long or more, each holding two of them or
    more. Those two stretches, each with the jokers of its gaps, are runs the search weighs,
    and the first comes earlier in its order (its naturals begin the long run's): the long run
    is then never the search's choice, and leaving it out changes no answer (see
    ``_searched_melds``).
    """
    suit = SUIT_OF_CODE[naturals[0]]
    ranks = 0
    for code in naturals:
        if SUIT_OF_CODE[code] != suit:
            return False  # a set
        ranks |= 1 << RANK_OF_CODE[code]
    length = len(naturals) + jokers
    lowest = RANK_OF_CODE[naturals[0]]
    highest = RANK_OF_CODE[naturals[-1]]
    for start in range(max(1, highest - length + 1), min(lowest, 14 - length) + 1):
        window = ((1 << length) - 1) << start
        if held[suit] & window != ranks:
            continue
        for cut in range(3, length - 2):
            first = ranks & (((1 << cut) - 1) << start)
            if first.bit_count() >= 2 and (ranks ^ first).bit_count() >= 2:
                return True
    return False


def _points(rules: Rules) -> tuple[int, ...]:
    return _points_for(rules.ace_points, rules.joker_points)


@lru_cache(maxsize=64)
def _points_for(ace_points: int, joker_points: int) -> tuple[int, ...]:
    rules = Rules(ace_points=ace_points, joker_points=joker_points)
    return tuple(rules.card_points(code) for code in range(JOKER_CODE + 1))


_NIBBLES: Final = sum(1 << (4 * rank) for rank in range(15))
"""Bit 0 of each rank's four bits in a hand's card mask: bit ``code`` for each natural card
held. Codes go rank by rank, four suits a rank, so a rank is four bits in a row and a suit's
next rank is four bits up."""

_ACE_HIGH_SHIFT: Final = 52
"""How far the aces' four bits move to stand above the kings (rank 14) in a card mask."""


def _may_meld(mask: int, aces: Aces) -> bool:
    """Whether the natural cards of ``mask`` hold a set or a run at all (jokers aside).

    A set is a rank held in three suits; a run three ranks in a row of one suit, the ace
    above the king too where the aces rule lets it, and round the corner under ``AROUND``.
    Cheap bit arithmetic: most hands of ten or eleven cards dealt at random hold no meld,
    and then no search is needed.
    """
    first, second = mask & _NIBBLES, (mask >> 1) & _NIBBLES
    third, fourth = (mask >> 2) & _NIBBLES, (mask >> 3) & _NIBBLES
    if first & second & (third | fourth) | third & fourth & (first | second):
        return True
    if aces is Aces.LOW_OR_HIGH:
        mask |= (mask & 0xF) << _ACE_HIGH_SHIFT
    elif aces is Aces.AROUND:
        mask |= (mask & 0xFF) << _ACE_HIGH_SHIFT  # the aces, then the twos above them
    return mask & (mask >> 4) & (mask >> 8) != 0


def _isolated_meld_cards(mask: int, aces: Aces) -> int | None:
    """The cards of a hand's melds when each is three cards that share none with another.

    ``mask`` holds natural cards only, one of each (``_NIBBLES``). ``None`` when some melds
    may overlap (a rank in four suits, four in a row, a card in a set and a run, the ace of
    a low and a high run) or runs may turn the corner: the meld search is then needed. Bit
    arithmetic, as ``_may_meld``; tested against the plain search.
    """
    if aces is Aces.AROUND:
        return None
    first, second = mask & _NIBBLES, (mask >> 1) & _NIBBLES
    third, fourth = (mask >> 2) & _NIBBLES, (mask >> 3) & _NIBBLES
    if first & second & third & fourth:
        return None
    sets = first & second & (third | fourth) | third & fourth & (first | second)
    set_cards = (sets * 0xF) & mask  # each rank's bit 0 spread over its four bits
    stretched = mask | (mask & 0xF) << _ACE_HIGH_SHIFT if aces is Aces.LOW_OR_HIGH else mask
    starts = stretched & (stretched >> 4) & (stretched >> 8)
    if starts & (starts >> 4):
        return None  # four in a row: runs that share cards
    run_cards = starts | starts << 4 | starts << 8
    high_aces = run_cards >> _ACE_HIGH_SHIFT
    run_cards &= (1 << _ACE_HIGH_SHIFT) - 1
    if high_aces & run_cards or set_cards & (run_cards | high_aces):
        return None
    return set_cards | run_cards | high_aces


def deadwood_value(cards: Sequence[Card], rules: Rules) -> int:
    """The least a hand can be left holding in deadwood, melding all it can."""
    points = _points(rules)
    codes: list[int] = []
    total = 0
    mask = 0
    for card in cards:  # one pass: this is the hottest path of the computer players
        code = card.code
        codes.append(code)
        total += points[code]
        mask |= 1 << code
    if not mask >> JOKER_CODE and not _may_meld(mask, rules.aces):
        return total
    melds = _searched_melds(codes, rules.aces)
    if not melds:
        return total
    # Melds that share no card (the usual case) are all laid: no search is needed. Not with
    # two of one card (two decks): the same meld may then be laid twice, which the list of
    # distinct melds cannot say.
    used = [code for naturals, jokers in melds if not jokers for code in naturals]
    distinct = len(set(codes)) == len(codes)
    if distinct and len(used) == len(set(used)) and all(not jokers for _, jokers in melds):
        return total - sum(points[code] for code in used)
    solver = _Solver(melds, points)
    state, free = solver.split(codes, points)
    return free + solver.search(state)


_ONE_EACH = (1,) * (JOKER_CODE + 1)
"""Every card counted as one: a hand whose least deadwood is then 0 melds entirely."""


def goes_out_now(
    cards: Sequence[Card], aces: Aces, *, must_discard: bool, using: Card | None = None
) -> bool:
    """Whether ``cards`` can all leave the hand in one turn of melds.

    Every card goes into melds, or every card but one, which is discarded (only that, with
    ``must_discard``). With ``using``, that card must be among the melded ones. This is the
    whole-hand melding of the published Boathouse (``Melding.WHOLE_HAND``).
    """
    codes = tuple(sorted(card.code for card in cards))
    return _goes_out_now(codes, aces, must_discard, None if using is None else using.code)


@lru_cache(maxsize=1 << 12)
def _goes_out_now(
    codes: tuple[int, ...], aces: Aces, must_discard: bool, using: int | None
) -> bool:
    """``goes_out_now`` of a hand's sorted codes, remembered.

    One position asks the same question several times: its legal draws, then the check of
    the draw chosen, where each take from deep in a pile of forty is a whole-hand search.
    """
    cards = [ALL_CARDS[code] for code in codes]
    used = None if using is None else ALL_CARDS[using]
    return GoingOut(cards, aces).now(must_discard=must_discard, using=used)


Search = tuple[int, bool]
"""One search of a whole-hand question: (solver: 0 fewest-melds order, 1 card order; whether
the most constrained card is settled first, at every position)."""

SEARCHES: Final[tuple[Search, ...]] = ((0, False), (0, True), (1, False))
"""The searches of a whole-hand question, in their turns. The fewest-melds order mostly finds
a way out soonest, the most constrained card proves soonest that there is none (a 65-card
question in 0.2 s, against 10 s for the two fixed orders), and card order answers some hands
the others take long over."""


_UNION_BUDGET: Final = 100_000
"""Positions a search for every meld that leaves a hand able to go out may try."""


class GoingOut:
    """Whole-hand melding: whether a hand, or the hand less a meld, can all go down now.

    One search answers each question: it is cut off as soon as more cards would be left over
    than allowed (where the least-deadwood search would weigh every split), it is told
    whether a card must be left over to throw and which card may not be, and it meets natural
    runs only three to five long (a longer one is two such runs side by side: the same cards
    meld either way, with far fewer ways to split a hand). Hands may grow large when nothing
    is melded before going out: a deep take under whole-hand melding asks of up to sixty cards.

    Which card the search settles first decides its size, and no one order suits every hand.
    Two hands met in random-rules games: the card held by the fewest melds first proved a
    54-card hand short of jokers in 90 positions against 627k in card order, while a 63-card
    hand with one joker took 219k positions in card order and millions the other way; the
    most constrained card first (weighed anew at every position) proves most hands that
    cannot go out in a few thousand positions. So the searches (``SEARCHES``) take turns,
    each with a budget of positions that grows fourfold at every turn, until one answers (all
    are exact): a question costs a few times what the best search alone would.
    """

    __slots__ = ("_failed", "_field_of", "_free", "_melds", "_searches", "_solvers", "_state")

    def __init__(
        self, cards: Sequence[Card], aces: Aces, *, searches: Sequence[Search] = SEARCHES
    ) -> None:
        """The questions of ``cards``, answered by ``searches`` in turn (tests pin one)."""
        self._searches = tuple(searches)
        codes = sorted(card.code for card in cards)
        # Every meld, a joker standing for a held card among them: once one meld is down,
        # the rest may need a joker for a card it took (Ac 2c 3c 4c 5c X: 3c 4c 5c, Ac 2c X=3c).
        self._melds = [
            (naturals, jokers)
            for naturals, jokers in enumerate_melds(codes, aces, substitutes=True)
            if GoingOut.weighs(naturals, jokers)
        ]
        first = _Solver(self._melds, _ONE_EACH, fewest_first=True)
        self._solvers = [first]
        self._field_of = first.field_of
        self._state, self._free = first.split(codes, _ONE_EACH)
        self._failed: dict[tuple[int, _Cover], set[int]] = {}

    @staticmethod
    def weighs(naturals: Sequence[int], jokers: int) -> bool:
        """Whether the searches meet this meld: any with a joker, natural runs to five long."""
        return bool(jokers) or len(naturals) <= _LONGEST_NEEDED_RUN

    def now(self, *, must_discard: bool, using: Card | None = None) -> bool:
        """``goes_out_now`` of the whole hand."""
        return self._goes_out(self._state, self._free, must_discard, using)

    def after(self, naturals: Sequence[int], jokers: int, *, must_discard: bool) -> bool:
        """``goes_out_now`` of the hand less a meld of ``naturals`` (codes) and ``jokers``."""
        state = self._state - (jokers << self._solvers[0].joker_shift)
        for code in naturals:
            field = self._field_of.get(code)
            if field is None:  # a card no meld of the hand holds: not in this meld either
                return False
            state -= 1 << (_FIELD_BITS * field)
        return self._goes_out(state, self._free, must_discard, None)

    def melds_out(
        self, *, must_discard: bool, budget: int = _UNION_BUDGET
    ) -> set[tuple[tuple[int, ...], int]] | None:
        """Every meld (natural codes, jokers) that leaves the hand able to go out this turn.

        Among the melds the searches weigh (``weighs``). One search weighs every way the
        whole hand goes out, where ``after`` asks once a meld: first in card order, then,
        past ``budget`` positions, settling the most constrained card first (the 40-card hand
        of a random game took over 100k positions the first way and 10k the second, where a
        36-card one took 15k and 98k). None when both would try more (a large hand: then ask
        ``after``, whose searches stop at the first way out or prove there is none).
        """
        solver = self._solvers[0]
        if self._free > 1:
            return set()
        # a card no meld holds is the one left over; else one card may be (must be, to throw)
        allowance = 1 - self._free
        memo: dict[int, int] = {}  # shared: both searches find the same answers
        for search in (solver.usable, solver.usable_most_constrained):
            solver.budget = budget
            try:
                used = search(self._state, allowance, must_discard, memo)
                break
            except _OutOfBudget:
                pass
        else:
            return None
        if used < 0:
            return set()  # the hand cannot go out at all
        return {meld for index, meld in enumerate(self._melds) if used >> index & 1}

    def _goes_out(self, state: int, free: int, must_discard: bool, using: Card | None) -> bool:
        """Whether every card melds but one at most, and that one is not ``using``'s only copy.

        With ``must_discard`` exactly one card is left over: the one thrown.
        """
        solver = self._solvers[0]
        kept = 0
        if using is not None:
            if using.is_joker:
                shift = solver.joker_shift
                kept = 1 << shift if state >> shift == 1 else 0
            else:
                field = self._field_of.get(using.code)
                if field is None:
                    return False  # no meld of the hand holds it
                bit = 1 << (_FIELD_BITS * field)
                kept = bit if state // bit & 3 == 1 else 0
        stranded = solver.stranded(state)
        low_bits = solver.low_bits
        left_over = (
            free + (stranded & low_bits).bit_count() + 2 * (stranded >> 1 & low_bits).bit_count()
        )
        if left_over > 1 or stranded & kept:
            return False  # more cards than one are left over, or the one that must meld
        if left_over:  # that card is the one thrown: the rest melds entirely
            return self._covers(state - stranded, 0, _Cover(exact=False, kept=0))
        return self._covers(state, 1, _Cover(exact=must_discard, kept=kept))

    def _covers(self, state: int, allowance: int, cover: _Cover) -> bool:
        """``_Solver.covers`` of a position in the first solver's fields.

        The two orders take turns, with growing budgets, until one answers.
        """
        questions = [(state, cover)]  # the position and cover in each solver's fields
        budget = _FIRST_BUDGET
        while True:
            for index, most_constrained in self._searches:
                solver = self._solver(index)
                if index == len(questions):
                    moved = _Cover(exact=cover.exact, kept=self._moved(cover.kept))
                    questions.append((self._moved(state), moved))
                here, asked = questions[index]
                # the searches of one solver prove the same failures: they share them
                failed = self._failed.setdefault((index, asked), set())
                solver.budget = budget
                search = solver.covers_most_constrained if most_constrained else solver.covers
                try:
                    return search(here, allowance, failed, asked)
                except _OutOfBudget:
                    pass
            budget *= 4

    def _solver(self, index: int) -> _Solver:
        """The search in the fewest-melds order (0) or in card order (1), made when asked."""
        if index == len(self._solvers):
            self._solvers.append(_Solver(self._melds, _ONE_EACH))
        return self._solvers[index]

    def _moved(self, position: int) -> int:
        """A position of the first solver's fields in the second solver's fields."""
        first, second = self._solvers[0], self._solvers[1]
        moved = position >> first.joker_shift << second.joker_shift
        for code, field in first.field_of.items():
            count = position >> (_FIELD_BITS * field) & 3
            if count:
                moved += count << (_FIELD_BITS * second.field_of[code])
        return moved


_MELDS_A_POSITION: Final = 64
"""Melds weighed for one position's worth of budget (``_Solver.covers_most_constrained``)."""

_FIRST_BUDGET: Final = 2000
"""Positions the first turn of a whole-hand search may try (most hands need far fewer)."""


def best_partition(cards: Sequence[Card], rules: Rules, *, long_runs: bool = False) -> Partition:
    """The split of ``cards`` into melds that leaves the least deadwood (ties: the first found).

    Deadwood comes dearest first. Lay-offs on the table are not considered: this is the
    hand's own value. ``long_runs`` also weighs the natural runs the search leaves out
    (``_searched_melds``): the same answer, more slowly, for tests to compare.
    """
    codes = tuple(sorted(card.code for card in cards))
    value, chosen = _solve(codes, rules.aces, _points(rules), long_runs)
    melds: list[TableMeld] = []
    remaining = list(cards)
    for naturals_codes, jokers in chosen:
        naturals = [Card.from_code(code) for code in naturals_codes]
        melds.append(meld_layouts(naturals, jokers, rules.aces)[0])
        for card in naturals:
            remaining.remove(card)
        for _ in range(jokers):
            remaining.remove(JOKER)
    deadwood = sorted(remaining, key=lambda card: (-rules.card_points(card.code), -card.code))
    return Partition(value, tuple(melds), tuple(deadwood))


def best_discard(cards: Sequence[Card], rules: Rules) -> tuple[Card, int]:
    """The card to throw from ``cards`` that leaves the least deadwood, and that deadwood.

    Ties go to the dearer card, then the higher one.
    """
    if not cards:
        raise ValueError("best_discard needs at least one card")
    points = _points(rules)
    codes = [card.code for card in cards]
    codes.sort()
    mask = 0
    for code in codes:
        mask |= 1 << code
    if not mask >> JOKER_CODE and not _may_meld(mask, rules.aces):
        return _dearest(codes, points)
    if not mask >> JOKER_CODE and mask.bit_count() == len(codes):  # no joker, no card twice
        used = _isolated_meld_cards(mask, rules.aces)
        if used is not None and used != mask:
            # throwing a melded card breaks its meld and leaves its other cards (each worth
            # something) as deadwood, so the best is the dearest card in no meld
            return _dearest([code for code in codes if not used >> code & 1], points)
    melds = _searched_melds(codes, rules.aces)
    loose = _loose_beside_disjoint_melds(codes, mask, melds)
    if loose:
        # throwing a melded card breaks its meld and leaves its other cards (each worth
        # something) as deadwood, so the best is the dearest card in no meld
        return _dearest(loose, points)
    solver = _Solver(melds, points)
    state, free = solver.split(codes, points)
    best: tuple[int, int, int] | None = None
    field_of = solver.field_of
    for position, code in enumerate(codes):
        if position and codes[position - 1] == code:
            continue
        # A card whose deadwood would be more than the best's cannot be thrown instead of it
        # (ties go by the card): each search after the first is bounded by the best so far.
        bound = _NO_BOUND if best is None else best[0] + 1
        if code == JOKER_CODE:
            value = free + solver.search(state - (1 << solver.joker_shift), bound - free)
        elif code in field_of:
            rest = state - (1 << (_FIELD_BITS * field_of[code]))
            value = free + solver.search(rest, bound - free)
        else:
            value = free - points[code] + solver.search(state, bound - free + points[code])
        key = (value, -points[code], -code)
        if best is None or key < best:
            best = key
    assert best is not None
    return Card.from_code(-best[2]), best[0]


def _dearest(codes: Sequence[int], points: tuple[int, ...]) -> tuple[Card, int]:
    """Of cards in no meld (``codes``), the one to throw and what the others are worth.

    The dearest, then the higher (``best_discard``'s tie rule).
    """
    total = 0
    chosen = -1
    most = -1
    for code in codes:
        value = points[code]
        total += value
        if value > most or (value == most and code > chosen):
            chosen, most = code, value
    return Card.from_code(chosen), total - most


def _loose_beside_disjoint_melds(
    codes: list[int], mask: int, melds: list[tuple[tuple[int, ...], int]]
) -> list[int]:
    """The cards in no meld, when the melds share no card (no joker, no card twice); else [].

    Every meld listed is then laid whatever else is done, and what is left is deadwood.
    """
    if mask >> JOKER_CODE or mask.bit_count() != len(codes):
        return []
    used = 0
    count = 0
    for naturals, _ in melds:
        for code in naturals:
            used |= 1 << code
        count += len(naturals)
    if used.bit_count() != count:
        return []
    return [code for code in codes if not used >> code & 1]
