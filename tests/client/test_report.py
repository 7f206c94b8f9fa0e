"""What ``rummy party new`` and ``rummy join`` print (``rummykit.client.report``): the sentences
for people and the JSON lines for programs, from views made here."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from rummykit.client.report import Report, deal_sentence, with_bot_mark
from rummykit.core.deal import DealResult
from rummykit.protocol.messages import DealResultView, PlayerView, SeatView


def player(name: str, program: bool = False) -> PlayerView:
    return PlayerView(name=name, kind="human", level=None, position="", program=program)


def result(kind: str | None, winner: int | None, points: tuple[int, ...]) -> DealResultView:
    return DealResultView(
        result=DealResult(kind) if kind else None,
        winner=winner,
        points=points,
        hands=((), ()),
        values=(0, 0),
    )


def view(deal_result: DealResultView | None = None, **fields: Any) -> SeatView:
    """A seat's view with only what the report reads (the rest of a view is not its business)."""
    values: dict[str, Any] = {
        "table": "t1",
        "seat": 1,
        "players": (player("Ann"), player("Bot", program=True)),
        "deal": 0,
        "scores": (25, 0),
        "deal_result": deal_result,
        "winner": None,
        **fields,
    }
    return SeatView.model_construct(**values)


@pytest.mark.parametrize(
    ("kind", "winner", "how"),
    [
        ("out", 0, "Ann went out"),
        ("rummy", 0, "Ann went rummy"),
        ("knock", 1, "Bot won the knock"),
        ("undercut", 1, "Bot undercut the knock"),
        ("blocked", None, "was blocked (the stock ran out)"),
    ],
)
def test_a_deal_sentence_says_how_it_ended_and_what_each_scored(
    kind: str, winner: int | None, how: str
) -> None:
    sentence = deal_sentence(view(result(kind, winner, (25, -3)), deal=2))
    assert sentence == f"Deal 3: {how}. Points: Ann +25, Bot -3. Totals: Ann 25, Bot 0."


def test_a_deal_over_without_its_result_is_still_told() -> None:
    assert deal_sentence(view(None, deal=4)) == "Deal 5 is over."


def test_a_programs_name_carries_the_bot_mark() -> None:
    assert with_bot_mark("Ann", False) == "Ann"
    assert with_bot_mark("Bot", True) == "Bot [BOT]"


def lines(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_json_lines_come_one_object_a_line_in_the_order_of_the_game() -> None:
    out, err = io.StringIO(), io.StringIO()
    report = Report(True, out, err)
    report.invite("K7QM2P", "http://host/#/party/K7QM2P")
    report.say("not for programs")
    report.acked(view(), 7, "1 draw stock")
    report.deal_over(view(result("out", 0, (25, 0))))
    report.deal_over(view(None))
    report.finished(view(winner=0), rejoined=True)
    report.note("Reconnecting.")
    assert lines(out) == [
        {"code": "K7QM2P", "url": "http://host/#/party/K7QM2P"},
        {"acked": "1 draw stock", "v": 7, "table": "t1", "seat": 1},
        {"deal": 0, "result": "out", "winner": 0, "points": [25, 0], "scores": [25, 0]},
        {"deal": 0, "result": None, "winner": None, "points": [], "scores": [25, 0]},
        {"table": "t1", "seat": 1, "scores": [25, 0], "winner": 0, "rejoined": True},
    ]
    assert err.getvalue() == "Reconnecting.\n"  # the connection's news: on standard error


def test_sentences_for_people_name_the_party_the_deals_and_the_winner() -> None:
    out, err = io.StringIO(), io.StringIO()
    report = Report(False, out, err)
    report.invite("K7QM2P", "http://host/#/party/K7QM2P")
    report.acked(view(), 7, "1 draw stock")  # nothing for people
    report.deal_over(view(result("out", 0, (25, 0))))
    report.finished(view(winner=0), rejoined=False)
    text = out.getvalue()
    assert text.startswith("Party K7QM2P. Invite link: http://host/#/party/K7QM2P\n")
    assert "rummy join K7QM2P" in text
    assert "Deal 1: Ann went out." in text
    assert "Final scores (table t1)" in text
    assert "Bot [BOT] (you)" in text
    assert text.endswith("Game over: Ann wins.\n")
    assert "1 draw stock" not in text and err.getvalue() == ""


def test_a_tie_and_a_rejoined_seat_are_said() -> None:
    out = io.StringIO()
    Report(False, out, io.StringIO()).finished(view(winner=None), rejoined=True)
    assert out.getvalue().endswith("Game over: a tie. (This program rejoined its seat.)\n")
