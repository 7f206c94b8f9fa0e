"""A hint's words as kinds with params: every template filled exactly, the English as before.

A hint (``rummykit.bots.strong.Decision``) carries its advice and its reason as kinds with
params (``rummykit.bots.hint_words``) besides the English sentence, so the browser can say it
in the player's language. Checked three ways: every kind's English reads as it did when the
sentences were f-strings; in random games every hint's kinds are filled by exactly the params
given, of the right types, and render its sentence; and every legal action's advice reads as
``describe_action`` tells it.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot_games import positions, random_game
from rummykit.bots import BasicBot, Bot, RandomBot, StrongBot
from rummykit.bots.hint_words import (
    ACTION,
    ADVICE,
    REASONS,
    advice_text,
    advice_words,
    catalogue,
    discard_kind,
    hint_text,
)
from rummykit.bots.hints import hint
from rummykit.bots.strong import Decision, taken_by
from rummykit.core.actions import Meld, Tense, describe_action, parse_action
from rummykit.core.cards import Card
from rummykit.core.observation import Observation, observe
from rummykit.core.refusals import ParamValue, placeholders
from rummykit.core.rules import MAX_SEATS, MIN_SEATS

pytestmark = pytest.mark.timeout(120)

CARD_PARAMS = {"card"}
MELD_PARAMS = {"meld", "cards"}
NUMBER_PARAMS = {"number", "depth", "before", "after", "points"}

DISCARD_K: tuple[str, dict[str, ParamValue]] = ("discard", {"card": "Kc"})
"""The advice most reasons below follow: ``Discard the K♣``."""

AS_BEFORE: dict[str, tuple[str, dict[str, ParamValue], tuple[str, dict[str, ParamValue]]]] = {
    # reason kind: (the English as the f-strings wrote it, its params, its advice)
    "no_discard": ("Draw from the stock: there is no discard to take.", {}, ("draw_stock", {})),
    "stock_gone": (
        "Take the 9♣ from the discard pile: the stock is gone.",
        {},
        ("take_discard", {"card": "9c"}),
    ),
    "take_makes": (
        "Take the 9♣ from the discard pile: it makes 7♣ 🃏(8♣) 9♣.",
        {"meld": ["7c", "X=8c", "9c"]},
        ("take_discard", {"card": "9c"}),
    ),
    "take_improves": (
        "Take 9♣ 10♦ from the discard pile: it brings your hand from 31 to 12 points, "
        "with better chances.",
        {"before": 31, "after": 12},
        ("take_discards", {"cards": ["9c", "Td"]}),
    ),
    "top_useless": (
        "Draw from the stock: the Q♥ does not help your hand.",
        {"card": "Qh"},
        ("draw_stock", {}),
    ),
    "layoff_fits": (
        "Lay off the 7♥ on meld 0: it fits 4♥ 5♥ 6♥, one card less.",
        {"meld": ["4h", "5h", "6h"]},
        ("layoff", {"card": "7h", "number": 0}),
    ),
    "meld_now": (
        "Meld 5♥ 🃏(6♥) 7♥: cards on the table cannot be caught in your hand.",
        {},
        ("meld", {"meld": ["5h", "X=6h", "7h"]}),
    ),
    "only_choice": (
        "Lay off the 🃏 on meld 2: there is nothing else.",
        {},
        ("layoff", {"card": "X", "number": 2}),
    ),
    "go_out": ("Discard the K♣ and go out.", {}, DISCARD_K),
    "knock_low": (
        "Knock, discarding the 7♥: 4 loose is low enough to win this deal most of the time.",
        {"points": 4},
        ("knock", {"card": "7h"}),
    ),
    "searched": (
        "Take the top 2 cards of the discard pile: over many deals dealt to fit what you have "
        "seen, it comes out ahead on average.",
        {},
        ("take_deep", {"depth": 2}),
    ),
}
"""Every reason kind but the discards' (below), in the English of the f-strings it replaced."""

DISCARD_WHY = {
    "deadwood": "it belongs to nothing and costs 10",
    "break_group": "breaking that group costs you least",
}
UNSAFE = ", and every other card would help another player"
HOLDING = ", and you keep your melds back for going rummy"


def test_every_reason_reads_as_the_f_strings_wrote_it() -> None:
    for kind, (english, params, (action_kind, action_params)) in AS_BEFORE.items():
        assert hint_text(kind, params, action_kind, action_params) == english, kind
    discards = set()
    for why, words in DISCARD_WHY.items():
        for unsafe in (False, True):
            for holding in (False, True):
                kind = discard_kind(why == "deadwood", unsafe, holding)
                points: dict[str, ParamValue] = {"points": 10} if why == "deadwood" else {}
                english = (
                    f"Discard the K♣: {words}{UNSAFE if unsafe else ''}"
                    f"{HOLDING if holding else ''}."
                )
                assert hint_text(kind, points, *DISCARD_K) == english, kind
                discards.add(kind)
    assert set(AS_BEFORE) | discards == set(REASONS)


def test_every_advice_reads_as_describe_action_tells_it() -> None:
    told = {
        "draw_stock": ("0 draw stock", ()),
        "take_discard": ("0 draw discard", ("9c",)),
        "take_discards": ("0 draw discard 2", ("9c", "Td")),
        "take_top": ("0 draw discard", ()),
        "take_deep": ("0 draw discard 3", ()),
        "meld": ("0 meld 5h X=6h 7h", ()),
        "layoff": ("0 layoff Th 1", ()),
        "discard": ("0 discard Kc", ()),
        "knock": ("0 knock 7h", ()),
    }
    assert set(told) == set(ADVICE)
    for kind, (text, taken_codes) in told.items():
        action = parse_action(text)
        taken = tuple(Card.parse(code) for code in taken_codes)
        said_kind, params = advice_words(action, taken)
        assert said_kind == kind
        assert placeholders(ADVICE[kind]) == set(params), kind
        assert advice_text(kind, params) == describe_action(action, tense=Tense.ADVICE, taken=taken)


def test_the_catalogue_holds_every_kind_once_and_every_reason_holds_its_advice() -> None:
    words = catalogue()
    assert len(words) == len(ADVICE) + len(REASONS)
    assert all(f"hints.{kind}" in words for kind in [*ADVICE, *REASONS])
    for kind, template in REASONS.items():
        assert ACTION in placeholders(template), kind
    for kind, template in ADVICE.items():
        assert ACTION not in placeholders(template), kind


def _check_params(params: dict[str, ParamValue] | object) -> None:
    """Cards are codes, melds lists of codes, numbers ints: what the browser can render."""
    assert isinstance(params, dict)
    for name, value in params.items():
        if name in CARD_PARAMS:
            assert isinstance(value, str)
            Card.parse(value)
        elif name in MELD_PARAMS:
            assert isinstance(value, list) and len(value) >= 1
            for code in value:
                Card.parse(code.split("=")[0])
        else:
            assert name in NUMBER_PARAMS, name
            assert isinstance(value, int)


def _check_decision(decision: Decision, view: Observation) -> None:
    """The decision's kinds are filled by exactly its params and render its sentence."""
    assert decision.kind in REASONS and decision.action_kind in ADVICE
    assert placeholders(REASONS[decision.kind]) == set(decision.params) | {ACTION}
    assert placeholders(ADVICE[decision.action_kind]) == set(decision.action_params)
    _check_params(decision.params)
    _check_params(decision.action_params)
    english = hint_text(
        decision.kind, decision.params, decision.action_kind, decision.action_params
    )
    assert decision.reason == english
    assert "{" not in english and "}" not in english
    taken = taken_by(decision.action, view)
    if not isinstance(decision.action, Meld):  # a meld is told as it will lie
        opening = describe_action(decision.action, tense=Tense.ADVICE, taken=taken)
        assert english.startswith(opening), (opening, english)


@given(st.integers(0, 2**31), st.integers(MIN_SEATS, MAX_SEATS))
def test_hints_in_play_fill_their_kinds_exactly_and_say_what_they_said(
    seed: int, seats: int
) -> None:
    """Over every position of a deal between strong, basic and random under random rules:
    the hint's kinds and params, and the advice of every legal action."""
    mixed: list[Bot] = [StrongBot(), BasicBot(), RandomBot()]
    game, rng = random_game(seed, seats)
    for position in positions(game, [mixed[(seat + seed) % 3] for seat in range(seats)], rng):
        view = observe(position, position.turn)
        _check_decision(hint(view), view)
        for action in view.legal_actions:
            taken = taken_by(action, view)
            kind, params = advice_words(action, taken)
            assert placeholders(ADVICE[kind]) == set(params)
            told = describe_action(action, tense=Tense.ADVICE, taken=taken)
            assert advice_text(kind, params) == told


def test_the_experts_overruling_hint_has_its_own_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the search prefers another action than strong's, the reason kind is ``searched``
    (the expert is replaced by one that picks the last legal action: the real search depends
    on the clock)."""
    import rummykit.bots.hints as hints_module

    class Last:
        def __init__(self, budget_ms: float = 0.0, samples: int | None = None) -> None:
            pass

        def choose(self, observation: Observation, rng: random.Random) -> object:
            return observation.legal_actions[-1]

    monkeypatch.setattr(hints_module, "ExpertBot", Last)
    game, rng = random_game(7, 3, melding="during_play")
    overruled = 0
    for position in positions(game, [StrongBot(), BasicBot(), RandomBot()], rng):
        view = observe(position, position.turn)
        advice = hint(view, level="expert")
        _check_decision(advice, view)
        if advice.action != StrongBot().decide(view).action:
            assert advice.kind == "searched"
            overruled += 1
    assert overruled > 0
