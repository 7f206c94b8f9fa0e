"""The game as a state machine: dealing, one legality check, applying actions, scoring.

>>> from rummykit.core.rules import find_preset
>>> game = GameState.new(find_preset("classic").rules, seats=2, seed=7)
>>> game.turn, game.phase.value, len(game.hands[0]), game.stock_count
(1, 'draw', 10, 31)
>>> game.apply_text("1 draw stock")
>>> game.phase.value
'play'
>>> game.check_text("0 draw stock")
Traceback (most recent call last):
...
rummykit.core.errors.IllegalActionError: It is seat 1's turn, not seat 0's.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections import Counter
from collections.abc import Iterator, Sequence

from rummykit.core.actions import (
    Action,
    Discard,
    Draw,
    DrawSource,
    LayOff,
    Meld,
    action_sort_key,
    parse_action,
)
from rummykit.core.cards import (
    JOKER,
    JOKER_CODE,
    Card,
    deck_problem,
    format_cards,
    standard_deck,
)
from rummykit.core.errors import IllegalActionError, RecordError
from rummykit.core.meld_search import enumerate_melds, meld_layouts
from rummykit.core.melds import (
    MeldKind,
    TableMeld,
    arrange_meld,
    lay_off,
    layoff_positions,
    meld_accepts,
)
from rummykit.core.rules import (
    Blocked,
    DealerRotation,
    DiscardTake,
    GoOut,
    LayOffTiming,
    Renew,
    Rules,
    RummyBonus,
    Scoring,
)


class Phase(enum.StrEnum):
    """Where the seat to act stands in its turn."""

    DRAW = "draw"
    """It must draw."""
    PLAY = "play"
    """It has drawn, and may meld, lay off and must discard."""
    OVER = "over"
    """The deal has ended."""


class DealResult(enum.StrEnum):
    """How a deal ended."""

    OUT = "out"
    """A seat emptied its hand."""
    RUMMY = "rummy"
    """A seat went out in one turn with nothing laid on an earlier turn of the deal."""
    BLOCKED = "blocked"
    """The stock ran out for good."""


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


@dataclasses.dataclass(slots=True)
class DealLog:
    """What a record needs to replay one deal: the deck, the actions, the shuffles."""

    dealer: int
    deck: tuple[Card, ...]
    actions: list[str] = dataclasses.field(default_factory=list)
    reshuffles: list[tuple[Card, ...]] = dataclasses.field(default_factory=list)
    seed: int = 0


def _names(cards: Sequence[Card]) -> str:
    return format_cards(cards, symbols=True)


def _illegal(code: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, message)


class GameState:
    """A whole game: the rules, the scores, and the deal being played.

    Only ``apply`` (and ``start_deal``) change it; everything else asks. ``check`` is the
    single source of legality: ``can``, ``apply`` and ``legal_actions`` all rest on it.
    """

    def __init__(self, rules: Rules, seats: int, dealer: int = 0, seed: int | None = None):
        """An empty game; ``GameState.new`` also deals the first deal."""
        rules.check_seats(seats)
        if not 0 <= dealer < seats:
            raise ValueError(f"The dealer must be a seat from 0 to {seats - 1}, not {dealer}.")
        self.rules = rules
        self.seat_count = seats
        self.scores = [0] * seats
        self.dealer = dealer
        self.summaries: list[DealSummary] = []
        self.logs: list[DealLog] = []
        self.game_over = False
        self.winner: int | None = None
        self.rng = random.Random(seed)
        self.version = 0
        self._deal_seed = 0
        self._clear_deal()

    def _clear_deal(self) -> None:
        seats = self.seat_count
        self.hands: list[list[Card]] = [[] for _ in range(seats)]
        self.stock: list[Card] = []  # top card last
        self.discard_pile: list[Card] = []  # top card last
        self.melds: list[TableMeld] = []
        self.turn = (self.dealer + 1) % seats
        self.phase = Phase.OVER
        self.turn_number = 0
        self.taken_top: Card | None = None
        self.must_play: Card | None = None
        self.melds_this_turn = 0
        self.played_this_turn = False
        self.played_before = [False] * seats
        self.first_meld_turn: list[int | None] = [None] * seats
        self.known: list[list[Card]] = [[] for _ in range(seats)]
        self.refused: list[list[Card]] = [[] for _ in range(seats)]
        self.renewals_used = 0
        self.result: DealResult | None = None
        self.deal_winner: int | None = None
        self.deal_points: tuple[int, ...] | None = None
        self.given_reshuffles: list[tuple[Card, ...]] = []
        self._shuffle_rng: random.Random | None = None

    # ----- making games and deals ----------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        seats: int,
        *,
        dealer: int = 0,
        deck: Sequence[Card] | None = None,
        seed: int | None = None,
    ) -> GameState:
        """A game with its first deal dealt, from ``deck`` (top first) or shuffled by ``seed``."""
        game = cls(rules, seats, dealer, seed)
        game.start_deal(deck)
        return game

    @property
    def deal_number(self) -> int:
        """The current deal, counted from 0."""
        return len(self.logs) - 1

    @property
    def deal_over(self) -> bool:
        """Whether the current deal has ended (or none has been dealt)."""
        return self.phase is Phase.OVER

    def start_deal(
        self,
        deck: Sequence[Card] | None = None,
        *,
        reshuffles: Sequence[Sequence[Card]] = (),
        seed: int = 0,
    ) -> None:
        """Deal the next deal from ``deck`` (top first), or a deck shuffled by the game's rng.

        ``reshuffles`` fixes the order of the stocks the discard pile is shuffled into
        (top first, one list a shuffle); past them, ``random.Random(seed)`` shuffles.
        """
        if self.game_over:
            raise ValueError("The game is over: no more deals.")
        if self.logs and not self.deal_over:
            raise ValueError("The current deal is still being played.")
        if deck is None:  # a deck the engine shuffles itself is whole by construction
            shuffled = list(standard_deck(self.rules.decks, self.rules.jokers))
            self.rng.shuffle(shuffled)
            deck = tuple(shuffled)
        else:
            deck = tuple(deck)
            problem = deck_problem(deck, standard_deck(self.rules.decks, self.rules.jokers))
            if problem:
                raise RecordError(f"The deck is not a whole deck for these rules: {problem}.")
        self._clear_deal()
        self.logs.append(DealLog(self.dealer, deck, seed=seed))
        self.given_reshuffles = [tuple(order) for order in reshuffles]
        self._deal_seed = seed
        seats = self.seat_count
        size = self.rules.hand_size_for(seats)
        for index in range(seats * size):
            self.hands[(self.dealer + 1 + index) % seats].append(deck[index])
        self.discard_pile.append(deck[seats * size])
        self.stock = list(reversed(deck[seats * size + 1 :]))
        self.turn = self.dealer  # _begin_turn moves it to the dealer's left
        self.version += 1
        self._begin_turn()

    # ----- asking --------------------------------------------------------------------

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self.stock)

    @property
    def discard_top(self) -> Card | None:
        """The top card of the discard pile, if any."""
        return self.discard_pile[-1] if self.discard_pile else None

    def hand_value(self, seat: int) -> int:
        """What the cards in ``seat``'s hand cost now."""
        points = self.rules.card_points
        return sum(points(card.code) for card in self.hands[seat])

    def can_renew(self) -> bool:
        """Whether an empty stock could be renewed from the discard pile now."""
        rules = self.rules
        if rules.renew is Renew.NONE:
            return False
        if rules.renewals is not None and self.renewals_used >= rules.renewals:
            return False
        needed = 2 if rules.renew is Renew.SHUFFLE_KEEP_TOP else 1
        return len(self.discard_pile) >= needed

    def summary(self) -> DealSummary:
        """The current deal's outcome so far."""
        return DealSummary(self.dealer, self.result, self.deal_winner, self.deal_points)

    def check(self, action: Action) -> None:
        """Raise ``IllegalActionError`` with the code and reason if ``action`` is illegal now."""
        if self.phase is Phase.OVER:
            raise _illegal("wrong_phase", "The deal is over: no more actions in it.")
        seat = action.seat
        if seat != self.turn:
            if not 0 <= seat < self.seat_count:
                raise _illegal(
                    "not_your_turn",
                    f"There is no seat {seat}: seats are 0 to {self.seat_count - 1}.",
                )
            raise _illegal("not_your_turn", f"It is seat {self.turn}'s turn, not seat {seat}'s.")
        if isinstance(action, Draw):
            if self.phase is not Phase.DRAW:
                raise _illegal("wrong_phase", "You have drawn already this turn.")
            self._check_draw(action)
            return
        if self.phase is not Phase.PLAY:
            raise _illegal("wrong_phase", "Draw first: from the stock or the discard pile.")
        if isinstance(action, Meld):
            self._check_meld(action)
        elif isinstance(action, LayOff):
            self._check_layoff(action)
        else:
            self._check_discard(action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def check_text(self, text: str) -> None:
        """``check`` for an action in record notation."""
        self.check(parse_action(text))

    def _check_draw(self, action: Draw) -> None:
        if action.source is DrawSource.STOCK:
            return  # an empty stock here means the seat chose to renew (or block)
        pile = self.discard_pile
        if not pile:
            raise _illegal("empty_discard", "The discard pile is empty: draw from the stock.")
        if action.depth == 1:
            return
        if self.rules.discard_take is DiscardTake.TOP:
            raise _illegal(
                "discard_take_not_allowed",
                "Only the top card of the discard pile may be taken under these rules.",
            )
        if action.depth > len(pile):
            raise _illegal(
                "discard_take_not_allowed",
                f"The discard pile holds only {len(pile)} "
                f"{'card' if len(pile) == 1 else 'cards'}, not {action.depth}.",
            )
        deepest = pile[-action.depth]
        taken = pile[-action.depth :]
        if not self._can_use(deepest, self.hands[action.seat] + taken):
            raise _illegal(
                "discard_take_not_allowed",
                f"You may take the {deepest.symbol} from deep in the pile only to meld it or lay "
                "it off this turn, and it fits nothing you could make.",
            )

    def _can_use(self, card: Card, hand: Sequence[Card]) -> bool:
        """Whether the turn's seat could meld ``card`` from ``hand`` or lay it off now
        (under ``after_meld``, also once it has laid a meld of its own this turn)."""
        rules = self.rules
        seat = self.turn
        may_meld = not rules.melds_per_turn or self.melds_this_turn < rules.melds_per_turn
        keep = 1 if rules.go_out is GoOut.DISCARD else 0
        codes = [held.code for held in hand]
        melds = enumerate_melds(codes, rules.aces) if may_meld else []
        if any(
            (card.code in naturals or (card.is_joker and jokers))
            and len(naturals) + jokers <= len(hand) - keep
            for naturals, jokers in melds
        ):
            return True
        if not self.melds or (keep and len(hand) == 1):
            return False
        if self._layoff_refusal(seat) is not None:
            own_meld_first = (
                rules.layoff is LayOffTiming.AFTER_MELD
                and self.first_meld_turn[seat] is None
                and any(card.code not in naturals for naturals, _ in melds)
            )
            if not own_meld_first:
                return False
        return any(layoff_positions(meld, card, rules.aces) for meld in self.melds)

    def _check_holds(self, seat: int, cards: Sequence[Card]) -> None:
        hand = self.hands[seat]
        if len(cards) == 1 and cards[0] in hand:
            return
        wanted = Counter(cards)
        for card, count in wanted.items():
            held = hand.count(card)
            if held < count:
                if held:
                    raise _illegal(
                        "card_not_in_hand",
                        f"You hold {held} {card.symbol}, not {count}.",
                    )
                raise _illegal("card_not_in_hand", f"You do not hold the {card.symbol}.")

    def _check_meld(self, action: Meld) -> None:
        self._check_holds(action.seat, action.cards)
        limit = self.rules.melds_per_turn
        if limit and self.melds_this_turn >= limit:
            many = "one new meld" if limit == 1 else f"{limit} new melds"
            raise _illegal("meld_limit", f"You may lay only {many} a turn under these rules.")
        arrange_meld(action.cards, action.jokers_as, self.rules.aces)
        if self.rules.go_out is GoOut.DISCARD and len(action.cards) == len(self.hands[action.seat]):
            raise _illegal(
                "must_discard_to_go_out",
                "Keep a card back: under these rules you go out only by discarding your last card.",
            )

    def _layoff_refusal(self, seat: int) -> IllegalActionError | None:
        timing = self.rules.layoff
        first = self.first_meld_turn[seat]
        if timing is LayOffTiming.AFTER_MELD and first is None:
            return _illegal(
                "layoff_not_allowed", "Lay a meld of your own before you lay off cards."
            )
        if timing is LayOffTiming.TURN_AFTER_MELD and (first is None or first == self.turn_number):
            return _illegal(
                "layoff_not_allowed",
                "You may lay off from the turn after your first meld."
                if first is not None
                else "Lay a meld of your own, then from your next turn you may lay off.",
            )
        return None

    def _check_layoff(self, action: LayOff) -> None:
        self._check_holds(action.seat, (action.card,))
        if not 0 <= action.meld < len(self.melds):
            count = len(self.melds)
            listing = "there are none yet" if not count else f"they are numbered 0 to {count - 1}"
            raise _illegal(
                "no_such_meld", f"There is no meld {action.meld} on the table: {listing}."
            )
        refusal = self._layoff_refusal(action.seat)
        if refusal is not None:
            raise refusal
        meld = self.melds[action.meld]
        options = layoff_positions(meld, action.card, self.rules.aces)
        stood = action.joker_as
        if not options or (stood is not None and stood not in options):
            shown = action.card.symbol if stood is None else f"🃏 as {stood.symbol}"
            raise _illegal("layoff_does_not_fit", f"The {shown} does not fit {meld.symbols}.")
        if self.rules.go_out is GoOut.DISCARD and len(self.hands[action.seat]) == 1:
            raise _illegal(
                "must_discard_to_go_out",
                "Keep your last card to discard: under these rules you go out only by discarding.",
            )

    def _check_discard(self, action: Discard) -> None:
        seat, card = action.seat, action.card
        self._check_holds(seat, (card,))
        hand = self.hands[seat]
        if card is self.taken_top and len(hand) > 1 and hand.count(card) == 1:
            raise _illegal(
                "discard_taken_card",
                f"You took the {card.symbol} from the discard pile this turn: "
                "you may not throw it straight back.",
            )
        deep = self.must_play
        if deep is not None and len(hand) > 1 and deep in hand and self._can_use(deep, hand):
            raise _illegal(
                "must_use_taken_card",
                f"Meld or lay off the {deep.symbol} you took from deep in the pile before you "
                "discard.",
            )

    # ----- acting --------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Check ``action`` and play it; an illegal action raises and changes nothing."""
        self.check(action)
        self.apply_unchecked(action)

    def apply_text(self, text: str) -> None:
        """``apply`` for an action in record notation."""
        self.apply(parse_action(text))

    def apply_unchecked(self, action: Action) -> None:
        """Play an action already known to be legal (a fast path for search; no check)."""
        self.version += 1
        seat = action.seat
        if isinstance(action, Draw):
            self._draw(action)
        elif isinstance(action, Meld):
            meld = arrange_meld(action.cards, action.jokers_as, self.rules.aces)
            self.melds.append(meld.with_owner(seat))
            self._remove_from_hand(seat, action.cards)
            self.melds_this_turn += 1
            self.played_this_turn = True
            if self.first_meld_turn[seat] is None:
                self.first_meld_turn[seat] = self.turn_number
            if self.must_play is not None and self.must_play in action.cards:
                self.must_play = None
            self._log(str(Meld(seat, meld.cards, _joker_designations(meld))))
            if not self.hands[seat]:
                self._go_out(seat)
        elif isinstance(action, LayOff):
            meld = self.melds[action.meld]
            stood = action.joker_as or layoff_positions(meld, action.card, self.rules.aces)[0]
            self.melds[action.meld] = lay_off(meld, action.card, stood, self.rules.aces)
            self._remove_from_hand(seat, (action.card,))
            self.played_this_turn = True
            if self.must_play is action.card:
                self.must_play = None
            joker_as = stood if action.card.is_joker else None
            self._log(str(LayOff(seat, action.card, action.meld, joker_as)))
            if not self.hands[seat]:
                self._go_out(seat)
        else:
            self._remove_from_hand(seat, (action.card,))
            self.discard_pile.append(action.card)
            self._log(str(action))
            if not self.hands[seat]:
                self._go_out(seat)
            else:
                if self.played_this_turn:
                    self.played_before[seat] = True
                self._begin_turn()

    def _log(self, text: str) -> None:
        self.logs[-1].actions.append(text)

    def _draw(self, action: Draw) -> None:
        seat = action.seat
        if action.source is DrawSource.STOCK:
            self._log(str(action))
            if self.discard_pile:
                self.refused[seat].append(self.discard_pile[-1])
            if not self.stock:
                if not self.can_renew():
                    self._block()
                    return
                self._renew()
            self.hands[seat].append(self.stock.pop())
        else:
            self._log(str(action))
            pile = self.discard_pile
            taken = pile[-action.depth :]
            del pile[-action.depth :]
            self.hands[seat].extend(taken)
            self.known[seat].extend(taken)
            self.taken_top = taken[-1]
            if action.depth > 1:
                self.must_play = taken[0]
        self.phase = Phase.PLAY

    def _remove_from_hand(self, seat: int, cards: Sequence[Card]) -> None:
        hand = self.hands[seat]
        known = self.known[seat]
        for card in cards:
            hand.remove(card)
            if card in known and known.count(card) > hand.count(card):
                known.remove(card)

    def _begin_turn(self) -> None:
        self.turn = (self.turn + 1) % self.seat_count
        self.turn_number += 1
        self.phase = Phase.DRAW
        self.taken_top = None
        self.must_play = None
        self.melds_this_turn = 0
        self.played_this_turn = False
        if not self.stock and not self.rules.empty_stock_choice:
            if self.can_renew():
                self._renew()
            else:
                self._block()

    def _renew(self) -> None:
        pile = self.discard_pile
        self.renewals_used += 1
        renew = self.rules.renew
        if renew is Renew.FLIP:
            self.stock = list(reversed(pile))  # the first card discarded becomes the top
            self.discard_pile = []
            return
        keep = [pile[-1]] if renew is Renew.SHUFFLE_KEEP_TOP else []
        shuffled = pile[:-1] if keep else list(pile)
        order = self._shuffle_order(shuffled)
        self.logs[-1].reshuffles.append(tuple(order))
        self.stock = list(reversed(order))
        self.discard_pile = keep

    def _shuffle_order(self, cards: list[Card]) -> list[Card]:
        """The new stock, top first: the record's next list, else the deal's seeded rng."""
        used = len(self.logs[-1].reshuffles)
        if used < len(self.given_reshuffles):
            order = list(self.given_reshuffles[used])
            if Counter(order) != Counter(cards):
                raise RecordError(
                    f"Reshuffle {used} must hold exactly the cards being shuffled: "
                    f"{_names(sorted(cards))}."
                )
            return order
        if self._shuffle_rng is None:
            self._shuffle_rng = random.Random(self._deal_seed)
        order = list(cards)
        self._shuffle_rng.shuffle(order)
        return order

    # ----- ending deals and the game -------------------------------------------------

    def _go_out(self, seat: int) -> None:
        rules = self.rules
        rummy = not self.played_before[seat]
        self.result = DealResult.RUMMY if rummy else DealResult.OUT
        self.deal_winner = seat
        values = [self.hand_value(other) for other in range(self.seat_count)]
        bonus = rules.rummy_bonus if rummy else RummyBonus.NONE
        points = [0] * self.seat_count
        if rules.scoring is Scoring.WINNER:
            total = sum(values)
            points[seat] = _with_bonus(total, bonus)
        else:
            for other in range(self.seat_count):
                if other != seat:
                    points[other] = _with_bonus(values[other], bonus)
        self._end_deal(points)

    def _block(self) -> None:
        self.result = DealResult.BLOCKED
        self.deal_winner = None
        points = [0] * self.seat_count
        if self.rules.blocked is Blocked.LOWEST_COLLECTS:
            values = [self.hand_value(seat) for seat in range(self.seat_count)]
            lowest = min(values)
            if values.count(lowest) == 1:
                low_seat = values.index(lowest)
                if self.rules.scoring is Scoring.WINNER:
                    points[low_seat] = sum(value - lowest for value in values)
                else:
                    points = [value - lowest for value in values]
        self._end_deal(points)

    def _end_deal(self, points: list[int]) -> None:
        self.phase = Phase.OVER
        self.deal_points = tuple(points)
        for seat, value in enumerate(points):
            self.scores[seat] += value
        self.summaries.append(self.summary())
        rules = self.rules
        if rules.deals is not None:
            self.game_over = len(self.summaries) >= rules.deals
        else:
            self.game_over = max(self.scores) >= rules.target
        if self.game_over:
            best = max(self.scores) if rules.scoring is Scoring.WINNER else min(self.scores)
            self.winner = self.scores.index(best) if self.scores.count(best) == 1 else None
        else:
            self.dealer = self.next_dealer()

    def next_dealer(self) -> int:
        """Who deals the next deal under the rules' rotation."""
        if self.rules.dealer is DealerRotation.WINNER and self.deal_winner is not None:
            return self.deal_winner
        return (self.dealer + 1) % self.seat_count

    # ----- every legal action --------------------------------------------------------

    def legal_actions(self) -> LegalActions:
        """The legal actions of the seat to act, sorted; ``in`` checks without listing."""
        return LegalActions(self)

    def _generate(self) -> list[Action]:
        if self.phase is Phase.OVER:
            return []
        seat = self.turn
        if self.phase is Phase.DRAW:
            return self._draws(seat)
        actions: list[Action] = []
        hand = self.hands[seat]
        rules = self.rules
        aces = rules.aces
        must_keep = rules.go_out is GoOut.DISCARD
        if not rules.melds_per_turn or self.melds_this_turn < rules.melds_per_turn:
            codes = [card.code for card in hand]
            for naturals, jokers in enumerate_melds(codes, aces, substitutes=True):
                if must_keep and len(naturals) + jokers == len(hand):
                    continue
                cards = [Card.from_code(code) for code in naturals]
                for layout in meld_layouts(cards, jokers, aces):
                    actions.append(Meld(seat, layout.cards, _joker_designations(layout)))
        actions.sort(key=action_sort_key)
        if self.melds and self._layoff_refusal(seat) is None and not (must_keep and len(hand) == 1):
            has_joker = JOKER in hand
            for index, meld in enumerate(self.melds):
                accepted = sorted(meld_accepts(meld, aces))
                for card in accepted:
                    if card in hand:
                        actions.append(LayOff(seat, card, index))
                if has_joker:
                    for card in accepted:
                        actions.append(LayOff(seat, JOKER, index, card))
        discards = _DISCARDS[seat]
        if self.taken_top is None and self.must_play is None:
            actions.extend(discards[code] for code in sorted({card.code for card in hand}))
        else:
            for card in sorted(set(hand)):
                if self._discard_allowed(seat, card):
                    actions.append(discards[card.code])
        return actions

    def _discard_allowed(self, seat: int, card: Card) -> bool:
        hand = self.hands[seat]
        if card is self.taken_top and len(hand) > 1 and hand.count(card) == 1:
            return False
        deep = self.must_play
        return not (
            deep is not None and len(hand) > 1 and deep in hand and self._can_use(deep, hand)
        )

    def _draws(self, seat: int) -> list[Action]:
        actions: list[Action] = []
        if self.stock or self.rules.empty_stock_choice:
            actions.append(_DRAWS[seat][0])
        if self.discard_pile:
            actions.append(_DRAWS[seat][1])
            if self.rules.discard_take is DiscardTake.ANY:
                hand = self.hands[seat]
                pile = self.discard_pile
                for depth in range(2, len(pile) + 1):
                    if self._can_use(pile[-depth], hand + pile[-depth:]):
                        actions.append(Draw(seat, DrawSource.DISCARD, depth))
        return actions

    def clone(self) -> GameState:
        """An independent copy (for search)."""
        copy = object.__new__(GameState)
        for name, value in vars(self).items():
            setattr(copy, name, value)
        copy.scores = list(self.scores)
        copy.summaries = list(self.summaries)
        copy.logs = [
            DealLog(log.dealer, log.deck, list(log.actions), list(log.reshuffles), log.seed)
            for log in self.logs
        ]
        copy.hands = [list(hand) for hand in self.hands]
        copy.stock = list(self.stock)
        copy.discard_pile = list(self.discard_pile)
        copy.melds = list(self.melds)
        copy.played_before = list(self.played_before)
        copy.first_meld_turn = list(self.first_meld_turn)
        copy.known = [list(cards) for cards in self.known]
        copy.refused = [list(cards) for cards in self.refused]
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        return copy


# Actions are immutable values: the common ones are made once and shared.
_DISCARDS = tuple(
    tuple(Discard(seat, Card.from_code(code)) for code in range(53)) for seat in range(6)
)
_DRAWS = tuple((Draw(seat, DrawSource.STOCK), Draw(seat, DrawSource.DISCARD)) for seat in range(6))


def _with_bonus(value: int, bonus: RummyBonus) -> int:
    if bonus is RummyBonus.DOUBLE:
        return value * 2
    if bonus is RummyBonus.PLUS10:
        return value + 10
    return value


def _joker_designations(meld: TableMeld) -> tuple[Card | None, ...]:
    return tuple(
        stood for card, stood in zip(meld.cards, meld.stands_for, strict=True) if card is JOKER
    )


class LegalActions:
    """The legal actions of a position: iterate for the sorted list; ``in`` only checks.

    Tied to the position it came from: using it after the game has moved on raises.
    """

    __slots__ = ("_actions", "_state", "_version")

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._version = state.version
        self._actions: list[Action] | None = None

    def _fresh(self) -> GameState:
        if self._state.version != self._version:
            raise RuntimeError("These legal actions belong to an earlier position.")
        return self._state

    def _list(self) -> list[Action]:
        if self._actions is None:
            self._actions = self._fresh()._generate()
        else:
            self._fresh()
        return self._actions

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Draw | Meld | LayOff | Discard):
            return False
        return self._fresh().can(action)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())

    def __getitem__(self, index: int) -> Action:
        return self._list()[index]

    def count(self) -> int:
        """How many legal actions there are."""
        return len(self._list())

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(action) for action in self._list())})>"


__all__ = [
    "JOKER_CODE",
    "DealLog",
    "DealResult",
    "DealSummary",
    "GameState",
    "LegalActions",
    "MeldKind",
    "Phase",
]
