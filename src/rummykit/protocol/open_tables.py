"""The lobby's list of open tables: parties their hosts listed for anyone to join.

HTTP ``GET /api/open-tables`` answers ``OpenTables``. The socket ``/ws/lobby`` (first message
``{"t": "hello", "v": 0, "d": {"watch": true}}``) sends ``{"t": "open_tables", "v": V, "d":
OpenTables}`` at once and again after every change; it accepts nothing else. A party is on
the list while its host lists it, it has not started, a seat is free under its rules and one
of its people has it open: full, started or abandoned parties leave it at once. Take a seat
with ``POST {url}/join``'s API form, ``POST /api/parties/{code.key}/join``.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import TypeAdapter

from rummykit.protocol.facts import TurnTimer
from rummykit.protocol.messages import Strict, Version
from rummykit.protocol.vocabularies import PresetName

MAX_OPEN_TABLES: Final = 100
"""Parties the list shows at most, the longest waiting first: a longer list helps nobody
choose, and each change sends the whole list to every lobby open."""


class OpenTable(Strict):
    """One listed party, as the lobby shows it."""

    code: str
    url: str
    """The party's invite path, key included (a listed party is public): join with it."""
    preset: PresetName
    target: int | None
    """The score that ends the game (null: the game is a number of deals, ``deals``)."""
    deals: int | None
    """The game's number of deals, when it is counted in deals."""
    turn_timer: TurnTimer | None
    ranked: bool
    seats_taken: int
    seats: int
    """The most the party's rules seat."""
    host: str
    """The host's name."""
    host_rating: int | None
    """The host's displayed rating in the pool the party's games are rated in (ranked
    parties only; null otherwise)."""
    host_provisional: bool = False
    """The host's rating is not settled yet (shown with "?")."""


class OpenTables(Strict):
    """The listed parties with a free seat, the longest waiting first."""

    tables: tuple[OpenTable, ...]


class OpenTablesMessage(Strict):
    """The list as it stands, after each change."""

    t: Literal["open_tables"] = "open_tables"
    v: Version
    d: OpenTables


OPEN_TABLES_MESSAGES: Final[TypeAdapter[OpenTablesMessage]] = TypeAdapter(OpenTablesMessage)
"""What the server sends on ``/ws/lobby``."""
