"""The rule options of straight Rummy, their presets, and overrides by name.

A ``Rules`` value holds every house rule at once and refuses bad values when it is made.

>>> rules = find_preset("standard").rules
>>> rules.aces, rules.renewals
(<Aces.LOW_OR_HIGH: 'low_or_high'>, None)
>>> rules.replace(aces="low").aces
<Aces.LOW: 'low'>
>>> Rules(decks=3)
Traceback (most recent call last):
...
rummykit.core.errors.RulesError: decks must be 1 or 2, not 3.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal, Self

from rummykit.core.cards import JOKER_CODE, NATURAL_COUNT, RANK_OF_CODE
from rummykit.core.errors import RulesError


class Aces(enum.StrEnum):
    """Where an ace may sit in a run."""

    LOW = "low"
    """Only below the two: A-2-3 is a run, Q-K-A is not."""
    LOW_OR_HIGH = "low_or_high"
    """Below the two or above the king (A-2-3 and Q-K-A), never both: K-A-2 is not a run."""
    AROUND = "around"
    """Runs may turn the corner: K-A-2 and Q-K-A-2 are runs."""


class LayOffTiming(enum.StrEnum):
    """When a seat may add cards to melds on the table."""

    ANYTIME = "anytime"
    """On any turn, to any meld, without a meld of one's own."""
    AFTER_MELD = "after_meld"
    """Once the seat has laid a meld of its own in this deal (that turn included)."""
    TURN_AFTER_MELD = "turn_after_meld"
    """From the turn after the seat's first meld of the deal."""


class GoOut(enum.StrEnum):
    """How a seat may empty its hand."""

    ANY = "any"
    """By a meld, a lay-off or a discard."""
    DISCARD = "discard"
    """Only by discarding the last card: melds and lay-offs must leave a card to throw."""


class RummyBonus(enum.StrEnum):
    """What going out in one turn, with nothing laid before, pays."""

    NONE = "none"
    """Nothing more than going out."""
    DOUBLE = "double"
    """The deal's points are doubled."""
    PLUS10 = "plus10"
    """Ten points more (for each hand, under penalty scoring)."""


class Scoring(enum.StrEnum):
    """Who scores a deal, and who wins the game."""

    WINNER = "winner"
    """The seat that goes out collects the others' hands; the highest total wins."""
    PENALTY = "penalty"
    """Every other seat takes its own hand as penalty points; the lowest total wins."""


class Renew(enum.StrEnum):
    """How the discard pile becomes a new stock when the stock runs out."""

    FLIP = "flip"
    """Turned over without shuffling: the first card discarded becomes the top."""
    SHUFFLE = "shuffle"
    """Shuffled, every card of the pile."""
    SHUFFLE_KEEP_TOP = "shuffle_keep_top"
    """Shuffled, all but the top card, which stays as the discard pile."""
    NONE = "none"
    """Never: an empty stock blocks the deal."""


class Blocked(enum.StrEnum):
    """How a blocked deal (the stock gone for good) is settled."""

    NO_SCORE = "no_score"
    """Nobody scores."""
    LOWEST_COLLECTS = "lowest_collects"
    """The lowest hand scores the differences to every other hand; a tie scores nothing."""


class DiscardTake(enum.StrEnum):
    """How much of the discard pile a draw may take."""

    TOP = "top"
    """Only the top card."""
    ANY = "any"
    """Any card with every card above it; the deepest must be played in that turn."""


class DealerRotation(enum.StrEnum):
    """Who deals the next deal."""

    LEFT = "left"
    """The deal passes to the left."""
    WINNER = "winner"
    """The seat that went out deals next; after a blocked deal it passes to the left."""


HandSize = int | Literal["by_seats"]

ChoiceValue = str | int | bool
"""A value an option takes by name: an enum member (a string), a number or a truth value."""

MIN_SEATS: Final = 2
MAX_SEATS: Final = 6

_SPEC_KEY: Final = "rummykit.option"
_TRUTH: Final = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def json_value(value: object) -> object:
    """A rule value as JSON holds it: an enum as its lower-case string, anything else as is."""
    return value.value if isinstance(value, enum.Enum) else value


def _json_text(value: object) -> str:
    return json.dumps(json_value(value))


def _or(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _same(named: ChoiceValue, value: object) -> bool:
    # Names are read case-insensitively; a number never matches a truth value (True == 1).
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

    @property
    def allowed(self) -> str:
        """The values it takes, in words.

        >>> find_option("decks").allowed
        '1 or 2'
        >>> find_option("renewals").allowed
        'a whole number of at least 0 or null'
        """
        if self.kind is OptionKind.BOOLEAN:
            return "true or false"
        words = [_json_text(choice.value) for choice in self.choices]
        if self.minimum is not None:
            most = f" to {self.maximum}" if self.maximum is not None else ""
            least = f"from {self.minimum}" if most else f"of at least {self.minimum}"
            words.append(f"a whole number {least}{most}")
        if self.none is not None:
            words.append("null")
        return ("one of " if len(words) > 2 and self.minimum is None else "") + _or(words)

    def _in_range(self, value: object) -> bool:
        if self.minimum is None or not isinstance(value, int) or isinstance(value, bool):
            return False
        return self.minimum <= value and (self.maximum is None or value <= self.maximum)

    def check(self, value: object) -> object:
        """The value as ``Rules`` holds it (a name becomes its enum member).

        Raises ``RulesError`` naming the option, the values it takes and the value given.
        """
        if value is None and self.none is not None:
            return None
        for choice in self.choices:
            if _same(choice.value, value):
                return choice.value
        if (self.kind is OptionKind.BOOLEAN and isinstance(value, bool)) or self._in_range(value):
            return value
        raise RulesError(f"{self.name} must be {self.allowed}, not {value!r}.")

    def parse(self, text: str) -> object:
        """Read and check a value from command-line text: ``null``, ``15``, ``yes``, ``low``.

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
        elif word.lstrip("-").isdigit():
            value = int(word)
        return self.check(value)

    def label(self, value: object) -> str:
        """What players read for a value: its choice's label, what null means, or the number."""
        if value is None:
            return self.none or "none"
        for choice in self.choices:
            if _same(choice.value, value):
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
    return {_SPEC_KEY: spec}


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
            if _same(leading, value):
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


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """Every house rule of a game; the field names and values are the record's.

    Each option field carries its one description (``option_specs`` lists them). The defaults
    are the ``standard`` preset. Make variants with ``replace`` or ``Rules.from_mapping``; a
    bad value raises ``RulesError`` with the reason.
    """

    hand_size: HandSize = dataclasses.field(
        default="by_seats",
        metadata=describe_option(
            "Cards dealt",
            "How many cards each player gets: by the number of players (10 for two, 7 for three "
            "or four, 6 for five or six), or the same number for everyone.",
            choices=[("by_seats", "By the number of players")],
            minimum=6,
            maximum=10,
        ),
    )
    decks: int = dataclasses.field(
        default=1,
        metadata=describe_option(
            "Decks",
            "Play with one deck, or shuffle two together for a bigger table.",
            choices=[(1, "One deck"), (2, "Two decks")],
        ),
    )
    jokers: int = dataclasses.field(
        default=0,
        metadata=describe_option(
            "Jokers",
            "How many jokers go in the deck. A joker is wild: it can take the place of any one "
            "card in a meld, and it stays on the table once played.",
            minimum=0,
            maximum=4,
        ),
    )
    aces: Aces = dataclasses.field(
        default=Aces.LOW_OR_HIGH,
        metadata=describe_option(
            "Aces in runs",
            "Where an ace may go in a run of one suit: below the two, also above the king, or "
            "round the corner from king to two.",
            choices=[
                (Aces.LOW, "Low only: A-2-3"),
                (Aces.LOW_OR_HIGH, "Low or high: A-2-3 or Q-K-A"),
                (Aces.AROUND, "Round the corner: K-A-2 too"),
            ],
        ),
    )
    ace_points: int = dataclasses.field(
        default=1,
        metadata=describe_option(
            "Cost of an ace",
            "What an ace still in your hand counts when someone goes out.",
            choices=[(1, "1 point"), (11, "11 points"), (15, "15 points")],
        ),
    )
    layoff: LayOffTiming = dataclasses.field(
        default=LayOffTiming.ANYTIME,
        metadata=describe_option(
            "Laying off",
            "When you may add cards from your hand to melds already on the table.",
            choices=[
                (LayOffTiming.ANYTIME, "Any time, even before you have a meld"),
                (LayOffTiming.AFTER_MELD, "Once you have a meld of your own"),
                (LayOffTiming.TURN_AFTER_MELD, "From the turn after your first meld"),
            ],
        ),
    )
    melds_per_turn: int = dataclasses.field(
        default=0,
        metadata=describe_option(
            "Melds per turn",
            "The most new melds you may put down in one turn; 0 means as many as you like. "
            "Adding cards to melds is never limited.",
            minimum=0,
        ),
    )
    go_out: GoOut = dataclasses.field(
        default=GoOut.ANY,
        metadata=describe_option(
            "Going out",
            "How you may get rid of your last card: any way (in a new meld, added to a meld, "
            "or thrown away), or only by discarding it.",
            choices=[
                (GoOut.ANY, "Any way"),
                (GoOut.DISCARD, "Only by discarding it"),
            ],
        ),
    )
    rummy_bonus: RummyBonus = dataclasses.field(
        default=RummyBonus.NONE,
        metadata=describe_option(
            "Going rummy",
            "What you earn for going out in a single turn when you had put nothing down before.",
            choices=[
                (RummyBonus.NONE, "Nothing extra"),
                (RummyBonus.DOUBLE, "The deal's points are doubled"),
                (RummyBonus.PLUS10, "10 points more"),
            ],
        ),
    )
    scoring: Scoring = dataclasses.field(
        default=Scoring.WINNER,
        metadata=describe_option(
            "Scoring",
            "Who scores at the end of a deal, and who wins. Winner collects: whoever goes out "
            "scores the cards left in everyone else's hand. Penalty points: everyone else counts "
            "the cards left in their own hand against them.",
            choices=[
                (Scoring.WINNER, "Winner collects, highest total wins"),
                (Scoring.PENALTY, "Penalty points, lowest total wins"),
            ],
        ),
    )
    target: int = dataclasses.field(
        default=100,
        metadata=describe_option(
            "Game ends at",
            "The game ends after the deal in which someone's total reaches this score.",
            minimum=1,
        ),
    )
    deals: int | None = dataclasses.field(
        default=None,
        metadata=describe_option(
            "Number of deals",
            "Play a set number of deals instead of playing up to the score.",
            minimum=1,
            none="None: play up to the score",
        ),
    )
    renew: Renew = dataclasses.field(
        default=Renew.FLIP,
        metadata=describe_option(
            "Empty stock",
            "What is done with the discard pile when the stock runs out.",
            choices=[
                (Renew.FLIP, "Turn the pile over, without shuffling"),
                (Renew.SHUFFLE, "Shuffle the whole pile"),
                (Renew.SHUFFLE_KEEP_TOP, "Shuffle all of the pile but its top card"),
                (Renew.NONE, "Nothing: the deal is stuck"),
            ],
        ),
    )
    renewals: int | None = dataclasses.field(
        default=None,
        metadata=describe_option(
            "New stocks per deal",
            "How many times in one deal the discard pile may become a new stock. When the stock "
            'runs out after that, the deal stops and is scored as set under "Stuck deal".',
            minimum=0,
            none="No limit: a new stock whenever it runs out",
        ),
    )
    blocked: Blocked = dataclasses.field(
        default=Blocked.NO_SCORE,
        metadata=describe_option(
            "Stuck deal",
            "How a deal is scored when the stock is gone for good: nobody scores, or the "
            "player with the lowest hand scores the difference between it and each other hand "
            "(a tie for lowest scores nothing).",
            choices=[
                (Blocked.NO_SCORE, "Nobody scores"),
                (Blocked.LOWEST_COLLECTS, "Lowest hand collects the differences"),
            ],
        ),
    )
    empty_stock_choice: bool = dataclasses.field(
        default=True,
        metadata=describe_option(
            "Take the discard when the stock is empty",
            "When the stock is empty at the start of your turn, you may take the top discard "
            "instead of making a new stock.",
        ),
    )
    discard_take: DiscardTake = dataclasses.field(
        default=DiscardTake.TOP,
        metadata=describe_option(
            "Taking discards",
            "How much of the discard pile you may pick up. A card taken from deeper in the pile "
            "must go into a meld, or onto one, in that same turn.",
            choices=[
                (DiscardTake.TOP, "The top card only"),
                (DiscardTake.ANY, "Any card, with all the cards above it"),
            ],
        ),
    )
    dealer: DealerRotation = dataclasses.field(
        default=DealerRotation.LEFT,
        metadata=describe_option(
            "Next dealer",
            "Who deals the next deal: the player on the left, or whoever went out (after a "
            "stuck deal, the player on the left).",
            choices=[
                (DealerRotation.LEFT, "The player on the left"),
                (DealerRotation.WINNER, "Whoever went out"),
            ],
        ),
    )
    joker_points: int = dataclasses.field(
        default=15,
        metadata=describe_option(
            "Cost of a joker",
            "What a joker still in your hand counts when someone goes out.",
            minimum=0,
        ),
    )
    ties: tuple[Tie, ...] = dataclasses.field(default=(), compare=False, repr=False)
    """Links between options that ``replace`` keeps (a preset's, see ``Preset.ties``).

    Not a rule option: not in the record, nor in equality."""

    def __post_init__(self) -> None:
        for spec in option_specs(type(self)):
            object.__setattr__(self, spec.name, spec.check(getattr(self, spec.name)))

    @property
    def deck_size(self) -> int:
        """How many cards the deck holds: 52 a deck, plus the jokers."""
        return NATURAL_COUNT * self.decks + self.jokers

    def hand_size_for(self, seats: int) -> int:
        """Cards dealt to each seat at a table of ``seats``."""
        if self.hand_size != "by_seats":
            return int(self.hand_size)
        return 10 if seats == 2 else 7 if seats <= 4 else 6

    def check_seats(self, seats: int) -> None:
        """Raise ``RulesError`` unless a table of ``seats`` can be dealt under these rules."""
        if not _is_int(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
            raise RulesError(f"A table has 2 to 6 seats, not {seats!r}.")
        needed = seats * self.hand_size_for(seats) + 1
        if needed > self.deck_size:
            decks = "one deck" if self.decks == 1 else "two decks"
            raise RulesError(
                f"{seats} seats with {self.hand_size_for(seats)} cards each need {needed} cards "
                f"with the up-card, but {decks} with {self.jokers} jokers hold {self.deck_size}."
            )

    def card_points(self, code: int) -> int:
        """What the card with this code costs when caught in a hand."""
        if code == JOKER_CODE:
            return self.joker_points
        rank = RANK_OF_CODE[code]
        if rank == 1:
            return self.ace_points
        return 10 if rank >= 10 else rank

    def replace(self, **overrides: Any) -> Self:
        """A copy with some options changed by name; unknown names raise ``RulesError``.

        The ties these rules carry are kept: under ``party``, aces set ``"low_or_high"`` make
        an ace cost 15 unless ``ace_points`` is set in the same call.
        """
        unknown = sorted(set(overrides) - set(option_names(type(self))))
        if unknown:
            raise RulesError(f"Unknown rule option {unknown[0]!r}; see `rummy rules`.")
        changes = dict(overrides)
        for tie in self.ties:
            if tie.option in overrides and tie.follower not in overrides:
                followed = tie.follower_value(overrides[tie.option])
                if followed is not None:
                    changes[tie.follower] = followed
        return dataclasses.replace(self, **changes)

    def to_mapping(self) -> dict[str, object]:
        """Every option by name, with JSON values (enums as their lower-case strings)."""
        return {name: json_value(getattr(self, name)) for name in option_names(type(self))}

    @staticmethod
    def from_mapping(data: str | Mapping[str, object]) -> Rules:
        """Rules from a record's ``rules``: a preset name, or ``{"preset": NAME, ...}``."""
        return preset_with_overrides(data)[1]


_SPECS: Final[dict[type[Rules], tuple[OptionSpec, ...]]] = {}


def option_specs(rules_type: type[Rules] = Rules) -> tuple[OptionSpec, ...]:
    """The description of every rule option of ``rules_type``, in the record's order.

    Read from the fields' metadata, so a field described with ``describe_option(...)``, in
    ``Rules`` or a subclass, is listed, checked, parsed and shown everywhere without another
    edit.
    """
    specs = _SPECS.get(rules_type)
    if specs is None:
        specs = tuple(
            dataclasses.replace(field.metadata[_SPEC_KEY], name=field.name)
            for field in dataclasses.fields(rules_type)
            if _SPEC_KEY in field.metadata
        )
        _SPECS[rules_type] = specs
    return specs


def option_names(rules_type: type[Rules] = Rules) -> tuple[str, ...]:
    """The names of the rule options of ``rules_type``, in the record's order."""
    return tuple(spec.name for spec in option_specs(rules_type))


def find_option(name: str, rules_type: type[Rules] = Rules) -> OptionSpec:
    """The description of the option of this name; ``RulesError`` if there is none."""
    for spec in option_specs(rules_type):
        if spec.name == name:
            return spec
    raise RulesError(f"Unknown rule option {name!r}; see `rummy rules`.")


OPTION_NAMES: Final = option_names(Rules)
"""The names of every rule option, in the record's order."""


def parse_option(name: str, text: str) -> object:
    """Read an option's value from command-line text (``renewals=none``, ``target=250``).

    >>> parse_option("target", "250"), parse_option("aces", "LOW")
    (250, <Aces.LOW: 'low'>)
    """
    return find_option(name).parse(text)


@dataclasses.dataclass(frozen=True, slots=True)
class Offer:
    """The choices a preset's settings give for one option, in place of the option's own."""

    option: str
    """The option's name."""
    choices: tuple[Choice, ...]
    """The values offered, each with what it means under this preset."""
    help: str = ""
    """What the option does under this preset, in place of its own help; empty: the same."""


@dataclasses.dataclass(frozen=True, slots=True)
class Preset:
    """A named set of house rules, with the table sizes it is made for.

    Its ``offers`` and ``ties`` are data too: the party site's own renewal choices, and its
    "aces high cost 15". The ties travel with ``rules``, so ``preset.rules.replace(...)``
    keeps them.
    """

    name: str
    """The preset's name in records and on the command line."""
    rules: Rules
    """Its value for every option."""
    min_seats: int
    """The fewest seats it may be played with."""
    max_seats: int
    """The most seats it may be played with."""
    summary: str
    """One line for people: where the preset comes from and what marks it out."""
    offers: tuple[Offer, ...] = ()
    """Options whose settings offer the preset's own choices (the party site's renewals)."""
    ties: tuple[Tie, ...] = ()
    """Links between options that its rules keep however they are changed."""

    def __post_init__(self) -> None:
        rules_type = type(self.rules)
        for offer in self.offers:
            spec = find_option(offer.option, rules_type)
            for choice in offer.choices:
                spec.check(choice.value)
        for tie in self.ties:
            leader = find_option(tie.option, rules_type)
            follower = find_option(tie.follower, rules_type)
            for lead, follow in tie.values:
                leader.check(lead)
                follower.check(follow)
        object.__setattr__(self, "rules", dataclasses.replace(self.rules, ties=self.ties))

    def check_seats(self, seats: int) -> None:
        """Raise ``RulesError`` unless this preset may be played with ``seats``."""
        if not _is_int(seats) or not self.min_seats <= seats <= self.max_seats:
            raise RulesError(
                f"The {self.name} preset is for {self.seats_text} seats, not {seats!r}."
            )
        self.rules.check_seats(seats)

    @property
    def seats_text(self) -> str:
        """Its table sizes in words: ``2`` or ``2 to 6``."""
        if self.min_seats == self.max_seats:
            return str(self.min_seats)
        return f"{self.min_seats} to {self.max_seats}"

    def offer(self, name: str) -> Offer | None:
        """The preset's own choices for an option, or ``None`` where it has none."""
        return next((offer for offer in self.offers if offer.option == name), None)

    def form(self) -> list[dict[str, object]]:
        """The settings form of this preset: every option as JSON, with its default here.

        Each field is the option's description with the values this preset offers. A
        preset's own choices replace the option's. ``null`` is offered only where the
        preset's own value is null: a deal without end is a preset's choice, never one a
        form adds. A number range beside named values (``hand_size``) is spelt out as
        choices.
        """
        fields = []
        for spec in option_specs(type(self.rules)):
            default = getattr(self.rules, spec.name)
            field = {**spec.to_json(), "default": json_value(default)}
            own = self.offer(spec.name)
            choices = spec.choices
            if own is not None:
                choices = own.choices
                field["help"] = own.help or spec.help
            elif spec.kind is OptionKind.NUMBER_OR_CHOICE and spec.maximum is not None:
                numbers = range(spec.minimum or 0, spec.maximum + 1)
                choices = (*choices, *(Choice(number, str(number)) for number in numbers))
            if choices is not spec.choices:
                field.update(kind=OptionKind.CHOICE.value, min=None, max=None, none=None)
                field["choices"] = [choice.to_json() for choice in choices]
            elif default is not None:
                field["none"] = None
            fields.append(field)
        return fields

    def to_json(self) -> dict[str, object]:
        """The preset for forms: summary, seats, rules, ties and its settings form."""
        return {
            "summary": self.summary,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "rules": self.rules.to_mapping(),
            "ties": [tie.to_json() for tie in self.ties],
            "form": self.form(),
        }


PARTY_ACES: Final = Tie(
    "aces",
    "ace_points",
    ((Aces.LOW, 1), (Aces.LOW_OR_HIGH, 15)),
    "With aces allowed above the king (Q-K-A), an ace left in your hand costs 15 points; "
    "with aces low only, it costs 1.",
)
"""The party site's link: aces allowed high make an ace cost 15 (003's house rules)."""

_PARTY_RENEWALS: Final = Offer(
    "renewals",
    (
        Choice(15, "No limit (a deal stops after 15)"),
        Choice(1, "Once"),
        Choice(3, "Three times"),
    ),
    "How many times in one deal the discard pile may be shuffled into a new stock. When the "
    "stock runs out after the last one, the deal stops and is scored as a stuck deal. Even "
    "with no limit, a deal stops when its stock runs out after 15 new stocks, so that no deal "
    "goes on for ever.",
)

PRESETS: Final[dict[str, Preset]] = {
    preset.name: preset
    for preset in (
        Preset(
            "classic",
            Rules(
                aces=Aces.LOW,
                rummy_bonus=RummyBonus.DOUBLE,
                renewals=1,
                empty_stock_choice=False,
            ),
            2,
            6,
            "Aces low, the pile turned over once and then the deal is blocked, "
            "going rummy pays double.",
        ),
        Preset(
            "standard",
            Rules(),
            2,
            6,
            "The reference rules: aces low or high, the pile turned over as often as needed, "
            "and you may take the top discard instead when the stock is gone.",
        ),
        Preset(
            "practice",
            Rules(renewals=1, blocked=Blocked.LOWEST_COLLECTS, empty_stock_choice=False),
            2,
            2,
            "Two players; the pile is turned over once, then the lower hand collects "
            "the difference.",
        ),
        Preset(
            "party",
            Rules(
                aces=Aces.LOW,
                rummy_bonus=RummyBonus.DOUBLE,
                renew=Renew.SHUFFLE_KEEP_TOP,
                renewals=15,
                empty_stock_choice=False,
            ),
            2,
            6,
            "Aces low, the pile but its top card shuffled into a new stock up to 15 times, "
            "going rummy pays double.",
            offers=(_PARTY_RENEWALS,),
            ties=(PARTY_ACES,),
        ),
    )
}
"""The four presets by name: the house rules of each rule text the project is built on."""


def find_preset(name: str) -> Preset:
    """The preset of this name (case-insensitive); ``RulesError`` if there is none."""
    preset = PRESETS.get(name.strip().lower()) if isinstance(name, str) else None
    if preset is None:
        raise RulesError(f"Unknown preset {name!r}: choose one of {', '.join(PRESETS)}.")
    return preset


def preset_with_overrides(data: str | Mapping[str, object]) -> tuple[Preset, Rules]:
    """Read a record's ``rules``: the base preset and the rules it makes.

    The overrides go through ``Rules.replace``, so the preset's ties hold: under ``party``,
    aces ``"low_or_high"`` also make aces cost 15 unless ``ace_points`` is given too.
    """
    if isinstance(data, str):
        preset = find_preset(data)
        return preset, preset.rules
    if not isinstance(data, Mapping):
        raise RulesError("rules must be a preset name or an object with a preset and options.")
    overrides = dict(data)
    name = overrides.pop("preset", None)
    if not isinstance(name, str):
        raise RulesError('rules must name its "preset".')
    preset = find_preset(name)
    return preset, preset.rules.replace(**overrides)


def describe_rules(preset: Preset, rules: Rules) -> str | dict[str, object]:
    """The record's ``rules`` value: the preset's name, or it with the options that differ."""
    base = preset.rules.to_mapping()
    changed = {name: value for name, value in rules.to_mapping().items() if base[name] != value}
    if not changed:
        return preset.name
    return {"preset": preset.name, **changed}
