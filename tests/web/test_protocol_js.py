"""The page's copy of the server's facts, ``web/protocol.js``, is the one the code writes."""

from __future__ import annotations

from rummykit.protocol.messages import MAX_PACE_MS, CloseCode
from rummykit.protocol.web_facts import COMMAND, WEB_PROTOCOL, facts, render


def test_the_committed_module_is_the_generated_one() -> None:
    assert WEB_PROTOCOL.read_text(encoding="utf-8") == render(), f"run {COMMAND}"


def test_the_facts_are_the_servers() -> None:
    told = facts()
    assert told["CLOSE"] == {code.name: int(code) for code in CloseCode}
    assert told["MAX_PACE_MS"] == MAX_PACE_MS


def test_no_page_module_writes_the_no_seat_code_or_the_pace_bounds() -> None:
    for path in WEB_PROTOCOL.parent.rglob("*.js"):
        if path == WEB_PROTOCOL or "i18n" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        assert "4404" not in text, path
        assert 'max: "3000"' not in text, path
