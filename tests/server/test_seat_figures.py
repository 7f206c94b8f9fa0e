"""A player's figures in one game, from the stored actions and the deals' outcomes."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from rummykit.core.deal import DealResult, DealSummary
from rummykit.server.store.seat_figures import Played, SeatFigures, StoredAction, seat_figures

PERSON, COMPUTER, TIMEOUT = Played.PERSON, Played.COMPUTER, Played.TIMEOUT


def deal(winner: int | None, points: tuple[int, ...], rummy: bool = False) -> DealSummary:
    result = DealResult.BLOCKED if winner is None else DealResult.OUT
    return DealSummary(0, DealResult.RUMMY if rummy else result, winner, points)


def test_turns_are_runs_of_one_seat_and_their_time_runs_from_the_action_before() -> None:
    actions = [
        StoredAction(0, 0, PERSON, 103.0),  # seat 0 draws 3 s after the deal
        StoredAction(0, 0, PERSON, 105.0),  # and discards: a 5 s turn
        StoredAction(0, 1, COMPUTER, 106.0),
        StoredAction(0, 1, COMPUTER, 107.0),
        StoredAction(0, 0, PERSON, 117.0),  # a 10 s turn
        StoredAction(0, 1, COMPUTER, 120.0),
        StoredAction(0, 0, TIMEOUT, 170.0),  # the time ran out: the computer played it
        StoredAction(0, 1, PERSON, 173.0),
    ]
    ada, bob = seat_figures(2, [deal(1, (0, 25))], {0: 100.0}, actions)
    assert ada == SeatFigures(
        deals=1,
        points=0,
        outs=0,
        rummies=0,
        turns=3,
        computer_turns=1,
        timeouts=1,
        timed_turns=2,
        seconds=15.0,
    )
    assert (bob.turns, bob.computer_turns, bob.timeouts, bob.outs, bob.points) == (3, 2, 0, 1, 25)
    assert (bob.timed_turns, bob.seconds) == (1, 3.0)  # from Ada's timeout at 170 to 173


def test_rummies_outs_and_blocked_deals() -> None:
    summaries = [deal(0, (40, 0), rummy=True), deal(None, (0, 0)), deal(0, (12, 0))]
    ada, bob = seat_figures(2, summaries, {}, [])
    assert (ada.deals, ada.outs, ada.rummies, ada.points) == (3, 2, 1, 52)
    assert (bob.deals, bob.outs, bob.rummies, bob.points) == (3, 0, 0, 0)


def test_a_deal_still_going_on_counts_no_deal() -> None:
    (ada,) = seat_figures(1, [DealSummary(0, None, None, None)], {}, [])
    assert ada.deals == 0


def test_actions_kept_before_seats_were_stored_count_nothing() -> None:
    actions = [StoredAction(0, None, None, None), StoredAction(0, None, None, None)]
    assert seat_figures(2, [], {0: 1.0}, actions) == [SeatFigures(), SeatFigures()]


def test_a_turn_with_an_unknown_start_is_counted_but_not_timed() -> None:
    actions = [StoredAction(0, 0, PERSON, 5.0), StoredAction(1, 0, PERSON, 9.0)]
    (ada,) = seat_figures(1, [], {1: 8.0}, actions)
    assert (ada.turns, ada.timed_turns, ada.seconds) == (2, 1, 1.0)


def test_figures_add_up_and_survive_json() -> None:
    one = SeatFigures(1, 10, 1, 0, 5, 1, 0, 4, 20.5)
    two = SeatFigures(2, 3, 0, 1, 7, 7, 2, 0, 0.0)
    total = one + two
    assert total == SeatFigures(3, 13, 1, 1, 12, 8, 2, 4, 20.5)
    assert SeatFigures.from_json(total.to_json()) == total
    assert SeatFigures.from_json(None) == SeatFigures()
    assert total.mostly_computer() and not one.mostly_computer()


stored_actions = st.lists(
    st.tuples(
        st.integers(0, 2),
        st.integers(0, 3),
        st.sampled_from(list(Played)),
        st.floats(0, 60, allow_nan=False),
    ),
    max_size=60,
)


@given(stored_actions)
def test_every_run_is_one_turn_of_its_seat(drawn: list[tuple[int, int, Played, float]]) -> None:
    drawn.sort(key=lambda each: each[0])  # the store gives them in deal order
    moment = 0.0
    actions = []
    dealt_at: dict[int, float | None] = {}
    for deal_number, seat, by, gap in drawn:
        dealt_at.setdefault(deal_number, moment)
        moment += gap
        actions.append(StoredAction(deal_number, seat, by, moment))
    figures = seat_figures(4, [], dealt_at, actions)
    runs = [
        seat
        for _, in_deal in itertools.groupby(actions, key=lambda action: action.deal)
        for seat, _ in itertools.groupby(in_deal, key=lambda action: action.seat)
    ]
    for seat, each in enumerate(figures):
        assert each.turns == runs.count(seat)
        assert each.timeouts <= each.computer_turns <= each.turns
        assert each.timed_turns + each.computer_turns == each.turns
        assert each.seconds >= 0
    assert sum(each.seconds for each in figures) <= moment + 1e-6
