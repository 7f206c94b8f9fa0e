"""``rummy puzzles make`` and ``show`` end to end: a folder of records in, a puzzle file out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli import main
from rummykit.puzzles.model import Theme, load_puzzles


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["puzzles", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_make_reads_a_folder_of_records_and_writes_its_puzzles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, planted_data: dict[str, Any]
) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "planted.json").write_text(json.dumps(planted_data), encoding="utf-8")
    (folder / "notes.json").write_text('{"not": "a record"}', encoding="utf-8")  # passed over
    out_file = tmp_path / "puzzles.json"
    code, out, _ = run(
        capsys, "make", str(folder), "--out", str(out_file), "--samples", "16", "--jobs", "1"
    )
    assert code == 0
    puzzles = load_puzzles(out_file).puzzles
    assert f"{len(puzzles)} puzzles from 1 records" in out
    assert any(p.theme is Theme.GO_OUT and p.source.record == "planted" for p in puzzles)
    code, out, _ = run(capsys, "show", str(out_file))
    assert code == 0
    assert out.splitlines()[0].split() == ["id", "theme", "rating", "loss", "solution"]
    assert all(puzzle.id in out for puzzle in puzzles)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "is not JSON"),
        ('{"format": "rummy-record/1", "rules": "classic", "players": 2}', "deals"),
        ('{"format": "something-else"}', "not a rummy-record/1 record"),
    ],
    ids=["not_json", "no_deals", "not_a_record"],
)
def test_make_refuses_a_bad_record_with_exit_code_2_and_its_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, says: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "make", str(bad), "--out", str(tmp_path / "out.json"))
    assert code == 2
    assert "rummy puzzles make:" in err and str(bad) in err and says in err
    assert "Traceback" not in err
    assert not (tmp_path / "out.json").exists()


def test_make_refuses_a_missing_file_and_bad_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "make", str(tmp_path / "gone.json"), "--out", "x.json")
    assert code == 2 and "cannot read" in err
    code, _, err = run(capsys, "make", str(tmp_path), "--out", "x.json", "--samples", "0")
    assert code == 2 and "--samples" in err
    code, _, err = run(capsys, "make", str(tmp_path), "--out", "x.json")
    assert code == 2 and "no record found" in err


def test_show_refuses_a_file_that_is_not_a_puzzle_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    code, _, err = run(capsys, "show", str(bad))
    assert code == 2 and "is not a rummykit-puzzles/1 file" in err


def test_make_has_help_with_examples_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["puzzles", "make", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "exit codes:" in out and "--verify-samples" in out
