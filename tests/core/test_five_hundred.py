"""500 Rum: one test (or a few) for each sentence of the README's section on the variation."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import play, stacked_game
from rummykit.core.cards import Card, parse_cards
from rummykit.core.errors import IllegalActionError, RulesError
from rummykit.core.melds import TableMeld, arrange_meld
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.record import load_record
from rummykit.core.rules import Aces, Rules, RummyBonus, Scoring
from rummykit.core.scoring import (
    game_over,
    game_winner,
    meld_points,
    melds_points,
    out_points,
    placed_points,
)
from rummykit.core.state import DealResult, GameState
from rummykit.transcript import transcript

RECORDS = Path(__file__).resolve().parents[1] / "records"


def laid(text: str, aces: Aces = Aces.LOW_OR_HIGH) -> TableMeld:
    """The cards of ``text`` laid out as a meld."""
    return arrange_meld(tuple(parse_cards(text.split())), (), aces)


FIVE_HUNDRED = find_preset("500").rules

# Two seats, dealer 0: seat 1 plays first. Seat 0 holds 2 + 3 + 4 + 8 + 10 * 4 + 5 + 6 = 68.
SEAT_ZERO = "2c 3c 4c 8s Js Td Qc Qs 5d 6d"
SEAT_ZERO_VALUE = 68
SEAT_ONE = "Ah 2h 3h 4h 9c 9d 9h Kc Kd Kh"


def refused_code(game: GameState, text: str) -> str:
    with pytest.raises(IllegalActionError) as caught:
        game.apply_text(text)
    return caught.value.code


def five_hundred(rules: Rules = FIVE_HUNDRED, stock: str = "7s 9s As", up: str = "Jc") -> GameState:
    """Two seats of ten cards (``hand_size`` 10: the book's thirteen are tested on their own)."""
    return stacked_game(rules.replace(hand_size=10), [SEAT_ZERO, SEAT_ONE], up=up, stock=stock)


# ----- the preset ------------------------------------------------------------------------


def test_the_500_preset_is_meld_points_deep_takes_aces_15_and_a_game_to_500() -> None:
    assert FIVE_HUNDRED.scoring is Scoring.MELDS
    assert FIVE_HUNDRED.discard_take == "any"
    assert FIVE_HUNDRED.ace_points == 15
    assert FIVE_HUNDRED.low_ace_points == 1
    assert FIVE_HUNDRED.target == 500
    assert Rules.from_mapping("500") == FIVE_HUNDRED


# ----- "Each player is dealt 13 cards when two play, 7 when three or more play." ----------


@pytest.mark.parametrize(("seats", "size"), [(2, 13), (3, 7), (4, 7), (5, 7), (6, 7)])
def test_500_deals_thirteen_cards_to_two_and_seven_to_three_or_more(seats: int, size: int) -> None:
    assert FIVE_HUNDRED.hand_size == "by_seats_500"
    game = GameState.new(FIVE_HUNDRED, seats, seed=seats)
    assert [len(hand) for hand in game.hands] == [size] * seats
    assert game.stock_count == 52 - seats * size - 1


@pytest.mark.parametrize("seats", [7, 8])
def test_500_deals_seven_or_eight_seats_seven_cards_each_from_two_decks(seats: int) -> None:
    find_preset("500").check_seats(seats)
    with pytest.raises(RulesError, match="need two decks"):
        FIVE_HUNDRED.check_seats(seats)
    game = GameState.new(FIVE_HUNDRED.replace(decks=2), seats, seed=seats)
    assert [len(hand) for hand in game.hands] == [7] * seats


def test_thirteen_cards_each_are_dealt_where_the_deck_holds_them() -> None:
    GameState.new(Rules(hand_size=13), 3, seed=0)  # 40 cards with the up-card
    with pytest.raises(RulesError, match="53 cards"):
        Rules(hand_size=13).check_seats(4)
    Rules(hand_size=13, decks=2).check_seats(4)
    with pytest.raises(RulesError):
        Rules(hand_size=14)


# ----- "You may take any card of the discard pile with every card above it; the deepest
# card taken must go into a meld, or onto one, in that same turn." ---------------------------


def test_a_deep_take_brings_the_cards_above_and_the_deepest_must_be_played() -> None:
    # The pile becomes 5c Qd (top last): seat 0, holding 2c 3c 4c, may take both.
    game = play(five_hundred(stock="Qd", up="5c"), "1 draw stock", "1 discard Qd")
    assert "0 draw discard 2" in [str(action) for action in game.legal_actions()]
    play(game, "0 draw discard 2")
    assert [str(card) for card in game.hands[0][-2:]] == ["5c", "Qd"]
    assert refused_code(game, "0 discard 8s") == "must_use_taken_card"
    play(game, "0 meld Qc Qd Qs")
    assert refused_code(game, "0 discard 8s") == "must_use_taken_card"
    play(game, "0 meld 2c 3c 4c 5c", "0 discard 8s")
    assert game.table_points == [30 + 14, 0]


# ----- "Each card you lay on the table scores for you as you lay it, whether in a meld of
# your own or added to anyone's meld." ----------------------------------------------------


def test_a_meld_scores_for_the_seat_that_lays_it() -> None:
    game = play(five_hundred(), "1 draw stock", "1 meld 9c 9d 9h")
    assert game.table_points == [0, 27]
    assert game.meld_points == [27]
    play(game, "1 meld Kc Kd Kh")
    assert game.table_points == [0, 57]
    assert game.meld_points == [27, 30]


def test_a_card_added_to_another_seats_meld_scores_for_the_seat_that_adds_it() -> None:
    game = play(five_hundred(), "1 draw stock", "1 meld 9c 9d 9h", "1 discard 7s")
    play(game, "0 draw stock", "0 layoff 9s 0")
    assert game.table_points == [9, 27]
    assert game.meld_points == [36]
    assert game.melds[0].owner == 1


# ----- "A card scores its cost: an ace 15, a king, queen or jack 10, any other card its
# number; an ace at the foot of a run (A-2-3) scores 1; a joker scores the card it stands
# for." -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("Ah 2h 3h", 1 + 2 + 3),
        ("Qh Kh Ah", 10 + 10 + 15),
        ("As Ah Ad", 45),
        ("9c 9d 9h", 27),
        ("Jc Qc Kc", 30),
        ("5h 6h 7h", 18),
    ],
)
def test_a_meld_scores_its_cards_with_an_ace_at_the_foot_of_a_run_low(
    text: str, points: int
) -> None:
    assert meld_points(FIVE_HUNDRED, laid(text)) == points


def test_an_ace_round_the_corner_is_not_at_the_foot_of_its_run() -> None:
    meld = laid("Kh Ah 2h", Aces.AROUND)
    assert meld_points(FIVE_HUNDRED, meld) == 10 + 15 + 2


def test_the_low_ace_value_is_its_own_option() -> None:
    meld = laid("Ah 2h 3h", Aces.LOW_OR_HIGH)
    assert meld_points(FIVE_HUNDRED.replace(low_ace_points=5), meld) == 5 + 2 + 3
    assert meld_points(FIVE_HUNDRED.replace(ace_points=11), meld) == 1 + 2 + 3


def test_an_ace_laid_off_below_a_two_scores_low_and_above_a_king_scores_high() -> None:
    game = play(five_hundred(stock="7s 8c"), "1 draw stock", "1 meld 2h 3h 4h", "1 discard 7s")
    play(game, "0 draw stock", "0 discard 8c", "1 draw stock", "1 layoff Ah 0")
    assert game.meld_points == [1 + 2 + 3 + 4]
    assert game.table_points == [0, 10]
    assert placed_points(FIVE_HUNDRED, game.melds[0], Card.parse("Ah")) == 1
    high = laid("Jd Qd Kd Ad", Aces.LOW_OR_HIGH)
    assert placed_points(FIVE_HUNDRED, high, Card.parse("Ad")) == 15


def test_an_ace_laid_off_on_a_run_from_two_to_king_goes_above_it_and_scores_high() -> None:
    # 500 Rum's ace is high after a king: laid on the end of a run ending in K, it counts 15
    hearts = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    hands = ["Ah 2c 3c 4c 8s Js Td Qc Qs 5d 6d 9s 7c", f"{hearts} 5c"]
    game = stacked_game(FIVE_HUNDRED, hands, up="Jc", stock="7s 8d")
    play(game, "1 draw stock", f"1 meld {hearts}", "1 discard 5c", "0 draw stock")
    play(game, "0 layoff Ah 0")
    [run] = game.melds
    assert run.text == f"{hearts} Ah"
    assert game.table_points == [15, 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4]
    assert placed_points(FIVE_HUNDRED, run, Card.parse("Ah")) == 15
    assert game.meld_points == [2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4 + 15]


def test_a_joker_laid_off_for_the_ace_on_a_run_from_two_to_king_scores_high() -> None:
    rules = FIVE_HUNDRED.replace(jokers=1)
    hearts = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    hands = ["X 2c 3c 4c 8s Js Td Qc Qs 5d 6d 9s 7c", f"{hearts} 5c"]
    game = stacked_game(rules, hands, up="Jc", stock="7s 8d")
    play(game, "1 draw stock", f"1 meld {hearts}", "1 discard 5c", "0 draw stock")
    play(game, "0 layoff X=Ah 0")
    assert game.table_points[0] == 15
    assert game.melds[0].text == f"{hearts} X=Ah"


def test_a_whole_suit_laid_at_once_reads_ace_to_king_with_the_ace_low() -> None:
    run = laid("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh")
    assert run.stands_for[0] == Card.parse("Ah")
    assert placed_points(FIVE_HUNDRED, run, Card.parse("Ah")) == 1


def test_a_joker_on_the_table_scores_the_card_it_stands_for() -> None:
    rules = FIVE_HUNDRED.replace(jokers=1, hand_size=10)
    game = stacked_game(rules, [SEAT_ZERO, "5h 7h X 9c 9d 9h Kc Kd Kh 2s"], up="Jc", stock="7s")
    play(game, "1 draw stock", "1 meld 5h X 7h")
    assert game.meld_points == [18]
    play(game, "1 discard 7s")
    meld = laid("Ks X Kh", Aces.LOW)
    assert meld_points(rules, meld) == 30


# ----- "A deal ends when someone goes out (by a meld, a lay-off or a final discard) or when
# the stock runs out: the stock is never renewed." -------------------------------------------


def test_a_deal_ends_when_someone_goes_out() -> None:
    game = play(
        five_hundred(),
        "1 draw stock",
        "1 meld Ah 2h 3h 4h",
        "1 meld 9c 9d 9h",
        "1 meld Kc Kd Kh",
        "1 discard 7s",
    )
    assert game.deal_over
    assert game.deal_winner == 1


def test_a_deal_ends_when_the_stock_runs_out() -> None:
    game = play(five_hundred(), "1 draw stock", "1 meld 9c 9d 9h", "1 discard 7s")
    while not game.deal_over:
        seat = game.turn
        play(game, f"{seat} draw stock")
        play(game, f"{seat} discard {game.hands[seat][-1]}")
    assert game.result is DealResult.BLOCKED
    assert game.stock == []
    assert game.renewals_used == 0


# ----- "When the deal ends, each player scores what they laid on the table less the cost of
# the cards still in their hand; a total may fall below zero." -------------------------------


def test_going_out_scores_the_table_less_the_hand_for_each_seat() -> None:
    game = play(
        five_hundred(),
        "1 draw stock",
        "1 meld Ah 2h 3h 4h",
        "1 meld 9c 9d 9h",
        "1 meld Kc Kd Kh",
        "1 discard 7s",
    )
    assert game.deal_points == (-SEAT_ZERO_VALUE, 10 + 27 + 30)
    assert game.scores == [-SEAT_ZERO_VALUE, 67]


def test_a_deal_that_ends_with_the_stock_scores_the_same_way() -> None:
    game = play(five_hundred(), "1 draw stock", "1 meld 9c 9d 9h", "1 discard 7s")
    play(game, "0 draw stock", "0 layoff 9s 0", "0 discard 8s")
    while not game.deal_over:
        seat = game.turn
        play(game, f"{seat} draw stock")
        play(game, f"{seat} discard {game.hands[seat][-1]}")
    values = [game.hand_value(seat) for seat in range(2)]
    assert game.deal_points == (9 - values[0], 27 - values[1])
    assert game.hand_value(1) == sum(FIVE_HUNDRED.card_points(card.code) for card in game.hands[1])


def test_an_ace_in_hand_costs_15() -> None:
    game = five_hundred()
    assert game.hand_value(1) == 15 + 2 + 3 + 4 + 27 + 30


def test_meld_points_ignore_the_stuck_deal_option() -> None:
    rules = FIVE_HUNDRED.replace(blocked="lowest_collects")
    assert melds_points(rules, [5, 0], [9, 4], None, rummy=False) == [-4, -4]


def test_going_rummy_applies_its_bonus_to_the_seat_that_went_out() -> None:
    rules = FIVE_HUNDRED.replace(rummy_bonus=RummyBonus.DOUBLE)
    assert melds_points(rules, [67, 0], [0, 68], 0, rummy=True) == [134, -68]
    assert melds_points(rules, [67, 0], [0, 68], 0, rummy=False) == [67, -68]


def test_out_points_refuse_meld_scoring() -> None:
    with pytest.raises(ValueError, match="melds_points"):
        out_points(FIVE_HUNDRED, [0, 5], 0, rummy=False)


# ----- "The game ends after the deal in which someone reaches 500; the highest total wins
# (a tie at the top: nobody wins)." ---------------------------------------------------------


def test_the_game_ends_after_the_deal_that_reaches_500() -> None:
    game = five_hundred()
    game.scores = [0, 450]
    play(
        game,
        "1 draw stock",
        "1 meld Ah 2h 3h 4h",
        "1 meld 9c 9d 9h",
        "1 meld Kc Kd Kh",
        "1 discard 7s",
    )
    assert game.scores == [-SEAT_ZERO_VALUE, 517]
    assert game.game_over
    assert game.winner == 1


def test_the_highest_total_wins_even_below_zero_and_a_tie_wins_nothing() -> None:
    assert not game_over(FIVE_HUNDRED, [499, -30], 9)
    assert game_over(FIVE_HUNDRED, [500, 520], 9)
    assert game_winner(FIVE_HUNDRED, [500, 520, -5]) == 1
    assert game_winner(FIVE_HUNDRED, [-20, -5]) == 1
    assert game_winner(FIVE_HUNDRED, [510, 510]) is None


# ----- "Everyone sees each player's meld points as the deal goes, and the points beside each
# meld: the cards lie face up." ---------------------------------------------------------------


def test_meld_points_are_in_every_seats_view_and_a_spectators() -> None:
    game = play(five_hundred(), "1 draw stock", "1 meld 9c 9d 9h", "1 discard 7s")
    play(game, "0 draw stock", "0 layoff 9s 0")
    for seat in (0, 1, None):
        view = observe(game, seat)
        assert view.table_points == (9, 27)
        assert view.meld_points == (36,)


def test_a_new_deal_starts_meld_points_afresh() -> None:
    game = play(
        five_hundred(),
        "1 draw stock",
        "1 meld Ah 2h 3h 4h",
        "1 meld 9c 9d 9h",
        "1 meld Kc Kd Kh",
        "1 discard 7s",
    )
    game.start_deal()
    assert game.table_points == [0, 0]
    assert game.meld_points == []


def test_a_clone_keeps_meld_points_apart() -> None:
    game = play(five_hundred(), "1 draw stock", "1 meld 9c 9d 9h")
    copy = game.clone()
    play(copy, "1 meld Kc Kd Kh")
    assert game.table_points == [0, 27]
    assert copy.table_points == [0, 57]


# ----- the record: nothing new in it; a replay scores meld points from the rules -------------


def test_a_replay_tells_the_points_of_each_meld_and_what_each_seat_laid() -> None:
    record = load_record((RECORDS / "500.json").read_text(encoding="utf-8"))
    text, result = transcript(record)
    assert result.error is None
    assert record.rules == FIVE_HUNDRED
    assert ", scoring " in text
    assert text.count("Laid on the table:") == len(record.deals)
