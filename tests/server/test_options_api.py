"""``GET /api/options``: every rule option's one description, and each preset's settings form."""

from __future__ import annotations

import json
import re
from pathlib import Path

from starlette.testclient import TestClient

from rummykit.core.presets import PRESETS
from rummykit.core.rules import OPTION_NAMES, option_specs
from table_client import bearer

LOBBY = Path(__file__).resolve().parents[2] / "src" / "rummykit" / "web" / "lobby.js"


def test_every_option_reaches_the_options_api_with_its_description_and_defaults(
    client: TestClient,
) -> None:
    options = client.get("/api/options").json()
    assert [option["name"] for option in options["options"]] == list(OPTION_NAMES)
    for option, spec in zip(options["options"], option_specs(), strict=True):
        defaults = {name: preset.rules.to_mapping()[spec.name] for name, preset in PRESETS.items()}
        assert option == json.loads(json.dumps({**spec.to_json(), "defaults": defaults}))
        assert option["title"] and option["help"]


def test_each_preset_comes_with_its_rules_and_its_settings_form(client: TestClient) -> None:
    presets = client.get("/api/options").json()["presets"]
    assert list(presets) == list(PRESETS)
    for name, preset in PRESETS.items():
        assert presets[name]["rules"] == preset.rules.to_mapping()
        assert presets[name]["form"] == json.loads(json.dumps(preset.form()))
        assert [field["name"] for field in presets[name]["form"]] == list(OPTION_NAMES)
        for field in presets[name]["form"]:
            assert field["default"] == preset.rules.to_mapping()[field["name"]]


def test_party_comes_with_its_aces_tie_and_its_renewal_choices(client: TestClient) -> None:
    party = client.get("/api/options").json()["presets"]["party"]
    [tie] = party["ties"]
    assert (tie["option"], tie["follower"]) == ("aces", "ace_points")
    assert tie["values"] == [["low", 1], ["low_or_high", 15]]
    [renewals] = [field for field in party["form"] if field["name"] == "renewals"]
    assert [choice["value"] for choice in renewals["choices"]] == [15, 1, 3]
    assert renewals["none"] is None


def test_only_standard_and_boathouse_offer_a_deal_without_end(client: TestClient) -> None:
    presets = client.get("/api/options").json()["presets"]
    offering = [
        name
        for name, preset in presets.items()
        for field in preset["form"]
        if field["name"] == "renewals" and field["none"] is not None
    ]
    assert offering == ["standard", "boathouse"]  # boathouse is standard with two changes


def test_a_party_table_with_aces_high_makes_an_ace_cost_15(client: TestClient) -> None:
    made = client.post(
        "/api/tables",
        json={"preset": "party", "rules": {"aces": "low_or_high"}, "opponents": ["basic"]},
    ).json()
    view = client.get(f"/api/tables/{made['table']}", headers=bearer(made["token"])).json()
    assert (view["view"]["rules"]["aces"], view["view"]["rules"]["ace_points"]) == (
        "low_or_high",
        15,
    )


def test_a_party_table_keeps_ace_points_set_with_aces_high(client: TestClient) -> None:
    # A set value is never overridden: "unless you set ace_points yourself" (issue 28).
    made = client.post(
        "/api/tables",
        json={
            "preset": "party",
            "rules": {"aces": "low_or_high", "ace_points": 1},
            "opponents": ["basic"],
        },
    ).json()
    view = client.get(f"/api/tables/{made['table']}", headers=bearer(made["token"])).json()
    assert (view["view"]["rules"]["aces"], view["view"]["rules"]["ace_points"]) == (
        "low_or_high",
        1,
    )


def test_the_lobby_keeps_no_list_of_options_titles_or_limits() -> None:
    source = LOBBY.read_text(encoding="utf-8")
    for name in ("NUMBER_LIMITS", "TITLES", "CHOICES"):
        assert name not in source
    for spec in option_specs():
        assert not re.search(rf"[\"'`]{spec.name}[\"'`]|\b{spec.name}\s*:", source), spec.name
        assert spec.title not in source, spec.name
        for choice in spec.choices:
            assert choice.label not in source, (spec.name, choice.value)


def test_the_turn_time_limits_offered_are_the_servers_own(client: TestClient) -> None:
    from rummykit.protocol.facts import TURN_TIMERS

    assert client.get("/api/options").json()["turn_timers"] == list(TURN_TIMERS)
