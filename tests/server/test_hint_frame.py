"""The ``hint`` frame carries the advice as kinds with params besides its English sentence.

A client that speaks another language words the hint from ``kind``/``params`` (why) and
``action_kind``/``action_params`` (the advice, in the reason's ``{action}``); the English
``reason`` is those kinds filled (``rummykit.bots.hint_words``), and ``action`` is in notation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit.bots.hint_words import ADVICE, REASONS, hint_text
from rummykit.core.refusals import placeholders
from rummykit.protocol import TABLE_HINT_LEVELS
from rummykit.protocol.messages import HintMessage
from rummykit.server.runtime import SERVER_CLIENT, WorkerPool, advise
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


def test_a_hint_is_asked_of_the_level_chosen_and_searched_once_a_turn(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``level`` picks who advises (the strong player when left out); the same level asked
    again before anything is played gets the same advice with no second search, and a level
    the tables do not offer is refused as a message that cannot be read."""
    asked: list[str] = []
    run = WorkerPool.run

    async def watched(
        pool: WorkerPool, function: Callable[..., Any], *args: object, client: str = SERVER_CLIENT
    ) -> Any:
        if function is advise:
            asked.append(str(args[1]))
        return await run(pool, function, *args, client=client)

    monkeypatch.setattr(WorkerPool, "run", watched)
    table_id, token = create_table(client, seed=seed_where_human_starts(2))
    with seat_connection(client, table_id, token) as seat:
        view = seat.recv()["d"]
        seat.send("hint", {"level": "expert"})
        first = seat.until(lambda frame: frame["t"] in ("hint", "refused"))
        assert first["t"] == "hint", first
        assert first["d"]["action"] in view["legal"]
        seat.send("hint", {"level": "expert"})
        again = seat.until(lambda frame: frame["t"] in ("hint", "refused"))
        assert again == first
        assert asked == ["expert"]
        _check_words(_hint(seat))  # {} asks the strong player
        assert asked == ["expert", "strong"]
        seat.act("draw stock")
        seat.send("hint", {"level": "expert"})
        assert seat.until(lambda frame: frame["t"] in ("hint", "refused"))["t"] == "hint"
        assert asked == ["expert", "strong", "expert"]
        for level in ("basic", "grandmaster"):
            assert level not in TABLE_HINT_LEVELS
            seat.send("hint", {"level": level})
            refusal = seat.refused()
            assert refusal["d"]["code"] == "bad_message", refusal
        assert len(asked) == 3


def test_the_protocol_document_names_every_hint_level() -> None:
    """docs/PROTOCOL.md's ``hint`` row lists the levels of ``TABLE_HINT_LEVELS``, no other."""
    from pathlib import Path

    document = Path(__file__).parents[2] / "docs" / "PROTOCOL.md"
    row = next(
        line
        for line in document.read_text(encoding="utf-8").splitlines()
        if line.startswith('| `hint` | `{"level"')
    )
    named = {level for level in ("strong", "expert", "master", "basic") if f"`{level}`" in row}
    assert named == set(TABLE_HINT_LEVELS)
