"""Quick pairing's wire: the pools, and the socket that seats a player with others.

``GET /api/pools`` answers ``PoolsAnswer``: the fixed pools and how many wait in each.
Socket ``/ws/pairing``, first message ``{"t": "hello", "v": 0, "d": {}}``, then ``seek``
(``{"pool": NAME, "name": "..."}``: the name is a guest's; a signed-in player plays as their
account). While waiting the server sends ``seeking`` every second (the wait, the rating range
accepted); once seated, ``paired`` with the party's seat (its token: keep it) and the table to
open. ``cancel``, or closing the socket, leaves the pool. A refusal is the table's
``refused`` message. Signed-in players are paired ranked, by rating; guests with guests, in
friendly games.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias, get_args

from pydantic import Field, TypeAdapter

from rummykit.protocol.facts import TurnTimer
from rummykit.protocol.messages import (
    Hello,
    NoData,
    RefusedMessage,
    Strict,
    Token,
    Version,
    read_message,
)
from rummykit.protocol.party import PlayerName
from rummykit.protocol.vocabularies import PresetName

PoolName: TypeAlias = Literal["duel_30", "duel_60", "four_30", "four_60"]
"""The pools of quick pairing."""


class QuickPool(Strict):
    """One pool: the table it makes."""

    name: PoolName
    seats: int
    preset: PresetName
    turn_timer: TurnTimer


QUICK_POOLS: Final[tuple[QuickPool, ...]] = (
    QuickPool(name="duel_30", seats=2, preset="classic", turn_timer=30),
    QuickPool(name="duel_60", seats=2, preset="classic", turn_timer=60),
    QuickPool(name="four_30", seats=4, preset="party", turn_timer=30),
    QuickPool(name="four_60", seats=4, preset="party", turn_timer=60),
)
"""Few pools, so that each fills fast: two players under the classic rules, four under the
party's, each with a short and a long turn timer. A game goes to the preset's target."""

POOLS_BY_NAME: Final[dict[str, QuickPool]] = {pool.name: pool for pool in QUICK_POOLS}


class PoolView(Strict):
    """A pool and who waits in it now."""

    pool: QuickPool
    ranked: int
    """Signed-in players waiting (paired ranked)."""
    friendly: int
    """Guests waiting (paired with guests, unrated)."""


class PoolsAnswer(Strict):
    """``GET /api/pools``."""

    pools: tuple[PoolView, ...]


# ----- the socket ----------------------------------------------------------------------------


class SeekData(Strict):
    """Which pool, and a guest's name."""

    pool: PoolName
    name: PlayerName | None = None
    """A guest's name at the table (a signed-in player plays as their account)."""


class Seek(Strict):
    """Wait in a pool until a table is made (one pool at a time)."""

    t: Literal["seek"]
    v: Version
    d: SeekData


class Cancel(Strict):
    """Stop waiting."""

    t: Literal["cancel"]
    v: Version
    d: NoData


PairingClientMessage: TypeAlias = Annotated[Hello | Seek | Cancel, Field(discriminator="t")]
"""Every message ``/ws/pairing`` accepts (``hello`` first, and only first)."""

PAIRING_CLIENT_MESSAGES: Final[TypeAdapter[PairingClientMessage]] = TypeAdapter(
    PairingClientMessage
)

PAIRING_CLIENT_TYPES: Final[tuple[str, ...]] = tuple(
    get_args(model.model_fields["t"].annotation)[0] for model in (Hello, Seek, Cancel)
)


class SeekingView(Strict):
    """How the wait goes."""

    pool: PoolName
    ranked: bool
    rating: int | None
    """Your displayed rating in the pool's games (ranked only)."""
    provisional: bool = False
    low: int | None
    """The low end of your range now (a player fits when their range meets it); null: no
    bounds (or a friendly pool)."""
    high: int | None
    """The high end of your range now; null: no bounds."""
    waited_s: int
    """Seconds you have waited."""
    waiting: int
    """Players waiting with you in the pool (you included)."""


class SeekingMessage(Strict):
    """Still waiting: sent on joining the pool and every second after."""

    t: Literal["seeking"] = "seeking"
    v: Version
    d: SeekingView


class PairedView(Strict):
    """A table was made: your seat at its party, already started."""

    code: str
    member: int
    token: Token
    """Your seat at the party's every table: keep it."""
    url: str
    """The party's path (``/#/party/CODE.KEY``)."""
    table: str
    """The table to open (``/ws/{table}`` with the token)."""
    ranked: bool


class PairedMessage(Strict):
    """You are seated."""

    t: Literal["paired"] = "paired"
    v: Version
    d: PairedView


PairingServerMessage: TypeAlias = Annotated[
    SeekingMessage | PairedMessage | RefusedMessage, Field(discriminator="t")
]
"""Every message ``/ws/pairing`` sends."""

PAIRING_SERVER_MESSAGES: Final[TypeAdapter[PairingServerMessage]] = TypeAdapter(
    PairingServerMessage
)


def parse_pairing_message(text: str | bytes) -> PairingClientMessage:
    """Read one message of the pairing socket; ``ProtocolError`` says what is wrong."""
    return read_message(PAIRING_CLIENT_MESSAGES, PAIRING_CLIENT_TYPES, text)
