"""The tallies a tournament sums, the folder that keeps them, and the results and table made
of them, from tallies written here (no game played)."""

from __future__ import annotations

import io
import json
import math
from array import array
from pathlib import Path

import pytest
from rich.console import Console

from rummykit.tournament.checkpoint import IDENTITY_FILE, Checkpoint, identity
from rummykit.tournament.config import SimConfig, SimError
from rummykit.tournament.play import deal_deck, record_name, seat_players
from rummykit.tournament.report import result_table
from rummykit.tournament.results import TIMING_FIELDS, SimResult
from rummykit.tournament.tally import PositionTally, SetTally, tally_from_json, tally_to_json


def position(won: int, points: list[int], seconds: list[float]) -> PositionTally:
    return PositionTally(
        games_won=won,
        deals_won=won,
        rummies=0,
        points=sum(points),
        deal_points=array("q", points),
        decision_seconds=array("d", seconds),
    )


def one_set() -> SetTally:
    """A set of two games, two deals each: position 0 won both games and three deals."""
    return SetTally(
        positions=[
            position(2, [30, 0, 25, 10], [0.001, 0.002, 0.003]),
            position(0, [0, 12, 0, 0], [0.010]),
        ],
        games=2,
        ties=0,
        deals=4,
        blocked_deals=0,
        turns=40,
        actions=90,
        set_points_per_deal=[[16.25, 3.0]],
    )


def test_tallies_add_every_count_and_every_list() -> None:
    total = SetTally.empty(2)
    total.add(one_set())
    total.add(one_set())
    assert (total.games, total.deals, total.turns, total.actions) == (4, 8, 80, 180)
    first, second = total.positions
    assert (first.games_won, first.points) == (4, 130)
    assert list(second.deal_points) == [0, 12, 0, 0] * 2
    assert len(first.decision_seconds) == 6
    assert total.set_points_per_deal == [[16.25, 3.0], [16.25, 3.0]]


def test_a_tally_of_other_seats_is_not_added() -> None:
    with pytest.raises(ValueError):
        SetTally.empty(3).add(one_set())


def test_a_tally_reads_back_from_json_as_it_was() -> None:
    tally = one_set()
    text = json.dumps(tally_to_json(tally))
    assert tally_from_json(json.loads(text)) == tally


def config(**options: object) -> SimConfig:
    arguments: dict[str, object] = {"games": 4, **options}
    return SimConfig.from_options(["basic", "random"], **arguments)  # type: ignore[arg-type]


def test_a_checkpoint_keeps_finished_sets_and_loads_only_those_asked_for(tmp_path: Path) -> None:
    folder = tmp_path / "kept"
    kept = Checkpoint(folder, config())
    assert json.loads((folder / IDENTITY_FILE).read_text()) == identity(config())
    assert kept.load(5) == {}
    kept.save(0, one_set())
    kept.save(3, one_set())
    assert sorted(Checkpoint(folder, config()).load(5)) == [0, 3]
    assert sorted(kept.load(2)) == [0]
    assert not list(folder.glob("*.part"))  # written whole, then renamed


def test_a_checkpoint_of_another_tournament_names_what_differs(tmp_path: Path) -> None:
    Checkpoint(tmp_path, config())
    Checkpoint(tmp_path, config(games=40))  # more sets of the same games: the same tournament
    with pytest.raises(SimError, match="another tournament \\(other seed\\)"):
        Checkpoint(tmp_path, config(seed=1))
    with pytest.raises(SimError, match="other rules"):
        Checkpoint(tmp_path, config(rules=["target=50"]))


def test_a_damaged_identity_or_set_file_is_named(tmp_path: Path) -> None:
    kept = Checkpoint(tmp_path, config())
    (tmp_path / "set-00001.json").write_text('{"positions": []')
    with pytest.raises(SimError, match=r"set-00001\.json cannot be read"):
        kept.load(2)
    (tmp_path / IDENTITY_FILE).write_text("[1, 2]")
    with pytest.raises(SimError, match="unreadable settings"):
        Checkpoint(tmp_path, config())
    (tmp_path / IDENTITY_FILE).write_text("{")
    with pytest.raises(SimError, match="cannot be read"):
        Checkpoint(tmp_path, config())


def test_results_are_rates_and_points_by_position() -> None:
    result = SimResult(config(), one_set(), seconds=1.23456)
    first, second = result.positions
    assert (first.bot, second.bot) == ("basic", "random")
    assert first.win_rate == 1.0 and second.win_rate == 0.0
    assert first.going_out_rate == 2 / 4
    assert first.decisive_deal_win_rate == 2 / 4  # of four deals someone went out in
    assert first.points_per_deal == 16.25
    assert math.isnan(first.points_per_deal_ci95[0])  # one set: no interval yet
    assert first.decisions == 3 and first.decision_ms_p50 == pytest.approx(2.0)
    assert first.deal_points == (30, 0, 25, 10)
    low, high = first.win_rate_ci95
    assert 0 < low < 1 == high


def test_the_json_writes_unknown_figures_as_null_and_names_the_timings() -> None:
    result = SimResult(config(), one_set(), seconds=1.23456)
    data = result.to_json()
    assert (data["games"], data["duplicate_sets"], data["deals"]) == (2, 2, 4)
    assert data["turns_per_deal"] == 10.0 and data["actions_per_deal"] == 22.5
    assert data["seconds"] == 1.235
    assert data["lower_is_better"] is False
    assert data["seats"][0]["points_per_deal_ci95"] == [None, None]
    assert set(TIMING_FIELDS) <= set(data) | set(data["seats"][0])
    empty = SimResult(config(), SetTally.empty(2), seconds=0.0).to_json()
    assert empty["turns_per_deal"] is None and empty["seats"][0]["win_rate"] is None


def test_penalty_scoring_makes_fewer_points_better() -> None:
    penalty = config(rules=["scoring=penalty"])
    assert SimResult(penalty, SetTally.empty(2), 0.0).lower_is_better
    assert SimResult(penalty, SetTally.empty(2), 0.0).to_json()["lower_is_better"] is True


def test_a_sets_decks_are_the_same_in_every_rotation_and_differ_between_sets() -> None:
    rules = config().rules
    assert deal_deck(rules, 7, 0, 0) == deal_deck(rules, 7, 0, 0)
    assert deal_deck(rules, 7, 0, 0) != deal_deck(rules, 7, 1, 0)
    assert deal_deck(rules, 7, 0, 0) != deal_deck(rules, 7, 0, 1)
    assert deal_deck(rules, 7, 0, 0) != deal_deck(rules, 8, 0, 0)
    deck, reshuffle_seed = deal_deck(rules, 7, 0, 0)
    assert len(deck) == 52 and len(set(deck)) == 52 and reshuffle_seed >= 1


def test_rotations_move_every_bot_one_seat_on_and_records_are_named_by_both() -> None:
    bots = ["a", "b", "c"]
    assert [seat_players(bots, rotation) for rotation in range(3)] == [
        ["a", "b", "c"],
        ["c", "a", "b"],
        ["b", "c", "a"],
    ]
    assert record_name(12, 2) == "set00012-rotation2.json"


def drawn(result: SimResult) -> str:
    out = io.StringIO()
    Console(file=out, width=200).print(result_table(result))
    return out.getvalue()


def test_the_table_has_a_row_a_position_and_the_totals_below() -> None:
    text = drawn(SimResult(config(rules=["target=50"]), one_set(), seconds=1.25))
    assert "rummy sim: 2 games, 2 duplicate sets of 2" in text
    assert "(target=50)" in text  # the rules named by what differs from the preset
    assert "0 basic" in text and "1 random" in text
    assert "100.0% [34.2, 100.0]" in text and "0.0% [0.0, 65.8]" in text  # Wilson intervals
    assert "+16.25" in text and "+3.00" in text
    assert "50.0% [15.0, 85.0]" in text  # its share of the decisive deals
    assert "2.0/3.0" in text and "10.0/10.0" in text  # decisions' p50/p99 in milliseconds
    assert "4 deals: 4 decisive, 0 blocked; 10.0 turns (22.5 actions) a deal." in text
    assert "1.2 s." in text


def test_the_table_says_when_fewer_points_are_better_and_what_is_unknown() -> None:
    text = drawn(SimResult(config(rules=["scoring=penalty"]), SetTally.empty(2), seconds=0.0))
    assert "points/deal (lower is better)" in text
    assert "0 deals: 0 decisive, 0 blocked; - turns (- actions) a deal." in text
    assert "-/-" in text  # no decision timed


def test_one_set_says_its_points_interval_is_unknown() -> None:
    # a single duplicate set has no spread to make an interval of; the table says so in
    # brackets, which rich would read as markup and drop if they were not escaped
    text = drawn(SimResult(config(games=2), one_set(), seconds=1.0))
    assert "[n/a: one set]" in text
