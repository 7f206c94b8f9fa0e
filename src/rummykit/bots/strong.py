"""``strong``: plays as a good club player, and says why.

- Keeps the split of its hand with the least deadwood and the most live chances (a run or
  set that needs a card already melded, buried in the pile or held by another is dead).
- Takes the top discard when it lowers the hand's score enough (or completes a meld); where
  the take brings the stock's top card too (Boathouse), that unseen card counts against it.
- Lays off its deadwood; melds at once unless going rummy pays and nobody is close to
  going out, in which case it holds its melds for the bonus.
- Never throws a card that fits a meld on the table or that the next seat visibly collects
  (while another choice exists); sheds the dearest deadwood first. Once the stock has come
  round with nothing laid, it throws a card it has not thrown before where it can
  (``cycles``), so that the same position does not come round again.
- Under knock rummy, knocks with that discard when the deadwood it keeps is below what the
  lowest other hand usually holds at that point of the deal (``KNOCK_BELOW``).
- Under meld points (500 Rum) it weighs every take of the pile, deep ones too, by what the
  hand could then lay on the table less what it would still hold (``points_worth``).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Final

from rummykit.bots.base import register
from rummykit.bots.cycles import repeated_cards
from rummykit.bots.evaluate import (
    CHANCE_WEIGHT,
    collected_by,
    evaluate,
    fits_table,
    live_cards,
)
from rummykit.bots.hint_words import (
    advice_text,
    advice_words,
    discard_kind,
    hint_text,
    meld_codes,
)
from rummykit.core.actions import (
    Action,
    Discard,
    Draw,
    DrawSource,
    Knock,
    LayOff,
    Meld,
)
from rummykit.core.cards import Card
from rummykit.core.deadwood import deadwood_value
from rummykit.core.determinize import unseen_cards
from rummykit.core.frozen import rebuild_by_fields
from rummykit.core.melds import TableMeld, arrange_meld, meld_accepts
from rummykit.core.observation import Observation
from rummykit.core.refusals import ParamValue
from rummykit.core.rules import GoOut, Melding, Rules, RummyBonus, Scoring
from rummykit.core.scoring import meld_points

TAKE_MARGIN = 6.0
"""How much the top discard must improve the hand's score (unless it completes a meld) to
be worth showing the table what one collects. Tuned by tournament: 2 won 57% against
``basic``, 4 won 65%, 6 won 66%."""

CLOSE_TO_OUT = 4
"""An opponent holding this many cards or fewer may go out soon: stop holding melds."""

KNOCK_BELOW: Final[dict[int, tuple[int, ...]]] = {
    2: (44, 36, 29, 23, 16, 11, 8, 6, 4, 2, 1),
    3: (28, 21, 16, 12, 9, 7, 4, 2, 1),
    4: (23, 15, 11, 8, 5, 2, 1),
    5: (18, 11, 7, 5, 4, 2, 1),
    6: (17, 11, 7, 6, 5, 4, 2, 1),
}
"""Knock rummy: by seats, and by round of the deal (each seat's turns counted from 0), the
deadwood that the lowest other hand holds or beats only one time in four; past the last
round, 0 (only a knock with nothing loose). Measured over 150 deals a table size of plain
play (draw as ``basic``, throw the card that leaves the least deadwood, never knock): the
strong player knocks below it, so it wins about three knocks in four."""


POINTS_TAKE_MARGIN = 6.0
"""Under meld points, how much a take of the pile must raise ``points_worth`` over the hand
as it is (a card from the stock is worth something too). Duplicate tournaments against two
``basic`` players (500, 60 games each): 2, 6 and 12 all won every game, +145, +147 and +151
points a deal; the margin matters little next to weighing deep takes at all."""


def points_worth(hand: list[Card], live: Counter[Card], rules: Rules, table: Observation) -> float:
    """What a hand is worth under meld points: what it could lay, less what it would hold.

    The melds of its best split score their meld points; deadwood that fits a meld on the
    table scores too; the other deadwood counts against it, less the worth of its live
    chances (as in ``evaluate``).
    """
    value = evaluate(hand, live, rules)
    worth = sum(meld_points(rules, meld) for meld in value.partition.melds)
    for card in value.partition.deadwood:
        points = rules.card_points(card.code)
        worth += points if fits_table(card, table) else -points
    return worth + CHANCE_WEIGHT * value.outs


def stock_card_cost(observation: Observation) -> float:
    """The expected cost of the stock card a take from the pile brings (Boathouse).

    The average cost of a card not yet seen; zero without ``stock_with_discard``, or with the
    stock empty (the take then comes alone).

    Measured in Boathouse (strong against basic, 400 duplicate games, one new stock a deal):
    see benchmarks/README.md.
    """
    if not observation.rules.stock_with_discard or not observation.stock_count:
        return 0.0
    unseen = unseen_cards(observation)
    count = sum(unseen.values())
    if not count:
        return 0.0
    points = observation.rules.card_points
    return sum(points(card.code) * copies for card, copies in unseen.items()) / count


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """An action with a sentence for the player, and that sentence as kinds with params.

    ``reason`` is the English (``rummykit.bots.hint_words.hint_text`` of the four others):
    the advice (``action_kind``, ``action_params``) and why (``kind``, ``params``).
    """

    action: Action
    reason: str
    """The whole sentence in English: ``Discard the K♣: it belongs to nothing and costs 10.``"""
    kind: str
    """Why, as a kind of ``hint_words.REASONS`` (``deadwood``, ``take_makes``...)."""
    params: Mapping[str, ParamValue]
    """The reason's parameters (its ``{action}`` aside)."""
    action_kind: str
    """The advice, as a kind of ``hint_words.ADVICE`` (``discard``, ``take_discard``...)."""
    action_params: Mapping[str, ParamValue]
    """The advice's parameters."""

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


def taken_by(action: Action, observation: Observation) -> tuple[Card, ...]:
    """The cards a draw from the discard pile would take off it (none for other actions)."""
    if isinstance(action, Draw) and action.source is DrawSource.DISCARD:
        return observation.discard_pile[-action.depth :]
    return ()


def advise(action: Action, observation: Observation, meld: TableMeld | None = None) -> str:
    """The action as advice to the observed seat (``Take the 9♣ from the discard pile``).

    The words are ``describe_action``'s (in ``ADVICE``); a take names the cards it takes
    off the pile; ``meld`` is the meld a ``Meld`` action leaves, as it will lie.
    """
    return advice_text(*advice_words(action, taken_by(action, observation), meld))


def explain(
    action: Action,
    observation: Observation,
    kind: str,
    params: Mapping[str, ParamValue] | None = None,
    *,
    laid: TableMeld | None = None,
) -> Decision:
    """The decision to play ``action``, for the reason ``kind`` with ``params``.

    ``kind`` is one of ``hint_words.REASONS``; ``laid`` the meld a ``Meld`` action leaves, as
    it will lie. The advice's kind and params, and the English sentence, follow from these.
    """
    action_kind, action_params = advice_words(action, taken_by(action, observation), laid)
    reason_params = dict(params or {})
    reason = hint_text(kind, reason_params, action_kind, action_params)
    return Decision(action, reason, kind, reason_params, action_kind, action_params)


@register("strong")
class StrongBot:
    """The ``strong`` computer player: its ``description`` says how it plays."""

    name = "strong"
    description = "Plays as a good club player: least deadwood, live chances, safe discards."

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """The strong player's action."""
        return self.decide(observation).action

    def decide(self, observation: Observation) -> Decision:
        """The action, with a one-sentence reason a player can follow."""
        legal = observation.legal_actions
        if not legal:
            raise ValueError("It is not this seat's turn.")
        if isinstance(legal[0], Draw):
            return self._draw(observation)
        live = live_cards(observation)
        holding = self._hold_for_rummy(observation)
        if not holding:
            layoff = self._layoff(observation)
            if layoff is not None:
                return layoff
            meld = self._meld(observation)
            if meld is not None:
                return meld
        discard = self._discard(observation, live, holding)
        knock = self._knock(observation, discard.action)
        return knock if knock is not None else discard

    # ----- knocking ------------------------------------------------------------------

    def _knock(self, observation: Observation, chosen: Action) -> Decision | None:
        """Knock rummy: knock with the chosen discard when the deadwood kept is low enough."""
        if not isinstance(chosen, Discard):
            return None
        knock = Knock(chosen.seat, chosen.card)
        if knock not in observation.legal_actions:
            return None
        rest = list(observation.hand)
        rest.remove(chosen.card)
        value = deadwood_value(rest, observation.rules)
        seats = min(max(observation.seat_count, min(KNOCK_BELOW)), max(KNOCK_BELOW))
        below = KNOCK_BELOW[seats]
        turns = (observation.turn_number - 1) // observation.seat_count
        if value == 0 or value < (below[turns] if turns < len(below) else 0):
            return explain(knock, observation, "knock_low", {"points": value})
        return None

    # ----- drawing -------------------------------------------------------------------

    def _draw(self, observation: Observation) -> Decision:
        legal = observation.legal_actions
        seat = observation.seat if observation.seat is not None else observation.turn
        take = Draw(seat, DrawSource.DISCARD)
        stock = Draw(seat, DrawSource.STOCK)
        top = observation.discard_top
        if top is None or take not in legal:
            return explain(stock, observation, "no_discard")
        if stock not in legal:
            return explain(take, observation, "stock_gone")
        live = live_cards(observation)
        rules = observation.rules
        if rules.scoring is Scoring.MELDS:
            return self._draw_for_points(observation, live, stock)
        now = evaluate(observation.hand, live, rules)
        with_top = [*observation.hand, top]
        best_after = None
        for card in set(observation.hand):
            rest = list(with_top)
            rest.remove(card)
            value = evaluate(rest, live, rules)
            if best_after is None or value.score < best_after.score:
                best_after = value
        assert best_after is not None
        in_meld = any(top in meld.cards for meld in best_after.partition.melds)
        extra = stock_card_cost(observation)
        gain = now.score - best_after.score - extra
        if in_meld and best_after.partition.value + extra < now.partition.value:
            melds = [meld for meld in best_after.partition.melds if top in meld.cards]
            return explain(take, observation, "take_makes", {"meld": meld_codes(melds[0])})
        if gain >= TAKE_MARGIN:
            before, after = now.partition.value, best_after.partition.value
            return explain(take, observation, "take_improves", {"before": before, "after": after})
        return explain(stock, observation, "top_useless", {"card": str(top)})

    def _draw_for_points(
        self, observation: Observation, live: Counter[Card], stock: Draw
    ) -> Decision:
        """Under meld points: the take of the pile (at any depth) that adds most, or the stock."""
        rules = observation.rules
        hand = list(observation.hand)
        now = points_worth(hand, live, rules, observation)
        best: tuple[float, Draw] | None = None
        for action in observation.legal_actions:
            if not isinstance(action, Draw) or action.source is not DrawSource.DISCARD:
                continue
            taken = list(taken_by(action, observation))
            gain = points_worth(hand + taken, live, rules, observation) - now
            if best is None or gain > best[0]:
                best = (gain, action)
        if best is None or best[0] < POINTS_TAKE_MARGIN:
            top = observation.discard_top
            return explain(stock, observation, "top_useless", {"card": str(top)})
        take = best[1]
        deepest = taken_by(take, observation)[0]
        split = evaluate([*hand, *taken_by(take, observation)], Counter(), rules).partition
        melds = [meld for meld in split.melds if deepest in meld.cards]
        if not melds:  # the deepest card goes onto a meld on the table
            aces = rules.aces
            melds = [meld for meld in observation.melds if deepest in meld_accepts(meld, aces)]
        if melds:
            return explain(take, observation, "take_makes", {"meld": meld_codes(melds[0])})
        before = evaluate(hand, Counter(), rules).partition.value
        return explain(take, observation, "take_improves", {"before": before, "after": split.value})

    # ----- melding and laying off ----------------------------------------------------

    def _hold_for_rummy(self, observation: Observation) -> bool:
        """Whether to keep melds in hand for the going-rummy bonus this turn."""
        rules = observation.rules
        seat = observation.seat if observation.seat is not None else observation.turn
        if rules.rummy_bonus is RummyBonus.NONE or observation.has_laid[seat]:
            return False
        if observation.played_this_turn:
            return False
        partition = evaluate(observation.hand, Counter(), rules).partition
        if not partition.melds:
            return False
        keep = 1 if rules.go_out is GoOut.DISCARD else 0
        if len(partition.deadwood) <= max(1, keep):
            return False  # it can go out now: do it, rummy and all
        others = [size for other, size in enumerate(observation.hand_sizes) if other != seat]
        return min(others) > CLOSE_TO_OUT and len(partition.deadwood) <= 4

    def _layoff(self, observation: Observation) -> Decision | None:
        layoffs = [action for action in observation.legal_actions if isinstance(action, LayOff)]
        if not layoffs:
            return None
        partition = evaluate(observation.hand, Counter(), observation.rules).partition
        deadwood = set(partition.deadwood)
        for action in layoffs:
            if action.card in deadwood and not action.card.is_joker:
                meld = observation.melds[action.meld]
                return explain(action, observation, "layoff_fits", {"meld": meld_codes(meld)})
        return None

    def _meld(self, observation: Observation) -> Decision | None:
        melds = {
            action.text: action for action in observation.legal_actions if isinstance(action, Meld)
        }
        if not melds:
            return None
        partition = evaluate(observation.hand, Counter(), observation.rules).partition
        for meld in partition.melds:
            action = melds.get(meld.text)
            if action is not None:
                return explain(action, observation, "meld_now", laid=meld)
        if observation.rules.melding is Melding.WHOLE_HAND:  # any meld offered goes out whole
            action = next(iter(melds.values()))
            return explain(
                action,
                observation,
                "meld_now",
                laid=arrange_meld(action.cards, action.jokers_as, observation.rules.aces),
            )
        return None

    # ----- discarding ----------------------------------------------------------------

    def _discard(self, observation: Observation, live: Counter[Card], holding: bool) -> Decision:
        discards = [action for action in observation.legal_actions if isinstance(action, Discard)]
        if not discards:  # only melds or lay-offs left (the rules need a final discard)
            only = observation.legal_actions[0]
            return explain(only, observation, "only_choice")
        rules = observation.rules
        seat = observation.seat if observation.seat is not None else observation.turn
        following = (seat + 1) % observation.seat_count
        used, idle = observation.renewals_used, observation.idle_renewals_used
        repeated = repeated_cards(rules, used, idle, observation.thrown[seat])
        # Where only whole hands are melded, a collector keeps what it takes hidden until it goes
        # out: sparing it broke our own melds and lost (``evaluate.LOOSE_CARD_WEIGHT``).
        spare_collectors = rules.melding is not Melding.WHOLE_HAND
        scored = []
        for action in discards:
            card = action.card
            rest = list(observation.hand)
            rest.remove(card)
            value = evaluate(rest, live, rules)
            # A card that fits the table is used for sure; one the next seat collects, maybe.
            danger = 2 if fits_table(card, observation) else 0
            if not danger and spare_collectors and collected_by(card, following, observation):
                danger = 1
            points = rules.card_points(card.code)
            again = card in repeated  # a card thrown before, in a deal gone round (cycles)
            scored.append((danger, again, value.score, -points, -card.code, action, value))
        unsafe_flag, _, _, _, _, action, value = min(scored, key=lambda entry: entry[:5])
        card = action.card
        points = rules.card_points(card.code)
        if not observation.hand or len(observation.hand) == 1:
            return explain(action, observation, "go_out")
        in_deadwood = card in evaluate(observation.hand, Counter(), rules).partition.deadwood
        kind = discard_kind(in_deadwood, bool(unsafe_flag), holding)
        return explain(action, observation, kind, {"points": points} if in_deadwood else {})
