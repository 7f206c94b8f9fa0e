"""The protocol's generated tables in ``docs/PROTOCOL.md``: the server's codes, the notices.

The rules' codes are ``rummykit.core.contract``'s (core knows nothing of the server); the
server's own, ``rummykit.protocol.codes.ServerCode`` with its members' docstrings, are written
here between the markers ``<!-- BEGIN GENERATED server-codes: ... -->`` and its end, and every
notice kind (``rummykit.protocol.event_words.NOTICES``) with its English between the markers
``notice-kinds``. Run
``python -m rummykit.protocol.contract`` after changing them; a test fails while the document
is out of date.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Final

from rummykit.core.contract import DOCS_DIR, Generated, codes_table, stale, write_all
from rummykit.protocol import codes
from rummykit.protocol.event_words import NOTICES

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


GENERATED: Final[Generated] = {
    "PROTOCOL.md": {"server-codes": server_codes_table, "notice-kinds": notice_kinds_table}
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
