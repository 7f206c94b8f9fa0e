"""Decisions whose outcome is settled within the turn, valued without playouts.

Going out ends the deal: once a choice lets its player go out in the rest of the turn (or is
the going out itself, a knock included), nothing is left to play, so the review values it by
the best way to go out from there, searched, not played out by a policy. The same holds for a
discard that hands the next player the card they need to go out with cards every player saw
them take: their whole hand is known, so their going out is certain.

Whether a choice is settled depends only on cards its player saw: the search of the rest of a
turn never draws from the stock, and the next player's going out counts only when every card
they hold is one they were seen to take. So it is the same in every deal of the hidden cards
the judge samples, and so is the play; what the going out scores may still depend on the
other hands (the count of their cards), which the judge averages over the same samples as the
other choices. It never reads the real hands: a review judges from what the player could see.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from rummykit.bots.equity import points_outcome
from rummykit.core.actions import Action, Discard, Draw, DrawSource, Knock, LayOff, Meld
from rummykit.core.kinds import Phase
from rummykit.core.state import GameState

SEARCH_LIMIT: Final = 5_000
"""Positions one search of the rest of a turn visits at most. Hands are small and most turns
have a handful of melds and lay-offs; a turn with more orders than this to try is left to the
playouts (its choices are then simply not settled)."""

_State = tuple[tuple[int, ...], tuple[int, ...], int]
"""What a position within one turn is known by: the hand, the melds' sizes, the discard pile's
size (orders of the same melds and lay-offs reach the same state)."""


def _state(game: GameState, seat: int) -> _State:
    hand = tuple(sorted(card.code for card in game.hands[seat]))
    return hand, tuple(len(meld.cards) for meld in game.deal.melds), len(game.deal.discard_pile)


class _TurnSearch:
    """The best going out of ``mover`` in the rest of its turn, valued for ``judged``.

    ``mover`` picks the going out worth most to itself; the value kept is ``judged``'s.
    """

    def __init__(self, mover: int, judged: int) -> None:
        self.mover = mover
        self.judged = judged
        self.visited = 0
        self.known: dict[_State, tuple[float, float] | None] = {}

    def best(self, game: GameState) -> tuple[float, float] | None:
        """(mover's value, judged's value) of the best going out from ``game``, or ``None``."""
        if game.deal_over:  # by the mover's going out or knock: nothing of it is drawn
            return points_outcome(game, self.mover), points_outcome(game, self.judged)
        if game.turn != self.mover or game.phase is not Phase.PLAY:
            return None  # the turn passed without going out
        key = _state(game, self.mover)
        if key in self.known:
            return self.known[key]
        self.visited += 1
        if self.visited > SEARCH_LIMIT:
            return None  # the same in every sample: the search sees only the mover's cards
        found: tuple[float, float] | None = None
        for action in _moves(game):
            after = game.clone()
            after.apply_unchecked(action)
            value = self.best(after)
            if value is not None and (found is None or value[0] > found[0]):
                found = value
        self.known[key] = found
        return found


def _moves(game: GameState) -> Iterator[Action]:
    """The actions that may lead to going out this turn: never a draw from the stock."""
    for action in game.legal_actions():
        if isinstance(action, Meld | LayOff | Discard | Knock):
            yield action


def settled_values(
    game: GameState, seat: int, actions: Iterable[Action] | None = None
) -> dict[Action, float]:
    """The value, for ``seat``, of each of its ``actions`` whose outcome is settled.

    ``game`` is a position with ``seat`` to act (a sampled one, in the judge); ``actions``
    are some of its legal actions (all of them by default). An action is settled when
    ``seat`` can still go out in the rest of this turn after it (valued by its best going
    out), or when it is a discard that lets the next player go out with cards all known to
    ``seat`` (valued by that player's best going out, for them). The values are on the
    playouts' scale (``points_outcome``: the seat's deal points less the others' average).
    """
    values: dict[Action, float] = {}
    own = _TurnSearch(seat, seat)
    for action in game.legal_actions() if actions is None else actions:
        if isinstance(action, Draw) and _draws_unseen(game, action):
            continue  # a card drawn is hidden: nothing after it is settled
        after = game.clone()
        after.apply_unchecked(action)
        going_out = own.best(after)
        if going_out is not None:
            values[action] = going_out[1]
        elif isinstance(action, Discard):
            handed = _next_goes_out(after, seat, game)
            if handed is not None:
                values[action] = handed
    return values


def goes_out_after(game: GameState, seat: int, action: Action) -> bool:
    """Whether ``seat`` can end the deal in the rest of its turn, ``action`` first.

    A going out or a knock, reached with cards the seat sees (never past a hidden draw).
    """
    if isinstance(action, Draw) and _draws_unseen(game, action):
        return False
    after = game.clone()
    after.apply_unchecked(action)
    return _TurnSearch(seat, seat).best(after) is not None


def _next_goes_out(after: GameState, seat: int, before: GameState) -> float | None:
    """``seat``'s value if the next player takes its discard and goes out (else ``None``).

    Only when every card the next player holds is one ``seat`` saw them take.
    """
    if after.deal_over or after.phase is not Phase.DRAW:
        return None
    following = after.turn
    known = before.deal.known[following]
    if len(known) != len(before.hands[following]):
        return None
    take = Draw(following, DrawSource.DISCARD)
    if _draws_unseen(after, take) or take not in after.legal_actions():
        return None
    taken = after.clone()
    taken.apply_unchecked(take)
    going_out = _TurnSearch(following, seat).best(taken)
    return None if going_out is None else going_out[1]


def _draws_unseen(game: GameState, draw: Draw) -> bool:
    """Whether ``draw`` brings a card no one has seen.

    The stock's does, and so does the one that comes with a take from the pile under
    ``stock_with_discard``.
    """
    if draw.source is DrawSource.STOCK:
        return True
    return game.rules.stock_with_discard and game.stock_count > 0
