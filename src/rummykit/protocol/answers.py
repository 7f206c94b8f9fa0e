"""The HTTP API's answers made of the core's data: the options, a game's record and replay.

``GET /api/options`` (``OptionsAnswer``): the presets, the rule options with a line each, the
computer levels, the turn timers and the quick reactions, for the settings forms; all of it
read from the core's descriptions (``rummykit.core.options``, ``rummykit.core.presets``):
the page keeps no list of options, labels or limits of its own. ``options_answer`` makes it.

``GET /api/games/{id}/record`` (``GameRecordAnswer``): a finished game's record, as
docs/RECORD.md says it (``rummykit.core.record.GameRecord.to_json``).

``GET /api/games/{id}/frames`` (``ReplayAnswer``): a finished game, position by position, for
the replay viewer (``rummykit.server.tables.frames`` makes it).

An answer whose source leaves a key out (a deal without a seed, a frame that ends no deal) is
sent without it: dump these with ``exclude_unset=True``.
"""

from __future__ import annotations

import functools
from typing import Annotated

from pydantic import Field

from rummykit.core.options import json_value
from rummykit.core.presets import PRESETS
from rummykit.core.record import FORMAT
from rummykit.core.rules import option_specs
from rummykit.protocol.facts import BOT_LEVELS, TURN_TIMERS, BotLevel, RuleValue, TurnTimer
from rummykit.protocol.messages import REACTIONS, CardText, Params, Reaction, Seat, Strict
from rummykit.protocol.settings import RecordRules
from rummykit.protocol.vocabularies import (
    DealResultName,
    LineKind,
    OneOf,
    OptionKindName,
    PhaseName,
    PresetName,
    RuleOption,
)

# ----- GET /api/options ----------------------------------------------------------------------


class ChoiceAnswer(Strict):
    """One value an option offers, with its label for players."""

    value: RuleValue
    label: str


class OptionAnswer(Strict):
    """A rule option as a form shows it (``rummykit.core.options.OptionSpec.to_json``)."""

    name: RuleOption
    title: str
    """A short label."""
    help: str
    """One or two sentences for players: what the option decides."""
    kind: OptionKindName
    choices: list[ChoiceAnswer]
    """The named values it takes (a ``choice`` option's only values)."""
    min: int | None
    """The least whole number it takes; null if it takes no numbers."""
    max: int | None
    """The greatest whole number it takes; null: no upper bound."""
    none: str | None
    """What null means, where null is allowed."""


class OptionDefaults(OptionAnswer):
    """A rule option of ``GET /api/options``, with its value under each preset."""

    defaults: dict[PresetName, RuleValue]
    """The option's value under each preset."""


class FormField(OptionAnswer):
    """A field of a preset's settings form: the option with the values the preset offers."""

    default: RuleValue
    """The preset's own value."""


class TieAnswer(Strict):
    """A link between two options: the follower's value follows the leader's."""

    option: RuleOption
    """The leading option."""
    follower: RuleOption
    """The option whose value follows."""
    values: list[Annotated[list[RuleValue], Field(min_length=2, max_length=2)]]
    """Pairs ``[leader's value, follower's value]``."""
    reason: str
    """Why, in a sentence for players."""


class HouseRule(Strict):
    """A house rule a preset lets its host choose, with its choices."""

    option: RuleOption
    choices: list[ChoiceAnswer]


class PresetAnswer(Strict):
    """A preset for the forms (``rummykit.core.presets.Preset.to_json``)."""

    summary: str
    min_seats: int
    max_seats: int
    rules: dict[RuleOption, RuleValue]
    """Every option's value under the preset."""
    ties: list[TieAnswer]
    form: list[FormField]
    """Its settings form."""
    house: list[HouseRule]


class OptionsAnswer(Strict):
    """The answer to ``GET /api/options``: what the settings forms offer."""

    presets: dict[PresetName, PresetAnswer]
    options: list[OptionDefaults]
    levels: list[BotLevel]
    """The computer players a table can seat, weakest first."""
    turn_timers: list[TurnTimer]
    """The turn timers a table may have (besides none), in seconds."""
    reactions: dict[Reaction, str]
    """The quick reactions, in the order the page offers them, each in English."""


@functools.cache
def options_answer() -> OptionsAnswer:
    """The answer to ``GET /api/options``, read from the core's descriptions (made once)."""
    return OptionsAnswer.model_validate(
        {
            "presets": {name: preset.to_json() for name, preset in PRESETS.items()},
            "options": [
                {
                    **spec.to_json(),
                    "defaults": {
                        name: json_value(getattr(preset.rules, spec.name))
                        for name, preset in PRESETS.items()
                    },
                }
                for spec in option_specs()
            ],
            "levels": list(BOT_LEVELS),
            "turn_timers": list(TURN_TIMERS),
            "reactions": REACTIONS,
        }
    )


# ----- GET /api/games/{id}/record ------------------------------------------------------------

RecordFormat = Annotated[str, OneOf((FORMAT,), "The record's format: rummykit.core.record.FORMAT.")]
"""The format a record is written in (``rummykit.core.record.FORMAT``)."""


class RecordDeal(Strict):
    """One deal of a record: who dealt, the deck as dealt, and the actions in order."""

    dealer: Seat
    deck: list[CardText]
    """The deck, top card first."""
    actions: list[str]
    """The actions in record notation, with their seats."""
    reshuffles: list[list[CardText]]
    """Each new stock made from the discard pile, in the order it was turned over."""
    seed: int | None = None
    """The seed of a shuffled renewal (absent when none was seeded)."""


class GameRecordAnswer(Strict):
    """The answer to ``GET /api/games/{id}/record``: a finished game's record (docs/RECORD.md)."""

    format: RecordFormat
    rules: RecordRules
    """A preset's name, or ``{"preset": NAME, OPTION: VALUE, ...}``."""
    players: list[str]
    deals: list[RecordDeal]


# ----- GET /api/games/{id}/frames ------------------------------------------------------------


class ReplayMeld(Strict):
    """A meld on the table in a replay's position."""

    owner: Seat
    cards: list[CardText]
    """Its cards as laid, a joker written ``X=6h``."""


class ReplayLaidOut(Strict):
    """Knock rummy: one hand spread at the deal's end."""

    melds: list[list[CardText]]
    deadwood: list[CardText]
    value: int


class ReplayDealResult(Strict):
    """How the deal of a frame that ends it ended."""

    result: DealResultName | None
    winner: Seat | None
    points: list[int]
    knocker: Seat | None


class ReplayLine(Strict):
    """A notice of a frame: a kind and its parameters, worded by the page."""

    kind: LineKind
    params: Params


class ReplayFrame(Strict):
    """One position of a replay (docs/RECORD.md's ``state``), with what just happened."""

    deal: int
    turn: Seat
    phase: PhaseName
    hands: list[list[CardText]]
    """Every hand, seat by seat, sorted: a finished game shows them all."""
    melds: list[ReplayMeld]
    discard: list[CardText]
    """The discard pile, bottom first."""
    stock: list[CardText]
    """The stock, its top card first."""
    laid_out: list[ReplayLaidOut] | None = None
    """Knock rummy, at a deal's end: every hand spread (absent otherwise)."""
    scores: list[int]
    text: str
    """What just happened, in English."""
    kind: LineKind
    """What just happened, as a kind (a deal dealt, an action played)."""
    params: Params
    deal_result: ReplayDealResult | None = None
    """At a deal's end: how it ended (absent otherwise)."""
    notices: list[ReplayLine]
    """What the stock said after it, and the deal's end."""


class ReplayAnswer(Strict):
    """The answer to ``GET /api/games/{id}/frames``: a finished game, position by position."""

    players: list[str]
    rules: dict[RuleOption, RuleValue]
    """The game's rules, every option (the page words a rummy's bonus by them)."""
    frames: list[ReplayFrame]
