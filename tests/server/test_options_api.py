"""``GET /api/options``: every rule option's one description, and each preset's settings form."""

from __future__ import annotations

import json
import re
from pathlib import Path

from starlette.testclient import TestClient

from rummykit.core.presets import PRESETS
from rummykit.core.rules import OPTION_NAMES, option_specs
from table_client import bearer

WEB = Path(__file__).resolve().parents[2] / "src" / "rummykit" / "web"


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


RULE_FORMS = ("lobby.js", "party.js", "party/model.js", "rule_form.js", "table/seats.js")
"""The page's modules that build rule forms or offer table sizes: not one option named."""


def _page_modules() -> dict[str, str]:
    """Every module of the page but the catalogues (their English is generated from Python)."""
    return {
        path.relative_to(WEB).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(WEB.rglob("*.js"))
        if path.relative_to(WEB).parts[0] != "i18n"
    }


def test_no_module_of_the_page_holds_an_options_words_or_a_presets_offer() -> None:
    modules = _page_modules()
    assert set(RULE_FORMS) <= set(modules)
    labels = {
        choice.label
        for preset in PRESETS.values()
        for choices in (
            *(offer.choices for offer in preset.offers),
            *(rule.labels for rule in preset.house),
        )
        for choice in choices
    }
    for spec in option_specs():
        labels |= {spec.title, spec.help, *(choice.label for choice in spec.choices)}
    for name, source in modules.items():
        for words in ("NUMBER_LIMITS", "TITLES", "CHOICES", "HOUSE_RULES", "CARDS_IN_A_DECK"):
            assert words not in source, (name, words)
        for label in labels:
            # a short label ("Once", "1 point") may be an ordinary word of the code
            assert len(label) < 12 or label not in source, (name, label)


def test_the_rule_forms_name_no_option() -> None:
    modules = _page_modules()
    for name in RULE_FORMS:
        for spec in option_specs():
            found = re.search(
                rf"[\"'`]{spec.name}[\"'`]|\b{spec.name}\s*:|\.{spec.name}\b", modules[name]
            )
            assert found is None, (name, spec.name)


def test_the_turn_time_limits_offered_are_the_servers_own(client: TestClient) -> None:
    from rummykit.protocol.facts import TURN_TIMERS

    assert client.get("/api/options").json()["turn_timers"] == list(TURN_TIMERS)
