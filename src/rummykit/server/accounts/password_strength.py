"""Whether a new password is strong enough: no control characters, and not easy to guess.

Strength is zxcvbn's estimate (the ``zxcvbn`` package on PyPI, a maintained port of Dropbox's
estimator: it knows the common passwords, names, words, keyboard walks, repeats and dates).
Its score 2 means at least about a million guesses, "protection from unthrottled online
attacks"; sign-ins here are throttled (``rummykit.server.accounts.logins``: one guess at a name per
10 s at most from every address together, 8,640 a day), so score 2 is the floor: a random
eight characters pass, "password", "12345678" and "aaaaaaaa" do not. The account's name is
given to zxcvbn too, so that "Ada" cannot use "Ada12345" either.

Control characters (``Cc``: NUL, escape, tabs and the like) and unassigned code points are
refused before anything else: no keyboard types them, and a password made of them ("eight NUL
characters") is a program's mistake or a trick on some layer that ends strings at NUL.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from zxcvbn import zxcvbn

from rummykit.core.refusals import ParamValue

MIN_SCORE: Final = 2
"""The lowest zxcvbn score accepted (0 to 4): at least about 10**6 guesses (see above)."""

ZXCVBN_MAX_LENGTH: Final = 72
"""zxcvbn refuses to estimate longer passwords (its time grows with the length); a password
whose first 72 characters are hard to guess is hard to guess."""


def password_problem(
    password: str, user_inputs: tuple[str, ...] = ()
) -> tuple[str, dict[str, ParamValue]] | None:
    r"""Why ``password`` may not be a new account's, as a reason and params; or ``None``.

    The reason is ``rummykit.protocol.account_words``'s; ``advice`` is zxcvbn's warning or
    suggestion, when it has one.

    ``user_inputs``: words the guesser would know (the account's name).

    >>> password_problem("correct horse battery") is None
    True
    >>> password_problem("password")
    ('weak_password', {'advice': 'This is a top-10 common password.'})
    >>> password_problem("\x00" * 8)
    ('password_control', {})
    """
    if any(unicodedata.category(character) in ("Cc", "Cn") for character in password):
        return "password_control", {}
    estimate = zxcvbn(password[:ZXCVBN_MAX_LENGTH], user_inputs=list(user_inputs))
    if int(estimate["score"]) >= MIN_SCORE:
        return None
    feedback = estimate["feedback"]
    advice = str(feedback["warning"] or " ".join(feedback["suggestions"]))
    return "weak_password", ({"advice": advice} if advice else {})
