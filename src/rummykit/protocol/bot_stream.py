"""A program's account online: its stream of invitations and games, and challenges to it.

A program signed in to a program's account (``NewAccount.bot``) opens ``/ws/bot`` with its
session cookie and sends ``hello`` with its ``BotLimits``: from then on the account is
*online*. People see it in the lobby, on the leaderboard and on its page, and may challenge
it (``POST /api/challenges``) or invite it to their party (``POST
/api/parties/{code}/invite``). Each becomes an ``invitation`` on the stream; the program
answers ``accept`` or ``decline`` (with why) within ``ANSWER_WITHIN_S``. Accepting promises
to join: the program joins the party by the invitation's link, signed in, as any member does
(``POST /api/parties/{code}/join``, then ``/ws/party/{code}``), and plays its tables. The
stream then says ``game_started`` and ``game_ended`` for each table of the account.

One stream per account: a second ``hello`` for the same account takes over, and the first
socket closes with ``REPLACED``. A server message's ``v`` counts the stream's frames.

>>> limits = BotLimits(presets=("classic",), games=1)
>>> invitation = InvitationView(
...     id=1, code="K7QM2P", url="/#/party/K7QM2P.k", host="Ada", challenge=True,
...     preset="classic", rules={}, turn_timer=30, ranked=True, seats=1)
>>> decline_reason(limits, invitation, playing=0), decline_reason(limits, invitation, playing=1)
(None, 'busy')
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias, get_args

from pydantic import Field, StringConstraints, TypeAdapter

from rummykit.protocol.facts import (
    MAX_BOT_GAMES,
    MAX_PARTY_SEATS,
    MIN_PARTY_SEATS,
    RuleValue,
    TurnTimer,
)
from rummykit.protocol.messages import (
    RefusedMessage,
    Strict,
    Version,
    read_message,
)
from rummykit.protocol.party import Rules
from rummykit.protocol.vocabularies import PresetName, RuleOption

ANSWER_WITHIN_S: Final = 15.0
"""How long an invitation waits for the program's answer; then it is gone, unanswered."""

DeclineReason: TypeAlias = Literal["preset", "timer", "seats", "ranked", "friendly", "busy"]
"""Why a program declines: the rules it does not play, the turn timer, the table's size,
ranked (or friendly) games it does not take, or as many games at once as it plays."""

DECLINE_REASONS: Final[tuple[DeclineReason, ...]] = get_args(DeclineReason)


class BotLimits(Strict):
    """What a program's account takes: the server shows it, the program decides by it."""

    presets: Annotated[tuple[PresetName, ...], Field(max_length=16)] = ()
    """The house rules it plays, by preset (empty: any)."""
    turn_timers: Annotated[tuple[TurnTimer, ...], Field(max_length=4)] = ()
    """The turn timers it takes (empty: any)."""
    untimed: bool = True
    """Whether it takes games with no turn timer."""
    max_seats: Annotated[int, Field(ge=MIN_PARTY_SEATS, le=MAX_PARTY_SEATS)] = MAX_PARTY_SEATS
    """The largest party it joins (itself included)."""
    ranked: bool = True
    """Whether it takes ranked games."""
    friendly: bool = True
    """Whether it takes friendly games."""
    games: Annotated[int, Field(ge=1, le=MAX_BOT_GAMES)] = 1
    """How many games it plays at once."""


class InvitationView(Strict):
    """An invitation to a party, as the program reads it."""

    id: int
    """Answer with this number."""
    code: str
    """The party's code."""
    url: str
    """The invite link's path (``/#/party/CODE.KEY``): join by it."""
    host: str
    """The host's name (who challenged or invited)."""
    challenge: bool
    """A challenge: the party was made for this game, with its host alone in it."""
    preset: PresetName
    rules: dict[RuleOption, RuleValue]
    """Options that differ from the preset."""
    turn_timer: TurnTimer | None
    ranked: bool
    seats: int
    """Members at the party now (the program would be one more)."""


def decline_reason(
    limits: BotLimits, invitation: InvitationView, playing: int
) -> DeclineReason | None:
    """Why a program with ``limits`` declines, playing ``playing`` games; ``None``: it accepts.

    One rule for both sides: ``rummy bot`` decides by it, and a page can say in advance what
    an online program would decline.
    """
    if limits.presets and invitation.preset not in limits.presets:
        return "preset"
    if invitation.turn_timer is None and not limits.untimed:
        return "timer"
    timer = invitation.turn_timer
    if timer is not None and limits.turn_timers and timer not in limits.turn_timers:
        return "timer"
    if invitation.seats + 1 > limits.max_seats:
        return "seats"
    if invitation.ranked and not limits.ranked:
        return "ranked"
    if not invitation.ranked and not limits.friendly:
        return "friendly"
    if playing >= limits.games:
        return "busy"
    return None


# ----- what the program sends ----------------------------------------------------------------


class BotHelloData(Strict):
    """What the program takes."""

    limits: BotLimits = Field(default_factory=BotLimits)


class BotHello(Strict):
    """The stream's first message: the account is online from now on."""

    t: Literal["hello"]
    v: Version
    d: BotHelloData


class AcceptData(Strict):
    """The invitation accepted."""

    invitation: Annotated[int, Field(ge=0)]


class Accept(Strict):
    """Accept an invitation: then join its party by its link."""

    t: Literal["accept"]
    v: Version
    d: AcceptData


class DeclineData(Strict):
    """The invitation declined, and why."""

    invitation: Annotated[int, Field(ge=0)]
    reason: DeclineReason


class Decline(Strict):
    """Decline an invitation: whoever made it is told why."""

    t: Literal["decline"]
    v: Version
    d: DeclineData


BotClientMessage: TypeAlias = Annotated[BotHello | Accept | Decline, Field(discriminator="t")]
"""Every message ``/ws/bot`` accepts (``hello`` first, and only first)."""

BOT_CLIENT_MESSAGES: Final[TypeAdapter[BotClientMessage]] = TypeAdapter(BotClientMessage)

BOT_CLIENT_TYPES: Final[tuple[str, ...]] = tuple(
    get_args(model.model_fields["t"].annotation)[0] for model in (BotHello, Accept, Decline)
)


def parse_bot_message(text: str | bytes) -> BotClientMessage:
    """Read one message of the bot stream; ``ProtocolError`` says what is wrong."""
    return read_message(BOT_CLIENT_MESSAGES, BOT_CLIENT_TYPES, text)


# ----- what the server sends -----------------------------------------------------------------


class WelcomeData(Strict):
    """The account online, and the limits it said."""

    name: str
    limits: BotLimits


class Welcome(Strict):
    """The answer to ``hello``: online."""

    t: Literal["welcome"] = "welcome"
    v: Version
    d: WelcomeData


class Invitation(Strict):
    """Someone invites the account: answer within ``ANSWER_WITHIN_S``."""

    t: Literal["invitation"] = "invitation"
    v: Version
    d: InvitationView


class InvitationGoneData(Strict):
    """Which invitation."""

    invitation: int


class InvitationGone(Strict):
    """An invitation is no longer open (it waited too long): do not join."""

    t: Literal["invitation_gone"] = "invitation_gone"
    v: Version
    d: InvitationGoneData


class GameData(Strict):
    """One of the account's games."""

    code: str
    """The party's code."""
    table: str
    """The table's id."""


class GameStarted(Strict):
    """A table with the account at it was dealt."""

    t: Literal["game_started"] = "game_started"
    v: Version
    d: GameData


class GameEnded(Strict):
    """A table with the account at it finished."""

    t: Literal["game_ended"] = "game_ended"
    v: Version
    d: GameData


BotServerMessage: TypeAlias = Annotated[
    Welcome | Invitation | InvitationGone | GameStarted | GameEnded | RefusedMessage,
    Field(discriminator="t"),
]
"""Every message ``/ws/bot`` sends."""

BOT_SERVER_MESSAGES: Final[TypeAdapter[BotServerMessage]] = TypeAdapter(BotServerMessage)


# ----- HTTP ----------------------------------------------------------------------------------

AccountNameField = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class NewChallenge(Strict):
    """``POST /api/challenges``: a game against an online program's account, signed in.

    The answer comes once the program answers: ``PartyJoined`` (a party with you as its host,
    the program joining it), or 409 ``PartyRefusal`` (offline, declined and why, no answer).
    """

    bot: AccountNameField
    """The program's account."""
    preset: Annotated[str, StringConstraints(min_length=1, max_length=40)] = "classic"
    rules: Rules | None = None
    turn_timer: TurnTimer | None = None
    ranked: bool = True
    program_pool: bool = True
    """Rate the game in the programs' pool (``winner_bots``, ``penalty_bots``); false: in
    the people's."""


class InviteBot(Strict):
    """``POST /api/parties/{code}/invite``: the host invites an online program's account.

    Answers ``InviteAnswered`` once the program has accepted (it then joins), or 409
    ``PartyRefusal``.
    """

    token: Annotated[str, StringConstraints(min_length=1, max_length=128)]
    """The host's member token."""
    bot: AccountNameField


class InviteAnswered(Strict):
    """The program accepted: it is joining the party."""

    accepted: Literal[True] = True
    bot: str


class OnlineBot(Strict):
    """A program's account online, and what it takes."""

    name: str
    limits: BotLimits
    playing: int
    """Its games not yet over."""


class OnlineBots(Strict):
    """``GET /api/bots``: the programs' accounts online, by name."""

    bots: tuple[OnlineBot, ...]
