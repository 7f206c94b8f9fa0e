"""Pickling the engine's values the same way in the compiled engine and the pure one.

A process pool (the site's computer players, ``rummy review``, ``rummy sim``) pickles the
engine's values. The compiled build (mypyc) restores an object by calling its class with no
arguments and then setting its fields one by one, which a frozen dataclass refuses and a
class with required arguments cannot do; each such value therefore pickles as a call to its
class with its fields by name, which both builds restore alike.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any


def rebuild_by_fields(value: Any) -> tuple[Callable[..., Any], tuple[object, ...]]:
    """A ``__reduce__`` for a dataclass: its class, called with every field by name."""
    fields = {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
    return call_with, (type(value), fields)


def call_with(maker: Callable[..., Any], arguments: dict[str, Any]) -> Any:
    """``maker(**arguments)``: what a pickle made by ``rebuild_by_fields`` calls."""
    return maker(**arguments)
