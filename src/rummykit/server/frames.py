"""A finished game as a list of frames, for the replay viewer to step through."""

from __future__ import annotations

from typing import Any

from rummykit.core.actions import agrees, describe_action, parse_action
from rummykit.core.record import load_record, replay, state_json
from rummykit.core.state import GameState


class _Frames:
    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.frames: list[dict[str, Any]] = []

    def _frame(self, game: GameState, text: str) -> None:
        frame = state_json(game)
        frame["scores"] = list(game.scores)
        frame["text"] = text
        self.frames.append(frame)

    def dealt(self, game: GameState, deal: int) -> None:
        dealer = self.names[game.logs[-1].dealer]
        self._frame(game, f"Deal {deal + 1}: {agrees(dealer, 'deals', 'deal')}.")

    def applied(self, game: GameState, deal: int, text: str) -> None:
        action = parse_action(text)
        line = f"{describe_action(action, actor=self.names[action.seat])}."
        if game.deal_over:
            points = game.deal_points or ()
            scored = ", ".join(
                f"{self.names[seat]} {value}" for seat, value in enumerate(points) if value
            )
            line += f" The deal is over ({game.result.value if game.result else ''}): "
            line += f"{scored or 'nobody scores'}."
        self._frame(game, line)


def replay_frames(record: dict[str, Any]) -> dict[str, Any]:
    """Every position of a game record, each with a line saying what just happened."""
    loaded = load_record(record)
    frames = _Frames(loaded.players)
    replay(loaded, frames)
    return {"players": list(loaded.players), "frames": frames.frames}
