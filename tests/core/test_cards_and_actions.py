"""Card and action notation (docs/RECORD.md § Cards, § Actions) and the legal-action view."""

from __future__ import annotations

import copy
import pickle

import pytest

from helpers import stacked_game
from rummykit.core.actions import (
    Discard,
    Draw,
    DrawSource,
    LayOff,
    Meld,
    action_sort_key,
    parse_action,
)
from rummykit.core.cards import JOKER, NATURAL_CARDS, Card, Rank, Suit, parse_cards
from rummykit.core.errors import InvalidActionError
from rummykit.core.rules import Rules
from rummykit.core.state import GameState

ALL_CARDS = (*NATURAL_CARDS, JOKER)
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


# ----- cards ---------------------------------------------------------------------------


def test_a_whole_deck_holds_52_distinct_natural_cards_and_the_joker() -> None:
    assert len(set(ALL_CARDS)) == 53
    assert [str(card) for card in NATURAL_CARDS[:5]] == ["Ac", "Ad", "Ah", "As", "2c"]
    assert str(JOKER) == "X"


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_card_reads_back_from_its_canonical_text(card: Card) -> None:
    text = str(card)
    assert Card.parse(text) is card
    # Canonical form: rank letter upper case, suit letter lower case.
    if not card.is_joker:
        assert text[0] in "A23456789TJQK" and text[1] in "cdhs" and len(text) == 2


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_cards_repr_rebuilds_the_same_card(card: Card) -> None:
    assert eval(repr(card), {"Card": Card}) is card


@pytest.mark.parametrize("card", NATURAL_CARDS, ids=str)
def test_every_card_is_read_with_its_suit_symbol_and_in_any_case(card: Card) -> None:
    text = str(card)
    rank, suit = text[0], text[1]
    assert Card.parse(rank + SUIT_SYMBOLS[suit]) is card
    assert Card.parse(text.upper()) is card
    assert Card.parse(text.lower()) is card
    assert Card.parse(rank.lower() + suit.upper()) is card


@pytest.mark.parametrize("suit", "cdhs")
def test_ten_is_read_as_t(suit: str) -> None:
    ten = Card.parse("T" + suit)
    assert Card.parse("10" + suit) is ten
    assert Card.parse("10" + SUIT_SYMBOLS[suit]) is ten
    assert str(Card.parse("10" + suit.upper())) == "T" + suit
    assert ten.rank is Rank.TEN


def test_the_joker_is_written_x_in_either_case() -> None:
    assert Card.parse("X") is JOKER
    assert Card.parse("x") is JOKER
    assert JOKER.is_joker and JOKER.rank is None and JOKER.suit is None


def test_symbols_read_as_their_suits() -> None:
    assert Card.parse("7♣").suit is Suit.CLUBS
    assert Card.parse("7♦").suit is Suit.DIAMONDS
    assert Card.parse("7♥").suit is Suit.HEARTS
    assert Card.parse("7♠").suit is Suit.SPADES
    assert Card.parse("7h").symbol == "7♥"
    assert Card.parse("Th").symbol == "10♥"


def test_a_card_is_one_interned_value_however_it_is_written() -> None:
    assert Card.parse("7h") is Card.parse("7H")
    assert Card.parse("7h") is Card.parse("7♥")
    assert Card.parse("7h") is Card(Rank.SEVEN, Suit.HEARTS)
    assert Card.parse("Th") is Card.parse("10h")


def test_cards_are_immutable() -> None:
    card = Card.parse("7h")
    with pytest.raises(AttributeError):
        card.rank = Rank.EIGHT
    with pytest.raises(AttributeError):
        card.code = 0
    assert card.rank is Rank.SEVEN and str(card) == "7h"


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_a_card_survives_pickling_and_copying_as_the_same_value(card: Card) -> None:
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card
    assert copy.copy(card) is card


def test_cards_order_by_rank_then_suit_with_the_joker_last() -> None:
    shuffled = cards("X Ks 2c Kh Ac 2s")
    assert [str(card) for card in sorted(shuffled)] == ["Ac", "2c", "2s", "Kh", "Ks", "X"]


@pytest.mark.parametrize(
    "text", ["", "7", "1h", "11h", "Zh", "7x", "7hh", "XX", "10", "h7", "Joker"]
)
def test_text_that_is_no_card_is_refused_as_bad_action(text: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        Card.parse(text)
    assert caught.value.code == "bad_action"
    assert isinstance(caught.value, ValueError)


# ----- actions -------------------------------------------------------------------------

CANONICAL_ACTIONS = [
    "0 draw stock",
    "1 draw discard",
    "0 draw discard 3",
    "1 meld 9c 9d 9s",
    "2 meld 5h X=6h 7h",
    "1 meld 5h X 7h",
    "0 meld Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
    "3 layoff Th 0",
    "0 layoff X=8h 0",
    "1 layoff X 12",
    "1 meld 5h X 7h X=8h",
    "0 meld 9c X=9d X=9h",
    "5 discard Kc",
]


@pytest.mark.parametrize("text", CANONICAL_ACTIONS)
def test_every_action_round_trips_through_its_text(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_actions_read_as_the_values_they_name() -> None:
    assert parse_action("0 draw stock") == Draw(0, DrawSource.STOCK)
    assert parse_action("1 draw discard") == Draw(1, DrawSource.DISCARD, 1)
    assert parse_action("0 draw discard 3") == Draw(0, DrawSource.DISCARD, 3)
    assert parse_action("1 meld 9c 9d 9s") == Meld(1, cards("9c 9d 9s"))
    assert parse_action("2 meld 5h X=6h 7h") == Meld(2, cards("5h X 7h"), cards("6h"))
    assert parse_action("0 layoff X=8h 0") == LayOff(0, JOKER, 0, Card.parse("8h"))
    assert parse_action("3 layoff Th 2") == LayOff(3, Card.parse("Th"), 2)
    assert parse_action("5 discard Kc") == Discard(5, Card.parse("Kc"))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("1 draw discard 1", "1 draw discard"),
        ("2 layoff 10h 0", "2 layoff Th 0"),
        ("0 MELD 9C 9♦ 9s", "0 meld 9c 9d 9s"),
        ("0 Draw Stock", "0 draw stock"),
        ("1 meld 5♥ x=6♥ 7H", "1 meld 5h X=6h 7h"),
        ("  4   discard   kc ", "4 discard Kc"),
    ],
)
def test_action_text_is_written_back_in_canonical_form(text: str, canonical: str) -> None:
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "draw stock",
        "0",
        "0 dance",
        "0 draw",
        "0 draw deck",
        "0 draw stock 2",
        "0 draw discard 0",
        "0 draw discard two",
        "0 meld",
        "0 meld 9c 9d 1z",
        "0 meld 7h=8h 9h Th",
        "0 meld X=X 5h 6h",
        "0 layoff 9c",
        "0 layoff 9c first",
        "0 layoff 9c 0 1",
        "0 discard",
        "0 discard 9c 9d",
        "0 discard Q",
        "seat discard Kc",
        # digits to str.isdigit but not to int(), and numbers too long to read
        "² draw stock",
        "0 draw discard ²",
        "0 layoff 9c ①",
        "0 layoff 9c " + "9" * 5000,
        "9" * 5000 + " draw stock",
        "0 layoff 9c -1",
    ],
)
def test_text_that_is_no_action_is_refused_as_bad_action(text: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        parse_action(text)
    assert caught.value.code == "bad_action"
    assert caught.value.message


# ----- legal actions -------------------------------------------------------------------

HANDS = ["2c 5d 8h Js 3c Td Kd Qs 4s 6d", "4h 5h 6h 7h 9c 9d 9h Kc Qd 2s"]


def play_position(rules: Rules | None = None) -> GameState:
    game = stacked_game(rules or Rules(), HANDS, up="8c", stock="9s Ah")
    game.apply_text("1 draw stock")  # seat 1 now holds 4h-7h, 9c 9d 9h 9s
    return game


def test_legal_actions_are_sorted_draws_melds_layoffs_discards() -> None:
    game = play_position()
    game.apply_text("1 meld 4h 5h 6h")
    actions = list(game.legal_actions())
    assert actions == sorted(actions, key=action_sort_key)
    kinds = [type(action).__name__ for action in actions]
    assert kinds == sorted(kinds, key=["Draw", "Meld", "LayOff", "Discard"].index)
    assert {"Meld", "LayOff", "Discard"} <= set(kinds)


def test_legal_actions_are_the_same_for_the_same_position() -> None:
    first, second = play_position(), play_position()
    assert [str(action) for action in first.legal_actions()] == [
        str(action) for action in second.legal_actions()
    ]
    assert list(first.legal_actions()) == list(first.legal_actions())


def test_a_seat_that_must_draw_may_draw_from_the_stock_or_the_discard_pile() -> None:
    game = stacked_game(Rules(), HANDS, up="8c", stock="9s Ah")
    assert [str(action) for action in game.legal_actions()] == [
        "1 draw stock",
        "1 draw discard",
    ]


def test_legal_actions_of_the_played_position_are_exactly_its_melds_and_discards() -> None:
    game = play_position()
    listed = {str(action) for action in game.legal_actions()}
    expected_melds = {
        "1 meld 4h 5h 6h",
        "1 meld 5h 6h 7h",
        "1 meld 4h 5h 6h 7h",
        "1 meld 9c 9d 9h",
        "1 meld 9c 9d 9s",
        "1 meld 9c 9h 9s",
        "1 meld 9d 9h 9s",
        "1 meld 9c 9d 9h 9s",
    }
    expected_discards = {
        f"1 discard {card}"
        for card in ["4h", "5h", "6h", "7h", "9c", "9d", "9h", "9s", "Kc", "Qd", "2s"]
    }
    assert listed == expected_melds | expected_discards


def test_membership_accepts_a_meld_given_in_another_order() -> None:
    legal = play_position().legal_actions()
    assert Meld(1, cards("7h 5h 6h")) in legal
    assert Meld(1, cards("9s 9c 9h 9d")) in legal
    assert parse_action("1 meld 6h 4h 5h 7h") in legal


def test_membership_accepts_a_bare_joker_and_a_joker_that_says_its_card() -> None:
    game = stacked_game(
        Rules(jokers=1),
        ["2c 5d 8h Js 3c Td Kd Qs 4s 6d", "4h 5h X 7h 9c 9d 9h Kc Qd 2s"],
        up="8c",
        stock="9s",
    )
    game.apply_text("1 draw stock")
    legal = game.legal_actions()
    assert parse_action("1 meld 5h X 7h") in legal
    assert parse_action("1 meld 7h X=6h 5h") in legal
    assert parse_action("1 meld 4h 5h X=6h") in legal
    assert parse_action("1 meld 4h 5h X=9h") not in legal
    assert parse_action("1 meld 9c 9d X=9s") in legal
    assert parse_action("1 meld 9c 9d X=9c") not in legal  # the 9♣ is there already


def test_membership_refuses_illegal_actions() -> None:
    legal = play_position().legal_actions()
    assert Meld(1, cards("4h 5h 7h")) not in legal  # not a run: 6h missing
    assert Meld(1, cards("Ah 2h 3h")) not in legal  # not held
    assert Discard(1, Card.parse("As")) not in legal  # not held
    assert Discard(0, Card.parse("2c")) not in legal  # not seat 0's turn
    assert Draw(1, DrawSource.STOCK) not in legal  # already drawn
    assert LayOff(1, Card.parse("8h"), 0) not in legal  # no meld on the table
    assert "1 discard Kc" not in legal  # text is not an action value
    assert Discard(1, Card.parse("Kc")) in legal
