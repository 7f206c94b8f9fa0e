"""Why the server's edge answers a request with an error of its own: one reason each, once.

Any request a page makes may meet these (too many from one address, the records out of reach,
a request from another site or host): the ``ErrorAnswer`` carries the reason, and the page
words it in its own language from the catalogue area ``refusals`` (generated, key
``refusals.REASON``). The English sentence is the ``error`` of the answer, and the reason of a
socket closed for the same cause (which the page words by its close code).

The edge's other sentences are for programs and logs: the routes answer a page's own requests
with what the page words by the status (404, 403) or with the reasons of the rules, the
parties, the accounts and a person's name.
"""

from __future__ import annotations

from typing import Final

ANSWER_REFUSALS: Final[dict[str, str]] = {
    "too_many_requests": "Too many requests from your address: wait a few seconds and retry.",
    "too_many_connections": "Too many open connections from your address: close a page, then "
    "reload.",
    "out_of_reach": "The server cannot reach its records just now; nothing changed. Try again "
    "in a moment.",
    "foreign_origin": "Requests from other sites are refused: open the table's own page.",
    "invalid_host": "This server does not answer that host name.",
}
"""Every reason the edge answers a request with an error, with its English sentence."""


def catalogue() -> dict[str, str]:
    """The edge's part of the catalogue area ``refusals``: ``refusals.REASON``."""
    return {f"refusals.{reason}": sentence for reason, sentence in ANSWER_REFUSALS.items()}
