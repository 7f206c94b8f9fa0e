"""A tournament's settings from command-line values (``SimConfig.from_options``), and their
refusals, without playing a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummykit.bots.play import DEAL_ACTION_CAP
from rummykit.core.presets import DEFAULT_PRESET
from rummykit.core.rules import MAX_SEATS
from rummykit.tournament.config import SimConfig, SimError


def test_the_defaults_are_the_reference_rules_and_seed_zero() -> None:
    config = SimConfig.from_options(["basic", "random"], games=2)
    assert config.bots == ("basic", "random")
    assert config.preset.name == DEFAULT_PRESET
    assert (config.seed, config.records, config.checkpoint) == (0, None, None)
    assert config.action_cap == DEAL_ACTION_CAP
    assert (config.seat_count, config.sets, config.games) == (2, 1, 2)


@pytest.mark.parametrize(
    ("games", "seats", "sets"), [(1, 2, 1), (2, 2, 1), (3, 2, 2), (7, 3, 3), (8, 4, 2)]
)
def test_games_are_rounded_up_to_whole_duplicate_sets(games: int, seats: int, sets: int) -> None:
    config = SimConfig.from_options(["random"] * seats, games=games)
    assert config.sets == sets
    assert config.games == sets * seats >= games


def test_rules_come_as_name_value_texts_or_as_a_mapping() -> None:
    from_texts = SimConfig.from_options(["basic", "basic"], games=1, rules=["target= 50"])
    from_mapping = SimConfig.from_options(["basic", "basic"], games=1, rules={"target": "50"})
    assert from_texts.rules == from_mapping.rules
    assert from_texts.rules.target == 50


def test_deals_only_makes_each_game_one_deal() -> None:
    config = SimConfig.from_options(["basic", "basic"], games=1, deals_only=True)
    assert config.rules.deals == 1


def test_folders_are_taken_as_paths(tmp_path: Path) -> None:
    config = SimConfig.from_options(
        ["basic", "basic"],
        games=1,
        records=str(tmp_path / "records"),
        checkpoint=str(tmp_path / "kept"),
        seed=9,
    )
    assert config.records == tmp_path / "records"
    assert config.checkpoint == tmp_path / "kept"
    assert config.seed == 9


@pytest.mark.parametrize(
    ("bots", "options", "reason"),
    [
        (["basic"], {}, "Name one bot a seat, 2 to"),
        (["basic"] * (MAX_SEATS + 1), {}, f"not {MAX_SEATS + 1}"),
        (["basic", "nobody"], {}, "Unknown bot 'nobody'"),
        (["basic", "basic"], {"games": 0}, "Play at least one game, not 0"),
        (["basic", "basic"], {"rules": ["target"]}, "A rule is NAME=VALUE"),
        (["basic", "basic"], {"rules": ["=5"]}, "A rule is NAME=VALUE"),
        (["basic", "basic"], {"rules": ["colour=red"]}, "Unknown rule option 'colour'"),
        (["basic", "basic"], {"rules": ["target=many"]}, "target"),
        (["basic", "basic"], {"preset": "no-such-preset"}, "no-such-preset"),
        (
            ["basic", "basic"],
            {"rules": ["deals=2"], "deals_only": True},
            "either --deals-only or --rule deals",
        ),
    ],
)
def test_what_cannot_be_played_is_refused_with_the_reason(
    bots: list[str], options: dict[str, object], reason: str
) -> None:
    arguments: dict[str, object] = {"games": 1, **options}
    with pytest.raises(SimError, match=None) as refused:
        SimConfig.from_options(bots, **arguments)  # type: ignore[arg-type]
    assert reason in str(refused.value)
