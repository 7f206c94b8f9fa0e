"""The errors the core raises: each a ``ValueError`` with a message a player understands."""

from __future__ import annotations

from typing import Final

ERROR_CODES: Final = (
    "not_your_turn",
    "wrong_phase",
    "card_not_in_hand",
    "invalid_meld",
    "meld_limit",
    "layoff_not_allowed",
    "layoff_does_not_fit",
    "no_such_meld",
    "discard_taken_card",
    "must_discard_to_go_out",
    "empty_discard",
    "discard_take_not_allowed",
    "bad_action",
    "must_use_taken_card",
)
"""Every stable error code, those of RECORD.md first.

``must_use_taken_card`` is ours: with ``discard_take`` ``"any"``, the deepest card taken
from the pile must be melded or laid off before the turn's discard.
"""


class RummyError(ValueError):
    """Base of every error the core raises."""


class RulesError(RummyError):
    """A rule option has a bad value, or the options cannot be played together."""


class InvalidActionError(RummyError):
    """Text that cannot be read as an action or a card (code ``bad_action``)."""

    code = "bad_action"

    @property
    def message(self) -> str:
        """The sentence for the player."""
        return str(self)


class IllegalActionError(RummyError):
    """A well-formed action that the rules refuse in this position.

    ``code`` is one of ``ERROR_CODES``; ``message`` names the cards involved.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalActionError({self.code!r}, {self.message!r})"


class RecordError(RummyError):
    """A game record that cannot be read or replayed as a whole (exit code 2).

    ``code`` is ``bad_record`` or ``unsupported``.
    """

    def __init__(self, message: str, code: str = "bad_record") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
