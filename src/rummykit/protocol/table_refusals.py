"""Why the server refuses an intent the rules do not judge: one stable reason each, once.

A table's ``refused`` message carries a code (a rule's ``ErrorCode`` or the server's own
``ServerCode``), a ``reason`` (this module's keys, or for the rules' own
``rummykit.core.refusals``'s and ``rummykit.core.error_words.ACTION_ERRORS``'s) and
``params``. The English template is written here; the page words the reason from the
catalogue area ``refusals`` (generated, key ``refusals.REASON``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rummykit.core.error_words import ACTION_ERRORS
from rummykit.core.errors import ErrorCode
from rummykit.core.refusals import REFUSALS, ParamValue, Template, fill
from rummykit.protocol.codes import Code, ServerCode

_E = ErrorCode
_S = ServerCode

TABLE_REFUSALS: Final[dict[str, tuple[Code, Template]]] = {
    "stale": (
        _S.STALE,
        "The table has moved on since you acted; here is where it stands now.",
    ),
    "version_ahead": (
        _S.STALE,
        "The version you sent ({sent}) is ahead of the table's ({table}): here is where it "
        "stands now.",
    ),
    "finish_deal_first": (_E.WRONG_PHASE, "Finish this deal first."),
    "deal_is_over": (_E.WRONG_PHASE, "This deal is over: deal the next."),
    "game_over": (_S.GAME_OVER, "The game is over: start a new one."),
    "not_over_yet": (_E.WRONG_PHASE, "The game is not over yet: a rematch comes after it."),
    "no_redeal_at_parties": (
        _E.WRONG_PHASE,
        "A deal can be thrown away only at a table with one person.",
    ),
    "left_already": (
        _E.NOT_YOUR_TURN,
        "You left this table: the computer plays your seat to the end.",
    ),
    "watching": (_S.WATCHING, "You are watching: spectators do not play."),
    "hint_waits": (_E.NOT_YOUR_TURN, "A hint waits for your turn."),
    "no_hints": (
        _S.NO_HINTS,
        "Hints are for games against the computer: at a table of people, each plays their own.",
    ),
    "too_many_reactions": (
        _S.TOO_FAST,
        "Easy there: at most {count} reactions every {seconds} seconds.",
    ),
    "not_a_party_leave": (
        _S.NOT_A_PARTY,
        "Only a party's table can be left for good: just close the page.",
    ),
    "not_a_party_rematch": (
        _S.NOT_A_PARTY,
        "A rematch is for a party's table: start a new game from the lobby.",
    ),
    "hello_once": (_S.BAD_MESSAGE, "hello is the socket's first message, and only its first."),
    "unreadable": (_S.BAD_MESSAGE, "That message could not be carried out; it changed nothing."),
    "try_again": (
        _S.TRY_AGAIN,
        "The server could not save that just now; nothing changed. Try again in a moment.",
    ),
    "bad_message": (_S.BAD_MESSAGE, "{detail}"),
}
"""Every reason the server's table refuses of its own: its code and its English template."""

ALL_REFUSALS: Final[dict[str, tuple[Code, Template]]] = {
    **REFUSALS,
    **{reason: (_E.BAD_ACTION, template) for reason, template in ACTION_ERRORS.items()},
    **TABLE_REFUSALS,
}
"""Every reason a table's ``refused`` message may carry: the rules' (an action refused, or
text that is no action: ``rummykit.core.error_words.ACTION_ERRORS``) and the server's."""


def refusal_text(reason: str, params: Mapping[str, ParamValue]) -> str:
    """The English sentence of a table's refusal (the rules' or the server's)."""
    return fill(ALL_REFUSALS[reason][1], params)


def code_of(reason: str) -> Code:
    """The code a table's refusal reason belongs to."""
    return ALL_REFUSALS[reason][0]


def catalogue() -> dict[str, Template]:
    """The server's table part of the catalogue area ``refusals``: ``refusals.REASON``."""
    return {f"refusals.{reason}": template for reason, (_, template) in TABLE_REFUSALS.items()}
