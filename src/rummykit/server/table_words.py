"""What a table says: its refusals' sentences, its notices and its events, in our words.

A notice or an event is said to each viewer in their own words: "You", or the player's name
with where they sit ("Ann (Left)"), or the name alone for a spectator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rummykit.core.actions import (
    Action,
    Discard,
    Draw,
    DrawSource,
    LayOff,
    Meld,
    Tense,
    describe_action,
)
from rummykit.core.cards import Card
from rummykit.core.state import GameState
from rummykit.server.views import called

GAME_OVER_MESSAGE: Final = "The game is over: start a new one."
REACTIONS_PER_WINDOW: Final = 3
REACTION_WINDOW_S: Final = 10.0
"""At most 3 quick reactions per seat every 10 seconds: enough to say something, too few to
flood the table."""

TIME_RAN_OUT: Final = "The time ran out: the computer played your turn."
RESTARTED: Final = "The server was restarted: the turn timer got at least {grace} more seconds."

HELLO_ONCE: Final = "hello is the socket's first message, and only its first."
LEFT_ALREADY: Final = "You left this table: the computer plays your seat to the end."
TOO_MANY_REACTIONS: Final = (
    f"Easy there: at most {REACTIONS_PER_WINDOW} reactions every {int(REACTION_WINDOW_S)} seconds."
)
NOT_A_PARTY_LEAVE: Final = "Only a party's table can be left for good: just close the page."
NOT_A_PARTY_REMATCH: Final = "A rematch is for a party's table: start a new game from the lobby."
NOT_OVER_YET: Final = "The game is not over yet: a rematch comes after it."
NO_HINTS_AT_PARTIES: Final = (
    "Hints are for games against the computer: at a table of people, each plays their own."
)
NO_REDEAL_AT_PARTIES: Final = "A deal can be thrown away only at a table with one person."


Viewer = int | None
"""Who a connection is: a seat, or ``None`` for a spectator."""


def standing_in(names: Sequence[str], seat: int, viewer: Viewer) -> str:
    """The computer takes the turns of the person at ``seat``, who is away."""
    if seat == viewer:
        return "You were away: the computer is playing your turns until you are back."
    return f"The computer is playing for {called(viewer, seat, names)}."


def is_back(names: Sequence[str], seat: int, viewer: Viewer) -> str:
    """The person at ``seat`` came back."""
    if seat == viewer:
        return "Welcome back: your seat is yours again."
    return f"{called(viewer, seat, names)} is back."


def has_left(names: Sequence[str], seat: int, viewer: Viewer) -> str:
    """The person at ``seat`` left for good."""
    if seat == viewer:
        return "You left the table: the computer plays your seat to the end."
    who = called(viewer, seat, names)
    return f"{who} left the table: the computer plays their seat to the end."


def ran_out(names: Sequence[str], seat: int, viewer: Viewer) -> str:
    """The turn timer of ``seat`` ran out."""
    if seat == viewer:
        return TIME_RAN_OUT
    who = called(viewer, seat, names)
    return f"The time ran out for {who}: the computer played their turn."


def event_of(
    game: GameState, action: Action, viewer: Viewer, names: Sequence[str]
) -> dict[str, Any]:
    """The event of ``action``, just applied to ``game``, as ``viewer`` is told it."""
    name = called(viewer, action.seat, names)
    card = None
    taken: tuple[Card, ...] = ()
    meld = None
    if isinstance(action, Draw) and action.source is DrawSource.DISCARD:
        # Cards taken from the pile are public; a card drawn from the stock is not.
        taken = tuple(game.known[action.seat][-action.depth :])
        card = str(taken[-1]) if taken else None
    elif isinstance(action, Meld):
        meld = game.melds[-1].symbols
    elif isinstance(action, LayOff | Discard):
        card = str(action.card)
        if isinstance(action, LayOff):
            meld = game.melds[action.meld].symbols
    said = describe_action(action, actor=name, tense=Tense.PAST, taken=taken, meld=meld)
    return {
        "seat": action.seat,
        "action": str(action).split(" ", 1)[1],
        "card": card,
        "text": f"{said}.",
    }
