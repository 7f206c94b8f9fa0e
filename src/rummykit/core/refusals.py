"""Why an action is refused: one stable reason each, with its English sentence, in one place.

Every refusal (the engine's ``IllegalActionError`` and the server's ``refused`` frame) has an
``ErrorCode`` (coarse, stable, in docs/RECORD.md's table), a ``reason`` (finer, stable: this
module's keys) and ``params``: seats as ints, cards as codes (``7h``, ``X=6h``), counts as
ints. The English sentence is the reason's template filled from its params; the browser
renders the same template (generated into ``web/i18n/en/refusals.js``) or its Japanese one,
naming seats and cards the way the table does.

A placeholder's name says what it holds:

- ``{seat}``, ``{turn}``: a seat, "seat 1" here ("Left" or "you" in the browser);
  ``{seat_pos}``, ``{turn_pos}``: its possessive, "seat 1's" ("Left's", "your");
- ``{card}``, ``{stock_card}``: one card code, shown ``7♥``;
- ``{cards}``, ``{meld}``: a list of codes shown as a meld, ``4♥ 5♥ 7♥`` ("Nothing" if empty);
- ``{missing}``: a list of codes shown as a list, ``6♥ and 7♥``;
- anything else: shown as it is (numbers, counts).

A template may be plural forms ``{"one": ..., "other": ...}`` chosen by ``params["count"]``.

>>> refusal_text("not_seat_turn", {"turn": 1, "seat": 0})
"It is seat 1's turn, not seat 0's."
>>> refusal_text("run_missing", {"cards": ["4h", "5h", "8h"], "missing": ["6h", "7h"], "count": 2})
'4♥ 5♥ 8♥ is not a run: the 6♥ and 7♥ are missing.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from rummykit.core.cards import Card
from rummykit.core.error_words import ParamValue as ParamValue  # words of every kind use them
from rummykit.core.error_words import Template as Template
from rummykit.core.error_words import placeholders as placeholders
from rummykit.core.error_words import shown, substitute
from rummykit.core.errors import ErrorCode, IllegalActionError

SEAT_PARAMS: Final = frozenset({"seat", "turn"})
CARD_PARAMS: Final = frozenset({"card", "stock_card"})
MELD_PARAMS: Final = frozenset({"cards", "meld"})
LIST_PARAMS: Final = frozenset({"missing"})
POSSESSIVE: Final = "_pos"
NOTHING: Final = "Nothing"
"""An empty list of cards where a meld was asked for."""

_E = ErrorCode

REFUSALS: Final[dict[str, tuple[ErrorCode, Template]]] = {
    # ----- the engine: whose turn, which phase ------------------------------------------
    "deal_over": (_E.WRONG_PHASE, "The deal is over: no more actions in it."),
    "no_such_seat": (_E.NOT_YOUR_TURN, "There is no seat {number}: seats are 0 to {last}."),
    "not_seat_turn": (_E.NOT_YOUR_TURN, "It is {turn_pos} turn, not {seat_pos}."),
    "drawn_already": (_E.WRONG_PHASE, "You have drawn already this turn."),
    "draw_first": (_E.WRONG_PHASE, "Draw first: from the stock or the discard pile."),
    # ----- drawing from the pile ----------------------------------------------------------
    "empty_discard": (_E.EMPTY_DISCARD, "The discard pile is empty: draw from the stock."),
    "top_only": (
        _E.DISCARD_TAKE_NOT_ALLOWED,
        "Only the top card of the discard pile may be taken under these rules.",
    ),
    "pile_too_short": (
        _E.DISCARD_TAKE_NOT_ALLOWED,
        {
            "one": "The discard pile holds only {count} card, not {depth}.",
            "other": "The discard pile holds only {count} cards, not {depth}.",
        },
    ),
    "deep_card_useless": (
        _E.DISCARD_TAKE_NOT_ALLOWED,
        "You may take the {card} from deep in the pile only to meld it or lay it off this "
        "turn, and it fits nothing you could make.",
    ),
    # ----- the cards held -----------------------------------------------------------------
    "not_held": (_E.CARD_NOT_IN_HAND, "You do not hold the {card}."),
    "held_fewer": (_E.CARD_NOT_IN_HAND, "You hold {held} {card}, not {count}."),
    # ----- melds and lay-offs -------------------------------------------------------------
    "meld_limit": (
        _E.MELD_LIMIT,
        {
            "one": "You may lay only one new meld a turn under these rules.",
            "other": "You may lay only {count} new melds a turn under these rules.",
        },
    ),
    "meld_keep_card": (
        _E.MUST_DISCARD_TO_GO_OUT,
        "Keep a card back: under these rules you go out only by discarding your last card.",
    ),
    "layoff_after_meld": (
        _E.LAYOFF_NOT_ALLOWED,
        "Lay a meld of your own before you lay off cards.",
    ),
    "layoff_next_turn": (
        _E.LAYOFF_NOT_ALLOWED,
        "You may lay off from the turn after your first meld.",
    ),
    "layoff_meld_first": (
        _E.LAYOFF_NOT_ALLOWED,
        "Lay a meld of your own, then from your next turn you may lay off.",
    ),
    "no_melds_yet": (
        _E.NO_SUCH_MELD,
        "There is no meld {number} on the table: there are none yet.",
    ),
    "no_such_meld": (
        _E.NO_SUCH_MELD,
        "There is no meld {number} on the table: they are numbered 0 to {last}.",
    ),
    "layoff_does_not_fit": (_E.LAYOFF_DOES_NOT_FIT, "The {card} does not fit {meld}."),
    "layoff_keep_card": (
        _E.MUST_DISCARD_TO_GO_OUT,
        "Keep your last card to discard: under these rules you go out only by discarding.",
    ),
    # ----- discarding ---------------------------------------------------------------------
    "taken_card_back": (
        _E.DISCARD_TAKEN_CARD,
        "You took the {card} from the discard pile this turn: you may not throw it straight back.",
    ),
    "must_use_taken": (
        _E.MUST_USE_TAKEN_CARD,
        "Meld or lay off the {card} you took from deep in the pile before you discard.",
    ),
    # ----- knock rummy (issue 13) ---------------------------------------------------------
    "knock_not_in_rules": (
        _E.KNOCK_NOT_ALLOWED,
        "Nobody knocks under these rules: lay your melds during play and discard the {card}.",
    ),
    "knock_too_high": (
        _E.KNOCK_NOT_ALLOWED,
        "You may knock with at most {limit} points loose; knocking with the {card} leaves {value}.",
    ),
    "knock_no_meld": (
        _E.NO_MELDING,
        "No melds during play under knock rummy: keep {cards} in your hand until someone knocks.",
    ),
    "knock_no_layoff": (
        _E.NO_MELDING,
        "No laying off under knock rummy: keep the {card} in your hand until someone knocks.",
    ),
    "knock_top_only": (
        _E.DISCARD_TAKE_NOT_ALLOWED,
        "Under knock rummy only the top discard may be taken: nothing is melded before a knock.",
    ),
    # ----- the whole hand at once (the published Boathouse, issue 28) ---------------------
    "whole_hand_meld": (
        _E.WHOLE_HAND_ONLY,
        "Melds go down only to go out, the whole hand in one turn: after {cards}, the {count} "
        "cards left could not all be melded, bar one to discard.",
    ),
    "whole_hand_no_layoff": (
        _E.WHOLE_HAND_ONLY,
        "No laying off when melds go down only with the whole hand: put the {card} in a meld "
        "of your own as you go out.",
    ),
    "whole_hand_unfinished": (
        _E.WHOLE_HAND_ONLY,
        "You have begun laying down your whole hand: meld the rest before you discard the {card}.",
    ),
    # ----- what makes a meld (code invalid_meld) ------------------------------------------
    "meld_too_short": (
        _E.INVALID_MELD,
        "{cards} is no meld: a meld needs at least three cards.",
    ),
    "extra_designations": (
        _E.INVALID_MELD,
        "{cards}: there are more joker designations than jokers.",
    ),
    "too_few_naturals": (
        _E.INVALID_MELD,
        "{cards} is no meld: a meld needs at least two natural cards.",
    ),
    "joker_for_joker": (
        _E.INVALID_MELD,
        "{cards}: a joker stands for a natural card, not another joker.",
    ),
    "not_set_or_run": (
        _E.INVALID_MELD,
        "{cards} is neither a set nor a run: a set is one rank, a run is one suit in sequence.",
    ),
    "set_too_big": (
        _E.INVALID_MELD,
        "{cards} is not a set: a set has at most four cards, one of each suit.",
    ),
    "set_joker_rank": (
        _E.INVALID_MELD,
        "{cards}: a joker in this set cannot stand for the {card}, a card of another rank.",
    ),
    "set_card_twice": (
        _E.INVALID_MELD,
        "{cards} is not a set: the {card} is there twice; each card of a set must be a "
        "different suit.",
    ),
    "run_joker_suit": (
        _E.INVALID_MELD,
        "{cards}: a joker in this run cannot stand for the {card}, a card of another suit.",
    ),
    "run_card_twice": (_E.INVALID_MELD, "{cards} is not a run: the {card} is there twice."),
    "run_aces_low": (
        _E.INVALID_MELD,
        "{cards} is not a run: aces are low here, so nothing goes above the king.",
    ),
    "run_no_corner": (
        _E.INVALID_MELD,
        "{cards} is not a run: a run may not turn the corner from king to ace to two.",
    ),
    "run_too_long": (
        _E.INVALID_MELD,
        "{cards} is not a run: a run holds at most thirteen cards.",
    ),
    "run_missing": (
        _E.INVALID_MELD,
        {
            "one": "{cards} is not a run: the {missing} is missing.",
            "other": "{cards} is not a run: the {missing} are missing.",
        },
    ),
}
"""Every reason the rules refuse: its error code and its English template (the server's own
reasons are ``rummykit.protocol.table_refusals``'s)."""


def expected_placeholders(params: Mapping[str, ParamValue]) -> set[str]:
    """The names a template may fill from these params (a seat also as its possessive)."""
    names = set(params)
    names |= {f"{name}{POSSESSIVE}" for name in params if name in SEAT_PARAMS}
    return names


def _code_symbol(code: str) -> str:
    """A card code as people read it: ``7♥``; a joker ``🃏``, or ``🃏(6♥)`` standing for one."""
    if code.upper().startswith("X"):
        _, _, stood = code.partition("=")
        return f"🃏({Card.parse(stood).symbol})" if stood else "🃏"
    return Card.parse(code).symbol


def listed(words: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _shown(name: str, value: ParamValue) -> str:
    """A parameter as the English sentence shows it."""
    if name in SEAT_PARAMS:
        return f"seat {value}"
    if name in CARD_PARAMS and isinstance(value, str):
        return _code_symbol(value)
    if name in MELD_PARAMS and not isinstance(value, str | int | None):
        return " ".join(_code_symbol(code) for code in value) or NOTHING
    if name in LIST_PARAMS and not isinstance(value, str | int | None):
        return listed([_code_symbol(code) for code in value])
    return shown(name, value)


def fill(template: Template, params: Mapping[str, ParamValue]) -> str:
    """A template filled from params the way the English sentence shows them."""
    words = {name: _shown(name, value) for name, value in params.items()}
    words.update({f"{name}{POSSESSIVE}": f"{words[name]}'s" for name in SEAT_PARAMS & set(words)})
    return substitute(template, words, params.get("count"))


def refusal_text(reason: str, params: Mapping[str, ParamValue]) -> str:
    """The English sentence of a refusal."""
    return fill(REFUSALS[reason][1], params)


def code_of(reason: str) -> ErrorCode:
    """The error code a reason belongs to."""
    return REFUSALS[reason][0]


def refuse(reason: str, **params: ParamValue) -> IllegalActionError:
    """The ``IllegalActionError`` for ``reason``, its message rendered from ``params``."""
    code, template = REFUSALS[reason]
    return IllegalActionError(code, fill(template, params), reason=reason, params=params)


def cards_of(cards: Sequence[Card], declared: Sequence[Card | None] = ()) -> list[str]:
    """Cards as codes for a refusal's params; jokers ``X=6h`` where ``declared`` names one."""
    stands = iter(declared)
    codes = []
    for card in cards:
        if card.is_joker:
            stood = next(stands, None)
            codes.append("X" if stood is None else f"X={stood}")
        else:
            codes.append(str(card))
    return codes


def catalogue() -> dict[str, Template]:
    """The engine's and the table's part of the catalogue area ``refusals`` (``web_catalogues``).

    Keys: ``refusals.REASON`` (a party's reasons are ``rummykit.protocol.party_words``'s).
    """
    words: dict[str, Template] = {
        f"refusals.{reason}": template for reason, (_, template) in REFUSALS.items()
    }
    words["refusals.nothing"] = NOTHING
    return words
