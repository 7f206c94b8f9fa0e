"""The legal actions of a position, found fast: candidates from the meld search, each legal.

``GameState.check`` decides legality; this module only lists, quickly, the actions it would
accept, sorted. The two are kept equal by a property test in both directions against a
brute-force enumerator (tests/core/test_legality_both_ways.py). Where a listing would need
the rule itself (a discard after a take from the pile), it asks ``check``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from rummykit.core.actions import (
    ACTION_TYPES,
    Action,
    Discard,
    Draw,
    DrawSource,
    Knock,
    LayOff,
    Meld,
    action_sort_key,
)
from rummykit.core.cards import ALL_CARDS, JOKER, Card
from rummykit.core.deadwood import GoingOut
from rummykit.core.deal import Phase
from rummykit.core.meld_search import enumerate_melds, meld_layouts
from rummykit.core.melds import TableMeld, meld_accepts
from rummykit.core.rules import MAX_SEATS, Aces, DiscardTake, GoOut, Melding

if TYPE_CHECKING:
    from rummykit.core.state import GameState

MAX_SEATS_LISTED = MAX_SEATS
"""Seats for which the common actions are made once and shared: every seat the rules allow."""

# Actions are immutable values: the common ones are made once and shared.
_DISCARDS = tuple(
    tuple(Discard(seat, card) for card in ALL_CARDS) for seat in range(MAX_SEATS_LISTED)
)
_DRAWS = tuple(
    (Draw(seat, DrawSource.STOCK), Draw(seat, DrawSource.DISCARD))
    for seat in range(MAX_SEATS_LISTED)
)


def joker_designations(meld: TableMeld) -> tuple[Card | None, ...]:
    """What each joker of ``meld`` stands for, in the order the jokers lie."""
    return tuple(
        stood for card, stood in zip(meld.cards, meld.stands_for, strict=True) if card is JOKER
    )


def legal_actions_of(state: GameState) -> list[Action]:
    """Every legal action of the seat to act, sorted: draws, melds, lay-offs, discards."""
    deal = state.deal
    if deal.phase is Phase.OVER:
        return []
    if deal.phase is Phase.DRAW:
        return _draws(state)
    if state.rules.melding is Melding.KNOCK:
        discards = _discards(state)
        return discards + _knocks(state, discards)
    if state.rules.melding is Melding.WHOLE_HAND:
        actions = _whole_hand_melds(state)
    else:
        actions = _melds(state)
        actions.extend(_layoffs(state))
    actions.extend(_discards(state))
    return actions


def _melds(state: GameState) -> list[Action]:
    deal, rules = state.deal, state.rules
    if rules.melds_per_turn and deal.melds_this_turn >= rules.melds_per_turn:
        return []
    return list(_meld_actions(state, _any_meld))


def _any_meld(naturals: tuple[int, ...], jokers: int) -> bool:
    """Every meld is kept (melding during play)."""
    return True


def _whole_hand_melds(state: GameState) -> list[Action]:
    """Whole-hand melding: the melds that leave a hand still able to go out this turn."""
    rules = state.rules
    codes = tuple(sorted(card.code for card in state.deal.hands[state.deal.turn]))
    allowed = _whole_hand_groups(codes, rules.aces, rules.go_out is GoOut.DISCARD)
    if not allowed:
        return []
    return list(_meld_actions(state, lambda naturals, jokers: (naturals, jokers) in allowed))


@lru_cache(maxsize=1 << 10)
def _whole_hand_groups(
    codes: tuple[int, ...], aces: Aces, must_discard: bool
) -> frozenset[tuple[tuple[int, ...], int]]:
    """The groups (natural codes, jokers) a hand of ``codes`` may lay under whole-hand melding.

    Remembered: a position's list is asked for again (a player's view, then the check of
    the meld chosen), and on a hand of fifty cards one list is seconds of search.
    """
    melds = WholeHandMelds.of_hand([ALL_CARDS[code] for code in codes], aces, must_discard)
    # A meld that leaves a hand able to go out is part of a whole hand that can: test that first.
    if not melds.open:
        return frozenset()
    allows = melds.every_allowed()
    return frozenset(
        (naturals, jokers)
        for naturals, jokers in enumerate_melds(codes, aces, substitutes=True)
        if allows(naturals, jokers)
    )


class WholeHandMelds:
    """Whole-hand melding's legal melds, asked of one group of cards at a time.

    A meld is legal when the hand less it can still all go down this turn. The full list
    asks that of every meld the hand holds; a player after one meld (basic play in a
    playout) asks it only of the melds it would lay, which on a hand of forty cards is a
    few questions instead of hundreds.
    """

    __slots__ = ("_going_out", "_must_discard", "_state", "open")

    def __init__(
        self, state: GameState | None, hand: Sequence[Card], aces: Aces, *, must_discard: bool
    ) -> None:
        """The questions of ``hand`` (the turn's seat's, in ``state`` if given: ``of`` needs it)."""
        self._state = state
        self._going_out = GoingOut(hand, aces)
        self._must_discard = must_discard
        self.open = self._going_out.now(must_discard=must_discard)
        """Whether the hand can go out this turn: without it no meld is legal."""

    @classmethod
    def of_position(cls, state: GameState) -> WholeHandMelds:
        """The melds of the seat to act in ``state``."""
        must_discard = state.rules.go_out is GoOut.DISCARD
        hand = state.deal.hands[state.deal.turn]
        return cls(state, hand, state.rules.aces, must_discard=must_discard)

    @classmethod
    def of_hand(cls, hand: Sequence[Card], aces: Aces, must_discard: bool) -> WholeHandMelds:
        """The melds of a hand alone (``of`` is not asked of it)."""
        return cls(None, hand, aces, must_discard=must_discard)

    def allows(self, naturals: tuple[int, ...], jokers: int) -> bool:
        """Whether the hand less this meld (natural codes, jokers) can still all go down."""
        return self.open and self._going_out.after(
            naturals, jokers, must_discard=self._must_discard
        )

    def every_allowed(self) -> Callable[[tuple[int, ...], int], bool]:
        """``allows``, for a caller that asks it of every meld of the hand.

        One search finds every meld that lies in some way of going out (``GoingOut.melds_out``);
        a meld it does not weigh (a natural run over five), or every meld when the hand is too
        large for it, is asked of ``allows``.
        """
        found = self._going_out.melds_out(must_discard=self._must_discard)
        if found is None:
            return self.allows
        return lambda naturals, jokers: (
            (naturals, jokers) in found
            if GoingOut.weighs(naturals, jokers)
            else self.allows(naturals, jokers)
        )

    def of(self, naturals: tuple[int, ...], jokers: int) -> list[Meld]:
        """The legal melds of these cards (one for each way the jokers may lie), sorted.

        The same actions, in the same order, as the full list holds of these cards; empty if
        the hand does not hold them or laying them would stop it going out.
        """
        assert self._state is not None, "a hand alone has no meld actions"
        wanted = (naturals, jokers)
        return _meld_actions(
            self._state, lambda group, count: (group, count) == wanted and self.allows(group, count)
        )


def _meld_actions(state: GameState, keeps: Callable[[tuple[int, ...], int], bool]) -> list[Meld]:
    """Every meld the seat to act could lay whose cards ``keeps`` (natural codes, jokers)."""
    deal, rules = state.deal, state.rules
    seat = deal.turn
    hand = deal.hands[seat]
    must_keep = rules.go_out is GoOut.DISCARD
    codes = [card.code for card in hand]
    actions: list[Meld] = []
    for naturals, jokers in enumerate_melds(codes, rules.aces, substitutes=True):
        if must_keep and len(naturals) + jokers == len(hand):
            continue
        if not keeps(naturals, jokers):
            continue
        actions.extend(_laid_out(seat, naturals, jokers, rules.aces))
    if len(actions) > 1:
        actions.sort(key=action_sort_key)
    return actions


@lru_cache(maxsize=1 << 15)
def _laid_out(seat: int, naturals: tuple[int, ...], jokers: int, aces: Aces) -> tuple[Meld, ...]:
    """The meld actions of these cards (one for each way the jokers may lie), remembered.

    Laying a group out checks it as a meld would be checked on the table, which costs more
    than finding it; a hand meets the same groups turn after turn, and a deck has a few
    thousand of them, so each is laid out once. The actions are immutable and shared.
    """
    cards = [ALL_CARDS[code] for code in naturals]
    return tuple(
        Meld(seat, layout.cards, joker_designations(layout))
        for layout in meld_layouts(cards, jokers, aces)
    )


def _layoffs(state: GameState) -> list[Action]:
    deal, rules = state.deal, state.rules
    seat = deal.turn
    hand = deal.hands[seat]
    actions: list[Action] = []
    if not deal.melds or state.layoff_refusal(seat) is not None:
        return actions
    if rules.go_out is GoOut.DISCARD and len(hand) == 1:
        return actions
    has_joker = JOKER in hand
    aces = rules.aces
    for index, meld in enumerate(deal.melds):
        accepted = sorted(meld_accepts(meld, aces))
        for card in accepted:
            if card in hand:
                actions.append(LayOff(seat, card, index))
        if has_joker:
            for card in accepted:
                actions.append(LayOff(seat, JOKER, index, card))
    return actions


def _discards(state: GameState) -> list[Action]:
    deal = state.deal
    seat = deal.turn
    discards = _DISCARDS[seat]
    hand = deal.hands[seat]
    if deal.melds_this_turn and len(hand) > 1 and state.rules.melding is Melding.WHOLE_HAND:
        return []  # a going out begun with the whole hand is finished first
    codes = sorted({card.code for card in hand})
    taken = deal.taken_top
    if deal.must_play is None:
        if taken is None or len(hand) == 1 or hand.count(taken) > 1:
            return [discards[code] for code in codes]
        # the card just taken from the pile may not go straight back (``taken_card_back``):
        # the only refusal here, so no card is asked about one by one
        back = taken.code
        return [discards[code] for code in codes if code != back]
    deep = deal.must_play
    if deep is not None and len(hand) > 1 and deep in hand and state.can_use(deep, hand):
        return []  # the card taken from deep in the pile is played first (asked once, not per card)
    cards = [ALL_CARDS[code] for code in codes]
    return [
        discards[card.code]
        for card in cards
        if state.discard_refusal(seat, card, deep_checked=True) is None
    ]


def _knocks(state: GameState, discards: list[Action]) -> list[Action]:
    """Knock rummy: a knock with each card the seat may throw, within the knocking limit."""
    seat = state.deal.turn
    limit = state.rules.knock_limit
    knocks: list[Action] = []
    for discard in discards:
        assert isinstance(discard, Discard)
        if limit is None or state.deadwood_after(seat, discard.card) <= limit:
            knocks.append(Knock(seat, discard.card))
    return knocks


def _draws(state: GameState) -> list[Action]:
    deal = state.deal
    seat = deal.turn
    actions: list[Action] = []
    if deal.stock or state.rules.empty_stock_choice:
        actions.append(_DRAWS[seat][0])
    if deal.discard_pile:
        actions.append(_DRAWS[seat][1])
        rules = state.rules
        if rules.discard_take is DiscardTake.ANY and rules.melding is not Melding.KNOCK:
            pile = deal.discard_pile
            if not rules.deep_take_must_use:
                depths = range(2, len(pile) + 1)
                actions.extend(Draw(seat, DrawSource.DISCARD, depth) for depth in depths)
                return actions
            for depth in range(2, len(pile) + 1):
                draw = Draw(seat, DrawSource.DISCARD, depth)
                if state.can(draw):
                    actions.append(draw)
    return actions


class LegalActions:
    """The legal actions of a position: iterate for the sorted list; ``in`` only checks.

    Tied to the position it came from: using it after the game has moved on raises.
    """

    __slots__ = ("_actions", "_state", "_version")

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._version = state.version
        self._actions: list[Action] | None = None

    def _fresh(self) -> GameState:
        if self._state.version != self._version:
            raise RuntimeError("These legal actions belong to an earlier position.")
        return self._state

    def _list(self) -> list[Action]:
        if self._actions is None:
            self._actions = legal_actions_of(self._fresh())
        else:
            self._fresh()
        return self._actions

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, ACTION_TYPES):
            return False
        return self._fresh().can(action)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())

    def __getitem__(self, index: int) -> Action:
        return self._list()[index]

    def count(self) -> int:
        """How many legal actions there are."""
        return len(self._list())

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(action) for action in self._list())})>"
