"""The table's WebSocket protocol: a closed set of typed JSON messages, one parser.

Every message is an envelope ``{"t": TYPE, "v": VERSION, "d": DATA}``. The browser sends
intents; the server answers each one, and sends every seat its own view after each change.
Each message is a pydantic model; ``t`` tells them apart, and a message is read once, here,
by ``parse_client_message``. ``python -m rummykit.protocol.schema`` prints their JSON Schema.

Client to server (the first message must be ``hello``; the token never goes in the address):

- ``{"t": "hello", "v": LAST, "d": {"token": T}}`` (or ``{"watch": true}`` for a spectator,
  where the host allows it): the events missed since version ``LAST`` (all of them, when the
  table still holds them) and then the whole view.
- ``{"t": "act", "v": V, "n": N, "d": {"action": "discard Ks"}}``: an action in record
  notation without the seat (the connection's seat is used); refused as ``stale`` if ``V`` is
  not the table's current version. ``n`` (optional) numbers the seat's intents: one whose
  number was applied already (a resend after a drop) is answered with the view, not again.
- ``{"t": "next", "v": V, "n": N, "d": {}}``: ready for the next deal once the current one is
  over. A table of one person deals it at once; a table of several deals it once every person
  with a page open has pressed, or ``NEXT_DEAL_WAIT_S`` after the first press
  (``rummykit.server.tables.next_deal``).
- ``{"t": "redeal", "v": V, "n": N, "d": {}}``: throw the current deal away (it does not count)
  and deal again (a table with one person only).
- ``{"t": "hint", "v": V, "d": {}}``: ask for the strong player's advice.
- ``{"t": "pace", "v": V, "d": {"ms": 700}}``: how long the computer waits between its
  actions (0 to 5000 ms).
- ``{"t": "react", "v": V, "d": {"reaction": "good_luck"}}``: a quick reaction (``REACTIONS``).
- ``{"t": "beat", "v": V, "d": {}}``: the answer to the server's ``beat``, by a client whose
  hello asked for beats (``"beat": true``): the server takes it as gone after
  ``rummykit.server.http.heartbeat.SILENT_S`` without a word.
- ``{"t": "bye", "v": V, "d": {}}``: the page is closing on purpose (a shorter grace before
  the computer plays the seat's turns).
- ``{"t": "leave", "v": V, "d": {}}``: leave a party's table for good.
- ``{"t": "rematch", "v": V, "d": {}}``: once a party's game is over, make its next table or
  join the one made; answered with ``rematch``.

Server to client:

- ``{"t": "view", "v": V, "d": VIEW}``: the viewer's whole view (``SeatView``).
- ``{"t": "event", "v": V, "d": {"seat": S, "kind": K, "params": P, "text": ..., "action": ...,
  "card": ...}}``: one action just played, for step-by-step display (``card`` only when it is
  public). ``kind`` and ``params`` (seats as ints, cards as codes) let a client word it in its
  own language; ``text`` is the English (``rummykit.server.tables.table_words``).
- ``{"t": "refused", "v": V, "d": {"code": CODE, "reason": R, "params": P, "message": TEXT}}``:
  an intent was refused: ``code`` as in docs/RECORD.md, ``reason`` finer
  (``rummykit.core.refusals``), ``params`` its parameters, ``message`` the English sentence.
- ``{"t": "hint", "v": V, "d": {"action": A, "reason": TEXT, "kind": K, "params": P,
  "action_kind": AK, "action_params": AP}}``: advice: ``action`` in notation, ``reason`` the
  English sentence; ``kind``/``params`` (why) and ``action_kind``/``action_params`` (the
  advice, put in the reason's ``{action}``) word it in another language
  (``rummykit.bots.hint_words``).
- ``{"t": "notice", "v": V, "d": {"seat": S, "kind": K, "params": P, "text": TEXT}}``: the
  table says something no action says (the turn timer ran out; the computer plays for someone
  who dropped; they are back; the server was restarted; the stock was turned over or runs
  low; the deal is blocked). ``seat`` is the seat it is about, if any.
- ``{"t": "log", "v": V, "d": {"deal": N, "lines": [{"kind": K, "seat": S, "params": P,
  "text": TEXT}, ...]}}``: after the view that answers a hello with ``"log": true``, the
  current deal's story so far, rebuilt from the stored actions (the same after a reload or
  a restart): a page shows these lines in place of its log.
- ``{"t": "reaction", "v": V, "d": {"seat": S, "reaction": KEY, "text": TEXT}}``.
- ``{"t": "rematch", "v": V, "d": {"table": ID, "seat": S}}``: the party's next table and
  this client's seat there (a party member's token is their seat at every table of it).
- ``{"t": "beat", "v": V, "d": {"every": S, "silent": S}}``: to a client whose hello asked for
  beats, every ``every`` seconds; it answers each with a ``beat``, and is taken as gone after
  ``silent`` seconds without a word (``rummykit.server.http.heartbeat``). A page that hears
  nothing for a few beats knows its connection is dead, and opens another.

The turn timer: on a table made with ``turn_timer``, the view carries ``deadline``, the
wall-clock time (seconds since 1970, on the server's clock) at which the person whose turn it
is runs out of time, and ``server_now``, the server's clock when it made the view; a client
counts down ``deadline - server_now`` from the moment the view came, so that its own clock
does not matter. The server alone decides when the time has run out. Every seat gets the
deadline of whoever's turn it is. A person's clock starts only once a page of theirs has the
deal (``rummykit.server.tables.turn_keeper``): until then their turn carries no deadline.

Between two deals at a table of several people, the views carry who pressed "next deal"
(``next_ready``), who still reads (``next_waiting``) and when the next deal comes anyway
(``next_deadline``, with ``server_now``): ``rummykit.server.tables.next_deal``.
"""

from __future__ import annotations

import enum
import re
from typing import Annotated, Final, Literal, TypeAlias, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from rummykit.core.errors import IllegalActionError, InvalidActionError
from rummykit.core.rules import MAX_SEATS
from rummykit.protocol.codes import Code, ServerCode
from rummykit.protocol.facts import (
    DEFAULT_HINT_LEVEL,
    MAX_PACE_MS,
    BotLevel,
    HintLevel,
    RuleValue,
)
from rummykit.protocol.table_refusals import code_of, refusal_text
from rummykit.protocol.vocabularies import (
    AdviceKind,
    DealResultName,
    EventKind,
    HintKind,
    LineKind,
    MeldKindName,
    NoticeKind,
    PhaseName,
    PracticeTopic,
    PresetName,
    RefusalReason,
    RuleOption,
)

MAX_MESSAGE_CHARS: Final = 2048
"""The longest message a client may send: the longest action (a meld of a whole suit, with a
take from the discard pile) is far shorter."""

MAX_VERSION: Final = 2**53 - 1
"""The largest version a browser holds exactly (a JavaScript number)."""


class Strict(BaseModel):
    """A wire model: exact JSON types, no unknown fields, frozen once read.

    Exact: no ``"1"`` for 1, no ``"false"`` for false.
    """

    model_config = ConfigDict(
        strict=True, extra="forbid", frozen=True, use_attribute_docstrings=True
    )


Version = Annotated[int, Field(ge=0, le=MAX_VERSION)]
"""A table's version: 0 before the first deal, one more for each deal and action."""

Seat = Annotated[int, Field(ge=0, le=MAX_SEATS - 1)]
"""A seat, from 0, clockwise."""

CardText: TypeAlias = str
"""A card in notation: ``7h``, ``Ts``."""

ActionText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
"""An action in record notation without the seat, e.g. ``"meld 7h 8h 9h"``."""

Token = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
"""A seat's (or a party member's) token, as the server gave it."""

IntentNumber = Annotated[int, Field(ge=1, le=MAX_VERSION)]
"""An intent's sequence number: one more for each intent a client sends; a resend keeps it."""

ClientId = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
]
"""A client's id for its intent numbers (any random letters, digits, ``-`` and ``_``)."""

Reaction: TypeAlias = Literal[
    "good_luck", "nice_one", "good_game", "thanks", "thumbs_up", "smile", "wow", "oops"
]
"""The quick reactions a player may send (no free text)."""

REACTIONS: Final[dict[str, str]] = {
    "good_luck": "Good luck",
    "nice_one": "Nice one",
    "good_game": "Good game",
    "thanks": "Thanks",
    "thumbs_up": "\N{THUMBS UP SIGN}",
    "smile": "\N{SLIGHTLY SMILING FACE}",
    "wow": "\N{FACE WITH OPEN MOUTH}",
    "oops": "\N{GRIMACING FACE}",
}
"""What each reaction shows in English, in the order the page offers them (a page words the
code itself: catalogue key ``events.reaction.CODE``)."""

Position: TypeAlias = Literal[
    "you", "left", "far_left", "across", "across_left", "across_right", "far_right", "right"
]
"""Where a seat sits as seen from the viewer's seat, as a code."""

POSITION_WORDS: Final[dict[str, str]] = {
    "you": "You",
    "left": "Left",
    "far_left": "Far left",
    "across": "Across",
    "across_left": "Across left",
    "across_right": "Across right",
    "far_right": "Far right",
    "right": "Right",
}
"""Each position in English (a page words the code itself: key ``events.position.CODE``)."""


# ----- client to server ----------------------------------------------------------------------


class NoData(Strict):
    """The ``d`` of a message that carries nothing: ``{}``."""


class HelloData(Strict):
    """Who opens the socket: a seat's token, or a spectator."""

    token: Token | None = None
    """The seat's token (never in the socket's address, where logs would keep it)."""
    watch: bool = False
    """Watch the table instead (where its host lets people watch): the public view only."""
    client: ClientId | None = None
    """This client's id (random, made when the page or the program starts): intent numbers
    ``n`` count per client, so that a resend after a reconnection applies once."""
    log: bool = False
    """Send the current deal's story (a ``log`` frame) after the view: a page that shows a
    log of what happened asks for it, so that a reload shows the same lines."""
    beat: bool = False
    """This client answers every ``beat`` frame with a ``beat``: the server then sends one
    every few seconds (so that the client can tell a dead connection from a quiet table), and
    takes the client as gone once it has heard nothing from it for ``silent`` seconds, its
    seat's grace counted from the last word heard. A table's socket only: a party's lobby
    socket sends no beats."""


class Hello(Strict):
    """The socket's first message: whose it is, and the last version this client saw.

    The server answers with the events missed since ``v`` (when it still holds them all),
    then the whole view. ``v`` 0: a client that saw nothing yet.
    """

    t: Literal["hello"]
    v: Version
    d: HelloData


class ReactData(Strict):
    """A quick reaction."""

    reaction: Reaction
    """One of ``REACTIONS``."""


class ActData(Strict):
    """What to play."""

    action: ActionText
    """The action in record notation without the seat, e.g. ``"draw stock"``."""


class PaceData(Strict):
    """How long the computer waits before each of its actions."""

    ms: Annotated[int, Field(ge=0, le=MAX_PACE_MS)]
    """Milliseconds, from 0 to 5000."""


class Act(Strict):
    """Play an action for the connection's seat."""

    t: Literal["act"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number, one more for each the client sends (from 1, per ``client`` id
    of the hello): one resent with a number already applied is answered with the view and
    not applied again."""
    d: ActData


class Next(Strict):
    """Ready for the next deal once the current one is over.

    One person's table deals it at once; several people's waits
    (``rummykit.server.tables.next_deal``).
    """

    t: Literal["next"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number, one more for each the client sends (from 1, per ``client`` id
    of the hello): one resent with a number already applied is answered with the view and
    not applied again."""
    d: NoData


class Redeal(Strict):
    """Throw the current deal away (it does not count) and deal again."""

    t: Literal["redeal"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number, one more for each the client sends (from 1, per ``client`` id
    of the hello): one resent with a number already applied is answered with the view and
    not applied again."""
    d: NoData


class HintData(Strict):
    """Whose advice a hint asks for: ``{}`` asks the strong player."""

    level: HintLevel = DEFAULT_HINT_LEVEL
    """The computer player that advises (``TABLE_HINT_LEVELS``)."""


class HintRequest(Strict):
    """Ask for a computer player's advice on this turn (the strong player's by default)."""

    t: Literal["hint"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number (optional): any refusal of it carries the same ``n``."""
    d: HintData


class Pace(Strict):
    """Set the computer's pace at this table."""

    t: Literal["pace"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number (optional): any refusal of it carries the same ``n``."""
    d: PaceData


class React(Strict):
    """Send a quick reaction to everyone at the table (a few at most, every few seconds)."""

    t: Literal["react"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number (optional): any refusal of it carries the same ``n``."""
    d: ReactData


class BeatBack(Strict):
    """The answer to the server's ``beat``: this client is still there."""

    t: Literal["beat"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number (optional): any refusal of it carries the same ``n``."""
    d: NoData


class Bye(Strict):
    """The page is being closed on purpose: the computer may take the seat's turns sooner."""

    t: Literal["bye"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number (optional): any refusal of it carries the same ``n``."""
    d: NoData


class Leave(Strict):
    """Leave a party's table for good: the computer plays the seat to the end."""

    t: Literal["leave"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number (optional): any refusal of it carries the same ``n``."""
    d: NoData


class Rematch(Strict):
    """Once a party's game is over: make its next table, or join the one already made."""

    t: Literal["rematch"]
    v: Version
    n: IntentNumber | None = None
    """The intent's number (optional): any refusal of it carries the same ``n``."""
    d: NoData


ClientMessage: TypeAlias = Annotated[
    Act | Next | Redeal | HintRequest | Pace | React | Bye | Leave | Rematch | Hello | BeatBack,
    Field(discriminator="t"),
]
"""Every message a client may send (``hello`` first, and only first)."""

CLIENT_MESSAGES: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
"""The one reader of client messages."""

CLIENT_TYPES: Final[tuple[str, ...]] = tuple(
    get_args(model.model_fields["t"].annotation)[0]
    for model in (
        Act,
        Next,
        Redeal,
        HintRequest,
        Pace,
        React,
        Bye,
        Leave,
        Rematch,
        Hello,
        BeatBack,
    )
)
"""Every message type a client may send."""


class CloseCode(enum.IntEnum):
    """Why the server closed a socket: every code it uses, written here once.

    The page reconnects after any of them (with a growing wait) except ``NO_SEAT``.
    """

    BAD_TEXT = 1007
    """A text frame that is not UTF-8: the WebSocket standard's own code, sent before the frame
    is read (``rummykit.server.http.frame_guard``)."""
    MESSAGE_TOO_BIG = 1009
    """A frame larger than ``MAX_SOCKET_MESSAGE_BYTES`` (16 KiB): the WebSocket standard's own
    code, sent by uvicorn before the frame is read."""
    TRY_AGAIN_LATER = 1013
    """The server cannot reach its database or Redis just now (an outage): the WebSocket
    standard's "try again later"; the reason is a sentence for the player."""
    BAD_QUERY = 4400
    """The socket's first message was not a ``hello`` that can be read, or came too late; or
    its address had a query (a token goes in the hello, never in the address)."""
    NOT_A_PROGRAM = 4401
    """The bot stream (``/ws/bot``) was opened without a session of a program's account."""
    FOREIGN_ORIGIN = 4403
    """Opened from another site's page, which may not play for you."""
    NO_SEAT = 4404
    """The token holds no seat at that table (or the table cannot be watched)."""
    TOO_SLOW = 4408
    """The reader fell too far behind its frames; reconnecting gives the table as it stands."""
    TOO_MANY_PAGES = 4409
    """The seat is open in too many pages at once, or the address holds too many sockets."""
    SILENT = 4410
    """Nothing came from a client that asked for beats for ``silent`` seconds: the server took
    it as gone (a connection that died without closing); reconnecting gives the seat back."""
    REPLACED = 4411
    """Another connection of the same program's account took over its bot stream."""
    TOO_MANY_MESSAGES = 4429
    """Messages came faster than a person plays."""
    MOVED = 4503
    """This server process no longer serves the table (another owns it now): reconnect, to
    any process of the site."""


class ProtocolError(ValueError):
    """A message that cannot be read; answered with ``refused`` and code ``bad_message``."""

    code: Final = ServerCode.BAD_MESSAGE


_UNION_MEMBER = re.compile(r"(constrained-)?(bool|int|float|str|none)")
"""How pydantic names the members of a plain union in an error's location."""


def _field(error: ErrorDetails, kinds: tuple[str, ...]) -> str:
    """The field an error is about, as ``d.action`` or ``rules.target``."""
    location = [str(part) for part in error["loc"]]
    if kinds and location and location[0] in kinds:
        location = location[1:]  # the message type pydantic puts first
    return ".".join(part for part in location if not _UNION_MEMBER.fullmatch(part))


def _whole(error: ErrorDetails, subject: str, kinds: tuple[str, ...]) -> str | None:
    """The sentence for an error about the message or body as a whole, if it is one."""
    kind = error["type"]
    if kind == "json_invalid":
        return f"The {subject} is not JSON: {error['msg'].removeprefix('Invalid JSON: ')}."
    if kind == "union_tag_not_found":
        return f"The {subject} has no type t: use one of {', '.join(kinds)}."
    if kind == "union_tag_invalid":
        tag = (error.get("ctx") or {}).get("tag")
        return f"Unknown {subject} type t={tag!r}: use one of {', '.join(kinds)}."
    if kind in ("dict_type", "model_type", "model_attributes_type") and not error["loc"]:
        return f"The {subject} must be a JSON object."
    return None


def _about_field(field: str, errors: list[ErrorDetails]) -> str:
    """One sentence for one field; several errors on it are the members of a union."""
    if len(errors) == 1:
        return f"{field}: {errors[0]['msg']}."
    # a value out of a member's bounds says more than "not a boolean" from the others
    bounded = [error for error in errors if not error["type"].endswith("_type")]
    if bounded:
        return f"{field}: {bounded[0]['msg']}."
    kinds = [error["msg"].removeprefix("Input should be ") for error in errors]
    return f"{field}: Input should be {', '.join(kinds[:-1])} or {kinds[-1]}."


def explain(error: ValidationError, subject: str, kinds: tuple[str, ...] = ()) -> str:
    """What is wrong with a message or a request, naming each field (at most three)."""
    errors = error.errors(include_url=False)
    for each in errors:
        whole = _whole(each, subject, kinds)
        if whole is not None:
            return whole
    by_field: dict[str, list[ErrorDetails]] = {}
    for each in errors:
        by_field.setdefault(_field(each, kinds) or subject, []).append(each)
    # a list too short after its bad item was dropped: the item is the news
    fields = [
        field for field in by_field if not any(other.startswith(field + ".") for other in by_field)
    ]
    said = " ".join(_about_field(field, by_field[field]) for field in fields[:3])
    if len(fields) > 3:
        said += f" And {len(fields) - 3} more."
    return said


Read = TypeVar("Read")


def read_message(adapter: TypeAdapter[Read], kinds: tuple[str, ...], text: str | bytes) -> Read:
    """Read one message of a socket by ``adapter``, whose types are ``kinds``.

    ``ProtocolError`` says what is wrong with it (too long, or which field).
    """
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError(f"The message is longer than {MAX_MESSAGE_CHARS} characters.")
    try:
        return adapter.validate_json(text)
    except ValidationError as error:
        raise ProtocolError(explain(error, "message", kinds)) from None


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Read one message from a client; ``ProtocolError`` says what is wrong with it."""
    return read_message(CLIENT_MESSAGES, CLIENT_TYPES, text)


# ----- server to client: the view ------------------------------------------------------------


class PlayerView(Strict):
    """A player as every seat sees them."""

    name: str
    kind: Literal["human", "bot"]
    level: BotLevel | None
    """The computer's level; null for a person."""
    position: Position | Literal[""]
    """Where they sit from the viewer, as a code: ``you``, ``left``, ``across``... (a
    spectator sees the name alone: an empty position)."""
    connected: bool = True
    """A person with a page open at the table (a computer player always is)."""
    stand_in: bool = False
    """The computer is playing this person's turns (they dropped, or left for good)."""
    left: bool = False
    """The person left for good: the computer plays the seat to the end."""
    program: bool = False
    """A program's account plays this seat (shown with a BOT mark)."""


class MeldView(Strict):
    """A meld on the table."""

    owner: Seat
    kind: MeldKindName
    """``set`` or ``run``."""
    cards: tuple[CardText, ...]
    """Its cards as laid, a joker written ``X=6h`` for the card it stands for."""
    start: int = 0
    """A run's first position (an ace-low run starts at 1, an ace-high one ends at 14)."""
    points: int = 0
    """What its cards scored as they were laid, under meld points (500 Rum)."""


class LaidOutView(Strict):
    """Knock rummy: one hand spread at the deal's end, its melds and its loose cards."""

    melds: tuple[MeldView, ...]
    """The hand's melds, in the split that leaves the least deadwood (owner: the seat)."""
    deadwood: tuple[CardText, ...]
    """The loose cards, dearest first."""
    value: int
    """What the loose cards count."""


class DealResultView(Strict):
    """How the deal just over ended, with every hand shown."""

    result: DealResultName | None
    """``out``, ``rummy``, ``blocked``, or under knock rummy ``knock`` or ``undercut``."""
    winner: Seat | None
    points: tuple[int, ...]
    hands: tuple[tuple[CardText, ...], ...]
    values: tuple[int, ...]
    """What each hand left costs (under knock rummy: its deadwood, as counted)."""
    knocker: Seat | None = None
    """Knock rummy: the seat that knocked (``None``: nobody knocked)."""
    laid_out: tuple[LaidOutView, ...] | None = None
    """Knock rummy: every hand spread in its melds, by seat (``None`` in other rules)."""


class DealSummaryView(Strict):
    """A deal played, for the score sheet."""

    dealer: Seat
    result: DealResultName | None
    winner: Seat | None
    points: tuple[int, ...]


class SeatView(Strict):
    """Everything one seat may see: never another seat's hidden cards, never the stock."""

    table: str
    seat: Seat | None
    """The viewer's seat; null for a spectator, who sees no hand."""
    practice: bool
    preset: PresetName
    rules: dict[RuleOption, RuleValue]
    players: tuple[PlayerView, ...]
    deal: int
    dealer: Seat
    turn: Seat
    phase: PhaseName
    """``draw``, ``play`` or ``over``."""
    hand: tuple[CardText, ...]
    hand_value: int
    """What the hand costs; under knock rummy, its deadwood (what a knock would count)."""
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[CardText, ...], ...]
    """The cards each seat is known to hold (taken from the pile, not yet played)."""
    melds: tuple[MeldView, ...]
    discard: tuple[CardText, ...]
    """The discard pile, bottom first."""
    stock: int
    """How many cards the stock holds: never which."""
    renewals_used: int
    idle_renewals_used: int = 0
    """Renewals since a card was last melded or laid off: the count ``idle_renewals`` limits."""
    scores: tuple[int, ...]
    taken: CardText | None
    """The card just taken from the discard pile this turn, which may not be thrown back."""
    turn_number: int
    """Turns begun in this deal so far, the first being 1."""
    has_laid: tuple[bool, ...]
    """For each seat, whether it melded or laid off on an earlier turn of this deal."""
    first_meld_turns: tuple[int | None, ...]
    """For each seat, the turn of its first meld in this deal (null: none yet)."""
    refused: tuple[tuple[CardText, ...], ...]
    """For each seat, the top discards it left lying when it drew from the stock, in order."""
    thrown: tuple[tuple[CardText, ...], ...] = ()
    """For each seat, the cards it discarded in this deal, in order."""
    must_play: CardText | None
    """The card taken from deep in the pile that the seat to act must still meld or lay off."""
    melds_this_turn: int
    """New melds laid so far in this turn."""
    played_this_turn: bool
    """Whether the seat to act has melded or laid off in this turn."""
    legal: tuple[str, ...]
    """This seat's legal actions, when it is to act."""
    can_draw_stock: bool
    deal_result: DealResultView | None
    history: tuple[DealSummaryView, ...]
    game_over: bool
    winner: Seat | None
    target: int
    deals_limit: int | None
    lower_wins: bool
    pace_ms: int
    topics: tuple[PracticeTopic, ...]
    """The rules the practice game explains now."""
    turn_timer: int | None = None
    """Seconds a person has for each turn at this table; null: no limit."""
    deadline: float | None = None
    """When the turn's time runs out (seconds since 1970, on the server's clock): set while a
    person's turn is timed, whoever's view it is; null otherwise."""
    server_now: float | None = None
    """The server's clock when it made this view, set with ``deadline`` or
    ``next_deadline``: count down ``deadline - server_now`` (or ``next_deadline -
    server_now``) from the view's arrival, whatever this device's clock says."""
    next_ready: tuple[Seat, ...] = ()
    """Between two deals at a table of several people: the seats whose people pressed "next
    deal" (empty at a table of one person, which deals at once)."""
    next_waiting: tuple[Seat, ...] = ()
    """Between two deals at a table of several people, once someone pressed "next deal": the
    people with a page open whose press the next deal still waits for."""
    next_deadline: float | None = None
    """Between two deals at a table of several people, from the first press of "next deal":
    when the next deal starts whoever is still reading (server clock); null otherwise."""
    party: str | None = None
    """The party's code, at a party's table (null at a table against the computer)."""
    next_table: str | None = None
    """The party's rematch, once someone made it: ``rematch`` joins it."""
    paused: bool = False
    """No player has a page open: the table waits for one to come back."""
    watchers: int = 0
    """How many spectators are watching."""
    table_points: tuple[int, ...] = ()
    """For each seat, what the cards it laid on the table this deal scored (meld points)."""


# ----- server to client: the messages --------------------------------------------------------


ParamValue: TypeAlias = int | str | list[str] | None
"""A parameter of a refusal, event or notice: a seat or count, a card code, codes, a word."""

Params: TypeAlias = dict[str, ParamValue]
"""The parameters of a refusal, event or notice, by placeholder name."""


class Event(Strict):
    """One action just played."""

    seat: Seat
    action: str
    """The action in notation, without the seat."""
    card: CardText | None
    """The card it showed, when it is public."""
    kind: EventKind
    """What happened (``draw_stock``, ``take_discard``, ``meld``, ...:
    ``rummykit.protocol.event_words.ACTION_EVENTS``)."""
    params: Params = Field(default_factory=dict)
    """The kind's parameters: ``seat``, ``card``, ``meld``..."""
    text: str
    """The action in words, for the viewer (English)."""


class Notice(Strict):
    """Something the table says that no action says."""

    seat: Seat | None
    """The seat it is about, if any."""
    kind: NoticeKind
    """What it says (``time_ran_out``, ``renewed_flip``, ``stock_low``, ``blocked``, ...:
    ``rummykit.protocol.event_words.NOTICES``)."""
    params: Params = Field(default_factory=dict)
    """The kind's parameters."""
    text: str
    """A sentence for the viewer (English)."""


class LogLine(Strict):
    """One line of the current deal's story: an action's event, or a notice."""

    kind: LineKind
    """An event's kind, a deal's line's or a notice's (``rummykit.protocol.event_words``)."""
    seat: Seat | None
    params: Params
    text: str
    """The line in English, for the viewer."""


class Log(Strict):
    """The current deal's story so far."""

    deal: int
    """The deal it tells (from 0)."""
    lines: tuple[LogLine, ...]


class Refusal(Strict):
    """Why an intent was refused."""

    code: Code
    """A rule's code (``rummykit.core.errors.ErrorCode``) or the server's own
    (``rummykit.protocol.codes.ServerCode``)."""
    reason: RefusalReason
    """The finer, stable reason: the rules' (``rummykit.core.refusals.REFUSALS``), the
    table's (``rummykit.protocol.table_refusals``) or a party's
    (``rummykit.protocol.party_words``)."""
    params: Params = Field(default_factory=dict)
    """The reason's parameters: seats as ints, cards as codes, counts as ints."""
    message: str
    """A sentence for the player (English)."""


class Advice(Strict):
    """The strong player's advice: an action and why, as kinds with params and in English."""

    action: str
    """The action in notation, without the seat (``discard Ks``)."""
    reason: str
    """The whole sentence in English: the advice, and why."""
    kind: HintKind
    """Why, as a kind (``deadwood``, ``take_makes``, ...: ``rummykit.bots.hint_words.REASONS``);
    its template puts the advice in ``{action}``."""
    params: Params
    """The reason's parameters: cards as codes, melds as lists of codes, points as ints."""
    action_kind: AdviceKind
    """The advice, as a kind (``discard``, ``take_discard``, ...:
    ``rummykit.bots.hint_words.ADVICE``)."""
    action_params: Params
    """The advice's parameters."""


class ViewMessage(Strict):
    """The seat's whole view, after each change and in answer to a pace."""

    t: Literal["view"] = "view"
    v: Version
    d: SeatView


class EventMessage(Strict):
    """An action just played; the view follows."""

    t: Literal["event"] = "event"
    v: Version
    d: Event


class RefusedMessage(Strict):
    """An intent refused; the table is unchanged.

    ``v`` is the table's version the intent was judged against (the current one).
    """

    t: Literal["refused"] = "refused"
    v: Version
    n: IntentNumber | None = Field(default=None, exclude_if=lambda n: n is None)
    """The ``n`` of the intent refused, when it carried one: a client with several intents
    in flight knows which one this answers."""
    d: Refusal


class AppliedMessage(Strict):
    """The intent numbered ``n`` (an ``act``, ``next``, ``redeal`` or ``pace``) was applied.

    Sent to the connection that sent it, after the frames its change brought (the view, the
    event); ``v`` is the table's version then. A resend of an intent applied already is
    answered with the view and this again. An intent without ``n`` gets no ``applied``.
    """

    t: Literal["applied"] = "applied"
    v: Version
    n: IntentNumber


class HintMessage(Strict):
    """Advice, in answer to a hint."""

    t: Literal["hint"] = "hint"
    v: Version
    d: Advice


class NoticeMessage(Strict):
    """The table says something no action says (the turn timer ran out, say)."""

    t: Literal["notice"] = "notice"
    v: Version
    d: Notice


class LogMessage(Strict):
    """The current deal's story, after the view that answers a hello."""

    t: Literal["log"] = "log"
    v: Version
    d: Log


class Reacted(Strict):
    """A quick reaction someone sent."""

    seat: Seat
    reaction: Reaction
    text: str
    """What it shows in English (``REACTIONS``), for programs: a page words ``reaction``."""


class ReactionMessage(Strict):
    """A player's quick reaction, shown briefly at their seat."""

    t: Literal["reaction"] = "reaction"
    v: Version
    d: Reacted


class NextTable(Strict):
    """The party's next table and this client's seat there (the same token opens it)."""

    table: str
    seat: Seat


class RematchMessage(Strict):
    """The answer to ``rematch``: the next table, where this client keeps its seat."""

    t: Literal["rematch"] = "rematch"
    v: Version
    d: NextTable


class Beat(Strict):
    """The server's beat: the connection is alive, whatever the table is doing."""

    every: float
    """Seconds until the next beat: a client that hears nothing for a few of them may take
    the connection for dead, close it and open another."""
    silent: float
    """Seconds without a word from this client (a ``beat`` back, or any message) after which
    the server takes it as gone."""


class BeatMessage(Strict):
    """Sent every few seconds to a client whose hello asked for beats; answer with ``beat``."""

    t: Literal["beat"] = "beat"
    v: Version
    d: Beat


ServerMessage: TypeAlias = Annotated[
    ViewMessage
    | EventMessage
    | RefusedMessage
    | AppliedMessage
    | HintMessage
    | NoticeMessage
    | LogMessage
    | ReactionMessage
    | RematchMessage
    | BeatMessage,
    Field(discriminator="t"),
]
"""Every message the server sends."""

SERVER_MESSAGES: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)
"""Every server message, for the schema and for clients in Python."""


def refusal(
    version: int,
    code: Code,
    message: str,
    *,
    reason: str = "",
    params: Params | None = None,
) -> RefusedMessage:
    """A ``refused`` message (``reason``: the code's value when none is finer).

    The reason must be one the table, the rules or a party define (``RefusalReason``): the
    code's own value serves only where a reason of that name exists (``bad_message``).
    """
    refused = Refusal(code=code, reason=reason or code.value, params=params or {}, message=message)
    return RefusedMessage(v=version, d=refused)


def intent_number(message: ClientMessage) -> int | None:
    """The ``n`` a client gave ``message`` (``None``: none, or a ``hello``, which has none)."""
    return None if isinstance(message, Hello) else message.n


def numbered(refusal: ServerMessage, number: int | None) -> ServerMessage:
    """``refusal`` marked with the ``n`` of the intent it answers (other messages as they are)."""
    if number is None or not isinstance(refusal, RefusedMessage):
        return refusal
    return refusal.model_copy(update={"n": number})


def refused(version: int, reason: str, **params: ParamValue) -> RefusedMessage:
    """A ``refused`` message for one of ``rummykit.core.refusals``'s reasons."""
    return refusal(
        version, code_of(reason), refusal_text(reason, params), reason=reason, params=params
    )


def refused_for(version: int, error: IllegalActionError | InvalidActionError) -> RefusedMessage:
    """The ``refused`` message of an engine's error."""
    if isinstance(error, InvalidActionError):
        return refusal(version, error.code, error.message, reason=error.reason, params=error.params)
    params = {
        name: list(value) if isinstance(value, tuple) else value
        for name, value in error.params.items()
    }
    return refusal(version, error.code, error.message, reason=error.reason, params=params)


def encode(message: ServerMessage) -> str:
    """A server message as JSON text."""
    return message.model_dump_json()
