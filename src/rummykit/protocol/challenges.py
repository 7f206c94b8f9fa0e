"""Challenges between people: the inbox socket a signed-in page keeps open.

Socket ``/ws/inbox`` (the session cookie: signed in only), first message ``{"t": "hello",
"v": 0, "d": {}}``; the server answers ``inbox`` (the challenges to you waiting for your
answer). A page challenges a person with ``challenge`` (their name and the game's
terms); the server answers ``challenge_sent`` (waiting for the answer), and sends the person,
on every page of theirs with an inbox open, ``challenged``. They ``accept`` or ``decline``
within ``CHALLENGE_EXPIRES_S``; the challenger may ``withdraw``. Accepted, both get the
``paired`` message of quick pairing (``rummykit.protocol.pairing``): a party of the two,
already started, and each one's seat. A challenge that ends otherwise is ``challenge_gone``
(with why) on the pages that showed it; to the challenger, a decline or the time running out
is a refusal saying so. Programs' accounts are challenged by ``POST /api/challenges``.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias, get_args

from pydantic import Field, StringConstraints, TypeAdapter

from rummykit.core.presets import DEFAULT_PRESET
from rummykit.protocol.facts import TurnTimer
from rummykit.protocol.messages import Hello, NoData, RefusedMessage, Strict, Version, read_message
from rummykit.protocol.pairing import PairedMessage
from rummykit.protocol.vocabularies import PresetName

CHALLENGE_EXPIRES_S: Final = 60.0
"""How long a challenge waits for its answer."""

MAX_CHALLENGES_WAITING: Final = 5
"""Challenges one person may have waiting for their answer at once: more are refused, so that
nobody's screen fills with them."""


class NewPersonChallenge(Strict):
    """Whom to challenge, and to what game."""

    player: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """The person's account name."""
    preset: PresetName = DEFAULT_PRESET
    turn_timer: TurnTimer | None = None
    """Seconds a turn (null: no limit; a ranked game needs one)."""
    ranked: bool = False


class SendChallenge(Strict):
    """Challenge a person (one challenge of yours waits at a time)."""

    t: Literal["challenge"]
    v: Version
    d: NewPersonChallenge


class ChallengeId(Strict):
    """Which challenge."""

    id: Annotated[int, Field(ge=1, le=2**53)]


class AcceptChallenge(Strict):
    """Accept a challenge made to you: the game starts at once."""

    t: Literal["accept"]
    v: Version
    d: ChallengeId


class DeclineChallenge(Strict):
    """Decline a challenge made to you."""

    t: Literal["decline"]
    v: Version
    d: ChallengeId


class WithdrawChallenge(Strict):
    """Withdraw the challenge you made."""

    t: Literal["withdraw"]
    v: Version
    d: NoData


InboxClientMessage: TypeAlias = Annotated[
    Hello | SendChallenge | AcceptChallenge | DeclineChallenge | WithdrawChallenge,
    Field(discriminator="t"),
]
"""Every message ``/ws/inbox`` accepts (``hello`` first, and only first)."""

INBOX_CLIENT_MESSAGES: Final[TypeAdapter[InboxClientMessage]] = TypeAdapter(InboxClientMessage)

INBOX_CLIENT_TYPES: Final[tuple[str, ...]] = tuple(
    get_args(model.model_fields["t"].annotation)[0]
    for model in (Hello, SendChallenge, AcceptChallenge, DeclineChallenge, WithdrawChallenge)
)


class ChallengeView(Strict):
    """A challenge as both sides see it."""

    id: int
    by: str
    """The challenger's name."""
    to: str
    """The person challenged."""
    preset: PresetName
    turn_timer: TurnTimer | None
    ranked: bool
    expires_in_s: int
    """Seconds left to answer."""


class ChallengedMessage(Strict):
    """Someone challenges you: ``accept`` or ``decline`` it."""

    t: Literal["challenged"] = "challenged"
    v: Version
    d: ChallengeView


class ChallengeSentMessage(Strict):
    """Your challenge waits for its answer."""

    t: Literal["challenge_sent"] = "challenge_sent"
    v: Version
    d: ChallengeView


class InboxView(Strict):
    """What waits for this page as its inbox opens."""

    name: str
    """Whose inbox it is (the session's account)."""
    challenges: tuple[ChallengeView, ...]
    """The challenges to you still waiting for your answer, oldest first."""


class InboxMessage(Strict):
    """The inbox is open: sent once, first."""

    t: Literal["inbox"] = "inbox"
    v: Version
    d: InboxView


GoneReason: TypeAlias = Literal["accepted", "declined", "withdrawn", "expired", "offline"]
"""Why a challenge is no longer open: answered (here or on another page), withdrawn by the
challenger, out of time, or the challenger's pages all closed."""


class ChallengeGone(Strict):
    """Which challenge, and why it closed."""

    id: int
    reason: GoneReason


class ChallengeGoneMessage(Strict):
    """A challenge shown on this page is no longer open."""

    t: Literal["challenge_gone"] = "challenge_gone"
    v: Version
    d: ChallengeGone


InboxServerMessage: TypeAlias = Annotated[
    InboxMessage
    | ChallengedMessage
    | ChallengeSentMessage
    | ChallengeGoneMessage
    | PairedMessage
    | RefusedMessage,
    Field(discriminator="t"),
]
"""Every message ``/ws/inbox`` sends."""

INBOX_SERVER_MESSAGES: Final[TypeAdapter[InboxServerMessage]] = TypeAdapter(InboxServerMessage)


def parse_inbox_message(text: str | bytes) -> InboxClientMessage:
    """Read one message of the inbox socket; ``ProtocolError`` says what is wrong."""
    return read_message(INBOX_CLIENT_MESSAGES, INBOX_CLIENT_TYPES, text)
