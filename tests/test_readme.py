"""The README as a stranger reads it: its examples run as written, its figures hold."""

from __future__ import annotations

import doctest
import os
import re
import sys
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "README.md"


def test_readme_examples_run() -> None:
    results = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 5
    assert results.failed == 0


def test_readme_starts_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```bash") + 1 : lines.index("```")]
    assert [line.split()[:2] for line in block] == [["make", "run"], ["make", "test"]]


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _flat_readme() -> str:
    """The README with its lines joined: a sentence may be wrapped anywhere."""
    return " ".join(README.read_text(encoding="utf-8").split())


def test_the_readme_counts_the_computer_opponents_the_lobby_offers() -> None:
    from rummykit.core.rules import MAX_SEATS

    # the lobby offers one opponent up to every seat but yours (rummykit/web/lobby.js reads
    # the server's table sizes: nothing there to copy)
    said = re.findall(r"one to (\w+) computer opponents", _flat_readme())
    assert said, "the README says how many computer opponents a table can have"
    assert set(said) == {NUMBER_WORDS[MAX_SEATS - 1]}


def test_the_readme_gives_a_partys_seats_as_the_server_counts_them() -> None:
    from rummykit.protocol.facts import MAX_PARTY_SEATS, MIN_PARTY_SEATS

    said = re.findall(r"every person is ready, with (\d+) to (\d+) seats", _flat_readme())
    assert said == [(str(MIN_PARTY_SEATS), str(MAX_PARTY_SEATS))]


SIZE_TOLERANCE = 0.25
"""How far the README's "about N MB" may be from the measured install: packages move a
little with each release, the figure should not move with them."""


def test_the_readme_gives_the_size_of_the_test_install() -> None:
    """``make test`` runs in the repository's ``.venv``: the README's size for it holds.

    (The size of ``make run``'s install is checked on a fresh one, by
    ``tests/web/test_readme_road.py``.)
    """
    venv = README.parent / ".venv"
    if Path(sys.prefix).resolve() != venv.resolve():
        pytest.skip("not running in the repository's .venv (make test makes it)")
    said = re.search(r"\(about (\d+) MB in all\)", _flat_readme())
    assert said, "the README says how much `make test` installs"
    total = sum(path.lstat().st_size for path in venv.rglob("*") if not path.is_symlink()) / 1e6
    assert abs(total - int(said.group(1))) <= SIZE_TOLERANCE * total, (
        f"the README says about {said.group(1)} MB in all; .venv holds {total:.0f} MB"
    )


def test_the_readmes_waits_between_deals_and_for_dropped_seats_are_the_servers() -> None:
    from rummykit.server.http.heartbeat import BEAT_S, SILENT_S
    from rummykit.server.tables.next_deal import NEXT_DEAL_WAIT_S
    from rummykit.server.tables.turn_keeper import BYE_GRACE_S, DROP_GRACE_S, RESTART_GRACE_S

    flat = _flat_readme()
    said = {
        NEXT_DEAL_WAIT_S: r"or (\d+) seconds after the first press",
        DROP_GRACE_S: r"only once you have been gone (\d+) seconds",
        BYE_GRACE_S: r"\((\d+) seconds if you closed the page on purpose\)",
        BEAT_S: r"exchange a beat every (\d+) seconds",
        SILENT_S: r"lets the seat's socket go within (\d+)",
        RESTART_GRACE_S: r"runs on with at least (\d+) seconds more",
    }
    for value, pattern in said.items():
        found = re.search(pattern, flat)
        assert found, f"the README no longer says {pattern!r}"
        assert float(found.group(1)) == value, (pattern, value)


def test_ci_and_the_readme_install_the_browser_the_tests_drive() -> None:
    from web.conftest import CHROMIUM, CHROMIUM_PACKAGE

    ci_run = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert f"[ -x /usr/bin/{CHROMIUM_PACKAGE} ] || missing+=({CHROMIUM_PACKAGE})" in ci_run
    assert f"apt-get install {CHROMIUM_PACKAGE}" in _flat_readme()
    if "RUMMY_CHROMIUM" not in os.environ:
        assert CHROMIUM.name == CHROMIUM_PACKAGE


def test_the_readme_says_how_long_a_stalled_write_holds_its_locks() -> None:
    from rummykit.server.store.database import IDLE_IN_TRANSACTION_MS

    text = " ".join(README.read_text(encoding="utf-8").split())
    assert f"transaction left idle for {IDLE_IN_TRANSACTION_MS / 1000:g} s" in text
