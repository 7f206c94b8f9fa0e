"""The HTTP API's request bodies, headers and answers, as typed models.

Each is read once, where the request comes in (``read_body``, ``read_bearer``); a body or a
header that cannot be read raises ``BadRequest`` with a sentence naming the field. No route
reads a query: a seat's token never travels in an address.
"""

from __future__ import annotations

from typing import Annotated, Final, TypeAlias, TypeVar

from pydantic import (
    AfterValidator,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from rummykit.core.errors import RulesError
from rummykit.core.rules import MAX_SEATS
from rummykit.protocol.answer_words import answer_text
from rummykit.protocol.codes import ServerCode
from rummykit.protocol.facts import BotLevel, RuleValue, TurnTimer
from rummykit.protocol.messages import (
    Params,
    ParamValue,
    SeatView,
    Strict,
    Token,
    Version,
    explain,
)
from rummykit.protocol.names import NameRefused, checked_player_name
from rummykit.protocol.vocabularies import PresetName, RuleOption

MAX_BODY_BYTES: Final = 16_384
"""The largest request body read: a table's settings with every option fit in a tenth."""

MAX_SEED: Final = 2**63 - 1
"""Seeds fit a signed 64-bit integer, as every store and client can hold them."""

SEED_REFUSED: Final = (
    "seed: this server shuffles with the operating system's randomness, so that nobody can "
    "know the cards in advance; a seed is accepted only by a server made for tests."
)
"""The answer to a seed sent to a live server (a table's or a party's)."""

MAX_RULE_NUMBER: Final = 2**31 - 1
"""A bound on numbers in rule options far beyond any playable value (a target of 1,000 is
already a long evening); the rules check the real ranges."""

Model = TypeVar("Model", bound=Strict)

OptionName = Annotated[str, StringConstraints(min_length=1, max_length=40)]
"""A rule option's name, checked against the rules by the engine."""

RuleInput: TypeAlias = (
    bool
    | Annotated[int, Field(ge=-MAX_RULE_NUMBER, le=MAX_RULE_NUMBER)]
    | Annotated[float, Field(ge=-MAX_RULE_NUMBER, le=MAX_RULE_NUMBER, allow_inf_nan=False)]
    | Annotated[str, StringConstraints(max_length=40)]
    | None
)
"""One rule option's value as sent: a number, a word, a yes/no, or null for no limit.

A fraction is read here so that the rules can say why it is refused ("a whole number").
"""


MAX_HISTORY_TOKENS: Final = 200
"""The most seat tokens one ``POST /api/history`` may ask about (the page sends more in
several requests). 200 tokens of 64 characters fit well inside ``MAX_BODY_BYTES``; a guess at
someone's token is no likelier 200 at a time (a token is 192 random bits)."""

BEARER: Final = "Bearer "
"""How a token comes in the ``Authorization`` header: ``Bearer TOKEN``."""

_TOKEN: Final = TypeAdapter(Token)


class BadRequest(ValueError):
    """A request that cannot be read; answered 400 (413 if too large) with the sentence.

    ``reason`` and ``params``: what a page words in its own language, when the request was
    refused for a person's name alone (``rummykit.protocol.names.NAME_REFUSALS``, ``params``
    naming the ``field``); otherwise empty, and the sentence is for programs and logs (a page
    sends no request the server cannot read).
    """

    code: Final = ServerCode.BAD_MESSAGE

    def __init__(
        self,
        message: str,
        status: int = 400,
        *,
        reason: str = "",
        params: Params | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.reason = reason
        self.params: Params = params or {}


class NewTable(Strict):
    """``POST /api/tables``: a table for one person against the computer.

    Fields left out take the default shown. A practice table plays the ``practice`` preset
    against one strong computer player: with ``practice`` true, leave ``preset``, ``rules``
    and ``opponents`` out or send exactly that.
    """

    preset: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None
    """The house rules to start from (default ``classic``; ``practice`` for practice)."""
    rules: Annotated[dict[OptionName, RuleInput], Field(max_length=64)] | None = None
    """Options that differ from the preset, by name (see ``GET /api/options``)."""
    opponents: (
        Annotated[tuple[BotLevel, ...], Field(min_length=1, max_length=MAX_SEATS - 1)] | None
    ) = None
    """One to seven computer players by level (default one ``basic``; more than five need
    two decks)."""
    name: Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=1, max_length=24),
        AfterValidator(checked_player_name),
    ] = "You"
    """The person's name at the table: no hidden characters, no BOT mark."""
    practice: bool = False
    """A practice game, which explains each rule as it first comes up."""
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = None
    """Makes the deals reproducible: accepted only by a server made for tests (a live table
    shuffles with the operating system's randomness and answers 400 to a seed)."""
    turn_timer: TurnTimer | None = None
    """Seconds the person has for each turn, 30 or 60 (default ``null``: no limit). When they
    run out, the computer plays the rest of that turn for them."""

    @field_validator("turn_timer", mode="before")
    @classmethod
    def _whole_seconds(cls, value: object) -> object:
        # a Literal takes 30.0 for 30: the timer is whole seconds, as the schema says
        if isinstance(value, float):
            raise ValueError("Input should be 30 or 60, whole seconds")
        return value


class RulesAsked(Strict):
    """``POST /api/rules``: what a preset with these options makes, asked as a form changes.

    The forms keep no rule of their own: the ties between options and the table sizes the
    rules can deal come back in ``RulesInPlay``. Rules that cannot be played together are
    answered 400 with the sentence that says why.
    """

    preset: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """The house rules to start from."""
    rules: Annotated[dict[OptionName, RuleInput], Field(max_length=64, default_factory=dict)]
    """Options set in the form, by name: those equal to what the preset makes are dropped."""


class RulesInPlay(Strict):
    """The answer to ``POST /api/rules``."""

    preset: PresetName
    rules: dict[RuleOption, RuleValue]
    """The options that differ from the preset (what a new table or a party takes)."""
    in_play: dict[RuleOption, RuleValue]
    """Every option's value at the table: the preset's, after its ties, with the changes."""
    seats: list[int]
    """The table sizes the preset is made for that these rules can deal, smallest first."""
    hands: dict[str, int]
    """Cards dealt to each player at each of those table sizes (``"2": 10``)."""


class TableCreated(Strict):
    """The answer to ``POST /api/tables``: the table and the seat's token (keep it)."""

    table: str
    token: str
    seat: int


class TableAnswer(Strict):
    """The answer to ``GET /api/tables/{id}`` (``Authorization: Bearer T``): that seat's view."""

    seat: int
    version: Version
    view: SeatView


class HistoryRequest(Strict):
    """``POST /api/history``: the seat tokens this browser holds, to list their finished games.

    Tokens go in the body, not the address, so that no log of addresses keeps them.
    """

    tokens: Annotated[tuple[Token, ...], Field(max_length=MAX_HISTORY_TOKENS)]
    """Seat tokens, as ``POST /api/tables`` gave them (at most ``MAX_HISTORY_TOKENS``)."""


class FinishedGame(Strict):
    """One finished game in the history, as its summary was stored when it ended."""

    id: str
    """The table's id: ``/api/games/{id}/record`` and ``/frames`` with a seat's token."""
    created: float
    """When the table was made (seconds since 1970)."""
    finished: float
    """When the game ended (seconds since 1970)."""
    players: list[str]
    """The names at the table, seat by seat."""
    scores: list[int]
    """The final scores, seat by seat."""
    winner: int | None
    """The winning seat."""
    deals: int
    """How many deals were played."""
    preset: str
    """The house rules the table started from."""
    seat: int | None = None
    """Your seat at it (the seat of the token sent that found it); null for a game listed
    because the history is public."""


class ShareAnswer(Strict):
    """``GET /api/games/{table}/share``: whether anyone may open the game by its short link."""

    public: bool
    """A finished rated game, or any game where the history is public; false otherwise (for
    an id that is no game too: a stranger learns nothing)."""


class HistoryAnswer(Strict):
    """The answer to ``POST /api/history`` (and to ``GET`` where the history is public)."""

    games: list[FinishedGame]
    """Finished games, newest first: those of the tokens sent, and, where the host made the
    history public, the newest of all (at most 100 of those)."""
    public: bool
    """Whether this server shows every finished game to everyone (the host's choice)."""
    unknown: list[str]
    """The tokens sent that hold no seat here (never issued, or expired a while after their
    game ended): a page may forget them."""


class ErrorAnswer(Strict):
    """Any 4xx answer: a sentence for the player, naming the field at fault."""

    error: str
    """The sentence, in English."""
    reason: str = Field(default="", exclude_if=lambda reason: not reason)
    """The reason ``error`` words, for a page to word it in its own language: rules that
    cannot be played (``rummykit.core.error_words.RULES_ERRORS``) or a person's name refused
    (``rummykit.protocol.names.NAME_REFUSALS``) or the edge's own answer
    (``rummykit.protocol.answer_words.ANSWER_REFUSALS``); absent otherwise, where ``error``
    is for programs and logs."""
    params: Params = Field(default_factory=dict, exclude_if=lambda params: not params)
    """The reason's parameters (absent when it has none)."""

    @classmethod
    def said(cls, reason: str, **params: ParamValue) -> ErrorAnswer:
        """The answer of the server's own ``reason`` (``ANSWER_REFUSALS``): its sentence."""
        return cls(error=answer_text(reason, params), reason=reason, params=params)

    @classmethod
    def of(cls, error: RulesError | BadRequest) -> ErrorAnswer:
        """The answer for rules that cannot be played or a request that cannot be read.

        The sentence, and its reason and params when it has them.
        """
        return cls(error=error.message, reason=error.reason, params=error.params)


def read_body(model: type[Model], raw: bytes) -> Model:
    """``raw`` read as ``model``; ``BadRequest`` says which field is wrong."""
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        reason, params = _name_refused(error)
        raise BadRequest(explain(error, "request body"), reason=reason, params=params) from None


def _name_refused(error: ValidationError) -> tuple[str, Params]:
    """The reason and params of a body refused for a person's name alone; else ``("", {})``."""
    errors = error.errors()
    cause = (errors[0].get("ctx") or {}).get("error") if len(errors) == 1 else None
    if not isinstance(cause, NameRefused):
        return "", {}
    return cause.reason, {"field": ".".join(str(part) for part in errors[0]["loc"])}


def read_bearer(header: str | None) -> str | None:
    """The seat token of an ``Authorization: Bearer TOKEN`` header, or ``None`` without one.

    ``BadRequest`` if the header is there but is not a bearer token.
    """
    if header is None:
        return None
    if not header.startswith(BEARER):
        raise BadRequest(f"Authorization: send a seat's token as {BEARER}TOKEN.")
    try:
        return _TOKEN.validate_python(header[len(BEARER) :].strip(), strict=True)
    except ValidationError as error:
        raise BadRequest(explain(error, "Authorization")) from None
