"""Arenas: tournaments for people, played for a set time, paired as players come free.

HTTP: ``POST /api/arenas`` ``NewArena`` (signed in) answers ``ArenaView``; ``GET /api/arenas``
answers ``ArenaList`` (the upcoming, running and lately finished); ``GET /api/arenas/{id}``
the ``ArenaView``. Socket ``/ws/arena/{id}``, first message ``{"t": "hello", "v": 0, "d":
{}}``: the server sends ``arena`` (the view) at once and after every change; a signed-in
page sends ``join`` (to play: paired whenever free while the page is open) and ``pause``
(to be paired no more for now); seated, it gets quick pairing's ``paired``. Scoring is
``rummykit.ratings.arena``'s. Arena games are ranked: signed-in players only.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias, get_args

from pydantic import Field, StringConstraints, TypeAdapter

from rummykit.core.presets import DEFAULT_PRESET
from rummykit.protocol.api import OptionName, RuleInput
from rummykit.protocol.facts import RuleValue, TurnTimer
from rummykit.protocol.messages import Hello, NoData, RefusedMessage, Strict, Version, read_message
from rummykit.protocol.pairing import PairedMessage
from rummykit.protocol.vocabularies import PresetName

ArenaMinutes: TypeAlias = Literal[1, 10, 30, 60]
"""How long an arena may run, in minutes: one minute for a try, or up to an hour."""

ARENA_MINUTES: Final[tuple[int, ...]] = get_args(ArenaMinutes)

ArenaSeats: TypeAlias = Literal[2, 4]
"""An arena's table size: duels, or tables of four."""

ARENA_SEATS: Final[tuple[int, ...]] = get_args(ArenaSeats)

MAX_ARENA_DELAY_MIN: Final = 60
"""An arena starts at most this many minutes after it is made."""

ArenaState: TypeAlias = Literal["upcoming", "running", "finished"]


class NewArena(Strict):
    """``POST /api/arenas``: an arena, starting ``starts_in_min`` minutes from now."""

    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
    preset: PresetName = DEFAULT_PRESET
    rules: Annotated[dict[OptionName, RuleInput], Field(max_length=64)] | None = None
    """Options that differ from the preset."""
    turn_timer: TurnTimer = 30
    seats: ArenaSeats = 2
    minutes: ArenaMinutes = 30
    starts_in_min: Annotated[int, Field(ge=0, le=MAX_ARENA_DELAY_MIN)] = 5


class ArenaStanding(Strict):
    """One player's line of the standings."""

    name: str
    points: int
    games: int
    wins: int
    on_fire: bool
    """Their next win counts double."""
    playing: bool
    """At one of the arena's tables now."""
    paused: bool
    """Not to be paired for now (paused, or their page is closed)."""


class ArenaView(Strict):
    """An arena as it stands."""

    id: str
    name: str
    creator: str
    preset: PresetName
    rules: dict[str, RuleValue]
    turn_timer: TurnTimer
    seats: int
    minutes: int
    state: ArenaState
    starts_in_s: int
    """Seconds until the start (0 once started)."""
    ends_in_s: int
    """Seconds until the end (0 once finished)."""
    standings: tuple[ArenaStanding, ...]
    """Best first."""
    games: int
    """Games finished in the arena."""
    winner: str | None
    """Once finished: the first of the standings (null if nobody played)."""
    me: str | None = None
    """The viewer's name when they have joined (null otherwise)."""


class ArenaList(Strict):
    """``GET /api/arenas``: upcoming and running first, then the lately finished."""

    arenas: tuple[ArenaView, ...]


class JoinArena(Strict):
    """Play in the arena: paired whenever free while this page is open."""

    t: Literal["join"]
    v: Version
    d: NoData


class PauseArena(Strict):
    """Stop being paired for now (the points stay)."""

    t: Literal["pause"]
    v: Version
    d: NoData


ArenaClientMessage: TypeAlias = Annotated[Hello | JoinArena | PauseArena, Field(discriminator="t")]
"""Every message ``/ws/arena/{id}`` accepts (``hello`` first, and only first)."""

ARENA_CLIENT_MESSAGES: Final[TypeAdapter[ArenaClientMessage]] = TypeAdapter(ArenaClientMessage)

ARENA_CLIENT_TYPES: Final[tuple[str, ...]] = tuple(
    get_args(model.model_fields["t"].annotation)[0] for model in (Hello, JoinArena, PauseArena)
)


class ArenaMessage(Strict):
    """The arena as it stands, after each change."""

    t: Literal["arena"] = "arena"
    v: Version
    d: ArenaView


ArenaServerMessage: TypeAlias = Annotated[
    ArenaMessage | PairedMessage | RefusedMessage, Field(discriminator="t")
]
"""Every message ``/ws/arena/{id}`` sends."""

ARENA_SERVER_MESSAGES: Final[TypeAdapter[ArenaServerMessage]] = TypeAdapter(ArenaServerMessage)


def parse_arena_message(text: str | bytes) -> ArenaClientMessage:
    """Read one message of an arena's socket; ``ProtocolError`` says what is wrong."""
    return read_message(ARENA_CLIENT_MESSAGES, ARENA_CLIENT_TYPES, text)
