"""Golden playthroughs: each preset's whole game record replays exactly to its expected JSON.

The records and their ``.expected.json`` are written by ``tests/records/regenerate.py``; a
change here is a change of the rules' outcome and must be made on purpose.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from rummykit.core.presets import PRESETS
from rummykit.core.record import dump_record, load_record, replay_json

RECORDS = Path(__file__).resolve().parents[1] / "records"
NAMES = ("classic", "standard", "practice", "party", "boathouse", "eight_seats", "knock")
PRESET_OF = {"eight_seats": "standard"}
"""The preset of a golden game not named after one (eight seats: standard with two decks)."""
OVERRIDES = {"eight_seats": {"decks": 2}}
"""The options a golden game changes from its preset."""


def _record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _expected(name: str) -> dict[str, Any]:
    path = RECORDS / f"{name}.expected.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_replays_to_its_expected_json(name: str) -> None:
    result, code = replay_json((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    assert code == 0, result["error"]
    assert result == _expected(name)


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_is_a_whole_game_under_its_preset(name: str) -> None:
    record = _record(name)
    assert record["format"] == "rummy-record/1"
    preset_name = PRESET_OF.get(name, name)
    overrides = OVERRIDES.get(name)
    assert record["rules"] == ({"preset": preset_name, **overrides} if overrides else name)
    preset = PRESETS[preset_name]
    seats = len(record["players"])
    assert preset.min_seats <= seats <= preset.max_seats
    expected = _expected(name)
    assert expected["ok"] is True
    assert expected["error"] is None
    assert expected["game_over"] is True
    assert expected["state"]["phase"] == "over"
    assert len(expected["deals"]) == len(record["deals"])
    # Every deal is finished, and the game ends with the last one only.
    results = ("out", "rummy", "blocked", "knock", "undercut")
    assert all(deal["result"] in results for deal in expected["deals"])


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_reaches_the_target_only_in_its_last_deal(name: str) -> None:
    # Winner collects, to 100, in every preset: the game ends after the deal in which a total
    # reaches the target, so no total reached it before the last deal.
    target = PRESETS[PRESET_OF.get(name, name)].rules.target
    expected = _expected(name)
    totals = [0] * len(expected["scores"])
    for number, deal in enumerate(expected["deals"]):
        totals = [total + points for total, points in zip(totals, deal["points"], strict=True)]
        last = number == len(expected["deals"]) - 1
        assert (max(totals) >= target) is last, number


@pytest.mark.parametrize("name", NAMES)
def test_golden_totals_are_the_sum_of_deal_points(name: str) -> None:
    expected = _expected(name)
    seats = len(expected["scores"])
    totals = [sum(deal["points"][seat] for deal in expected["deals"]) for seat in range(seats)]
    assert totals == expected["scores"]
    best = max(totals)
    winner = totals.index(best) if totals.count(best) == 1 else None
    assert expected["winner"] == winner


@pytest.mark.parametrize("name", NAMES)
def test_golden_deal_results_agree_with_their_points(name: str) -> None:
    for deal in _expected(name)["deals"]:
        if deal["result"] == "blocked":
            assert deal["winner"] is None
        else:
            # Winner collects: only the seat that went out scores.
            assert all(
                points == 0 for seat, points in enumerate(deal["points"]) if seat != deal["winner"]
            )


@pytest.mark.parametrize("name", NAMES)
def test_golden_dealers_follow_the_rotation(name: str) -> None:
    # dealer "left" in every preset: each deal passes to the left of the last.
    deals = _record(name)["deals"]
    seats = len(_record(name)["players"])
    for before, after in itertools.pairwise(deals):
        assert after["dealer"] == (before["dealer"] + 1) % seats


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_survives_dump_and_load(name: str) -> None:
    text = (RECORDS / f"{name}.json").read_text(encoding="utf-8")
    assert replay_json(dump_record(load_record(text))) == replay_json(text)


def test_the_boathouse_game_takes_from_the_pile_and_replays_the_stock_cards_it_brought() -> None:
    # Its takes from the pile each bring the stock's top card: the replay reproduces them from
    # the recorded deck order alone (the expected JSON's hands and scores say so).
    record = _record("boathouse")
    takes = [text for deal in record["deals"] for text in deal["actions"] if "draw discard" in text]
    assert takes


def test_the_eight_seat_game_deals_seven_cards_from_two_decks() -> None:
    record = _record("eight_seats")
    assert len(record["players"]) == 8
    assert all(len(deal["deck"]) == 104 for deal in record["deals"])


def test_the_knock_golden_record_holds_a_knock_an_undercut_and_every_hand_laid_out() -> None:
    record = _record("knock")
    expected = _expected("knock")
    results = [deal["result"] for deal in expected["deals"]]
    assert {"knock", "undercut"} <= set(results)
    for deal, played in zip(expected["deals"], record["deals"], strict=True):
        knocks = [text for text in played["actions"] if text.split()[1] == "knock"]
        if deal["result"] in ("knock", "undercut"):
            assert len(knocks) == 1 and played["actions"][-1] == knocks[0]
            assert deal["knocker"] == int(knocks[0].split()[0])
            assert (deal["winner"] == deal["knocker"]) is (deal["result"] == "knock")
        else:
            assert not knocks
        assert len(deal["deadwood"]) == len(record["players"])
        assert not any(text.split()[1] in ("meld", "layoff") for text in played["actions"])
    laid = expected["state"]["laid_out"]
    assert [hand["value"] for hand in laid] == expected["deals"][-1]["deadwood"]
