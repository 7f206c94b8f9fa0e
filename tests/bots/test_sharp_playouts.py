"""The master's playout policy: basic play that keeps its partnered cards.

``partnered`` is checked against the engine's own meld rules in both directions, and the
policy must play legally under random rules of every kind and differ from basic play only in
which loose card it throws.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from bot_games import positions, random_game
from rummykit.bots import RandomBot, StrongBot
from rummykit.bots.basic import basic_play
from rummykit.bots.evaluate import partnered
from rummykit.bots.playout import greedy_action, sharp_action
from rummykit.core.actions import Action, Discard, Knock
from rummykit.core.cards import JOKER, Card, Rank, Suit, parse_cards, standard_deck
from rummykit.core.deadwood import best_partition
from rummykit.core.errors import IllegalActionError
from rummykit.core.melds import arrange_meld
from rummykit.core.rules import Aces, Rules
from rummykit.core.state import Phase

NATURALS = standard_deck(1, 0)


def makes_a_meld_with_a_third(first: Card, second: Card, aces: Aces) -> bool:
    """The oracle: some natural third card makes a legal meld of the three (the engine's rule)."""
    for third in NATURALS:
        if third in (first, second):
            continue
        try:
            arrange_meld([first, second, third], (), aces)
        except IllegalActionError:
            continue
        return True
    return False


@given(
    st.sampled_from(NATURALS),
    st.lists(st.sampled_from(NATURALS), max_size=6),
    st.sampled_from(list(Aces)),
)
def test_a_card_is_partnered_exactly_when_a_third_card_would_make_a_meld(
    card: Card, others: list[Card], aces: Aces
) -> None:
    rules = Rules(aces=aces)
    expected = any(makes_a_meld_with_a_third(card, other, aces) for other in others)
    assert partnered(card, others, rules) == expected


def test_partners_under_each_aces_rule() -> None:
    ace, king, two = parse_cards(["Ah", "Kh", "2h"])
    assert not partnered(ace, [king], Rules(aces=Aces.LOW))
    assert partnered(ace, [king], Rules(aces=Aces.LOW_OR_HIGH))
    assert partnered(king, [two], Rules(aces=Aces.AROUND))  # K-A-2 turns the corner
    assert not partnered(king, [two], Rules(aces=Aces.LOW_OR_HIGH))


def test_a_joker_is_always_kept_and_never_counts_as_a_partner() -> None:
    seven, nine_of_clubs = parse_cards(["7h", "9c"])
    rules = Rules(jokers=2)
    assert partnered(JOKER, [], rules)
    assert not partnered(seven, [JOKER, nine_of_clubs], rules)


def throw_of(action: Action) -> Card | None:
    return action.card if isinstance(action, Discard | Knock) else None


def test_the_sharp_play_throws_a_loose_card_before_a_dearer_partnered_one() -> None:
    """Kings paired, a loose nine: basic throws a king, the sharp play the nine."""
    rules = Rules()
    hand = parse_cards(["Kh", "Ks", "9c", "2d", "3d", "4d", "6s", "8h"])
    legal = [Discard(0, card) for card in hand]
    assert throw_of(basic_play(hand, rules, legal)) == Card(Rank.KING, Suit.SPADES)
    assert throw_of(basic_play(hand, rules, legal, keep_partners=True)) == Card(
        Rank.NINE, Suit.CLUBS
    )


def test_with_every_loose_card_partnered_the_sharp_play_throws_the_dearest() -> None:
    rules = Rules()
    hand = parse_cards(["Kh", "Ks", "5c", "5h", "2d", "3d", "4d"])
    legal = [Discard(0, card) for card in hand]
    chosen = throw_of(basic_play(hand, rules, legal, keep_partners=True))
    assert chosen == throw_of(basic_play(hand, rules, legal))
    assert chosen is not None and chosen.rank is Rank.KING


def test_the_sharp_playout_plays_legally_and_differs_from_basic_only_in_its_throw() -> None:
    """Under random rules of every kind, at every position of deals between other bots:
    the sharp action is legal; it draws, melds and lays off as basic play does."""
    checked = throws_differ = 0
    for seed in range(12):
        seats = 2 + seed % 5
        game, rng = random_game(300 + seed, seats)
        for position in positions(game, [StrongBot(), RandomBot()] * 3, rng):
            sharp, basic = sharp_action(position), greedy_action(position)
            assert sharp in position.legal_actions()
            if throw_of(basic) is None or position.phase is Phase.DRAW:
                assert sharp == basic
            elif sharp != basic:
                assert throw_of(sharp) is not None  # a throw too (a knock or not)
                throws_differ += 1
            checked += 1
    assert checked > 300 and throws_differ > 10


def test_random_hands_keep_the_invariants_of_the_sharp_discard() -> None:
    """Over random hands the sharp throw is a loose card whenever the deadwood has one."""
    rng = random.Random(8)
    rules = Rules()
    checked = 0
    for _ in range(300):
        hand = rng.sample(NATURALS, 8)
        legal = [Discard(0, card) for card in hand]
        thrown = throw_of(basic_play(hand, rules, legal, keep_partners=True))
        deadwood = best_partition(hand, rules).deadwood
        loose = [card for card in deadwood if not partnered(card, deadwood, rules)]
        if loose:
            assert thrown in loose
            checked += 1
    assert checked > 50
