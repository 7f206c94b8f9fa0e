"""The browser's catalogue areas whose English words Python owns, written out as JS modules.

Some of the interface's words have their one place in Python: the engine's refusals, the
rule options' descriptions. The browser renders them in the player's language from message
catalogues (``web/i18n/<language>/<area>.js``); for these areas the English catalogue is not
written by hand but generated from Python, so the two never drift. The Japanese catalogue of
the same area is written by hand, and a Node test checks that it has exactly the same keys.

Run ``python -m rummykit.web_catalogues`` after changing one of the sources; a test fails
while a generated file is out of date.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final, cast

WEB_DIR: Final = Path(__file__).parent / "web"

Words = str | Mapping[str, str]
"""A catalogue entry: a text with ``{placeholders}``, or its plural forms (``one``, ``other``)."""

GENERATED: Final[dict[str, str]] = {
    # area: "module:function" (several, space-separated, merged), each function returning
    # {key: English text with {placeholders}}
    "analysis": "rummykit.analysis.words:catalogue",
    "events": "rummykit.server.tables.table_words:catalogue",
    "hints": "rummykit.bots.hint_words:catalogue",
    "refusals": "rummykit.core.refusals:catalogue rummykit.core.error_words:catalogue "
    "rummykit.protocol.table_refusals:catalogue rummykit.protocol.party_words:catalogue "
    "rummykit.protocol.account_words:catalogue rummykit.protocol.names:catalogue "
    "rummykit.protocol.answer_words:catalogue",
    "review": "rummykit.review.words:catalogue",
    "rules": "rummykit.core.rule_texts:rule_texts",
}
"""Each generated area and the Python function that gives its English words."""


def english(area: str) -> Mapping[str, Words]:
    """The English words of a generated area, from the Python functions that own them.

    ``ValueError`` if two of an area's sources word the same key.
    """
    words: dict[str, Words] = {}
    for source_name in GENERATED[area].split():
        module_name, _, function_name = source_name.partition(":")
        source = cast(
            Callable[[], Mapping[str, Words]],
            getattr(importlib.import_module(module_name), function_name),
        )
        found = source()
        twice = sorted(set(words) & set(found))
        if twice:
            raise ValueError(f"area {area}: {source_name} words {twice} again")
        words.update(found)
    return words


def render(area: str, words: Mapping[str, Words]) -> str:
    """The JS module for an area's English words (sorted keys, one per line)."""
    lines = [
        f"// The {area} area's words in English: generated from Python by",
        "// `python -m rummykit.web_catalogues`. Do not edit; change the Python source instead.",
        "export default {",
        *(
            f"  {json.dumps(key)}: {json.dumps(words[key], ensure_ascii=False, sort_keys=True)},"
            for key in sorted(words)
        ),
        "};",
        "",
    ]
    return "\n".join(lines)


def path_of(area: str, web_dir: Path = WEB_DIR) -> Path:
    """Where an area's English catalogue lives."""
    return web_dir / "i18n" / "en" / f"{area}.js"


def stale(web_dir: Path = WEB_DIR) -> list[str]:
    """The generated areas whose file differs from what Python would write now."""
    return [
        area
        for area in sorted(GENERATED)
        if not path_of(area, web_dir).is_file()
        or path_of(area, web_dir).read_text(encoding="utf-8") != render(area, english(area))
    ]


def write_all(web_dir: Path = WEB_DIR) -> list[Path]:
    """Write every generated area's English catalogue; return the files written."""
    written = []
    for area in sorted(GENERATED):
        path = path_of(area, web_dir)
        path.write_text(render(area, english(area)), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_all():
        print(f"wrote {written_path}")
