"""Knock rummy, clause by clause: one test (or a few) per sentence of the README's rules.

Every refusal is checked for its code, a sentence naming the cards, and a position left as it
was. Seat 1 plays first (dealer 0). In ``HANDS`` seat 1 holds the runs 4h-7h and 9c 9d 9h
with Kc Qd 2s loose (2 + 10 + 10 = 22, by the knock preset's aces low); seat 0 holds
2c 3c 4c and seven loose cards.
"""

from __future__ import annotations

import pytest

from helpers import play, stacked_game
from rummykit.core.actions import Discard, Knock, parse_action
from rummykit.core.cards import Card
from rummykit.core.deal import DealResult
from rummykit.core.errors import IllegalActionError, RulesError
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.record import record_of, replay_json
from rummykit.core.rules import Blocked, Melding, Rules, Scoring
from rummykit.core.scoring import knock_points, knock_winner, knock_winners
from rummykit.core.state import GameState, Phase

KNOCK = find_preset("knock").rules
HANDS = ["2c 3c 4c 8s Js Td Kd Qs 5s 6d", "4h 5h 6h 7h 9c 9d 9h Kc Qd 2s"]
UP = "8h"
STOCK = "Ks 9s Ah 2h 3h 3s"


def game(rules: Rules = KNOCK, hands: list[str] | None = None, stock: str = STOCK) -> GameState:
    return stacked_game(rules, hands or HANDS, up=UP, stock=stock)


def snapshot(state: GameState) -> tuple[object, ...]:
    deal = state.deal
    return (
        [list(hand) for hand in deal.hands],
        list(deal.discard_pile),
        list(deal.stock),
        list(deal.melds),
        deal.phase,
        deal.turn,
        list(state.scores),
        state.version,
    )


def refused(state: GameState, text: str) -> IllegalActionError:
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as caught:
        state.apply_text(text)
    assert snapshot(state) == before
    return caught.value


# ----- "Nobody melds or lays off during play: a turn is a draw and a discard." -----------


def test_a_meld_during_play_is_refused_naming_its_cards() -> None:
    state = play(game(), "1 draw stock")
    error = refused(state, "1 meld 4h 5h 6h 7h")
    assert error.code == "no_melding"
    assert error.reason == "knock_no_meld"
    assert "4♥ 5♥ 6♥ 7♥" in error.message


def test_a_layoff_during_play_is_refused_naming_its_card() -> None:
    state = play(game(), "1 draw stock")
    error = refused(state, "1 layoff 9c 0")
    assert error.code == "no_melding" and "9♣" in error.message


def test_the_legal_actions_after_a_draw_are_discards_and_knocks_only() -> None:
    state = play(game(), "1 draw stock")
    kinds = {type(action) for action in state.legal_actions()}
    assert kinds == {Discard, Knock}
    state.apply_text("1 discard Ks")
    assert state.phase is Phase.DRAW and state.turn == 0


# ----- "Only the top card of the discard pile may be taken." -----------------------------


def test_a_deep_take_is_refused_even_where_the_rules_allow_it() -> None:
    rules = KNOCK.replace(discard_take="any")
    state = play(game(rules), "1 draw stock", "1 discard Kc", "0 draw stock", "0 discard 9s")
    error = refused(state, "1 draw discard 2")
    assert error.code == "discard_take_not_allowed"
    assert error.reason == "knock_top_only"
    assert [str(action) for action in state.legal_actions()] == ["1 draw stock", "1 draw discard"]


# ----- "Once you have drawn, you may knock instead of discarding plainly ..." -------------


def test_a_knock_throws_the_card_and_ends_the_deal_at_once() -> None:
    state = play(game(), "1 draw stock", "1 knock Ks")
    assert state.phase is Phase.OVER
    assert state.discard_top is not None and str(state.discard_top) == "Ks"
    assert state.deal.knocker == 1
    assert len(state.hands[1]) == 10


def test_a_knock_before_drawing_is_refused() -> None:
    error = refused(game(), "1 knock Kc")
    assert error.code == "wrong_phase"


def test_a_knock_with_a_card_not_held_is_refused() -> None:
    state = play(game(), "1 draw stock")
    error = refused(state, "1 knock Ac")
    assert error.code == "card_not_in_hand" and "A♣" in error.message


def test_a_knock_may_not_throw_back_the_card_just_taken() -> None:
    state = play(game(), "1 draw discard")
    error = refused(state, "1 knock 8h")
    assert error.code == "discard_taken_card" and "8♥" in error.message


def test_a_knock_is_refused_where_melds_are_laid_during_play() -> None:
    state = play(game(Rules()), "1 draw stock")
    error = refused(state, "1 knock Kc")
    assert error.code == "knock_not_allowed"
    assert error.reason == "knock_not_in_rules"
    assert "K♣" in error.message
    assert not any(isinstance(action, Knock) for action in state.legal_actions())


# ----- "You may knock on any turn, whatever your hand still counts, unless knock_limit" ---


def test_a_knock_is_allowed_on_the_first_turn_with_a_high_count() -> None:
    state = play(game(), "1 draw stock")
    nine = Card.parse("9h")
    assert state.deadwood_after(1, nine) > 30
    assert Knock(1, nine) in state.legal_actions()


def test_the_knocking_limit_refuses_a_knock_that_leaves_too_much() -> None:
    state = play(game(KNOCK.replace(knock_limit=10)), "1 draw stock")
    error = refused(state, "1 knock Ks")
    assert error.code == "knock_not_allowed"
    assert error.reason == "knock_too_high"
    assert "K♠" in error.message and "10" in error.message and "22" in error.message
    knocks = [str(action) for action in state.legal_actions() if isinstance(action, Knock)]
    assert knocks == []


def test_the_knocking_limit_allows_a_knock_within_it() -> None:
    state = play(game(KNOCK.replace(knock_limit=22)), "1 draw stock")
    knocks = {str(action) for action in state.legal_actions() if isinstance(action, Knock)}
    assert knocks == {"1 knock Ks", "1 knock Kc", "1 knock Qd"}
    state.apply_text("1 knock Kc")
    assert state.phase is Phase.OVER


# ----- "Then every hand is spread on the table in its best melds ..." ---------------------


def test_every_hand_is_laid_out_in_the_split_with_least_deadwood() -> None:
    state = play(game(), "1 draw stock", "1 knock Ks")
    layouts = state.deal.layouts
    assert layouts is not None
    assert sorted(meld.text for meld in layouts[1].melds) == ["4h 5h 6h 7h", "9c 9d 9h"]
    assert sorted(str(card) for card in layouts[1].deadwood) == ["2s", "Kc", "Qd"]
    assert layouts[1].value == 22
    assert [meld.text for meld in layouts[0].melds] == ["2c 3c 4c"]
    assert layouts[0].value == 8 + 10 + 10 + 10 + 10 + 5 + 6
    assert state.melds == []  # nobody lays off on another's melds: nothing joins the table


def test_every_seat_and_a_spectator_see_every_hand_laid_out_once_the_deal_is_over() -> None:
    state = play(game(), "1 draw stock")
    assert observe(state, 0).layouts is None
    state.apply_text("1 knock Ks")
    for seat in (0, 1, None):
        view = observe(state, seat)
        assert view.layouts == state.deal.layouts
        assert view.knocker == 1


# ----- "If the knocker's deadwood is the lowest, the knocker collects ..." ----------------


def test_the_knocker_with_the_lowest_deadwood_collects_the_differences() -> None:
    state = play(game(), "1 draw stock", "1 knock Ks")
    assert state.result is DealResult.KNOCK
    assert state.deal_winner == 1
    assert state.deal_points == (0, 59 - 22)
    assert state.scores == [0, 37]


# ----- "If another player's deadwood is as low as the knocker's or lower ..." -------------


def test_an_undercut_pays_the_lowest_player_and_the_knocker_pays_the_penalty() -> None:
    # Seat 1 knocks at once with 22; seat 0 holds two melds and 4 loose.
    hands = ["2c 3c 4c 5c Qs Qd Qh 4s Ad 2d", "4h 5h 6h 7h 9c 9d 9h Kc Qc 2s"]
    state = play(game(hands=hands), "1 draw stock", "1 knock Ks")
    assert state.result is DealResult.UNDERCUT
    assert state.deal_winner == 0
    layouts = state.deal.layouts
    assert layouts is not None and layouts[0].value == 4 + 1 + 2
    assert state.deal_points == (22 - 7 + 10, 0)


def test_a_player_who_ties_the_knocker_wins_instead_and_the_knocker_pays_no_penalty() -> None:
    assert knock_winner([5, 5], knocker=0) == 1
    assert knock_points(KNOCK, [5, 5], knocker=0) == (1, [0, 0])
    assert knock_points(KNOCK, [5, 5, 9], knocker=0) == (1, [0, 4, 0])


def test_players_tied_with_the_knocker_share_what_the_others_owe() -> None:
    assert knock_winners([3, 3, 3, 20], knocker=0) == [1, 2]
    assert knock_points(KNOCK, [3, 3, 3, 20], knocker=0) == (1, [0, 9, 8, 0])


def test_players_tied_below_the_knocker_share_the_differences_and_the_penalty() -> None:
    # seat 0 knocks with 9: seats 1 and 2 undercut with 3 and share 6 + 10 and 17
    assert knock_winners([9, 3, 3, 20], knocker=0) == [1, 2]
    assert knock_points(KNOCK, [9, 3, 3, 20], knocker=0) == (1, [0, 17, 16, 0])
    penalty = KNOCK.replace(scoring=Scoring.PENALTY)
    assert knock_points(penalty, [9, 3, 3, 20], knocker=0) == (1, [16, 0, 0, 17])


def test_the_lowest_undercutter_wins_alone_and_a_left_over_point_goes_first_to_the_left() -> None:
    assert knock_winner([3, 9, 2, 3], knocker=1) == 2
    assert knock_winners([2, 9, 3, 3], knocker=1) == [0]
    assert knock_winners([3, 9, 3, 3], knocker=1) == [2, 3, 0]
    assert knock_points(KNOCK, [3, 9, 3, 3], knocker=1) == (2, [5, 0, 6, 5])


# ----- "A knock with no deadwood at all collects the bonus, unless tied ..." --------------


def test_a_knock_with_no_deadwood_pays_the_bonus_from_each() -> None:
    assert knock_points(KNOCK, [0, 3, 7], knocker=0) == (0, [25 + 3 + 25 + 7, 0, 0])
    assert knock_points(KNOCK.replace(knock_bonus=0), [0, 4], knocker=0) == (0, [4, 0])


def test_a_player_with_no_deadwood_ties_a_knock_with_none_and_wins_without_the_bonus() -> None:
    assert knock_winner([0, 0, 7], knocker=0) == 1
    assert knock_points(KNOCK, [0, 0, 7], knocker=0) == (1, [0, 7, 0])


WHOLE = ["2c 3c 4c 8s Js Td Qc Qs 5s 6d", "4h 5h 6h 7h 9c 9d 9h Kc Kd 2s"]
"""Seat 1 draws the K♠ and holds three melds and the 2♠; seat 0 still has 59 loose."""


def test_a_whole_hand_in_melds_knocks_for_the_bonus() -> None:
    hands = WHOLE
    state = play(game(hands=hands), "1 draw stock", "1 knock 2s")  # the K♠ makes a set
    assert state.result is DealResult.KNOCK
    layouts = state.deal.layouts
    assert layouts is not None and layouts[1].value == 0
    assert state.deal_points == (0, layouts[0].value + 25)


def test_the_undercut_penalty_is_an_option() -> None:
    assert knock_points(KNOCK.replace(undercut_penalty=0), [6, 4], knocker=0) == (1, [0, 2])
    assert knock_points(KNOCK.replace(undercut_penalty=20), [6, 4], knocker=0) == (1, [0, 22])


# ----- "Under penalty scoring, each player other than the winner takes what they owe ..." -


def test_under_penalty_scoring_each_loser_takes_what_it_owes() -> None:
    rules = KNOCK.replace(scoring=Scoring.PENALTY)
    assert knock_points(rules, [6, 4, 20], knocker=0) == (1, [12, 0, 16])
    assert knock_points(rules, [0, 4, 20], knocker=0) == (0, [0, 29, 45])
    state = play(game(rules), "1 draw stock", "1 knock Ks")
    assert state.deal_points == (37, 0)


# ----- "Going rummy earns nothing extra: the knock bonus takes its place." ----------------


def test_the_rummy_bonus_does_not_apply_to_a_knock() -> None:
    state = play(game(KNOCK.replace(rummy_bonus="double"), hands=WHOLE), "1 draw stock")
    state.apply_text("1 knock 2s")
    layouts = state.deal.layouts
    assert layouts is not None
    assert state.deal_points == (0, layouts[0].value + 25)


# ----- "If the stock runs out for good, the deal is stuck as usual ..." -------------------


def run_the_stock_out(state: GameState) -> GameState:
    """Each seat draws from the stock and throws the card drawn, until the deal ends."""
    while not state.deal_over:
        seat = state.turn
        state.apply_text(f"{seat} draw stock")
        if not state.deal_over:
            state.apply(Discard(seat, state.hands[seat][-1]))
    return state


def test_a_stuck_deal_lays_out_the_hands_and_scores_their_deadwood() -> None:
    state = run_the_stock_out(game(KNOCK.replace(renewals=0)))
    assert state.result is DealResult.BLOCKED
    layouts = state.deal.layouts
    assert layouts is not None
    assert [layout.value for layout in layouts] == [59, 22]
    assert state.deal_points == (0, 59 - 22)
    assert state.summaries[-1].deadwood == (59, 22)


def test_a_stuck_deal_scores_nothing_under_no_score() -> None:
    state = run_the_stock_out(game(KNOCK.replace(renewals=0, blocked=Blocked.NO_SCORE)))
    assert state.result is DealResult.BLOCKED
    assert state.deal_points == (0, 0)


# ----- "Hands are the usual size: 10 cards for two, 7 for three or four, 6 for five or six"


@pytest.mark.parametrize(("seats", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_the_knock_preset_deals_the_usual_hand_sizes(seats: int, size: int) -> None:
    find_preset("knock").check_seats(seats)
    state = GameState.new(KNOCK, seats, seed=seats)
    assert [len(hand) for hand in state.hands] == [size] * seats


# ----- the record ----------------------------------------------------------------------------


def test_a_knock_round_trips_through_the_record_and_replay() -> None:
    state = play(game(), "1 draw stock", "1 knock Ks")
    assert state.logs[-1].actions == ["1 draw stock", "1 knock Ks"]
    assert str(parse_action("1 KNOCK ks")) == "1 knock Ks"
    record = record_of(state, find_preset("knock"), ["Ann", "Bob"])
    result, code = replay_json(record.to_json())
    assert code == 0, result["error"]
    assert result["deals"] == [
        {
            "dealer": 0,
            "result": "knock",
            "winner": 1,
            "points": [0, 37],
            "knocker": 1,
            "deadwood": [59, 22],
        }
    ]
    laid = result["state"]["laid_out"]
    assert laid[1]["value"] == 22
    assert sorted(laid[1]["deadwood"]) == ["2s", "Kc", "Qd"]
    assert sorted(laid[1]["melds"]) == [["4h", "5h", "6h", "7h"], ["9c", "9d", "9h"]]


def test_an_illegal_knock_in_a_record_stops_the_replay_with_its_code() -> None:
    state = play(game(Rules()), "1 draw stock")
    record = record_of(state, find_preset("standard"), ["Ann", "Bob"]).to_json()
    record["deals"][0]["actions"].append("1 knock Kc")
    result, code = replay_json(record)
    assert code == 1
    assert result["error"]["code"] == "knock_not_allowed"
    assert "K♣" in result["error"]["message"]


def test_a_knock_that_cannot_be_read_is_a_bad_action() -> None:
    with pytest.raises(ValueError, match="exactly one card"):
        parse_action("1 knock")


def test_knock_rummy_is_not_played_with_boathouses_stock_card() -> None:
    # nothing but a discard leaves a hand under knock rules: each take would grow it for good
    with pytest.raises(RulesError, match="stock_with_discard needs melding during_play"):
        Rules(melding=Melding.KNOCK, stock_with_discard=True)
    with pytest.raises(RulesError):
        find_preset("boathouse").rules.replace(melding="knock")
    assert Rules(melding=Melding.KNOCK).stock_with_discard is False


def test_knock_rummy_is_not_scored_with_meld_points() -> None:
    # a knock counts loose cards against their holder, meld points want the highest to win
    with pytest.raises(RulesError, match="scoring melds needs melding during_play"):
        Rules(melding=Melding.KNOCK, scoring=Scoring.MELDS)
    with pytest.raises(RulesError, match="scoring melds needs melding during_play"):
        KNOCK.replace(scoring="melds")
    with pytest.raises(RulesError, match="scoring melds needs melding during_play"):
        find_preset("500").rules.replace(melding="knock")


def offered(preset: str, option: str) -> list[object]:
    field = next(field for field in find_preset(preset).form() if field["name"] == option)
    choices = field["choices"]
    assert isinstance(choices, list)
    return [choice["value"] for choice in choices]


def test_the_knock_and_500_forms_offer_no_knocking_with_meld_points() -> None:
    assert offered("knock", "scoring") == ["winner", "penalty"]
    assert offered("500", "melding") == ["during_play"]
