"""The analysis board's words in English, for the browser's ``analysis`` catalogue area.

The page's English catalogue of the area is generated from ``catalogue``
(``python -m rummykit.web_catalogues``); the Japanese one is written by hand with the same keys.
"""

from __future__ import annotations

from collections.abc import Mapping

Words = str | Mapping[str, str]

WORDS: Mapping[str, Words] = {
    "try": "Try a move",
    "heading": "Trying moves for {name}",
    "intro": "The cards {name} could not see here are dealt afresh by the computer: the table "
    "below is one way they might lie, never the game's own hidden cards. The other players' "
    "hands stay face down, and the computer plays their turns.",
    "hand": "{name}'s hand",
    "melds": "Melds on the table",
    "no_melds": "No melds yet.",
    "discard": "Discard pile",
    "empty_pile": "The discard pile is empty.",
    "stock": {"one": "{count} card in the stock", "other": "{count} cards in the stock"},
    "others": {
        "one": "{name}: {count} card, face down",
        "other": "{name}: {count} cards, face down",
    },
    "choices": "Your choices",
    "waiting": "The computer is weighing the move…",
    "best": "{played} is the best choice found: about {value} points for the deal.",
    "worse": "{played} is worth about {value} points for the deal; the best choice found, "
    "{best}, about {best_value}. It gives away {loss} ± {interval} points (95% sure).",
    "samples": {
        "one": "Weighed over {count} deal of the unseen cards.",
        "other": "Weighed over {count} deals of the unseen cards.",
    },
    "computer_played": "Then: {moves}.",
    "deal_over": "The deal is over. Points for the deal: {points}.",
    "undo": "Undo",
    "play_on": "Let the computer play on",
    "back": "Back to the game",
    "failed": "The move could not be tried: {problem}",
}
"""Each word of the board, by its key within the area."""


def catalogue() -> dict[str, Words]:
    """The English words of the browser's ``analysis`` area (keys start with ``analysis.``)."""
    return {f"analysis.{key}": words for key, words in WORDS.items()}
