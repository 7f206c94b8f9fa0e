"""A party's wire messages: its HTTP bodies and answers, and its socket's messages.

A party is a group of 2-6 people (and computer players) who play one table after another
with the house rules their host chose. The lobby of a party lives on its own socket,
``/ws/party/{code}``; its games are ordinary tables (``rummykit.protocol.messages``), where a
member's token is their seat's token.

HTTP:

- ``POST /api/parties`` ``NewParty``: a party with its host; answers ``PartyJoined``.
- ``POST /api/parties/{code}/join`` ``JoinParty``: a seat in it; answers ``PartyJoined``, or
  409 ``PartyRefusal`` (full, started, closed; ``watch`` says whether watching is open).
- ``GET /api/parties/{code}``: what the invite page shows before joining (``PartyView``
  with no ``me``).

Socket ``/ws/party/{code}``, first message ``{"t": "hello", "v": 0, "d": {"token": T}}``
(or ``{"watch": true}``); the server then sends ``{"t": "party", "v": V, "d": PartyView}``
after every change. Members send ``ready``; the host sends ``settings``, ``add_cpu``,
``remove`` and ``start``; anyone may ``leave`` before the start. A refusal is the table's
``refused`` message. Once started, ``PartyView.table`` names the table: open it with the
same token.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias, get_args

from pydantic import AfterValidator, Field, StringConstraints, TypeAdapter

from rummykit.protocol.api import MAX_SEED, OptionName, RuleInput
from rummykit.protocol.codes import Code
from rummykit.protocol.facts import MAX_PARTY_SEATS, MIN_PARTY_SEATS, BotLevel, RuleValue, TurnTimer
from rummykit.protocol.messages import (
    Hello,
    NoData,
    Params,
    RefusedMessage,
    Strict,
    Token,
    Version,
    read_message,
)
from rummykit.protocol.names import checked_player_name
from rummykit.protocol.vocabularies import PartyReason, PresetName, RuleOption

PartyState: TypeAlias = Literal["lobby", "playing", "closed"]
"""``lobby`` until the host starts; ``playing`` from then on (rematches included);
``closed`` once nobody has come back for ``PARTY_IDLE_S``."""

PlayerName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=24),
    AfterValidator(checked_player_name),
]
"""A person's name at the party and its tables: no hidden characters, no BOT mark."""


Rules = Annotated[dict[OptionName, RuleInput], Field(max_length=64)]
"""Rule options that differ from the preset, by name."""


# ----- HTTP ----------------------------------------------------------------------------------


class NewParty(Strict):
    """``POST /api/parties``: a party, with the person who makes it as its host."""

    name: PlayerName
    """The host's name."""
    preset: Annotated[str, StringConstraints(min_length=1, max_length=40)] = "classic"
    """The house rules to start from."""
    rules: Rules | None = None
    """Options that differ from the preset (see ``GET /api/options``)."""
    turn_timer: TurnTimer | None = None
    """Seconds each person has for a turn (30 or 60; null: no limit)."""
    spectators: bool = True
    """Whether people with the link may watch the party's tables."""
    ranked: bool = False
    """Whether the party's games are rated: people with accounts only, a turn timer."""
    program_pool: bool = True
    """A ranked game with a program's account at it is rated in the programs' pool (false:
    in the people's)."""
    listed: bool = False
    """List the party in the lobby's open tables, where anyone may take a free seat
    (``rummykit.protocol.open_tables``)."""
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = None
    """Makes the party's deals reproducible: accepted only by a server made for tests."""


class JoinParty(Strict):
    """``POST /api/parties/{code}/join``: a seat in the party."""

    name: PlayerName


class PartyJoined(Strict):
    """A seat in a party: keep the token, it is your seat at every table of the party."""

    code: str
    member: int
    """Your member id in ``PartyView.members``."""
    token: Token
    url: str
    """The invite link's path (``/#/party/CODE``), to share."""


class PartyRefusal(Strict):
    """Why a join was refused (409), and whether the party can be watched instead."""

    error: str
    """The sentence in English, for programs and logs: a page words ``reason`` itself."""
    code: Code
    """``party_full``, ``party_started``, ``ranked_account``, ``ranked_wait``... (the code
    of ``reason``)."""
    reason: PartyReason
    """The finer, stable reason (``rummykit.protocol.party_words.PARTY_REFUSALS``)."""
    watch: bool
    """Whether the party's tables may be watched by link."""
    params: Params = Field(default_factory=dict)
    """The reason's parameters (``ranked_wait``: ``names``, ``seconds``, minutes as
    ``count``)."""


# ----- the view ------------------------------------------------------------------------------


class MemberView(Strict):
    """One member of the party, in seat order."""

    id: int
    name: str
    kind: Literal["human", "bot"]
    level: BotLevel | None
    """The computer's level; null for a person."""
    ready: bool
    """A person who marked ready (a computer player always is)."""
    connected: bool
    """A person with the party or its table open (a computer player always is)."""
    host: bool
    program: bool = False
    """A program's account (shown with a BOT mark)."""


class PartyView(Strict):
    """The party as a member (or a visitor) sees it."""

    code: str
    url: str
    """The invite link's path."""
    state: PartyState
    host: int
    """The host's member id."""
    me: int | None
    """The viewer's member id; null for a visitor or a spectator."""
    members: tuple[MemberView, ...]
    preset: PresetName
    rules: dict[RuleOption, RuleValue]
    """Options that differ from the preset."""
    in_play: dict[RuleOption, RuleValue] = Field(default_factory=dict)
    """Every option's value at the party's table: the preset's after its ties, and the
    changes (as ``POST /api/rules`` answers)."""
    seats: tuple[int, ...] = ()
    """How many may sit at the party's table under these rules, smallest first."""
    turn_timer: TurnTimer | None
    spectators: bool
    ranked: bool = False
    """Whether the party's games are rated (they count on the leaderboard)."""
    program_pool: bool = True
    """Whether a ranked game with a program's account is rated in the programs' pool."""
    listed: bool = False
    """Whether the host lists the party in the lobby's open tables."""
    table: str | None
    """The party's current table, once started: open ``/ws/{table}`` with your token."""
    games: int
    """How many tables the party has started (the first game and its rematches)."""
    max_seats: int = MAX_PARTY_SEATS
    min_seats: int = MIN_PARTY_SEATS


# ----- the party's socket ---------------------------------------------------------------------


class ReadyData(Strict):
    """Whether you are ready."""

    ready: bool


class Ready(Strict):
    """Mark yourself ready (or not)."""

    t: Literal["ready"]
    v: Version
    d: ReadyData


class SettingsData(Strict):
    """The house rules; fields left out stay as they are."""

    preset: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None
    rules: Rules | None = None
    """Replaces every override (send ``{}`` for the preset as it is)."""
    turn_timer: TurnTimer | None = None
    no_timer: bool = False
    """Set to turn the timer off (``turn_timer`` null means "unchanged")."""
    spectators: bool | None = None
    ranked: bool | None = None
    """Make the party ranked (or friendly); null: unchanged."""
    program_pool: bool | None = None
    """Rate games with a program's account in the programs' pool (or the people's); null:
    unchanged."""
    listed: bool | None = None
    """List the party in the lobby's open tables (or take it off); null: unchanged. Unlike
    the rules, it leaves everyone's ready as it is."""


class Settings(Strict):
    """The host changes the house rules: everyone's ready is cleared."""

    t: Literal["settings"]
    v: Version
    d: SettingsData


class AddCpuData(Strict):
    """Which computer player."""

    level: BotLevel


class AddCpu(Strict):
    """The host adds a computer player in the first free seat."""

    t: Literal["add_cpu"]
    v: Version
    d: AddCpuData


class RemoveData(Strict):
    """Whom to remove."""

    member: Annotated[int, Field(ge=0, le=10_000)]
    """Their member id."""


class Remove(Strict):
    """The host removes a member (a person or a computer) before the start."""

    t: Literal["remove"]
    v: Version
    d: RemoveData


class Start(Strict):
    """The host starts the game: every person must be ready, 2-6 seats."""

    t: Literal["start"]
    v: Version
    d: NoData


class LeaveParty(Strict):
    """Leave the party before its start (the host's leaving hands the host on)."""

    t: Literal["leave"]
    v: Version
    d: NoData


PartyClientMessage: TypeAlias = Annotated[
    Hello | Ready | Settings | AddCpu | Remove | Start | LeaveParty, Field(discriminator="t")
]
"""Every message a party's socket accepts (``hello`` first, and only first)."""

PARTY_CLIENT_MESSAGES: Final[TypeAdapter[PartyClientMessage]] = TypeAdapter(PartyClientMessage)

PARTY_CLIENT_TYPES: Final[tuple[str, ...]] = tuple(
    get_args(model.model_fields["t"].annotation)[0]
    for model in (Hello, Ready, Settings, AddCpu, Remove, Start, LeaveParty)
)


class PartyMessage(Strict):
    """The party as it stands, after each change."""

    t: Literal["party"] = "party"
    v: Version
    d: PartyView


PartyServerMessage: TypeAlias = Annotated[PartyMessage | RefusedMessage, Field(discriminator="t")]
"""Every message a party's socket sends."""

PARTY_SERVER_MESSAGES: Final[TypeAdapter[PartyServerMessage]] = TypeAdapter(PartyServerMessage)


def parse_party_message(text: str | bytes) -> PartyClientMessage:
    """Read one message of a party's socket; ``ProtocolError`` says what is wrong."""
    return read_message(PARTY_CLIENT_MESSAGES, PARTY_CLIENT_TYPES, text)
