"""The contract's tables (docs/RECORD.md, docs/PROTOCOL.md) are written from the code: the
option specs, the presets registry and ``ErrorCode``; a stale document fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummykit.core import contract
from rummykit.core.actions import _VERBS
from rummykit.core.errors import ErrorCode
from rummykit.core.presets import PRESETS
from rummykit.core.rules import MAX_SEATS, MIN_SEATS, option_names

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_generated_tables_of_the_contract_are_up_to_date() -> None:
    assert contract.stale(DOCS) == [], f"run `{contract.COMMAND}` to rewrite them"


def test_the_contract_lives_in_the_project() -> None:
    record = (DOCS / "RECORD.md").read_text(encoding="utf-8")
    assert "rummy-record/1" in record
    assert "../shared" not in record


@pytest.mark.parametrize("document", ["RECORD.md", "PROTOCOL.md"])
def test_every_preset_and_every_code_is_listed(document: str) -> None:
    text = (DOCS / document).read_text(encoding="utf-8")
    for name, preset in PRESETS.items():
        assert f"- `{name}` ({preset.seats_text} seats)" in text
    for code in ErrorCode:
        assert f"| `{code.value}` |" in text
    assert f"{MIN_SEATS} to {MAX_SEATS} seats" in text


def test_every_option_and_every_preset_value_is_in_record_md() -> None:
    text = (DOCS / "RECORD.md").read_text(encoding="utf-8")
    for name in option_names():
        assert text.count(f"| `{name}` |") == 2  # its row of options, its row of presets


def test_the_knock_action_and_knock_results_are_in_record_md() -> None:
    text = (DOCS / "RECORD.md").read_text(encoding="utf-8")
    assert "`S knock C`" in text
    assert '`"knock"`' in text and '`"undercut"`' in text


def test_a_stale_table_is_found_and_rewritten(tmp_path: Path) -> None:
    for document in contract.GENERATED:
        text = (DOCS / document).read_text(encoding="utf-8")
        (tmp_path / document).write_text(text.replace("| `decks` |", "| `deck` |", 1), "utf-8")
    assert contract.stale(tmp_path) == ["RECORD.md"]
    assert contract.write_all(tmp_path) == [tmp_path / "RECORD.md"]
    assert contract.stale(tmp_path) == []


def test_a_document_without_its_markers_is_an_error() -> None:
    with pytest.raises(ValueError, match="options"):
        contract.render("RECORD.md", "no tables here")


def test_the_actions_table_of_record_md_has_every_verb_and_no_other() -> None:
    """Both ways: a verb the notation reads has its row, and a row names a verb it reads; the
    protocol's document sends its readers to that table and shows each verb once."""
    text = (DOCS / "RECORD.md").read_text(encoding="utf-8")
    section = text.split("## Actions", 1)[1].split("\n## ", 1)[0]
    rows = {
        line.split("`")[1].split()[1] for line in section.splitlines() if line.startswith("| `S ")
    }
    assert rows == set(_VERBS)
    protocol = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8")
    assert "(RECORD.md#actions)" in protocol and "(RECORD.md#cards)" in protocol
    for verb in _VERBS:
        assert f"`{verb} " in protocol, verb
