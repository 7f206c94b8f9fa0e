"""Every legal action of a small position, found by asking ``check`` about every candidate.

An independent enumerator for the both-directions legality property: it knows nothing of the
engine's move generation. It proposes every action a seat could write (every draw depth,
every sub-multiset of the hand as a meld with every designation for its jokers, every card on
every meld, every discard and knock), keeps those ``GameState.can`` accepts, and writes each in
canonical notation: melds arranged as they would lie on the table, jokers as ``X=card``.
The only rule knowledge it uses to keep the search small is that a set is one rank and a run
one suit, so a joker is only ever tried as a card of the naturals' rank or suit, and naturals
of several ranks and several suits are proposed once, without a designation (``check`` refuses
them whatever the jokers stand for).
"""

from __future__ import annotations

import itertools

from rummykit.core.actions import Action, Discard, Draw, DrawSource, Knock, LayOff, Meld
from rummykit.core.cards import JOKER, NATURAL_CARDS, Card
from rummykit.core.melds import arrange_meld, layoff_positions
from rummykit.core.state import GameState, Phase

MAX_HAND = 11
"""The largest hand the enumerator takes: 2^11 sub-multisets are still quick to try."""


def canonical(game: GameState, action: Action) -> str:
    """An accepted action in the notation the game record uses for it."""
    aces = game.rules.aces
    if isinstance(action, Meld):
        layout = arrange_meld(action.cards, action.jokers_as, aces)
        stood = tuple(
            card
            for laid, card in zip(layout.cards, layout.stands_for, strict=True)
            if laid.is_joker
        )
        return str(Meld(action.seat, layout.cards, stood))
    if isinstance(action, LayOff) and action.card.is_joker and action.joker_as is None:
        first = layoff_positions(game.melds[action.meld], action.card, aces)[0]
        return str(LayOff(action.seat, action.card, action.meld, first))
    return str(action)


def _meld_candidates(seat: int, cards: tuple[Card, ...]) -> list[Meld]:
    naturals = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(naturals)
    if len(naturals) < 2:
        return [Meld(seat, cards)]  # refused, but proposed all the same
    if not jokers:
        return [Meld(seat, cards)]
    ranks = {card.rank for card in naturals}
    suits = {card.suit for card in naturals}
    if len(ranks) > 1 and len(suits) > 1:
        return [Meld(seat, cards)]  # neither one rank nor one suit: no joker makes it a meld
    options: list[Card | None] = [None]
    options += [card for card in NATURAL_CARDS if card.rank in ranks or card.suit in suits]
    return [
        Meld(seat, cards, designation)
        for designation in itertools.combinations_with_replacement(options, jokers)
    ]


def _sub_multisets(hand: list[Card]) -> set[tuple[Card, ...]]:
    held = sorted(hand)
    found: set[tuple[Card, ...]] = set()
    for mask in range(1, 1 << len(held)):
        if mask.bit_count() >= 3:
            found.add(tuple(card for index, card in enumerate(held) if mask >> index & 1))
    return found


def candidates(game: GameState) -> list[Action]:
    """Every action the seat to act could write, legal or not (bounded, see the module)."""
    if game.phase is Phase.OVER:
        return []
    seat = game.turn
    if game.phase is Phase.DRAW:
        draws: list[Action] = [Draw(seat, DrawSource.STOCK)]
        draws += [
            Draw(seat, DrawSource.DISCARD, depth) for depth in range(1, len(game.discard_pile) + 2)
        ]
        return draws
    hand = game.hands[seat]
    if len(hand) > MAX_HAND:
        raise ValueError(f"A hand of {len(hand)} is too big to enumerate.")
    actions: list[Action] = []
    for cards in _sub_multisets(hand):
        actions.extend(_meld_candidates(seat, cards))
    distinct = sorted(set(hand))
    for index in range(len(game.melds)):
        for card in distinct:
            actions.append(LayOff(seat, card, index))
            if card is JOKER:
                actions.extend(LayOff(seat, card, index, stood) for stood in NATURAL_CARDS)
    actions.extend(Discard(seat, card) for card in distinct)
    actions.extend(Knock(seat, card) for card in distinct)
    return actions


def legal_by_brute_force(game: GameState) -> set[str]:
    """The canonical text of every action ``check`` accepts in this position."""
    return {canonical(game, action) for action in candidates(game) if game.can(action)}
