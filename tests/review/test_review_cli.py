"""``rummy review``: the command's output, its JSON, and its refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummykit.cli import main
from rummykit.core.record import load_record
from rummykit.protocol import SeatReview
from rummykit.review.marks import MARKS
from rummykit.review.walk import review_record

pytestmark = pytest.mark.timeout(300)

RECORDS = Path(__file__).parent.parent / "records"
SHORT = RECORDS / "review_expert.json"
"""One deal of ``expert`` against itself: short enough to review quickly."""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["review", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_lists_every_decision_with_its_place_loss_and_mark(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, str(SHORT), "--seat", "1", "--json", "--samples", "4", "--jobs", "1")
    assert code == 0
    review = json.loads(out)
    assert review["seat"] == 1 and review["player"] == "Bob"
    assert review["marks"] == {str(mark): least for mark, least in MARKS.items()}
    record = load_record(SHORT.read_text())
    assert review == review_record(record, 1, samples=4).to_json()  # in parallel or not
    # the server sends the same object: the wire's model reads it whole, and gives it back
    assert SeatReview.model_validate(review).model_dump(mode="json") == review
    deal_actions = [list(deal.actions) for deal in record.deals]
    for decision in review["decisions"]:
        assert set(decision) >= {"deal", "action", "played", "best", "loss", "loss_ci95", "mark"}
        played_text = deal_actions[decision["deal"]][decision["action"]]
        assert played_text == decision["played"]  # the index is the deal's action index
        assert decision["played"].startswith("1 ")
    summary = review["summary"]
    assert summary["decisions"] == len(review["decisions"]) > 5
    assert summary["deals"] == 1


def test_the_text_names_the_marked_decisions_and_explains_the_marks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, str(SHORT), "--seat", "0", "--samples", "4", "--jobs", "2")
    assert code == 0
    assert out.startswith("Review of Ann (seat 0):")
    assert "decisions in 1 deals" in out or "decisions in 1 deal" in out
    for word in ("Inaccuracy", "Mistake", "Blunder"):
        assert word in out


def test_a_time_budget_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(SHORT), "--seat", "0", "--json", "--budget", "1")
    assert code == 0
    assert all(decision["samples"] >= 1 for decision in json.loads(out)["decisions"])


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--seat", "2"], "no seat 2"),
        (["--seat", "-1"], "no seat -1"),
        (["--seat", "0", "--samples", "0"], "--samples"),
    ],
)
def test_a_seat_or_count_that_cannot_be_is_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    code, out, err = run(capsys, str(SHORT), *args)
    assert (code, out) == (2, "")
    assert err.startswith("rummy review: ") and said in err


def test_a_record_that_cannot_be_read_or_replayed_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "missing.json"
    code, _, err = run(capsys, str(missing), "--seat", "0")
    assert code == 2 and "cannot read" in err
    broken = json.loads(SHORT.read_text())
    broken["deals"][0]["actions"][3] = "1 discard Zz"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    code, _, err = run(capsys, str(bad), "--seat", "0")
    assert code == 2 and err.startswith("rummy review: ")


def test_a_settled_decision_says_so_in_the_text() -> None:
    from rummykit.core.actions import parse_action
    from rummykit.review.cli import _told
    from rummykit.review.judge import Judgement
    from rummykit.review.marks import Mark
    from rummykit.review.walk import Review, ReviewedDecision

    def marked(exact: bool) -> ReviewedDecision:
        played, best = parse_action("0 discard 6h"), parse_action("0 meld 6c 6h 6s")
        judged = Judgement(played, best, 18.85, 2.85, 0.0, (), 48, exact=exact)
        return ReviewedDecision(1, 32, judged, Mark.BLUNDER)

    text = _told(Review(0, "Ann", 2, (marked(True),)))
    assert "(about 18.9 ± 2.9 points, settled within the turn)." in text
    assert "settled" not in _told(Review(0, "Ann", 2, (marked(False),)))
