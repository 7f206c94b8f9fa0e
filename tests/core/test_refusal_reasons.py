"""Every refusal has a stable reason, an English template and params that fill it exactly.

The reasons and templates are ``rummykit.core.refusals``'s (the rules') and
``rummykit.protocol.table_refusals``'s (the server's table's own); the engine raises the
former (``refuse``) and the server sends both (``refused``). Checked three ways: each call in the
sources names a reason whose template uses exactly the params given; refusals met in random
games fill their template with nothing left over; and the English reads as before.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot_games import random_game
from rummykit.bots import RandomBot
from rummykit.bots.play import play_deal
from rummykit.core.actions import parse_action
from rummykit.core.cards import standard_deck
from rummykit.core.errors import ErrorCode, IllegalActionError
from rummykit.core.refusals import (
    POSSESSIVE,
    REFUSALS,
    SEAT_PARAMS,
    ParamValue,
    catalogue,
    code_of,
    expected_placeholders,
    placeholders,
    refusal_text,
)
from rummykit.core.rules import MAX_SEATS, MIN_SEATS
from rummykit.protocol import EVENTS
from rummykit.protocol.table_refusals import ALL_REFUSALS

SOURCES = Path(__file__).parents[2] / "src" / "rummykit"

pytestmark = pytest.mark.timeout(120)


def _calls(name: str) -> list[tuple[Path, int, str, set[str]]]:
    """Every call ``name("reason", param=...)`` in the sources: where, reason, param names."""
    found = []
    for path in sorted(SOURCES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called != name:
                continue
            reasons = [arg for arg in node.args if isinstance(arg, ast.Constant)]
            if not reasons or not isinstance(reasons[0].value, str):
                continue
            params = {keyword.arg for keyword in node.keywords if keyword.arg is not None}
            found.append((path, node.lineno, reasons[0].value, params))
    return found


def _used(reason: str, params: set[str]) -> bool:
    """Whether each param is used by the reason's template (a seat may be used as its
    possessive; ``count`` chooses the plural form)."""
    template = ALL_REFUSALS[reason][1]
    names = placeholders(template) | (set() if isinstance(template, str) else {"count"})
    return all(name in names or f"{name}{POSSESSIVE}" in names for name in params)


def test_every_reason_has_a_code_and_a_template_with_no_unknown_placeholder() -> None:
    for reason, (code, template) in REFUSALS.items():
        assert isinstance(code, ErrorCode)
        forms = [template] if isinstance(template, str) else list(template.values())
        assert all(form.strip() for form in forms), reason
        if not isinstance(template, str):
            assert set(template) == {"one", "other"}, reason
    assert set(catalogue()) >= {f"refusals.{reason}" for reason in REFUSALS}


@pytest.mark.parametrize("name", ["refuse", "refused"])
def test_every_call_site_fills_its_template_exactly(name: str) -> None:
    calls = _calls(name)
    assert calls, f"no {name}(...) calls found"
    for path, line, reason, params in calls:
        where = f"{path.name}:{line}"
        known = REFUSALS if name == "refuse" else ALL_REFUSALS  # the engine raises its own
        assert reason in known, f"{where}: unknown reason {reason!r}"
        wanted = placeholders(ALL_REFUSALS[reason][1])
        assert wanted <= expected_placeholders(dict.fromkeys(params)), (
            f"{where}: {reason} needs {sorted(wanted)}, given {sorted(params)}"
        )
        assert _used(reason, params), f"{where}: {reason} is given params it does not use"


def test_the_reasons_raised_all_exist() -> None:
    assert {reason for _, _, reason, _ in _calls("refuse")} <= set(REFUSALS)
    assert {reason for _, _, reason, _ in _calls("refused")} <= set(ALL_REFUSALS)


def test_the_english_reads_as_before() -> None:
    assert refusal_text("not_seat_turn", {"turn": 1, "seat": 0}) == (
        "It is seat 1's turn, not seat 0's."
    )
    assert refusal_text("no_such_seat", {"number": 5, "last": 2}) == (
        "There is no seat 5: seats are 0 to 2."
    )
    assert refusal_text("pile_too_short", {"count": 1, "depth": 3}) == (
        "The discard pile holds only 1 card, not 3."
    )
    assert refusal_text("meld_limit", {"count": 1}) == (
        "You may lay only one new meld a turn under these rules."
    )
    assert refusal_text("meld_too_short", {"cards": []}) == (
        "Nothing is no meld: a meld needs at least three cards."
    )
    missing: dict[str, ParamValue] = {
        "cards": ["4h", "5h", "9h"],
        "missing": ["6h", "7h", "8h"],
        "count": 3,
    }
    assert refusal_text("run_missing", missing) == (
        "4♥ 5♥ 9♥ is not a run: the 6♥, 7♥ and 8♥ are missing."
    )
    assert refusal_text("layoff_does_not_fit", {"card": "X=6h", "meld": ["7h", "8h", "9h"]}) == (
        "The 🃏(6♥) does not fit 7♥ 8♥ 9♥."
    )


def _attempts(seed: int) -> list[IllegalActionError]:
    """Refusals met by random actions at each position of a random deal."""
    game, rng = random_game(seed, rng_seats(seed))
    deck = standard_deck(game.rules.decks, game.rules.jokers)
    caught: list[IllegalActionError] = []
    bots = [RandomBot() for _ in range(game.seat_count)]
    for step, _ in enumerate(play_deal(game, bots, [rng] * len(bots), 200)):
        if step % 3:
            continue
        for _ in range(6):
            seat = rng.randrange(-1, game.seat_count + 1)
            cards = " ".join(str(rng.choice(deck)) for _ in range(rng.randrange(1, 5)))
            text = rng.choice(
                [
                    f"{seat} draw stock",
                    f"{seat} draw discard {rng.randrange(1, 5)}",
                    f"{seat} meld {cards}",
                    f"{seat} layoff {cards.split()[0]} {rng.randrange(0, 4)}",
                    f"{seat} discard {cards.split()[0]}",
                ]
            )
            try:
                game.check(parse_action(text.replace("-1 ", "9 ")))
            except IllegalActionError as error:
                caught.append(error)
    return caught


def rng_seats(seed: int) -> int:
    return random.Random(seed).randrange(MIN_SEATS, MAX_SEATS + 1)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31))
def test_refusals_met_in_play_fill_their_templates(seed: int) -> None:
    for error in _attempts(seed):
        assert error.reason in REFUSALS, error
        assert error.code is code_of(error.reason)
        names = placeholders(REFUSALS[error.reason][1])
        assert names <= expected_placeholders(error.params), (error.reason, error.params)
        assert _used(error.reason, set(error.params)), (error.reason, error.params)
        assert error.message == refusal_text(error.reason, error.params)
        assert "{" not in error.message and "}" not in error.message
        for name in SEAT_PARAMS & set(error.params):
            assert isinstance(error.params[name], int)


def test_event_kinds_have_templates_for_every_language_area() -> None:
    for kind, template in EVENTS.items():
        assert placeholders(template) <= {
            "seat",
            "card",
            "stock_card",
            "cards",
            "meld",
            "number",
        } | {
            "count",
            "points",
            "grace",
        }, kind
