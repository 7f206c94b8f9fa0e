"""What one seat may see of a game: the only view of hidden cards that leaves the core.

>>> from rummykit.core.presets import find_preset
>>> from rummykit.core.state import GameState
>>> game = GameState.new(find_preset("classic").rules, seats=2, seed=3)
>>> view = observe(game, 1)
>>> len(view.hand), view.hand_sizes, view.stock_count, len(view.legal_actions)
(10, (10, 10), 31, 2)
>>> observe(game, 0).legal_actions
()
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final

from rummykit.core.actions import Action
from rummykit.core.cards import Card
from rummykit.core.deadwood import Partition
from rummykit.core.frozen import rebuild_by_fields
from rummykit.core.melds import TableMeld
from rummykit.core.rules import Rules
from rummykit.core.state import DealResult, GameState, Phase

HISTORY_FIELDS: Final = frozenset({"refused", "thrown"})
"""The observation's fields that tell what happened, not where cards lie now: cards every
player saw face up, which may since have been taken, or turned over into the stock."""


@dataclasses.dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of the game: everything a player at a real table could know.

    ``seat`` is ``None`` for a spectator, who sees no hand at all.
    """

    seat: int | None
    """Whose view this is (``None``: a spectator)."""
    rules: Rules
    """The house rules."""
    seat_count: int
    """How many seats play."""
    dealer: int
    """The seat that dealt this deal."""
    deal_number: int
    """The deal being played, counted from 0."""
    turn: int
    """The seat to act (after the deal: the seat that went out or was blocked)."""
    turn_number: int
    """Turns begun in this deal so far, the first being 1."""
    phase: Phase
    """Draw, play, or over."""
    hand: tuple[Card, ...]
    """This seat's own cards, sorted (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    known_cards: tuple[tuple[Card, ...], ...]
    """For each seat, the cards it took from the discard pile and still holds."""
    melds: tuple[TableMeld, ...]
    """The melds on the table, by number, each with its owner."""
    meld_points: tuple[int, ...]
    """For each meld, what its cards scored as they were laid (public: they lie face up)."""
    table_points: tuple[int, ...]
    """For each seat, what the cards it laid on the table this deal scored."""
    discard_pile: tuple[Card, ...]
    """The discard pile, bottom first (it is face up, so all of it is public)."""
    stock_count: int
    """Cards left in the stock."""
    renewals_used: int
    """How many times the stock has been renewed in this deal."""
    idle_renewals_used: int
    """Renewals in a row since a card was last melded or laid off (``rules.idle_renewals``
    ends the deal when the stock runs out with this count at the limit)."""
    scores: tuple[int, ...]
    """Each seat's running total."""
    has_laid: tuple[bool, ...]
    """For each seat, whether it has laid a meld or laid off on an earlier turn of the deal."""
    first_meld_turns: tuple[int | None, ...]
    """For each seat, the turn number of its first meld in this deal (``None``: none yet)."""
    refused: tuple[tuple[Card, ...], ...]
    """For each seat, the top discards it left lying when it drew from the stock, in order."""
    thrown: tuple[tuple[Card, ...], ...]
    """For each seat, the cards it discarded in this deal, in order (every player saw them go)."""
    taken_top: Card | None
    """The card the seat to act took from the discard pile this turn, if any."""
    must_play: Card | None
    """The card taken from deep in the pile that the seat to act must still meld or lay off."""
    melds_this_turn: int
    """New melds laid so far in this turn."""
    played_this_turn: bool
    """Whether the seat to act has melded or laid off in this turn."""
    legal_actions: tuple[Action, ...]
    """This seat's legal actions when it is to act, sorted; empty otherwise."""
    result: DealResult | None
    """How the deal ended (``None`` while it goes on)."""
    deal_winner: int | None
    """The seat that went out of the deal (``None`` while it goes on, or when blocked)."""
    deal_points: tuple[int, ...] | None
    """What each seat scored in the deal once it has ended."""
    game_over: bool
    """Whether the game has ended."""
    winner: int | None
    """The game's winner once it is over (``None`` for a tie)."""
    knocker: int | None = None
    """Knock rummy: the seat that knocked to end the deal (``None``: none did)."""
    layouts: tuple[Partition, ...] | None = None
    """Knock rummy: once the deal has ended, every hand laid out in melds and deadwood.

    Shown to every seat, as each player spreads their hand on the table at a knock."""

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is the one to act."""
        return self.seat == self.turn and self.phase is not Phase.OVER

    @property
    def discard_top(self) -> Card | None:
        """The top card of the discard pile, if any."""
        return self.discard_pile[-1] if self.discard_pile else None

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


def observe(state: GameState, seat: int | None) -> Observation:
    """What ``seat`` may see of ``state`` (``None``: a spectator)."""
    if seat is not None and not 0 <= seat < state.seat_count:
        raise ValueError(f"There is no seat {seat}.")
    own_turn = seat == state.turn and state.phase is not Phase.OVER
    return Observation(
        seat=seat,
        rules=state.rules,
        seat_count=state.seat_count,
        dealer=state.dealer if state.phase is not Phase.OVER else state.logs[-1].dealer,
        deal_number=state.deal_number,
        turn=state.turn,
        turn_number=state.turn_number,
        phase=state.phase,
        hand=tuple(sorted(state.hands[seat])) if seat is not None else (),
        hand_sizes=tuple(len(hand) for hand in state.hands),
        known_cards=tuple(tuple(sorted(cards)) for cards in state.known),
        melds=tuple(state.melds),
        meld_points=tuple(state.meld_points),
        table_points=tuple(state.table_points),
        discard_pile=tuple(state.discard_pile),
        stock_count=len(state.stock),
        renewals_used=state.renewals_used,
        idle_renewals_used=state.idle_renewals_used,
        scores=tuple(state.scores),
        has_laid=tuple(state.played_before),
        first_meld_turns=tuple(state.first_meld_turn),
        refused=tuple(tuple(cards) for cards in state.refused),
        thrown=tuple(tuple(cards) for cards in state.thrown),
        taken_top=state.taken_top,
        must_play=state.must_play,
        melds_this_turn=state.melds_this_turn,
        played_this_turn=state.played_this_turn,
        legal_actions=tuple(state.legal_actions()) if own_turn else (),
        result=state.result,
        deal_winner=state.deal_winner,
        deal_points=state.deal_points,
        game_over=state.game_over,
        winner=state.winner,
        knocker=state.deal.knocker,
        layouts=state.deal.layouts if state.phase is Phase.OVER else None,
    )
