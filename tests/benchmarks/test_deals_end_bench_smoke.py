"""benchmarks/deals_end.py in miniature: a game a preset, every deal played to its end."""

import json

import pytest

from helpers import run_benchmark


@pytest.mark.timeout(300)
def test_a_game_a_preset_ends_every_deal_and_the_figures_add_up() -> None:
    finished = run_benchmark(
        "deals_end.py",
        "--games", "1", "--seats", "2", "--presets", "classic", "boathouse", "--json",
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr
    tallies = json.loads(finished.stdout)
    assert [(tally["preset"], tally["seats"]) for tally in tallies] == [
        ("classic", 2),
        ("boathouse", 2),
    ]
    for tally in tallies:
        assert tally["games"] == 1 and tally["deals"] > 0 and tally["cut"] == 0
        assert tally["stalled"] <= tally["blocked"] <= tally["deals"]
        assert 0 < tally["longest"] < 3000


@pytest.mark.timeout(300)
def test_the_deals_before_the_rule_are_counted_with_it_overridden() -> None:
    finished = run_benchmark(
        "deals_end.py",
        "--games", "1", "--seats", "2", "--presets", "classic", "--rule", "idle_renewals=null",
        "--json",
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr
    assert json.loads(finished.stdout)[0]["stalled"] == 0
