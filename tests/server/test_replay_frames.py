"""The replay's frames carry what happened as the live table's words: kinds and params.

``server/tables/frames.py`` gives each position the kind and params of its deal or action (as
``table_words`` gives a live event), the notices after it, and the deal's result at its end,
so the browser words every step in the page's language; the English ``text`` stays.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummykit.core.actions import parse_action
from rummykit.core.record import load_record
from rummykit.protocol import EVENTS
from rummykit.server.tables.frames import replay_frames
from rummykit.server.tables.table_words import say

pytestmark = pytest.mark.timeout(60)

RECORDS = Path(__file__).parent.parent / "records"
GAMES = ["practice.json", "conformance/practice_blocked_lowest_collects.json"]


def frames_of(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    record = json.loads((RECORDS / name).read_text())
    return record, replay_frames(record)


@pytest.mark.parametrize("name", GAMES)
def test_each_frame_says_its_deal_or_action_as_a_kind_with_params(name: str) -> None:
    record, replayed = frames_of(name)
    names = replayed["players"]
    actions: list[Any] = []
    for deal in record["deals"]:
        actions.append(None)
        actions.extend(parse_action(text) for text in deal["actions"])
    assert len(replayed["frames"]) == len(actions)
    for frame, action in zip(replayed["frames"], actions, strict=True):
        assert frame["kind"] in EVENTS
        assert frame["text"].strip()  # the English for other clients stays
        assert say(frame["kind"], frame["params"], None, names).strip()
        for notice in frame["notices"]:
            assert notice["kind"] in EVENTS
            say(notice["kind"], notice["params"], None, names)
        if action is None:
            assert frame["kind"] == "deal"
            assert frame["text"].startswith(f"Deal {frame['params']['number']}: ")
        else:
            assert frame["params"]["seat"] == action.seat
    json.dumps(replayed)  # all of it plain JSON


@pytest.mark.parametrize("name", GAMES)
def test_a_deals_last_frame_carries_its_result(name: str) -> None:
    record, replayed = frames_of(name)
    frames = replayed["frames"]
    ends = [i for i, frame in enumerate(frames) if frame.get("deal_result")]
    assert len(ends) == len(record["deals"])
    for end in ends:
        frame = frames[end]
        assert frame["phase"] == "over"
        assert frame["notices"][-1] == {"kind": "deal_over", "params": {}}
        assert len(frame["deal_result"]["points"]) == len(replayed["players"])
        # a blocked deal's result is said once, by the result (with every score)
        assert not {"blocked", "blocked_collects"} & {n["kind"] for n in frame["notices"]}
    assert replayed["rules"] == load_record(record).rules.to_mapping()


def test_the_stock_is_told_as_the_live_table_tells_it() -> None:
    _, replayed = frames_of("conformance/practice_blocked_lowest_collects.json")
    kinds = [n["kind"] for frame in replayed["frames"] for n in frame["notices"]]
    assert replayed["rules"]["renewals"] == 1
    assert kinds.count("renewed_flip") == 1  # the one renewal the rules allow
    assert "stock_low" in kinds and "stock_last" in kinds
