"""A finished game as a list of frames, for the replay viewer to step through.

Each frame is a position (``state_json``) with its scores and what just happened: ``text``
in English for any client, and the same line as the live table's words (``table_words``):
``kind`` and ``params`` of the deal or the action, then ``notices`` (the stock turned over
or running low, the deal's end with its ``deal_result``), which the browser words in the
page's language (``web/table/event_words.js``).
"""

from __future__ import annotations

from typing import Any

from rummykit.core.actions import Draw, agrees, describe_action, parse_action
from rummykit.core.record import load_record, replay, state_json
from rummykit.core.state import GameState
from rummykit.protocol import ReplayAnswer
from rummykit.server.tables.table_words import Said, action_said, stock_said

_RESULT_NOTICES = frozenset({"blocked", "blocked_collects"})
"""The stock's notices that the deal's result (``deal_over``) says again, with every score."""


def _said(said: Said) -> dict[str, Any]:
    return {"kind": said.kind, "params": dict(said.params)}


class _Frames:
    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.frames: list[dict[str, Any]] = []
        self.stock = 0
        self.renewals = 0

    def _frame(self, game: GameState, text: str, said: Said, notices: list[Said]) -> None:
        frame = state_json(game)
        frame["scores"] = list(game.scores)
        frame["text"] = text
        frame.update(_said(said))
        if game.deal_over:
            notices = [*notices, Said("deal_over", {})]
            frame["deal_result"] = {
                "result": game.result.value if game.result else None,
                "winner": game.deal_winner,
                "points": list(game.deal_points or ()),
                "knocker": game.deal.knocker,
            }
        frame["notices"] = [_said(notice) for notice in notices]
        self.frames.append(frame)
        self.stock = game.stock_count
        self.renewals = game.renewals_used

    def dealt(self, game: GameState, deal: int) -> None:
        seat = game.logs[-1].dealer
        text = f"Deal {deal + 1}: {agrees(self.names[seat], 'deals', 'deal')}."
        self._frame(game, text, Said("deal", {"number": deal + 1, "seat": seat}, seat), [])

    def applied(self, game: GameState, deal: int, text: str) -> None:
        action = parse_action(text)
        extra = game.deal.stock_extra if isinstance(action, Draw) else None
        told = describe_action(
            action, actor=self.names[action.seat], stock_too=extra if extra else False
        )
        line = f"{told}."
        if game.deal_over:
            points = game.deal_points or ()
            scored = ", ".join(
                f"{self.names[seat]} {value}" for seat, value in enumerate(points) if value
            )
            line += f" The deal is over ({game.result.value if game.result else ''}): "
            line += f"{scored or 'nobody scores'}."
        renewed = game.renewals_used > self.renewals
        notices = [
            said
            for said in stock_said(game, self.stock, renewed)
            if said.kind not in _RESULT_NOTICES
        ]
        # A finished game's replay shows every hand, so it names Boathouse's stock card too.
        self._frame(game, line, action_said(game, action).revealed(), notices)


def replay_answer(record: dict[str, Any]) -> ReplayAnswer:
    """Every position of a game record, each with a line saying what just happened.

    ``rules`` are the game's (the browser words a rummy's bonus by them).
    """
    loaded = load_record(record)
    frames = _Frames(loaded.players)
    replay(loaded, frames)
    return ReplayAnswer.model_validate(
        {
            "players": list(loaded.players),
            "rules": loaded.rules.to_mapping(),
            "frames": frames.frames,
        }
    )


def replay_frames(record: dict[str, Any]) -> dict[str, Any]:
    """``replay_answer`` as JSON data.

    A frame says ``laid_out`` and ``deal_result`` only where it has them.
    """
    return replay_answer(record).model_dump(mode="json", exclude_unset=True)


def replay_frames_json(record: dict[str, Any]) -> bytes:
    """``replay_frames`` as the JSON the server answers with.

    Made in a worker process: a long game takes a tenth of a second and more, which the event
    loop must never spend.
    """
    return replay_answer(record).model_dump_json(exclude_unset=True).encode()
