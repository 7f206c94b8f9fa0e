"""rummykit: straight Rummy, done properly.

>>> from rummykit import GameState, find_preset
>>> game = GameState.new(find_preset("classic").rules, seats=3, seed=1)
>>> len(game.legal_actions())
2
"""

from rummykit.core.actions import Action, Discard, Draw, DrawSource, LayOff, Meld, parse_action
from rummykit.core.cards import JOKER, Card, Rank, Suit
from rummykit.core.deadwood import best_discard, best_partition, deadwood_value
from rummykit.core.errors import IllegalActionError, InvalidActionError, RecordError, RulesError
from rummykit.core.presets import PRESETS, find_preset
from rummykit.core.rules import Rules
from rummykit.core.state import DealResult, GameState, Phase

__all__ = [
    "JOKER",
    "PRESETS",
    "Action",
    "Card",
    "DealResult",
    "Discard",
    "Draw",
    "DrawSource",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "LayOff",
    "Meld",
    "Phase",
    "Rank",
    "RecordError",
    "Rules",
    "RulesError",
    "Suit",
    "best_discard",
    "best_partition",
    "deadwood_value",
    "find_preset",
    "parse_action",
]
