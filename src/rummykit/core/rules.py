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
from collections.abc import Mapping
from typing import Any, Final, Literal

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

MIN_SEATS: Final = 2
MAX_SEATS: Final = 6

_ENUMS: Final[dict[str, type[enum.StrEnum]]] = {
    "aces": Aces,
    "layoff": LayOffTiming,
    "go_out": GoOut,
    "rummy_bonus": RummyBonus,
    "scoring": Scoring,
    "renew": Renew,
    "blocked": Blocked,
    "discard_take": DiscardTake,
    "dealer": DealerRotation,
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """Every house rule of a game; the field names and values are the record's.

    The defaults are the ``standard`` preset. Make variants with ``replace`` or
    ``Rules.from_mapping``; a bad value raises ``RulesError`` with the reason.
    """

    hand_size: HandSize = "by_seats"
    """Cards dealt to each seat: ``"by_seats"`` (10 for two, 7 for three or four, 6 for five
    or six) or a number from 6 to 10 for every table size."""
    decks: int = 1
    """Decks shuffled together: 1, or 2 for a larger table."""
    jokers: int = 0
    """Jokers added to the deck, 0 to 4. A joker stands for one card of its meld; a meld
    needs at least two natural cards; a joker on the table stays there for good."""
    aces: Aces = Aces.LOW_OR_HIGH
    """Where an ace may sit in a run (see ``Aces``)."""
    ace_points: int = 1
    """What an ace caught in a hand costs: 1, 11 or 15."""
    layoff: LayOffTiming = LayOffTiming.ANYTIME
    """When a seat may add cards to the melds on the table (see ``LayOffTiming``)."""
    melds_per_turn: int = 0
    """The most new melds one turn may lay down; 0 means no limit. Lay-offs are not limited."""
    go_out: GoOut = GoOut.ANY
    """Whether a seat may go out by a meld or lay-off, or only by a final discard."""
    rummy_bonus: RummyBonus = RummyBonus.NONE
    """What going rummy (out in one turn, nothing laid before) pays."""
    scoring: Scoring = Scoring.WINNER
    """Winner collects (highest total wins) or penalty points (lowest total wins)."""
    target: int = 100
    """The game ends after the deal in which a total reaches this."""
    deals: int | None = None
    """Play exactly this many deals instead of playing to ``target``."""
    renew: Renew = Renew.FLIP
    """How an empty stock is made again from the discard pile."""
    renewals: int | None = None
    """How many times a deal may renew its stock; ``None`` is no limit."""
    blocked: Blocked = Blocked.NO_SCORE
    """How a deal that cannot go on is scored."""
    empty_stock_choice: bool = True
    """A seat facing an empty stock may take the top discard instead of renewing."""
    discard_take: DiscardTake = DiscardTake.TOP
    """Take only the top discard, or any card of the pile with all above it."""
    dealer: DealerRotation = DealerRotation.LEFT
    """Who deals next: the seat on the left, or the last deal's winner."""
    joker_points: int = 15
    """What a joker caught in a hand costs."""

    def __post_init__(self) -> None:
        for name, kind in _ENUMS.items():
            value = getattr(self, name)
            if not isinstance(value, kind):
                try:
                    coerced = kind(value.lower() if isinstance(value, str) else value)
                except ValueError:
                    choices = ", ".join(repr(member.value) for member in kind)
                    raise RulesError(f"{name} must be one of {choices}, not {value!r}.") from None
                object.__setattr__(self, name, coerced)
        self._check_values()

    def _check_values(self) -> None:
        hand = self.hand_size
        if hand != "by_seats" and not (_is_int(hand) and 6 <= int(hand) <= 10):
            raise RulesError(
                f'hand_size must be "by_seats" or a number from 6 to 10, not {hand!r}.'
            )
        self._check_int("decks", 1, 2)
        self._check_int("jokers", 0, 4)
        if self.ace_points not in (1, 11, 15) or not _is_int(self.ace_points):
            raise RulesError(f"ace_points must be 1, 11 or 15, not {self.ace_points!r}.")
        self._check_int("melds_per_turn", 0, None)
        self._check_int("target", 1, None)
        self._check_int("joker_points", 0, None)
        if self.deals is not None:
            self._check_int("deals", 1, None)
        if self.renewals is not None:
            self._check_int("renewals", 0, None)
        if not isinstance(self.empty_stock_choice, bool):
            raise RulesError(
                f"empty_stock_choice must be true or false, not {self.empty_stock_choice!r}."
            )

    def _check_int(self, name: str, low: int, high: int | None) -> None:
        value = getattr(self, name)
        if not _is_int(value) or value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"of at least {low}"
            if high == low + 1:
                span = f"{low} or {high}"
                raise RulesError(f"{name} must be {span}, not {value!r}.")
            raise RulesError(f"{name} must be a whole number {span}, not {value!r}.")

    @property
    def deck_size(self) -> int:
        """How many cards the deck holds: 52 a deck, plus the jokers."""
        return 52 * self.decks + self.jokers

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
        if code >= 52:
            return self.joker_points
        rank = code // 4 + 1
        if rank == 1:
            return self.ace_points
        return 10 if rank >= 10 else rank

    def replace(self, **overrides: Any) -> Rules:
        """A copy with some options changed by name; unknown names raise ``RulesError``."""
        unknown = sorted(set(overrides) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(f"Unknown rule option {unknown[0]!r}; see `rummy rules`.")
        return dataclasses.replace(self, **overrides)

    def to_mapping(self) -> dict[str, object]:
        """Every option by name, with JSON values (enums as their lower-case strings)."""
        result: dict[str, object] = {}
        for name in OPTION_NAMES:
            value = getattr(self, name)
            result[name] = value.value if isinstance(value, enum.Enum) else value
        return result

    @staticmethod
    def from_mapping(data: str | Mapping[str, object]) -> Rules:
        """Rules from a record's ``rules``: a preset name, or ``{"preset": NAME, ...}``."""
        return preset_with_overrides(data)[1]


OPTION_NAMES: Final = tuple(field.name for field in dataclasses.fields(Rules))
"""The names of every rule option, in the record's order."""


@dataclasses.dataclass(frozen=True, slots=True)
class Preset:
    """A named set of house rules, with the table sizes it is made for."""

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

    def check_seats(self, seats: int) -> None:
        """Raise ``RulesError`` unless this preset may be played with ``seats``."""
        if not _is_int(seats) or not self.min_seats <= seats <= self.max_seats:
            span = (
                str(self.min_seats)
                if self.min_seats == self.max_seats
                else f"{self.min_seats} to {self.max_seats}"
            )
            raise RulesError(f"The {self.name} preset is for {span} seats, not {seats!r}.")
        self.rules.check_seats(seats)


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

    Under ``party``, choosing aces ``"low_or_high"`` also makes aces cost 15 unless
    ``ace_points`` is given too, as that site does.
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
    if preset.name == "party" and overrides.get("aces") == "low_or_high":
        overrides.setdefault("ace_points", 15)
    return preset, preset.rules.replace(**overrides)


def describe_rules(preset: Preset, rules: Rules) -> str | dict[str, object]:
    """The record's ``rules`` value: the preset's name, or it with the options that differ."""
    base = preset.rules.to_mapping()
    changed = {name: value for name, value in rules.to_mapping().items() if base[name] != value}
    if not changed:
        return preset.name
    return {"preset": preset.name, **changed}


_NUMBER_RANGES: Final[dict[str, tuple[int, int | None]]] = {
    "decks": (1, 2),
    "jokers": (0, 4),
    "melds_per_turn": (0, None),
    "target": (1, None),
    "deals": (1, None),
    "renewals": (0, None),
    "joker_points": (0, None),
}


def option_values(name: str) -> dict[str, object]:
    """What values an option takes, for forms: its choices, or its number range.

    >>> option_values("aces")["choices"]
    ['low', 'low_or_high', 'around']
    >>> option_values("renewals")
    {'type': 'number', 'min': 0, 'max': None, 'nullable': True}
    """
    if name in _ENUMS:
        return {"type": "choice", "choices": [member.value for member in _ENUMS[name]]}
    if name == "hand_size":
        return {"type": "number", "min": 6, "max": 10, "choices": ["by_seats"]}
    if name == "ace_points":
        return {"type": "choice", "choices": [1, 11, 15]}
    if name == "empty_stock_choice":
        return {"type": "boolean"}
    low, high = _NUMBER_RANGES[name]
    return {"type": "number", "min": low, "max": high, "nullable": name in ("deals", "renewals")}


def parse_option(name: str, text: str) -> object:
    """Read an option's value from command-line text (``renewals=none``, ``target=250``)."""
    if name not in OPTION_NAMES:
        raise RulesError(f"Unknown rule option {name!r}; see `rummy rules`.")
    lowered = text.strip().lower()
    if lowered in ("null", "none") and name in ("deals", "renewals"):
        return None
    if lowered in ("true", "false", "yes", "no", "on", "off"):
        return lowered in ("true", "yes", "on")
    if lowered.lstrip("-").isdigit():
        return int(lowered)
    return lowered
