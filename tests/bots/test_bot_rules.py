"""How each bot plays: the rules of thumb it is built on, on positions dealt to order.

Positions are two-seat deals with chosen hands (``helpers.stacked_game``): the dealer is
seat 0, so seat 1 plays first; stacked stock cards are drawn in the order given.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time

import pytest

from bot_games import positions, random_game
from helpers import play, stacked_game
from rummykit.bots import BasicBot, Bot, ExpertBot, RandomBot, StrongBot, make_bot
from rummykit.bots.playout import greedy_action
from rummykit.core.actions import Discard, Draw, DrawSource, LayOff, Meld
from rummykit.core.cards import Card, parse_cards
from rummykit.core.melds import layoff_positions
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.rules import Rules
from rummykit.core.state import DealResult, GameState, Phase

STANDARD = find_preset("standard").rules
CLASSIC = find_preset("classic").rules


def card(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    return sorted(parse_cards(text.split()))


def dealt(rules: Rules, first: str, second: str, up: str, stock: str = "") -> GameState:
    """A two-seat deal: seat 1 (to play first) holds ``first``, seat 0 holds ``second``."""
    return stacked_game(rules, [second, first], up, stock, dealer=0)


def fits_table(game: GameState, held: Card) -> bool:
    """Whether ``held`` could be laid off on some meld on the table (read off the core)."""
    return any(layoff_positions(meld, held, game.rules.aces) for meld in game.melds)


# ----- basic: takes the top discard only to complete a meld -----------------------------

SEVENS = "7h 7c 2s 4d 9c Js Kh 3h 5s Qc"
OTHER_HAND = "Ad Ah As 2d 3d 6d 8d Td Jd 9s"


def test_basic_takes_the_top_discard_that_completes_a_set_in_its_hand() -> None:
    game = dealt(STANDARD, SEVENS, OTHER_HAND, up="7d")
    action = BasicBot().choose(observe(game, 1), random.Random(0))
    assert action == Draw(1, DrawSource.DISCARD)


def test_basic_takes_the_top_discard_that_completes_a_run_in_its_hand() -> None:
    game = dealt(STANDARD, "5h 6h 2s 4d 9c Js Kc 3c 8s Qd", OTHER_HAND, up="7h")
    action = BasicBot().choose(observe(game, 1), random.Random(0))
    assert action == Draw(1, DrawSource.DISCARD)


def test_basic_draws_from_the_stock_when_the_top_discard_completes_nothing() -> None:
    """The K♦ pairs with the K♥ in hand, but two kings are no meld."""
    game = dealt(STANDARD, SEVENS, OTHER_HAND, up="Kd")
    for seed in range(5):
        action = BasicBot().choose(observe(game, 1), random.Random(seed))
        assert action == Draw(1, DrawSource.STOCK)


def test_basic_lays_down_its_meld_and_throws_the_dearest_card_that_belongs_to_nothing() -> None:
    game = play(dealt(STANDARD, SEVENS, OTHER_HAND, up="7d"), "1 draw discard")
    bot = BasicBot()
    meld = bot.choose(observe(game, 1), random.Random(0))
    assert isinstance(meld, Meld) and sorted(meld.cards) == cards("7c 7d 7h")
    game.apply(meld)
    assert bot.choose(observe(game, 1), random.Random(0)) in {
        Discard(1, card("Kh")),
        Discard(1, card("Js")),
        Discard(1, card("Qc")),
    }, "a ten-point card that belongs to nothing"


# ----- strong: safe discards ------------------------------------------------------------

MELDER = "8s 9s Ts 2c 4c 6c 8c Tc Qc Kc"
"""Seat 1: lays the 8♠ 9♠ 10♠ (which takes the J♠ and the 7♠) and throws the K♦ it drew."""
HOLDER_OF_JACK = "Js 2h 4d 6h 3s 5d 7c 9h Ac 8d"
"""Seat 0: the J♠ is its only ten-point card, and it belongs to nothing in its hand."""


def jack_position(rules: Rules, *, table_meld: bool) -> GameState:
    """Seat 0 to play after drawing the 2♦, with or without the 8♠ 9♠ 10♠ on the table."""
    game = dealt(rules, MELDER, HOLDER_OF_JACK, up="Qh", stock="Kd 2d")
    moves = ["1 draw stock", "1 meld 8s 9s Ts"] if table_meld else ["1 draw stock"]
    return play(game, *moves, "1 discard Kd", "0 draw stock")


def test_strong_throws_its_dearest_useless_card_when_nothing_is_on_the_table() -> None:
    game = jack_position(STANDARD.replace(layoff="after_meld"), table_meld=False)
    decision = StrongBot().decide(observe(game, 0))
    assert decision.action == Discard(0, card("Js"))


def test_strong_never_throws_a_card_that_fits_a_meld_on_the_table_while_it_has_another() -> None:
    """It may not lay the J♠ off (under ``after_meld`` it has no meld of its own yet), so it
    keeps it rather than hand it to the next seat, and throws its dearest safe card."""
    game = jack_position(STANDARD.replace(layoff="after_meld"), table_meld=True)
    view = observe(game, 0)
    assert not any(isinstance(action, LayOff) for action in view.legal_actions)
    decision = StrongBot().decide(view)
    assert isinstance(decision.action, Discard)
    assert not fits_table(game, decision.action.card)
    assert decision.action == Discard(0, card("9h"))


def test_strong_keeps_a_card_that_fits_the_table_even_if_the_next_seat_collects_the_rest() -> None:
    """Seat 1 took the 5♥ from the pile and laid 8♠ 9♠ 10♠: strong's 5♣ 5♦ 3♥ 6♥ 7♥ all go
    with that 5♥, but its J♠ and 7♠ go on the table, where seat 1 may lay them off at once."""
    rules = STANDARD.replace(layoff="after_meld", hand_size=6)
    deal = dealt(rules, "8s 9s Ts 2c Kd Qc", "Js 7s 5c 5d 3h 6h", up="5h", stock="7h")
    game = play(deal, "1 draw discard", "1 meld 8s 9s Ts", "1 discard Kd", "0 draw stock")
    decision = StrongBot().decide(observe(game, 0))
    assert isinstance(decision.action, Discard)
    assert decision.action.card not in (card("Js"), card("7s")), decision.reason


def test_strong_discards_never_fit_the_table_while_a_safe_discard_exists() -> None:
    """Over the positions of games played under random rules: whenever strong would discard
    and some legal discard fits no meld on the table, strong's discard fits no meld either.

    Melds are laid during play (under knock rummy the table stays empty)."""
    mixed: list[Bot] = [StrongBot(), BasicBot(), RandomBot()]
    tested = 0
    for seed in range(60):
        seats = 2 + seed % 5
        game, rng = random_game(seed, seats, melding="during_play")
        bots = [mixed[(seat + seed) % 3] for seat in range(seats)]
        for position in positions(game, bots, rng):
            if position.phase is not Phase.PLAY:
                continue
            view = observe(position, position.turn)
            action = StrongBot().decide(view).action
            if not isinstance(action, Discard):
                continue
            discards = [choice for choice in view.legal_actions if isinstance(choice, Discard)]
            safe = [choice for choice in discards if not fits_table(position, choice.card)]
            if not safe or len(safe) == len(discards):
                continue
            tested += 1
            assert not fits_table(position, action.card), (
                f"strong threw the {action.card.symbol}, which fits the table, "
                f"with {', '.join(choice.card.symbol for choice in safe)} safe; "
                f"{game.rules}; melds {[meld.text for meld in position.melds]}"
            )
    assert tested >= 100, "enough positions with both safe and unsafe discards"


# ----- strong: lays off, melds, holds for rummy, sheds the dearest ----------------------


def test_strong_lays_off_its_deadwood() -> None:
    game = jack_position(STANDARD, table_meld=True)
    decision = StrongBot().decide(observe(game, 0))
    assert decision.action == LayOff(0, card("Js"), 0)
    assert "J♠" in decision.reason


SET_OF_SEVENS = "7c 7d 7h 2s 3s 4s 9h Th Jh Kd"
"""Three melds and the K♦: with the 5♣ drawn, two cards short of going out."""


def test_strong_melds_when_going_rummy_pays_nothing() -> None:
    game = play(dealt(STANDARD, SET_OF_SEVENS, OTHER_HAND, up="Qc", stock="5c"), "1 draw stock")
    decision = StrongBot().decide(observe(game, 1))
    assert isinstance(decision.action, Meld)
    laid = sorted(decision.action.cards)
    assert laid in (cards("7c 7d 7h"), cards("2s 3s 4s"), cards("9h Th Jh"))


def test_strong_melds_every_meld_of_its_hand_before_it_discards() -> None:
    game = play(dealt(STANDARD, SET_OF_SEVENS, OTHER_HAND, up="Qc", stock="5c"), "1 draw stock")
    bot = StrongBot()
    laid = []
    while True:
        action = bot.decide(observe(game, 1)).action
        game.apply(action)
        if isinstance(action, Discard):
            break
        assert isinstance(action, Meld)
        laid.append(sorted(action.cards))
    assert sorted(laid) == sorted([cards("7c 7d 7h"), cards("2s 3s 4s"), cards("9h Th Jh")])
    assert action == Discard(1, card("Kd")), "the dearer of the two cards left"


def test_strong_keeps_its_melds_in_hand_when_going_rummy_pays_and_nobody_is_close() -> None:
    """Classic doubles a rummy; two cards short, with both hands full, strong holds on."""
    deal = dealt(CLASSIC, SET_OF_SEVENS, OTHER_HAND, up="Qc", stock="5c")
    game = play(deal, "1 draw stock")
    decision = StrongBot().decide(observe(game, 1))
    assert decision.action == Discard(1, card("Kd"))


USELESS_KING = "2c 2d 3h 3s 4c 4d 5h 6h 8c Kd"
"""Pairs and a run in the making, and two cards that belong to nothing: the K♦ and 8♣."""
USELESS_ACE = "5c 5d 6c 6s 7h 8h Tc Td 3c 9s"
"""Pairs and runs in the making, and the 9♠ that belongs to nothing (the A♠ comes next)."""


def test_strong_throws_the_dearer_of_two_useless_cards() -> None:
    deal = dealt(STANDARD, USELESS_KING, "Ts Js Qs Ks 9d Jd Qh Jc 7s 7d", up="9c", stock="Ah")
    game = play(deal, "1 draw stock")
    decision = StrongBot().decide(observe(game, 1))
    assert decision.action == Discard(1, card("Kd"))


def test_strong_weighs_the_ace_at_what_the_rules_make_it_cost() -> None:
    """The A♠ and the 9♠ both belong to nothing: the ace goes when it costs 11, the nine
    when the ace costs 1."""
    for ace_points, thrown in ((11, "As"), (1, "9s")):
        rules = STANDARD.replace(ace_points=ace_points)
        deal = dealt(rules, USELESS_ACE, "2h 3h 4h Kh Qh Jh 2d 3d Kc Qc", up="Jd", stock="As")
        game = play(deal, "1 draw stock")
        decision = StrongBot().decide(observe(game, 1))
        assert decision.action == Discard(1, card(thrown)), f"ace_points={ace_points}"


def test_strong_takes_the_top_discard_that_makes_a_meld() -> None:
    game = dealt(STANDARD, SEVENS, OTHER_HAND, up="7d")
    decision = StrongBot().decide(observe(game, 1))
    assert decision.action == Draw(1, DrawSource.DISCARD)
    assert "7♦" in decision.reason


def test_strong_decides_only_for_the_seat_to_act() -> None:
    game = dealt(STANDARD, SEVENS, OTHER_HAND, up="7d")
    with pytest.raises(ValueError, match="not this seat's turn"):
        StrongBot().decide(observe(game, 0))


# ----- expert: a search within its time budget ------------------------------------------

BUDGET_MS = 100.0


def test_expert_stops_thinking_soon_after_its_time_budget_runs_out() -> None:
    """The expert is anytime: it plays sampled positions out until its budget is spent. Here
    (six seats, two decks and four jokers, deep pile takes, 55 actions into the deal) one
    playout is slow, so the check between samples alone is not enough; five times the
    budget leaves room for a slow machine."""
    game, rng = random_game(
        2,
        6,
        decks=2,
        jokers=4,
        discard_take="any",
        deep_take_must_use=True,
        stock_with_discard=False,
        melding="during_play",
    )
    position = next(itertools.islice(positions(game, [BasicBot()] * 6, rng), 55, None))
    view = observe(position, position.turn)
    start = time.perf_counter()
    action = ExpertBot(budget_ms=BUDGET_MS).choose(view, random.Random(0))
    elapsed_ms = (time.perf_counter() - start) * 1000
    assert action in view.legal_actions
    assert elapsed_ms < 5 * BUDGET_MS, f"{elapsed_ms:.0f} ms on a {BUDGET_MS:.0f} ms budget"


def test_the_experts_playouts_play_as_basic_does() -> None:
    """Basic play is written once: a playout's move, read off the full position, is the one
    ``basic`` chooses from the seat's observation, under random rules of every kind."""
    checked = 0
    for seed in range(12):
        seats = 2 + seed % 5
        game, rng = random_game(100 + seed, seats)
        for position in positions(game, [StrongBot(), RandomBot()] * 3, rng):
            view = observe(position, position.turn)
            assert greedy_action(position) == BasicBot().choose(view, random.Random(0))
            checked += 1
    assert checked > 300


# ----- knock rummy: basic knocks at 10 or less, strong by the table's usual deadwood ------

KNOCK = find_preset("knock").rules
# Seat 1 holds 4h-7h, 9c 9d 9h and Kc Qd 2s; it draws the K♠, so it keeps 22 loose after
# throwing a king. Seat 0 holds 2c 3c 4c and 59 loose.
KNOCK_FIRST = "4h 5h 6h 7h 9c 9d 9h Kc Qd 2s"
KNOCK_SECOND = "2c 3c 4c 8s Js Td Kd Qs 5s 6d"
# Seat 1 holds three melds once it draws the K♠, and throws it: nothing loose.
KNOCK_LOW = "4h 5h 6h 7h 9c 9d 9h Jc Qc Kc"


def knock_position(first: str, second: str, stock: str = "Ks") -> GameState:
    game = dealt(KNOCK, first, second, "8h", stock)
    game.apply_text("1 draw stock")
    return game


@pytest.mark.parametrize("bot", [BasicBot(), StrongBot()], ids=["basic", "strong"])
def test_with_nothing_loose_after_the_discard_every_bot_knocks(bot: Bot) -> None:
    game = knock_position(KNOCK_LOW, KNOCK_SECOND)
    action = bot.choose(observe(game, 1), random.Random(0))
    assert str(action) == "1 knock Ks"


def test_basic_does_not_knock_with_22_loose() -> None:
    game = knock_position(KNOCK_FIRST, KNOCK_SECOND)
    action = BasicBot().choose(observe(game, 1), random.Random(0))
    assert isinstance(action, Discard) and action.card.rank == 13


def test_strong_knocks_with_22_loose_on_the_first_turn_of_two_seats() -> None:
    # Two hands of ten: the other hand holds 22 or less only about one time in ten then.
    game = knock_position(KNOCK_FIRST, KNOCK_SECOND)
    decision = StrongBot().decide(observe(game, 1))
    assert str(decision.action) in {"1 knock Ks", "1 knock Kc", "1 knock Qd"}
    assert decision.kind == "knock_low" and "22 loose" in decision.reason


def test_strong_does_not_knock_with_22_loose_late_in_the_deal() -> None:
    game = knock_position(KNOCK_FIRST, KNOCK_SECOND)
    view = observe(game, 1)
    late = dataclasses.replace(view, turn_number=view.turn_number + 2 * 8)
    action = StrongBot().choose(late, random.Random(0))
    assert isinstance(action, Discard)


@pytest.mark.parametrize("name", ["basic", "strong"])
def test_bots_end_knock_rummy_deals_by_knocking(name: str) -> None:
    results = []
    for seed in range(6):
        game, rng = random_game(seed=seed, seats=2 + seed % 3, melding="knock")
        bots = [make_bot(name)] * game.seat_count
        for _ in positions(game, bots, rng):
            pass
        results.append(game.result)
    assert {DealResult.KNOCK, DealResult.UNDERCUT} & set(results)
