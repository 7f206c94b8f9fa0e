"""The contract's tables, written from the code: ``docs/RECORD.md`` and ``docs/PROTOCOL.md``.

The tables of rule options, presets and error codes in those documents are not written by
hand. Each lies between two marker comments::

    <!-- BEGIN GENERATED presets: python -m rummykit.core.contract -->
    ...
    <!-- END GENERATED presets -->

and is rendered from the one place that says it: the option specs in the ``Rules`` field
metadata, the ``PRESETS`` registry and ``ErrorCode`` with its members' docstrings. Run
``python -m rummykit.core.contract`` after changing one of them; a test fails while a document
is out of date.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from types import ModuleType
from typing import Final

from rummykit.core import errors
from rummykit.core.errors import ErrorCode
from rummykit.core.options import OptionKind, OptionSpec, json_value
from rummykit.core.presets import PRESETS
from rummykit.core.rules import MAX_SEATS, MAX_SEATS_ONE_DECK, MIN_SEATS, option_specs

COMMAND: Final = "python -m rummykit.core.contract"
"""What rewrites the generated tables."""

DOCS_DIR: Final = Path(__file__).resolve().parents[3] / "docs"
"""The project's ``docs`` folder (the generated tables live in a source checkout only)."""


def _code(value: object) -> str:
    value = json_value(value)
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = f'"{value}"'
    else:
        text = str(value)
    return f"`{text}`"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _values(spec: OptionSpec) -> str:
    words = [f"{_code(choice.value)} ({choice.label})" for choice in spec.choices]
    if spec.kind is OptionKind.BOOLEAN:
        words = ["`true`", "`false`"]
    if spec.minimum is not None:
        most = f" to {spec.maximum}" if spec.maximum is not None else " or more"
        words.append(f"{spec.minimum}{most}")
    if spec.none is not None:
        words.append(f"`null` ({spec.none})")
    return "; ".join(words)


def options_table() -> str:
    """Every rule option: its name, the values it takes, and what it decides."""
    rows = [
        [f"`{spec.name}`", _values(spec), f"{spec.title}: {spec.help}"] for spec in option_specs()
    ]
    return _table(["option", "values", "what it decides"], rows)


def presets_table() -> str:
    """Every preset side by side: its seats and its value for every option."""
    presets = list(PRESETS.values())
    header = ["option", *(f"`{preset.name}`" for preset in presets)]
    rows = [["seats", *(preset.seats_text.replace(" to ", "-") for preset in presets)]]
    rows += [
        [f"`{spec.name}`", *(_code(getattr(preset.rules, spec.name)) for preset in presets)]
        for spec in option_specs()
    ]
    return _table(header, rows)


def presets_list() -> str:
    """Each preset in a line: its name, its seats, what marks it out, its ties and offers."""
    lines = []
    for preset in PRESETS.values():
        line = f"- `{preset.name}` ({preset.seats_text} seats): {preset.summary}"
        for tie in preset.ties:
            line += (
                f" Setting `{tie.option}` also sets `{tie.follower}`, unless the same change "
                f"sets it too. {tie.reason}"
            )
        for offer in preset.offers:
            offered = ", ".join(f"{_code(c.value)} ({c.label})" for c in offer.choices)
            line += f" Its settings offer `{offer.option}` {offered}."
        lines.append(line)
    return "\n".join(lines)


def seats_text() -> str:
    """The table sizes, in a sentence."""
    return (
        f"A table has {MIN_SEATS} to {MAX_SEATS} seats; one deck serves up to "
        f"{MAX_SEATS_ONE_DECK}, and {MAX_SEATS_ONE_DECK + 1} or {MAX_SEATS} need `decks` 2. "
        "Each preset names the sizes it is made for (see the presets)."
    )


def code_meanings(
    module: ModuleType = errors, enum_class: type[StrEnum] = ErrorCode
) -> dict[str, str]:
    """Each code's meaning, by value: its member's docstring in ``module``'s ``enum_class``."""
    tree = ast.parse(inspect.getsource(module))
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == enum_class.__name__:
            body = node.body
            for assign, doc in itertools.pairwise(body):
                if (
                    isinstance(assign, ast.Assign)
                    and isinstance(assign.targets[0], ast.Name)
                    and isinstance(doc, ast.Expr)
                    and isinstance(doc.value, ast.Constant)
                    and isinstance(doc.value.value, str)
                ):
                    meaning = " ".join(doc.value.value.split()).replace("``", "`")
                    found[enum_class[assign.targets[0].id].value] = meaning
    return found


def _who(meaning: str) -> tuple[str, str]:
    if meaning.startswith("Ours:"):
        return "engine (ours)", meaning.removeprefix("Ours:").strip()
    return "engine", meaning


def error_codes_table() -> str:
    """Every stable error code of the rules, who gives it, and when."""
    meanings = code_meanings()
    rows = []
    for code in ErrorCode:
        who, when = _who(meanings[code.value])
        rows.append([f"`{code.value}`", who, when[:1].upper() + when[1:]])
    return _table(["code", "from", "when"], rows)


def codes_table(module: ModuleType, enum_class: type[StrEnum]) -> str:
    """Every code of ``enum_class`` (in ``module``) and when it is given."""
    meanings = code_meanings(module, enum_class)
    rows = [[f"`{code.value}`", _cell(meanings[code.value])] for code in enum_class]
    return _table(["code", "when"], rows)


GENERATED: Final[dict[str, dict[str, Callable[[], str]]]] = {
    "RECORD.md": {
        "options": options_table,
        "presets": presets_table,
        "preset-list": presets_list,
        "seats": seats_text,
        "error-codes": error_codes_table,
    },
    "PROTOCOL.md": {
        "preset-list": presets_list,
        "seats": seats_text,
        "error-codes": error_codes_table,
    },
}
"""Each document, and each of its generated blocks by name with the function that writes it."""


def _block(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- BEGIN GENERATED {re.escape(name)}: [^>]*-->\n)(.*?)(<!-- END GENERATED "
        rf"{re.escape(name)} -->)",
        re.DOTALL,
    )


Generated = Mapping[str, Mapping[str, Callable[[], str]]]
"""Documents and their generated blocks, each with the function that writes it."""


def render(document: str, text: str, generated: Generated = GENERATED) -> str:
    """The document's text with each generated block written afresh.

    ``ValueError`` if a block's markers are missing: the tables are the contract's, not
    optional.
    """
    for name, write in generated[document].items():
        match = _block(name).search(text)
        if match is None:
            raise ValueError(f"{document} has no generated block {name!r}.")
        body = write().rstrip("\n") + "\n"
        text = text[: match.start(2)] + body + text[match.end(2) :]
    return text


def stale(docs_dir: Path = DOCS_DIR, generated: Generated = GENERATED) -> list[str]:
    """The documents whose generated blocks differ from what the code would write now."""
    out = []
    for document in generated:
        text = (docs_dir / document).read_text(encoding="utf-8")
        if render(document, text, generated) != text:
            out.append(document)
    return out


def write_all(docs_dir: Path = DOCS_DIR, generated: Generated = GENERATED) -> list[Path]:
    """Rewrite every generated block; return the documents changed."""
    changed = []
    for document in generated:
        path = docs_dir / document
        text = path.read_text(encoding="utf-8")
        new = render(document, text, generated)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the generated tables of ``docs/``; ``--check`` only says which are stale."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--check"]:
        old = stale()
        for document in old:
            print(f"docs/{document} is out of date: run {COMMAND}")
        return 1 if old else 0
    for path in write_all():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
