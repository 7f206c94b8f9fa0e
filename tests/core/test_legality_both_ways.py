"""The legal-action list is exactly what ``check`` accepts, in both directions.

``legal_actions()`` has its own fast candidate search; ``check`` is the rule. Over random
games under random rules (jokers, two decks, deep pile takes, meld limits, going out only
by discard...), the list must hold every action ``check`` accepts, written canonically, and
nothing else. The accepted set comes from an independent brute force (``brute_force``).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from brute_force import MAX_HAND, canonical, legal_by_brute_force
from helpers import random_rules, stacked_game
from rummykit.core.rules import MAX_SEATS, Aces, Rules
from rummykit.core.state import GameState, Phase

SMALL_HAND = 8
"""Positions whose hand is at most this big are compared: 2^8 candidate melds stay quick."""
STEPS = 120
"""Actions per example: a deal or two, with melds and lay-offs on the table."""


def listed(game: GameState) -> list[str]:
    """The legal-action list as text."""
    return [str(action) for action in game.legal_actions()]


def assert_list_is_what_check_accepts(game: GameState) -> None:
    """Both directions, and the list is canonical and free of repeats."""
    texts = listed(game)
    assert len(texts) == len(set(texts)), "an action is listed twice"
    for action in game.legal_actions():
        assert str(action) == canonical(game, action), "listed actions are canonical"
    accepted = legal_by_brute_force(game)
    assert not set(texts) - accepted, f"listed but refused: {sorted(set(texts) - accepted)}"
    assert not accepted - set(texts), f"accepted but not listed: {sorted(accepted - set(texts))}"


@st.composite
def small_hand_rules(draw: st.DrawFn) -> tuple[Rules, int]:
    """Random rules with small hands, where jokers, two decks and deep takes are common.

    Seven and eight seats (two decks) take part too: their seat numbers reach past six.
    """
    seats = draw(st.sampled_from([2, 3, 4, MAX_SEATS - 1, MAX_SEATS]))
    rng = draw(st.randoms(use_true_random=False))
    fixed: dict[str, object] = {"hand_size": draw(st.sampled_from([6, 7]))}
    if draw(st.booleans()):
        fixed["jokers"] = draw(st.integers(1, 4))
    if draw(st.booleans()):
        fixed["discard_take"] = "any"
    return random_rules(rng, seats, **fixed), seats


def test_a_joker_may_stand_for_a_card_its_owner_holds() -> None:
    rules = Rules(aces=Aces.LOW, jokers=1)
    game = stacked_game(
        rules, ["2c 3d 5h 7c 8d 9h Tc Jd Qh Kc", "Js Qs Ks X 2d 4h 6c 8s 9c Td"], up="3c"
    )
    game.apply_text("1 draw stock")
    assert "1 meld Js X=Qs Ks" in listed(game)
    assert game.can(game.legal_actions()[listed(game).index("1 meld Js X=Qs Ks")])
    assert_list_is_what_check_accepts(game)


def test_a_joker_in_a_set_may_stand_for_a_suit_its_owner_holds() -> None:
    rules = Rules(jokers=1)
    game = stacked_game(
        rules, ["2c 3d 5h 8c 8d 9h Tc Jd Qh Kc", "7c 7d 7h X 2d 4h 6c 8s 9c Td"], up="3c"
    )
    game.apply_text("1 draw stock")
    assert {"1 meld 7c 7d X=7h", "1 meld 7c 7d X=7s", "1 meld 7c 7d 7h X=7s"} <= set(listed(game))
    assert_list_is_what_check_accepts(game)


@settings(max_examples=60, deadline=None)
@given(small_hand_rules(), st.integers(0, 2**32 - 1))
def test_legal_actions_are_exactly_the_actions_check_accepts(
    setup: tuple[Rules, int], seed: int
) -> None:
    rules, seats = setup
    rng = random.Random(seed)
    game = GameState.new(rules, seats, dealer=rng.randrange(seats), seed=seed)
    compared = 0
    for _ in range(STEPS):
        if game.phase is Phase.OVER:
            break
        if len(game.hands[game.turn]) <= min(SMALL_HAND, MAX_HAND):
            assert_list_is_what_check_accepts(game)
            compared += 1
        actions = list(game.legal_actions())
        melds = [action for action in actions if "meld" in str(action) or "layoff" in str(action)]
        game.apply(rng.choice(melds) if melds and rng.random() < 0.6 else rng.choice(actions))
    assert compared, "every example compares at least its first position"
