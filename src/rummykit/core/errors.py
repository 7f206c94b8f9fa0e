"""The errors the core raises: each a ``ValueError`` with a message a player understands."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Final

from rummykit.core.error_words import ParamValue, error_text


class ErrorCode(enum.StrEnum):
    """Every stable error code of the rules: docs/RECORD.md's first, then the engine's own.

    The values never change; new codes are added, never renamed. The server's own codes
    (a party's, an account's, a stale intent's...) are ``rummykit.protocol.codes.ServerCode``.
    """

    NOT_YOUR_TURN = "not_your_turn"
    """The seat is not the one to act (or is no seat at all)."""
    WRONG_PHASE = "wrong_phase"
    """A draw after drawing, a play before drawing, or any action after the deal ended."""
    CARD_NOT_IN_HAND = "card_not_in_hand"
    """The seat does not hold that card (or not that many of it)."""
    INVALID_MELD = "invalid_meld"
    """The cards are not a set or a run under the rules."""
    MELD_LIMIT = "meld_limit"
    """The turn has laid as many new melds as ``melds_per_turn`` allows."""
    LAYOFF_NOT_ALLOWED = "layoff_not_allowed"
    """The rules forbid lay-offs before the seat's own meld."""
    LAYOFF_DOES_NOT_FIT = "layoff_does_not_fit"
    """The card does not extend that meld."""
    NO_SUCH_MELD = "no_such_meld"
    """The meld number does not exist."""
    DISCARD_TAKEN_CARD = "discard_taken_card"
    """Throwing back the card just taken from the discard pile."""
    MUST_DISCARD_TO_GO_OUT = "must_discard_to_go_out"
    """The rules require a final discard, and the action would leave no card to throw."""
    EMPTY_DISCARD = "empty_discard"
    """Drawing from an empty discard pile."""
    DISCARD_TAKE_NOT_ALLOWED = "discard_take_not_allowed"
    """Taking more than the top discard where the rules forbid it, or beyond the pile."""
    BAD_ACTION = "bad_action"
    """Text that cannot be read as an action."""
    MUST_USE_TAKEN_CARD = "must_use_taken_card"
    """Ours: under ``discard_take`` ``"any"``, the deepest card taken must be played first."""
    BAD_RECORD = "bad_record"
    """A game record that cannot be read or replayed as a whole."""
    UNSUPPORTED = "unsupported"
    """A record in a format or version this program does not play."""
    # ----- knock rummy (issue 13) -----
    KNOCK_NOT_ALLOWED = "knock_not_allowed"
    """Ours: a knock where the rules meld during play, or with more deadwood than allowed."""
    NO_MELDING = "no_melding"
    """Ours: a meld or lay-off under knock rummy, where hands are laid out only at a knock."""
    # ----- the whole hand at once (issue 28) -----
    WHOLE_HAND_ONLY = "whole_hand_only"
    """Ours: under whole-hand melding (the published Boathouse), a meld that leaves cards that
    cannot all be melded, a lay-off, or a discard before a begun going out is finished."""


ERROR_CODES: Final = tuple(code.value for code in ErrorCode)


class RummyError(ValueError):
    """Base of every error the core raises."""


class _Worded(RummyError):
    """An error worded from a stable ``reason`` and its ``params`` (``core.error_words``).

    ``str(error)`` and ``message`` are the reason's English template filled from the params;
    a page words the same reason in its own language.
    """

    def __init__(self, reason: str, **params: ParamValue) -> None:
        self.reason = reason
        self.params: dict[str, ParamValue] = dict(params)
        self.message = error_text(reason, self.params)
        super().__init__(self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.reason, self.params))


def _rebuild(kind: type[_Worded], reason: str, params: dict[str, ParamValue]) -> _Worded:
    """An error again from its reason and params (unpickling: a process pool sends them)."""
    return kind(reason, **params)


class RulesError(_Worded):
    """A rule option has a bad value, or the options cannot be played together.

    ``reason`` is one of ``rummykit.core.error_words.RULES_ERRORS``, ``params`` its values.
    """


class InvalidActionError(_Worded):
    """Text that cannot be read as an action or a card (code ``bad_action``).

    ``reason`` is one of ``rummykit.core.error_words.ACTION_ERRORS``; ``params["text"]`` the
    text that could not be read.
    """

    code = ErrorCode.BAD_ACTION


class IllegalActionError(RummyError):
    """A well-formed action that the rules refuse in this position.

    ``code`` is an ``ErrorCode``; ``message`` names the cards involved; ``reason`` is the
    finer, stable reason and ``params`` its parameters (seats as ints, cards as codes), from
    which ``rummykit.core.refusals`` renders the message (and the browser its own words).
    """

    def __init__(
        self,
        code: ErrorCode | str,
        message: str,
        *,
        reason: str = "",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.reason = reason or self.code.value
        self.params: dict[str, Any] = dict(params or {})

    def __repr__(self) -> str:
        return f"IllegalActionError({self.code.value!r}, {self.message!r})"


class RecordError(RummyError):
    """A game record that cannot be read or replayed as a whole (exit code 2).

    ``code`` is ``bad_record`` or ``unsupported``.
    """

    def __init__(self, message: str, code: ErrorCode | str = ErrorCode.BAD_RECORD) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
