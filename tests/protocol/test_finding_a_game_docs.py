"""docs/PROTOCOL.md §2b-2e and the README state the numbers of finding a game: each is the
code's own (a change to a constant fails here until the documents say it too)."""

from __future__ import annotations

import re
from pathlib import Path

from rummykit.protocol import (
    ARENA_MINUTES,
    ARENA_SEATS,
    CHALLENGE_EXPIRES_S,
    MAX_ARENA_DELAY_MIN,
    MAX_CHALLENGES_WAITING,
    MAX_OPEN_TABLES,
    QUICK_POOLS,
)
from rummykit.ratings import ANYONE_AFTER_S, START_RANGE, WIDEN_PER_S
from rummykit.ratings.arena import PLACE_POINTS, RUN_FOR_FIRE, WIN_POINTS

DOCS = Path(__file__).resolve().parents[2]
PROTOCOL = " ".join((DOCS / "docs" / "PROTOCOL.md").read_text(encoding="utf-8").split())
README = " ".join((DOCS / "README.md").read_text(encoding="utf-8").split())
WORDS = {2: "two", 4: "four"}


def _section(title: str) -> str:
    return PROTOCOL.split(f"## {title}", 1)[1].split(" ## ", 1)[0]


def test_the_open_tables_limit() -> None:
    assert f"at most {MAX_OPEN_TABLES} lines" in _section("2b.")


def test_the_pools_and_the_ranges() -> None:
    pairing = _section("2c.")
    named = set(re.findall(r"`((?:duel|four)_\d+)`", pairing))
    assert named == {pool.name for pool in QUICK_POOLS}  # every pool, and no other
    for pool in QUICK_POOLS:
        assert f"({WORDS[pool.seats]} players, `{pool.preset}`)" in pairing
    assert f"a range of {START_RANGE:g} displayed points" in pairing
    assert f"{WIDEN_PER_S:g} more each second" in pairing
    assert f"none after {ANYONE_AFTER_S:g} seconds" in pairing
    assert f"{START_RANGE:g} points either side at first and {WIDEN_PER_S:g} more" in README
    assert f"(anyone after {ANYONE_AFTER_S:g} seconds)" in README


def test_the_challenges_limits() -> None:
    challenges = _section("2d.")
    assert f"{CHALLENGE_EXPIRES_S:g} seconds to answer" in challenges
    assert f"at most {MAX_CHALLENGES_WAITING} challenges waiting" in challenges
    assert f"({CHALLENGE_EXPIRES_S:g} seconds to answer)" in README


def test_the_arenas_terms_and_scoring() -> None:
    arenas = _section("2e.")
    *first, last = ARENA_MINUTES
    assert f"`minutes` ({', '.join(map(str, first))} or {last})" in arenas
    assert f"`seats` ({' or '.join(map(str, ARENA_SEATS))})" in arenas
    assert f"(0 to {MAX_ARENA_DELAY_MIN})" in arenas
    run = WORDS.get(RUN_FOR_FIRE, str(RUN_FOR_FIRE))
    assert (
        f"a game won alone {WIN_POINTS} points, doubled ({2 * WIN_POINTS}) after {run} wins"
        in arenas
    )
    assert f"top half of the table {PLACE_POINTS}" in arenas
    assert f"A win counts {WIN_POINTS} points, {2 * WIN_POINTS} after {run} wins in a row" in README


def test_the_rounds_of_a_site_of_several_processes() -> None:
    """The README's "writes them again every second ... within 5 s" is every shared list's."""
    from rummykit.server.pairing import arena_pages, challenges, open_tables, quick_pairing

    rounds = {quick_pairing.TICK_S, challenges.TICK_S, open_tables.SHARED_EVERY_S}
    lives = {quick_pairing.ENTRY_S, challenges.INBOX_S, open_tables.LINE_S, arena_pages.PAGE_S}
    assert rounds == {1.0}
    (life,) = lives
    assert "writes them again every second while they stand" in README
    assert f"a process that dies takes its players off within {life:g} s" in README
    assert "reads the others' every second" in _section("2b.")
    assert "at once (a nudge lost, at its next second)" in README
