"""docs/PROTOCOL.md's table of the server's own codes is written from ``ServerCode``."""

from __future__ import annotations

from pathlib import Path

from rummykit.core.contract import stale
from rummykit.core.errors import ErrorCode
from rummykit.protocol import contract
from rummykit.protocol.codes import ServerCode

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_server_codes_table_is_up_to_date() -> None:
    assert stale(DOCS, contract.GENERATED) == [], f"run `{contract.COMMAND}`"


def test_every_code_rules_and_server_is_listed_once() -> None:
    text = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8")
    for code in [*ErrorCode, *ServerCode]:
        assert text.count(f"| `{code.value}` |") >= 1, code
    assert not {code.value for code in ErrorCode} & {code.value for code in ServerCode}


def test_protocol_md_table_of_what_to_do_names_real_codes() -> None:
    text = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8")
    section = text[text.index("What a program\ndoes") :]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert rows
    for row in rows:
        code = row.split("`")[1]
        if code.isdigit():  # the close codes' table follows
            break
        assert code in {*ErrorCode, *ServerCode}, code
