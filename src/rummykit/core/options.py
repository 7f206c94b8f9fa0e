"""How a rule option is described, once: its title, help, values and links to other options.

A ``Rules`` field carries an ``OptionSpec`` in its metadata (``describe_option``); the checks,
the command line, ``rummy rules``, ``/api/options`` and the table's settings form all read it.
A ``Tie`` links two options for a preset (setting one also sets the other).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Sequence
from typing import Final

from rummykit.core.actions import whole_number
from rummykit.core.errors import RulesError

ChoiceValue = str | int | bool
"""A value an option takes by name: an enum member (a string), a number or a truth value."""

OPTION_METADATA_KEY: Final = "rummykit.option"
"""The key of a ``Rules`` field's metadata that holds its ``OptionSpec``."""
_TRUTH: Final = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}


def is_whole_number(value: object) -> bool:
    """Whether ``value`` is an ``int`` (``True`` and ``False`` are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def json_value(value: object) -> object:
    """A rule value as JSON holds it: an enum as its lower-case string, anything else as is."""
    return value.value if isinstance(value, enum.Enum) else value


def _json_text(value: object) -> str:
    return json.dumps(json_value(value))


def value_text(value: object) -> str:
    """A value as a refusal shows what was given: its JSON text (``3``, ``"far"``, ``null``).

    >>> value_text("far"), value_text(None), value_text(2.5)
    ('"far"', 'null', '2.5')
    """
    return json.dumps(json_value(value), ensure_ascii=False, default=repr)


def matches_choice(named: ChoiceValue, value: object) -> bool:
    """Whether ``value`` is the named value: names case-insensitively, ``True`` never ``1``."""
    if isinstance(named, str):
        return isinstance(value, str) and value.lower() == named
    return type(value) is type(named) and value == named


class OptionKind(enum.StrEnum):
    """What sort of value an option takes, as a form shows it."""

    CHOICE = "choice"
    """One of a few named values."""
    NUMBER = "number"
    """A whole number in a range."""
    NUMBER_OR_CHOICE = "number_or_choice"
    """A whole number in a range, or one of a few named values (``hand_size``)."""
    BOOLEAN = "boolean"
    """On or off."""


@dataclasses.dataclass(frozen=True, slots=True)
class Choice:
    """One value an option may take, with its label for players."""

    value: ChoiceValue
    """The value, as ``Rules`` holds it."""
    label: str
    """What a form or ``rummy rules`` shows for it."""

    def to_json(self) -> dict[str, object]:
        """``{"value": ..., "label": ...}`` with a JSON value."""
        return {"value": json_value(self.value), "label": self.label}


@dataclasses.dataclass(frozen=True, slots=True)
class OptionSpec:
    """Everything said about one rule option, said once.

    The checks of ``Rules``, ``parse_option``, ``rummy rules`` and the table's settings form all
    read it. Its kind follows from what it holds: choices, a number range, both, or neither
    (a truth value).
    """

    title: str
    """A short label for forms and tables."""
    help: str
    """One or two sentences for players: what the option decides."""
    choices: tuple[Choice, ...] = ()
    """The named values it takes, each with its label."""
    minimum: int | None = None
    """The least whole number it takes; ``None`` if it takes no numbers."""
    maximum: int | None = None
    """The greatest whole number it takes; ``None`` is no upper bound."""
    none: str | None = None
    """Set if ``None`` (JSON ``null``) is allowed: what it means, as a label for players."""
    name: str = ""
    """The option's name, its ``Rules`` field; filled in by ``option_specs``."""

    @property
    def kind(self) -> OptionKind:
        """Choice, number, number or choice, or boolean."""
        if self.minimum is None:
            return OptionKind.CHOICE if self.choices else OptionKind.BOOLEAN
        return OptionKind.NUMBER_OR_CHOICE if self.choices else OptionKind.NUMBER

    def refusal(self, value: object) -> RulesError:
        """The ``RulesError`` for a value this option does not take.

        Its params: the option's name, the values it takes (``choices``, ``min``, ``max``;
        ``null`` among the choices where allowed) and the value given, as JSON text.

        >>> from rummykit.core.rules import find_option
        >>> str(find_option("decks").refusal(3))
        'decks must be 1 or 2, not 3.'
        >>> str(find_option("renewals").refusal(-1))
        'renewals must be a whole number from 0 to 100 or null, not -1.'
        """
        given = value_text(value)
        if self.kind is OptionKind.BOOLEAN:
            return RulesError("option_boolean", option=self.name, value=given)
        choices = [_json_text(choice.value) for choice in self.choices]
        if self.none is not None:
            choices.append("null")
        if self.minimum is None:
            return RulesError("option_choice", option=self.name, choices=choices, value=given)
        least = self.minimum
        if self.maximum is None and choices:
            return RulesError(
                "option_least_or", option=self.name, min=least, choices=choices, value=given
            )
        if self.maximum is None:
            return RulesError("option_least", option=self.name, min=least, value=given)
        most = self.maximum
        if choices:
            return RulesError(
                "option_number_or",
                option=self.name,
                min=least,
                max=most,
                choices=choices,
                value=given,
            )
        return RulesError("option_number", option=self.name, min=least, max=most, value=given)

    def _in_range(self, value: object) -> bool:
        if self.minimum is None or not isinstance(value, int) or isinstance(value, bool):
            return False
        return self.minimum <= value and (self.maximum is None or value <= self.maximum)

    def check(self, value: object) -> object:
        """The value as ``Rules`` holds it (a name becomes its enum member).

        Raises ``RulesError`` naming the option, the values it takes and the value given
        (``refusal``).
        """
        if value is None and self.none is not None:
            return None
        for choice in self.choices:
            if matches_choice(choice.value, value):
                return choice.value
        if (self.kind is OptionKind.BOOLEAN and isinstance(value, bool)) or self._in_range(value):
            return value
        raise self.refusal(value)

    def parse(self, text: str) -> object:
        """Read and check a value from command-line text: ``null``, ``15``, ``yes``, ``low``.

        >>> from rummykit.core.rules import find_option
        >>> find_option("renewals").parse("none") is None
        True
        >>> find_option("renew").parse("None")
        <Renew.NONE: 'none'>
        """
        word = text.strip().lower()
        value: object = word
        if word in ("null", "none") and self.none is not None:
            value = None
        elif self.kind is OptionKind.BOOLEAN and word in _TRUTH:
            value = _TRUTH[word]
        elif whole_number(word) is not None:
            value = whole_number(word)
        return self.check(value)

    def label(self, value: object) -> str:
        """What players read for a value: its choice's label, what null means, or the number."""
        if value is None:
            return self.none or "none"
        for choice in self.choices:
            if matches_choice(choice.value, value):
                return choice.label
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(json_value(value))

    def to_json(self) -> dict[str, object]:
        """The description as JSON, for forms."""
        return {
            "name": self.name,
            "title": self.title,
            "help": self.help,
            "kind": self.kind.value,
            "choices": [choice.to_json() for choice in self.choices],
            "min": self.minimum,
            "max": self.maximum,
            "none": self.none,
        }


def describe_option(
    title: str,
    help: str,
    *,
    choices: Sequence[tuple[ChoiceValue, str]] = (),
    minimum: int | None = None,
    maximum: int | None = None,
    none: str | None = None,
) -> dict[str, OptionSpec]:
    """A ``Rules`` field's metadata: its one description, an ``OptionSpec``.

    Adding a rule option is one field, ``dataclasses.field(default=...,
    metadata=describe_option(...))``, plus the engine's use of it and its test.
    """
    spec = OptionSpec(
        title,
        help,
        tuple(Choice(value, label) for value, label in choices),
        minimum,
        maximum,
        none,
    )
    return {OPTION_METADATA_KEY: spec}


@dataclasses.dataclass(frozen=True, slots=True)
class Tie:
    """A preset's link between two options: setting ``option`` also sets ``follower``.

    The follower takes the value paired with the option's new value, unless the same change
    sets the follower too; values not paired leave it alone.
    """

    option: str
    """The option that leads."""
    follower: str
    """The option that follows it."""
    values: tuple[tuple[ChoiceValue, ChoiceValue], ...]
    """Pairs: a value of ``option``, and the value ``follower`` takes with it."""
    reason: str
    """The link in a sentence for players."""

    def follower_value(self, value: object) -> ChoiceValue | None:
        """What the follower becomes when the option is set to ``value``; ``None``: unchanged."""
        for leading, following in self.values:
            if matches_choice(leading, value):
                return following
        return None

    def to_json(self) -> dict[str, object]:
        """The link as JSON, for forms that show the follower's value as it will be."""
        return {
            "option": self.option,
            "follower": self.follower,
            "values": [[json_value(lead), json_value(follow)] for lead, follow in self.values],
            "reason": self.reason,
        }
