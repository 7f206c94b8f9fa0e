"""`rummy sim` and `rummy bots`: tournaments in duplicate sets, their records and reports."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from helpers import without_timings
from rummykit.bots import BOTS
from rummykit.cli import main
from rummykit.core.actions import Action, Discard
from rummykit.core.cards import standard_deck
from rummykit.core.observation import Observation
from rummykit.core.record import replay_json
from rummykit.tournament import (
    SimConfig,
    SimError,
    record_name,
    run_sim,
    seat_players,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["sim", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run(capsys, *args, "--json", "--quiet")
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


def check_consistent(result: dict[str, Any], bots: list[str]) -> None:
    games = result["games"]
    seats = result["seats"]
    assert [seat["bot"] for seat in seats] == bots
    assert sum(seat["games_won"] for seat in seats) + result["ties"] + result["cut_games"] == games
    assert result["decisive_deals"] + result["blocked_deals"] == result["deals"]
    assert sum(seat["deals_won"] for seat in seats) == result["decisive_deals"]
    for seat in seats:
        assert seat["win_rate"] == pytest.approx(seat["games_won"] / games, abs=1e-6)
        low, high = seat["win_rate_ci95"]
        assert 0 <= low <= seat["win_rate"] <= high <= 1
        for rate in ("going_out_rate", "going_rummy_rate", "decisive_deal_win_rate"):
            assert seat[rate] is None or 0 <= seat[rate] <= 1
        assert seat["going_rummy_rate"] <= seat["going_out_rate"]
        assert 0 <= seat["decision_ms_p50"] <= seat["decision_ms_p99"]
        assert seat["decisions"] > 0


def test_json_results_add_up_to_the_games_played(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "random", "basic", "--games", "4", "--seed", "1", "--jobs", "1")
    assert result["games"] == 4
    assert result["duplicate_sets"] == 2
    assert result["rules"] == "standard"
    assert result["deals"] >= 4  # games to 100 points: at least one deal each
    check_consistent(result, ["random", "basic"])
    for seat in result["seats"]:
        assert isinstance(seat["points_per_deal"], float)
        low, high = seat["points_per_deal_ci95"]
        assert low <= seat["points_per_deal"] <= high


def test_the_same_seed_gives_the_same_results(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("basic", "random", "--games", "4", "--seed", "7", "--deals-only")
    first = run_json(capsys, *args)
    second = run_json(capsys, *args)
    other_seed = run_json(capsys, *args[:-2], "8", "--deals-only")
    assert without_timings(first) == without_timings(second)
    assert without_timings(first) != without_timings(other_seed)


def test_processes_do_not_change_the_results(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("basic", "random", "--games", "6", "--seed", "3", "--deals-only")
    alone = run_json(capsys, *args, "--jobs", "1")
    pooled = run_json(capsys, *args, "--jobs", "2")
    assert without_timings(alone) == without_timings(pooled)


def test_games_are_rounded_up_to_whole_duplicate_sets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "basic", "random", "--games", "5", "--deals-only", "--json")
    assert code == 0
    assert json.loads(out)["games"] == 6
    assert "5 games rounded up to 6" in err


def test_records_hold_each_game_with_the_bots_in_seat_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    result = run_json(
        capsys, "random", "basic", "--games", "4", "--seed", "2", "--records", str(folder)
    )
    files = sorted(folder.iterdir())
    assert [path.name for path in files] == [
        record_name(set_index, rotation) for set_index in range(2) for rotation in range(2)
    ]
    winners = []
    for path in files:
        record = json.loads(path.read_text(encoding="utf-8"))
        rotation = int(path.stem[-1])
        assert record["players"] == (["random", "basic"] if rotation == 0 else ["basic", "random"])
        replayed, code = replay_json(path.read_text(encoding="utf-8"))
        assert code == 0, replayed["error"]
        assert replayed["game_over"]
        if replayed["winner"] is not None:
            winners.append(record["players"][replayed["winner"]])
    assert winners.count("random") == result["seats"][0]["games_won"]
    assert winners.count("basic") == result["seats"][1]["games_won"]


def test_a_duplicate_set_plays_the_same_decks_with_the_bots_swapped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run_json(capsys, "basic", "random", "--games", "4", "--seed", "5", "--records", str(tmp_path))
    for set_index in range(2):
        games = [
            json.loads((tmp_path / record_name(set_index, rotation)).read_text(encoding="utf-8"))
            for rotation in range(2)
        ]
        assert games[0]["players"] == ["basic", "random"]
        assert games[1]["players"] == ["random", "basic"]
        shared = min(len(games[0]["deals"]), len(games[1]["deals"]))
        for deal in range(shared):
            assert games[0]["deals"][deal]["deck"] == games[1]["deals"][deal]["deck"]
            assert games[0]["deals"][deal]["dealer"] == games[1]["deals"][deal]["dealer"]
        assert games[0]["deals"][0]["dealer"] == 0
    other_set = json.loads((tmp_path / record_name(1, 0)).read_text(encoding="utf-8"))
    first_set = json.loads((tmp_path / record_name(0, 0)).read_text(encoding="utf-8"))
    assert other_set["deals"][0]["deck"] != first_set["deals"][0]["deck"]


def test_seat_rotation_moves_every_bot_one_seat_on() -> None:
    assert seat_players(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert seat_players(["a", "b", "c"], 1) == ["c", "a", "b"]
    assert seat_players(["a", "b", "c"], 2) == ["b", "c", "a"]


@pytest.mark.parametrize("bots", [["basic", "random", "random"], ["random", "basic"] * 2])
def test_three_and_four_seats_play_one_game_a_rotation(
    capsys: pytest.CaptureFixture[str], bots: list[str]
) -> None:
    result = run_json(capsys, *bots, "--games", str(len(bots)), "--deals-only", "--seed", "4")
    assert result["games"] == len(bots)
    assert result["duplicate_sets"] == 1
    assert result["deals"] + result["cut_deals"] == len(bots)
    check_consistent(result, bots)
    # One set gives a single observation of points per deal: no interval.
    assert all(seat["points_per_deal_ci95"] == [None, None] for seat in result["seats"])


def test_rule_overrides_reach_the_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result = run_json(
        capsys,
        *("basic", "random", "--games", "2", "--preset", "classic", "--deals-only"),
        *("--rule", "renewals=2", "--rule", "aces=low_or_high", "--records", str(tmp_path)),
    )
    expected = {"preset": "classic", "aces": "low_or_high", "renewals": 2, "deals": 1}
    assert result["rules"] == expected
    record = json.loads((tmp_path / record_name(0, 0)).read_text(encoding="utf-8"))
    assert record["rules"] == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rule", "renewals=lots"], "renewals must be a whole number"),
        (["--rule", "nosuch=1"], "Unknown rule option 'nosuch'"),
        (["--rule", "renewals"], "A rule is NAME=VALUE"),
        (["--rule", "deals=2", "--deals-only"], "not both"),
        (["--preset", "nosuch"], "Unknown preset 'nosuch'"),
        (["--games", "0"], "at least one game"),
        (["--jobs", "-1"], "--jobs must be"),
    ],
)
def test_bad_options_are_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "basic", "random", *args)
    assert code == 2
    assert out == ""
    assert message in err


def test_bots_must_be_known_and_two_to_eight(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "basic", "nobody")
    assert code == 2
    assert "Unknown bot 'nobody'" in err and "random" in err
    code, _, err = run(capsys, "basic")
    assert code == 2
    assert "2 to 8" in err
    code, _, err = run(capsys, *["random"] * 9)
    assert code == 2
    code, _, err = run(capsys, *["random"] * 7)
    assert code == 2
    assert "7 seats need two decks" in err
    code, _, err = run(capsys, "basic", "random", "random", "--preset", "practice")
    assert code == 2
    assert "practice preset is for 2 seats" in err


def test_plot_writes_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "sim.png"
    code, out, err = run(
        capsys, "basic", "random", "--games", "4", "--deals-only", "--plot", str(path)
    )
    assert code == 0, err
    assert path.read_bytes()[:8] == PNG_MAGIC
    assert "basic" in out


def test_the_table_reports_every_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "basic", "random", "--games", "4", "--deals-only", "--seed", "1")
    assert code == 0
    assert "0 basic" in out and "1 random" in out
    assert "win rate" in out and "points/deal" in out and "ms p50/p99" in out
    assert "lower is better" not in out
    assert "4 games, 2 duplicate sets of 2" in out
    assert all(line == line.rstrip() for line in out.splitlines())


def test_penalty_scoring_says_lower_is_better(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("basic", "random", "--games", "2", "--deals-only", "--rule", "scoring=penalty")
    assert run_json(capsys, *args)["lower_is_better"] is True
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "lower is better" in out


def test_basic_wins_nearly_every_decisive_deal_against_random(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = run_json(capsys, "basic", "random", "--games", "30", "--deals-only", "--seed", "11")
    basic = result["seats"][0]
    assert basic["decisive_deal_win_rate"] >= 0.9
    assert basic["points_per_deal"] > result["seats"][1]["points_per_deal"]


def test_a_deal_past_the_action_cap_cuts_its_game(tmp_path: Path) -> None:
    config = SimConfig.from_options(
        ["random", "random"], games=2, preset="standard", seed=1, records=tmp_path
    )
    result = run_sim(dataclasses.replace(config, action_cap=10))
    assert result.games == 2
    assert result.cut_games == 2
    assert result.tally.cut_deals == 2
    assert result.tally.deals == 0
    assert all(position.games_won == 0 for position in result.positions)
    data = result.to_json()
    assert data["cut_games"] == 2 and data["deal_action_cap"] == 10
    assert data["seats"][0]["points_per_deal"] is None
    for path in tmp_path.iterdir():
        replayed, code = replay_json(path.read_text(encoding="utf-8"))
        assert code == 0
        assert not replayed["game_over"]
        assert len(json.loads(path.read_text(encoding="utf-8"))["deals"][0]["actions"]) == 10


class CheatingBot:
    """Throws away a card it does not hold."""

    name = "cheat"
    description = "Throws away a card it does not hold."

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        legal = observation.legal_actions
        discards = [action for action in legal if isinstance(action, Discard)]
        if not discards:
            return legal[0]
        missing = next(card for card in standard_deck() if card not in observation.hand)
        return Discard(discards[0].seat, missing)


def test_an_illegal_action_stops_the_run_naming_the_bot(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BOTS, "cheat", CheatingBot)
    code, _, err = run(capsys, "cheat", "basic", "--games", "2", "--deals-only")
    assert code == 1
    assert "Bot 'cheat' at seat" in err and "illegal action" in err
    with pytest.raises(SimError, match="cheat"):
        run_sim(SimConfig.from_options(["basic", "cheat"], games=2, deals_only=True))


def test_bots_lists_every_registered_bot_with_its_description(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert set(lines) == set(BOTS)
    assert "Picks any legal action with equal chance." in lines["random"]
    assert "Takes the discard only to complete a meld" in lines["basic"]
