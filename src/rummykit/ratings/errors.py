"""The one error the ratings raise: an input no game could have produced."""

from __future__ import annotations


class RatingInputError(ValueError):
    """A rating, result or count that cannot be right; the message holds the input."""
