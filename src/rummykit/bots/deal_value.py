"""What a deal still in play is worth to a seat, from a few features of a full position.

``master`` cuts its playouts short and scores the position it reaches with this value
instead of playing every deal to its end. The value is a linear model over the features of
``features`` whose weights are fitted by ``rummykit.bots.deal_value_fit`` to the results of
basic-play playouts, and shipped in ``deal_value.json`` beside this module. The fit holds
for the rules it was made under (``DealValue.fits``); under other rules the search plays
out to the end of the deal as the expert does.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from importlib import resources
from typing import Final

from rummykit.core.deadwood import best_partition
from rummykit.core.presets import find_preset
from rummykit.core.rules import Rules, Scoring
from rummykit.core.state import GameState

FEATURE_NAMES: Final = (
    "bias",
    "my_deadwood",
    "their_deadwood",
    "my_loose_cards",
    "their_loose_cards",
    "my_deadwood_if_they_are_close",
    "their_deadwood_if_i_am_close",
    "my_hand_size",
    "their_hand_size",
    "stock_share",
    "my_turn",
    "my_deadwood_by_their_nearness",
    "their_deadwood_by_my_nearness",
)
"""The features, in the order of the weights; "their" is the average of the other seats,
"close" means one loose card or none (one discard from going out)."""

VALUE_FILE: Final = "deal_value.json"
"""The fitted weights, in the ``rummykit.bots`` package."""


def features(game: GameState, seat: int) -> tuple[float, ...]:
    """The features of the position for ``seat``, in the order of ``FEATURE_NAMES``."""
    rules = game.rules
    others = [other for other in range(game.seat_count) if other != seat]
    split = [best_partition(hand, rules) for hand in game.hands]
    mine = split[seat]
    theirs = [split[other] for other in others]
    count = len(others)
    their_value = sum(part.value for part in theirs) / count
    their_loose = sum(len(part.deadwood) for part in theirs) / count
    my_close = 1.0 if len(mine.deadwood) <= 1 else 0.0
    their_close = 1.0 if min(len(part.deadwood) for part in theirs) <= 1 else 0.0
    sizes = [len(game.hands[other]) for other in others]
    deck = rules.decks * 52 + rules.jokers
    return (
        1.0,
        float(mine.value),
        their_value,
        float(len(mine.deadwood)),
        their_loose,
        mine.value * their_close,
        their_value * my_close,
        float(len(game.hands[seat])),
        sum(sizes) / count,
        len(game.stock) / deck,
        1.0 if game.turn == seat else 0.0,
        mine.value / (1.0 + min(len(part.deadwood) for part in theirs)),
        their_value / (1.0 + len(mine.deadwood)),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class DealValue:
    """A fitted linear value: weights over ``FEATURE_NAMES``, and where it holds."""

    weights: tuple[float, ...]
    """One weight a feature, in the order of ``FEATURE_NAMES``."""
    preset: str
    """The preset whose rules the weights were fitted under."""
    seats: int
    """The table size they were fitted at."""
    cut_turns: int
    """Turns a seat the playouts are played before the value takes over."""

    def fits(self, rules: Rules, seats: int) -> bool:
        """Whether the value was fitted for these rules at this table size."""
        fitted = find_preset(self.preset).rules
        return rules == fitted and seats == self.seats and rules.scoring is not Scoring.MELDS

    def value(self, game: GameState, seat: int) -> float:
        """The expected points of the deal for ``seat`` less the others' (higher is better)."""
        return sum(
            weight * feature
            for weight, feature in zip(self.weights, features(game, seat), strict=True)
        )

    def to_json(self) -> dict[str, object]:
        """The weights by feature name, the preset, seats and cut, for ``deal_value.json``."""
        return {
            "features": dict(zip(FEATURE_NAMES, self.weights, strict=True)),
            "preset": self.preset,
            "seats": self.seats,
            "cut_turns": self.cut_turns,
        }

    @staticmethod
    def from_json(data: dict[str, object]) -> DealValue:
        """The value written by ``to_json``; ``ValueError`` if its features are not ours."""
        weights = data["features"]
        if not isinstance(weights, dict) or tuple(weights) != FEATURE_NAMES:
            raise ValueError(f"deal_value.json has the features {weights!r}, not {FEATURE_NAMES}.")
        preset, seats, cut = data["preset"], data["seats"], data["cut_turns"]
        if not isinstance(preset, str) or not isinstance(seats, int) or not isinstance(cut, int):
            raise ValueError(f"deal_value.json: preset {preset!r}, seats {seats!r}, cut {cut!r}.")
        find_preset(preset)  # a preset this version does not have is refused here
        weights_in_order = tuple(float(weights[name]) for name in FEATURE_NAMES)
        return DealValue(weights_in_order, preset, seats, cut)


@cache
def shipped_value() -> DealValue:
    """The value fitted by ``rummykit.bots.deal_value_fit`` and shipped with the package."""
    text = resources.files("rummykit.bots").joinpath(VALUE_FILE).read_text(encoding="utf-8")
    return DealValue.from_json(json.loads(text))
