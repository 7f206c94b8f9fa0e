"""The closed vocabularies of the wire: each one read from where its words are defined.

A word that travels as a string but may only be one of a known few (a refusal's reason, an
event's kind) is typed here, so that the JSON Schema lists the words and a model refuses any
other. None of these lists is written twice: each is read, when the module is imported, from
the one place that defines the words (the dicts of reasons with their English templates, the
table's words), so that a word added there is on the wire and in the schema at once.

The core's enums (``Phase``, ``MeldKind``, ``DealResult``, ``OptionKind``) travel as
themselves (``PhaseName``...: read from their values in Python too); the vocabularies whose
source is a dict or a registry of words (refusals' reasons, the table's kinds, presets, rule
options) are typed with ``OneOf``. The server's codes are enums of ``rummykit.protocol.codes``,
the computer levels ``rummykit.protocol.facts.BotLevel``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal, TypeAlias

import pydantic
from pydantic import Field, GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from rummykit.bots.hint_words import ADVICE, REASONS
from rummykit.core.deal import DealResult, Phase
from rummykit.core.melds import MeldKind
from rummykit.core.options import OptionKind
from rummykit.core.presets import PRESETS
from rummykit.core.rules import option_specs
from rummykit.protocol.account_words import ACCOUNT_REFUSALS
from rummykit.protocol.event_words import ACTION_EVENTS, EVENTS, NOTICES
from rummykit.protocol.party_words import PARTY_REFUSALS
from rummykit.protocol.table_refusals import ALL_REFUSALS
from rummykit.review.marks import Mark


@dataclass(frozen=True)
class OneOf:
    """Marks a ``str`` that must be one of ``words``: ``Annotated[str, OneOf(words, about)]``.

    It validates as a JSON Schema ``enum`` of strings (strictly: nothing but one of the words
    is taken, in Python as in JSON), and the schema lists the words, sorted, with ``about``
    as its description. Python code sees a plain ``str``.
    """

    words: tuple[str, ...]
    """The words, sorted."""
    about: str
    """What the words are, and where they are defined (the schema's description)."""

    def __init__(self, words: Iterable[str], about: str) -> None:
        """The vocabulary of ``words`` (any order, repeats ignored)."""
        object.__setattr__(self, "words", tuple(sorted(set(words))))
        object.__setattr__(self, "about", about)

    def __get_pydantic_core_schema__(
        self, source: type[Any], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """A literal of the words: one of them, as a string."""
        return core_schema.literal_schema(list(self.words))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """``{"type": "string", "enum": [...]}`` with what the words are."""
        json_schema = handler(schema)
        json_schema["description"] = self.about
        return json_schema


REFUSAL_REASONS: Final[frozenset[str]] = frozenset(ALL_REFUSALS) | frozenset(PARTY_REFUSALS)
"""Every reason a ``refused`` message may carry: the rules', the table's
(``rummykit.protocol.table_refusals.ALL_REFUSALS``) and, on a party's socket, the party's
(``rummykit.protocol.party_words.PARTY_REFUSALS``)."""

RefusalReason = Annotated[
    str,
    OneOf(
        REFUSAL_REASONS,
        "The finer, stable reason of a refused intent: a key of "
        "rummykit.protocol.table_refusals.ALL_REFUSALS (the rules' and the table's) or of "
        "rummykit.protocol.party_words.PARTY_REFUSALS (a party's).",
    ),
]
"""A ``refused`` message's reason."""

PartyReason = Annotated[
    str,
    OneOf(
        PARTY_REFUSALS,
        "Why a party refused: a key of rummykit.protocol.party_words.PARTY_REFUSALS.",
    ),
]
"""A party's refusal's reason (``PartyRefusal``)."""

AccountReason = Annotated[
    str,
    OneOf(
        ACCOUNT_REFUSALS,
        "Why an account request was refused: a key of "
        "rummykit.protocol.account_words.ACCOUNT_REFUSALS.",
    ),
]
"""An account's refusal's reason (``AccountRefusal``)."""

EventKind = Annotated[
    str,
    OneOf(
        ACTION_EVENTS,
        "What an action just played says: a key of rummykit.protocol.event_words.ACTION_EVENTS.",
    ),
]
"""An ``event`` frame's kind."""

NoticeKind = Annotated[
    str,
    OneOf(
        NOTICES,
        "What the table says that no action says: a key of rummykit.protocol.event_words.NOTICES.",
    ),
]
"""A ``notice`` frame's kind."""

LineKind = Annotated[
    str,
    OneOf(
        EVENTS,
        "A line of a deal's story: an action's event, the deal's own lines, or a notice (a key "
        "of rummykit.protocol.event_words.EVENTS).",
    ),
]
"""A ``log`` line's kind, and a replay frame's."""

HintKind = Annotated[
    str,
    OneOf(REASONS, "Why a hint advises what it does: a key of rummykit.bots.hint_words.REASONS."),
]
"""A hint's reason, as a kind (``Advice.kind``)."""

AdviceKind = Annotated[
    str,
    OneOf(ADVICE, "What a hint advises, as a kind: a key of rummykit.bots.hint_words.ADVICE."),
]
"""A hint's advice, as a kind (``Advice.action_kind``)."""

_BY_VALUE: Final = Field(strict=False)
"""An enum of the core's, read from its value in Python as well as in JSON (``"draw"`` for
``Phase.DRAW``): the page's frames, read back by a client or a test, are plain dicts."""

PhaseName = Annotated[Phase, _BY_VALUE]
"""Where the seat to act stands (``rummykit.core.deal.Phase``)."""

MeldKindName = Annotated[MeldKind, _BY_VALUE]
"""A meld's kind (``rummykit.core.melds.MeldKind``)."""

DealResultName = Annotated[DealResult, _BY_VALUE]
"""How a deal ended (``rummykit.core.deal.DealResult``)."""

MarkName = Annotated[Mark, pydantic.Strict(False)]
"""A review's mark (``rummykit.review.Mark``), by its value in Python as in JSON (also as a
dict's key, where a field's ``strict`` does not reach)."""


class Theme(enum.StrEnum):
    """What a puzzle asks, as a code (the word catalogues name each one for players).

    Lessons end in puzzles of a theme (``rummykit.protocol.lessons``).
    """

    GO_OUT = "go_out"
    """The best choice goes out this turn (or ends the deal with a knock), or is the step of
    this turn that leads to it (taking the discard that completes the hand, a meld before the
    last card goes)."""
    DISCARD = "discard"
    """In the play phase, the best choice is which card to throw."""
    DRAW = "draw"
    """In the draw phase: take the top discard, or the unknown card of the stock."""
    LAY_OFF = "lay_off"
    """The best choice adds a card to a meld on the table (under knock rummy, shedding
    deadwood before the knock counts the hands)."""


PracticeTopic: TypeAlias = Literal[
    "draw",
    "empty_stock",
    "meld",
    "layoff",
    "no_throwback",
    "discard",
    "renewed",
    "blocked",
    "rummy",
    "out",
]
"""A rule the practice game explains when it first comes up (``SeatView.topics``, made by
``rummykit.protocol.views.practice_topics``; the page's words are ``practice.TOPIC``)."""

OptionKindName = Annotated[OptionKind, _BY_VALUE]
"""How a form shows a rule option (``rummykit.core.options.OptionKind``)."""

RuleOption = Annotated[
    str,
    OneOf(
        (spec.name for spec in option_specs()),
        "A rule option's name: a field of rummykit.core.rules.Rules.",
    ),
]
"""A rule option's name, in an answer (``rummykit.core.rules.option_specs``). A request's
names are read as any short string, for the rules to say what is wrong with one."""

PresetName = Annotated[
    str, OneOf(PRESETS, "A preset's name: a key of rummykit.core.presets.PRESETS.")
]
"""A preset's name, in an answer about the rules in play (``rummykit.core.presets.PRESETS``).
A finished game's stored summary keeps the name it had (a plain string)."""
