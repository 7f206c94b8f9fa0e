"""The grammar of "You": one wording function (``agrees``) for the transcript, the replay
frames and the present-tense actions, checked for "You" and for a name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummykit.core.actions import agrees, describe_action, parse_action
from rummykit.core.record import load_record
from rummykit.server.tables.frames import replay_frames
from rummykit.transcript import transcript

CONFORMANCE = Path(__file__).parents[1] / "records" / "conformance"

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize(
    ("subject", "said"),
    [("You", "You deal"), ("Ann", "Ann deals"), ("Youssef", "Youssef deals")],
)
def test_agrees_conjugates_you_and_a_name(subject: str, said: str) -> None:
    assert agrees(subject, "deals", "deal") == said


def test_present_actions_agree_with_you() -> None:
    assert describe_action(parse_action("0 draw stock"), actor="You") == "You draw from the stock"
    assert describe_action(parse_action("0 layoff 7h 0"), actor="You").startswith("You lay off")
    assert describe_action(parse_action("0 draw stock"), actor="Ann") == "Ann draws from the stock"


def test_the_transcript_and_the_replay_say_you_deal_and_you_are_caught() -> None:
    checked = 0
    for path in sorted(CONFORMANCE.glob("*.json"))[:12]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data["players"] = ["You", *data["players"][1:]]
            record = load_record(data)
        except (ValueError, TypeError, KeyError):
            continue  # a record that is broken on purpose
        checked += 1
        text, _ = transcript(record)
        lines = json.dumps(replay_frames(data))
        for wrong in ("You deals", "You draws", "You is ", "You holds", "You goes", "You wins"):
            assert wrong not in text, (path.name, wrong)
            assert wrong not in lines, (path.name, wrong)
        assert "You deal" in text or "You play" in text or "You hold" in text
    assert checked
