"""The errors the core raises: each a ``ValueError`` with a message a player understands."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Final


class ErrorCode(enum.StrEnum):
    """Every stable error code: docs/RECORD.md's first, then the engine's and the server's own.

    The values never change; new codes are added, never renamed.
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
    STALE = "stale"
    """The server's: an intent sent against an earlier version of the table."""
    GAME_OVER = "game_over"
    """The server's: the game has ended, so no more deals or actions."""
    BAD_MESSAGE = "bad_message"
    """The server's: a message or request body that cannot be read."""
    TOO_FAST = "too_fast"
    """The server's: reactions (or other chatter) sent faster than the table allows."""
    NOT_HOST = "not_host"
    """The server's: only the party's host may change its rules, seats or start it."""
    NOT_READY = "not_ready"
    """The server's: a party that cannot start yet (too few seats, someone not ready)."""
    PARTY_FULL = "party_full"
    """The server's: every seat of the party is taken (watching may still be open)."""
    PARTY_STARTED = "party_started"
    """The server's: the party's game has started, or the party has closed."""
    NOT_A_PARTY = "not_a_party"
    """The server's: a rematch or a leave asked at a table that is not a party's."""
    NO_HINTS = "no_hints"
    """The server's: hints are for games against the computer, not at a table of people."""
    NAME_TAKEN = "name_taken"
    """The server's: an account of that name exists already (names ignore case)."""
    BAD_LOGIN = "bad_login"
    """The server's: no account has that name and password."""
    TOO_MANY_ATTEMPTS = "too_many_attempts"
    """The server's: too many failed sign-ins for the name or from the address; wait."""
    NOT_SIGNED_IN = "not_signed_in"
    """The server's: the request needs an account's session, and has none that works."""
    RANKED_COMPUTER = "ranked_computer"
    """The server's: a ranked party seats people only, no computer player."""
    RANKED_TIMER = "ranked_timer"
    """The server's: a ranked party needs a turn timer of 30 or 60 seconds."""
    RANKED_ACCOUNT = "ranked_account"
    """The server's: every member of a ranked party must join signed in to an account."""
    RANKED_BUSY = "ranked_busy"
    """The server's: an account is already playing a ranked game (one at a time)."""
    RANKED_WAIT = "ranked_wait"
    """The server's: an account that left ranked games early waits before the next one."""
    TRY_AGAIN = "try_again"
    """The server's: it could not keep the intent just now (its database was out of reach);
    nothing changed: send it again."""
    # ----- knock rummy (issue 13) -----
    KNOCK_NOT_ALLOWED = "knock_not_allowed"
    """Ours: a knock where the rules meld during play, or with more deadwood than allowed."""
    NO_MELDING = "no_melding"
    """Ours: a meld or lay-off under knock rummy, where hands are laid out only at a knock."""
    # ----- the whole hand at once (issue 28) -----
    WHOLE_HAND_ONLY = "whole_hand_only"
    """Ours: under whole-hand melding (the published Boathouse), a meld that leaves cards that
    cannot all be melded, a lay-off, or a discard before a begun going out is finished."""
    # ----- accounts that resist abuse (issue 29) -----
    WEAK_PASSWORD = "weak_password"
    """The server's: a new account's password is too easy to guess, or holds control
    characters; the sentence says why."""
    NAME_NOT_ALLOWED = "name_not_allowed"
    """The server's: a name holds invisible or control characters, or the mark BOT in
    capitals (the page marks programs' accounts itself)."""
    NAME_LOOKS_TAKEN = "name_looks_taken"
    """The server's: a new account's name looks like an existing account's (Unicode
    confusables: "aIice" beside "alice")."""
    TOO_MANY_ACCOUNTS = "too_many_accounts"
    """The server's: the address made as many accounts as an hour allows; wait."""


ERROR_CODES: Final = tuple(code.value for code in ErrorCode)


class RummyError(ValueError):
    """Base of every error the core raises."""


class RulesError(RummyError):
    """A rule option has a bad value, or the options cannot be played together."""


class InvalidActionError(RummyError):
    """Text that cannot be read as an action or a card (code ``bad_action``)."""

    code = ErrorCode.BAD_ACTION

    @property
    def message(self) -> str:
        """The sentence for the player."""
        return str(self)


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
