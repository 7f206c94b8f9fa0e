"""The ``hint`` frame carries the advice as kinds with params besides its English sentence.

A client that speaks another language words the hint from ``kind``/``params`` (why) and
``action_kind``/``action_params`` (the advice, in the reason's ``{action}``); the English
``reason`` is those kinds filled (``rummykit.bots.hint_words``), and ``action`` is in notation.
"""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from rummykit.bots.hint_words import ADVICE, REASONS, hint_text
from rummykit.core.refusals import placeholders
from rummykit.protocol.messages import HintMessage
from table_client import Frame, SeatSocket, create_table, seat_connection, seed_where_human_starts

pytestmark = pytest.mark.timeout(60)


def _hint(seat: SeatSocket) -> Frame:
    seat.send("hint")
    frame = seat.until(lambda frame: frame["t"] in ("hint", "refused"))
    assert frame["t"] == "hint", frame
    HintMessage.model_validate(frame)  # the published model, strict
    return frame


def _check_words(frame: Frame) -> None:
    words = frame["d"]
    assert words["kind"] in REASONS and words["action_kind"] in ADVICE, words
    assert placeholders(REASONS[words["kind"]]) == set(words["params"]) | {"action"}
    assert placeholders(ADVICE[words["action_kind"]]) == set(words["action_params"])
    english = hint_text(
        words["kind"], words["params"], words["action_kind"], words["action_params"]
    )
    assert words["reason"] == english


def test_the_hint_frame_words_its_advice_by_kind_and_params(client: TestClient) -> None:
    """Before the draw and after it: the same sentence as the English, from its kinds."""
    table_id, token = create_table(client, seed=seed_where_human_starts(2))
    with seat_connection(client, table_id, token) as seat:
        view = seat.recv()["d"]
        assert view["turn"] == view["seat"] == 0 and view["phase"] == "draw"
        before = _hint(seat)
        _check_words(before)
        assert before["d"]["action_kind"] in {"draw_stock", "take_discard"}
        assert before["d"]["action"] in view["legal"]
        after = seat.act("draw stock")["d"]
        assert after["phase"] == "play"
        during = _hint(seat)
        _check_words(during)
        assert during["d"]["action"] in after["legal"]
        if during["d"]["action_kind"] == "discard":
            assert during["d"]["action"] == f"discard {during['d']['action_params']['card']}"
