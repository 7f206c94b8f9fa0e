"""The game as a state machine: dealing, one legality check, applying actions, scoring.

>>> from rummykit.core.presets import find_preset
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
import random
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rummykit.core.actions import (
    Action,
    Discard,
    Draw,
    DrawSource,
    Knock,
    LayOff,
    Meld,
    parse_action,
)
from rummykit.core.cards import Card, deck_problem, format_cards, standard_deck
from rummykit.core.deadwood import Partition, best_partition, deadwood_value, goes_out_now
from rummykit.core.deal import DealFields, DealLog, DealResult, DealState, DealSummary, Phase
from rummykit.core.errors import IllegalActionError, RecordError
from rummykit.core.meld_search import enumerate_melds
from rummykit.core.melds import MeldKind, arrange_meld, lay_off, layoff_positions
from rummykit.core.movegen import LegalActions, joker_designations
from rummykit.core.refusals import refuse
from rummykit.core.rules import DiscardTake, GoOut, LayOffTiming, Melding, Renew, Rules, Scoring
from rummykit.core.scoring import (
    blocked_points,
    game_over,
    game_winner,
    knock_points,
    meld_points,
    melds_points,
    next_dealer,
    out_points,
    placed_points,
)

_SYSTEM_RANDOM = secrets.SystemRandom()
"""The operating system's randomness, for a deal without a seed (it keeps no state)."""


def _names(cards: Sequence[Card]) -> str:
    return format_cards(cards, symbols=True)


class GameState(DealFields):
    """A whole game: the rules, the scores, and the deal being played.

    Only ``apply`` (and ``start_deal``) change it; everything else asks. ``check`` decides
    legality: ``can`` and ``apply`` call it, ``in legal_actions()`` asks it, and the listed
    actions (``movegen``) are kept equal to what it accepts by a both-direction property test.
    The deal being played is one value, ``deal`` (see ``DealState``).
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
        self._clear_deal()

    def _clear_deal(self) -> None:
        self.deal = DealState.empty(self.seat_count, (self.dealer + 1) % self.seat_count)

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
        return self.deal.phase is Phase.OVER

    def start_deal(
        self,
        deck: Sequence[Card] | None = None,
        *,
        reshuffles: Sequence[Sequence[Card]] = (),
        seed: int | None = 0,
    ) -> None:
        """Deal the next deal from ``deck`` (top first), or a deck shuffled by the game's rng.

        ``reshuffles`` fixes the order of the stocks the discard pile is shuffled into
        (top first, one list a shuffle); past them, ``random.Random(seed)`` shuffles, or with
        ``seed`` ``None`` the operating system's randomness does (a live table: see
        ``_shuffle_order``). The deal's log keeps the seed (0 for ``None``) and every order.
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
        deal = self.deal
        self.logs.append(DealLog(self.dealer, deck, seed=0 if seed is None else seed))
        deal.given_reshuffles = [tuple(order) for order in reshuffles]
        deal.shuffle_seed = seed
        seats = self.seat_count
        size = self.rules.hand_size_for(seats)
        for index in range(seats * size):
            deal.hands[(self.dealer + 1 + index) % seats].append(deck[index])
        deal.discard_pile.append(deck[seats * size])
        deal.stock = list(reversed(deck[seats * size + 1 :]))
        deal.turn = self.dealer  # _begin_turn moves it to the dealer's left
        self.version += 1
        self._begin_turn()

    # ----- asking --------------------------------------------------------------------

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self.deal.stock)

    @property
    def discard_top(self) -> Card | None:
        """The top card of the discard pile, if any."""
        deal = self.deal
        return deal.discard_pile[-1] if deal.discard_pile else None

    def hand_value(self, seat: int) -> int:
        """What the cards in ``seat``'s hand cost now."""
        points = self.rules.card_points
        return sum(points(card.code) for card in self.deal.hands[seat])

    def can_renew(self) -> bool:
        """Whether an empty stock could be renewed from the discard pile now.

        Not once ``renewals`` are used up, nor once the stock has been renewed
        ``idle_renewals`` times since a card was last melded or laid off in the deal.
        """
        deal = self.deal
        rules = self.rules
        if rules.renew is Renew.NONE:
            return False
        if rules.renewals is not None and deal.renewals_used >= rules.renewals:
            return False
        if rules.idle_renewals is not None and deal.idle_renewals_used >= rules.idle_renewals:
            return False  # the deal has stopped going anywhere: it ends as a stuck deal
        needed = 2 if rules.renew is Renew.SHUFFLE_KEEP_TOP else 1
        return len(deal.discard_pile) >= needed

    def summary(self) -> DealSummary:
        """The current deal's outcome so far."""
        deal = self.deal
        deadwood = None
        if deal.layouts is not None:
            deadwood = tuple(layout.value for layout in deal.layouts)
        return DealSummary(
            self.dealer, deal.result, deal.winner, deal.points, deal.knocker, deadwood
        )

    def check(self, action: Action) -> None:
        """Raise ``IllegalActionError`` with the code and reason if ``action`` is illegal now."""
        deal = self.deal
        if deal.phase is Phase.OVER:
            raise refuse("deal_over")
        seat = action.seat
        if seat != deal.turn:
            if not 0 <= seat < self.seat_count:
                raise refuse("no_such_seat", number=seat, last=self.seat_count - 1)
            raise refuse("not_seat_turn", turn=deal.turn, seat=seat)
        if isinstance(action, Draw):
            if deal.phase is not Phase.DRAW:
                raise refuse("drawn_already")
            self._check_draw(action)
            return
        if deal.phase is not Phase.PLAY:
            raise refuse("draw_first")
        if isinstance(action, Meld):
            self._check_meld(action)
        elif isinstance(action, LayOff):
            self._check_layoff(action)
        elif isinstance(action, Knock):
            self._check_knock(action)
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
        deal = self.deal
        if action.source is DrawSource.STOCK:
            return  # an empty stock here means the seat chose to renew (or block)
        pile = deal.discard_pile
        if not pile:
            raise refuse("empty_discard")
        if action.depth == 1:
            return
        if self.rules.melding is Melding.KNOCK:
            raise refuse("knock_top_only")
        if self.rules.discard_take is DiscardTake.TOP:
            raise refuse("top_only")
        if action.depth > len(pile):
            raise refuse("pile_too_short", count=len(pile), depth=action.depth)
        if not self.rules.deep_take_must_use:
            return
        deepest = pile[-action.depth]
        taken = pile[-action.depth :]
        # The stock card of ``stock_with_discard`` is not counted: it is unseen when choosing.
        if not self.can_use(deepest, deal.hands[action.seat] + taken):
            raise refuse("deep_card_useless", card=str(deepest))

    def can_use(self, card: Card, hand: Sequence[Card]) -> bool:
        """Whether the turn's seat could meld ``card`` from ``hand`` or lay it off now.

        Under ``after_meld`` a lay-off also counts once the seat could lay a meld of its own
        this turn. This decides deep takes from the pile and whether such a card must be
        played before the discard.
        """
        deal = self.deal
        rules = self.rules
        seat = deal.turn
        if rules.melding is Melding.WHOLE_HAND:  # used only by going out with it this turn
            must_discard = rules.go_out is GoOut.DISCARD
            return goes_out_now(hand, rules.aces, must_discard=must_discard, using=card)
        may_meld = not rules.melds_per_turn or deal.melds_this_turn < rules.melds_per_turn
        keep = 1 if rules.go_out is GoOut.DISCARD else 0
        codes = [held.code for held in hand]
        melds = enumerate_melds(codes, rules.aces) if may_meld else []
        if any(
            (card.code in naturals or (card.is_joker and jokers))
            and len(naturals) + jokers <= len(hand) - keep
            for naturals, jokers in melds
        ):
            return True
        if not deal.melds or (keep and len(hand) == 1):
            return False
        if self.layoff_refusal(seat) is not None:
            own_meld_first = (
                rules.layoff is LayOffTiming.AFTER_MELD
                and deal.first_meld_turn[seat] is None
                and any(card.code not in naturals for naturals, _ in melds)
            )
            if not own_meld_first:
                return False
        return any(layoff_positions(meld, card, rules.aces) for meld in deal.melds)

    def _check_holds(self, seat: int, cards: Sequence[Card]) -> None:
        hand = self.deal.hands[seat]
        if len(cards) == 1 and cards[0] in hand:
            return
        wanted = Counter(cards)
        for card, count in wanted.items():
            held = hand.count(card)
            if held < count:
                if held:
                    raise refuse("held_fewer", held=held, card=str(card), count=count)
                raise refuse("not_held", card=str(card))

    def _check_meld(self, action: Meld) -> None:
        deal = self.deal
        self._check_holds(action.seat, action.cards)
        rules = self.rules
        if rules.melding is Melding.KNOCK:
            raise refuse("knock_no_meld", cards=[str(card) for card in action.cards])
        limit = rules.melds_per_turn
        whole_hand = rules.melding is Melding.WHOLE_HAND
        if limit and deal.melds_this_turn >= limit and not whole_hand:
            raise refuse("meld_limit", count=limit)
        arrange_meld(action.cards, action.jokers_as, rules.aces)
        hand = deal.hands[action.seat]
        must_discard = rules.go_out is GoOut.DISCARD
        if must_discard and len(action.cards) == len(hand):
            raise refuse("meld_keep_card")
        if whole_hand:
            rest = list(hand)
            for card in action.cards:
                rest.remove(card)
            if not goes_out_now(rest, rules.aces, must_discard=must_discard):
                cards = [str(card) for card in action.cards]
                raise refuse("whole_hand_meld", cards=cards, count=len(rest))

    def layoff_refusal(self, seat: int) -> IllegalActionError | None:
        """Why ``seat`` may not lay off now under the lay-off timing rule, or ``None``."""
        deal = self.deal
        timing = self.rules.layoff
        first = deal.first_meld_turn[seat]
        if timing is LayOffTiming.AFTER_MELD and first is None:
            return refuse("layoff_after_meld")
        if timing is LayOffTiming.TURN_AFTER_MELD and (first is None or first == deal.turn_number):
            return refuse("layoff_next_turn" if first is not None else "layoff_meld_first")
        return None

    def _check_layoff(self, action: LayOff) -> None:
        deal = self.deal
        self._check_holds(action.seat, (action.card,))
        if self.rules.melding is Melding.KNOCK:
            raise refuse("knock_no_layoff", card=str(action.card))
        if self.rules.melding is Melding.WHOLE_HAND:
            raise refuse("whole_hand_no_layoff", card=str(action.card))
        if not 0 <= action.meld < len(deal.melds):
            count = len(deal.melds)
            if not count:
                raise refuse("no_melds_yet", number=action.meld)
            raise refuse("no_such_meld", number=action.meld, last=count - 1)
        refusal = self.layoff_refusal(action.seat)
        if refusal is not None:
            raise refusal
        meld = deal.melds[action.meld]
        options = layoff_positions(meld, action.card, self.rules.aces)
        stood = action.joker_as
        if not options or (stood is not None and stood not in options):
            shown = str(action.card) if stood is None else f"X={stood}"
            raise refuse("layoff_does_not_fit", card=shown, meld=meld.text.split())
        if self.rules.go_out is GoOut.DISCARD and len(deal.hands[action.seat]) == 1:
            raise refuse("layoff_keep_card")

    def _check_discard(self, action: Discard) -> None:
        self._check_holds(action.seat, (action.card,))
        refusal = self.discard_refusal(action.seat, action.card)
        if refusal is not None:
            raise refusal

    def _check_knock(self, action: Knock) -> None:
        self._check_holds(action.seat, (action.card,))
        rules = self.rules
        if rules.melding is not Melding.KNOCK:
            raise refuse("knock_not_in_rules", card=str(action.card))
        refusal = self.discard_refusal(action.seat, action.card)
        if refusal is not None:
            raise refusal
        limit = rules.knock_limit
        if limit is not None:
            value = self.deadwood_after(action.seat, action.card)
            if value > limit:
                raise refuse("knock_too_high", limit=limit, card=str(action.card), value=value)

    def deadwood_after(self, seat: int, card: Card) -> int:
        """Knock rummy: the deadwood ``seat``'s hand would keep after throwing ``card``."""
        hand = list(self.deal.hands[seat])
        hand.remove(card)
        return deadwood_value(hand, self.rules)

    def discard_refusal(
        self, seat: int, card: Card, *, deep_checked: bool = False
    ) -> IllegalActionError | None:
        """Why ``seat`` may not throw ``card``, which it holds, now; or ``None``.

        ``deep_checked``: the caller has found that the card taken from deep in the pile need
        not be played first (a search, asked once for all the cards of a hand).
        """
        deal = self.deal
        hand = deal.hands[seat]
        whole_hand = self.rules.melding is Melding.WHOLE_HAND
        if whole_hand and deal.melds_this_turn and len(hand) > 1:
            return refuse("whole_hand_unfinished", card=str(card))
        if card is deal.taken_top and len(hand) > 1 and hand.count(card) == 1:
            return refuse("taken_card_back", card=str(card))
        deep = deal.must_play
        if deep is None or deep_checked or len(hand) == 1 or deep not in hand:
            return None
        if self.can_use(deep, hand):
            return refuse("must_use_taken", card=str(deep))
        return None

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
        deal = self.deal
        if isinstance(action, Draw):
            self._draw(action)
        elif isinstance(action, Meld):
            meld = arrange_meld(action.cards, action.jokers_as, self.rules.aces)
            deal.melds.append(meld.with_owner(seat))
            scored = meld_points(self.rules, meld)
            deal.meld_points.append(scored)
            deal.table_points[seat] += scored
            self._remove_from_hand(seat, action.cards)
            deal.melds_this_turn += 1
            deal.played_this_turn = True
            deal.idle_renewals_used = 0
            if deal.first_meld_turn[seat] is None:
                deal.first_meld_turn[seat] = deal.turn_number
            if deal.must_play is not None and deal.must_play in action.cards:
                deal.must_play = None
            self._log(str(Meld(seat, meld.cards, joker_designations(meld))))
            if not deal.hands[seat]:
                self._go_out(seat)
        elif isinstance(action, LayOff):
            meld = deal.melds[action.meld]
            stood = action.joker_as or layoff_positions(meld, action.card, self.rules.aces)[0]
            grown = lay_off(meld, action.card, stood, self.rules.aces)
            deal.melds[action.meld] = grown
            scored = placed_points(self.rules, grown, stood)
            deal.meld_points[action.meld] += scored
            deal.table_points[seat] += scored
            self._remove_from_hand(seat, (action.card,))
            deal.played_this_turn = True
            deal.idle_renewals_used = 0
            if deal.must_play is action.card:
                deal.must_play = None
            joker_as = stood if action.card.is_joker else None
            self._log(str(LayOff(seat, action.card, action.meld, joker_as)))
            if not deal.hands[seat]:
                self._go_out(seat)
        elif isinstance(action, Knock):
            self._remove_from_hand(seat, (action.card,))
            deal.discard_pile.append(action.card)
            deal.thrown[seat].append(action.card)
            self._log(str(action))
            self._knock(seat)
        else:
            self._remove_from_hand(seat, (action.card,))
            deal.discard_pile.append(action.card)
            deal.thrown[seat].append(action.card)
            self._log(str(action))
            if not deal.hands[seat]:
                self._go_out(seat)
            else:
                if deal.played_this_turn:
                    deal.played_before[seat] = True
                self._begin_turn()

    def _log(self, text: str) -> None:
        self.logs[-1].actions.append(text)

    def _draw(self, action: Draw) -> None:
        deal = self.deal
        seat = action.seat
        if action.source is DrawSource.STOCK:
            self._log(str(action))
            if deal.discard_pile:
                deal.refused[seat].append(deal.discard_pile[-1])
            if not deal.stock:
                if not self.can_renew():
                    self._block()
                    return
                self._renew()
            deal.hands[seat].append(deal.stock.pop())
        else:
            self._log(str(action))
            pile = deal.discard_pile
            taken = pile[-action.depth :]
            del pile[-action.depth :]
            deal.hands[seat].extend(taken)
            deal.known[seat].extend(taken)
            deal.taken_top = taken[-1]
            if action.depth > 1 and self.rules.deep_take_must_use:
                deal.must_play = taken[0]
            if self.rules.stock_with_discard and deal.stock:
                # An empty stock adds nothing: the take stands alone, renewed at the next draw.
                deal.stock_extra = deal.stock.pop()
                deal.hands[seat].append(deal.stock_extra)
        deal.phase = Phase.PLAY

    def _remove_from_hand(self, seat: int, cards: Sequence[Card]) -> None:
        deal = self.deal
        hand = deal.hands[seat]
        known = deal.known[seat]
        for card in cards:
            hand.remove(card)
            if card in known and known.count(card) > hand.count(card):
                known.remove(card)

    def _begin_turn(self) -> None:
        deal = self.deal
        deal.turn = (deal.turn + 1) % self.seat_count
        deal.turn_number += 1
        deal.phase = Phase.DRAW
        deal.taken_top = None
        deal.must_play = None
        deal.stock_extra = None
        deal.melds_this_turn = 0
        deal.played_this_turn = False
        if not deal.stock and not self.rules.empty_stock_choice:
            if self.can_renew():
                self._renew()
            else:
                self._block()

    def _renew(self) -> None:
        deal = self.deal
        pile = deal.discard_pile
        deal.renewals_used += 1
        deal.idle_renewals_used += 1
        renew = self.rules.renew
        if renew is Renew.FLIP:
            deal.stock = list(reversed(pile))  # the first card discarded becomes the top
            deal.discard_pile = []
            return
        keep = [pile[-1]] if renew is Renew.SHUFFLE_KEEP_TOP else []
        shuffled = pile[:-1] if keep else list(pile)
        order = self._shuffle_order(shuffled)
        self.logs[-1].reshuffles.append(tuple(order))
        deal.stock = list(reversed(order))
        deal.discard_pile = keep

    def _shuffle_order(self, cards: list[Card]) -> list[Card]:
        """The new stock, top first: the record's next list, else a shuffle of ``cards``.

        A deal with a seed (tests, ``rummy sim``, records that give one) shuffles with the
        deal's ``random.Random(seed)``. A deal without one (a live table) draws the order
        from the operating system (``secrets``): the pile's order is public, so a seed that
        a search can find (the table's once stayed below 2**31) would let a player who saw a
        few draws predict the whole new stock. The order drawn is logged in the deal's
        ``reshuffles`` like any other, so the record (which always carries that list) replays
        it exactly; no seed is needed, and none is stored.
        """
        deal = self.deal
        used = len(self.logs[-1].reshuffles)
        if used < len(deal.given_reshuffles):
            order = list(deal.given_reshuffles[used])
            if Counter(order) != Counter(cards):
                raise RecordError(
                    f"Reshuffle {used} must hold exactly the cards being shuffled: "
                    f"{_names(sorted(cards))}."
                )
            return order
        order = list(cards)
        if deal.shuffle_seed is None:
            _SYSTEM_RANDOM.shuffle(order)
            return order
        if deal.shuffle_rng is None:
            deal.shuffle_rng = random.Random(deal.shuffle_seed)
        deal.shuffle_rng.shuffle(order)
        return order

    def draw_renewals_from_system(self) -> None:
        """From now on, the current deal's new stocks past its given list come from ``secrets``.

        For a live table rebuilt from its record, whose deals were stored without a seed.
        """
        self.deal.shuffle_seed = None
        self.deal.shuffle_rng = None

    # ----- ending deals and the game -------------------------------------------------

    def _go_out(self, seat: int) -> None:
        deal = self.deal
        rummy = not deal.played_before[seat]
        deal.result = DealResult.RUMMY if rummy else DealResult.OUT
        deal.winner = seat
        values = [self.hand_value(other) for other in range(self.seat_count)]
        if self.rules.scoring is Scoring.MELDS:
            table = deal.table_points
            self._end_deal(melds_points(self.rules, table, values, seat, rummy=rummy))
        else:
            self._end_deal(out_points(self.rules, values, seat, rummy=rummy))

    def _block(self) -> None:
        deal = self.deal
        deal.result = DealResult.BLOCKED
        deal.winner = None
        if self.rules.melding is Melding.KNOCK:
            values = [layout.value for layout in self._lay_out()]
        else:
            values = [self.hand_value(seat) for seat in range(self.seat_count)]
        if self.rules.scoring is Scoring.MELDS:
            table = deal.table_points
            self._end_deal(melds_points(self.rules, table, values, None, rummy=False))
        else:
            self._end_deal(blocked_points(self.rules, values))

    def _lay_out(self) -> tuple[Partition, ...]:
        """Knock rummy: spread every hand in its best melds, for all to see."""
        deal = self.deal
        layouts = []
        for seat, hand in enumerate(deal.hands):
            best = best_partition(hand, self.rules)
            melds = tuple(meld.with_owner(seat) for meld in best.melds)  # each its seat's
            layouts.append(dataclasses.replace(best, melds=melds))
        deal.layouts = tuple(layouts)
        return deal.layouts

    def _knock(self, seat: int) -> None:
        deal = self.deal
        deal.knocker = seat
        values = [layout.value for layout in self._lay_out()]
        winner, points = knock_points(self.rules, values, seat)
        deal.winner = winner
        deal.result = DealResult.KNOCK if winner == seat else DealResult.UNDERCUT
        self._end_deal(points)

    def _end_deal(self, points: list[int]) -> None:
        deal = self.deal
        deal.phase = Phase.OVER
        deal.points = tuple(points)
        for seat, value in enumerate(points):
            self.scores[seat] += value
        self.summaries.append(self.summary())
        self.game_over = game_over(self.rules, self.scores, len(self.summaries))
        if self.game_over:
            self.winner = game_winner(self.rules, self.scores)
        else:
            self.dealer = self.next_dealer()

    def next_dealer(self) -> int:
        """Who deals the next deal under the rules' rotation."""
        return next_dealer(self.rules, self.seat_count, self.dealer, self.deal.winner)

    # ----- every legal action --------------------------------------------------------

    def legal_actions(self) -> LegalActions:
        """The legal actions of the seat to act, sorted; ``in`` checks without listing."""
        return LegalActions(self)

    def __reduce__(self) -> tuple[Callable[..., GameState], tuple[object, ...]]:
        fields = {
            "scores": self.scores,
            "summaries": self.summaries,
            "logs": self.logs,
            "game_over": self.game_over,
            "winner": self.winner,
            "version": self.version,
            "deal": self.deal,
            "rng": self.rng.getstate(),
        }
        return _restore_game, (self.rules, self.seat_count, self.dealer, fields)

    def clone(self) -> GameState:
        """An independent copy (for search)."""
        # seed 0, not the OS (2.5 KB of os.urandom a copy): setstate below replaces it
        copy = GameState(self.rules, self.seat_count, self.dealer, seed=0)
        copy.scores = list(self.scores)
        copy.summaries = list(self.summaries)
        copy.logs = [
            DealLog(log.dealer, log.deck, list(log.actions), list(log.reshuffles), log.seed)
            for log in self.logs
        ]
        copy.game_over = self.game_over
        copy.winner = self.winner
        copy.version = self.version
        copy.deal = self.deal.copy()
        copy.rng.setstate(self.rng.getstate())
        return copy


def _restore_game(rules: Rules, seats: int, dealer: int, fields: dict[str, Any]) -> GameState:
    """A pickled game, restored (see ``GameState.__reduce__``): the same in either build."""
    game = GameState(rules, seats, dealer, seed=0)
    game.rng.setstate(fields.pop("rng"))
    for name, value in fields.items():
        setattr(game, name, value)
    return game


__all__ = [
    "DealLog",
    "DealResult",
    "DealSummary",
    "GameState",
    "LegalActions",
    "MeldKind",
    "Phase",
]
