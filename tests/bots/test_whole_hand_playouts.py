"""Whole-hand melding in playouts: basic play's meld found without the full list of melds.

Under whole-hand melding each legal meld must leave a hand that can still all go down, so
the full list asks that of every meld the hand holds: on the big hands of two-deck tables
with deep takes, hundreds of questions a position. A playout wants one meld, the first legal
one of the best split, and ``basic_whole_hand_meld`` asks only of those. Both directions are
checked: where it answers, basic play over the full list chooses the same action; where it
does not, basic play chooses no meld of the split.
"""

from __future__ import annotations

import pytest

from bot_games import positions, random_game
from rummykit.bots import StrongBot, make_bot
from rummykit.bots.basic import basic_play, basic_whole_hand_meld
from rummykit.core.actions import Action, Meld, action_sort_key
from rummykit.core.deadwood import best_partition
from rummykit.core.meld_search import enumerate_melds
from rummykit.core.movegen import WholeHandMelds
from rummykit.core.state import GameState, Phase


def whole_hand_positions(seed: int) -> list[GameState]:
    """Positions after the draw of a whole-hand deal between bots, cloned as they stood."""
    seats = 2 + seed % 5
    game, rng = random_game(
        seed,
        seats,
        melding="whole_hand",
        decks=1 + seed % 2,
        jokers=seed % 3,
        discard_take="any",
        deep_take_must_use=bool(seed % 4),
    )
    bots = [make_bot("basic"), StrongBot()] * 4
    return [
        position.clone()
        for position in positions(game, bots[:seats], rng)
        if position.phase is Phase.PLAY
    ]


POSITIONS = [position for seed in range(8100, 8124) for position in whole_hand_positions(seed)]


def test_the_positions_reach_hands_that_go_out() -> None:
    going_out = sum(WholeHandMelds.of_position(position).open for position in POSITIONS)
    assert len(POSITIONS) > 300 and going_out > 30


@pytest.mark.parametrize("keep_partners", [False, True])
def test_the_playout_meld_is_basic_plays_choice_over_the_full_list(keep_partners: bool) -> None:
    answered = 0
    for position in POSITIONS:
        hand = position.hands[position.turn]
        chosen = basic_play(hand, position.rules, list(position.legal_actions()), keep_partners)
        found = basic_whole_hand_meld(position)
        if found is not None:
            assert found == chosen
            answered += 1
        else:
            split = {meld.text for meld in best_partition(hand, position.rules).melds}
            assert not (isinstance(chosen, Meld) and chosen.text in split)
    assert answered > 30


def test_the_melds_asked_one_group_at_a_time_are_the_full_list() -> None:
    for position in POSITIONS[::3]:
        hand = position.hands[position.turn]
        melds = WholeHandMelds.of_position(position)
        groups = enumerate_melds(
            [card.code for card in hand], position.rules.aces, substitutes=True
        )
        asked: list[Action] = []
        for naturals, jokers in groups:
            one_group = melds.of(naturals, jokers)
            assert one_group == sorted(one_group, key=action_sort_key)
            asked.extend(one_group)
        listed = [action for action in position.legal_actions() if isinstance(action, Meld)]
        assert sorted(asked, key=action_sort_key) == listed


def test_a_group_the_hand_does_not_hold_has_no_meld() -> None:
    position = next(position for position in POSITIONS if WholeHandMelds.of_position(position).open)
    hand = {card.code for card in position.hands[position.turn]}
    missing = next(code for code in range(52) if code not in hand)
    assert WholeHandMelds.of_position(position).of((missing,), 2) == []
