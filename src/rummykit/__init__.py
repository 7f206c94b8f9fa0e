"""rummykit: straight Rummy, done properly.

>>> from rummykit import GameState, find_preset
>>> game = GameState.new(find_preset("classic").rules, seats=3, seed=1)
>>> len(game.legal_actions())
2
"""

from __future__ import annotations

# The ``rummy`` command starts by importing this package, and catches Ctrl+C only once its
# ``main`` runs: so the package imports nothing (``typing`` alone takes 7 ms or more; mypy
# reads any ``TYPE_CHECKING`` as true) and each public name is imported when first asked for.
import os as _os  # already loaded by Python's start: free

if _os.environ.get("RUMMYKIT_PURE", "") not in ("", "0"):  # rummykit.build.PURE_VARIABLE
    from rummykit.build import use_pure_sources

    use_pure_sources()

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rummykit.core.actions import (
        Action,
        Discard,
        Draw,
        DrawSource,
        LayOff,
        Meld,
        parse_action,
    )
    from rummykit.core.cards import JOKER, Card, Rank, Suit
    from rummykit.core.deadwood import best_discard, best_partition, deadwood_value
    from rummykit.core.errors import (
        IllegalActionError,
        InvalidActionError,
        RecordError,
        RulesError,
    )
    from rummykit.core.presets import PRESETS, find_preset
    from rummykit.core.rules import Rules
    from rummykit.core.state import DealResult, GameState, Phase

_HOMES = {
    "rummykit.core.actions": (
        "Action",
        "Discard",
        "Draw",
        "DrawSource",
        "LayOff",
        "Meld",
        "parse_action",
    ),
    "rummykit.core.cards": ("JOKER", "Card", "Rank", "Suit"),
    "rummykit.core.deadwood": ("best_discard", "best_partition", "deadwood_value"),
    "rummykit.core.errors": (
        "IllegalActionError",
        "InvalidActionError",
        "RecordError",
        "RulesError",
    ),
    "rummykit.core.presets": ("PRESETS", "find_preset"),
    "rummykit.core.rules": ("Rules",),
    "rummykit.core.state": ("DealResult", "GameState", "Phase"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

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


if not TYPE_CHECKING:  # mypy reads the imports above, and refuses a name it does not know

    def __getattr__(name: str) -> object:
        home = _HOME_OF.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(__import__(home, fromlist=[name]), name)
        globals()[name] = value  # asked once: later lookups find it without this function
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
