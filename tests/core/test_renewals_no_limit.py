"""One "no limit" for new stocks (issue 28): ``null`` puts no cap on them under every preset,
and a number is a cap, shown as that number, never as "no limit" (the party's 15)."""

from __future__ import annotations

import pytest

from rummykit.cli import explain_preset
from rummykit.core.presets import PRESETS, find_preset
from rummykit.core.rules import MOST_RENEWALS, Renew, option_specs
from rummykit.core.state import GameState

PAST_ANY_CAP = 20
"""New stocks that a capped party deal (15) could never reach: no cap lets a deal go past it."""


def churn(game: GameState, renewals: int) -> None:
    """Nobody lays a card: each player draws from the stock and throws the card back, until
    the deal ends or the stock has been renewed ``renewals`` times."""
    while not game.deal_over and game.renewals_used < renewals:
        seat = game.turn
        game.apply_text(f"{seat} draw stock")
        game.apply_text(f"{seat} discard {game.hands[seat][-1]}")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_null_renewals_and_null_idle_renewals_put_no_cap_on_new_stocks(name: str) -> None:
    preset = find_preset(name)
    renew = Renew.FLIP if preset.rules.renew is Renew.NONE else preset.rules.renew
    rules = preset.rules.replace(
        renewals=None, idle_renewals=None, renew=renew, empty_stock_choice=False
    )
    game = GameState.new(rules, preset.min_seats, seed=3)
    churn(game, PAST_ANY_CAP + 1)
    assert not game.deal_over
    assert game.renewals_used == PAST_ANY_CAP + 1


@pytest.mark.parametrize("idle", [None, 15])
def test_party_renewals_15_stop_the_deal_when_the_stock_runs_out_after_the_15th(
    idle: int | None,
) -> None:
    rules = find_preset("party").rules.replace(idle_renewals=idle)
    assert rules.renewals == 15
    game = GameState.new(rules, 2, seed=5)
    churn(game, MOST_RENEWALS + 1)
    assert game.deal_over
    assert game.renewals_used == 15


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_number_is_never_labelled_no_limit(name: str) -> None:
    preset = find_preset(name)
    for field in preset.form():
        choices = field["choices"]
        assert isinstance(choices, list)
        for choice in choices:
            if choice["value"] is not None:
                assert "no limit" not in str(choice["label"]).lower(), (field["name"], choice)
    for spec in option_specs():
        value = getattr(preset.rules, spec.name)
        offer = preset.offer(spec.name)
        labels = [spec.label(value)] if value is not None else []
        labels += [choice.label for choice in offer.choices] if offer is not None else []
        for label in labels:
            assert "no limit" not in label.lower(), (spec.name, label)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_text_says_no_limit_only_of_null(name: str) -> None:
    for line in explain_preset(find_preset(name)).splitlines():
        if "no limit" in line.lower():
            assert "null" in line, line


def test_rules_party_shows_15_new_stocks_as_15() -> None:
    text = explain_preset(find_preset("party"))
    line = next(line for line in text.splitlines() if line.startswith("renewals "))
    assert line.split()[1] == "15"
    assert "Up to 15 times" in line


@pytest.mark.parametrize("option", ["renewals", "idle_renewals"])
def test_null_reads_as_no_limit_for_both_stock_options(option: str) -> None:
    spec = next(spec for spec in option_specs() if spec.name == option)
    assert spec.none is not None
    assert spec.none.startswith("No limit")
    assert spec.parse("null") is None
    assert spec.parse("15") == 15
