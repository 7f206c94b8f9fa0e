"""Each rule option of docs/RECORD.md § Rule options, checked by its effect on a game; presets."""

from __future__ import annotations

import dataclasses
import enum
import random
from collections import Counter
from typing import Any

import pytest

from helpers import play, stacked_deck, stacked_game
from rummykit.core.actions import Draw, DrawSource, LayOff, Meld
from rummykit.core.cards import JOKER, NATURAL_CARDS, Card, parse_cards, standard_deck
from rummykit.core.errors import IllegalActionError, RecordError, RulesError
from rummykit.core.options import (
    Choice,
    OptionKind,
    OptionSpec,
    Tie,
    describe_option,
    value_text,
)
from rummykit.core.presets import (
    PRESETS,
    Offer,
    Preset,
    describe_rules,
    find_preset,
    preset_with_overrides,
)
from rummykit.core.rules import (
    MAX_SEATS_ONE_DECK,
    OPTION_NAMES,
    Aces,
    Blocked,
    DealerRotation,
    DiscardTake,
    GoOut,
    LayOffTiming,
    Renew,
    Rules,
    RummyBonus,
    Scoring,
    find_option,
    option_names,
    option_specs,
    parse_option,
)
from rummykit.core.state import DealResult, GameState, Phase


def cards(text: str) -> list[Card]:
    return list(parse_cards(text.split()))


def texts(held: list[Card]) -> list[str]:
    return [str(item) for item in held]


def pips(text: str, ace_points: int = 1, joker_points: int = 15) -> int:
    """A hand's value counted here, apart from the engine: ace, faces 10, others their number."""
    total = 0
    for word in text.split():
        rank = word[0].upper()
        if rank == "X":
            total += joker_points
        elif rank == "A":
            total += ace_points
        elif rank in "TJQK":
            total += 10
        else:
            total += int(rank)
    return total


def refused_code(game: GameState, text: str) -> str:
    with pytest.raises(IllegalActionError) as caught:
        game.apply_text(text)
    return caught.value.code


# Two seats, dealer 0: seat 1 plays first and can meld its whole hand after drawing the K♠:
# 4h-7h, 9c 9d 9h, Kc Kd Kh Ks. Seat 0 holds 2 + 3 + 4 + 8 + 10 + 10 + 10 + 10 + 5 + 6 = 68.
OUT_HANDS = ["2c 3c 4c 8s Js Td Qc Qs 5s 6d", "4h 5h 6h 7h 9c 9d 9h Kc Kd Kh"]
SEAT_ZERO_VALUE = 68


def out_game(rules: Rules, dealer: int = 0, hands: list[str] | None = None) -> GameState:
    return stacked_game(rules, hands or OUT_HANDS, up="8c", stock="Ks 9s 2d 7d", dealer=dealer)


def go_out_at_once(game: GameState, seat: int = 1) -> GameState:
    """The seat draws the K♠ and melds its whole hand in one turn: it goes rummy."""
    return play(
        game,
        f"{seat} draw stock",
        f"{seat} meld 4h 5h 6h 7h",
        f"{seat} meld 9c 9d 9h",
        f"{seat} meld Kc Kd Kh Ks",
    )


# Five seats of ten cards (dealer 0): the stock holds one card, the 5♦, so it runs out on the
# first turn. Seat 1 then discards the K♦ (leaving 30) or the 5♦ (leaving 35).
FIVE_HANDS = [
    "Jc Jd Jh Js Qc Qd Qh Qs Kc Kh",  # 100
    "Ac Ad 2c 2d 3c 3d 4c 4d 5c Kd",  # 35 before the draw
    "Ah As 2h 2s 3h 3s 4h 4s 5h 5s",  # 30
    "6c 6d 6h 6s 7c 7d 7h 7s 8c 8d",  # 68
    "8h 8s 9c 9d 9h 9s Tc Td Th Ts",  # 92
]


# The stock is never renewed and there is no choice: the deal is blocked as seat 2's turn begins.
BLOCK_AT_ONCE = Rules(renew=Renew.NONE, empty_stock_choice=False)


def five_seats(rules: Rules, discard: str = "Kd", dealer: int = 0) -> GameState:
    """Seat 1 draws the last stock card and discards; seat 2's turn begins on an empty stock."""
    game = stacked_game(rules.replace(hand_size=10), FIVE_HANDS, up="Ks", stock="5d", dealer=dealer)
    assert game.stock_count == 1
    return play(game, "1 draw stock", f"1 discard {discard}")


def run_down_the_stock(game: GameState) -> list[Card]:
    """Every seat draws from the stock and throws the card back, until the stock is gone.

    Returns the cards drawn; stops once the last stock card has been thrown, so the next
    turn (which may renew the stock or block the deal) has begun.
    """
    drawn: list[Card] = []
    emptied = False
    while not emptied and game.phase is not Phase.OVER:
        seat = game.turn
        game.apply_text(f"{seat} draw stock")
        emptied = not game.stock
        card = game.hands[seat][-1]
        drawn.append(card)
        game.apply_text(f"{seat} discard {card}")
    return drawn


def small_stock_game(rules: Rules, seed: int = 0) -> GameState:
    """Five seats of nine cards from an unshuffled deck: a stock of six cards."""
    game = GameState(rules.replace(hand_size=9), 5, dealer=0)
    game.start_deal(standard_deck(), seed=seed)
    assert game.stock_count == 6
    return game


# ----- hand_size and the deal ----------------------------------------------------------


@pytest.mark.parametrize(("seats", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_hand_size_by_seats_deals_ten_to_two_seven_to_three_or_four_six_to_five_or_six(
    seats: int, size: int
) -> None:
    game = GameState.new(Rules(hand_size="by_seats"), seats, seed=seats)
    assert [len(hand) for hand in game.hands] == [size] * seats
    assert len(game.discard_pile) == 1
    assert game.stock_count == 52 - seats * size - 1


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("size", [6, 8])
def test_a_number_for_hand_size_deals_that_many_to_every_seat(seats: int, size: int) -> None:
    game = GameState.new(Rules(hand_size=size), seats, seed=1)
    assert [len(hand) for hand in game.hands] == [size] * seats
    assert game.stock_count == 52 - seats * size - 1


@pytest.mark.parametrize(("seats", "dealer"), [(2, 0), (3, 2), (4, 1), (6, 5)])
def test_cards_are_dealt_one_at_a_time_from_the_dealers_left(seats: int, dealer: int) -> None:
    deck = list(NATURAL_CARDS)
    random.Random(seats * 10 + dealer).shuffle(deck)
    game = GameState.new(Rules(), seats, dealer=dealer, deck=deck)
    size = Rules().hand_size_for(seats)
    for index in range(seats * size):
        seat = (dealer + 1 + index) % seats
        assert deck[index] in game.hands[seat]
    for seat in range(seats):
        expected = [deck[i] for i in range(seats * size) if (dealer + 1 + i) % seats == seat]
        assert sorted(game.hands[seat]) == sorted(expected)
    assert game.discard_pile == [deck[seats * size]]  # the next card is turned up
    assert game.stock[-1] is deck[seats * size + 1]  # the rest is the stock, top first
    assert list(reversed(game.stock)) == deck[seats * size + 1 :]
    assert game.turn == (dealer + 1) % seats  # the dealer's left plays first
    assert game.phase is Phase.DRAW


# ----- decks ---------------------------------------------------------------------------


def test_two_decks_hold_104_cards_each_card_twice() -> None:
    rules = Rules(decks=2)
    assert rules.deck_size == 104
    game = GameState.new(rules, 6, seed=5)
    everything = [card for hand in game.hands for card in hand]
    everything += game.stock + game.discard_pile
    assert len(everything) == 104
    assert Counter(everything) == Counter({card: 2 for card in NATURAL_CARDS})


def test_with_two_decks_a_card_may_be_held_twice_and_melded_twice() -> None:
    rules = Rules(decks=2)
    game = stacked_game(
        rules,
        ["2c 3c 4c 8s Js Td Qc Qs 5s 6d", "5h 6h 7h 7h 7c 7d Kc Kd Kh 2s"],
        up="8c",
        stock="Ks",
    )
    assert texts(game.hands[1]).count("7h") == 2
    play(game, "1 draw stock", "1 meld 5h 6h 7h", "1 meld 7c 7d 7h")
    assert game.melds[0].text == "5h 6h 7h"
    assert sorted(game.melds[1].text.split()) == ["7c", "7d", "7h"]
    assert "7h" not in texts(game.hands[1])


def test_one_deck_holds_each_card_once() -> None:
    game = GameState.new(Rules(), 4, seed=2)
    everything = [card for hand in game.hands for card in hand] + game.stock + game.discard_pile
    assert Counter(everything) == Counter(NATURAL_CARDS)


# ----- jokers --------------------------------------------------------------------------


@pytest.mark.parametrize("jokers", [0, 1, 2, 4])
def test_jokers_are_added_to_the_deck(jokers: int) -> None:
    rules = Rules(jokers=jokers)
    assert rules.deck_size == 52 + jokers
    game = GameState.new(rules, 2, seed=jokers)
    everything = [card for hand in game.hands for card in hand] + game.stock + game.discard_pile
    assert len(everything) == 52 + jokers
    assert everything.count(JOKER) == jokers


def joker_game(rules: Rules) -> GameState:
    return stacked_game(
        rules,
        ["2c 3c 4c 8s Js Td Qc Qs 5s X", "5h 7h X 7c 7d 9c 9d 9h Kc Qd"],
        up="8c",
        stock="Ks 2d",
    )


def test_a_joker_melds_in_a_set_and_in_a_run_standing_for_one_card() -> None:
    game = play(joker_game(Rules(jokers=2)), "1 draw stock", "1 meld 5h X 7h")
    assert game.melds[0].text == "5h X=6h 7h"
    assert len(game.melds[0].cards) == 3
    game = play(joker_game(Rules(jokers=2)), "1 draw stock", "1 meld 7c 7d X")
    # In a set a bare joker takes the lowest missing suit: hearts.
    assert sorted(game.melds[0].text.split()) == ["7c", "7d", "X=7h"]


def test_a_meld_needs_two_natural_cards() -> None:
    game = play(joker_game(Rules(jokers=2)), "1 draw stock")
    assert refused_code(game, "1 meld 7c X X") == "card_not_in_hand"  # one joker held
    rules = Rules(jokers=2)
    game = stacked_game(
        rules, ["2c 3c 4c 8s Js Td Qc Qs 5s 6d", "5h 7h X X 7c 7d 9c 9d 9h Kc"], up="8c", stock="Ks"
    )
    play(game, "1 draw stock")
    assert refused_code(game, "1 meld 7c X X") == "invalid_meld"
    assert refused_code(game, "1 meld 5h X X") == "invalid_meld"
    play(game, "1 meld 5h X X 7h")
    assert game.melds[0].text == "5h X=6h 7h X=8h"


@pytest.mark.parametrize(("joker_points", "cost"), [(None, 15), (25, 25), (0, 0)])
def test_a_joker_caught_in_hand_costs_joker_points(joker_points: int | None, cost: int) -> None:
    rules = Rules(jokers=1) if joker_points is None else Rules(jokers=1, joker_points=joker_points)
    hands = ["2c 3c 4c 8s Js Td Qc Qs 5s X", OUT_HANDS[1]]
    game = go_out_at_once(out_game(rules, hands=hands))
    # 2 + 3 + 4 + 8 + 10 + 10 + 10 + 10 + 5 and the joker.
    assert game.hand_value(0) == 62 + cost
    assert game.deal_points == (0, 62 + cost)


def test_joker_points_are_15_unless_set() -> None:
    assert Rules().joker_points == 15
    for preset in PRESETS.values():
        assert preset.rules.joker_points == 15


# ----- aces ----------------------------------------------------------------------------

ACE_HANDS = ["2c 3c 4c 8s Js Td Qc Qs 5s 6d", "Qh Kh Ah 2h 3h 9c 9d 7s Kc Jd"]


@pytest.mark.parametrize(
    ("aces", "meld", "legal"),
    [
        ("low", "Ah 2h 3h", True),
        ("low", "Qh Kh Ah", False),
        ("low", "Kh Ah 2h", False),
        ("low_or_high", "Ah 2h 3h", True),
        ("low_or_high", "Qh Kh Ah", True),
        ("low_or_high", "Kh Ah 2h", False),
        ("low_or_high", "Qh Kh Ah 2h", False),
        ("around", "Ah 2h 3h", True),
        ("around", "Qh Kh Ah", True),
        ("around", "Kh Ah 2h", True),
        ("around", "Qh Kh Ah 2h 3h", True),
    ],
)
def test_aces_rule_decides_where_an_ace_may_sit_in_a_run(aces: str, meld: str, legal: bool) -> None:
    game = stacked_game(Rules(aces=Aces(aces)), ACE_HANDS, up="8c", stock="Ks")
    play(game, "1 draw stock")
    if legal:
        play(game, f"1 meld {meld}")
        assert sorted(game.melds[0].text.split()) == sorted(meld.split())
    else:
        assert refused_code(game, f"1 meld {meld}") == "invalid_meld"
        assert game.melds == []


def test_a_run_round_the_corner_is_laid_out_from_after_its_gap() -> None:
    game = stacked_game(Rules(aces=Aces.AROUND), ACE_HANDS, up="8c", stock="Ks")
    play(game, "1 draw stock", "1 meld 2h Ah Kh")
    assert game.melds[0].text == "Kh Ah 2h"


# ----- ace_points ----------------------------------------------------------------------


@pytest.mark.parametrize("ace_points", [1, 11, 15])
def test_an_ace_caught_in_a_hand_costs_ace_points(ace_points: int) -> None:
    hands = ["Ac Ad 4c 8s Js Td Qc Qs 5s 6d", OUT_HANDS[1]]
    game = go_out_at_once(out_game(Rules(ace_points=ace_points), hands=hands))
    expected = pips("Ac Ad 4c 8s Js Td Qc Qs 5s 6d", ace_points=ace_points)
    assert expected == 2 * ace_points + 63
    assert game.hand_value(0) == expected
    assert game.deal_points == (0, expected)


# ----- layoff --------------------------------------------------------------------------

# Seat 0 melds 2c 3c 4c on its first turn; seat 1 holds the 5♣ that fits it.
LAYOFF_HANDS = ["2c 3c 4c 8s Js Td Kd Qs 5s 6d", "4h 5h 6h 7h 9c 9d 9h Kc Qd 5c"]


def seat_zero_has_melded(rules: Rules) -> GameState:
    game = stacked_game(rules, LAYOFF_HANDS, up="8h", stock="Ks 9s Ah 3h Jd")
    return play(
        game,
        "1 draw stock",
        "1 discard Ks",
        "0 draw stock",
        "0 meld 2c 3c 4c",
        "0 discard 9s",
        "1 draw stock",
    )


def test_layoff_anytime_lets_a_seat_lay_off_without_a_meld_of_its_own() -> None:
    game = seat_zero_has_melded(Rules(layoff=LayOffTiming.ANYTIME))
    play(game, "1 layoff 5c 0")
    assert game.melds[0].text == "2c 3c 4c 5c"
    assert game.melds[0].owner == 0  # laying off does not change the owner


def test_layoff_after_meld_needs_a_meld_of_the_seats_own_first() -> None:
    game = seat_zero_has_melded(Rules(layoff=LayOffTiming.AFTER_MELD))
    assert refused_code(game, "1 layoff 5c 0") == "layoff_not_allowed"
    assert not any(isinstance(action, LayOff) for action in game.legal_actions())
    play(game, "1 meld 4h 5h 6h", "1 layoff 5c 0", "1 layoff 7h 1")  # the same turn
    assert game.melds[0].text == "2c 3c 4c 5c"
    assert game.melds[1].text == "4h 5h 6h 7h"


def test_layoff_turn_after_meld_waits_for_the_turn_after_the_first_meld() -> None:
    game = seat_zero_has_melded(Rules(layoff=LayOffTiming.TURN_AFTER_MELD))
    assert refused_code(game, "1 layoff 5c 0") == "layoff_not_allowed"
    play(game, "1 meld 4h 5h 6h")
    assert refused_code(game, "1 layoff 5c 0") == "layoff_not_allowed"
    assert refused_code(game, "1 layoff 7h 1") == "layoff_not_allowed"
    play(game, "1 discard Kc", "0 draw stock", "0 discard 3h", "1 draw stock")
    play(game, "1 layoff 5c 0", "1 layoff 7h 1")
    assert game.melds[0].text == "2c 3c 4c 5c"
    assert game.melds[1].text == "4h 5h 6h 7h"


def test_layoff_turn_after_meld_lets_the_first_melder_lay_off_on_its_next_turn() -> None:
    game = seat_zero_has_melded(Rules(layoff=LayOffTiming.TURN_AFTER_MELD))
    play(game, "1 meld 4h 5h 6h", "1 discard Kc", "0 draw stock")  # seat 0 draws the 3♥
    play(game, "0 layoff 3h 1")
    assert game.melds[1].text == "3h 4h 5h 6h"


# ----- melds_per_turn ------------------------------------------------------------------


def test_melds_per_turn_one_allows_one_new_meld_a_turn() -> None:
    game = play(out_game(Rules(melds_per_turn=1)), "1 draw stock", "1 meld 4h 5h 6h 7h")
    assert refused_code(game, "1 meld 9c 9d 9h") == "meld_limit"
    assert not any(isinstance(action, Meld) for action in game.legal_actions())
    play(game, "1 discard Ks", "0 draw stock", "0 discard 9s", "1 draw stock")
    play(game, "1 meld 9c 9d 9h")
    assert len(game.melds) == 2
    assert refused_code(game, "1 meld Kc Kd Kh") == "meld_limit"


def test_melds_per_turn_one_does_not_limit_lay_offs() -> None:
    game = play(out_game(Rules(melds_per_turn=1)), "1 draw stock", "1 meld Kc Kd Kh")
    play(game, "1 layoff Ks 0")
    assert len(game.melds[0].cards) == 4


def test_melds_per_turn_two_refuses_the_third() -> None:
    game = play(out_game(Rules(melds_per_turn=2)), "1 draw stock", "1 meld 4h 5h 6h 7h")
    play(game, "1 meld 9c 9d 9h")
    assert refused_code(game, "1 meld Kc Kd Kh") == "meld_limit"


def test_melds_per_turn_zero_is_no_limit() -> None:
    game = go_out_at_once(out_game(Rules(melds_per_turn=0)))
    assert len(game.melds) == 3
    assert game.phase is Phase.OVER


# ----- go_out --------------------------------------------------------------------------


def test_go_out_any_ends_the_deal_when_a_meld_empties_the_hand() -> None:
    game = go_out_at_once(out_game(Rules(go_out=GoOut.ANY)))
    assert game.phase is Phase.OVER
    assert game.hands[1] == []
    assert game.deal_winner == 1
    assert game.turn == 1


def test_go_out_any_ends_the_deal_when_a_lay_off_empties_the_hand() -> None:
    game = play(
        out_game(Rules(go_out=GoOut.ANY)),
        "1 draw stock",
        "1 meld 4h 5h 6h 7h",
        "1 meld 9c 9d 9h",
        "1 meld Kc Kd Kh",
        "1 layoff Ks 2",
    )
    assert game.phase is Phase.OVER and game.deal_winner == 1


def test_go_out_discard_only_goes_out_by_discarding_the_last_card() -> None:
    game = play(
        out_game(Rules(go_out=GoOut.DISCARD)),
        "1 draw stock",
        "1 meld 4h 5h 6h 7h",
        "1 meld 9c 9d 9h",
    )
    assert refused_code(game, "1 meld Kc Kd Kh Ks") == "must_discard_to_go_out"
    assert "1 meld Kc Kd Kh Ks" not in [str(action) for action in game.legal_actions()]
    assert "1 meld Kc Kd Kh" in [str(action) for action in game.legal_actions()]
    play(game, "1 meld Kc Kd Kh")
    assert not any(isinstance(action, LayOff) for action in game.legal_actions())
    assert refused_code(game, "1 layoff Ks 2") == "must_discard_to_go_out"
    assert game.phase is Phase.PLAY
    play(game, "1 discard Ks")
    assert game.deal_over and game.deal_winner == 1
    assert game.result is DealResult.RUMMY


# ----- rummy_bonus ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bonus", "points"),
    [("none", SEAT_ZERO_VALUE), ("double", 2 * SEAT_ZERO_VALUE), ("plus10", SEAT_ZERO_VALUE + 10)],
)
def test_going_rummy_pays_the_rummy_bonus_to_the_winner(bonus: str, points: int) -> None:
    game = go_out_at_once(out_game(Rules(rummy_bonus=RummyBonus(bonus))))
    assert game.result is DealResult.RUMMY
    assert game.deal_points == (0, points)
    assert game.scores == [0, points]


@pytest.mark.parametrize(
    ("bonus", "points"),
    [("none", SEAT_ZERO_VALUE), ("double", 2 * SEAT_ZERO_VALUE), ("plus10", SEAT_ZERO_VALUE + 10)],
)
def test_going_rummy_under_penalty_scoring_raises_each_other_seats_penalty(
    bonus: str, points: int
) -> None:
    game = go_out_at_once(out_game(Rules(rummy_bonus=RummyBonus(bonus), scoring=Scoring.PENALTY)))
    assert game.result is DealResult.RUMMY
    assert game.deal_points == (points, 0)


def three_turn_out(rules: Rules, lay_off_first: bool) -> GameState:
    """Seat 1 goes out on its third turn; on its second it lays off the 5♣, or discards it."""
    hands = [OUT_HANDS[0], "4h 5h 6h 7h 9c 9d 9h Kc Kd 5c"]
    game = stacked_game(rules, hands, up="8h", stock="Kh 2d Ks Jd Ad")
    play(game, "1 draw stock", "1 discard 4h")  # nothing laid
    play(game, "0 draw stock", "0 meld 2c 3c 4c", "0 discard 2d")
    play(game, "1 draw stock")  # the K♠
    if lay_off_first:
        play(game, "1 layoff 5c 0", "1 discard Ks")
    else:
        play(game, "1 discard 5c")
    play(game, "0 draw stock", "0 discard Jd", "1 draw stock")  # the A♦
    play(game, "1 meld 5h 6h 7h", "1 meld 9c 9d 9h")
    if lay_off_first:
        play(game, "1 meld Kc Kd Kh", "1 discard Ad")
    else:
        play(game, "1 meld Kc Kd Kh Ks", "1 discard Ad")
    assert game.phase is Phase.OVER and game.deal_winner == 1
    return game


def test_going_out_in_one_turn_on_a_later_turn_with_nothing_laid_before_is_rummy() -> None:
    game = three_turn_out(Rules(rummy_bonus=RummyBonus.DOUBLE), lay_off_first=False)
    assert game.result is DealResult.RUMMY
    # Seat 0 holds 8s Js Td Qc Qs 5s 6d: 8 + 10 + 10 + 10 + 10 + 5 + 6 = 59, doubled.
    assert game.deal_points == (0, 2 * 59)


def test_a_lay_off_on_an_earlier_turn_is_no_rummy() -> None:
    game = three_turn_out(Rules(rummy_bonus=RummyBonus.DOUBLE), lay_off_first=True)
    assert game.result is DealResult.OUT
    assert game.deal_points == (0, 59)


def test_a_meld_on_an_earlier_turn_is_no_rummy() -> None:
    rules = Rules(rummy_bonus=RummyBonus.DOUBLE)
    game = play(out_game(rules), "1 draw stock", "1 meld 4h 5h 6h 7h", "1 discard Ks")
    play(game, "0 draw stock", "0 discard 9s", "1 draw stock")  # the 2♦
    play(game, "1 meld 9c 9d 9h", "1 meld Kc Kd Kh", "1 discard 2d")
    assert game.phase is Phase.OVER
    assert game.result is DealResult.OUT
    assert game.deal_points == (0, SEAT_ZERO_VALUE)


def test_plus10_under_penalty_adds_ten_to_each_other_seat() -> None:
    rules = Rules(rummy_bonus=RummyBonus.PLUS10, scoring=Scoring.PENALTY, hand_size=7)
    hands = ["2c 3c 4c 8s Js Td Qc", "9c 9d 9h Kc Kd Kh 5s", "Ac 2d 3d 4d 5d 6s 7s"]
    game = stacked_game(rules, hands, up="8c", stock="Ks")
    play(game, "1 draw stock", "1 meld 9c 9d 9h", "1 meld Kc Kd Kh Ks", "1 discard 5s")
    assert game.result is DealResult.RUMMY
    assert game.deal_points == (pips(hands[0]) + 10, 0, pips(hands[2]) + 10)


# ----- scoring, target and deals -------------------------------------------------------


SCORING_HANDS = ["Kc Qc 8s Js Td 5s 6d", "Ac 4d 8d Jh 5h 7c 9s", "2c 2d 2h 3c 3d 3h 3s"]
# Seat 0: 10 + 10 + 8 + 10 + 10 + 5 + 6 = 59; seat 1: 1 + 4 + 8 + 10 + 5 + 7 + 9 = 44.


def seat_two_goes_out(rules: Rules, dealer: int = 0) -> GameState:
    """Three seats, dealer 0: seat 1 draws and throws, then seat 2 melds out in one turn."""
    game = stacked_game(
        rules.replace(hand_size=7), SCORING_HANDS, up="8c", stock="4s Th", dealer=dealer
    )
    play(game, "1 draw stock", "1 discard 4s")
    play(game, "2 draw stock", "2 meld 2c 2d 2h", "2 meld 3c 3d 3h 3s", "2 discard Th")
    assert game.phase is Phase.OVER and game.deal_winner == 2
    return game


def test_winner_scoring_pays_the_seat_that_went_out_every_other_hand() -> None:
    game = seat_two_goes_out(Rules(scoring=Scoring.WINNER, rummy_bonus=RummyBonus.NONE))
    assert pips(SCORING_HANDS[0]) == 59 and pips(SCORING_HANDS[1]) == 44
    assert game.deal_points == (0, 0, 59 + 44)
    assert game.scores == [0, 0, 103]


def test_penalty_scoring_charges_every_other_seat_its_own_hand() -> None:
    game = seat_two_goes_out(Rules(scoring=Scoring.PENALTY, rummy_bonus=RummyBonus.NONE))
    assert game.deal_points == (59, 44, 0)
    assert game.scores == [59, 44, 0]


def test_under_winner_scoring_the_highest_total_wins_the_game() -> None:
    game = seat_two_goes_out(Rules(scoring=Scoring.WINNER, target=100))
    assert game.game_over
    assert game.winner == 2


def test_under_penalty_scoring_the_lowest_total_wins_the_game() -> None:
    game = seat_two_goes_out(Rules(scoring=Scoring.PENALTY, target=50))
    assert game.scores == [59, 44, 0]
    assert game.game_over
    assert game.winner == 2


def test_the_game_goes_on_while_no_total_reaches_the_target() -> None:
    game = go_out_at_once(out_game(Rules(target=SEAT_ZERO_VALUE + 1)))
    assert game.scores == [0, SEAT_ZERO_VALUE]
    assert not game.game_over
    assert game.winner is None


def test_the_game_ends_after_the_deal_in_which_a_total_reaches_the_target() -> None:
    game = go_out_at_once(out_game(Rules(target=SEAT_ZERO_VALUE)))
    assert game.game_over
    assert game.winner == 1
    with pytest.raises(ValueError):
        game.start_deal()


def test_deals_plays_that_many_deals_and_ignores_the_target() -> None:
    rules = Rules(deals=2, target=10)
    game = go_out_at_once(out_game(rules))
    assert game.scores == [0, SEAT_ZERO_VALUE]
    assert not game.game_over  # the target is passed, but a deal is left
    assert game.dealer == 1
    # Second deal, dealt by seat 1: seat 0 plays first and goes out the same way.
    game.start_deal(stacked_deck(rules, OUT_HANDS[::-1], up="8c", stock="Ks 9s", dealer=1))
    assert game.turn == 0
    go_out_at_once(game, seat=0)
    assert game.scores == [SEAT_ZERO_VALUE, SEAT_ZERO_VALUE]
    assert game.game_over
    assert game.winner is None  # a tie
    assert len(game.summaries) == 2


def test_a_tie_for_the_best_total_has_no_winner() -> None:
    game = five_seats(Rules(renew=Renew.NONE, deals=1, empty_stock_choice=False))
    assert game.result is DealResult.BLOCKED
    assert game.game_over
    assert game.winner is None


# ----- renew ---------------------------------------------------------------------------


def test_renew_flip_turns_the_pile_over_so_its_bottom_card_is_the_top_of_the_stock() -> None:
    game = five_seats(Rules(renew=Renew.FLIP, renewals=None, empty_stock_choice=False))
    # Pile was Ks (the up-card) then Kd: turned over, the K♠ is on top of the stock.
    assert game.turn == 2 and game.phase is Phase.DRAW
    assert game.discard_pile == []
    assert list(reversed(game.stock)) == cards("Ks Kd")
    play(game, "2 draw stock")
    assert game.hands[2][-1] is Card.parse("Ks")


def test_renew_flip_keeps_the_order_of_a_longer_pile() -> None:
    game = small_stock_game(Rules(renew=Renew.FLIP, renewals=None, empty_stock_choice=False))
    pile_before = list(game.discard_pile)  # the up-card
    drawn = run_down_the_stock(game)
    assert len(drawn) == 6
    assert game.discard_pile == []
    assert list(reversed(game.stock)) == pile_before + drawn  # first discarded on top


@pytest.mark.parametrize("seed", [0, 7])
def test_renew_shuffle_shuffles_the_whole_pile_with_the_deals_seed(seed: int) -> None:
    game = small_stock_game(Rules(renew=Renew.SHUFFLE, empty_stock_choice=False), seed=seed)
    pile = [*game.discard_pile, *run_down_the_stock(game)]
    expected = list(pile)  # listed bottom of the pile first, then shuffled
    random.Random(seed).shuffle(expected)
    assert game.discard_pile == []
    assert list(reversed(game.stock)) == expected
    assert game.logs[-1].reshuffles == [tuple(expected)]


def test_renew_shuffle_uses_the_reshuffles_given_for_the_deal() -> None:
    rules = Rules(renew=Renew.SHUFFLE, empty_stock_choice=False, hand_size=9)
    game = GameState(rules, 5, dealer=0)
    # The up-card is the 46th card of the unshuffled deck and the stock the last six: the
    # pile is all seven when the stock runs out. The record gives the new stock's order.
    given = [Card.from_code(code) for code in (51, 49, 47, 45, 46, 48, 50)]
    game.start_deal(standard_deck(), reshuffles=[given], seed=11)
    pile = [*game.discard_pile, *run_down_the_stock(game)]
    assert sorted(pile) == sorted(given)
    assert list(reversed(game.stock)) == given
    assert game.discard_pile == []
    assert game.logs[-1].reshuffles == [tuple(given)]


def test_a_given_reshuffle_must_hold_exactly_the_cards_being_shuffled() -> None:
    rules = Rules(renew=Renew.SHUFFLE, empty_stock_choice=False, hand_size=9)
    game = GameState(rules, 5, dealer=0)
    wrong = [Card.from_code(code) for code in (51, 49, 47, 45, 46, 48, 0)]
    game.start_deal(standard_deck(), reshuffles=[wrong])
    with pytest.raises(RecordError):
        run_down_the_stock(game)


def test_renew_shuffle_keep_top_leaves_the_top_discard_as_the_pile() -> None:
    game = small_stock_game(Rules(renew=Renew.SHUFFLE_KEEP_TOP, empty_stock_choice=False), seed=3)
    pile = [*game.discard_pile, *run_down_the_stock(game)]
    expected = pile[:-1]
    random.Random(3).shuffle(expected)
    assert game.discard_pile == [pile[-1]]
    assert list(reversed(game.stock)) == expected


def test_a_pile_of_one_card_is_no_renewal_under_shuffle_keep_top() -> None:
    rules = Rules(renew=Renew.SHUFFLE_KEEP_TOP, renewals=None, empty_stock_choice=False)
    rules = rules.replace(hand_size=9, jokers=3)
    game = GameState.new(rules, 6, dealer=0, deck=standard_deck(1, 3))
    assert game.phase is Phase.OVER
    assert game.result is DealResult.BLOCKED
    assert game.renewals_used == 0


def test_a_pile_of_one_card_is_turned_over_under_flip() -> None:
    rules = Rules(renew=Renew.FLIP, renewals=None, empty_stock_choice=False, hand_size=9, jokers=3)
    game = GameState.new(rules, 6, dealer=0, deck=standard_deck(1, 3))
    assert game.phase is Phase.DRAW
    assert game.stock == [JOKER] and game.discard_pile == []
    assert game.renewals_used == 1


@pytest.mark.parametrize("renewals", [None, 0, 3])
def test_renew_none_never_renews_whatever_renewals_says(renewals: int | None) -> None:
    game = five_seats(Rules(renew=Renew.NONE, renewals=renewals, empty_stock_choice=False))
    assert game.phase is Phase.OVER
    assert game.result is DealResult.BLOCKED
    assert game.turn == 2
    assert game.renewals_used == 0


# ----- renewals ------------------------------------------------------------------------


def test_renewals_limit_the_renewals_then_the_deal_is_blocked() -> None:
    game = small_stock_game(Rules(renew=Renew.FLIP, renewals=1, empty_stock_choice=False))
    run_down_the_stock(game)
    assert game.renewals_used == 1 and game.phase is Phase.DRAW
    run_down_the_stock(game)
    assert game.deal_over
    assert game.result is DealResult.BLOCKED
    assert game.renewals_used == 1
    assert game.deal_winner is None


def test_renewals_zero_blocks_the_deal_when_the_stock_first_runs_out() -> None:
    game = five_seats(Rules(renew=Renew.FLIP, renewals=0, empty_stock_choice=False))
    assert game.result is DealResult.BLOCKED


def test_renewals_null_is_no_limit() -> None:
    rules = Rules(renew=Renew.FLIP, renewals=None, idle_renewals=None, empty_stock_choice=False)
    game = small_stock_game(rules)
    for cycle in range(1, 6):
        run_down_the_stock(game)
        assert game.phase is Phase.DRAW
        assert game.renewals_used == cycle


# ----- idle_renewals ----------------------------------------------------------------------

IDLE_HANDS = ["9c 9d 9s 2c 4d 6s 8s Tc Qd Kh", "5h 6h 7h 2d 4s 6c 8d Ts Qh Ks"]
"""Each seat holds a meld it lays only when a test says, and nothing else that melds."""


def idle_game(rules: Rules) -> GameState:
    return stacked_game(rules.replace(renew="flip", empty_stock_choice=False), IDLE_HANDS, "Ac")


def lay_the_held_meld(game: GameState) -> None:
    """The seat to act draws, lays the meld it was dealt, and throws the card it drew."""
    seat = game.turn
    game.apply_text(f"{seat} draw stock")
    drawn = game.hands[seat][-1]
    meld = " ".join(IDLE_HANDS[seat].split()[:3])
    game.apply_text(f"{seat} meld {meld}")
    game.apply_text(f"{seat} discard {drawn}")


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_idle_renewals_blocks_the_deal_when_the_stock_runs_out_after_that_many_idle_stocks(
    limit: int,
) -> None:
    game = idle_game(Rules(renewals=None, idle_renewals=limit))
    for renewed in range(1, limit + 1):
        run_down_the_stock(game)
        assert game.phase is Phase.DRAW
        assert game.renewals_used == game.idle_renewals_used == renewed
    run_down_the_stock(game)
    assert game.deal_over
    assert game.result is DealResult.BLOCKED
    assert game.renewals_used == limit


def test_idle_renewals_counts_again_from_zero_after_a_meld() -> None:
    game = idle_game(Rules(renewals=None, idle_renewals=2))
    run_down_the_stock(game)
    run_down_the_stock(game)
    assert game.idle_renewals_used == 2
    lay_the_held_meld(game)
    assert game.idle_renewals_used == 0 and game.renewals_used == 2
    run_down_the_stock(game)
    run_down_the_stock(game)
    assert game.phase is Phase.DRAW
    assert (game.renewals_used, game.idle_renewals_used) == (4, 2)
    run_down_the_stock(game)
    assert game.result is DealResult.BLOCKED


def test_idle_renewals_counts_again_from_zero_after_a_lay_off() -> None:
    rules = Rules(renew=Renew.FLIP, renewals=None, idle_renewals=1, empty_stock_choice=False)
    game = stacked_game(rules, IDLE_HANDS, "8h")
    play(game, "1 draw discard", "1 meld 5h 6h 7h", "1 discard 2d")
    run_down_the_stock(game)
    assert game.idle_renewals_used == 1
    if game.turn == 0:
        game.apply_text("0 draw stock")
        game.apply_text(f"0 discard {game.hands[0][-1]}")
    play(game, "1 draw stock", "1 layoff 8h 0")
    assert game.idle_renewals_used == 0
    game.apply_text(f"1 discard {game.hands[1][-1]}")
    run_down_the_stock(game)
    assert game.phase is Phase.DRAW
    assert (game.renewals_used, game.idle_renewals_used) == (2, 1)


def test_a_stuck_deal_by_idle_renewals_is_scored_by_the_blocked_option() -> None:
    game = idle_game(Rules(renewals=None, idle_renewals=1, blocked=Blocked.LOWEST_COLLECTS))
    run_down_the_stock(game)
    run_down_the_stock(game)
    assert game.result is DealResult.BLOCKED
    values = [game.hand_value(seat) for seat in range(2)]
    assert values[0] != values[1]
    low = values.index(min(values))
    assert game.deal_points is not None
    assert game.deal_points[low] == max(values) - min(values)
    assert game.deal_points[1 - low] == 0


def test_with_empty_stock_choice_draw_stock_past_idle_renewals_blocks_the_deal() -> None:
    rules = Rules(renew=Renew.FLIP, renewals=None, idle_renewals=1, empty_stock_choice=True)
    game = stacked_game(rules, IDLE_HANDS, "Ac")
    run_down_the_stock(game)
    seat = game.turn
    play(game, f"{seat} draw stock")  # renews the stock: the first idle renewal
    game.apply_text(f"{seat} discard {game.hands[seat][-1]}")
    assert game.idle_renewals_used == 1
    run_down_the_stock(game)
    seat = game.turn
    assert game.phase is Phase.DRAW and not game.stock
    assert game.can(Draw(seat, DrawSource.DISCARD))  # the pile may still be taken
    game.apply_text(f"{seat} draw stock")
    assert game.result is DealResult.BLOCKED


def test_idle_renewals_null_is_no_limit_of_its_own() -> None:
    game = idle_game(Rules(renewals=None, idle_renewals=None))
    for cycle in range(1, 6):
        run_down_the_stock(game)
        assert game.phase is Phase.DRAW
        assert game.idle_renewals_used == cycle


def test_renewals_still_limit_the_deal_below_idle_renewals() -> None:
    game = idle_game(Rules(renewals=1, idle_renewals=3))
    run_down_the_stock(game)
    run_down_the_stock(game)
    assert game.result is DealResult.BLOCKED and game.renewals_used == 1


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_limits_idle_renewals(name: str) -> None:
    assert find_preset(name).rules.idle_renewals is not None


def test_party_idle_renewals_is_its_renewals_so_its_deals_play_as_on_its_site() -> None:
    party = find_preset("party").rules
    assert party.idle_renewals == party.renewals == 15


def test_idle_renewals_zero_is_refused_renewals_zero_says_it() -> None:
    with pytest.raises(RulesError, match="idle_renewals must be"):
        Rules(idle_renewals=0)


# ----- blocked -------------------------------------------------------------------------


def test_a_blocked_deal_scores_nothing_under_no_score() -> None:
    game = five_seats(
        Rules(renew=Renew.NONE, blocked=Blocked.NO_SCORE, empty_stock_choice=False), discard="5d"
    )
    assert game.result is DealResult.BLOCKED
    assert game.deal_points == (0, 0, 0, 0, 0)
    assert game.scores == [0, 0, 0, 0, 0]
    assert game.deal_winner is None
    assert game.turn == 2  # whose turn it was when the deal was blocked


def test_under_lowest_collects_the_lowest_hand_scores_the_differences() -> None:
    game = five_seats(BLOCK_AT_ONCE.replace(blocked="lowest_collects"), discard="5d")
    values = [100, 35, 30, 68, 92]
    assert [game.hand_value(seat) for seat in range(5)] == values
    # Seat 2 is lowest at 30: 70 + 5 + 38 + 62.
    assert game.deal_points == (0, 0, 175, 0, 0)
    assert game.deal_winner is None
    assert game.result is DealResult.BLOCKED


def test_under_lowest_collects_a_tie_for_lowest_scores_nothing() -> None:
    game = five_seats(BLOCK_AT_ONCE.replace(blocked="lowest_collects"), discard="Kd")
    assert game.hand_value(1) == game.hand_value(2) == 30
    assert game.deal_points == (0, 0, 0, 0, 0)


def test_under_lowest_collects_with_penalty_scoring_each_other_seat_takes_its_difference() -> None:
    rules = BLOCK_AT_ONCE.replace(blocked="lowest_collects", scoring="penalty")
    game = five_seats(rules, discard="5d")
    assert game.deal_points == (70, 5, 0, 38, 62)


def test_practice_turns_the_pile_over_once_then_the_lower_hand_collects() -> None:
    rules = find_preset("practice").rules
    hands = ["Jc Jd Jh Js Qc Qd Qh Qs Kc Kh", "Ac Ad 2c 2d 3c 3d 4c 4d 5c Kd"]
    game = stacked_game(rules, hands, up="Ks")
    run_down_the_stock(game)
    assert game.phase is Phase.DRAW and game.renewals_used == 1
    run_down_the_stock(game)
    assert game.result is DealResult.BLOCKED
    # 100 against 35: seat 1 collects the difference.
    assert game.deal_points == (0, 65)


# ----- empty_stock_choice --------------------------------------------------------------


def test_without_empty_stock_choice_the_stock_is_renewed_at_once() -> None:
    game = five_seats(Rules(empty_stock_choice=False, renew=Renew.FLIP, renewals=1))
    assert game.renewals_used == 1
    assert game.stock_count == 2
    draws = [str(action) for action in game.legal_actions()]
    assert draws == ["2 draw stock"]  # the pile is empty


def test_with_empty_stock_choice_the_seat_may_take_the_top_discard() -> None:
    game = five_seats(Rules(empty_stock_choice=True, renew=Renew.FLIP, renewals=1))
    assert game.stock == [] and game.renewals_used == 0
    assert [str(action) for action in game.legal_actions()] == [
        "2 draw stock",
        "2 draw discard",
    ]
    play(game, "2 draw discard")
    assert game.hands[2][-1] is Card.parse("Kd")
    assert game.stock == [] and game.renewals_used == 0


def test_with_empty_stock_choice_draw_stock_renews_and_draws_the_top() -> None:
    game = five_seats(Rules(empty_stock_choice=True, renew=Renew.FLIP, renewals=1))
    play(game, "2 draw stock")
    assert game.hands[2][-1] is Card.parse("Ks")  # the pile's bottom card
    assert game.stock == [Card.parse("Kd")]
    assert game.discard_pile == []
    assert game.renewals_used == 1


def test_with_empty_stock_choice_and_no_renewal_left_draw_stock_blocks_the_deal() -> None:
    game = five_seats(Rules(empty_stock_choice=True, renew=Renew.FLIP, renewals=0))
    assert game.phase is Phase.DRAW
    assert "2 draw discard" in [str(action) for action in game.legal_actions()]
    play(game, "2 draw stock")
    assert game.deal_over
    assert game.result is DealResult.BLOCKED
    assert game.turn == 2


def test_with_empty_stock_choice_and_no_renewal_left_the_discard_may_still_be_taken() -> None:
    game = five_seats(Rules(empty_stock_choice=True, renew=Renew.NONE))
    play(game, "2 draw discard", "2 discard 5s")
    assert game.phase is Phase.DRAW and game.turn == 3
    play(game, "3 draw stock")
    assert game.result is DealResult.BLOCKED
    assert game.turn == 3


# ----- discard_take --------------------------------------------------------------------


def pile_of_three(rules: Rules) -> GameState:
    """The pile is 8h Ks 9s (top last) and seat 1, holding 4h-7h, is to draw."""
    game = stacked_game(rules, LAYOFF_HANDS, up="8h", stock="Ks 9s Ah")
    return play(game, "1 draw stock", "1 discard Ks", "0 draw stock", "0 discard 9s")


def test_discard_take_top_offers_only_the_top_discard() -> None:
    game = pile_of_three(Rules(discard_take=DiscardTake.TOP))
    assert [str(action) for action in game.legal_actions()] == ["1 draw stock", "1 draw discard"]
    assert refused_code(game, "1 draw discard 3") == "discard_take_not_allowed"


def test_discard_take_any_takes_the_card_and_every_card_above_it() -> None:
    game = pile_of_three(Rules(discard_take=DiscardTake.ANY))
    assert "1 draw discard 3" in [str(action) for action in game.legal_actions()]
    play(game, "1 draw discard 3")
    assert game.discard_pile == []
    assert texts(game.hands[1][-3:]) == ["8h", "Ks", "9s"]
    assert len(game.hands[1]) == 13


def test_discard_take_any_the_deepest_card_must_be_melded_that_turn() -> None:
    game = play(pile_of_three(Rules(discard_take=DiscardTake.ANY)), "1 draw discard 3")
    assert refused_code(game, "1 discard Kc") == "must_use_taken_card"
    assert all(not str(action).startswith("1 discard") for action in game.legal_actions())
    play(game, "1 meld 6h 7h 8h")
    play(game, "1 discard Kc")
    assert game.turn == 0


def five_club_in_the_pile(rules: Rules) -> GameState:
    """Seat 0 has melded 2c 3c 4c; seat 1 threw the 5♣ that fits it, and seat 0 threw on top."""
    game = seat_zero_has_melded(rules)
    return play(game, "1 discard 5c", "0 draw stock", "0 discard 3h")


def test_discard_take_any_the_deepest_card_may_be_laid_off_that_turn() -> None:
    game = five_club_in_the_pile(Rules(discard_take=DiscardTake.ANY))
    assert "1 draw discard 2" in [str(action) for action in game.legal_actions()]
    play(game, "1 draw discard 2")
    assert refused_code(game, "1 discard Kc") == "must_use_taken_card"
    play(game, "1 layoff 5c 0", "1 discard Kc")
    assert game.melds[0].text == "2c 3c 4c 5c"


def test_discard_take_any_allows_a_deep_card_that_fits_after_the_seats_own_meld() -> None:
    # Under after_meld seat 1 may meld 4h 5h 6h, then lay off the 5♣ in the same turn.
    game = five_club_in_the_pile(
        Rules(discard_take=DiscardTake.ANY, layoff=LayOffTiming.AFTER_MELD)
    )
    play(game, "1 draw discard 2", "1 meld 4h 5h 6h", "1 layoff 5c 0", "1 discard Kc")
    assert game.melds[0].text == "2c 3c 4c 5c"


def test_discard_take_any_refuses_a_deep_card_that_could_not_be_used() -> None:
    game = pile_of_three(Rules(discard_take=DiscardTake.ANY))
    assert refused_code(game, "1 draw discard 2") == "discard_take_not_allowed"
    assert "1 draw discard 2" not in [str(action) for action in game.legal_actions()]


# ----- dealer --------------------------------------------------------------------------


def test_dealer_left_passes_the_deal_to_the_left() -> None:
    game = seat_two_goes_out(Rules(dealer=DealerRotation.LEFT, target=1000))
    assert game.dealer == 1
    game.start_deal(standard_deck())
    assert game.turn == 2  # the new dealer's left plays first
    assert game.summaries[0].dealer == 0


def test_dealer_winner_gives_the_next_deal_to_the_seat_that_went_out() -> None:
    game = seat_two_goes_out(Rules(dealer=DealerRotation.WINNER, target=1000))
    assert game.dealer == 2
    game.start_deal(standard_deck())
    assert game.turn == 0


def test_dealer_winner_after_a_blocked_deal_passes_the_deal_to_the_left() -> None:
    game = five_seats(BLOCK_AT_ONCE.replace(dealer="winner"))
    assert game.result is DealResult.BLOCKED
    assert game.dealer == 1


# ----- presets -------------------------------------------------------------------------

COMMON = {
    "hand_size": "by_seats",
    "decks": 1,
    "jokers": 0,
    "joker_points": 15,
    "ace_points": 1,
    "layoff": "anytime",
    "melds_per_turn": 0,
    "go_out": "any",
    "scoring": "winner",
    "target": 100,
    "deals": None,
    "discard_take": "top",
    "dealer": "left",
    "deep_take_must_use": True,
    "stock_with_discard": False,
    "knock_limit": None,
    "undercut_penalty": 10,
    "knock_bonus": 25,
    "low_ace_points": 1,
}
PRESET_TABLE = {
    "classic": {
        **COMMON,
        "melding": "during_play",
        "aces": "low",
        "rummy_bonus": "double",
        "renew": "flip",
        "renewals": 1,
        "idle_renewals": 3,
        "blocked": "no_score",
        "empty_stock_choice": False,
    },
    "standard": {
        **COMMON,
        "melding": "during_play",
        "aces": "low_or_high",
        "rummy_bonus": "none",
        "renew": "flip",
        "renewals": None,
        "idle_renewals": 3,
        "blocked": "no_score",
        "empty_stock_choice": True,
    },
    "practice": {
        **COMMON,
        "melding": "during_play",
        "aces": "low_or_high",
        "rummy_bonus": "none",
        "renew": "flip",
        "renewals": 1,
        "idle_renewals": 3,
        "blocked": "lowest_collects",
        "empty_stock_choice": False,
    },
    "party": {
        **COMMON,
        "melding": "during_play",
        "aces": "low",
        "rummy_bonus": "double",
        "renew": "shuffle_keep_top",
        "renewals": 15,
        "idle_renewals": 15,
        "blocked": "no_score",
        "empty_stock_choice": False,
    },
    "boathouse": {
        **COMMON,
        "melding": "during_play",
        "aces": "low_or_high",
        "rummy_bonus": "none",
        "renew": "flip",
        "renewals": None,
        "idle_renewals": 3,
        "blocked": "no_score",
        "empty_stock_choice": True,
        "go_out": "discard",
        "stock_with_discard": True,
    },
}
PRESET_SEATS = {
    "classic": (2, 8),
    "standard": (2, 8),
    "practice": (2, 2),
    "party": (2, 8),
    "boathouse": (2, 8),
    "knock": (2, 8),
    "500": (2, 8),
}
PRESET_TABLE["knock"] = {
    **PRESET_TABLE["classic"],
    "melding": "knock",
    "rummy_bonus": "none",
    "blocked": "lowest_collects",
}
PRESET_TABLE["500"] = {
    **COMMON,
    "hand_size": "by_seats_500",
    "melding": "during_play",
    "aces": "low_or_high",
    "ace_points": 15,
    "rummy_bonus": "none",
    "scoring": "melds",
    "target": 500,
    "renew": "none",
    "renewals": 0,
    "idle_renewals": 3,
    "blocked": "no_score",
    "empty_stock_choice": False,
    "discard_take": "any",
}


def test_there_are_exactly_the_presets_of_the_record() -> None:
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_each_preset_has_exactly_the_values_of_the_presets_table(name: str) -> None:
    rules = find_preset(name).rules
    assert set(PRESET_TABLE[name]) == set(OPTION_NAMES)
    assert rules.to_mapping() == PRESET_TABLE[name]
    assert Rules.from_mapping(name) == rules
    assert Rules.from_mapping({"preset": name}) == rules


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_each_preset_is_for_the_seats_of_the_presets_table(name: str) -> None:
    preset = find_preset(name)
    low, high = PRESET_SEATS[name]
    two_decks = preset.rules.replace(decks=2)
    for seats in range(low, high + 1):
        preset.check_seats(seats)
        (preset.rules if seats <= MAX_SEATS_ONE_DECK else two_decks).check_seats(seats)
    for seats in (low - 1, high + 1):
        with pytest.raises(RulesError):
            preset.check_seats(seats)


def test_practice_is_for_two_seats_only() -> None:
    with pytest.raises(RulesError) as caught:
        find_preset("practice").check_seats(3)
    assert "practice" in str(caught.value) and "3" in str(caught.value)


def test_party_with_aces_low_or_high_also_makes_aces_cost_15() -> None:
    preset, rules = preset_with_overrides({"preset": "party", "aces": "low_or_high"})
    assert preset.name == "party"
    assert rules.aces == "low_or_high"
    assert rules.ace_points == 15
    assert {**rules.to_mapping()} == {
        **PRESET_TABLE["party"],
        "aces": "low_or_high",
        "ace_points": 15,
    }


def test_party_with_aces_low_keeps_aces_at_1() -> None:
    assert preset_with_overrides({"preset": "party", "aces": "low"})[1].ace_points == 1
    assert preset_with_overrides("party")[1].ace_points == 1


def test_an_override_changes_only_the_options_it_names() -> None:
    _, rules = preset_with_overrides({"preset": "classic", "target": 250, "renew": "shuffle"})
    assert rules.to_mapping() == {**PRESET_TABLE["classic"], "target": 250, "renew": "shuffle"}
    assert preset_with_overrides({"preset": "classic", "aces": "low_or_high"})[1].ace_points == 1


# ----- bad values and impossible combinations ------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("hand_size", 5),
        ("hand_size", 14),
        ("hand_size", "by_seat"),
        ("hand_size", 7.0),
        ("decks", 0),
        ("decks", 3),
        ("decks", True),
        ("jokers", -1),
        ("jokers", 5),
        ("aces", "high"),
        ("ace_points", 0),
        ("ace_points", 10),
        ("layoff", "never"),
        ("melds_per_turn", -1),
        ("go_out", "knock"),
        ("rummy_bonus", "triple"),
        ("scoring", "points"),
        ("target", 0),
        ("deals", 0),
        ("renew", "sometimes"),
        ("renewals", -1),
        ("blocked", "split"),
        ("empty_stock_choice", "yes"),
        ("discard_take", "bottom"),
        ("dealer", "right"),
        ("joker_points", -5),
    ],
)
def test_a_bad_value_is_refused_with_the_reason(name: str, value: object) -> None:
    bad: dict[str, Any] = {name: value}
    with pytest.raises(RulesError) as caught:
        Rules(**bad)
    assert name in str(caught.value)
    with pytest.raises(RulesError):
        preset_with_overrides({"preset": "standard", name: value})


def test_decks_three_is_refused() -> None:
    with pytest.raises(RulesError) as caught:
        Rules(decks=3)
    assert str(caught.value) == "decks must be 1 or 2, not 3."


def test_an_unknown_option_name_is_refused_never_ignored() -> None:
    with pytest.raises(RulesError) as caught:
        preset_with_overrides({"preset": "classic", "wild_twos": True})
    assert "wild_twos" in str(caught.value)
    with pytest.raises(RulesError):
        Rules().replace(colour="red")


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(RulesError) as caught:
        find_preset("gin")
    assert "gin" in str(caught.value)
    with pytest.raises(RulesError):
        preset_with_overrides({"aces": "low"})


def test_ten_cards_to_six_seats_do_not_fit_in_one_deck() -> None:
    with pytest.raises(RulesError) as caught:
        Rules(hand_size=10).check_seats(6)
    assert "61" in str(caught.value) and "52" in str(caught.value)
    with pytest.raises(RulesError):
        GameState.new(Rules(hand_size=10), 6, seed=0)
    Rules(hand_size=10, decks=2).check_seats(6)
    GameState.new(Rules(hand_size=10, decks=2), 6, seed=0)


def test_nine_cards_to_six_seats_need_jokers_or_a_second_deck() -> None:
    with pytest.raises(RulesError):
        Rules(hand_size=9).check_seats(6)
    Rules(hand_size=9, jokers=3).check_seats(6)
    Rules(hand_size=9, decks=2).check_seats(6)


@pytest.mark.parametrize("seats", [0, 1, 7])
def test_a_table_has_two_to_six_seats(seats: int) -> None:
    with pytest.raises(RulesError):
        Rules().check_seats(seats)


# ----- each option described once ------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class RulesWithWildTwos(Rules):
    """A test-only option added the one way the project asks: a field with its description."""

    wild_twos: int = dataclasses.field(
        default=0,
        metadata=describe_option(
            "Wild twos",
            "How many of the twos are wild.",
            minimum=0,
            maximum=4,
            none="Every two is wild",
        ),
    )


def test_every_rules_field_but_its_ties_is_an_option_with_a_description() -> None:
    fields = [field.name for field in dataclasses.fields(Rules)]
    assert [name for name in fields if name not in OPTION_NAMES] == ["ties"]
    assert [spec.name for spec in option_specs()] == list(OPTION_NAMES)
    for spec in option_specs():
        assert spec.title and spec.title[0].isupper(), spec.name
        assert spec.help.endswith("."), spec.name
        assert all(choice.label for choice in spec.choices), spec.name


def test_the_options_are_the_record_options_of_the_presets_table() -> None:
    assert set(OPTION_NAMES) == set(PRESET_TABLE["classic"])


def test_each_named_option_offers_exactly_the_values_of_its_enum() -> None:
    for spec in option_specs():
        default = getattr(Rules(), spec.name)
        if isinstance(default, enum.Enum):
            assert spec.kind is OptionKind.CHOICE
            values: list[object] = [choice.value for choice in spec.choices]
            assert values == list(type(default)), spec.name


@pytest.mark.parametrize("spec", option_specs(), ids=OPTION_NAMES)
def test_rules_take_every_value_an_option_describes_and_refuse_the_rest(spec: OptionSpec) -> None:
    good: list[object] = [choice.value for choice in spec.choices]
    bad: list[object] = ["nonsense", 2.5]
    if spec.minimum is not None:
        good.append(spec.minimum)
        bad.append(spec.minimum - 1)
        if spec.maximum is not None:
            good.append(spec.maximum)
            bad.append(spec.maximum + 1)
    elif spec.kind is OptionKind.BOOLEAN:
        good += [True, False]
        bad.append(1)
    (good if spec.none is not None else bad).append(None)
    for value in good:
        assert spec.check(value) == Rules().replace(**{spec.name: value}).to_mapping()[spec.name]
    for value in bad:
        with pytest.raises(RulesError) as caught:
            Rules().replace(**{spec.name: value})
        assert caught.value.reason.startswith("option_"), caught.value.reason
        assert caught.value.params["option"] == spec.name
        assert caught.value.params["value"] == value_text(value)
        assert str(caught.value).startswith(f"{spec.name} must be ")
        assert str(caught.value).endswith(f", not {value_text(value)}.")


def test_a_name_is_read_in_any_case_and_a_truth_value_is_never_a_number() -> None:
    assert Rules().replace(aces="LOW").aces is Aces.LOW
    with pytest.raises(RulesError):
        Rules(ace_points=True)
    with pytest.raises(RulesError):
        Rules(hand_size=True)


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("renewals", "none", None),
        ("renewals", "null", None),
        ("renewals", " 3 ", 3),
        ("renew", "none", Renew.NONE),
        ("aces", "Low_Or_High", Aces.LOW_OR_HIGH),
        ("empty_stock_choice", "yes", True),
        ("empty_stock_choice", "off", False),
        ("hand_size", "by_seats", "by_seats"),
        ("hand_size", "8", 8),
        ("ace_points", "15", 15),
    ],
)
def test_command_line_text_is_read_by_the_options_description(
    name: str, text: str, value: object
) -> None:
    assert parse_option(name, text) == value


@pytest.mark.parametrize(
    ("name", "text"),
    [("renewals", "lots"), ("target", "none"), ("empty_stock_choice", "maybe"), ("jokers", "9")],
)
def test_bad_command_line_text_is_refused_with_the_options_values(name: str, text: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_option(name, text)
    assert caught.value.reason.startswith("option_") and caught.value.params["option"] == name
    assert str(caught.value).startswith(f"{name} must be ")


def test_an_unknown_option_on_the_command_line_is_refused() -> None:
    with pytest.raises(RulesError) as caught:
        parse_option("wild_twos", "1")
    assert "wild_twos" in str(caught.value)


def test_an_option_added_in_a_subclass_is_checked_parsed_and_recorded_with_no_other_edit() -> None:
    assert option_names(RulesWithWildTwos) == (*OPTION_NAMES, "wild_twos")
    spec = find_option("wild_twos", RulesWithWildTwos)
    assert (spec.title, spec.kind) == ("Wild twos", OptionKind.NUMBER)
    rules = RulesWithWildTwos().replace(wild_twos=2, aces="low")
    assert (rules.wild_twos, rules.aces) == (2, Aces.LOW)
    assert rules.to_mapping() == {**Rules(aces=Aces.LOW).to_mapping(), "wild_twos": 2}
    assert spec.parse("none") is None
    with pytest.raises(RulesError) as caught:
        RulesWithWildTwos(wild_twos=5)
    assert str(caught.value) == "wild_twos must be a whole number from 0 to 4 or null, not 5."
    preset = Preset("wild", RulesWithWildTwos(), 2, 6, "Twos are wild.")
    [field] = [field for field in preset.form() if field["name"] == "wild_twos"]
    assert field["title"] == "Wild twos" and field["default"] == 0
    assert field["none"] is None  # the preset's own value is not null: no endless choice
    assert preset.to_json()["rules"] == {**Rules().to_mapping(), "wild_twos": 0}


# ----- the party site's choices and ties -------------------------------------------------------


PARTY = find_preset("party")


def choice_values(field: dict[str, object]) -> list[object]:
    """The values a settings-form field offers."""
    choices = field["choices"]
    assert isinstance(choices, list)
    return [choice["value"] for choice in choices]


@pytest.mark.parametrize("aces", ["low_or_high", "LOW_OR_HIGH", Aces.LOW_OR_HIGH])
def test_party_aces_high_make_an_ace_cost_15_by_replace(aces: object) -> None:
    assert PARTY.rules.replace(aces=aces).ace_points == 15


def test_party_aces_high_make_an_ace_cost_15_however_the_rules_were_changed_before() -> None:
    rules = PARTY.rules.replace(target=50).replace(hand_size=7).replace(aces="low_or_high")
    assert (rules.target, rules.ace_points) == (50, 15)
    assert rules.replace(aces="low").ace_points == 1


def test_party_aces_high_with_an_explicit_ace_cost_keeps_that_cost() -> None:
    assert PARTY.rules.replace(aces="low_or_high", ace_points=11).ace_points == 11
    rules = preset_with_overrides({"preset": "party", "aces": "low_or_high", "ace_points": 1})[1]
    assert rules.ace_points == 1


def test_party_aces_high_from_the_command_line_make_an_ace_cost_15() -> None:
    overrides = {"aces": parse_option("aces", "low_or_high")}
    assert preset_with_overrides({"preset": "party", **overrides})[1].ace_points == 15


def test_party_aces_high_are_recorded_with_both_options() -> None:
    rules = PARTY.rules.replace(aces="low_or_high")
    recorded = describe_rules(PARTY, rules)
    assert recorded == {"preset": "party", "aces": "low_or_high", "ace_points": 15}
    assert Rules.from_mapping(recorded) == rules


def test_the_tie_is_no_rule_option_nor_part_of_equality() -> None:
    untied = Rules(**{name: getattr(PARTY.rules, name) for name in OPTION_NAMES})
    assert untied == PARTY.rules and hash(untied) == hash(PARTY.rules)
    assert "ties" not in PARTY.rules.to_mapping()
    assert untied.replace(aces="low_or_high").ace_points == 1
    with pytest.raises(RulesError):
        PARTY.rules.replace(ties=())


@pytest.mark.parametrize("name", ["classic", "standard", "practice"])
def test_other_presets_leave_an_ace_at_its_cost_when_aces_go_high(name: str) -> None:
    rules = find_preset(name).rules.replace(aces="around").replace(aces="low_or_high")
    assert rules.ace_points == 1


def test_party_offers_the_party_sites_renewals_15_once_and_three_times() -> None:
    offer = PARTY.offer("renewals")
    assert offer is not None
    assert [choice.value for choice in offer.choices] == [15, 1, 3]
    # The site's "no limit" is a cap of 15, shown as 15: "No limit" is null's word alone.
    assert "15" in offer.choices[0].label and "No limit" not in offer.choices[0].label
    assert "15" in offer.help
    [field] = [field for field in PARTY.form() if field["name"] == "renewals"]
    assert field["kind"] == "choice" and field["none"] is None and field["default"] == 15
    assert field["help"] == offer.help
    assert choice_values(field) == [15, 1, 3]


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_only_a_preset_whose_deal_is_endless_offers_an_endless_deal(name: str) -> None:
    [field] = [field for field in find_preset(name).form() if field["name"] == "renewals"]
    assert (field["none"] is not None) == (name in ("standard", "boathouse"))
    [deals] = [field for field in find_preset(name).form() if field["name"] == "deals"]
    assert deals["none"] == find_option("deals").none  # every preset plays to a score


def test_a_number_range_beside_named_values_is_spelt_out_in_the_form() -> None:
    [field] = [field for field in PARTY.form() if field["name"] == "hand_size"]
    values = choice_values(field)
    assert values == ["by_seats", "by_seats_500", 6, 7, 8, 9, 10, 11, 12, 13]


def test_a_preset_with_a_choice_its_option_refuses_is_refused() -> None:
    with pytest.raises(RulesError):
        Preset("bad", Rules(), 2, 6, "", offers=(Offer("renewals", (Choice(-1, "never"),)),))
    with pytest.raises(RulesError):
        Preset("bad", Rules(), 2, 6, "", offers=(Offer("colour", (Choice(1, "red"),)),))


def test_a_preset_with_a_tie_to_a_bad_value_is_refused() -> None:
    with pytest.raises(RulesError):
        Preset("bad", Rules(), 2, 6, "", ties=(Tie("aces", "ace_points", (("low", 2),), ""),))
    with pytest.raises(RulesError):
        Preset("bad", Rules(), 2, 6, "", ties=(Tie("aces", "colour", (("low", 1),), ""),))


def test_every_number_option_has_an_upper_bound() -> None:
    # A target of 10**4000 was accepted, and such a game never ends.
    numbers = [spec for spec in option_specs() if spec.minimum is not None]
    assert numbers, "some options take numbers"
    for spec in numbers:
        assert spec.maximum is not None, f"{spec.name} has no upper bound"
        with pytest.raises(RulesError, match=spec.name):
            Rules().replace(**{spec.name: spec.maximum + 1})
        assert getattr(Rules().replace(**{spec.name: spec.maximum}), spec.name) == spec.maximum
    with pytest.raises(RulesError, match="target"):
        Rules(target=10**4000)
