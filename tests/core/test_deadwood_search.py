"""Least deadwood against a plain search: the same value, the same split, the same discard.

The engine's search weighs fewer melds than a hand makes (long runs that two shorter ones
hold, ``_searched_melds``) and cuts branches that cannot beat the best split found so far
(``_Solver.search``). Neither may change an answer, not even which of two equally good
splits is chosen, since the bots shed the deadwood of that split. The oracle here is the
search without either: every meld the hand makes, every branch followed to its end, on
hands of two decks with up to four jokers and long runs with gaps (where both cuts bite).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from rummykit.core.cards import JOKER_CODE, Card, parse_cards, standard_deck
from rummykit.core.deadwood import best_discard, best_partition, deadwood_value
from rummykit.core.meld_search import enumerate_melds
from rummykit.core.rules import Aces, Rules

Melds = tuple[tuple[tuple[int, ...], int], ...]


def plain_least_deadwood(codes: tuple[int, ...], rules: Rules) -> tuple[int, Melds]:
    """(least deadwood, the melds of the first best split) by trying every split.

    At each position the lowest card left is deadwood or goes into one of the melds it is the
    lowest card of, in the order the hand's melds are listed; a later choice replaces an
    earlier one only when strictly better (the engine's rule for equal splits).
    """
    # every legal meld: a joker may stand in for a card the hand holds
    melds = enumerate_melds(codes, rules.aces, substitutes=True)

    @cache
    def search(left: tuple[int, ...]) -> tuple[int, Melds]:
        naturals = [code for code in left if code != JOKER_CODE]
        if not naturals:
            return len(left) * rules.card_points(JOKER_CODE), ()
        lowest = naturals[0]
        rest = list(left)
        rest.remove(lowest)
        value, chosen = search(tuple(rest))
        best = (rules.card_points(lowest) + value, chosen)
        held = Counter(left)
        for naturals_codes, jokers in melds:
            if min(naturals_codes) != lowest:
                continue
            wanted = Counter(naturals_codes)
            wanted[JOKER_CODE] += jokers
            if any(held[code] < count for code, count in wanted.items()):
                continue
            value, chosen = search(tuple(sorted((held - wanted).elements())))
            if value < best[0]:
                best = (value, ((naturals_codes, jokers), *chosen))
        return best

    return search(codes)


@st.composite
def crowded_hands(draw: st.DrawFn) -> tuple[list[Card], Rules]:
    """Two-deck hands of runs with gaps in a few suits, loose cards and up to four jokers."""
    rules = Rules(
        aces=draw(st.sampled_from(list(Aces))),
        decks=2,
        jokers=2,
        ace_points=draw(st.sampled_from([1, 11, 15])),
        joker_points=draw(st.sampled_from([0, 15, 25])),
    )
    deck = standard_deck(2, rules.jokers)
    hand: list[Card] = []
    for _ in range(draw(st.integers(1, 3))):
        suit = draw(st.sampled_from("cdhs"))
        start = draw(st.integers(0, 12))
        kept = draw(st.lists(st.booleans(), min_size=4, max_size=11))
        hand.extend(
            Card.parse("A23456789TJQK"[(start + step) % 13] + suit)
            for step, keep in enumerate(kept)
            if keep
        )
    hand.extend(draw(st.lists(st.sampled_from(deck), max_size=8)))
    hand.extend(Card.parse("X") for _ in range(draw(st.integers(0, 4))))
    most = Counter(deck)
    allowed: list[Card] = []
    for item in hand:  # at most as many of a card as the decks hold
        if allowed.count(item) < most[item]:
            allowed.append(item)
    return allowed[:20], rules


@settings(max_examples=150, deadline=None)
@given(crowded_hands())
def test_least_deadwood_is_the_plain_searchs_value_and_split(
    setup: tuple[list[Card], Rules],
) -> None:
    hand, rules = setup
    codes = tuple(sorted(card.code for card in hand))
    value, chosen = plain_least_deadwood(codes, rules)
    best = best_partition(hand, rules)
    assert best.value == value == deadwood_value(hand, rules), hand
    laid = [
        (
            tuple(sorted(c.code for c in meld.cards if not c.is_joker)),
            sum(c.is_joker for c in meld.cards),
        )
        for meld in best.melds
    ]
    assert laid == list(chosen), hand


@settings(max_examples=100, deadline=None)
@given(crowded_hands())
# the hand less the A♣ needs the joker in its place (K♣ X 2♣ round the corner): the search of
# the whole hand once left that run out, and threw the K♣
@example(
    (
        [Card.parse(text) for text in ("Kc", "Ac", "2c", "X")],
        Rules(aces=Aces.AROUND, decks=2, jokers=2, ace_points=11, joker_points=0),
    )
)
def test_the_best_discard_is_the_plain_searchs(setup: tuple[list[Card], Rules]) -> None:
    hand, rules = setup
    assume(hand)
    keys = []
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        left, _ = plain_least_deadwood(tuple(sorted(c.code for c in rest)), rules)
        keys.append((left, -rules.card_points(card.code), -card.code))
    left, _, code = min(keys)
    assert best_discard(hand, rules) == (Card.from_code(-code), left), hand


def test_a_long_run_with_jokers_that_no_two_runs_hold_is_still_weighed() -> None:
    # Two jokers join 5-6-7 and the ten of hearts into one run of six; cut anywhere, one part
    # holds a single natural card, which is no meld: the long run alone melds every card.
    hand = parse_cards(["5h", "6h", "7h", "Th", "X", "X"])
    best = best_partition(hand, Rules(decks=2, jokers=2))
    assert (best.value, [meld.text for meld in best.melds]) == (0, ["5h 6h 7h X=8h X=9h Th"])


@st.composite
def dealt_hands(draw: st.DrawFn) -> tuple[list[Card], Rules]:
    """One-deck hands without jokers, as most deals give: the searches' fast paths (no meld
    at all, or melds that share no card) are taken for most of them."""
    rules = Rules(
        aces=draw(st.sampled_from(list(Aces))),
        ace_points=draw(st.sampled_from([1, 11, 15])),
    )
    deck = standard_deck(1, 0)
    size = draw(st.integers(1, 13))
    hand = draw(st.lists(st.sampled_from(deck), min_size=size, max_size=size, unique=True))
    return hand, rules


@settings(max_examples=300, deadline=None)
@given(dealt_hands())
def test_a_dealt_hands_least_deadwood_and_best_discard_are_the_plain_searchs(
    setup: tuple[list[Card], Rules],
) -> None:
    hand, rules = setup
    codes = tuple(sorted(card.code for card in hand))
    value, _ = plain_least_deadwood(codes, rules)
    assert deadwood_value(hand, rules) == value == best_partition(hand, rules).value, hand
    keys = []
    for card in hand:
        rest = [other for other in hand if other != card]
        left, _ = plain_least_deadwood(tuple(sorted(c.code for c in rest)), rules)
        keys.append((left, -rules.card_points(card.code), -card.code))
    left, _, code = min(keys)
    assert best_discard(hand, rules) == (Card.from_code(-code), left), hand
