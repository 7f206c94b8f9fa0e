"""The lesson path: short lessons in a fixed order, each ending in puzzles of its theme.

The order, each lesson's puzzle theme, its example melds and how many paragraphs it has are
written here once; the page reads them from the generated ``web/protocol.js``
(``python -m rummykit.protocol.web_facts``) and its words from the ``lessons`` area of the
catalogues (``lessons.<id>.title``, ``lessons.<id>.p1``... in every language).
"""

from __future__ import annotations

import dataclasses
from typing import Final

from rummykit.protocol.vocabularies import Theme


@dataclasses.dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its id (its words' key), the theme of its puzzles, its examples."""

    id: str
    theme: Theme
    """The puzzles the lesson ends in."""
    examples: tuple[tuple[str, ...], ...]
    """Melds the lesson shows as cards, in record notation."""
    paragraphs: int = 3
    """How many paragraphs its words have (``lessons.<id>.p1`` to ``p<n>``)."""

    def to_json(self) -> dict[str, object]:
        """The lesson as the page reads it."""
        return {
            "id": self.id,
            "theme": str(self.theme),
            "examples": [list(meld) for meld in self.examples],
            "paragraphs": self.paragraphs,
        }


LESSONS: Final = (
    Lesson("melds", Theme.GO_OUT, (("7h", "7s", "7d"), ("4c", "5c", "6c", "7c"))),
    Lesson("laying_off", Theme.LAY_OFF, (("5c", "6c", "7c", "8c"), ("9d", "9s", "9h", "9c"))),
    Lesson("taking_the_discard", Theme.DRAW, (("Jh", "Qh", "Kh"),)),
    Lesson("going_out", Theme.GO_OUT, (("2s", "3s", "4s"), ("Td", "Th", "Tc"))),
    Lesson("reading_the_table", Theme.DISCARD, (("9s", "9h", "9d"),)),
)
"""The lessons, in the order a beginner should take them."""
