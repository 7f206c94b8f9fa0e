"""``basic``: the plain computer player of a casual table.

It takes the top discard only when that card completes a meld with cards in its hand,
otherwise draws from the stock; lays down every meld of its best split; lays off whatever
fits; and throws the dearest card that belongs to nothing.
"""

from __future__ import annotations

import random

from rummykit.bots.base import register
from rummykit.core.actions import Action, Discard, Draw, DrawSource, LayOff, Meld
from rummykit.core.deadwood import best_partition
from rummykit.core.meld_search import enumerate_melds
from rummykit.core.observation import Observation


def completes_meld(observation: Observation) -> bool:
    """Whether the top discard makes a meld with cards of the hand."""
    top = observation.discard_top
    if top is None:
        return False
    codes = [card.code for card in observation.hand] + [top.code]
    return any(
        top.code in naturals or (top.is_joker and jokers)
        for naturals, jokers in enumerate_melds(codes, observation.rules.aces)
    )


@register("basic")
class BasicBot:
    """Takes the discard only to complete a meld, melds all, lays off all, sheds the dearest."""

    name = "basic"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """The action of a plain, honest player."""
        legal = observation.legal_actions
        draws = [action for action in legal if isinstance(action, Draw)]
        if draws:
            take = Draw(observation.seat or 0, DrawSource.DISCARD)
            stock = [action for action in draws if action.source is DrawSource.STOCK]
            if take in draws and (completes_meld(observation) or not stock):
                return take
            return stock[0] if stock else draws[0]
        melds = {
            str(action).split(" ", 2)[2]: action for action in legal if isinstance(action, Meld)
        }
        if melds:
            partition = best_partition(observation.hand, observation.rules)
            for meld in partition.melds:
                if meld.text in melds:
                    return melds[meld.text]
        layoffs = [action for action in legal if isinstance(action, LayOff)]
        natural_layoffs = [action for action in layoffs if not action.card.is_joker]
        if natural_layoffs:
            return natural_layoffs[0]
        discards = [action for action in legal if isinstance(action, Discard)]
        if not discards:
            return legal[0]
        partition = best_partition(observation.hand, observation.rules)
        for card in partition.deadwood:
            for discard in discards:
                if discard.card is card:
                    return discard
        return max(discards, key=lambda action: observation.rules.card_points(action.card.code))
