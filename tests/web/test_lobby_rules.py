"""The lobby's house rules: drawn from /api/options, with each preset's own choices and ties."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from web_helpers import TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]


def open_rules(page: Any, live_server: Any, preset: str) -> None:
    page.goto(live_server.url + "/")
    page.get_by_test_id("preset").select_option(preset)
    page.get_by_test_id("house-rules").click()


def started_rules(page: Any, live_server: Any) -> dict[str, Any]:
    page.get_by_test_id("start").click()
    view = TablePage.from_lobby(page, live_server).view()
    rules: dict[str, Any] = view["rules"]
    return rules


def test_every_option_is_shown_with_the_title_and_help_of_its_description(
    page: Any, live_server: Any
) -> None:
    with urllib.request.urlopen(live_server.url + "/api/options") as answer:
        options = json.load(answer)
    for preset in ("classic", "party"):
        open_rules(page, live_server, preset)
        for field in options["presets"][preset]["form"]:
            control = page.get_by_test_id(f"rule-{field['name']}")
            expect(control).to_be_attached()
            expect(page.locator(f"label[for='rule-{field['name']}']")).to_have_text(field["title"])
            expect(page.locator(f"#rule-{field['name']}-help")).to_contain_text(field["help"])


def test_party_offers_the_party_sites_reshuffle_choices_and_no_endless_deal(
    page: Any, live_server: Any
) -> None:
    open_rules(page, live_server, "party")
    renewals = page.get_by_test_id("rule-renewals")
    texts = renewals.locator("option").all_inner_texts()
    assert texts == [
        "As the preset: Up to 15 times",
        "Up to 15 times",
        "Once",
        "Three times",
    ]
    expect(page.locator("#rule-renewals-help")).to_contain_text("15 at most")
    expect(page.get_by_test_id("rule-renewals-none")).to_have_count(0)
    renewals.select_option("3")
    assert started_rules(page, live_server)["renewals"] == 3


def test_party_no_limit_still_stops_a_deal_after_15_new_stocks(page: Any, live_server: Any) -> None:
    open_rules(page, live_server, "party")
    page.get_by_test_id("rule-renewals").select_option("15")
    assert started_rules(page, live_server)["renewals"] == 15


def test_standard_asks_for_a_deal_without_limit_and_a_number_sets_one(
    page: Any, live_server: Any
) -> None:
    open_rules(page, live_server, "standard")
    no_limit = page.get_by_test_id("rule-renewals-none")
    expect(no_limit).to_be_checked()
    expect(page.get_by_test_id("rule-renewals")).to_be_disabled()
    expect(page.locator("label[for='rule-renewals-none']")).to_contain_text("No limit")
    no_limit.uncheck()
    page.get_by_test_id("rule-renewals").fill("2")
    assert started_rules(page, live_server)["renewals"] == 2


def test_standard_keeps_its_endless_deal_when_left_alone(page: Any, live_server: Any) -> None:
    open_rules(page, live_server, "standard")
    assert started_rules(page, live_server)["renewals"] is None


def test_classic_offers_no_endless_deal(page: Any, live_server: Any) -> None:
    open_rules(page, live_server, "classic")
    expect(page.get_by_test_id("rule-renewals")).to_have_attribute("placeholder", "1")
    expect(page.get_by_test_id("rule-renewals-none")).to_have_count(0)


def test_party_aces_high_shows_and_makes_an_ace_cost_15(page: Any, live_server: Any) -> None:
    open_rules(page, live_server, "party")
    ace_points = page.get_by_test_id("rule-ace_points").locator("option").first
    expect(ace_points).to_have_text("As the preset: 1 point")
    page.get_by_test_id("rule-aces").select_option("low_or_high")
    expect(ace_points).to_have_text("As the preset: 15 points")
    rules = started_rules(page, live_server)
    assert (rules["aces"], rules["ace_points"]) == ("low_or_high", 15)


def test_party_aces_high_with_a_chosen_ace_cost_keeps_that_cost(
    page: Any, live_server: Any
) -> None:
    open_rules(page, live_server, "party")
    page.get_by_test_id("rule-aces").select_option("low_or_high")
    page.get_by_test_id("rule-ace_points").select_option("11")
    assert started_rules(page, live_server)["ace_points"] == 11


def test_classic_aces_high_leave_an_ace_at_1(page: Any, live_server: Any) -> None:
    open_rules(page, live_server, "classic")
    page.get_by_test_id("rule-aces").select_option("low_or_high")
    first = page.get_by_test_id("rule-ace_points").locator("option").first
    expect(first).to_have_text("As the preset: 1 point")
    assert started_rules(page, live_server)["ace_points"] == 1
