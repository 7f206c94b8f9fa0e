"""``basic``: the plain computer player of a casual table, and basic play itself.

It takes the top discard only when that card completes a meld with cards in its hand,
otherwise draws from the stock; lays down every meld of its best split; lays off whatever
fits; and throws the dearest card that belongs to nothing. Under knock rummy it knocks with
that card when its deadwood would then be ``BASIC_KNOCK`` or less; where only the whole hand
may be melded, it goes out as soon as it can.

``basic_draw`` and ``basic_play`` are that policy on bare values, so that it is written once:
``BasicBot`` reads them off an observation, and the expert's playouts off a sampled game.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from rummykit.bots.base import register
from rummykit.bots.cycles import repeated_cards
from rummykit.bots.evaluate import partnered
from rummykit.core.actions import Action, Discard, Draw, DrawSource, Knock, LayOff, Meld
from rummykit.core.cards import Card
from rummykit.core.deadwood import best_partition, deadwood_value
from rummykit.core.meld_search import enumerate_melds
from rummykit.core.movegen import WholeHandMelds
from rummykit.core.observation import Observation
from rummykit.core.rules import Melding, Rules

if TYPE_CHECKING:
    from rummykit.core.state import GameState

BASIC_KNOCK = 10
"""Knock rummy: the most deadwood basic play knocks with (the usual limit of gin rummy)."""


def completes_meld(hand: Sequence[Card], top: Card | None, rules: Rules) -> bool:
    """Whether the top discard ``top`` makes a meld with cards of ``hand``."""
    if top is None:
        return False
    codes = [card.code for card in hand] + [top.code]
    return any(
        top.code in naturals or (top.is_joker and jokers)
        for naturals, jokers in enumerate_melds(codes, rules.aces)
    )


def basic_draw(
    seat: int,
    hand: Sequence[Card],
    top: Card | None,
    rules: Rules,
    can: Callable[[Draw], bool],
) -> Draw:
    """Basic play's draw: the top discard if it completes a meld (or the stock is gone).

    ``can`` says whether a draw is allowed now; only the two plain draws are asked about
    (listing every deep take is costly).
    """
    take = Draw(seat, DrawSource.DISCARD)
    stock = Draw(seat, DrawSource.STOCK)
    if top is not None and can(take) and (completes_meld(hand, top, rules) or not can(stock)):
        return take
    return stock if can(stock) else take


def basic_play(
    hand: Sequence[Card],
    rules: Rules,
    legal: Sequence[Action],
    keep_partners: bool = False,
    repeated: Collection[Card] = frozenset(),
) -> Action:
    """Basic play after the draw: meld the best split, lay off, shed the dearest deadwood.

    With ``keep_partners`` it sheds the dearest deadwood card that has no partner in the
    deadwood (``evaluate.partnered``: half a pair, or two thirds of a run), and breaks a
    partnership only when every loose card has one: the sharper play of ``sharp_action``.
    Cards in ``repeated`` are thrown last (``cycles.repeated_cards``: a deal gone round).
    """
    partition = best_partition(hand, rules)
    melds = {action.text: action for action in legal if isinstance(action, Meld)}
    for meld in partition.melds if melds else ():
        if meld.text in melds:
            return melds[meld.text]
    if melds and rules.melding is Melding.WHOLE_HAND:
        return next(iter(melds.values()))  # each meld offered keeps the whole hand going out
    for action in legal:
        if isinstance(action, LayOff) and not action.card.is_joker:
            return action
    discards = [action for action in legal if isinstance(action, Discard)]
    if not discards:
        return legal[0]
    chosen = _dearest(partition.deadwood, discards, rules, keep_partners, repeated)
    knock = Knock(chosen.seat, chosen.card)
    if any(isinstance(action, Knock) for action in legal) and knock in legal:
        rest = list(hand)
        rest.remove(chosen.card)
        if deadwood_value(rest, rules) <= BASIC_KNOCK:
            return knock
    return chosen


def basic_whole_hand_meld(state: GameState) -> Action | None:
    """``basic_play``'s meld under whole-hand melding, without listing every legal meld.

    Basic play lays the first meld of its best split that is legal. Listing the legal melds
    asks of each meld whether the rest still goes out; this asks it only of the split's melds
    in turn, and finds the same action. ``None`` when the hand cannot go out, or when no meld
    of the split is legal: basic play then needs the full list (a discard, or the first
    legal meld).
    """
    melds = WholeHandMelds.of_position(state)
    if not melds.open:
        return None
    hand = state.deal.hands[state.deal.turn]
    for meld in best_partition(hand, state.rules).melds:
        naturals = tuple(sorted(card.code for card in meld.cards if not card.is_joker))
        jokers = len(meld.cards) - len(naturals)
        by_text = {action.text: action for action in melds.of(naturals, jokers)}
        if meld.text in by_text:
            return by_text[meld.text]
    return None


def _dearest(
    deadwood: Sequence[Card],
    discards: list[Discard],
    rules: Rules,
    keep_partners: bool,
    repeated: Collection[Card] = frozenset(),
) -> Discard:
    """The discard of the dearest deadwood card, else of the dearest card.

    With ``keep_partners``, the dearest deadwood card without a partner comes first. Any
    card not in ``repeated`` comes before every card in it.
    """
    loose = (card for card in deadwood if keep_partners and not partnered(card, deadwood, rules))
    order = list(itertools.chain(loose, deadwood))  # dearest first (loose ones first, if asked)
    if repeated:
        order.sort(key=lambda card: card in repeated)  # stable: the same order otherwise
    for card in order:
        for discard in discards:
            if discard.card is card:
                return discard
    return max(
        discards,
        key=lambda action: (action.card not in repeated, rules.card_points(action.card.code)),
    )


@register("basic")
class BasicBot:
    """The ``basic`` computer player: its ``description`` says how it plays."""

    name = "basic"
    description = (
        "Takes the discard only to complete a meld, melds all, lays off all, sheds the dearest."
    )

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """The action of a plain, honest player."""
        legal = observation.legal_actions
        draws = [action for action in legal if isinstance(action, Draw)]
        if draws:
            seat = observation.seat if observation.seat is not None else observation.turn
            hand, top = observation.hand, observation.discard_top
            draw = basic_draw(seat, hand, top, observation.rules, draws.__contains__)
            return draw if draw in draws else draws[0]
        seat = observation.seat if observation.seat is not None else observation.turn
        repeated = repeated_cards(
            observation.rules,
            observation.renewals_used,
            observation.idle_renewals_used,
            observation.thrown[seat],
        )
        return basic_play(observation.hand, observation.rules, legal, repeated=repeated)
