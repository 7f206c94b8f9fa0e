"""Every error code of docs/RECORD.md § Error codes, and the order in which they are reported.

Every refusal is checked three ways: its code, a message that names the cards (with suit
symbols) where cards are involved, and a position left exactly as it was.
"""

from __future__ import annotations

import pytest

from helpers import RECORD_ERROR_CODES, play, stacked_game
from rummykit.core.actions import parse_action
from rummykit.core.cards import standard_deck
from rummykit.core.errors import ERROR_CODES, IllegalActionError, InvalidActionError
from rummykit.core.rules import DiscardTake, GoOut, LayOffTiming, Rules
from rummykit.core.state import GameState, Phase

# Dealer 0, so seat 1 plays first. Seat 0 holds the run 2c 3c 4c; seat 1 the run 4h-7h, the
# set 9c 9d 9h and the 5c that fits seat 0's run. The stock starts Ks 9s Ah 2h.
BASE_HANDS = ["2c 3c 4c 8s Js Td Kd Qs 5s 6d", "4h 5h 6h 7h 9c 9d 9h Kc Qd 5c"]
BASE_UP = "8h"
BASE_STOCK = "Ks 9s Ah 2h"

# Seat 1 can meld its whole hand: 4h-7h, 9c 9d 9h, Kc Kd Kh (and the K♠ on top of the stock).
OUT_HANDS = ["2c 3c 4c 8s Js Td Qc Qs 5s 6d", "4h 5h 6h 7h 9c 9d 9h Kc Kd Kh"]
OUT_UP = "8c"
OUT_STOCK = "Ks 9s"


def base(rules: Rules | None = None) -> GameState:
    return stacked_game(rules or Rules(), BASE_HANDS, up=BASE_UP, stock=BASE_STOCK)


def out_game(rules: Rules | None = None) -> GameState:
    return stacked_game(rules or Rules(), OUT_HANDS, up=OUT_UP, stock=OUT_STOCK)


def seat_zero_has_melded(rules: Rules | None = None) -> GameState:
    """Seat 0 has laid 2c 3c 4c (meld 0); seat 1 has drawn the A♥ and is to play."""
    return play(
        base(rules),
        "1 draw stock",
        "1 discard Ks",
        "0 draw stock",
        "0 meld 2c 3c 4c",
        "0 discard 9s",
        "1 draw stock",
    )


def deal_over() -> GameState:
    """Seat 1 has gone out by melding its whole hand."""
    game = play(
        out_game(),
        "1 draw stock",
        "1 meld 4h 5h 6h 7h",
        "1 meld 9c 9d 9h",
        "1 meld Kc Kd Kh Ks",
    )
    assert game.phase is Phase.OVER and game.deal_winner == 1
    return game


def stock_gone_at_once(rules: Rules) -> GameState:
    """Six seats of nine cards and three jokers: the whole deck is dealt but the up-card."""
    rules = rules.replace(hand_size=9, jokers=3)
    return GameState.new(rules, 6, dealer=0, deck=standard_deck(1, 3))


def snapshot(game: GameState) -> tuple[object, ...]:
    return (
        [list(hand) for hand in game.hands],
        list(game.stock),
        list(game.discard_pile),
        list(game.melds),
        game.turn,
        game.phase,
        list(game.scores),
        game.version,
        game.melds_this_turn,
        game.renewals_used,
        game.result,
        game.deal_points,
        list(game.logs[-1].actions),
        [list(cards) for cards in game.known],
    )


def refuse(game: GameState, text: str, code: str) -> str:
    """Check that ``text`` is refused with ``code`` and changes nothing; return the message."""
    before = snapshot(game)
    action = parse_action(text)
    with pytest.raises(IllegalActionError) as caught:
        game.apply_text(text)
    assert caught.value.code == code, caught.value.message
    assert snapshot(game) == before
    with pytest.raises(IllegalActionError) as checked:
        game.check(action)
    assert checked.value.code == code
    assert not game.can(action)
    assert action not in game.legal_actions()
    assert snapshot(game) == before
    assert caught.value.message
    return caught.value.message


def test_every_code_of_the_record_is_a_stable_code() -> None:
    record_codes = list(RECORD_ERROR_CODES)
    assert list(ERROR_CODES[: len(record_codes)]) == record_codes


# ----- not_your_turn -------------------------------------------------------------------


def test_a_seat_that_is_not_to_act_may_not_draw() -> None:
    message = refuse(base(), "0 draw stock", "not_your_turn")
    assert "seat 1" in message


def test_a_seat_that_is_not_to_act_may_not_discard_in_anothers_turn() -> None:
    refuse(play(base(), "1 draw stock"), "0 discard Kd", "not_your_turn")


@pytest.mark.parametrize("text", ["2 draw stock", "7 discard Kc", "-1 draw discard"])
def test_a_seat_number_that_is_no_seat_is_not_to_act(text: str) -> None:
    refuse(base(), text, "not_your_turn")


# ----- wrong_phase ---------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1 draw stock", "1 draw discard"])
def test_a_seat_may_not_draw_twice_in_a_turn(text: str) -> None:
    refuse(play(base(), "1 draw stock"), text, "wrong_phase")


@pytest.mark.parametrize("text", ["1 meld 4h 5h 6h", "1 discard Kc", "1 layoff 5c 0"])
def test_a_seat_must_draw_before_it_melds_lays_off_or_discards(text: str) -> None:
    refuse(base(), text, "wrong_phase")


@pytest.mark.parametrize("text", ["1 discard 2c", "1 draw stock", "0 draw stock", "0 draw discard"])
def test_no_action_is_taken_after_the_deal_has_ended(text: str) -> None:
    refuse(deal_over(), text, "wrong_phase")


# ----- card_not_in_hand ----------------------------------------------------------------


def test_a_seat_may_not_meld_cards_it_does_not_hold() -> None:
    message = refuse(play(base(), "1 draw stock"), "1 meld Ah 2h 3h", "card_not_in_hand")
    assert "A♥" in message


def test_a_card_listed_twice_in_a_meld_must_be_held_twice() -> None:
    message = refuse(play(base(), "1 draw stock"), "1 meld 9c 9c 9d", "card_not_in_hand")
    assert "9♣" in message


def test_a_card_held_twice_may_be_listed_twice_and_is_then_judged_as_a_meld() -> None:
    rules = Rules(decks=2)
    game = stacked_game(
        rules, [BASE_HANDS[0], "4h 5h 6h 7h 7h 9c 9d 9h Kc 5c"], up=BASE_UP, stock="Ks"
    )
    play(game, "1 draw stock")
    message = refuse(game, "1 meld 7h 7h 6h", "invalid_meld")
    assert "7♥" in message


def test_a_seat_may_not_discard_a_card_it_does_not_hold() -> None:
    message = refuse(play(base(), "1 draw stock"), "1 discard As", "card_not_in_hand")
    assert "A♠" in message


def test_a_seat_may_not_lay_off_a_card_it_does_not_hold() -> None:
    message = refuse(seat_zero_has_melded(), "1 layoff 5d 0", "card_not_in_hand")
    assert "5♦" in message


# ----- invalid_meld --------------------------------------------------------------------


def test_four_five_seven_of_hearts_is_refused_as_no_run() -> None:
    message = refuse(play(base(), "1 draw stock"), "1 meld 4h 5h 7h", "invalid_meld")
    assert message == "4♥ 5♥ 7♥ is not a run: the 6♥ is missing."


def test_cards_of_two_ranks_and_two_suits_are_refused_as_no_meld() -> None:
    message = refuse(play(base(), "1 draw stock"), "1 meld 9c 9d Kc", "invalid_meld")
    assert "9♣ 9♦ K♣" in message


def test_two_cards_are_refused_as_no_meld() -> None:
    message = refuse(play(base(), "1 draw stock"), "1 meld 9c 9d", "invalid_meld")
    assert "9♣ 9♦" in message


# ----- meld_limit ----------------------------------------------------------------------


def test_a_turn_may_lay_no_more_new_melds_than_melds_per_turn() -> None:
    game = play(base(Rules(melds_per_turn=1)), "1 draw stock", "1 meld 4h 5h 6h")
    message = refuse(game, "1 meld 9c 9d 9h", "meld_limit")
    assert "one" in message


# ----- layoff_not_allowed --------------------------------------------------------------


def test_a_seat_may_not_lay_off_before_its_own_meld_when_layoff_is_after_meld() -> None:
    refuse(
        seat_zero_has_melded(Rules(layoff=LayOffTiming.AFTER_MELD)),
        "1 layoff 5c 0",
        "layoff_not_allowed",
    )


def test_a_seat_may_not_lay_off_in_the_turn_of_its_first_meld_when_layoff_is_turn_after() -> None:
    game = seat_zero_has_melded(Rules(layoff=LayOffTiming.TURN_AFTER_MELD))
    play(game, "1 meld 4h 5h 6h")
    refuse(game, "1 layoff 5c 0", "layoff_not_allowed")
    refuse(game, "1 layoff 7h 1", "layoff_not_allowed")


# ----- layoff_does_not_fit -------------------------------------------------------------


def test_a_card_that_does_not_extend_the_meld_is_refused() -> None:
    message = refuse(seat_zero_has_melded(), "1 layoff 9c 0", "layoff_does_not_fit")
    assert "9♣" in message and "2♣ 3♣ 4♣" in message


def test_a_card_of_another_suit_does_not_extend_a_run() -> None:
    message = refuse(seat_zero_has_melded(), "1 layoff 5h 0", "layoff_does_not_fit")
    assert "5♥" in message


# ----- no_such_meld --------------------------------------------------------------------


def test_a_lay_off_on_a_meld_number_that_does_not_exist_is_refused() -> None:
    refuse(seat_zero_has_melded(), "1 layoff 5c 1", "no_such_meld")


def test_a_lay_off_with_no_meld_on_the_table_is_refused() -> None:
    message = refuse(play(base(), "1 draw stock"), "1 layoff 7h 0", "no_such_meld")
    assert "0" in message


# ----- discard_taken_card --------------------------------------------------------------


def test_the_card_taken_from_the_discard_pile_may_not_be_thrown_straight_back() -> None:
    game = play(base(), "1 draw discard")
    message = refuse(game, "1 discard 8h", "discard_taken_card")
    assert "8♥" in message
    play(game, "1 discard Kc")
    assert game.discard_pile[-1].symbol == "K♣"


def test_the_taken_card_may_be_discarded_when_it_is_the_last_card_in_hand() -> None:
    game = play(
        out_game(),
        "1 draw discard",
        "1 meld 4h 5h 6h 7h",
        "1 meld 9c 9d 9h",
        "1 meld Kc Kd Kh",
    )
    assert [str(card) for card in game.hands[1]] == ["8c"]
    play(game, "1 discard 8c")
    assert game.phase is Phase.OVER
    assert game.deal_winner == 1
    assert game.hands[1] == []


def test_the_taken_card_may_be_discarded_on_a_later_turn() -> None:
    game = play(base(), "1 draw discard", "1 discard Kc", "0 draw stock", "0 discard Ks")
    play(game, "1 draw stock", "1 discard 8h")
    assert str(game.discard_pile[-1]) == "8h"


# ----- must_discard_to_go_out ----------------------------------------------------------


def test_a_meld_may_not_empty_the_hand_when_going_out_needs_a_discard() -> None:
    game = play(
        out_game(Rules(go_out=GoOut.DISCARD)),
        "1 draw stock",
        "1 meld 4h 5h 6h 7h",
        "1 meld 9c 9d 9h",
    )
    refuse(game, "1 meld Kc Kd Kh Ks", "must_discard_to_go_out")


def test_a_lay_off_may_not_empty_the_hand_when_going_out_needs_a_discard() -> None:
    game = play(
        out_game(Rules(go_out=GoOut.DISCARD)),
        "1 draw stock",
        "1 meld 4h 5h 6h 7h",
        "1 meld 9c 9d 9h",
        "1 meld Kc Kd Kh",
    )
    refuse(game, "1 layoff Ks 2", "must_discard_to_go_out")
    play(game, "1 discard Ks")
    assert game.phase is Phase.OVER and game.deal_winner == 1


# ----- empty_discard -------------------------------------------------------------------


def test_drawing_from_an_empty_discard_pile_is_refused() -> None:
    game = stock_gone_at_once(Rules(empty_stock_choice=False))
    assert game.discard_pile == [] and len(game.stock) == 1  # the pile was turned over
    refuse(game, "1 draw discard", "empty_discard")


# ----- discard_take_not_allowed --------------------------------------------------------


@pytest.mark.parametrize("text", ["1 draw discard 2", "1 draw discard 3"])
def test_only_the_top_discard_may_be_taken_when_discard_take_is_top(text: str) -> None:
    game = play(base(), "1 draw stock", "1 discard Ks", "0 draw stock", "0 discard 9s")
    assert len(game.discard_pile) == 3
    refuse(game, text, "discard_take_not_allowed")


def test_a_take_deeper_than_the_pile_is_refused() -> None:
    game = play(base(Rules(discard_take=DiscardTake.ANY)), "1 draw stock", "1 discard Ks")
    game = play(game, "0 draw stock", "0 discard 9s")
    message = refuse(game, "1 draw discard 4", "discard_take_not_allowed")
    assert "3" in message


def test_a_deep_card_that_could_not_be_melded_or_laid_off_may_not_be_taken() -> None:
    game = play(base(Rules(discard_take=DiscardTake.ANY)), "1 draw stock", "1 discard Ks")
    game = play(game, "0 draw stock", "0 discard 9s")
    # The pile is 8h Ks 9s (top last): the K♠ fits nothing seat 1 could make.
    message = refuse(game, "1 draw discard 2", "discard_take_not_allowed")
    assert "K♠" in message


def test_the_deepest_card_taken_must_be_used_before_the_discard() -> None:
    game = play(base(Rules(discard_take=DiscardTake.ANY)), "1 draw stock", "1 discard Ks")
    game = play(game, "0 draw stock", "0 discard 9s", "1 draw discard 3")
    assert game.discard_pile == []
    message = refuse(game, "1 discard Kc", "must_use_taken_card")
    assert "8♥" in message
    play(game, "1 meld 6h 7h 8h", "1 discard Kc")
    assert game.turn == 0


# ----- bad_action ----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1 dance", "1 draw", "1 meld", "1 discard 1z", "1 layoff 5c"])
def test_text_that_cannot_be_read_is_refused_as_bad_action(text: str) -> None:
    game = base()
    before = snapshot(game)
    with pytest.raises(InvalidActionError) as caught:
        parse_action(text)
    assert caught.value.code == "bad_action"
    with pytest.raises(InvalidActionError) as applied:
        game.apply_text(text)
    assert applied.value.code == "bad_action"
    with pytest.raises(InvalidActionError):
        game.check_text(text)
    assert snapshot(game) == before


def test_a_card_that_is_no_card_is_named_in_the_message() -> None:
    with pytest.raises(InvalidActionError) as caught:
        parse_action("1 discard 1z")
    assert "1z" in caught.value.message


# ----- the order of codes when an action breaks several rules --------------------------


@pytest.mark.parametrize("text", ["0 dance", "9 meld", "1 discard 1z"])
def test_bad_action_comes_before_everything(text: str) -> None:
    game = deal_over()
    before = snapshot(game)
    with pytest.raises(InvalidActionError) as caught:
        game.apply_text(text)
    assert caught.value.code == "bad_action"
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "text", ["0 draw stock", "0 meld 2c 3c 4c", "5 draw stock", "-1 discard 2c"]
)
def test_after_the_deal_wrong_phase_comes_before_not_your_turn(text: str) -> None:
    refuse(deal_over(), text, "wrong_phase")


def test_not_your_turn_comes_before_wrong_phase() -> None:
    game = base()
    refuse(game, "0 meld 2c 3c 4c", "not_your_turn")  # also before seat 0 would draw
    play(game, "1 draw stock")
    refuse(game, "0 draw stock", "not_your_turn")  # also a second draw in this turn


@pytest.mark.parametrize("text", ["1 meld Ah 2h 3h", "1 discard As", "1 layoff 2d 6"])
def test_wrong_phase_comes_before_the_checks_of_the_verb(text: str) -> None:
    refuse(base(), text, "wrong_phase")


def test_wrong_phase_comes_before_a_take_deeper_than_the_pile() -> None:
    refuse(play(base(), "1 draw stock"), "1 draw discard 5", "wrong_phase")


def test_empty_discard_comes_before_discard_take_not_allowed() -> None:
    game = stock_gone_at_once(Rules(empty_stock_choice=False))
    refuse(game, "1 draw discard 2", "empty_discard")


def test_card_not_in_hand_comes_before_meld_limit() -> None:
    game = play(base(Rules(melds_per_turn=1)), "1 draw stock", "1 meld 4h 5h 6h")
    refuse(game, "1 meld Ah 2h 3h", "card_not_in_hand")
    refuse(game, "1 meld 9c 9c 9d", "card_not_in_hand")


def test_meld_limit_comes_before_invalid_meld() -> None:
    game = play(base(Rules(melds_per_turn=1)), "1 draw stock", "1 meld 4h 5h 6h")
    refuse(game, "1 meld 9c 9d 7h", "meld_limit")


def test_card_not_in_hand_comes_before_invalid_meld() -> None:
    refuse(play(base(), "1 draw stock"), "1 meld 4h 5h 8d", "card_not_in_hand")


def test_invalid_meld_comes_before_must_discard_to_go_out() -> None:
    rules = Rules(hand_size=6, go_out=GoOut.DISCARD)
    game = stacked_game(rules, ["2c 3c 4c 8s Js Td", "2d 5d 8h Jc 3s 9d"], up="8c", stock="Kh")
    play(game, "1 draw stock")
    refuse(game, "1 meld 2d 5d 8h Jc 3s 9d Kh", "invalid_meld")


def test_card_not_in_hand_comes_before_no_such_meld() -> None:
    refuse(seat_zero_has_melded(), "1 layoff As 4", "card_not_in_hand")


def test_no_such_meld_comes_before_layoff_not_allowed() -> None:
    refuse(
        seat_zero_has_melded(Rules(layoff=LayOffTiming.AFTER_MELD)), "1 layoff 5c 3", "no_such_meld"
    )


def test_layoff_not_allowed_comes_before_layoff_does_not_fit() -> None:
    refuse(
        seat_zero_has_melded(Rules(layoff=LayOffTiming.AFTER_MELD)),
        "1 layoff 9c 0",
        "layoff_not_allowed",
    )


def test_layoff_does_not_fit_comes_before_must_discard_to_go_out() -> None:
    game = play(
        out_game(Rules(go_out=GoOut.DISCARD)),
        "1 draw stock",
        "1 meld 4h 5h 6h 7h",
        "1 meld 9c 9d 9h",
        "1 meld Kc Kd Kh",
    )
    refuse(game, "1 layoff Ks 0", "layoff_does_not_fit")
