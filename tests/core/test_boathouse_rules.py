"""Issue 13's rules, one test per sentence of the README: deep takes, Boathouse, big tables.

Each test is named after the sentence it checks (README, "Rules" table and the notes below it).
"""

from __future__ import annotations

import pytest

from helpers import play, stacked_game
from rummykit.core.cards import Card, standard_deck
from rummykit.core.errors import IllegalActionError, RulesError
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.rules import MAX_SEATS, MAX_SEATS_ONE_DECK, DiscardTake, GoOut, Rules
from rummykit.core.state import GameState, Phase

# Two seats, dealer 0: seat 1 holds 4h-7h; the stock's first cards are Ks 9s Ah 3h Jd.
HANDS = ["2c 3c 4c 8s Js Td Kd Qs 5s 6d", "4h 5h 6h 7h 9c 9d 9h Kc Qd 5c"]
STOCK = "Ks 9s Ah 3h Jd"


def refused(game: GameState, text: str) -> str:
    """The reason ``text`` is refused for (and the game must not change)."""
    before = (game.version, [list(hand) for hand in game.hands], list(game.stock))
    with pytest.raises(IllegalActionError) as caught:
        game.apply_text(text)
    assert (game.version, [list(hand) for hand in game.hands], list(game.stock)) == before
    return caught.value.reason


def listed(game: GameState) -> list[str]:
    return [str(action) for action in game.legal_actions()]


def pile_of_three(rules: Rules) -> GameState:
    """The pile is 8h Ks 9s (top last); seat 1 is to draw; the stock's top card is the A♠."""
    game = stacked_game(rules, HANDS, up="8h", stock=STOCK)
    return play(game, "1 draw stock", "1 discard Ks", "0 draw stock", "0 discard 9s")


# ----- deep_take_must_use ----------------------------------------------------------------

DEEP = Rules(discard_take=DiscardTake.ANY)
FREE_DEEP = Rules(discard_take=DiscardTake.ANY, deep_take_must_use=False)


def test_deep_take_must_use_is_on_by_default_and_in_every_earlier_preset() -> None:
    assert Rules().deep_take_must_use is True
    for name in ("classic", "standard", "practice", "party", "boathouse"):
        assert find_preset(name).rules.deep_take_must_use is True


def test_with_the_duty_a_deep_card_nothing_can_use_may_not_be_taken() -> None:
    game = pile_of_three(DEEP)
    assert refused(game, "1 draw discard 2") == "deep_card_useless"
    assert "1 draw discard 2" not in listed(game)


def test_with_the_duty_the_deep_card_must_be_played_before_the_discard() -> None:
    game = play(pile_of_three(DEEP), "1 draw discard 3")
    assert game.must_play == Card.parse("8h")
    assert refused(game, "1 discard Kc") == "must_use_taken"


def test_without_the_duty_any_depth_of_the_pile_may_be_taken() -> None:
    game = pile_of_three(FREE_DEEP)
    assert [text for text in listed(game) if "discard" in text] == [
        "1 draw discard",
        "1 draw discard 2",
        "1 draw discard 3",
    ]
    play(game, "1 draw discard 2")
    assert [str(card) for card in game.hands[1][-2:]] == ["Ks", "9s"]


def test_without_the_duty_nothing_taken_must_be_played() -> None:
    game = play(pile_of_three(FREE_DEEP), "1 draw discard 3")
    assert game.must_play is None
    play(game, "1 discard Ks")  # the deep 8♥ stays in the hand; only the top card is kept back
    assert game.turn == 0 and game.phase is Phase.DRAW


def test_without_the_duty_the_top_card_taken_still_may_not_go_straight_back() -> None:
    game = play(pile_of_three(FREE_DEEP), "1 draw discard 3")
    assert refused(game, "1 discard 9s") == "taken_card_back"


def test_without_the_duty_a_take_deeper_than_the_pile_is_still_refused() -> None:
    game = pile_of_three(FREE_DEEP)
    assert refused(game, "1 draw discard 4") == "pile_too_short"


def test_the_duty_is_meaningless_when_only_the_top_card_may_be_taken() -> None:
    game = pile_of_three(Rules(deep_take_must_use=False))
    assert refused(game, "1 draw discard 2") == "top_only"


# ----- stock_with_discard (Boathouse) ----------------------------------------------------

BOATHOUSE = find_preset("boathouse").rules


def test_boathouse_is_standard_with_going_out_by_discard_and_the_extra_stock_card() -> None:
    standard = find_preset("standard").rules
    assert standard.replace(go_out=GoOut.DISCARD, stock_with_discard=True) == BOATHOUSE


def test_taking_from_the_pile_brings_the_top_card_of_the_stock_too() -> None:
    game = pile_of_three(Rules(stock_with_discard=True))
    stock = game.stock_count
    play(game, "1 draw discard")
    assert game.hands[1][-2:] == [Card.parse("9s"), Card.parse("Ah")]
    assert game.stock_count == stock - 1
    assert game.deal.stock_extra == Card.parse("Ah")


def test_drawing_from_the_stock_brings_one_card_only() -> None:
    game = pile_of_three(Rules(stock_with_discard=True))
    play(game, "1 draw stock")
    assert len(game.hands[1]) == 11
    assert game.deal.stock_extra is None


def test_a_deep_take_brings_one_stock_card_with_all_the_pile_cards() -> None:
    game = pile_of_three(FREE_DEEP.replace(stock_with_discard=True))
    play(game, "1 draw discard 3")
    assert [str(card) for card in game.hands[1][-4:]] == ["8h", "Ks", "9s", "Ah"]


def test_the_others_see_only_that_a_stock_card_came_with_the_take() -> None:
    game = play(pile_of_three(Rules(stock_with_discard=True)), "1 draw discard")
    other = observe(game, 0)
    assert other.hand_sizes[1] == 12
    assert Card.parse("Ah") not in other.known_cards[1]
    assert Card.parse("9s") in other.known_cards[1]
    assert Card.parse("Ah") in observe(game, 1).hand


def test_the_stock_card_may_be_thrown_in_the_same_turn() -> None:
    game = play(pile_of_three(Rules(stock_with_discard=True)), "1 draw discard", "1 discard Ah")
    assert game.discard_top == Card.parse("Ah")


def test_the_pile_card_taken_still_may_not_go_straight_back() -> None:
    game = play(pile_of_three(Rules(stock_with_discard=True)), "1 draw discard")
    assert refused(game, "1 discard 9s") == "taken_card_back"


def test_with_the_stock_empty_the_take_brings_the_discard_alone() -> None:
    # Five seats of six from one deck leave a stock of 21; drain it, then take the discard.
    rules = Rules(stock_with_discard=True, empty_stock_choice=True)
    game = GameState.new(rules, 5, deck=standard_deck())
    while game.stock_count:
        seat = game.turn
        game.apply_text(f"{seat} draw stock")
        game.apply_text(f"{seat} discard {game.hands[seat][0]}")
    seat = game.turn
    held = len(game.hands[seat])
    game.apply_text(f"{seat} draw discard")
    assert len(game.hands[seat]) == held + 1
    assert game.deal.stock_extra is None
    assert game.stock_count == 0 and game.renewals_used == 0


def test_a_deep_duty_is_judged_on_the_pile_cards_alone_not_the_unseen_stock_card() -> None:
    # The A♠ under the stock would not help the 8♥ anyway; the take of 2 stays refused.
    game = pile_of_three(DEEP.replace(stock_with_discard=True))
    assert refused(game, "1 draw discard 2") == "deep_card_useless"


def test_boathouse_goes_out_only_by_a_discard() -> None:
    assert BOATHOUSE.go_out is GoOut.DISCARD


def test_replaying_a_boathouse_deal_brings_the_same_stock_cards() -> None:
    game = GameState.new(BOATHOUSE, 3, seed=11)
    for _ in range(30):
        if game.deal_over:
            break
        actions = list(game.legal_actions())
        takes = [action for action in actions if "draw discard" in str(action)]
        game.apply(takes[0] if takes else actions[-1])
    log = game.logs[-1]
    again = GameState(BOATHOUSE, 3, dealer=log.dealer)
    again.start_deal(log.deck, seed=log.seed)
    for text in log.actions:
        again.apply_text(text)
    assert again.hands == game.hands and again.stock == game.stock


# ----- seven and eight seats -------------------------------------------------------------

TWO_DECKS = Rules(decks=2)


@pytest.mark.parametrize("seats", [MAX_SEATS_ONE_DECK + 1, MAX_SEATS])
def test_seven_or_eight_seats_need_two_decks(seats: int) -> None:
    with pytest.raises(RulesError, match="need two decks"):
        Rules().check_seats(seats)
    TWO_DECKS.check_seats(seats)


def test_no_table_has_more_than_eight_seats() -> None:
    assert MAX_SEATS == 8
    with pytest.raises(RulesError, match="2 to 8 seats"):
        TWO_DECKS.check_seats(MAX_SEATS + 1)


@pytest.mark.parametrize("seats", [7, 8])
def test_by_seats_deals_seven_cards_to_seven_or_eight_seats(seats: int) -> None:
    game = GameState.new(TWO_DECKS, seats, seed=seats)
    assert [len(hand) for hand in game.hands] == [7] * seats
    assert game.stock_count == 104 - seats * 7 - 1


def test_six_seats_still_get_six_cards_with_two_decks() -> None:
    assert TWO_DECKS.hand_size_for(6) == 6


@pytest.mark.parametrize("seats", [7, 8])
def test_a_big_table_turns_to_the_dealers_left_past_seat_six(seats: int) -> None:
    game = GameState.new(TWO_DECKS, seats, dealer=seats - 2, seed=1)
    assert game.turn == seats - 1
    play(game, f"{seats - 1} draw stock")
    game.apply_text(f"{seats - 1} discard {game.hands[seats - 1][0]}")
    assert game.turn == 0
