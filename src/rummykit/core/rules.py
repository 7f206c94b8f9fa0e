"""The rule options of straight Rummy: their values, each option's one description, overrides.

A ``Rules`` value holds every house rule at once and refuses bad values when it is made.

>>> rules = Rules()
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
from typing import Any, Final, Literal, Self

from rummykit.core.cards import JOKER_CODE, NATURAL_COUNT, RANK_OF_CODE
from rummykit.core.errors import RulesError
from rummykit.core.options import (
    OPTION_METADATA_KEY,
    OptionSpec,
    Tie,
    describe_option,
    is_whole_number,
    json_value,
    value_text,
)


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
    MELDS = "melds"
    """Cards score for the seat that lays them on the table, less its hand; highest wins."""


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
    """Any card with every card above it (``deep_take_must_use`` says what the deepest owes)."""


class DealerRotation(enum.StrEnum):
    """Who deals the next deal."""

    LEFT = "left"
    """The deal passes to the left."""
    WINNER = "winner"
    """The seat that went out deals next; after a blocked deal it passes to the left."""


class Melding(enum.StrEnum):
    """When melds are laid: on any turn, only the whole hand at once, or only at a knock."""

    DURING_PLAY = "during_play"
    """Melds and lay-offs on your turns, and the first to empty their hand goes out."""
    WHOLE_HAND = "whole_hand"
    """Melds only to go out, the whole hand in one turn (the published Boathouse): each meld
    must leave a hand that can still all be melded, bar one card to discard; no lay-offs."""
    KNOCK = "knock"
    """No melds during play: a seat ends the deal by knocking, and every hand is laid out."""


HandSize = int | Literal["by_seats", "by_seats_500"]

BY_SEATS: Final[Literal["by_seats"]] = "by_seats"
"""Dealt by the number of seats as Rummy deals: 10 for two, 7 for three or four, 6 for five
or six, 7 for seven or eight (two decks)."""
BY_SEATS_500: Final[Literal["by_seats_500"]] = "by_seats_500"
"""Dealt by the number of seats as 500 Rum deals: 13 for two, 7 for three or more."""
MOST_CARDS_DEALT: Final = 13
"""The biggest hand dealt (500 Rum's two-player hand): one deck serves it to three seats."""

# Every number option is bounded, so that no setting can make a game that never ends or a
# number no one can read: the bounds lie far past any table's real choices.
MOST_MELDS_PER_TURN: Final = 10
"""A hand of at most fourteen cards (500 Rum's thirteen and a draw) lays four new melds a turn at
most: ten is no limit."""
HIGHEST_TARGET: Final = 10_000
"""Past a few thousand points a game takes hundreds of deals (the rule texts play to 100)."""
MOST_DEALS: Final = 1_000
"""A game of a thousand deals is already weeks of evenings."""
MOST_RENEWALS: Final = 100
"""The party site's own limit is 15; a stock renewed a hundred times is a deal gone round."""
IDLE_RENEWALS: Final = 3
"""Every preset's ``idle_renewals``: a deal whose stock has been renewed three times in a row
with nothing put on the table has stopped going anywhere (under ``flip`` the same cards come
round in the same order). No preset with ``renewals`` limited to 3 or fewer ever reaches it.
"""
HIGHEST_CARD_COST: Final = 100
"""An ace costs at most 15; a joker worth more than a hundred would decide every game alone."""

MIN_SEATS: Final = 2
MAX_SEATS: Final = 8
"""The most seats at a table: two decks deal eight hands of seven with a stock to spare."""
MAX_SEATS_ONE_DECK: Final = 6
"""The most seats one deck serves; a bigger table shuffles two decks together."""
BIG_TABLE_HAND: Final = 7
"""Cards dealt to each of seven or eight seats (two decks): 57 of the 104 with the up-card."""


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
            "or four, 6 for five or six, 7 for seven or eight), by the number of players as in "
            "500 Rum (13 for two, 7 for three or more), or the same number for everyone, as "
            "long as the decks hold every hand and the up-card.",
            choices=[
                (BY_SEATS, "By the number of players"),
                (BY_SEATS_500, "By the number of players, as in 500 Rum"),
            ],
            minimum=6,
            maximum=MOST_CARDS_DEALT,
        ),
    )
    decks: int = dataclasses.field(
        default=1,
        metadata=describe_option(
            "Decks",
            "Play with one deck, or shuffle two together for a bigger table. Seven or eight "
            "players need two decks.",
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
            "What an ace still in your hand counts when someone goes out; with meld points, "
            "also what one scores on the table, except at the foot of a run.",
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
            "Adding cards to melds is never limited, nor is going out with the whole hand at "
            "once.",
            minimum=0,
            maximum=MOST_MELDS_PER_TURN,
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
            "the cards left in their own hand against them. Meld points: each card you put on "
            "the table, in a meld of your own or added to anyone's, scores for you, and the "
            "cards still in your hand when the deal ends count against you, however the deal "
            "ends (a total may fall below zero).",
            choices=[
                (Scoring.WINNER, "Winner collects, highest total wins"),
                (Scoring.PENALTY, "Penalty points, lowest total wins"),
                (Scoring.MELDS, "Meld points, highest total wins"),
            ],
        ),
    )
    target: int = dataclasses.field(
        default=100,
        metadata=describe_option(
            "Game ends at",
            "The game ends after the deal in which someone's total reaches this score.",
            minimum=1,
            maximum=HIGHEST_TARGET,
        ),
    )
    deals: int | None = dataclasses.field(
        default=None,
        metadata=describe_option(
            "Number of deals",
            "Play a set number of deals instead of playing up to the score.",
            minimum=1,
            maximum=MOST_DEALS,
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
            maximum=MOST_RENEWALS,
            none="No limit: a new stock whenever it runs out",
        ),
    )
    idle_renewals: int | None = dataclasses.field(
        default=IDLE_RENEWALS,
        metadata=describe_option(
            "New stocks with nothing laid",
            "How many times in a row the discard pile may become a new stock while nobody "
            "puts a card on the table: a meld or a card added to a meld starts the count "
            "again. When the stock runs out after that many, the deal stops and is scored as "
            'set under "Stuck deal", as a deal that no longer goes anywhere.',
            minimum=1,
            maximum=MOST_RENEWALS,
            none="No limit: a new stock whenever the rules above allow",
        ),
    )
    blocked: Blocked = dataclasses.field(
        default=Blocked.NO_SCORE,
        metadata=describe_option(
            "Stuck deal",
            "How a deal is scored when the stock is gone for good: nobody scores, or the "
            "player with the lowest hand scores the difference between it and each other hand "
            "(a tie for lowest scores nothing). With meld points it is scored like any other "
            "deal.",
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
            "How much of the discard pile you may pick up: the top card, or any card together "
            "with every card lying on it.",
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
            maximum=HIGHEST_CARD_COST,
        ),
    )
    # ----- issue 13: deep takes without a condition, Boathouse's extra stock card -------------
    deep_take_must_use: bool = dataclasses.field(
        default=True,
        metadata=describe_option(
            "Deep take must be played",
            "When you pick up more than the top card of the discard pile, the deepest card you "
            "pick up has to go into a new meld, or onto a meld on the table, before you "
            "discard; you may take it only if you can. Off: take as deep as you like, with no "
            "duty.",
        ),
    )
    stock_with_discard: bool = dataclasses.field(
        default=False,
        metadata=describe_option(
            "Stock card with the discard",
            "Whenever you pick up from the discard pile, you also get the top card of the "
            "stock, unseen by the others. With the stock empty, you get the discard alone.",
        ),
    )
    # ----- knock rummy (issue 13): the options below matter only when melding is "knock" -----
    melding: Melding = dataclasses.field(
        default=Melding.DURING_PLAY,
        metadata=describe_option(
            "Melding",
            "Whether you lay melds on your turns; or only all at once, to go out: every card "
            "of your hand in melds in one turn (bar the one you discard), with no laying off "
            "(the published Boathouse); or keep every card in your hand until someone knocks "
            "(knock rummy): then each hand is spread in its best melds and the lowest count of "
            "loose cards wins.",
            choices=[
                (Melding.DURING_PLAY, "During play, as usual"),
                (Melding.WHOLE_HAND, "Only the whole hand at once, to go out"),
                (Melding.KNOCK, "Only when someone knocks (knock rummy)"),
            ],
        ),
    )
    knock_limit: int | None = dataclasses.field(
        default=None,
        metadata=describe_option(
            "Knocking limit",
            "Under knock rummy, the most your loose cards may count, after your discard, "
            "for you to knock.",
            minimum=0,
            maximum=HIGHEST_CARD_COST,
            none="No limit: knock whenever you like",
        ),
    )
    undercut_penalty: int = dataclasses.field(
        default=10,
        metadata=describe_option(
            "Undercut penalty",
            "Under knock rummy, what a knocker pays on top to the player who beats their "
            "count (a player who ties it wins instead, and the knocker pays no more).",
            minimum=0,
            maximum=HIGHEST_CARD_COST,
        ),
    )
    knock_bonus: int = dataclasses.field(
        default=25,
        metadata=describe_option(
            "Knocking with nothing loose",
            "Under knock rummy, the bonus a knocker who wins with every card in a meld "
            "collects from each other player (a player who ties it wins instead, as in any "
            "tie).",
            minimum=0,
            maximum=HIGHEST_CARD_COST,
        ),
    )
    # ----- 500 Rum (issue 13): meld points -----
    low_ace_points: int = dataclasses.field(
        default=1,
        metadata=describe_option(
            "Ace at the foot of a run",
            "With meld points, what an ace scores when it is the lowest card of a run (A-2-3). "
            "Anywhere else on the table, and in a hand, an ace counts its cost.",
            minimum=0,
            maximum=HIGHEST_CARD_COST,
        ),
    )
    ties: tuple[Tie, ...] = dataclasses.field(default=(), compare=False, repr=False)
    """Links between options that ``replace`` keeps (a preset's, see ``Preset.ties``).

    Not a rule option: not in the record, nor in equality."""

    def __post_init__(self) -> None:
        for spec in option_specs(type(self)):
            object.__setattr__(self, spec.name, spec.check(getattr(self, spec.name)))
        if self.melding is Melding.KNOCK and self.stock_with_discard:
            raise RulesError("knock_stock_card")  # every take would grow a knocker's hand
        if self.melding is Melding.KNOCK and self.scoring is Scoring.MELDS:
            raise RulesError("knock_meld_points")  # the deal would be counted upside down

    @property
    def deck_size(self) -> int:
        """How many cards the deck holds: 52 a deck, plus the jokers."""
        return NATURAL_COUNT * self.decks + self.jokers

    def hand_size_for(self, seats: int) -> int:
        """Cards dealt to each seat at a table of ``seats``."""
        if self.hand_size == BY_SEATS_500:
            return 13 if seats == 2 else 7
        if self.hand_size != BY_SEATS:
            return int(self.hand_size)
        if seats > MAX_SEATS_ONE_DECK:
            return BIG_TABLE_HAND
        return 10 if seats == 2 else 7 if seats <= 4 else 6

    def check_seats(self, seats: int) -> None:
        """Raise ``RulesError`` unless a table of ``seats`` can be dealt under these rules."""
        if not is_whole_number(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
            raise RulesError("seats_range", min=MIN_SEATS, max=MAX_SEATS, seats=value_text(seats))
        if seats > MAX_SEATS_ONE_DECK and self.decks == 1:
            raise RulesError("seats_two_decks", seats=seats, min=MIN_SEATS, max=MAX_SEATS_ONE_DECK)
        needed = seats * self.hand_size_for(seats) + 1
        if needed > self.deck_size:
            raise RulesError(
                "deck_too_small",
                seats=seats,
                hand=self.hand_size_for(seats),
                needed=needed,
                count=self.decks,
                jokers=self.jokers,
                size=self.deck_size,
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
            raise RulesError("unknown_option", option=unknown[0])
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
        from rummykit.core.presets import preset_with_overrides  # presets build on Rules

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
            dataclasses.replace(field.metadata[OPTION_METADATA_KEY], name=field.name)
            for field in dataclasses.fields(rules_type)
            if OPTION_METADATA_KEY in field.metadata
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
    raise RulesError("unknown_option", option=name)


OPTION_NAMES: Final = option_names(Rules)
"""The names of every rule option, in the record's order."""


def parse_option(name: str, text: str) -> object:
    """Read an option's value from command-line text (``renewals=none``, ``target=250``).

    >>> parse_option("target", "250"), parse_option("aces", "LOW")
    (250, <Aces.LOW: 'low'>)
    """
    return find_option(name).parse(text)
