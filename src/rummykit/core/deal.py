"""The deal being played, as one value: every card's place and the turn's progress.

``GameState`` holds the game (rules, scores, dealer, the record); everything that a new deal
starts afresh lives here, in one ``DealState`` that is copied as a whole. Its constructor
takes every field by name with no defaults, so code that builds a deal from parts (the
search bots' ``determinize``) cannot forget one.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from rummykit.core.cards import Card
from rummykit.core.deadwood import Partition
from rummykit.core.frozen import rebuild_by_fields
from rummykit.core.kinds import DealResult as DealResult
from rummykit.core.kinds import Phase as Phase
from rummykit.core.melds import TableMeld


@dataclasses.dataclass(frozen=True, slots=True)
class DealSummary:
    """One deal's outcome."""

    dealer: int
    """The seat that dealt."""
    result: DealResult | None
    """How it ended; ``None`` while it goes on."""
    winner: int | None
    """The seat that went out; ``None`` for a blocked or unfinished deal."""
    points: tuple[int, ...] | None
    """What each seat scored in the deal; ``None`` while it goes on."""
    knocker: int | None = None
    """Knock rummy: the seat that knocked (``None``: no knock)."""
    deadwood: tuple[int, ...] | None = None
    """Knock rummy: each hand's deadwood once laid out (``None``: no hands were laid out)."""

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


@dataclasses.dataclass(slots=True)
class DealLog:
    """What a record needs to replay one deal: the deck, the actions, the shuffles."""

    dealer: int
    deck: tuple[Card, ...]
    actions: list[str] = dataclasses.field(default_factory=list)
    reshuffles: list[tuple[Card, ...]] = dataclasses.field(default_factory=list)
    seed: int = 0

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


@dataclasses.dataclass(slots=True, kw_only=True)
class DealState:
    """Where every card of the deal is, and how far the current turn has gone."""

    hands: list[list[Card]]
    """Each seat's hand, in the order the cards came."""
    stock: list[Card]
    """The face-down stock, top card last."""
    discard_pile: list[Card]
    """The face-up pile, top card last."""
    melds: list[TableMeld]
    """The melds on the table, numbered in the order they were laid."""
    turn: int
    """The seat to act (once the deal is over: the seat that went out or was blocked)."""
    phase: Phase
    """Where that seat stands in its turn."""
    turn_number: int
    """Turns begun in this deal so far, the first being 1."""
    taken_top: Card | None
    """The card taken from the top of the discard pile this turn, if any."""
    must_play: Card | None
    """The deepest card of a multi-card take, until it is melded or laid off."""
    stock_extra: Card | None
    """The stock's top card that came with this turn's take from the pile (Boathouse)."""
    melds_this_turn: int
    """New melds laid this turn."""
    played_this_turn: bool
    """Whether this turn has melded or laid off."""
    played_before: list[bool]
    """For each seat, whether it melded or laid off on an earlier turn (no rummy then)."""
    first_meld_turn: list[int | None]
    """For each seat, the turn number of its first meld (``None``: none yet)."""
    known: list[list[Card]]
    """For each seat, the cards it took from the pile and still holds: public knowledge."""
    refused: list[list[Card]]
    """For each seat, the top discards it passed over by drawing from the stock."""
    thrown: list[list[Card]]
    """For each seat, the cards it discarded (or knocked with) in this deal, in order."""
    renewals_used: int
    """How many times the stock has been renewed."""
    idle_renewals_used: int
    """Renewals since a card was last melded or laid off (or since the deal began): the
    count that ``Rules.idle_renewals`` limits."""
    result: DealResult | None
    """How the deal ended (``None`` while it goes on)."""
    winner: int | None
    """The seat that went out (``None`` for a blocked or unfinished deal)."""
    points: tuple[int, ...] | None
    """What each seat scored once the deal ended."""
    knocker: int | None
    """Knock rummy: the seat that knocked to end the deal (``None``: none did)."""
    layouts: tuple[Partition, ...] | None
    """Knock rummy: every hand laid out in its best melds once the deal ended; public."""
    given_reshuffles: list[tuple[Card, ...]]
    """New stock orders fixed by a record, top first, used one per shuffle."""
    shuffle_seed: int | None
    """Seeds the shuffles of the pile past ``given_reshuffles`` (``None``: ``secrets`` draws)."""
    shuffle_rng: random.Random | None
    """Made from ``shuffle_seed`` at the first shuffle that needs it."""
    meld_points: list[int]
    """For each meld on the table, what its cards scored as they were laid (meld points)."""
    table_points: list[int]
    """For each seat, what the cards it laid on the table this deal scored (meld points)."""

    @classmethod
    def empty(cls, seats: int, turn: int) -> DealState:
        """A deal with nothing dealt yet (and so over), ``turn`` being the first to act."""
        return cls(
            hands=[[] for _ in range(seats)],
            stock=[],
            discard_pile=[],
            melds=[],
            turn=turn,
            phase=Phase.OVER,
            turn_number=0,
            taken_top=None,
            must_play=None,
            stock_extra=None,
            melds_this_turn=0,
            played_this_turn=False,
            played_before=[False] * seats,
            first_meld_turn=[None] * seats,
            known=[[] for _ in range(seats)],
            refused=[[] for _ in range(seats)],
            thrown=[[] for _ in range(seats)],
            renewals_used=0,
            idle_renewals_used=0,
            result=None,
            winner=None,
            points=None,
            knocker=None,
            layouts=None,
            given_reshuffles=[],
            shuffle_seed=0,
            shuffle_rng=None,
            meld_points=[],
            table_points=[0] * seats,
        )

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)

    def copy(self) -> DealState:
        """An independent copy: every list copied, the shuffle rng's state too."""
        rng = None
        if self.shuffle_rng is not None:
            rng = random.Random(0)  # not the OS's randomness: setstate replaces the seed
            rng.setstate(self.shuffle_rng.getstate())
        return dataclasses.replace(
            self,
            hands=[list(hand) for hand in self.hands],
            stock=list(self.stock),
            discard_pile=list(self.discard_pile),
            melds=list(self.melds),
            played_before=list(self.played_before),
            first_meld_turn=list(self.first_meld_turn),
            known=[list(cards) for cards in self.known],
            refused=[list(cards) for cards in self.refused],
            thrown=[list(cards) for cards in self.thrown],
            given_reshuffles=list(self.given_reshuffles),
            shuffle_rng=rng,
            meld_points=list(self.meld_points),
            table_points=list(self.table_points),
        )


class DealFields:
    """Read access to the current deal's fields, for a class that holds one in ``deal``.

    ``game.hands`` reads ``game.deal.hands``: the deal changes only through the game's
    ``apply``, and is copied whole with ``deal.copy()``.
    """

    __slots__ = ()
    deal: DealState

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's hand."""
        return self.deal.hands

    @property
    def stock(self) -> list[Card]:
        """The stock, top card last."""
        return self.deal.stock

    @property
    def discard_pile(self) -> list[Card]:
        """The discard pile, top card last."""
        return self.deal.discard_pile

    @property
    def melds(self) -> list[TableMeld]:
        """The melds on the table, in the order laid."""
        return self.deal.melds

    @property
    def turn(self) -> int:
        """The seat to act (after the deal: the seat that went out or was blocked)."""
        return self.deal.turn

    @property
    def phase(self) -> Phase:
        """Where the seat to act stands in its turn."""
        return self.deal.phase

    @property
    def turn_number(self) -> int:
        """Turns begun in this deal so far, the first being 1."""
        return self.deal.turn_number

    @property
    def taken_top(self) -> Card | None:
        """The card taken from the top of the pile this turn, if any."""
        return self.deal.taken_top

    @property
    def must_play(self) -> Card | None:
        """The deepest card of a multi-card take, until it is played."""
        return self.deal.must_play

    @property
    def melds_this_turn(self) -> int:
        """New melds laid this turn."""
        return self.deal.melds_this_turn

    @property
    def played_this_turn(self) -> bool:
        """Whether this turn has melded or laid off."""
        return self.deal.played_this_turn

    @property
    def played_before(self) -> list[bool]:
        """For each seat, whether it played on an earlier turn."""
        return self.deal.played_before

    @property
    def first_meld_turn(self) -> list[int | None]:
        """For each seat, the turn of its first meld."""
        return self.deal.first_meld_turn

    @property
    def known(self) -> list[list[Card]]:
        """For each seat, the cards it took from the pile and still holds."""
        return self.deal.known

    @property
    def refused(self) -> list[list[Card]]:
        """For each seat, the top discards it passed over."""
        return self.deal.refused

    @property
    def thrown(self) -> list[list[Card]]:
        """For each seat, the cards it discarded in this deal."""
        return self.deal.thrown

    @property
    def renewals_used(self) -> int:
        """How many times the stock has been renewed in this deal."""
        return self.deal.renewals_used

    @property
    def idle_renewals_used(self) -> int:
        """Renewals since a card was last melded or laid off in this deal."""
        return self.deal.idle_renewals_used

    @property
    def result(self) -> DealResult | None:
        """How the deal ended (``None`` while it goes on)."""
        return self.deal.result

    @property
    def deal_winner(self) -> int | None:
        """The seat that went out of this deal, if any."""
        return self.deal.winner

    @property
    def meld_points(self) -> list[int]:
        """For each meld on the table, what its cards scored as they were laid."""
        return self.deal.meld_points

    @property
    def table_points(self) -> list[int]:
        """For each seat, what the cards it laid on the table this deal scored."""
        return self.deal.table_points

    @property
    def deal_points(self) -> tuple[int, ...] | None:
        """What each seat scored in this deal, once over."""
        return self.deal.points
