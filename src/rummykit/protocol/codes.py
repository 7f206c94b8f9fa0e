"""The server's own codes: why it refuses what the rules do not judge.

Every refusal and every error answer carries a code: a rule's (``rummykit.core.errors.
ErrorCode``: the engine judges the move) or the server's own (``ServerCode``: a stale intent,
a party's or an account's refusal, a message that cannot be read). Both are stable: the values
never change; new codes are added, never renamed. docs/PROTOCOL.md lists them all
(generated: ``python -m rummykit.protocol.codes``).
"""

from __future__ import annotations

import enum
from typing import TypeAlias

from rummykit.core.errors import ErrorCode


class ServerCode(enum.StrEnum):
    """Every stable code of the server's own refusals."""

    STALE = "stale"
    """An intent sent against an earlier version of the table."""
    GAME_OVER = "game_over"
    """The game has ended, so no more deals or actions."""
    WATCHING = "watching"
    """A spectator sent an intent: spectators watch, they do not play."""
    BAD_MESSAGE = "bad_message"
    """A message or request body that cannot be read."""
    TOO_FAST = "too_fast"
    """Reactions (or other chatter) sent faster than the table allows."""
    NOT_HOST = "not_host"
    """Only the party's host may change its rules, seats or start it."""
    NOT_READY = "not_ready"
    """A party that cannot start yet (too few seats, someone not ready)."""
    PARTY_FULL = "party_full"
    """Every seat of the party is taken (watching may still be open)."""
    PARTY_STARTED = "party_started"
    """The party's game has started, or the party has closed."""
    NOT_A_PARTY = "not_a_party"
    """A rematch or a leave asked at a table that is not a party's."""
    NO_HINTS = "no_hints"
    """Hints are for games against the computer, not at a table of people."""
    NAME_TAKEN = "name_taken"
    """An account of that name exists already (names ignore case)."""
    BAD_LOGIN = "bad_login"
    """No account has that name and password."""
    TOO_MANY_ATTEMPTS = "too_many_attempts"
    """Too many failed sign-ins for the name or from the address; wait."""
    NOT_SIGNED_IN = "not_signed_in"
    """The request needs an account's session, and has none that works."""
    RANKED_COMPUTER = "ranked_computer"
    """A ranked party seats people only, no computer player."""
    RANKED_TIMER = "ranked_timer"
    """A ranked party needs a turn timer of 30 or 60 seconds."""
    RANKED_ACCOUNT = "ranked_account"
    """Every member of a ranked party must join signed in to an account."""
    RANKED_BUSY = "ranked_busy"
    """An account is already playing a ranked game (one at a time)."""
    RANKED_WAIT = "ranked_wait"
    """An account that left ranked games early waits before the next one."""
    ALREADY_SEEKING = "already_seeking"
    """The account already waits in a quick-pairing pool (one at a time)."""
    PLAYER_UNAVAILABLE = "player_unavailable"
    """The person challenged cannot be: no such account, not online, a program, or too many
    challenges waiting."""
    CHALLENGE_CLOSED = "challenge_closed"
    """The challenge is no longer open: declined, out of time, withdrawn or answered."""
    ARENA_OVER = "arena_over"
    """The arena has finished, or there is none of that id."""
    TRY_AGAIN = "try_again"
    """It could not keep the intent just now (its database was out of reach);
    nothing changed: send it again."""
    WEAK_PASSWORD = "weak_password"
    """A new account's password is too easy to guess, or holds control
    characters; the sentence says why."""
    NAME_NOT_ALLOWED = "name_not_allowed"
    """A name holds invisible or control characters, or the mark BOT in
    capitals (the page marks programs' accounts itself)."""
    NAME_LOOKS_TAKEN = "name_looks_taken"
    """A new account's name looks like an existing account's (Unicode
    confusables: "aIice" beside "alice")."""
    TOO_MANY_ACCOUNTS = "too_many_accounts"
    """The address made as many accounts as an hour allows; wait."""
    BOT_UNAVAILABLE = "bot_unavailable"
    """The program's account named is unknown, not online, or did not
    answer the invitation in time."""
    DECLINED = "declined"
    """A program's account declined the invitation; the reason says why
    (its rules, timer, seats, ranked or not, or its games at once)."""


Code: TypeAlias = ErrorCode | ServerCode
"""Any refusal's code: a rule's or the server's."""
