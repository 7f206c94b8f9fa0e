"""The published Boathouse (issue 28): the whole hand goes down at once, runs turn the corner.

Option ``melding`` ``whole_hand`` with ``aces`` ``around``, on the ``boathouse`` preset. Each
test is named after the rule it checks (README, "Boathouse").
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from bot_games import positions, random_game
from helpers import play, stacked_game
from rummykit.bots import make_bot
from rummykit.core.actions import Meld
from rummykit.core.cards import JOKER_CODE, Card, card_code
from rummykit.core.deadwood import SEARCHES, GoingOut, goes_out_now
from rummykit.core.deal import DealResult
from rummykit.core.errors import ErrorCode, IllegalActionError
from rummykit.core.meld_search import enumerate_melds
from rummykit.core.movegen import WholeHandMelds
from rummykit.core.presets import find_preset
from rummykit.core.rules import Aces, GoOut, Melding, Rules
from rummykit.core.state import GameState, Phase

BOATHOUSE = find_preset("boathouse")
PUBLISHED = BOATHOUSE.rules.replace(melding=Melding.WHOLE_HAND, aces="around")

# Two seats, dealer 0: seat 1 plays first and draws the 2♠ from the stock. Its eleven cards
# are then 4-5-6♥, three nines, Q-K-A-2♠ (round the corner) and the 7♥ or the 5♣.
GOES_OUT = ["2c 3c 4c 8s Js Td Kd Qc 5s 6d", "4h 5h 6h 9c 9d 9h Qs Ks As 5c"]
LAYS_ALL = ["2c 3c 4c 8s Js Td Kd Qc 5s 6d", "4h 5h 6h 9c 9d 9h Qs Ks As 7h"]
STUCK = ["2c 3c 4c 8s Js Td Kd Qc 5s 6d", "4h 5h 6h 9c 9d 9h Qs Ks 8d 5c"]
STOCK = "2s Jh 3d"


def drawn(rules: Rules, hands: list[str]) -> GameState:
    """Seat 1 has drawn the 2♠ and is to play."""
    return play(stacked_game(rules, hands, up="Th", stock=STOCK), "1 draw stock")


def refused(game: GameState, text: str) -> IllegalActionError:
    """The refusal of ``text``; the game must not change."""
    before = (game.version, [list(hand) for hand in game.hands], list(game.melds))
    with pytest.raises(IllegalActionError) as caught:
        game.apply_text(text)
    assert (game.version, [list(hand) for hand in game.hands], list(game.melds)) == before
    return caught.value


def listed(game: GameState) -> list[str]:
    return [str(action) for action in game.legal_actions()]


def test_the_published_boathouse_is_two_options_of_the_boathouse_preset() -> None:
    offer = BOATHOUSE.offer("melding")
    assert offer is not None
    assert [choice.value for choice in offer.choices] == [Melding.DURING_PLAY, Melding.WHOLE_HAND]
    assert BOATHOUSE.rules.melding is Melding.DURING_PLAY  # the first rule text's Boathouse
    assert "whole hand" in BOATHOUSE.summary
    assert PUBLISHED.stock_with_discard and PUBLISHED.go_out is GoOut.DISCARD


def test_the_whole_hand_goes_down_in_one_turn_and_the_last_card_is_discarded() -> None:
    game = drawn(PUBLISHED, GOES_OUT)
    play(game, "1 meld 4h 5h 6h", "1 meld 9c 9d 9h", "1 meld Qs Ks As 2s", "1 discard 5c")
    assert game.phase is Phase.OVER
    assert game.hands[1] == []
    assert [meld.text for meld in game.melds] == ["4h 5h 6h", "9c 9d 9h", "Qs Ks As 2s"]


def test_a_meld_that_leaves_cards_no_meld_can_hold_is_refused() -> None:
    game = drawn(PUBLISHED, STUCK)  # Q♠ K♠ 2♠ 8♦ 5♣ would stay loose
    error = refused(game, "1 meld 9c 9d 9h")
    assert error.code == ErrorCode.WHOLE_HAND_ONLY
    assert error.reason == "whole_hand_meld"
    assert "9♣ 9♦ 9♥" in error.message and "8 cards" in error.message
    assert not [text for text in listed(game) if " meld " in text]
    play(game, "1 discard 8d")  # a plain turn: draw and discard, nothing laid


def test_runs_turn_the_corner_only_with_aces_around() -> None:
    low_or_high = PUBLISHED.replace(aces="low_or_high")
    game = drawn(low_or_high, GOES_OUT)
    assert refused(game, "1 meld 4h 5h 6h").reason == "whole_hand_meld"
    assert refused(game, "1 meld Qs Ks As 2s").reason == "run_no_corner"
    game = drawn(PUBLISHED, GOES_OUT)
    play(game, "1 meld Qs Ks As 2s")


def test_a_going_out_begun_is_finished_before_the_discard() -> None:
    game = play(drawn(PUBLISHED, GOES_OUT), "1 meld 4h 5h 6h")
    error = refused(game, "1 discard 5c")
    assert error.reason == "whole_hand_unfinished"
    assert "5♣" in error.message
    assert listed(game) == ["1 meld 9c 9d 9h", "1 meld Qs Ks As 2s"]


def test_nothing_is_laid_off_not_even_on_your_own_meld() -> None:
    game = play(drawn(PUBLISHED, LAYS_ALL), "1 meld 4h 5h 6h")
    error = refused(game, "1 layoff 7h 0")
    assert error.reason == "whole_hand_no_layoff"
    assert "7♥" in error.message
    assert not [text for text in listed(game) if "layoff" in text]


def test_with_go_out_any_the_whole_hand_may_go_down_with_no_discard() -> None:
    rules = PUBLISHED.replace(go_out="any")
    game = drawn(rules, LAYS_ALL)
    play(game, "1 meld 4h 5h 6h 7h", "1 meld 9c 9d 9h", "1 meld Qs Ks As 2s")
    assert game.phase is Phase.OVER and game.hands[1] == []


def test_the_meld_limit_does_not_stop_a_whole_hand_going_out() -> None:
    game = drawn(PUBLISHED.replace(melds_per_turn=1), GOES_OUT)
    play(game, "1 meld 4h 5h 6h", "1 meld 9c 9d 9h", "1 meld Qs Ks As 2s", "1 discard 5c")
    assert game.phase is Phase.OVER
    during_play = drawn(BOATHOUSE.rules.replace(melds_per_turn=1, aces="around"), GOES_OUT)
    play(during_play, "1 meld 4h 5h 6h")
    assert refused(during_play, "1 meld 9c 9d 9h").reason == "meld_limit"


def test_a_deep_take_is_allowed_only_to_go_out_with_it() -> None:
    rules = PUBLISHED.replace(discard_take="any", stock_with_discard=False)
    seat_0 = "2c 3c 4c 8s Js Td Kd Qc 5s 7h"
    turns = ("1 draw stock", "1 discard 2s", "0 draw stock", "0 discard 7h")  # pile: 2♠ 7♥
    game = play(stacked_game(rules, [seat_0, GOES_OUT[1]], up="Th", stock=STOCK), *turns)
    stuck = play(stacked_game(rules, [seat_0, STUCK[1]], up="Th", stock=STOCK), *turns)
    assert refused(stuck, "1 draw discard 2").reason == "deep_card_useless"
    assert "1 draw discard 2" in listed(game)
    play(game, "1 draw discard 2")
    assert refused(game, "1 discard 5c").reason == "must_use_taken"
    play(game, "1 meld Qs Ks As 2s", "1 meld 4h 5h 6h 7h", "1 meld 9c 9d 9h", "1 discard 5c")
    assert game.phase is Phase.OVER


def test_going_out_whole_is_going_rummy() -> None:
    game = drawn(PUBLISHED.replace(rummy_bonus="double"), GOES_OUT)
    play(game, "1 meld 4h 5h 6h", "1 meld 9c 9d 9h", "1 meld Qs Ks As 2s", "1 discard 5c")
    assert game.summaries[-1].result is DealResult.RUMMY


# ----- the search behind it, against a plain one ------------------------------------------


@functools.cache
def fewest_loose(codes: tuple[int, ...], aces: Aces) -> int:
    """The fewest cards of ``codes`` (sorted) that no meld holds, by plain recursion (every
    meld of the hand, remembered by the cards left)."""
    if not codes:
        return 0
    first = codes[0]
    best = 1 + fewest_loose(codes[1:], aces)
    for naturals, jokers in enumerate_melds(codes, aces, substitutes=True):
        if first not in naturals and not (first == JOKER_CODE and jokers):
            continue
        rest = list(codes)
        for code in (*naturals, *[JOKER_CODE] * jokers):
            rest.remove(code)
        best = min(best, fewest_loose(tuple(rest), aces))
    return best


def plainly_goes_out(codes: list[int], aces: Aces, must_discard: bool, using: int | None) -> bool:
    whole = not must_discard and fewest_loose(tuple(codes), aces) == 0
    for position, code in enumerate(codes):
        if code == using and codes.count(code) == 1:
            continue
        if fewest_loose(tuple(codes[:position] + codes[position + 1 :]), aces) == 0:
            return True
    return whole


TWO_DECKS = [*range(JOKER_CODE)] * 2 + [JOKER_CODE] * 2


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(TWO_DECKS), min_size=1, max_size=9),
    st.sampled_from(list(Aces)),
    st.booleans(),
    st.booleans(),
)
# Two copies of a card and a joker: Ac Ac 2c 2c 3c X melds whole only as Ac 2c 3c and
# Ac 2c X, a joker standing for a card the hand holds (found by a random run).
@example([0, 0, 4, 4, 8, JOKER_CODE], Aces.LOW, False, False)
@example([0, 4, 4, 8, 12, JOKER_CODE], Aces.LOW, False, False)
# One deck: after 3c 4c 5c, Ac 2c X=3c goes out with a joker for a card that was held.
@example([0, 4, 8, 12, 16, JOKER_CODE], Aces.LOW, False, False)
def test_going_out_whole_agrees_with_a_plain_search(
    codes: list[int], aces: Aces, must_discard: bool, with_using: bool
) -> None:
    codes = sorted(codes)
    assume(all(codes.count(code) <= 2 for code in codes))
    using = codes[0] if with_using else None
    cards = [Card.from_code(code) for code in codes]
    used = Card.from_code(using) if using is not None else None
    expected = plainly_goes_out(codes, aces, must_discard, using)
    assert goes_out_now(cards, aces, must_discard=must_discard, using=used) is expected
    if len(codes) > 3:
        going_out = GoingOut(cards, aces)
        for naturals, jokers in enumerate_melds(codes, aces, substitutes=True):
            rest = list(codes)
            for code in (*naturals, *[JOKER_CODE] * jokers):
                rest.remove(code)
            plain = plainly_goes_out(rest, aces, must_discard, None)
            assert going_out.after(naturals, jokers, must_discard=must_discard) is plain
        assert_melds_out_are_those_after_allows(going_out, codes, aces, must_discard)


def assert_melds_out_are_those_after_allows(
    going_out: GoingOut, codes: list[int], aces: Aces, must_discard: bool
) -> None:
    """The one search for every meld that keeps the hand able to go out finds exactly the
    weighed melds that ``after`` (one search a meld) allows."""
    allowed = {
        (naturals, jokers)
        for naturals, jokers in enumerate_melds(codes, aces, substitutes=True)
        if GoingOut.weighs(naturals, jokers)
        and going_out.after(naturals, jokers, must_discard=must_discard)
    }
    assert going_out.melds_out(must_discard=must_discard) == allowed


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(TWO_DECKS), min_size=4, max_size=16),
    st.sampled_from(list(Aces)),
    st.booleans(),
)
def test_every_meld_that_keeps_a_hand_going_out_is_found_in_one_search(
    codes: list[int], aces: Aces, must_discard: bool
) -> None:
    codes = sorted(codes)
    assume(all(codes.count(code) <= 2 for code in codes))
    going_out = GoingOut([Card.from_code(code) for code in codes], aces)
    assert_melds_out_are_those_after_allows(going_out, codes, aces, must_discard)
    # the second search (met in play past the first's budget) finds the same melds alone
    solver = going_out._solvers[0]
    allowance = 1 - going_out._free
    if allowance >= 0:
        solver.budget = 10**6
        first = solver.usable(going_out._state, allowance, must_discard, {})
        solver.budget = 10**6
        second = solver.usable_most_constrained(going_out._state, allowance, must_discard, {})
        assert first == second


def test_the_search_for_every_meld_gives_up_past_its_budget() -> None:
    # two copies of a whole suit and two jokers: thousands of ways to go out
    codes = sorted([*range(0, 52, 4)] * 2 + [JOKER_CODE] * 2)
    going_out = GoingOut([Card.from_code(code) for code in codes], Aces.LOW)
    assert going_out.melds_out(must_discard=False, budget=50) is None
    found = going_out.melds_out(must_discard=False)
    assert found is not None and len(found) > 50


@st.composite
def meldable_hands(draw: st.DrawFn) -> list[int]:
    """A hand made of melds (runs up to eight long, sets) and up to three cards more, jokers
    among them: hands that go out, or nearly, with runs to split."""
    codes: list[int] = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            suit = draw(st.integers(0, 3))
            length = draw(st.integers(3, 8))
            start = draw(st.integers(1, 14 - length))
            meld = [card_code(rank, suit) for rank in range(start, start + length)]
        else:
            rank = draw(st.integers(1, 13))
            suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
            meld = [card_code(rank, suit) for suit in suits]
        codes += meld
    codes += draw(st.lists(st.sampled_from(TWO_DECKS), max_size=3))
    return sorted(codes)


@settings(max_examples=200, deadline=None)
@given(meldable_hands(), st.sampled_from(list(Aces)), st.booleans(), st.integers(0, 30))
@example([0, 0, 4, 8, 8, JOKER_CODE], Aces.LOW, False, 0)  # Ac 2c 3c and Ac X=2c 3c
def test_large_hands_with_long_runs_go_out_as_a_plain_search_says(
    codes: list[int], aces: Aces, must_discard: bool, using_at: int
) -> None:
    """The whole-hand search meets natural runs three to five long only, and is told which
    card it may not leave over: on hands long enough to hold longer runs (and two copies of a
    card, and jokers) it answers as the plain search over every meld does."""
    assume(all(codes.count(code) <= 2 for code in codes))
    using = codes[using_at % len(codes)]
    cards = [Card.from_code(code) for code in codes]
    expected = plainly_goes_out(codes, aces, must_discard, using)
    assert goes_out_now(cards, aces, must_discard=must_discard, using=Card.from_code(using)) is (
        expected
    )
    assert goes_out_now(cards, aces, must_discard=must_discard) is plainly_goes_out(
        codes, aces, must_discard, None
    )


@pytest.mark.parametrize("search", SEARCHES, ids=["fewest-melds", "most-constrained", "card-order"])
@settings(max_examples=100, deadline=None)
@given(meldable_hands(), st.sampled_from(list(Aces)), st.booleans(), st.integers(0, 30))
@example([0, 0, 4, 4, 8, JOKER_CODE], Aces.LOW, False, 0)  # Ac 2c 3c and Ac 2c X=3c
@example([0, 4, 8, 12, 16, JOKER_CODE], Aces.LOW, True, 0)
# Th Ts Js Ks X: the card held by the fewest melds (Th, in Th Ts X) is the one left over
@example([38, 39, 43, 51, JOKER_CODE], Aces.LOW, False, 0)
def test_each_whole_hand_search_alone_answers_as_a_plain_search(
    search: tuple[int, bool], codes: list[int], aces: Aces, must_discard: bool, using_at: int
) -> None:
    """Every search of the whole-hand question is exact on its own: whichever answers first
    (``GoingOut`` takes them in turn), the answer is the same. Small hands are answered within
    the first budget, so in play the later searches are met only on large ones."""
    assume(all(codes.count(code) <= 2 for code in codes))
    using = codes[using_at % len(codes)]
    cards = [Card.from_code(code) for code in codes]
    going_out = GoingOut(cards, aces, searches=[search])
    expected = plainly_goes_out(codes, aces, must_discard, using)
    assert going_out.now(must_discard=must_discard, using=Card.from_code(using)) is expected
    expected = plainly_goes_out(codes, aces, must_discard, None)
    assert going_out.now(must_discard=must_discard) is expected
    for naturals, jokers in enumerate_melds(codes, aces, substitutes=True)[:8]:
        rest = list(codes)
        for code in (*naturals, *[JOKER_CODE] * jokers):
            rest.remove(code)
        plain = plainly_goes_out(rest, aces, must_discard, None)
        assert going_out.after(naturals, jokers, must_discard=must_discard) is plain


def meld_group(meld: Meld) -> tuple[tuple[int, ...], int]:
    """A meld action's natural codes (sorted) and joker count, as ``enumerate_melds`` gives."""
    naturals = tuple(sorted(card.code for card in meld.cards if not card.is_joker))
    return naturals, len(meld.cards) - len(naturals)


@pytest.mark.parametrize("seed", range(4))
def test_the_whole_hand_meld_list_asks_one_search_and_answers_as_one_a_meld(seed: int) -> None:
    """In whole-hand games under random rules (two decks, jokers), for every meld of every
    hand that can go out, the list's answer (``every_allowed``: one search for all melds) is
    ``allows``'s (one search a meld)."""
    game, rng = random_game(seed=seed, seats=2 + seed % 3, melding="whole_hand", decks=2)
    asked = 0
    for position in positions(game, [make_bot("strong")] * len(game.hands), rng):
        if position.phase is not Phase.PLAY:
            continue
        melds = WholeHandMelds.of_position(position)
        if melds.open:
            every = melds.every_allowed()
            codes = [card.code for card in position.hands[position.turn]]
            for naturals, jokers in enumerate_melds(codes, position.rules.aces, substitutes=True):
                assert every(naturals, jokers) is melds.allows(naturals, jokers)
                asked += 1
        # the legal list (its groups remembered by hand) holds exactly the melds allowed here
        listed = [action for action in position.legal_actions() if isinstance(action, Meld)]
        hand = position.hands[position.turn]
        single = len(hand) if position.rules.go_out is GoOut.DISCARD else None
        expected = {
            group
            for group in enumerate_melds(
                [card.code for card in hand], position.rules.aces, substitutes=True
            )
            if melds.open and len(group[0]) + group[1] != single and melds.allows(*group)
        }
        assert {meld_group(action) for action in listed} == expected
    assert asked
