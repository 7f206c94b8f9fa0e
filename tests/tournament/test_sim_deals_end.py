"""`rummy sim` under every preset cuts no deal: ``idle_renewals`` ends the deals gone round.

Before the rule, ``strong`` against ``basic`` had most ``boathouse`` and ``standard`` games
cut at ``DEAL_ACTION_CAP`` (the pile turned over unshuffled, the same cards coming round);
``benchmarks/deals_end.py`` plays a hundred games a preset and table size.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummykit.cli import main
from rummykit.core.presets import PRESETS


def sim(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["sim", *args, "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rummy_sim_cuts_no_deal_under_any_preset(
    capsys: pytest.CaptureFixture[str], preset: str
) -> None:
    result = sim(capsys, "strong", "basic", "--preset", preset, "--games", "4", "--seed", "7")
    assert result["cut_deals"] == 0
    assert result["cut_games"] == 0
    assert result["deals"] > 0


@pytest.mark.parametrize("preset", ["standard", "boathouse"])
def test_rummy_sim_cuts_no_deal_at_four_seats_where_the_pile_is_flipped_without_limit(
    capsys: pytest.CaptureFixture[str], preset: str
) -> None:
    bots = ["strong", "basic", "strong", "basic"]
    result = sim(capsys, *bots, "--preset", preset, "--games", "4", "--seed", "7")
    assert result["cut_deals"] == 0


@pytest.mark.parametrize("bots", [["strong", "basic"], ["strong", "basic", "strong", "basic"]])
def test_rummy_sim_cuts_no_deal_of_the_published_boathouse(
    capsys: pytest.CaptureFixture[str], bots: list[str]
) -> None:
    published = ["--rule", "melding=whole_hand", "--rule", "aces=around"]
    result = sim(capsys, *bots, "--preset", "boathouse", *published, "--games", "4", "--seed", "7")
    assert result["cut_deals"] == 0
    assert result["cut_games"] == 0
    assert result["deals"] > 0
