"""The README's Python examples run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"


def test_readme_examples_run() -> None:
    results = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 5
    assert results.failed == 0


def test_readme_starts_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```bash") + 1 : lines.index("```")]
    assert [line.split()[:2] for line in block] == [["make", "run"], ["make", "test"]]
