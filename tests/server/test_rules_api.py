"""``POST /api/rules``: what a preset with some options changed makes, for the page's forms.

The page keeps no rule of its own: the preset's ties, the table sizes the rules deal and the
cards each player holds come from here (and, for a party, from its view).
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit.core.presets import PRESETS, preset_with_overrides
from rummykit.core.rules import MAX_SEATS
from rummykit.protocol import PartyView, RulesInPlay


def asked(client: TestClient, preset: str, rules: dict[str, Any] | None = None) -> Any:
    answer = client.post("/api/rules", json={"preset": preset, "rules": rules or {}})
    assert answer.status_code == 200, answer.text
    RulesInPlay.model_validate(answer.json())
    return answer.json()


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_preset_alone_changes_nothing_and_deals_to_the_sizes_it_is_made_for(
    client: TestClient, name: str
) -> None:
    preset = PRESETS[name]
    made = asked(client, name)
    assert made["rules"] == {}
    assert made["in_play"] == preset.rules.to_mapping()
    assert (
        made["seats"]
        == preset.seat_counts()
        == [seats for seats in range(preset.min_seats, min(preset.max_seats, 6) + 1)]
    )
    assert made["hands"] == {
        str(seats): preset.rules.hand_size_for(seats) for seats in made["seats"]
    }


def test_the_party_tie_moves_the_ace_with_the_aces_and_a_chosen_cost_stays(
    client: TestClient,
) -> None:
    high = asked(client, "party", {"aces": "low_or_high", "target": 50})
    assert (high["in_play"]["aces"], high["in_play"]["ace_points"]) == ("low_or_high", 15)
    assert high["rules"]["target"] == 50
    chosen = asked(client, "party", {"aces": "low_or_high", "ace_points": 11})
    assert chosen["in_play"]["ace_points"] == 11
    # what the answer's changes make is what was asked: a table made with them plays it
    _, rules = preset_with_overrides({"preset": "party", **chosen["rules"]})
    assert rules.to_mapping() == chosen["in_play"]


def test_a_value_equal_to_the_presets_is_no_change(client: TestClient) -> None:
    assert asked(client, "classic", {"target": 100, "aces": "low"})["rules"] == {}


def test_the_table_sizes_follow_the_hand_size_and_the_decks(client: TestClient) -> None:
    # ten cards each: six seats need 61 cards with the up-card, five need 51
    assert asked(client, "classic", {"hand_size": 10})["seats"] == [2, 3, 4, 5]
    two_decks = asked(client, "classic", {"hand_size": 10, "decks": 2})
    assert two_decks["seats"] == list(range(2, MAX_SEATS + 1))
    assert two_decks["hands"]["8"] == 10
    assert asked(client, "classic", {"decks": 2})["hands"]["8"] == 7
    assert asked(client, "practice")["seats"] == [2]


def test_five_hundred_deals_thirteen_to_two_and_seven_to_more(client: TestClient) -> None:
    hands = asked(client, "500", {"decks": 2})["hands"]
    assert (hands["2"], hands["3"], hands["8"]) == (13, 7, 7)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"preset": "knock", "rules": {"scoring": "melds"}}, "scoring melds needs melding"),
        ({"preset": "classic", "rules": {"target": "far"}}, "target must be"),
        ({"preset": "classic", "rules": {"colour": "red"}}, "Unknown rule option 'colour'"),
        ({"preset": "nowhere"}, "Unknown preset 'nowhere'"),
        ({"preset": "classic", "rules": {f"o{n}": 1 for n in range(65)}}, "rules"),
        ({"rules": {}}, "preset"),
    ],
)
def test_rules_that_cannot_be_played_or_read_are_answered_400_with_why(
    client: TestClient, body: dict[str, Any], said: str
) -> None:
    answer = client.post("/api/rules", json=body)
    assert answer.status_code == 400
    assert said in answer.json()["error"]


def test_a_partys_view_carries_its_rules_in_play_and_the_sizes_they_deal(
    client: TestClient,
) -> None:
    made = client.post("/api/parties", json={"name": "Ann"}).json()
    view = PartyView.model_validate_json(client.get(f"/api/parties/{made['code']}").text)
    assert view.in_play == PRESETS[view.preset].rules.to_mapping()
    assert view.seats == (2, 3, 4, 5, 6)


def test_the_party_preset_puts_the_rule_texts_house_rules_first_with_their_values(
    client: TestClient,
) -> None:
    house = client.get("/api/options").json()["presets"]["party"]["house"]
    assert [rule["option"] for rule in house] == [
        "target", "scoring", "hand_size", "aces", "layoff", "melds_per_turn", "go_out",
        "rummy_bonus", "renewals",
    ]  # fmt: skip
    offered = {rule["option"]: [choice["value"] for choice in rule["choices"]] for rule in house}
    assert offered["target"] == [50, 100, 200]
    assert offered["hand_size"] == ["by_seats", 7]
    assert offered["renewals"] == [15, 1, 3]
    labels = {rule["option"]: [choice["label"] for choice in rule["choices"]] for rule in house}
    assert labels["target"] == ["50 points", "100 points", "200 points"]
    assert labels["melds_per_turn"] == ["Any number", "One a turn"]
    assert all(
        not preset["house"]
        for name, preset in client.get("/api/options").json()["presets"].items()
        if name != "party"
    )
