"""Why the server answers a request with an error of its own: one reason each, once.

A page may meet these: at the edge, on any request (too many from one address, the records out
of reach, a request from another site or host), the reviews busy, a review that broke (in
a ``ReviewAnswer``), the analysis board busy or asked for a step it cannot try, and a
finished game's record, replay or review out of its reach. The answer carries the reason and
its params, and the page words it in its own language from the catalogue area ``refusals``
(generated, key ``refusals.REASON``).
The English sentence is the ``error`` of the answer, and the reason of a socket closed for the
same cause (which the page words by its close code).

The server's other sentences in an ``ErrorAnswer`` are for programs and logs: the routes answer
a page's own requests with what the page words by the status (404, 403) or with the reasons of
the rules, the parties, the accounts and a person's name. ``count`` chooses a plural form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rummykit.core.error_words import ParamValue, Template, substitute

ANSWER_REFUSALS: Final[dict[str, Template]] = {
    "too_many_requests": "Too many requests from your address: wait a few seconds and retry.",
    "too_many_connections": "Too many open connections from your address: close a page, then "
    "reload.",
    "out_of_reach": "The server cannot reach its records just now; nothing changed. Try again "
    "in a moment.",
    "foreign_origin": "Requests from other sites are refused: open the table's own page.",
    "invalid_host": "This server does not answer that host name.",
    "reviews_busy": "Too many games are being reviewed right now: try again in a minute.",
    "own_reviews_busy": {
        "one": "You have {count} review under way already: ask again once it is done.",
        "other": "You have {count} reviews under way already: ask again once one of them is done.",
    },
    "review_broke": "The review could not be made ({error}): ask again.",
    "analyses_busy": "The computer is busy trying too many moves right now: try again in a moment.",
    "own_analyses_busy": {
        "one": "You have {count} move being tried already: wait for its answer.",
        "other": "You have {count} moves being tried already: wait for their answers.",
    },
    "no_such_step": "This game has no such step to try a move at.",
    "not_seat_decision": "That step is not this seat's to play: pick one of its own decisions.",
    "game_unseen": "No finished game here that you may see: a game's record, replay and review "
    "open with a token of one of its seats, or to anyone once it was rated or where the history "
    "is public.",
    "game_not_over": "This game is not over yet: its record, replay and review come once it ends.",
}
"""Every reason the server answers a request with an error of its own, with its English."""


def answer_text(reason: str, params: Mapping[str, ParamValue] | None = None) -> str:
    """The English sentence of an answer's reason, filled from its params.

    >>> answer_text("own_reviews_busy", {"count": 2})
    'You have 2 reviews under way already: ask again once one of them is done.'
    """
    said = params or {}
    words = {name: str(value) for name, value in said.items()}
    return substitute(ANSWER_REFUSALS[reason], words, said.get("count"))


def catalogue() -> dict[str, Template]:
    """The edge's part of the catalogue area ``refusals``: ``refusals.REASON``."""
    return {f"refusals.{reason}": sentence for reason, sentence in ANSWER_REFUSALS.items()}
