"""How a computer player breaks a deal that has gone round without anyone laying a card.

When the stock runs out and the discard pile is turned over unshuffled, the same cards come
round in the same order; players who draw and throw as before meet the same positions again
and again, until ``idle_renewals`` ends the deal. A seat sees this coming in its observation
(``idle_renewals_used``: new stocks since a card was last laid). From then on, while the
rules would turn the pile over again, our players
throw a card they have not thrown in this deal before, where they have one to spare: a card
kept since the deal or drawn fresh, instead of the card that went round last time. The hand
changes, so the position does not come round again, and the new cards may make a meld.
Nothing here draws on chance: a bot stays the same function of its observation and seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.core.cards import Card
from rummykit.core.rules import Renew, Rules


def may_come_round(rules: Rules, renewals_used: int, idle_renewals_used: int) -> bool:
    """Whether the deal is going round, so that the same cards may come back in order.

    That is: the pile turned over unshuffled, nothing laid since, and the rules would turn
    it over again. Otherwise the deal ends when the stock does, or the cards come back in a
    new order: there is no cycle to break, and play goes on as usual (as under ``classic``).

    >>> from rummykit.core.presets import find_preset
    >>> may_come_round(find_preset("standard").rules, 1, 1)
    True
    >>> may_come_round(find_preset("classic").rules, 1, 1)
    False
    """
    if not idle_renewals_used or rules.renew is not Renew.FLIP:
        return False
    return rules.renewals is None or renewals_used < rules.renewals


def repeated_cards(
    rules: Rules, renewals_used: int, idle_renewals_used: int, thrown: Sequence[Card]
) -> frozenset[Card]:
    """The cards a seat had better not throw again now, as its observation shows them.

    Those it threw earlier in the deal, while the deal may come round (``may_come_round``);
    none otherwise.

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.presets import find_preset
    >>> standard = find_preset("standard").rules
    >>> sorted(map(str, repeated_cards(standard, 2, 1, parse_cards(["Kc", "9d"]))))
    ['9d', 'Kc']
    >>> repeated_cards(standard, 2, 0, parse_cards(["Kc"]))
    frozenset()
    """
    if not may_come_round(rules, renewals_used, idle_renewals_used):
        return frozenset()
    return frozenset(thrown)
