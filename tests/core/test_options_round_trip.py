"""A set value is never overridden: every option set explicitly, under every preset, comes
back the same through every path that carries rules (issue 28).

The paths: ``--rule NAME=VALUE`` text (``rummy sim``), the JSON of ``/api/tables`` and of a
party's settings (``checked_rules``), a record written and read back, and its replay.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import random_rules
from rummykit.core.options import json_value
from rummykit.core.presets import PRESETS, Preset, describe_rules, find_preset
from rummykit.core.record import dump_record, load_record, record_of, replay
from rummykit.core.rules import MAX_SEATS_ONE_DECK, OPTION_NAMES, Rules
from rummykit.core.state import GameState
from rummykit.protocol.settings import RECORD_RULES, HumanPlayer, TableSettings
from rummykit.server.parties.party import checked_rules
from rummykit.tournament.config import SimConfig

STEPS = 120
"""Random actions played before the record is written: enough for a deal or two."""


@st.composite
def preset_rules_and_seats(draw: st.DrawFn) -> tuple[Preset, Rules, int]:
    """A preset, a table size it is made for, and every option set to a value of its own."""
    preset = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    seats = draw(st.integers(preset.min_seats, preset.max_seats))
    rng = draw(st.randoms(use_true_random=False))
    # Some options are set to the preset's own value: the set value a tie must not move.
    same = draw(st.sets(st.sampled_from(OPTION_NAMES)))
    fixed = {name: getattr(preset.rules, name) for name in same}
    if fixed.get("stock_with_discard"):
        fixed["melding"] = preset.rules.melding  # not played with knock (knock_stock_card)
    if "scoring" in fixed and json_value(fixed["scoring"]) == "melds":
        fixed["melding"] = preset.rules.melding  # not played with knock (knock_meld_points)
    if seats > MAX_SEATS_ONE_DECK:
        fixed.pop("decks", None)  # seven or eight seats are dealt from two decks only
    options = random_rules(rng, seats, **fixed).to_mapping()
    # Set through the preset's own rules, so its ties are in play while every option is set.
    return preset, preset.rules.replace(**options), seats


def rule_text(value: object) -> str:
    """An option's value as ``--rule NAME=VALUE`` writes it."""
    return json.dumps(json_value(value)).strip('"')


def through_record(preset: Preset, rules: Rules) -> Rules:
    return Rules.from_mapping(json.loads(json.dumps(describe_rules(preset, rules))))


def through_cli(preset: Preset, rules: Rules) -> Rules:
    texts = [f"{name}={rule_text(value)}" for name, value in rules.to_mapping().items()]
    config = SimConfig.from_options(["basic", "basic"], games=2, preset=preset.name, rules=texts)
    return through_record(config.preset, config.rules)


def through_table_settings(preset: Preset, rules: Rules) -> Rules:
    stored = TableSettings(
        rules=RECORD_RULES.validate_python(describe_rules(preset, rules)),
        players=(HumanPlayer(kind="human", name="Ann"),),
        practice=False,
    )
    read = TableSettings.model_validate_json(stored.model_dump_json())
    return Rules.from_mapping(read.rules)


def through_party_settings(preset: Preset, rules: Rules) -> Rules:
    sent = json.loads(json.dumps(rules.to_mapping()))  # as the lobby sends every option
    kept = json.loads(json.dumps(checked_rules(preset.name, sent)))
    return Rules.from_mapping({"preset": preset.name, **kept})


@settings(max_examples=100, deadline=None)
@given(preset_rules_and_seats())
def test_every_option_set_explicitly_survives_every_path(
    setup: tuple[Preset, Rules, int],
) -> None:
    preset, rules, _ = setup
    assert through_record(preset, rules) == rules
    assert through_table_settings(preset, rules) == rules
    assert through_party_settings(preset, rules) == rules
    assert through_cli(preset, rules) == rules


@settings(max_examples=25, deadline=None)
@given(preset_rules_and_seats(), st.integers(0, 2**32 - 1))
def test_a_record_with_every_option_set_replays_to_the_same_game(
    setup: tuple[Preset, Rules, int], seed: int
) -> None:
    preset, rules, seats = setup
    rng = random.Random(seed)
    game = GameState.new(rules, seats, dealer=rng.randrange(seats), seed=seed)
    for _ in range(STEPS):
        if game.game_over:
            break
        if game.deal_over:
            game.start_deal()
            continue
        game.apply(rng.choice(list(game.legal_actions())))
    record = record_of(game, preset, [f"P{seat}" for seat in range(seats)])
    loaded = load_record(dump_record(record))
    assert loaded.rules == rules
    replayed = replay(loaded)
    assert replayed.ok, replayed.error
    assert replayed.state is not None
    assert replayed.state.rules == rules
    assert replayed.state.scores == game.scores


@pytest.mark.parametrize("aces", ["low", "low_or_high"])
@pytest.mark.parametrize("ace_points", [1, 11, 15])
def test_party_ace_points_set_yourself_outlive_the_aces_tie(aces: str, ace_points: int) -> None:
    party = find_preset("party")
    rules = party.rules.replace(aces=aces, ace_points=ace_points)
    assert rules.ace_points == ace_points
    for path in (through_record, through_cli, through_table_settings, through_party_settings):
        assert path(party, rules).ace_points == ace_points, path.__name__


def test_party_aces_high_alone_still_cost_15() -> None:
    party = find_preset("party")
    assert through_party_settings(party, party.rules.replace(aces="low_or_high")).ace_points == 15
    assert checked_rules("party", {"aces": "low_or_high"}) == {
        "aces": "low_or_high",
        "ace_points": 15,
    }
