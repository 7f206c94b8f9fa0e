"""Why rules or text are refused: one stable reason each, with its English template, once.

``RulesError`` (a rule option with a bad value, options not played together, a table size the
rules cannot deal) and ``InvalidActionError`` (text that is no action or no card) carry a
``reason`` (this module's keys) and ``params``; their English sentence is the reason's
template filled from its params. The browser words the same reason from the catalogue area
``refusals`` (generated, key ``refusals.REASON``), or its Japanese one. The rules' refusals of
a well-formed action are ``rummykit.core.refusals``'s.

A placeholder's name says what it holds: ``{choices}`` a list of values shown as choices
(``1 or 2``, ``"low", "high" or "around"``); anything else as it is (an option's or a preset's
name, a value as JSON text, the text that could not be read, a number). A template may be
plural forms ``{"one": ..., "other": ...}`` chosen by ``params["count"]``.

This module imports nothing of the engine, so every module of the core may raise its errors.

>>> error_text("option_choice", {"option": "decks", "choices": ["1", "2"], "value": "3"})
'decks must be 1 or 2, not 3.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

Template = str | Mapping[str, str]
"""An English sentence with ``{placeholders}``, or its plural forms by ``count``."""

ParamValue = int | str | list[str] | None
"""A parameter: a seat or count (int), a card code or a word, a list of codes or words."""

CHOICE_PARAMS: Final = frozenset({"choices"})
"""Params that hold a list of values shown as choices: ``A, B or C``."""

RULES_ERRORS: Final[dict[str, Template]] = {
    # ----- how the rules are written -----------------------------------------------------------
    "rules_not_object": "rules must be a preset name or an object with a preset and options.",
    "rules_no_preset": 'rules must name its "preset".',
    "unknown_preset": "Unknown preset '{name}': choose one of {choices}.",
    "unknown_option": "Unknown rule option '{option}'; see `rummy rules`.",
    # ----- an option's value (``value``: what was given, as JSON text) -------------------------
    "option_boolean": "{option} must be true or false, not {value}.",
    "option_choice": "{option} must be {choices}, not {value}.",
    "option_number": "{option} must be a whole number from {min} to {max}, not {value}.",
    "option_number_or": "{option} must be a whole number from {min} to {max} or {choices}, "
    "not {value}.",
    "option_least": "{option} must be a whole number of at least {min}, not {value}.",
    "option_least_or": "{option} must be a whole number of at least {min} or {choices}, "
    "not {value}.",
    # ----- options not played together ---------------------------------------------------------
    "knock_stock_card": "stock_with_discard needs melding during_play: in knock rummy nothing "
    "but a discard leaves a hand, so every take from the pile would leave it a card bigger, "
    "deal after deal.",
    "knock_meld_points": "scoring melds needs melding during_play: in knock rummy no card is laid "
    "on the table to score, and the loose cards a knock counts are points against, where meld "
    "points want the highest total to win.",
    # ----- the table's size ----------------------------------------------------------------------
    "seats_range": "A table has {min} to {max} seats, not {seats}.",
    "preset_seats": "The {preset} preset is for {min} to {max} seats, not {seats}.",
    "preset_seats_exact": "The {preset} preset is for {min} seats, not {seats}.",
    "seats_two_decks": "{seats} seats need two decks: one deck serves {min} to {max} seats.",
    "deck_too_small": {
        "one": "{seats} seats with {hand} cards each need {needed} cards with the up-card, but "
        "one deck with {jokers} jokers holds {size}.",
        "other": "{seats} seats with {hand} cards each need {needed} cards with the up-card, "
        "but {count} decks with {jokers} jokers hold {size}.",
    },
}
"""Every reason of a ``RulesError``, with its English template."""

ACTION_ERRORS: Final[dict[str, Template]] = {
    "not_a_card": "'{text}' is not a card: write a rank and a suit, like 7h or Td.",
    "not_an_action": "'{text}' is not an action: write the seat, a verb and its cards, like "
    "'1 discard Kc'.",
    "unknown_verb": "'{text}': unknown verb '{verb}'; use draw, meld, layoff, discard or knock.",
    "joker_only_stands": "Only a joker can stand for another card: '{text}'.",
    "joker_stands_natural": "A joker stands for a natural card, not '{text}'.",
    "bad_depth": "'{text}': the depth must be a number from 1 up.",
    "draw_from": "'{text}': draw from 'stock' or 'discard'.",
    "meld_needs_cards": "'{text}': a meld needs its cards.",
    "layoff_form": "'{text}': write 'layoff', a card and a meld number.",
    "discard_one": "'{text}': discard exactly one card.",
    "knock_one": "'{text}': knock with exactly one card to discard.",
}
"""Every reason of an ``InvalidActionError`` (code ``bad_action``), with its English template;
``text`` is the text that could not be read."""

ERROR_WORDS: Final[dict[str, Template]] = {**RULES_ERRORS, **ACTION_ERRORS}
"""Every reason of this module, rules' and actions' alike."""

PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")


def placeholders(template: Template) -> set[str]:
    """The placeholder names a template (all its plural forms) uses."""
    forms = [template] if isinstance(template, str) else list(template.values())
    return {name for form in forms for name in PLACEHOLDER.findall(form)}


def choices_text(words: Sequence[str]) -> str:
    """``A``, ``A or B``, ``A, B or C``."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


def substitute(template: Template, words: Mapping[str, str], count: object = None) -> str:
    """A template's form for ``count`` with each placeholder of ``words`` put in."""
    if not isinstance(template, str):
        template = template["one"] if count == 1 else template["other"]
    return PLACEHOLDER.sub(lambda match: words.get(match[1], match[0]), template)


def shown(name: str, value: ParamValue) -> str:
    """A parameter as the English sentence shows it (choices listed, anything else as is)."""
    if name in CHOICE_PARAMS and isinstance(value, list):
        return choices_text(value)
    return str(value)


def error_text(reason: str, params: Mapping[str, ParamValue]) -> str:
    """The English sentence of a ``RulesError``'s or an ``InvalidActionError``'s reason."""
    words = {name: shown(name, value) for name, value in params.items()}
    return substitute(ERROR_WORDS[reason], words, params.get("count"))


def catalogue() -> dict[str, Template]:
    """This module's part of the catalogue area ``refusals``: ``refusals.REASON``."""
    return {f"refusals.{reason}": template for reason, template in ERROR_WORDS.items()}
