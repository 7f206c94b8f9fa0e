"""Sets and runs: whether cards make a meld under the rules, and what fits on a meld.

Runs are laid out on *positions*: the ace is position 1 when low and 14 when high (aces
``low_or_high``); round the corner (aces ``around``) positions go on past the king, the rank
of position ``p`` being ``(p - 1) % 13 + 1``. A run is a suit, a first position and a length.

Jokers: each joker stands for exactly one card of its meld (``X=6h``); a meld needs at least
two natural cards; a set holds at most one card of each suit, four in all; a run at most
thirteen cards and never the same rank twice.

>>> from rummykit.core.rules import Aces
>>> from rummykit.core.cards import parse_cards
>>> arrange_meld(parse_cards("Kh Ah Qh".split()), (), Aces.LOW_OR_HIGH).text
'Qh Kh Ah'
>>> arrange_meld(parse_cards("4h 5h 7h".split()), (), Aces.LOW)
Traceback (most recent call last):
...
rummykit.core.errors.IllegalActionError: 4♥ 5♥ 7♥ is not a run: the 6♥ is missing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from rummykit.core.cards import (
    JOKER,
    SUIT_OF_CODE,
    Card,
    Rank,
    Suit,
)
from rummykit.core.errors import IllegalActionError
from rummykit.core.frozen import rebuild_by_fields
from rummykit.core.kinds import MeldKind as MeldKind
from rummykit.core.refusals import cards_of, refuse
from rummykit.core.rules import Aces

MAX_RUN: int = 13
"""A run never holds the same rank twice, so thirteen cards at most."""
MAX_SET: int = 4
"""A set holds one card of each suit at most."""


def rank_at(position: int) -> int:
    """The rank (1-13) of a run position, for every aces rule (14 is the high ace)."""
    return (position - 1) % 13 + 1


@dataclasses.dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld as it lies: its cards in order and the card each one stands for.

    ``cards`` holds the cards as laid (a joker is ``JOKER``); ``stands_for`` the natural
    card in each place (a natural card stands for itself). Runs are ordered lowest first,
    starting at position ``start``; sets in the order they were laid.
    """

    kind: MeldKind
    """Set or run."""
    cards: tuple[Card, ...]
    """The cards as laid, jokers included."""
    stands_for: tuple[Card, ...]
    """The natural card each of ``cards`` stands for."""
    start: int = 0
    """A run's first position (see the module docstring); 0 for a set."""
    owner: int = -1
    """The seat that laid it (-1 while it is only an arrangement of cards)."""

    @property
    def text(self) -> str:
        """The meld in record notation, jokers written ``X=card``: ``5h X=6h 7h``."""
        return " ".join(
            str(card) if not card.is_joker else f"X={stood}"
            for card, stood in zip(self.cards, self.stands_for, strict=True)
        )

    @property
    def symbols(self) -> str:
        """The meld for people: ``5♥ 🃏(6♥) 7♥``."""
        return " ".join(
            card.symbol if not card.is_joker else f"🃏({stood.symbol})"
            for card, stood in zip(self.cards, self.stands_for, strict=True)
        )

    @property
    def suit(self) -> Suit | None:
        """A run's suit (``None`` for a set)."""
        return self.stands_for[0].suit if self.kind is MeldKind.RUN else None

    @property
    def rank(self) -> Rank | None:
        """A set's rank (``None`` for a run)."""
        return self.stands_for[0].rank if self.kind is MeldKind.SET else None

    @property
    def end(self) -> int:
        """A run's last position."""
        return self.start + len(self.cards) - 1

    def with_owner(self, owner: int) -> TableMeld:
        """The same meld, laid by ``owner``."""
        return dataclasses.replace(self, owner=owner)

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


def arrange_meld(cards: Sequence[Card], declared: Sequence[Card | None], aces: Aces) -> TableMeld:
    """Lay these cards out as a set or a run, or raise ``IllegalActionError`` (``invalid_meld``).

    ``declared`` gives, for each joker in ``cards`` in order, the card it stands for, or
    ``None`` to let the rule choose: in a run a joker fills a gap, else goes above the top
    (below the bottom when nothing can go above); in a set it takes the lowest missing suit.
    """
    shown = cards_of(cards, declared)
    if len(cards) < 3:
        raise refuse("meld_too_short", cards=shown)
    naturals = [card for card in cards if not card.is_joker]
    joker_count = len(cards) - len(naturals)
    designations = list(declared)[:joker_count]
    designations += [None] * (joker_count - len(designations))
    if len(declared) > joker_count:
        raise refuse("extra_designations", cards=shown)
    if len(naturals) < 2:
        raise refuse("too_few_naturals", cards=shown)
    fixed = naturals + [card for card in designations if card is not None]
    if any(card.is_joker for card in fixed):
        raise refuse("joker_for_joker", cards=shown)
    bare = designations.count(None)
    if len({card.rank for card in naturals}) == 1:
        return _arrange_set(shown, cards, naturals, designations, fixed, bare)
    if len({card.suit for card in naturals}) == 1:
        return _arrange_run(shown, cards, designations, fixed, bare, aces)
    raise refuse("not_set_or_run", cards=shown)


def _arrange_set(
    shown: list[str],
    cards: Sequence[Card],
    naturals: list[Card],
    designations: list[Card | None],
    fixed: list[Card],
    bare: int,
) -> TableMeld:
    rank = naturals[0].rank
    assert rank is not None
    if len(cards) > MAX_SET:
        raise refuse("set_too_big", cards=shown)
    for card in fixed:
        if card.rank is not rank:
            raise refuse("set_joker_rank", cards=shown, card=str(card))
    suits = [card.suit for card in fixed]
    for suit in set(suits):
        if suits.count(suit) > 1:
            twice = Card(rank, suit)
            raise refuse("set_card_twice", cards=shown, card=str(twice))
    missing = [suit for suit in Suit if suit not in suits]
    stands: list[Card] = []
    designation_iter = iter(designations)
    for card in cards:
        if card.is_joker:
            stood = next(designation_iter)
            if stood is None:
                stood = Card(rank, missing.pop(0))
            stands.append(stood)
        else:
            stands.append(card)
    order = sorted(range(len(cards)), key=lambda index: stands[index].code)
    return TableMeld(
        MeldKind.SET,
        tuple(cards[index] for index in order),
        tuple(stands[index] for index in order),
    )


def _position_options(ranks: list[int], aces: Aces) -> list[list[int]]:
    """Ways to put these ranks on positions: ace low first, then ace high."""
    if aces is Aces.LOW or 1 not in ranks:
        return [ranks]
    if aces is Aces.LOW_OR_HIGH:
        return [ranks, [14 if rank == 1 else rank for rank in ranks]]
    return [ranks]


def _top_position(aces: Aces) -> int:
    return 13 if aces is Aces.LOW else 14


def _linear_layout(positions: list[int], bare: int, aces: Aces) -> tuple[int, int] | None:
    """(start, length) of the run these fixed positions and bare jokers make, if any."""
    low, high = min(positions), max(positions)
    span = high - low + 1
    gaps = span - len(positions)
    if gaps > bare or len(set(positions)) != len(positions):
        return None
    extra = bare - gaps
    length = span + extra
    if length > MAX_RUN:
        return None
    top = _top_position(aces)
    if aces is Aces.LOW_OR_HIGH and low == 1:
        top = 13
    above = min(extra, top - high)
    below = extra - above
    start = low - below
    bottom = 2 if (aces is Aces.LOW_OR_HIGH and high == 14) else 1
    if start < bottom:
        return None
    return start, length


def _circular_layout(ranks: list[int], bare: int) -> tuple[int, int] | None:
    distinct = sorted(set(ranks))
    if len(distinct) != len(ranks):
        return None
    count = len(distinct)
    best: tuple[int, int] | None = None
    for index in range(count):
        start = distinct[index]
        finish = distinct[index - 1]
        length = (finish - start) % 13 + 1
        if best is None or length < best[1] or (length == best[1] and start < best[0]):
            best = (start, length)
    assert best is not None
    start, span = best
    gaps = span - count
    if gaps > bare or span + bare - gaps > MAX_RUN:
        return None
    length = span + bare - gaps
    if length == MAX_RUN:
        start = 1
    return start, length


def _shortest_arc(ranks: list[int]) -> tuple[int, int]:
    distinct = sorted(set(ranks))
    return min(
        (
            (distinct[index], (distinct[index - 1] - distinct[index]) % 13 + 1)
            for index in range(len(distinct))
        ),
        key=lambda arc: (arc[1], arc[0]),
    )


def _run_failure(
    shown: list[str], suit: Suit, ranks: list[int], bare: int, aces: Aces
) -> IllegalActionError:
    if len(set(ranks)) != len(ranks):
        twice = next(rank for rank in ranks if ranks.count(rank) > 1)
        card = Card(Rank(twice), suit)
        return refuse("run_card_twice", cards=shown, card=str(card))
    if aces is not Aces.AROUND:
        high = [14 if rank == 1 else rank for rank in ranks]
        if (
            aces is Aces.LOW
            and 1 in ranks
            and _linear_layout(high, bare, Aces.LOW_OR_HIGH) is not None
        ):
            return refuse("run_aces_low", cards=shown)
        if _circular_layout(ranks, bare) is not None:
            return refuse("run_no_corner", cards=shown)
    if aces is Aces.AROUND:
        start, span = _circular_layout(ranks, MAX_RUN) or _shortest_arc(ranks)
        positions = range(start, start + span)
        present = {start + (rank - start) % 13 for rank in ranks}
    else:
        best = min(_position_options(ranks, aces), key=lambda option: max(option) - min(option))
        positions = range(min(best), max(best) + 1)
        present = set(best)
    missing = [
        Card(Rank(rank_at(position)), suit) for position in positions if position not in present
    ]
    if not missing:
        return refuse("run_too_long", cards=shown)
    return refuse("run_missing", cards=shown, missing=cards_of(missing), count=len(missing))


def _run_layout(ranks: list[int], bare: int, aces: Aces) -> tuple[int, int, list[int]] | None:
    """Where a run of these ranks and bare jokers lies: (start, length, each rank's position)."""
    if aces is Aces.AROUND:
        layout = _circular_layout(ranks, bare)
        if layout is None:
            return None
        start, length = layout
        return start, length, [start + (rank - start) % 13 for rank in ranks]
    for option in _position_options(ranks, aces):
        layout = _linear_layout(option, bare, aces)
        if layout is not None:
            return layout[0], layout[1], option
    return None


def _arrange_run(
    shown: list[str],
    cards: Sequence[Card],
    designations: list[Card | None],
    fixed: list[Card],
    bare: int,
    aces: Aces,
) -> TableMeld:
    suit = fixed[0].suit
    assert suit is not None
    for card in fixed:
        if card.suit is not suit:
            raise refuse("run_joker_suit", cards=shown, card=str(card))
    ranks = [int(card.rank or 0) for card in fixed]
    found = _run_layout(ranks, bare, aces)
    if found is None:
        raise _run_failure(shown, suit, ranks, bare, aces)
    start, length, positions = found
    by_position: dict[int, Card] = {}
    natural_count = len(cards) - len(designations)
    natural_positions = positions[:natural_count]
    designated_positions = positions[natural_count:]
    natural_iter = iter(card for card in cards if not card.is_joker)
    for position in natural_positions:
        by_position[position] = next(natural_iter)
    joker_for: dict[int, Card] = {}
    fixed_designations = [card for card in designations if card is not None]
    for position, stood in zip(designated_positions, fixed_designations, strict=True):
        joker_for[position] = stood
    laid: list[Card] = []
    stands: list[Card] = []
    for position in range(start, start + length):
        stood = Card(Rank(rank_at(position)), suit)
        if position in by_position:
            laid.append(by_position[position])
        else:
            laid.append(JOKER)
        stands.append(joker_for.get(position, stood))
    if length == MAX_RUN and start != 1:  # a whole suit reads A to K
        shift = (1 - start) % 13
        laid = laid[shift:] + laid[:shift]
        stands = stands[shift:] + stands[:shift]
        start = 1
    return TableMeld(MeldKind.RUN, tuple(laid), tuple(stands), start)


def layoff_positions(meld: TableMeld, card: Card, aces: Aces) -> list[Card]:
    """Every card ``card`` could stand for when laid off on ``meld`` (empty: it fits nowhere).

    A natural card stands for itself, so the list is ``[card]`` or empty; a joker may
    stand for the card above or below a run (above first), or any missing suit of a set
    (lowest first).
    """
    accepted = meld_accepts(meld, aces)
    if card.is_joker:
        return list(accepted)
    return [card] if card in accepted else []


def meld_accepts(meld: TableMeld, aces: Aces) -> tuple[Card, ...]:
    """The natural cards that would extend ``meld``.

    For a run its ends (above first), for a set its missing suits (lowest first).
    """
    stands = meld.stands_for
    if meld.kind is MeldKind.SET:
        if len(stands) >= MAX_SET:
            return ()
        return tuple(card for card in _SUITS_OF_RANK[stands[0].rank] if card not in stands)
    return tuple(stood for stood, _ in _run_extensions(meld, aces))


_SUITS_OF_RANK: dict[Rank | None, tuple[Card, ...]] = {
    rank: tuple(Card(rank, suit) for suit in Suit) for rank in Rank
}
"""The four cards of each rank, lowest suit first: what a set may hold."""


_RUN_CARD: tuple[tuple[Card, ...], ...] = tuple(
    (JOKER, *(Card(rank, suit) for rank in Rank)) for suit in Suit
)
"""``_RUN_CARD[suit][rank]``: the card of a run's suit at a rank (1-13); index 0 unused."""


def _run_extensions(meld: TableMeld, aces: Aces) -> list[tuple[Card, int]]:
    """The cards that extend a run, with the new first position: above first, then below."""
    length = len(meld.cards)
    if length >= MAX_RUN:
        return []
    suit = SUIT_OF_CODE[meld.stands_for[0].code]
    start = meld.start
    end = start + length - 1
    result: list[tuple[Card, int]] = []
    if aces is Aces.AROUND:
        above = _RUN_CARD[suit][rank_at(end + 1)]
        below = _RUN_CARD[suit][rank_at(start - 1)]
        result.append((above, start))
        if below is not above:
            result.append((below, start - 1))
        return result
    top = 13 if aces is Aces.LOW or start == 1 else 14
    bottom = 2 if end == 14 else 1
    if end + 1 <= top:
        result.append((_RUN_CARD[suit][rank_at(end + 1)], start))
    if start - 1 >= bottom:
        below = _RUN_CARD[suit][rank_at(start - 1)]
        if not result or result[0][0] is not below:
            result.append((below, start - 1))
    return result


def lay_off(meld: TableMeld, card: Card, stands_for: Card, aces: Aces) -> TableMeld:
    """The meld with ``card`` (standing for ``stands_for``) added; the caller checked it fits."""
    if meld.kind is MeldKind.SET:
        return dataclasses.replace(
            meld, cards=(*meld.cards, card), stands_for=(*meld.stands_for, stands_for)
        )
    for stood, new_start in _run_extensions(meld, aces):
        if stood is stands_for:
            if new_start == meld.start:
                cards = (*meld.cards, card)
                stands = (*meld.stands_for, stood)
            else:
                cards = (card, *meld.cards)
                stands = (stood, *meld.stands_for)
            if aces is Aces.AROUND:
                new_start = (new_start - 1) % 13 + 1
            # A whole suit reads A to K, unless the ace went on above the king (2 to A): an
            # ace laid off on a run ending in a king is high, and scores as high (500 Rum).
            if len(cards) == MAX_RUN and new_start not in (1, 2):
                shift = (1 - new_start) % 13
                cards = cards[shift:] + cards[:shift]
                stands = stands[shift:] + stands[:shift]
                new_start = 1
            return dataclasses.replace(meld, cards=cards, stands_for=stands, start=new_start)
    raise ValueError(f"{stands_for} does not extend {meld.text}")


def default_layoff_card(meld: TableMeld, card: Card, aces: Aces) -> Card | None:
    """What ``card`` stands for when laid off on ``meld`` without saying: the first choice."""
    options = layoff_positions(meld, card, aces)
    return options[0] if options else None
