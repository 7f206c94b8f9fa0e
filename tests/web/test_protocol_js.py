"""The page's copy of the server's facts, ``web/protocol.js``, is the one the code writes."""

from __future__ import annotations

import re
from pathlib import Path

from rummykit.core.presets import DEFAULT_PRESET, PARTY_PRESET, PRACTICE_PRESET, TABLE_PRESET
from rummykit.protocol.facts import MAX_PACE_MS
from rummykit.protocol.messages import CloseCode
from rummykit.protocol.web_facts import COMMAND, WEB_PROTOCOL, facts, render


def test_the_committed_module_is_the_generated_one() -> None:
    assert WEB_PROTOCOL.read_text(encoding="utf-8") == render(), f"run {COMMAND}"


def test_the_facts_are_the_servers() -> None:
    told = facts()
    assert told["CLOSE"] == {code.name: int(code) for code in CloseCode}
    assert told["MAX_PACE_MS"] == MAX_PACE_MS


def _page_modules() -> list[Path]:
    """Every page module but the generated one and the catalogues."""
    return [
        path
        for path in sorted(WEB_PROTOCOL.parent.rglob("*.js"))
        if path != WEB_PROTOCOL and "i18n" not in path.parts
    ]


def test_no_page_module_writes_a_close_code_or_the_pace_bounds() -> None:
    modules = _page_modules()
    assert len(modules) > 40
    for path in modules:
        text = path.read_text(encoding="utf-8")
        for code in CloseCode:
            assert not re.search(rf"\b{int(code)}\b", text), (path, code)
        assert not re.search(r"max: \"[1-9]\d*\"", text), path  # a slider's bound is the server's


def test_no_page_module_names_a_default_preset() -> None:
    # "party" and "practice" are also a message type and a page class: for those, only the
    # ways a preset is named (presets.NAME, preset: "NAME") are looked for
    quoted = {DEFAULT_PRESET, TABLE_PRESET}
    named = quoted | {PARTY_PRESET, PRACTICE_PRESET}
    for path in _page_modules():
        text = path.read_text(encoding="utf-8")
        for name in quoted:
            assert not re.search(rf"[\"'`]{name}[\"'`]", text), (path, name)
        for name in named:
            assert not re.search(rf"presets\.{name}\b|preset: [\"'`]{name}", text), (path, name)
