"""What a hint says: its advice and its reason as kinds with parameters, and their English.

A hint (the strong player's ``Decision``, or the expert's) is one sentence: the action told
as advice ("Take the 9♣ from the discard pile") and why ("it makes 7♣ 8♣ 9♣"). Both parts
have a stable ``kind`` and ``params`` (cards as codes, melds as lists of codes with jokers
``X=6h``, points and counts as ints), so the browser can say them in the player's language
(the English is generated into ``web/i18n/en/hints.js``, area ``hints``; the Japanese is
written by hand). The English sentence is the reason's template filled here, with the
advice in its ``{action}`` placeholder; placeholder names follow ``rummykit.core.refusals``.

>>> from rummykit.core.actions import Discard
>>> kind, params = advice_words(Discard(1, Card.parse("Kc")), ())
>>> kind, params
('discard', {'card': 'Kc'})
>>> hint_text("go_out", {}, kind, params)
'Discard the K♣ and go out.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from rummykit.core.actions import Action, Draw, DrawSource, Knock, LayOff, Meld
from rummykit.core.cards import Card
from rummykit.core.melds import TableMeld
from rummykit.core.refusals import ParamValue, Template, cards_of, fill

Params = Mapping[str, ParamValue]
"""A kind's parameters, by placeholder name."""

ACTION: Final = "action"
"""The placeholder of a reason that holds its advice, already in words."""

ADVICE: Final[dict[str, Template]] = {
    "draw_stock": "Draw from the stock",
    "take_discard": "Take the {card} from the discard pile",
    "take_discards": "Take {cards} from the discard pile",
    "take_top": "Take the top discard",
    "take_deep": "Take the top {depth} cards of the discard pile",
    "meld": "Meld {meld}",
    "layoff": "Lay off the {card} on meld {number}",
    "discard": "Discard the {card}",
    "knock": "Knock, discarding the {card}",
}
"""Each action told as advice (``describe_action``'s ``ADVICE`` tense), by kind."""

_UNSAFE: Final = ", and every other card would help another player"
_HOLDING: Final = ", and you keep your melds back for going rummy"
_WHY_DISCARD: Final = {
    "deadwood": "it belongs to nothing and costs {points}",
    "break_group": "breaking that group costs you least",
}

REASONS: Final[dict[str, Template]] = {
    # ----- drawing ------------------------------------------------------------------------
    "no_discard": "{action}: there is no discard to take.",
    "stock_gone": "{action}: the stock is gone.",
    "take_makes": "{action}: it makes {meld}.",
    "take_improves": "{action}: it brings your hand from {before} to {after} points, with "
    "better chances.",
    "top_useless": "{action}: the {card} does not help your hand.",
    # ----- melding and laying off ---------------------------------------------------------
    "layoff_fits": "{action}: it fits {meld}, one card less.",
    "meld_now": "{action}: cards on the table cannot be caught in your hand.",
    "only_choice": "{action}: there is nothing else.",
    # ----- discarding ---------------------------------------------------------------------
    "go_out": "{action} and go out.",
    **{
        f"{why}{unsafe_kind}{holding_kind}": f"{{action}}: {words}{unsafe}{holding}."
        for why, words in _WHY_DISCARD.items()
        for unsafe_kind, unsafe in (("", ""), ("_unsafe", _UNSAFE))
        for holding_kind, holding in (("", ""), ("_holding", _HOLDING))
    },
    # ----- knock rummy --------------------------------------------------------------------
    "knock_low": "{action}: {points} loose is low enough to win this deal most of the time.",
    # ----- the expert's search ------------------------------------------------------------
    "searched": "{action}: over many deals dealt to fit what you have seen, it comes out "
    "ahead on average.",
}
"""Each reason's English template, by kind; ``{action}`` is the advice in words."""


def discard_kind(in_deadwood: bool, unsafe: bool, holding: bool) -> str:
    """The reason kind for a discard.

    ``in_deadwood``: the card belongs to no meld (else it breaks a group); ``unsafe``: every
    other card would help another player; ``holding``: melds are held back for going rummy.
    """
    kind = "deadwood" if in_deadwood else "break_group"
    return kind + ("_unsafe" if unsafe else "") + ("_holding" if holding else "")


def meld_codes(meld: TableMeld) -> list[str]:
    """A meld as it lies, as codes for a parameter: ``["5h", "X=6h", "7h"]``."""
    stood = [
        stands for card, stands in zip(meld.cards, meld.stands_for, strict=True) if card.is_joker
    ]
    return cards_of(meld.cards, stood)


def advice_words(
    action: Action, taken: Sequence[Card], meld: TableMeld | None = None
) -> tuple[str, dict[str, ParamValue]]:
    """The advice's kind and params for ``action``.

    ``taken`` holds the cards a draw from the discard pile takes (none: the words say only
    how many); ``meld`` the meld a ``Meld`` action leaves on the table, as it will lie (none:
    the action's cards as given).
    """
    if isinstance(action, Draw):
        if action.source is DrawSource.STOCK:
            return "draw_stock", {}
        if len(taken) == 1:
            return "take_discard", {"card": str(taken[0])}
        if taken:
            return "take_discards", {"cards": cards_of(taken)}
        if action.depth == 1:
            return "take_top", {}
        return "take_deep", {"depth": action.depth}
    if isinstance(action, Meld):
        codes = meld_codes(meld) if meld is not None else cards_of(action.cards, action.jokers_as)
        return "meld", {"meld": codes}
    if isinstance(action, LayOff):
        return "layoff", {"card": str(action.card), "number": action.meld}
    if isinstance(action, Knock):
        return "knock", {"card": str(action.card)}
    return "discard", {"card": str(action.card)}


def advice_text(kind: str, params: Params) -> str:
    """The advice in English: ``Take the 9♣ from the discard pile``."""
    return fill(ADVICE[kind], params)


def hint_text(kind: str, params: Params, action_kind: str, action_params: Params) -> str:
    """The whole hint in English: the reason's template with its advice in ``{action}``."""
    return fill(REASONS[kind], {**params, ACTION: advice_text(action_kind, action_params)})


def catalogue() -> dict[str, Template]:
    """The English catalogue area ``hints`` (``web_catalogues``).

    One key ``hints.KIND`` for each advice and each reason: their kinds never collide.
    """
    return {f"hints.{kind}": template for kind, template in {**ADVICE, **REASONS}.items()}


assert not set(ADVICE) & set(REASONS), "an advice kind and a reason kind share a key"
