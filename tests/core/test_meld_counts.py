"""Fixed counts of melds, checked against the engine in independent ways (like perft).

One deck holds, as sets of cards:
- sets: 13 ranks x (four sets of three + one set of four) = 65;
- runs with aces low: per suit, 11 + 10 + ... + 1 = 66 windows of 3 to 13 ranks in A..K,
  so 264 and 329 melds in all;
- aces low or high: 14 positions (ace low and high), windows of 3 to 13 cards, 12 + 11 + ...
  + 2 = 77 per suit, less one because A..K and 2..A are the same thirteen cards: 76, so
  304 and 369 in all;
- around: every arc of 3 to 12 ranks from each of 13 starts (130) plus the whole suit (1):
  131 per suit, 524 and 589 in all.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from helpers import stacked_game
from rummykit.core.actions import Meld
from rummykit.core.cards import NATURAL_CARDS, Card, Rank, Suit
from rummykit.core.errors import IllegalActionError
from rummykit.core.meld_search import enumerate_melds
from rummykit.core.melds import arrange_meld
from rummykit.core.rules import Aces, Rules

MELD_COUNTS = {Aces.LOW: 329, Aces.LOW_OR_HIGH: 369, Aces.AROUND: 589}

MeldCards = frozenset[Card]


def independent_sets() -> set[MeldCards]:
    """Every set of one deck: three or four of the four suits of a rank."""
    found: set[MeldCards] = set()
    for rank in Rank:
        suits = [Card(rank, suit) for suit in Suit]
        for size in (3, 4):
            found.update(frozenset(group) for group in combinations(suits, size))
    return found


def rank_of(position: int) -> Rank:
    """Positions 1..13 are A..K; 14 is the ace again (high), 15 the two, and so on."""
    return Rank((position - 1) % 13 + 1)


def run_candidates() -> list[tuple[Suit, int, int]]:
    """Every (suit, first position, length) of a run of 3 to 13 ranks round the circle."""
    return [
        (suit, start, length) for suit in Suit for start in range(1, 14) for length in range(3, 14)
    ]


def is_run_under(aces: Aces, start: int, length: int) -> bool:
    """Whether positions start..start+length-1 make a run under the aces rule."""
    end = start + length - 1
    if aces is Aces.LOW:
        return end <= 13
    if aces is Aces.LOW_OR_HIGH:
        return end <= 14  # the ace may sit at 1 or at 14, never both (length <= 13)
    return True


def candidate_cards(suit: Suit, start: int, length: int) -> MeldCards:
    return frozenset(Card(rank_of(position), suit) for position in range(start, start + length))


def independent_melds(aces: Aces) -> set[MeldCards]:
    runs = {
        candidate_cards(suit, start, length)
        for suit, start, length in run_candidates()
        if is_run_under(aces, start, length)
    }
    return independent_sets() | runs


def accepts(group: list[Card] | tuple[Card, ...] | frozenset[Card], aces: Aces) -> bool:
    try:
        arrange_meld(list(group), (), aces)
    except IllegalActionError as error:
        assert error.code == "invalid_meld"
        return False
    return True


@pytest.mark.parametrize(("aces", "count"), MELD_COUNTS.items())
def test_the_independent_count_of_melds_in_one_deck(aces: Aces, count: int) -> None:
    assert len(independent_melds(aces)) == count


@pytest.mark.parametrize(("aces", "count"), MELD_COUNTS.items())
def test_enumerate_melds_finds_every_meld_of_a_whole_deck(aces: Aces, count: int) -> None:
    listed = [
        naturals
        for naturals, jokers in enumerate_melds([card.code for card in NATURAL_CARDS], aces)
        if jokers == 0
    ]
    found = {frozenset(Card.from_code(code) for code in naturals) for naturals in listed}
    assert all(len(set(naturals)) == len(naturals) for naturals in listed)
    assert len(found) == count
    assert found == independent_melds(aces)


@pytest.mark.parametrize(("aces", "count"), MELD_COUNTS.items())
def test_arrange_meld_accepts_exactly_the_sets_and_runs_of_a_whole_deck(
    aces: Aces, count: int
) -> None:
    rng = random.Random(int(count))
    accepted: set[MeldCards] = set()
    for rank in Rank:
        suits = [Card(rank, suit) for suit in Suit]
        for size in (3, 4):
            for trio_or_four in combinations(suits, size):
                if accepts(trio_or_four, aces):
                    accepted.add(frozenset(trio_or_four))
    for suit, start, length in run_candidates():
        run = list(candidate_cards(suit, start, length))
        rng.shuffle(run)  # the order the cards are given in must not matter
        if accepts(run, aces):
            accepted.add(frozenset(run))
        else:
            assert not is_run_under(aces, start, length), run
    assert len(accepted) == count
    assert accepted == independent_melds(aces)


@pytest.mark.parametrize("aces", list(Aces))
def test_arrange_meld_accepts_a_three_card_group_only_if_it_is_a_meld(aces: Aces) -> None:
    melds = independent_melds(aces)
    accepted = {
        frozenset(group) for group in combinations(NATURAL_CARDS, 3) if accepts(group, aces)
    }
    assert accepted == {group for group in melds if len(group) == 3}


@pytest.mark.parametrize("aces", list(Aces))
def test_arrange_meld_refuses_a_sample_of_groups_that_are_no_meld(aces: Aces) -> None:
    melds = independent_melds(aces)
    rng = random.Random(2024)
    checked = 0
    for _ in range(4000):
        size = rng.choice((4, 4, 5, 6))
        group = frozenset(rng.sample(NATURAL_CARDS, size))
        assert accepts(sorted(group), aces) == (group in melds), sorted(group)
        checked += 1
    # Near misses: every meld with one card changed. In a run the middle card changes suit
    # (a gap and two suits); in a set one card changes rank (two ranks in two suits).
    for group in melds:
        cards = sorted(group)
        runs = all(card.suit is cards[0].suit for card in cards)
        changed = cards[len(cards) // 2]
        assert changed.suit is not None and changed.rank is not None
        if runs:
            other_suit = Suit((changed.suit + 1) % 4)
            replacement = Card(changed.rank, other_suit)
        else:
            replacement = Card(Rank(changed.rank % 13 + 1), changed.suit)
        near_miss = [card for card in cards if card is not changed] + [replacement]
        assert not accepts(near_miss, aces), near_miss
        checked += 1
    assert checked > 4000


# ----- melds among a position's legal actions ------------------------------------------


def legal_melds(hand: str, aces: Aces = Aces.LOW, stock: str = "Qd") -> list[MeldCards]:
    game = stacked_game(
        Rules(aces=aces),
        ["2c 5d 8s Js 3c Td Kd Qs 4s 6d", hand],
        up="8c",
        stock=stock,
    )
    game.apply_text("1 draw stock")
    return [frozenset(action.cards) for action in game.legal_actions() if isinstance(action, Meld)]


def windows(suit: str, ranks: str, sizes: range) -> set[MeldCards]:
    letters = ranks.split()
    return {
        frozenset(Card.parse(letter + suit) for letter in letters[first : first + size])
        for size in sizes
        for first in range(len(letters) - size + 1)
    }


def test_legal_actions_list_every_run_within_five_hearts_in_a_row() -> None:
    melds = legal_melds("4h 5h 6h 7h 8h 2d 9d Jc 3s Kc")
    # Three runs of three, two of four and the run of five.
    expected = windows("h", "4 5 6 7 8", range(3, 6))
    assert len(expected) == 6
    assert len(melds) == 6
    assert set(melds) == expected


def test_legal_actions_list_every_set_within_four_of_a_kind() -> None:
    melds = legal_melds("9c 9d 9h 9s 2d 5h Jc 3s Kc 7d")
    assert len(melds) == 5
    assert set(melds) == {
        frozenset(Card.parse(text) for text in group)
        for size in (3, 4)
        for group in combinations(["9c", "9d", "9h", "9s"], size)
    }


@pytest.mark.parametrize(
    ("aces", "count"), [(Aces.LOW, 1), (Aces.LOW_OR_HIGH, 2), (Aces.AROUND, 6)]
)
def test_legal_actions_list_the_runs_queen_to_three_allows_under_each_aces_rule(
    aces: Aces, count: int
) -> None:
    # Q K A 2 3 of hearts: A-2-3 always; Q-K-A too when aces may be high; round the
    # corner also K-A-2, Q-K-A-2, K-A-2-3 and Q-K-A-2-3.
    melds = legal_melds("Qh Kh Ah 2h 3h 5c 9d Jc 7s Tc", aces)
    assert len(melds) == count
    assert frozenset(Card.parse(text) for text in ("Ah", "2h", "3h")) in melds


def test_legal_actions_list_each_meld_of_a_hand_once() -> None:
    # Six runs within 4h-8h, and one set: 7c 7d 7h (the 7♠ is not held).
    melds = legal_melds("4h 5h 6h 7h 8h 7c 7d 2s Jc Kc")
    assert len(melds) == len(set(melds)) == 7
