"""Why an account request is refused: one stable reason each, with its English sentence, once.

An ``AccountRefusal`` carries its ``ErrorCode``, its ``reason`` (this module's keys) and
``params``; the page words the reason in its own language from the catalogue area
``refusals`` (generated, key ``refusals.REASON``), and the English ``error`` is the same
template filled here, for programs and logs.

Parameters: ``count`` a wait (seconds for sign-ins, minutes for sign-ups) that chooses the
plural form, ``name`` an existing account's name. ``advice`` (``weak_password``) is no
placeholder: the password checker's own words, in English only, which the English sentence
(and the English page) adds after the template.

>>> account_text("too_many_accounts", {"count": 60})
'Too many new accounts from your address: wait 60 minutes, then try again.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rummykit.core.refusals import ParamValue, Template, fill
from rummykit.protocol.codes import ServerCode

_E = ServerCode

ACCOUNT_REFUSALS: Final[dict[str, tuple[ServerCode, Template]]] = {
    "name_taken": (_E.NAME_TAKEN, "That name is taken: choose another."),
    "name_looks_taken": (
        _E.NAME_LOOKS_TAKEN,
        "That name looks too much like {name}'s: choose another.",
    ),
    "name_not_allowed": (
        _E.NAME_NOT_ALLOWED,
        "A name may not hold the mark BOT (the page marks programs' accounts itself), nor "
        "invisible characters: choose another.",
    ),
    "weak_password": (
        _E.WEAK_PASSWORD,
        "That password is too easy to guess: use a few uncommon words, or more characters.",
    ),
    "password_control": (
        _E.WEAK_PASSWORD,
        "A password may not hold control characters (such as NUL or tab).",
    ),
    "bad_login": (_E.BAD_LOGIN, "No account has that name and password: check both."),
    "too_many_attempts": (
        _E.TOO_MANY_ATTEMPTS,
        {
            "one": "Too many tries: wait {count} second, then try again.",
            "other": "Too many tries: wait {count} seconds, then try again.",
        },
    ),
    "too_many_accounts": (
        _E.TOO_MANY_ACCOUNTS,
        {
            "one": "Too many new accounts from your address: wait {count} minute, then try again.",
            "other": "Too many new accounts from your address: wait {count} minutes, then try "
            "again.",
        },
    ),
}
"""Every reason an account request is refused: its error code and its English template."""


def account_text(reason: str, params: Mapping[str, ParamValue]) -> str:
    """The English sentence of an account's refusal (with the checker's ``advice``, if any)."""
    sentence = fill(ACCOUNT_REFUSALS[reason][1], params)
    advice = params.get("advice")
    return f"{sentence} {advice}" if isinstance(advice, str) and advice else sentence


def account_code(reason: str) -> ServerCode:
    """The error code an account's reason belongs to."""
    return ACCOUNT_REFUSALS[reason][0]


def catalogue() -> dict[str, Template]:
    """The accounts' part of the catalogue area ``refusals``: ``refusals.REASON``."""
    return {f"refusals.{reason}": template for reason, (_, template) in ACCOUNT_REFUSALS.items()}
