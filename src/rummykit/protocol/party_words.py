"""Why a party refuses a change: one stable reason each, with its English sentence, once.

A party's refusal (the ``refused`` message of its socket, or a join's 409 ``PartyRefusal``)
carries its ``ErrorCode``, its ``reason`` (this module's keys) and ``params``; the page words
the reason in its own language from the catalogue area ``refusals`` (generated, key
``refusals.REASON``), and the English ``message`` is the same template filled here, for
programs and logs.

Parameters: ``names`` a list of people's names (shown ``Ada and Bob``), ``count`` a count
that chooses the plural form, anything else shown as it is. ``{detail}`` (``rules_refused``,
``seats_refused``) is the rules' own sentence: ``detail_reason`` names its reason
(``rummykit.core.error_words.RULES_ERRORS``), worded in the same area, and the params beside
it fill that reason's template.

>>> party_text("not_ready", {"names": ["Ada", "Bob"], "count": 2})
'Ada and Bob are not ready yet.'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final

from rummykit.core.error_words import error_text
from rummykit.core.errors import RulesError
from rummykit.core.refusals import ParamValue, Template, fill, listed
from rummykit.protocol.codes import Code, ServerCode

_E = ServerCode

PARTY_REFUSALS: Final[dict[str, tuple[Code, Template]]] = {
    # ----- joining and the party's state ----------------------------------------------------
    "party_full": (_E.PARTY_FULL, "Every seat of this party is taken."),
    "party_closed": (_E.PARTY_STARTED, "This party has closed."),
    "party_started": (_E.PARTY_STARTED, "This party's game has started: its seats are taken."),
    "party_version_ahead": (
        _E.STALE,
        "The version you sent ({sent}) is ahead of the party's ({party}): here it is as it stands.",
    ),
    # ----- who may do what ------------------------------------------------------------------
    "not_host": (_E.NOT_HOST, "Only the host can do that."),
    "host_stays": (_E.NOT_HOST, "The host cannot remove themselves: leave the party instead."),
    "watchers_only": (
        _E.NOT_HOST,
        "You are looking at this party from outside: join it to take part.",
    ),
    "no_such_member": (_E.BAD_MESSAGE, "There is no such member."),
    "rules_refused": (_E.BAD_MESSAGE, "These rules cannot be played together: {detail}"),
    # ----- starting -------------------------------------------------------------------------
    "seats_needed": (
        _E.NOT_READY,
        "A game needs {min} to {max} seats: invite someone or add a computer player.",
    ),
    "not_ready": (
        _E.NOT_READY,
        {"one": "{names} is not ready yet.", "other": "{names} are not ready yet."},
    ),
    "seats_refused": (_E.NOT_READY, "These rules cannot deal to this many seats: {detail}"),
    # ----- ranked parties -------------------------------------------------------------------
    "ranked_computer": (
        _E.RANKED_COMPUTER,
        "A ranked party seats people only: remove the computer players first.",
    ),
    "ranked_no_cpu": (
        _E.RANKED_COMPUTER,
        "A ranked party seats people only: no computer players.",
    ),
    "ranked_timer": (
        _E.RANKED_TIMER,
        "A ranked party needs a turn timer of 30 or 60 seconds: choose one.",
    ),
    "ranked_sign_in": (
        _E.RANKED_ACCOUNT,
        "This party is ranked: sign in to an account to join it.",
    ),
    "ranked_account": (
        _E.RANKED_ACCOUNT,
        {
            "one": "Everyone at a ranked party needs an account: {names} must leave and join "
            "again signed in.",
            "other": "Everyone at a ranked party needs an account: {names} must leave and "
            "join again signed in.",
        },
    ),
    "ranked_busy": (
        _E.RANKED_BUSY,
        {
            "one": "{names} is playing another ranked game: one ranked game at a time per "
            "account. Start once it is finished.",
            "other": "{names} are playing other ranked games: one ranked game at a time per "
            "account. Start once they are finished.",
        },
    ),
    "ranked_wait": (
        _E.RANKED_WAIT,
        {
            "one": "After leaving ranked games early, there is a wait before the next one: "
            "about {count} minute.",
            "other": "After leaving ranked games early, there is a wait before the next one: "
            "about {count} minutes.",
        },
    ),
    # ----- quick pairing ---------------------------------------------------------------------
    "already_seeking": (
        _E.ALREADY_SEEKING,
        "You are already waiting for a table (on another page): one pool at a time.",
    ),
    "pairing_failed": (
        _E.TRY_AGAIN,
        "Your table could not be made just now: press Play now again in a moment.",
    ),
    # ----- challenges between people --------------------------------------------------------
    "challenge_signed_out": (
        _E.NOT_SIGNED_IN,
        "Sign in to challenge someone, or to be challenged.",
    ),
    "player_unknown": (_E.PLAYER_UNAVAILABLE, "No player is named {name}."),
    "player_offline": (
        _E.PLAYER_UNAVAILABLE,
        "{name} is not here just now: challenge them when they are online.",
    ),
    "player_is_program": (
        _E.PLAYER_UNAVAILABLE,
        "{name} is a program's account: challenge it from its page, where it answers itself.",
    ),
    "challenge_self": (_E.BAD_MESSAGE, "You cannot challenge yourself."),
    "challenge_waiting": (
        _E.BAD_MESSAGE,
        "Your challenge to {name} is still waiting for an answer: withdraw it first.",
    ),
    "too_many_challenges": (
        _E.PLAYER_UNAVAILABLE,
        "{name} has too many challenges waiting just now: try again in a minute.",
    ),
    "challenge_declined": (_E.CHALLENGE_CLOSED, "{name} declined your challenge."),
    "challenge_expired": (_E.CHALLENGE_CLOSED, "{name} did not answer your challenge in time."),
    "challenge_closed": (_E.CHALLENGE_CLOSED, "That challenge is no longer open."),
    # ----- arenas ------------------------------------------------------------------------------
    "arena_sign_in": (_E.NOT_SIGNED_IN, "Sign in to make an arena, or to play in one."),
    "arena_over": (_E.ARENA_OVER, "This arena has finished: look for another."),
    "arena_seats": (_E.BAD_MESSAGE, "These rules cannot deal to tables of {seats}."),
    "arena_limit": (
        _E.BAD_MESSAGE,
        {
            "one": "You have {count} arena to come or running already: one at a time.",
            "other": "You have {count} arenas to come or running already: that is the most.",
        },
    ),
    # ----- programs' accounts online ----------------------------------------------------------
    "challenge_sign_in": (_E.NOT_SIGNED_IN, "Sign in to challenge a program's account."),
    "bot_unknown": (_E.BOT_UNAVAILABLE, "No program's account is named {name}."),
    "bot_offline": (_E.BOT_UNAVAILABLE, "{name} is not online just now: try again later."),
    "bot_silent": (
        _E.BOT_UNAVAILABLE,
        "{name} did not answer the invitation in time: try again later.",
    ),
    "declined_preset": (_E.DECLINED, "{name} declined: it does not play these house rules."),
    "declined_timer": (_E.DECLINED, "{name} declined: it does not take this turn timer."),
    "declined_seats": (_E.DECLINED, "{name} declined: it does not join a party this big."),
    "declined_ranked": (_E.DECLINED, "{name} declined: it does not take ranked games."),
    "declined_friendly": (_E.DECLINED, "{name} declined: it takes ranked games only."),
    "declined_busy": (
        _E.DECLINED,
        "{name} declined: it is playing as many games as it takes at once. Try again soon.",
    ),
}
"""Every reason a party refuses: its error code and its English template."""


def party_text(reason: str, params: Mapping[str, ParamValue]) -> str:
    """The English sentence of a party's refusal."""
    shown = dict(params)
    names = params.get("names")
    if isinstance(names, list):
        shown["names"] = listed(names)
    detail = shown.pop(DETAIL_REASON, None)
    if isinstance(detail, str):
        shown = {"detail": error_text(detail, shown)}
    return fill(PARTY_REFUSALS[reason][1], shown)


DETAIL_REASON: Final = "detail_reason"
"""The param that names the rules' own reason a party's refusal words in ``{detail}``."""


def detail_params(error: RulesError) -> dict[str, ParamValue]:
    """The params of a refusal whose ``{detail}`` is this error of the rules.

    The rules' reason as ``detail_reason``, beside its own params.
    """
    return {DETAIL_REASON: error.reason, **error.params}


def party_code(reason: str) -> Code:
    """The error code a party's reason belongs to."""
    return PARTY_REFUSALS[reason][0]


def names_params(names: Sequence[str]) -> dict[str, ParamValue]:
    """The params of a sentence about these people: their names, and how many."""
    return {"names": list(names), "count": len(names)}


def wait_params(seconds: float) -> dict[str, ParamValue]:
    """The params of ``ranked_wait``: the wait in seconds, and in whole minutes (``count``)."""
    return {"seconds": math.ceil(seconds), "count": max(1, math.ceil(seconds / 60))}


def catalogue() -> dict[str, Template]:
    """The party's part of the catalogue area ``refusals``: ``refusals.REASON``."""
    return {f"refusals.{reason}": template for reason, (_, template) in PARTY_REFUSALS.items()}
