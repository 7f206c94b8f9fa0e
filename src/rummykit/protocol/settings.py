"""A table's settings as stored: who sits where, the rules, the seed, the pace, the timer."""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias

from pydantic import Field, TypeAdapter

from rummykit.protocol.facts import DEFAULT_PACE_MS, BotLevel, RuleValue, TurnTimer
from rummykit.protocol.messages import Strict

RANKED_DEFAULT_TIMER: Final[TurnTimer] = 60
"""The turn timer a ranked party's form offers first: the longer one, so nobody new to the
clock loses turns to it."""

PRACTICE_OPPONENTS: Final[tuple[BotLevel, ...]] = ("strong",)
"""A practice game is against one strong computer player."""

RecordRules: TypeAlias = str | dict[str, RuleValue]
"""A record's ``rules``: a preset's name, or ``{"preset": NAME, OPTION: VALUE, ...}``."""

RECORD_RULES: Final[TypeAdapter[RecordRules]] = TypeAdapter(RecordRules)
"""Reads the engine's ``describe_rules`` into ``RecordRules``."""

RULE_VALUES: Final[TypeAdapter[dict[str, RuleValue]]] = TypeAdapter(dict[str, RuleValue])
"""Reads the engine's ``Rules.to_mapping`` into typed values."""


class HumanPlayer(Strict):
    """A person, who holds the seat's token."""

    kind: Literal["human"]
    name: str
    program: bool = False
    """Plays as a program's account: shown with a BOT mark."""


class BotPlayer(Strict):
    """A computer player."""

    kind: Literal["bot"]
    name: str
    level: BotLevel


Player: TypeAlias = Annotated[HumanPlayer | BotPlayer, Field(discriminator="kind")]
"""Whoever sits at a seat."""


class TableSettings(Strict):
    """Everything a table is made from; with its deals and actions, it rebuilds the table."""

    rules: RecordRules
    players: tuple[Player, ...]
    """Seat by seat, from seat 0."""
    practice: bool
    """A practice game, which explains the rules as they come up."""
    seed: int | None = None
    """Seeds the dealers and the decks, and the computer players' choices (tests only).

    ``None``, as on every live table: the operating system's randomness shuffles, so no
    player can work the cards out; the decks dealt are kept in the store all the same."""
    pace_ms: int = DEFAULT_PACE_MS
    """The computer's pace when the table is (re)started."""
    turn_timer: TurnTimer | None = None
    """Seconds a person has for each turn (``None``: no limit); when they run out, the
    computer plays the rest of that turn for them. Computer players are never timed."""
    party: str | None = None
    """The party whose table this is (its code), if any: its members hold the seats."""
    spectators: bool = False
    """Whether anyone with the link may watch (the public view only)."""
    dealer: int | None = None
    """The first deal's dealer (a party's rematch moves it on); ``None``: drawn at random."""
    left: tuple[int, ...] = ()
    """The seats whose people left for good: the computer plays them to the end."""
    accounts: tuple[int, ...] | None = None
    """A ranked table's account of each seat, in seat order (``None``: not ranked): the game
    is rated when it finishes."""
    program_pool: bool = True
    """A ranked game with a program's account at it is rated in the programs' pool of its
    scoring (false: in the people's)."""
