"""`rummy sim --checkpoint DIR`: a long tournament played in windows, each set kept once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import without_timings
from rummykit.cli import main
from rummykit.tournament import SimConfig, SimError, run_sim
from rummykit.tournament.checkpoint import IDENTITY_FILE
from rummykit.tournament.tally import (
    PositionTally,
    SetTally,
    tally_from_json,
    tally_to_json,
)

ARGS = ("strong", "basic", "--games", "6", "--seed", "4", "--preset", "classic")


def sim_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["sim", *args, "--json", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    result: dict[str, Any] = json.loads(captured.out)
    return result


def test_a_run_picked_up_from_its_checkpoint_equals_one_uninterrupted_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    whole = without_timings(sim_json(capsys, *ARGS))
    kept = tmp_path / "kept"
    first = without_timings(sim_json(capsys, *ARGS, "--checkpoint", str(kept)))
    assert first == whole
    sets = sorted(path.name for path in kept.glob("set-*.json"))
    assert sets == ["set-00000.json", "set-00001.json", "set-00002.json"]
    # A stop after the first set: the others are played again, the first read back.
    (kept / "set-00001.json").unlink()
    (kept / "set-00002.json").unlink()
    again = without_timings(sim_json(capsys, *ARGS, "--checkpoint", str(kept), "--jobs", "2"))
    assert again == whole


def test_only_the_sets_not_kept_are_played(tmp_path: Path) -> None:
    config = SimConfig.from_options(
        ("basic", "random"),
        games=8,
        preset="classic",
        deals_only=True,
        seed=2,
        checkpoint=tmp_path,
    )
    games: list[int] = []
    run_sim(config, on_games=games.append)
    assert sum(games) == 8 and games.count(1) == 8  # all four sets played, game by game
    (tmp_path / "set-00003.json").unlink()
    games.clear()
    run_sim(config, on_games=games.append)
    assert games == [2, 2, 2, 1, 1]  # three sets read back at once, one played


def test_a_folder_of_another_tournament_is_refused(tmp_path: Path) -> None:
    def config(seed: int) -> SimConfig:
        return SimConfig.from_options(
            ("basic", "random"), games=2, deals_only=True, seed=seed, checkpoint=tmp_path
        )

    run_sim(config(1))
    with pytest.raises(SimError, match=r"another tournament .*seed"):
        run_sim(config(2))
    assert json.loads((tmp_path / IDENTITY_FILE).read_text())["seed"] == 1


def test_a_damaged_set_file_is_named(tmp_path: Path) -> None:
    config = SimConfig.from_options(
        ("basic", "random"), games=2, deals_only=True, seed=1, checkpoint=tmp_path
    )
    run_sim(config)
    (tmp_path / "set-00000.json").write_text("{not json")
    with pytest.raises(SimError, match=r"set-00000\.json cannot be read"):
        run_sim(config)


counts = st.integers(min_value=0, max_value=10**6)
positions = st.builds(
    PositionTally,
    games_won=counts,
    deals_won=counts,
    rummies=counts,
    points=st.integers(min_value=-(10**6), max_value=10**6),
)


@given(
    st.lists(positions, min_size=2, max_size=6),
    counts,
    st.lists(st.integers(min_value=-500, max_value=500), max_size=8),
    st.lists(st.floats(min_value=0, max_value=10, allow_nan=False), max_size=8),
)
def test_a_tally_reads_back_as_it_was_written(
    tallied: list[PositionTally], games: int, points: list[int], seconds: list[float]
) -> None:
    for position in tallied:
        position.deal_points.extend(points)
        position.decision_seconds.extend(seconds)
    tally = SetTally(tallied, games=games, deals=len(points), set_points_per_deal=[[1.5, -2.0]])
    text = json.dumps(tally_to_json(tally))
    assert tally_from_json(json.loads(text)) == tally
