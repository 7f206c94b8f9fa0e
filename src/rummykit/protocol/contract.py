"""The protocol's generated tables in ``docs/PROTOCOL.md``: the server's codes, the notices.

The rules' codes are ``rummykit.core.contract``'s (core knows nothing of the server); the
server's own, ``rummykit.protocol.codes.ServerCode`` with its members' docstrings, are written
here between the markers ``<!-- BEGIN GENERATED server-codes: ... -->`` and its end, and every
notice kind (``rummykit.protocol.event_words.NOTICES``) with its English between the markers
``notice-kinds``, and the sizes and rates a client must keep to (``limits``), each read from
the constant the server applies. Run
``python -m rummykit.protocol.contract`` after changing them; a test fails while the document
is out of date.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, Final, get_args

from annotated_types import MaxLen

from rummykit.core.contract import DOCS_DIR, Generated, codes_table, stale, write_all
from rummykit.protocol import codes
from rummykit.protocol.event_words import NOTICES
from rummykit.protocol.limits import MAX_SOCKET_MESSAGE_BYTES, Limits
from rummykit.protocol.messages import MAX_MESSAGE_CHARS, ActionText, ClientId, CloseCode, Token
from rummykit.protocol.party import PlayerName

COMMAND: Final = "python -m rummykit.protocol.contract"
"""What rewrites the protocol's generated table."""


def server_codes_table() -> str:
    """Every code of the server's own, and when it is given."""
    return codes_table(codes, codes.ServerCode)


def notice_kinds_table() -> str:
    """Every notice kind, with its English (the plural form where it has one)."""
    rows = ["| kind | the English, with its params |", "| --- | --- |"]
    for kind, template in sorted(NOTICES.items()):
        said = template if isinstance(template, str) else template["other"]
        rows.append(f"| `{kind}` | {said} |")
    return "\n".join(rows)


def _longest(text_type: Any) -> int:
    """The most characters a constrained string type of the protocol allows."""
    for constraint in get_args(text_type)[1:]:
        if isinstance(constraint, MaxLen):
            return constraint.max_length
        if getattr(constraint, "max_length", None) is not None:
            return int(constraint.max_length)
    raise ValueError(f"{text_type} has no longest length")


def _number(value: float | None) -> str:
    """A limit as the document writes it: ``1,000``, ``0.5``, or no limit."""
    if value is None:
        return "no limit"
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def limits_table() -> str:
    """The sizes and rates a client must keep to, and what the server does past each."""
    limits = Limits()
    flood = f"closed {CloseCode.TOO_MANY_MESSAGES.value}"
    rows = [
        ("characters in one message of a client", MAX_MESSAGE_CHARS, "refused `bad_message`"),
        (
            "bytes in one socket frame",
            MAX_SOCKET_MESSAGE_BYTES,
            f"closed {CloseCode.MESSAGE_TOO_BIG.value}, unread",
        ),
        ("characters in an action", _longest(ActionText), "refused `bad_message`"),
        ("characters in a name", _longest(PlayerName), "refused"),
        ("characters in a token or a client id", max(map(_longest, (Token, ClientId))), "refused"),
        ("messages a socket may send at once", limits.socket_burst, flood),
        ("messages a second a socket may keep sending", limits.socket_per_second, flood),
        (
            "requests (socket openings too) an address may make at once, without a checked "
            "credential",
            limits.address_burst,
            "429 with `Retry-After`",
        ),
        (
            "requests a second an address may keep making, without a checked credential",
            limits.address_per_second,
            "429 with `Retry-After`",
        ),
        (
            "requests (socket openings too) a seat's token or a signed-in account may make "
            "at once, from any address",
            limits.identity_burst,
            "429 with `Retry-After`",
        ),
        (
            "requests a second a seat's token or a signed-in account may keep making",
            limits.identity_per_second,
            "429 with `Retry-After`",
        ),
        (
            "budgets of tokens and accounts one address may use in all",
            limits.identities_per_address,
            "429 with `Retry-After`",
        ),
        (
            "sockets an address may hold open at once",
            limits.sockets_per_address,
            f"closed {CloseCode.TOO_MANY_PAGES.value}",
        ),
        (
            "HTTP connections an address may hold open at once",
            limits.connections_per_address,
            "429 with `Retry-After`, and closed",
        ),
        ("seconds to send a request's headers", limits.header_timeout_s, "closed, unanswered"),
        (
            "accounts an address may make in an hour",
            limits.accounts_per_address,
            "refused `too_many_accounts`",
        ),
    ]
    lines = ["| limit | value | past it |", "| --- | --- | --- |"]
    lines += [f"| {what} | {_number(value)} | {past} |" for what, value, past in rows]
    return "\n".join(lines)


GENERATED: Final[Generated] = {
    "PROTOCOL.md": {
        "server-codes": server_codes_table,
        "notice-kinds": notice_kinds_table,
        "limits": limits_table,
    }
}
"""The document and its generated blocks."""


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the protocol's generated table; ``--check`` only says whether it is stale."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--check"]:
        old = stale(DOCS_DIR, GENERATED)
        for document in old:
            print(f"docs/{document} is out of date: run {COMMAND}")
        return 1 if old else 0
    for path in write_all(DOCS_DIR, GENERATED):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
