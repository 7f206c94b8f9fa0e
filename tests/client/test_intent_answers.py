"""``rummy join``'s seat program pairs each answer with its intent by ``n`` (issue 31): a
refusal of an earlier intent never blames the one pending, and ``applied`` answers it."""

from __future__ import annotations

import io

from rummykit.client.player import Intent, TablePlayer
from rummykit.client.report import Report
from rummykit.protocol import Act, ActData, AppliedMessage, numbered, refused


def player() -> TablePlayer:
    report = Report(True, io.StringIO(), io.StringIO())
    return TablePlayer("http://127.0.0.1:9", "table", "token", "basic", report, client="c")


def pending(version: int, n: int, action: str) -> Intent:
    return Intent(Act(t="act", v=version, n=n, d=ActData(action=action)))


def test_a_refusal_of_an_earlier_intent_leaves_the_pending_one_unblamed() -> None:
    seat = player()
    seat.pending = pending(5, 2, "discard 2C")
    seat._take(numbered(refused(6, "game_over"), 1))
    assert seat.pending is not None and seat.pending.message.n == 2
    assert seat._refusals == 0 and not seat._refused
    seat._take(numbered(refused(6, "game_over"), 2))  # its own refusal: blamed
    assert seat.pending is None
    assert seat._refused == {(5, "discard 2C")} and seat._refusals == 1


def test_applied_answers_the_pending_intent_of_its_number_only() -> None:
    seat = player()
    seat.pending = pending(7, 4, "draw stock")
    seat._take(AppliedMessage(v=8, n=3))
    assert seat.pending is not None
    seat._take(AppliedMessage(v=8, n=4))
    assert seat.pending is None and not seat._refused
