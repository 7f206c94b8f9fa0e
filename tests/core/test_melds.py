"""Sets, runs, jokers and lay-offs, from the examples of the rule texts; and deadwood."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import stacked_game
from rummykit.core.cards import JOKER, Card, parse_cards, standard_deck
from rummykit.core.deadwood import best_discard, best_partition, deadwood_value, goes_out_now
from rummykit.core.errors import IllegalActionError
from rummykit.core.melds import (
    MeldKind,
    TableMeld,
    arrange_meld,
    default_layoff_card,
    lay_off,
    layoff_positions,
)
from rummykit.core.rules import Aces, Rules

LOW, LOW_OR_HIGH, AROUND = Aces.LOW, Aces.LOW_OR_HIGH, Aces.AROUND


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


def card(text: str) -> Card:
    return Card.parse(text)


def meld(text: str, aces: Aces = LOW_OR_HIGH, declared: str = "") -> TableMeld:
    return arrange_meld(cards(text), cards(declared), aces)


def refused(text: str, aces: Aces = LOW_OR_HIGH, declared: str = "") -> str:
    with pytest.raises(IllegalActionError) as caught:
        meld(text, aces, declared)
    assert caught.value.code == "invalid_meld"
    return caught.value.message


def fits(on: TableMeld, text: str, aces: Aces = LOW_OR_HIGH) -> list[str]:
    return [str(stood) for stood in layoff_positions(on, card(text), aces)]


def add(on: TableMeld, text: str, aces: Aces = LOW_OR_HIGH) -> TableMeld:
    added = card(text)
    stood = default_layoff_card(on, added, aces)
    assert stood is not None, f"{text} does not fit {on.text}"
    return lay_off(on, added, stood, aces)


# ----- sets and runs -------------------------------------------------------------------


def test_three_or_four_cards_of_one_rank_in_different_suits_are_a_set() -> None:
    for text in ("7h 7c 7d", "9s 9h 9d 9c"):
        laid = meld(text)
        assert laid.kind is MeldKind.SET
        assert sorted(laid.text.split()) == sorted(text.split())


def test_three_cards_in_a_row_of_one_suit_are_a_run() -> None:
    laid = meld("6c 4c 5c")
    assert laid.kind is MeldKind.RUN
    assert laid.text == "4c 5c 6c"


@pytest.mark.parametrize("aces", list(Aces))
def test_ace_two_three_is_a_run_under_every_aces_rule(aces: Aces) -> None:
    assert meld("3h Ah 2h", aces).text == "Ah 2h 3h"


def test_queen_king_ace_is_not_a_run_when_aces_are_low() -> None:
    message = refused("Qh Kh Ah", LOW)
    assert "Q♥ K♥ A♥" in message


@pytest.mark.parametrize("aces", [LOW_OR_HIGH, AROUND])
def test_queen_king_ace_is_a_run_when_aces_may_be_high(aces: Aces) -> None:
    assert meld("Ah Qh Kh", aces).text == "Qh Kh Ah"


@pytest.mark.parametrize("aces", [LOW, LOW_OR_HIGH])
def test_king_ace_two_is_never_a_run_unless_runs_go_around(aces: Aces) -> None:
    message = refused("Kh Ah 2h", aces)
    assert "K♥ A♥ 2♥" in message
    refused("Qh Kh Ah 2h", aces)


def test_king_ace_two_is_a_run_when_runs_go_around() -> None:
    assert meld("2h Kh Ah", AROUND).text == "Kh Ah 2h"
    assert meld("2h Qh Ah Kh", AROUND).text == "Qh Kh Ah 2h"


def test_four_five_seven_of_hearts_is_not_a_run_because_the_six_is_missing() -> None:
    assert refused("4h 5h 7h", LOW) == "4♥ 5♥ 7♥ is not a run: the 6♥ is missing."


def test_two_missing_cards_are_both_named() -> None:
    message = refused("4h 5h 8h", LOW)
    assert "6♥" in message and "7♥" in message


@pytest.mark.parametrize(
    "text",
    ["7h 7c", "7h", "7h 8h 9s", "7h 7c 8c", "2c 5d 9h", "4h 6h 8h", "7h 7h 7c", "7h 8h 8h 9h"],
)
def test_cards_that_are_neither_a_set_nor_a_run_are_no_meld(text: str) -> None:
    refused(text, AROUND)


def test_a_set_cannot_repeat_a_suit() -> None:
    message = refused("9c 9c 9d")
    assert "9♣" in message
    assert refused("9c 9d X", declared="9d")


def test_a_set_never_has_a_fifth_card() -> None:
    refused("9c 9d 9h 9s 9c")
    refused("9c 9d 9h 9s X")


def test_a_run_holds_at_most_thirteen_cards() -> None:
    refused("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh X", AROUND)


# ----- lay-offs ------------------------------------------------------------------------


def test_the_three_or_the_seven_of_hearts_fits_four_five_six_of_hearts() -> None:
    run = meld("4h 5h 6h", LOW)
    assert fits(run, "3h", LOW) == ["3h"]
    assert fits(run, "7h", LOW) == ["7h"]
    assert fits(run, "8h", LOW) == []
    assert fits(run, "2h", LOW) == []
    assert fits(run, "7c", LOW) == []
    assert add(run, "3h", LOW).text == "3h 4h 5h 6h"


def test_after_the_seven_of_hearts_goes_on_the_eight_fits_next() -> None:
    run = add(meld("4h 5h 6h", LOW), "7h", LOW)
    assert run.text == "4h 5h 6h 7h"
    assert fits(run, "8h", LOW) == ["8h"]
    assert add(run, "8h", LOW).text == "4h 5h 6h 7h 8h"


def test_nothing_goes_after_queen_king_ace_when_aces_are_low_or_high() -> None:
    run = meld("Qh Kh Ah", LOW_OR_HIGH)
    assert fits(run, "2h") == []
    assert fits(run, "Jh") == ["Jh"]
    assert fits(run, "X") == ["Jh"]


def test_nothing_goes_before_ace_two_three_when_aces_are_low_or_high() -> None:
    run = meld("Ah 2h 3h", LOW_OR_HIGH)
    assert fits(run, "Kh") == []
    assert fits(run, "4h") == ["4h"]
    assert fits(run, "X") == ["4h"]


def test_nothing_goes_before_ace_two_three_when_aces_are_low() -> None:
    run = meld("Ah 2h 3h", LOW)
    assert fits(run, "Kh", LOW) == []
    assert fits(meld("Jh Qh Kh", LOW), "Ah", LOW) == []


def test_an_ace_goes_after_the_king_when_aces_are_low_or_high() -> None:
    run = meld("Jh Qh Kh", LOW_OR_HIGH)
    assert fits(run, "Ah") == ["Ah"]
    assert add(run, "Ah").text == "Jh Qh Kh Ah"


def test_a_run_that_goes_around_takes_cards_past_the_corner() -> None:
    assert fits(meld("Ah 2h 3h", AROUND), "Kh", AROUND) == ["Kh"]
    assert fits(meld("Qh Kh Ah", AROUND), "2h", AROUND) == ["2h"]
    assert add(meld("Jh Qh Kh", AROUND), "Ah", AROUND).text == "Jh Qh Kh Ah"
    assert add(meld("Ah 2h 3h", AROUND), "Kh", AROUND).text == "Kh Ah 2h 3h"


def test_a_set_takes_a_fourth_card_of_a_new_suit_but_never_a_fifth() -> None:
    three = meld("9c 9d 9h")
    assert fits(three, "9s") == ["9s"]
    assert fits(three, "9c") == []  # a suit already there (a second deck's 9♣)
    assert fits(three, "8s") == []
    four = add(three, "9s")
    assert sorted(four.text.split()) == ["9c", "9d", "9h", "9s"]
    for text in ("9c", "9d", "9h", "9s", "X"):
        assert fits(four, text) == []


# ----- jokers --------------------------------------------------------------------------


def test_a_bare_joker_fills_the_gap_in_a_run() -> None:
    assert meld("5h X 7h", LOW).text == "5h X=6h 7h"
    assert meld("X 7h 5h", LOW).text == "5h X=6h 7h"
    assert meld("5h X X 8h", LOW).text == "5h X=6h X=7h 8h"


def test_a_bare_joker_goes_above_the_top_of_a_run_without_a_gap() -> None:
    assert meld("5h 6h X", LOW).text == "5h 6h X=7h"
    assert meld("X 5h 6h", LOW).text == "5h 6h X=7h"
    assert meld("Qh Kh X", LOW_OR_HIGH).text == "Qh Kh X=Ah"
    assert meld("Ah 2h X", LOW_OR_HIGH).text == "Ah 2h X=3h"
    assert meld("Kh Ah X", AROUND).text == "Kh Ah X=2h"


def test_a_bare_joker_goes_below_the_bottom_when_nothing_can_go_above() -> None:
    assert meld("Qh Kh X", LOW).text == "X=Jh Qh Kh"
    assert meld("Kh Ah X", LOW_OR_HIGH).text == "X=Qh Kh Ah"


def test_a_bare_joker_in_a_set_takes_the_lowest_missing_suit() -> None:
    assert sorted(meld("9d 9s X").text.split()) == ["9d", "9s", "X=9c"]
    assert sorted(meld("9c 9d X").text.split()) == ["9c", "9d", "X=9h"]
    assert sorted(meld("9c 9s X X").text.split()) == ["9c", "9s", "X=9d", "X=9h"]


def test_a_joker_may_say_which_card_it_stands_for() -> None:
    assert meld("5h 6h X", LOW, declared="4h").text == "X=4h 5h 6h"
    assert sorted(meld("9c 9d X", declared="9s").text.split()) == ["9c", "9d", "X=9s"]
    assert meld("5h X 7h", LOW, declared="6h").text == "5h X=6h 7h"


def test_a_joker_cannot_stand_for_a_card_that_does_not_fit() -> None:
    refused("5h 6h X", LOW, declared="9h")
    refused("5h 6h X", LOW, declared="7c")
    refused("9c 9d X", declared="8s")
    refused("5h X 7h", LOW, declared="8h")  # the gap must still be filled


def test_a_joker_stands_for_exactly_one_card() -> None:
    run = meld("5h X 7h", LOW)
    assert len(run.cards) == 3
    assert [str(stood) for stood in run.stands_for] == ["5h", "6h", "7h"]
    assert run.cards[1] is JOKER


def test_a_meld_needs_two_natural_cards() -> None:
    assert "two natural cards" in refused("5h X X", LOW)
    refused("X X X", LOW)


def test_a_joker_lays_off_above_a_run_by_default_and_below_when_it_says_so() -> None:
    run = meld("4h 5h 6h", LOW)
    assert fits(run, "X", LOW) == ["7h", "3h"]
    assert add(run, "X", LOW).text == "4h 5h 6h X=7h"
    below = lay_off(run, JOKER, card("3h"), LOW)
    assert below.text == "X=3h 4h 5h 6h"


def test_a_joker_lays_off_below_a_run_that_ends_at_the_top() -> None:
    assert fits(meld("Jh Qh Kh", LOW), "X", LOW) == ["Th"]
    assert add(meld("Jh Qh Kh", LOW), "X", LOW).text == "X=Th Jh Qh Kh"


def test_a_joker_lays_off_on_a_set_as_a_missing_suit() -> None:
    assert fits(meld("9c 9d 9h"), "X") == ["9s"]
    assert fits(meld("9c 9h 9s"), "X") == ["9d"]
    assert sorted(add(meld("9c 9h 9s"), "X").text.split()) == ["9c", "9h", "9s", "X=9d"]


def test_a_joker_laid_off_in_a_game_is_written_with_the_card_it_stands_for() -> None:
    rules = Rules(jokers=2, aces=Aces.LOW)
    game = stacked_game(
        rules,
        ["2c 5d 8h Js 3c Td Kd Qs 4s 6d", "4h 5h 6h X X 9c 9d 9h Kc Qd"],
        up="8c",
        stock="2s",
    )
    game.apply_text("1 draw stock")
    game.apply_text("1 meld 4h 5h 6h")
    with pytest.raises(IllegalActionError) as caught:
        game.apply_text("1 layoff X=8h 0")
    assert caught.value.code == "layoff_does_not_fit"
    assert "8♥" in caught.value.message and "4♥ 5♥ 6♥" in caught.value.message
    game.apply_text("1 layoff X 0")
    assert game.melds[0].text == "4h 5h 6h X=7h"
    game.apply_text("1 layoff X=3h 0")
    assert game.melds[0].text == "X=3h 4h 5h 6h X=7h"
    assert game.logs[-1].actions[-2:] == ["1 layoff X=7h 0", "1 layoff X=3h 0"]


# ----- runs in output ------------------------------------------------------------------


def test_a_meld_laid_with_a_bare_joker_is_recorded_with_the_card_it_stands_for() -> None:
    rules = Rules(jokers=2, aces=Aces.LOW)
    game = stacked_game(
        rules,
        ["2c 5d 8h Js 3c Td Kd Qs 4s 6d", "4h 6h X X 9c 9d 9h Kc Qd 2s"],
        up="8c",
        stock="3s",
    )
    game.apply_text("1 draw stock")
    game.apply_text("1 meld X 6h 4h")
    game.apply_text("1 meld 9c X 9d")
    assert game.logs[-1].actions[-2:] == ["1 meld 4h X=5h 6h", "1 meld 9c 9d X=9h"]
    assert game.melds[0].text == "4h X=5h 6h"


def test_runs_list_their_cards_lowest_first() -> None:
    assert meld("9c 7c 8c Tc").text == "7c 8c 9c Tc"


def test_an_ace_used_high_comes_last() -> None:
    assert meld("Ah Jh Kh Qh", LOW_OR_HIGH).text == "Jh Qh Kh Ah"


def test_a_run_round_the_corner_starts_after_its_gap() -> None:
    assert meld("2h Ah Jh Kh Qh", AROUND).text == "Jh Qh Kh Ah 2h"
    assert meld("3h Ah 2h Kh", AROUND).text == "Kh Ah 2h 3h"


@pytest.mark.parametrize("aces", list(Aces))
def test_a_whole_suit_is_listed_ace_to_king(aces: Aces) -> None:
    suit = cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh")
    shuffled = list(suit)
    random.Random(4).shuffle(shuffled)
    assert arrange_meld(shuffled, (), aces).text == " ".join(str(item) for item in suit)


@pytest.mark.parametrize("aces", list(Aces))
def test_a_whole_suit_with_a_joker_for_the_ace_is_listed_ace_to_king(aces: Aces) -> None:
    laid = meld("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh X", aces)
    assert laid.text == "X=Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"


@pytest.mark.parametrize("aces", [LOW_OR_HIGH, AROUND])
def test_an_ace_laid_off_on_a_run_from_two_to_king_goes_above_the_king(aces: Aces) -> None:
    # an ace after a king is high (500 Rum): the run reads two to ace, and scores it high
    laid = add(meld("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", aces), "Ah", aces)
    assert laid.text == "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert laid.start == 2 and laid.end == 14


def test_an_ace_laid_off_on_a_run_from_two_to_king_with_aces_low_goes_below_the_two() -> None:
    laid = add(meld("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", LOW), "Ah", LOW)
    assert laid.text == "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"


def test_a_run_round_the_corner_completed_to_a_whole_suit_is_listed_ace_to_king() -> None:
    laid = meld("Kh Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh", AROUND)
    assert laid.text == "Kh Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh"
    assert fits(laid, "Qh", AROUND) == ["Qh"]
    assert add(laid, "Qh", AROUND).text == "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"


def test_a_whole_suit_takes_no_more_cards() -> None:
    whole = meld("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", AROUND)
    assert fits(whole, "X", AROUND) == []
    assert fits(whole, "Ah", AROUND) == []


# ----- deadwood ------------------------------------------------------------------------


def test_deadwood_keeps_the_split_that_leaves_the_least() -> None:
    # 4h-7h as a run leaves 7c 7d Ks Kd 2c 3s = 39; the run 4h-6h and the set of sevens
    # leave Ks Kd 2c 3s = 10 + 10 + 2 + 3 = 25.
    hand = cards("4h 5h 6h 7h 7c 7d Ks Kd 2c 3s")
    best = best_partition(hand, Rules(aces=Aces.LOW))
    assert best.value == 25
    assert sorted(sorted(laid.text.split()) for laid in best.melds) == [
        ["4h", "5h", "6h"],
        ["7c", "7d", "7h"],
    ]
    assert sorted(str(item) for item in best.deadwood) == ["2c", "3s", "Kd", "Ks"]
    assert deadwood_value(hand, Rules(aces=Aces.LOW)) == 25


def test_deadwood_of_a_hand_with_no_meld_is_the_hand_value() -> None:
    # 1 + 3 + 5 + 7 + 9 + 10 = 35
    hand = cards("Ac 3d 5h 7s 9c Jd")
    best = best_partition(hand, Rules())
    assert best.value == 35 and best.melds == ()
    assert str(best.deadwood[0]) == "Jd"  # dearest first
    assert deadwood_value(hand, Rules(ace_points=15)) == 49  # 15 + 3 + 5 + 7 + 9 + 10


def test_deadwood_uses_a_card_shared_by_a_set_and_a_run_where_it_helps_most() -> None:
    # The set 5c 5d 5h and the run 6h 7h 8h leave nothing; the run 5h-8h would leave 10.
    hand = cards("5c 5d 5h 6h 7h 8h")
    assert deadwood_value(hand, Rules()) == 0
    assert len(best_partition(hand, Rules()).melds) == 2


@pytest.mark.parametrize(
    ("aces", "expected"),
    [
        # Q K A as deadwood: 10 + 10 + 1, and the 2♣: 23.
        (LOW, 23),
        # Q-K-A is a run: only the 2♣ is left.
        (LOW_OR_HIGH, 2),
        (AROUND, 2),
    ],
)
def test_deadwood_counts_queen_king_ace_as_a_run_only_when_aces_may_be_high(
    aces: Aces, expected: int
) -> None:
    assert deadwood_value(cards("Qh Kh Ah 2c"), Rules(aces=aces)) == expected


@pytest.mark.parametrize(
    ("aces", "expected"),
    [
        # Not a run: K 10 + A 1 + 2 + 9 = 22.
        (LOW, 22),
        (LOW_OR_HIGH, 22),
        # K-A-2 is a run: the 9♣ is left.
        (AROUND, 9),
    ],
)
def test_deadwood_counts_king_ace_two_as_a_run_only_around(aces: Aces, expected: int) -> None:
    assert deadwood_value(cards("Kh Ah 2h 9c"), Rules(aces=aces)) == expected


def test_deadwood_lets_a_joker_fill_a_run() -> None:
    # A♥ X=2♥ 3♥ is a run; the 9♣ is left.
    assert deadwood_value(cards("Ah 3h X 9c"), Rules(jokers=1)) == 9
    # A joker with nothing to join costs its points: 15 + 9.
    assert deadwood_value(cards("X 9c"), Rules(jokers=1)) == 24
    assert deadwood_value(cards("X 9c"), Rules(jokers=1, joker_points=25)) == 34


def test_deadwood_of_an_ace_costs_the_rules_ace_points() -> None:
    # A, K, 2 unmelded: ace + 10 + 2.
    for points in (1, 11, 15):
        assert deadwood_value(cards("Ah Kd 2c"), Rules(ace_points=points)) == points + 12


def test_best_discard_throws_the_dearest_card_outside_the_melds() -> None:
    # Run 4h-6h, set of sevens; deadwood Ks Kd 2c 3s 8s = 33. Throwing a king leaves 23;
    # between the two kings the higher (spades) goes.
    hand = cards("4h 5h 6h 7h 7c 7d Ks Kd 2c 3s 8s")
    assert best_discard(hand, Rules(aces=Aces.LOW)) == (card("Ks"), 23)


def test_best_discard_keeps_the_melds_together() -> None:
    # Kc Kd Kh is a set; throwing the 3♠ leaves the 2♠ (2); throwing a king leaves 25.
    assert best_discard(cards("Kc Kd Kh 2s 3s"), Rules()) == (card("3s"), 2)
    # T-J-Q-K of clubs is a run; the 2♦ goes and nothing is left.
    assert best_discard(cards("Tc Jc Qc Kc 2d"), Rules()) == (card("2d"), 0)


# ----- whole hands of two decks: two of one card ---------------------------------------------


def test_two_of_one_card_may_make_the_same_meld_twice() -> None:
    hand = [*parse_cards(["Ac", "Ac", "2c", "2c", "3c", "3c"])]
    assert deadwood_value(hand, Rules()) == 0
    assert best_partition(hand, Rules()).value == 0
    assert goes_out_now(hand, Aces.LOW, must_discard=False)


def _melds_whole(cards: list[Card]) -> bool:
    """Whether ``cards`` split into legal melds (every split tried: the oracle)."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for size in range(2, len(rest) + 1):
        for others in itertools.combinations(range(len(rest)), size):
            meld = [first, *(rest[index] for index in others)]
            try:
                arrange_meld(meld, [], Aces.LOW)
            except IllegalActionError:
                continue
            left = [card for index, card in enumerate(rest) if index not in others]
            if _melds_whole(left):
                return True
    return False


TWO_DECK_POOL = [*parse_cards(["Ac", "2c", "3c", "4c", "Ah", "2h", "Ad"]) * 2]
"""A few low cards of two decks: hands of them meld in many ways, the same meld twice among
them. (Jokers are left out of this oracle, which lays no joker; hands with them are checked
against a plain search in ``test_boathouse_published``.)"""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(range(len(TWO_DECK_POOL))), min_size=3, max_size=8, unique=True))
def test_whole_hand_search_agrees_with_trying_every_split(picked: list[int]) -> None:
    hand = [TWO_DECK_POOL[index] for index in picked]
    whole = _melds_whole(hand)
    one_left = any(_melds_whole(hand[:index] + hand[index + 1 :]) for index in range(len(hand)))
    # going out melds every card, or every card but the one thrown (which it must be)
    assert goes_out_now(hand, Aces.LOW, must_discard=False) == (whole or one_left), hand
    assert goes_out_now(hand, Aces.LOW, must_discard=True) == one_left, hand
    assert (deadwood_value(hand, Rules(aces=Aces.LOW)) == 0) == whole, hand


# ----- long runs: left out of the least-deadwood search, the same answer -----------------------


@st.composite
def hands_with_long_runs(draw: st.DrawFn) -> tuple[list[Card], Rules]:
    """Two-deck hands built round runs of six to nine cards in one suit (some twice, some
    through the ace), with loose cards and jokers: where a long run could be chosen."""
    rules = Rules(aces=draw(st.sampled_from(list(Aces))), decks=2, jokers=draw(st.integers(0, 2)))
    hand: list[Card] = []
    for _ in range(draw(st.integers(1, 3))):
        suit = draw(st.sampled_from("cdhs"))
        start = draw(st.integers(0, 12))
        length = draw(st.integers(6, 9))
        ranks = ["A23456789TJQK"[(start + step) % 13] for step in range(length)]
        hand.extend(Card.parse(rank + suit) for rank in ranks)
    deck = standard_deck(2, rules.jokers)
    extras = draw(st.lists(st.sampled_from(deck), max_size=12))
    hand.extend(extras)
    most = Counter(standard_deck(2, rules.jokers))
    kept: list[Card] = []
    for item in hand:  # at most as many of a card as the decks hold
        if kept.count(item) < most[item]:
            kept.append(item)
    return kept, rules


@settings(max_examples=200, deadline=None)
@given(hands_with_long_runs())
def test_the_search_without_long_runs_finds_the_same_split(setup: tuple[list[Card], Rules]) -> None:
    hand, rules = setup
    best = best_partition(hand, rules)
    assert best == best_partition(hand, rules, long_runs=True), hand
    assert deadwood_value(hand, rules) == best.value
    thrown, left = best_discard(hand, rules)
    rest = list(hand)
    rest.remove(thrown)
    assert left == best_partition(rest, rules, long_runs=True).value


def test_a_long_run_with_an_ace_high_is_still_chosen_whole() -> None:
    # 9 to the ace of hearts: the ace is the lowest card code, so Q-K-A is not a prefix of the
    # six-card run and the search still weighs the whole run (aces low or high).
    hand = cards("9h Th Jh Qh Kh Ah 2c")
    best = best_partition(hand, Rules(aces=LOW_OR_HIGH))
    assert best == best_partition(hand, Rules(aces=LOW_OR_HIGH), long_runs=True)
    assert [meld.text for meld in best.melds] == ["9h Th Jh Qh Kh Ah"]
