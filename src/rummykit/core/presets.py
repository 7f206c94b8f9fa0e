"""The presets: the house rules of each rule text the project is built on, by name.

>>> rules = find_preset("standard").rules
>>> rules.aces, rules.renewals
(<Aces.LOW_OR_HIGH: 'low_or_high'>, None)
>>> find_preset("party").rules.replace(aces="low_or_high").ace_points
15
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final

from rummykit.core.errors import RulesError
from rummykit.core.options import (
    Choice,
    ChoiceValue,
    OptionKind,
    Tie,
    is_whole_number,
    json_value,
    matches_choice,
    value_text,
)
from rummykit.core.rules import (
    BY_SEATS,
    BY_SEATS_500,
    MAX_SEATS,
    Aces,
    Blocked,
    DiscardTake,
    GoOut,
    LayOffTiming,
    Melding,
    Renew,
    Rules,
    RummyBonus,
    Scoring,
    find_option,
    option_specs,
)


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
class HouseRule:
    """One of the house rules a preset puts first, with the values its rule text names.

    The party site's table of house rules is such a list: its settings show these options
    first, each with only these values (a party whose value is none of them shows it too).
    """

    option: str
    """The option's name."""
    values: tuple[ChoiceValue, ...]
    """The values offered, in the rule text's order."""
    labels: tuple[Choice, ...] = ()
    """Labels of its own for values that neither the option nor the preset's offer names."""


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
    house: tuple[HouseRule, ...] = ()
    """The house rules its settings put first (the party site's), with their values."""

    def __post_init__(self) -> None:
        rules_type = type(self.rules)
        for offer in self.offers:
            spec = find_option(offer.option, rules_type)
            for choice in offer.choices:
                spec.check(choice.value)
        for rule in self.house:
            spec = find_option(rule.option, rules_type)
            for value in (*rule.values, *(label.value for label in rule.labels)):
                spec.check(value)
        for tie in self.ties:
            leader = find_option(tie.option, rules_type)
            follower = find_option(tie.follower, rules_type)
            for lead, follow in tie.values:
                leader.check(lead)
                follower.check(follow)
        object.__setattr__(self, "rules", dataclasses.replace(self.rules, ties=self.ties))

    def check_seats(self, seats: int) -> None:
        """Raise ``RulesError`` unless this preset is made for tables of ``seats``.

        Whether the rules actually played can deal them (seven or eight seats need two decks,
        which an override may give) is ``Rules.check_seats``'s to say.
        """
        if not is_whole_number(seats) or not self.min_seats <= seats <= self.max_seats:
            given = value_text(seats)
            if self.min_seats == self.max_seats:
                raise RulesError(
                    "preset_seats_exact", preset=self.name, min=self.min_seats, seats=given
                )
            raise RulesError(
                "preset_seats",
                preset=self.name,
                min=self.min_seats,
                max=self.max_seats,
                seats=given,
            )

    @property
    def seats_text(self) -> str:
        """Its table sizes in words: ``2`` or ``2 to 6``."""
        if self.min_seats == self.max_seats:
            return str(self.min_seats)
        return f"{self.min_seats} to {self.max_seats}"

    def seat_counts(self, rules: Rules | None = None) -> list[int]:
        """The table sizes this preset is made for that ``rules`` (its own by default) deal."""
        played = self.rules if rules is None else rules
        counts = []
        for seats in range(self.min_seats, self.max_seats + 1):
            try:
                played.check_seats(seats)
            except RulesError:
                continue
            counts.append(seats)
        return counts

    def label(self, option: str, value: ChoiceValue | None) -> str:
        """What players read for an option's value under this preset.

        A house rule's own label, else the preset's offer's, else the option's choice's, else
        what no value means, else the value itself.
        """
        spec = find_option(option, type(self.rules))
        house = next((rule for rule in self.house if rule.option == option), None)
        offer = self.offer(option)
        named = (
            *(house.labels if house else ()),
            *(offer.choices if offer else ()),
            *spec.choices,
        )
        found = next(
            (choice.label for choice in named if matches_choice(choice.value, value)), None
        )
        if found is not None:
            return found
        if value is None and spec.none is not None:
            return spec.none
        return str(json_value(value))

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
        """The preset for forms: summary, seats, rules, ties, its settings form, its house rules.

        ``house``: each house rule as ``{"option", "choices": [{"value", "label"}]}``.
        """
        return {
            "summary": self.summary,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "rules": self.rules.to_mapping(),
            "ties": [tie.to_json() for tie in self.ties],
            "form": self.form(),
            "house": [
                {
                    "option": rule.option,
                    "choices": [
                        {"value": json_value(value), "label": self.label(rule.option, value)}
                        for value in rule.values
                    ],
                }
                for rule in self.house
            ],
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
        Choice(15, "Up to 15 times"),
        Choice(1, "Once"),
        Choice(3, "Three times"),
    ),
    "How many times in one deal the discard pile, all but its top card, may be shuffled into a "
    "new stock: 15 at most at the party table, as on the party site. When the stock runs out "
    "after the last one, the deal stops and is scored as a stuck deal.",
)
"""The party site's renewal choices. Its "no limit" stops a deal after 15 new stocks, so here it
is the number 15, labelled as such: ``null`` means no cap at all, wherever it is read."""

PARTY_HOUSE_RULES: Final = (
    HouseRule(
        "target",
        (50, 100, 200),
        tuple(Choice(points, f"{points} points") for points in (50, 100, 200)),
    ),
    HouseRule("scoring", (Scoring.WINNER, Scoring.PENALTY)),
    HouseRule("hand_size", (BY_SEATS, 7), (Choice(7, "Seven each"),)),
    HouseRule("aces", (Aces.LOW, Aces.LOW_OR_HIGH)),
    HouseRule("layoff", (LayOffTiming.ANYTIME, LayOffTiming.AFTER_MELD)),
    HouseRule("melds_per_turn", (0, 1), (Choice(0, "Any number"), Choice(1, "One a turn"))),
    HouseRule("go_out", (GoOut.ANY, GoOut.DISCARD)),
    HouseRule("rummy_bonus", (RummyBonus.DOUBLE, RummyBonus.NONE)),
    HouseRule("renewals", (15, 1, 3)),
)
"""The party site's table of house rules (003), in its order, with the values it offers."""

PARTY_IDLE_RENEWALS: Final = 15
"""The party site shuffles a new stock at most 15 times a deal and knows no other limit:
its new stocks with nothing laid are limited by that alone, so its deals play as on the site
(a shuffled stock is a new order of cards, not the same cards coming round)."""

_KNOCK_SCORING: Final = Offer(
    "scoring",
    (
        Choice(Scoring.WINNER, "Winner collects, highest total wins"),
        Choice(Scoring.PENALTY, "Penalty points, lowest total wins"),
    ),
    "Who scores at the end of a deal, and who wins: whoever wins the knock scores what the "
    "others owe, or everyone else counts what they owe against them. Meld points are not "
    "played with knocking: no card is laid on the table to score.",
)
"""Knock rummy's scorings: meld points are refused with knocking (``knock_meld_points``)."""

_MELD_POINTS_MELDING: Final = Offer(
    "melding",
    (Choice(Melding.DURING_PLAY, "During play, as usual"),),
    "Melds are laid on your turns: meld points score the cards laid on the table, so 500 Rum "
    "is not played by knocking.",
)
"""500 Rum's melding: knocking is refused with meld points (``knock_meld_points``)."""

_BOATHOUSE_MELDING: Final = Offer(
    "melding",
    (
        Choice(Melding.DURING_PLAY, "During play, meld by meld"),
        Choice(Melding.WHOLE_HAND, "Only the whole hand at once, as published"),
    ),
    "When you lay melds. Meld by meld on your turns, with laying off, is Boathouse as the first "
    "rule text plays it. The published game lays nothing until you can go out: then your whole "
    "hand goes down in one turn, bar the card you discard, and nobody lays off; it also lets "
    "runs turn the corner (set Aces in runs to round the corner).",
)
"""Boathouse's two forms: the first rule text's (piecemeal) and the published one (whole hand)."""

DEFAULT_PRESET: Final = "standard"
"""The preset when none is named: the reference rules."""

PARTY_PRESET: Final = "party"
"""The preset a party is made with when its host changes nothing."""

TABLE_PRESET: Final = "classic"
"""The preset a new table (or a party made from the command line) plays when none is named."""

PRACTICE_PRESET: Final = "practice"
"""The preset every practice table plays."""

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
            MAX_SEATS,
            "Aces low, the pile turned over once and then the deal is blocked, "
            "going rummy pays double.",
        ),
        Preset(
            "standard",
            Rules(),
            2,
            MAX_SEATS,
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
                idle_renewals=PARTY_IDLE_RENEWALS,
                empty_stock_choice=False,
            ),
            2,
            MAX_SEATS,
            "Aces low, the pile but its top card shuffled into a new stock up to 15 times, "
            "going rummy pays double.",
            offers=(_PARTY_RENEWALS,),
            ties=(PARTY_ACES,),
            house=PARTY_HOUSE_RULES,
        ),
        # ----- issue 13: Boathouse ----------------------------------------------------------
        Preset(
            "boathouse",
            Rules(go_out=GoOut.DISCARD, stock_with_discard=True),
            2,
            MAX_SEATS,
            "The standard rules, but a card picked up from the discard pile brings the top "
            "card of the stock with it, and you go out only by discarding your last card. "
            "Played as published, your whole hand goes down at once and runs turn the corner "
            "(Melding: only the whole hand at once; Aces in runs: round the corner).",
            offers=(_BOATHOUSE_MELDING,),
        ),
        # ----- issue 13: the named games of the rule texts' variations -----
        Preset(
            "knock",
            Rules(
                aces=Aces.LOW,
                melding=Melding.KNOCK,
                renewals=1,
                blocked=Blocked.LOWEST_COLLECTS,
                empty_stock_choice=False,
            ),
            2,
            MAX_SEATS,
            "Knock rummy: no melds during play; knock to end the deal, every hand is laid out "
            "and the lowest count of loose cards collects the differences.",
            offers=(_KNOCK_SCORING,),
        ),
        # ----- issue 13: 500 Rum -----
        Preset(
            "500",
            Rules(
                hand_size=BY_SEATS_500,
                ace_points=15,
                discard_take=DiscardTake.ANY,
                scoring=Scoring.MELDS,
                target=500,
                renew=Renew.NONE,
                renewals=0,
                empty_stock_choice=False,
            ),
            2,
            MAX_SEATS,
            "500 Rum: 13 cards each for two, 7 for more; take any card of the pile with those "
            "above it; each card you lay scores for you, your hand counts against you; aces 15, "
            "1 at the foot of a run; to 500.",
            offers=(_MELD_POINTS_MELDING,),
        ),
    )
}
"""The presets by name: the house rules of each rule text, and its named variations."""


def find_preset(name: str) -> Preset:
    """The preset of this name (case-insensitive); ``RulesError`` if there is none."""
    preset = PRESETS.get(name.strip().lower()) if isinstance(name, str) else None
    if preset is None:
        raise RulesError("unknown_preset", name=str(name), choices=list(PRESETS))
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
        raise RulesError("rules_not_object")
    overrides = dict(data)
    name = overrides.pop("preset", None)
    if not isinstance(name, str):
        raise RulesError("rules_no_preset")
    preset = find_preset(name)
    return preset, preset.rules.replace(**overrides)


def describe_rules(preset: Preset, rules: Rules) -> str | dict[str, object]:
    """The record's ``rules`` value: the preset's name, or it with the options that differ.

    It reads back as these very rules: an option a tie would set otherwise is written too,
    however it stands to the preset's value. Under ``party``, aces ``"low_or_high"`` with
    ``ace_points`` 1 keep the 1 (without it, the tie would read the aces back as costing 15).

    >>> party = find_preset("party")
    >>> describe_rules(party, party.rules.replace(aces="low_or_high", ace_points=1))
    {'preset': 'party', 'aces': 'low_or_high', 'ace_points': 1}
    """
    base = preset.rules.to_mapping()
    wanted = rules.to_mapping()
    changed = {name: value for name, value in wanted.items() if base[name] != value}
    for _ in wanted:  # each pass fixes the followers of the ties the last one wrote
        read = preset.rules.replace(**changed).to_mapping()
        stray = {name for name, value in wanted.items() if read[name] != value}
        if not stray:
            break
        changed.update((name, wanted[name]) for name in stray)
    if not changed:
        return preset.name
    return {"preset": preset.name, **{name: changed[name] for name in wanted if name in changed}}
