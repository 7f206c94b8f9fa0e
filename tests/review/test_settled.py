"""Decisions settled within the turn: found from seen cards only, counted without playouts.

The positions are stacked: seat 1 draws the card that lets it go out, or seat 0 holds only
cards seat 1 saw it take. The values are checked against the engine's own count of the
going out, played move by move; the marks against their rule (a settled side is marked on
the loss itself); and, over random games, that being settled never depends on a hidden card.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import play, stacked_game
from rummykit.bots.equity import points_outcome
from rummykit.bots.play import play_deal
from rummykit.bots.random_bot import RandomBot
from rummykit.core.actions import Discard, Draw, DrawSource, Meld, parse_action
from rummykit.core.determinize import sample_position
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState
from rummykit.review.judge import Judgement, judge
from rummykit.review.marks import MARKS, Mark
from rummykit.review.settled import settled_values
from rummykit.review.walk import DecisionPoint, judge_point

pytestmark = pytest.mark.timeout(120)

CLASSIC = find_preset("classic").rules
GOES_OUT = ("1 meld 3c 4c 5c 6c", "1 meld 7d 7h 7s", "1 meld 9d 9h 9s", "1 discard Kd")


def _can_go_out() -> GameState:
    """Seat 1 to play, having drawn the 6♣: three melds and the K♦ to throw."""
    hands = ["2d 4d 6d 8d Td Qd 2h 4h 6h 8h", "3c 4c 5c 7h 7s 7d 9h 9s 9d Kd"]
    game = stacked_game(CLASSIC, hands, up="Js", stock="6c")
    return play(game, "1 draw stock")


def test_each_way_to_go_out_is_settled_at_the_engines_own_count() -> None:
    game = _can_go_out()
    values = settled_values(game, 1)
    out = play(game.clone(), *GOES_OUT)
    assert out.deal_over and out.deal.winner == 1
    count = points_outcome(out, 1)
    assert count > 0
    for text in GOES_OUT[:3]:  # any of the melds first still goes out, at the same count
        assert values[parse_action(text)] == count
    # throwing a card a meld needs, or the K♦ before melding, leaves the turn without going out
    assert parse_action("1 discard 6c") not in values
    assert parse_action("1 discard Kd") not in values


def test_the_last_card_thrown_is_the_going_out_itself() -> None:
    game = play(_can_go_out(), *GOES_OUT[:3])
    values = settled_values(game, 1)
    assert set(values) == {parse_action("1 discard Kd")}


def test_a_draw_from_the_stock_is_never_settled_a_draw_of_the_seen_card_may_be() -> None:
    hands = ["2d 4d 6d 8d Td Qd 2h 4h 6h 8h", "3c 4c 5c 7h 7s 7d 9h 9s 9d Kd"]
    game = stacked_game(CLASSIC, hands, up="6c", stock="Qs")
    values = settled_values(game, 1)
    assert set(values) == {Draw(1, DrawSource.DISCARD)}


def _feeding() -> GameState:
    """Seat 1 to throw; seat 0 holds three melds and one card, all seen taken (set by hand)."""
    hands = ["3s 4s 5s 8c 8h 8s Jd Jh Js 2c", "Ah 3h 5h 7c 9c Jc Kc Kh 3d 5d"]
    game = stacked_game(CLASSIC, hands, up="Qc", stock="Ks")
    game = play(game, "1 draw stock")
    game.deal.known[0] = list(game.hands[0])  # as if every card of it came off the pile
    return game


def test_a_discard_the_next_player_goes_out_on_is_settled_for_the_thrower() -> None:
    game = _feeding()
    values = settled_values(game, 1)
    throws = [action for action in game.legal_actions() if isinstance(action, Discard)]
    settled = [action for action in throws if action in values]
    # only the J♣ lets seat 0 lay all down: it joins the jacks, and the 2♣ goes last
    assert settled == [parse_action("1 discard Jc")]
    after = play(game.clone(), "1 discard Jc")
    # seat 0 goes out at once, its first meld of the deal: rummy, seat 1's cards count twice
    assert values[parse_action("1 discard Jc")] == -2 * after.hand_value(1)
    # the A♥ may be taken too, but leaves seat 0 two loose cards: nothing certain
    assert Draw(0, DrawSource.DISCARD) in play(game.clone(), "1 discard Ah").legal_actions()


def test_a_next_player_with_one_card_unseen_settles_nothing() -> None:
    game = _feeding()
    game.deal.known[0] = list(game.hands[0])[1:]
    values = settled_values(game, 1)
    assert not any(isinstance(action, Discard) for action in values)


def test_a_missed_way_out_is_judged_settled_and_marked_on_its_loss() -> None:
    game = _can_go_out()
    observation = observe(game, 1)
    thrown = parse_action("1 discard 6c")
    point = DecisionPoint(0, 2, observation, thrown)
    judged = judge(observation, thrown, samples=12, seed=point.seed)
    assert judged.exact
    assert isinstance(judged.best, Meld)
    assert judged.loss > 0
    reviewed = judge_point(point, 12, None)
    assert reviewed.judgement == judged
    assert reviewed.to_json()["exact"] is True
    # going rummy was there (the other hand's count twice): far past the blunder line
    assert judged.loss >= MARKS[Mark.BLUNDER] and reviewed.mark is Mark.BLUNDER


def test_going_out_as_best_and_as_made_loses_nothing() -> None:
    game = _can_go_out()
    judged = judge(observe(game, 1), parse_action(GOES_OUT[0]), samples=8, seed=1)
    assert judged.exact and judged.loss == 0 and judged.best == parse_action(GOES_OUT[0])


@pytest.mark.parametrize(
    ("exact", "loss", "ci95", "mark"),
    [
        (True, 13.0, 5.0, "blunder"),  # settled: the loss itself, past the blunder line
        (False, 13.0, 5.0, "mistake"),  # sampled: only the sure part, 8
        (True, 4.0, 3.0, "inaccuracy"),
        (False, 4.0, 3.0, None),
    ],
)
def test_a_settled_decision_is_marked_on_its_loss_a_sampled_one_on_its_sure_part(
    monkeypatch: pytest.MonkeyPatch, exact: bool, loss: float, ci95: float, mark: str | None
) -> None:
    game = _can_go_out()
    observation = observe(game, 1)
    played, best = parse_action("1 discard 6c"), parse_action(GOES_OUT[0])
    made = Judgement(played, best, loss, ci95, 0.0, (), 8, exact=exact)
    monkeypatch.setattr("rummykit.review.walk.judge", lambda *args, **kwargs: made)
    reviewed = judge_point(DecisionPoint(0, 2, observation, played), 8, None)
    assert (None if reviewed.mark is None else str(reviewed.mark)) == mark


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    actions=st.integers(0, 60),
    preset=st.sampled_from(["classic", "standard", "knock", "500", "boathouse"]),
)
def test_being_settled_rests_on_seen_cards_only(seed: int, actions: int, preset: str) -> None:
    """Two deals of the hidden cards settle the same choices, and play them the same way."""
    rng = random.Random(seed)
    game = GameState(find_preset(preset).rules, 2 + seed % 3, dealer=0, seed=seed)
    game.start_deal(seed=seed)
    bots = [RandomBot()] * game.seat_count
    for index, _choice in enumerate(play_deal(game, bots, [rng] * game.seat_count)):
        if index >= actions:
            break
    if game.deal_over:
        return
    observation = observe(game, game.turn)
    first = sample_position(observation, random.Random(1))
    second = sample_position(observation, random.Random(2))
    assert set(settled_values(first, game.turn)) == set(settled_values(second, game.turn))
