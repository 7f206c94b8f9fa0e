"""An account's wire messages: the bodies and answers of the account routes.

``POST /api/accounts`` ``NewAccount`` and ``POST /api/session`` ``SignIn`` answer ``Me`` (or an
``AccountRefusal``); ``GET /api/me`` answers ``MeAnswer``. The routes are in
``rummykit.server.accounts.account_routes``; the messages live apart so that a client (``rummy
account``) reads them without importing the server.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias

from pydantic import Field, StringConstraints, field_validator

from rummykit.protocol.codes import ServerCode
from rummykit.protocol.facts import ACCOUNT_NAME, MAX_PASSWORD, MIN_PASSWORD
from rummykit.protocol.messages import Params, Strict
from rummykit.protocol.vocabularies import AccountReason

SESSION_COOKIE: Final = "rummy_session"
"""The cookie that holds a session's token."""


class NewAccount(Strict):
    """``POST /api/accounts``: an account, signed in at once."""

    name: Annotated[str, StringConstraints(max_length=64)]
    """3 to 20 letters, digits, ``_`` or ``-``; unique whatever its case."""
    password: Annotated[str, StringConstraints(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)]
    """8 to 128 characters; kept only as a scrypt hash."""
    bot: bool = False
    """A program's account (``rummy join``), marked BOT wherever its name shows."""

    @field_validator("name")
    @classmethod
    def _account_name(cls, name: str) -> str:
        if not ACCOUNT_NAME.fullmatch(name):
            raise ValueError("a name is 3 to 20 letters, digits, _ or -")
        return name


class SignIn(Strict):
    """``POST /api/session``: sign in."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    password: Annotated[str, StringConstraints(min_length=1, max_length=MAX_PASSWORD)]


class Me(Strict):
    """Who is signed in: the answer to ``GET /api/me``, and to signing up or in."""

    signed_in: Literal[True] = True
    """Always true here; ``NobodySignedIn`` is the answer without an account."""
    name: str
    """The account's name as it was signed up."""
    bot: bool
    """Whether it is a program's account."""


class NobodySignedIn(Strict):
    """``GET /api/me`` without a session that works: a visitor, not a mistake (200)."""

    signed_in: Literal[False] = False


MeAnswer: TypeAlias = Annotated[Me | NobodySignedIn, Field(discriminator="signed_in")]
"""The answer to ``GET /api/me``: the account signed in, or nobody."""


class AccountRefusal(Strict):
    """A refused account request (400, 401, 409, 429): a sentence and its code."""

    error: str
    """The refusal in an English sentence, for programs and logs (a page words ``reason``)."""
    code: ServerCode
    reason: AccountReason
    """The finer, stable reason (``rummykit.protocol.account_words.ACCOUNT_REFUSALS``)."""
    params: Params = Field(default_factory=dict)
    """The reason's parameters (``count``: a wait; ``name``; ``detail``)."""
    like: str | None = None
    """For ``name_looks_taken``: the existing account's name that the new one looks like (a
    page names it in its own words); absent otherwise."""
