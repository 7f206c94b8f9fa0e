"""How a computer player breaks a deal that has gone round without anyone laying a card.

When the stock runs out and the discard pile is turned over unshuffled, the same cards come
round in the same order; players who draw and throw as before meet the same positions again
and again, until ``idle_renewals`` ends the deal. A seat sees this coming in its observation
(``idle_renewals_used``: new stocks since a card was last laid). From then on, our players
throw a card they have not thrown in this deal before, where they have one to spare: a card
kept since the deal or drawn fresh, instead of the card that went round last time. The hand
changes, so the position does not come round again, and the new cards may make a meld.
Nothing here draws on chance: a bot stays the same function of its observation and seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.core.cards import Card


def repeated_cards(idle_renewals_used: int, thrown: Sequence[Card]) -> frozenset[Card]:
    """The cards a seat had better not throw again now, as its observation shows them.

    Those it threw earlier in the deal, once the stock has been renewed with nothing laid
    since; none before that.

    >>> from rummykit.core.cards import parse_cards
    >>> sorted(map(str, repeated_cards(1, parse_cards(["Kc", "9d"]))))
    ['9d', 'Kc']
    >>> repeated_cards(0, parse_cards(["Kc"]))
    frozenset()
    """
    return frozenset(thrown) if idle_renewals_used else frozenset()
