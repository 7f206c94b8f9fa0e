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
from rummykit.core.record import dump_record, load_record, replay, replay_json
from rummykit.core.state import GameState

RECORDS = Path(__file__).resolve().parents[1] / "records"
NAMES = ("classic", "standard", "practice", "party", "boathouse", "eight_seats", "knock", "500")
PRESET_OF = {"eight_seats": "standard"}
"""The preset of a golden game not named after one (eight seats: standard with two decks)."""
OVERRIDES = {"eight_seats": {"decks": 2}}
"""The options a golden game changes from its preset."""
WINNER_COLLECTS = ("classic", "standard", "practice", "party")


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
    # Every preset ranks the highest total first (winner collects to 100, meld points to 500):
    # the game ends after the deal in which a total reaches the target, and not before.
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


@pytest.mark.parametrize("name", WINNER_COLLECTS)
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


# ----- 500 Rum: meld points counted here from the actions, apart from the engine -----------


def _value(word: str, *, low_ace: bool = False) -> int:
    """A card's points under the 500 preset: ace 15 (1 at the foot of a run), faces 10."""
    rank = word.split("=")[-1][0]
    if rank == "A":
        return 1 if low_ace else 15
    return 10 if rank in "TJQK" else int(rank)


def _laid_points(actions: list[str], seats: int) -> list[int]:
    """What each seat laid on the table, read from the action texts alone."""
    table = [0] * seats
    melds: list[list[str]] = []
    for text in actions:
        seat, verb, *rest = text.split()
        if verb == "meld":
            cards = [word.split("=")[-1] for word in rest]
            run = len({card[0] for card in cards}) > 1
            melds.append(cards)
            table[int(seat)] += sum(
                _value(card, low_ace=run and index == 0) for index, card in enumerate(cards)
            )
        elif verb == "layoff":
            card, number = rest[0].split("=")[-1], int(rest[1])
            meld = melds[number]
            run = len({held[0] for held in meld}) > 1
            foot = run and card[0] == "A" and f"2{card[1]}" in meld and f"K{card[1]}" not in meld
            meld.append(card)
            table[int(seat)] += _value(card, low_ace=foot)
    return table


class _DealEnds:
    """Collects, at each deal's end, the hands left (as texts) and the deal's points."""

    def __init__(self) -> None:
        self.ends: list[tuple[list[list[str]], tuple[int, ...]]] = []

    def dealt(self, game: GameState, deal: int) -> None:
        """Nothing to note when a deal is dealt."""

    def applied(self, game: GameState, deal: int, text: str) -> None:
        """Note the hands and points once the deal is over."""
        if game.deal_over:
            hands = [[str(card) for card in hand] for hand in game.hands]
            self.ends.append((hands, game.deal_points or ()))


def test_golden_500_deal_points_are_the_cards_laid_less_the_cards_held() -> None:
    record = load_record((RECORDS / "500.json").read_text(encoding="utf-8"))
    observer = _DealEnds()
    result = replay(record, observer)
    assert result.error is None
    seats = len(record.players)
    assert len(observer.ends) == len(record.deals)
    laid_somewhere = 0
    for deal, (hands, points) in zip(record.deals, observer.ends, strict=True):
        table = _laid_points(list(deal.actions), seats)
        held = [sum(_value(card) for card in hand) for hand in hands]
        assert list(points) == [laid - kept for laid, kept in zip(table, held, strict=True)]
        laid_somewhere += sum(table)
    assert laid_somewhere > 0
    assert _expected("500")["scores"] == [
        sum(points[seat] for _, points in observer.ends) for seat in range(seats)
    ]
