"""Hints: what the strong player (or the expert) would do for the seat to act, and why.

A hint is a legal action and one sentence a player can follow, naming the card it is about
with its suit symbol ("Discard the K♣: ...").
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

import rummykit.bots.hints as hints_module
from bot_games import positions, random_game
from helpers import stacked_game
from rummykit.bots import BasicBot, Bot, RandomBot, StrongBot
from rummykit.bots.hints import hint
from rummykit.core.actions import Action, Discard, Draw, DrawSource, Knock, LayOff, Meld
from rummykit.core.cards import Card
from rummykit.core.observation import Observation, observe
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState

STANDARD = find_preset("standard").rules


def is_one_sentence(text: str) -> bool:
    """One sentence: it ends with a full stop, and no full stop, ! or ? comes before."""
    return text.endswith(".") and len(re.findall(r"[.!?](?:\s|$)", text)) == 1


def cards_named(action: Action, view: Observation) -> list[Card]:
    """The cards a reason for ``action`` must name: the card thrown, laid off or taken, the
    natural cards of a meld, and for a draw from the stock the top discard left lying."""
    if isinstance(action, Discard | LayOff | Knock):
        return [action.card]
    if isinstance(action, Meld):
        return [card for card in action.cards if not card.is_joker]
    if action.source is DrawSource.DISCARD:
        return [view.discard_pile[-action.depth]]
    if Draw(action.seat, DrawSource.DISCARD) in view.legal_actions:
        assert view.discard_top is not None
        return [view.discard_top]
    return []  # nothing else could be drawn: there is no card to speak of


def played_positions(games: int) -> Iterator[GameState]:
    """Positions of single-deal games between strong, basic and random under random rules."""
    mixed: list[Bot] = [StrongBot(), BasicBot(), RandomBot()]
    for seed in range(games):
        seats = 2 + seed % 5
        game, rng = random_game(seed, seats)
        yield from positions(game, [mixed[(seat + seed) % 3] for seat in range(seats)], rng)


def king_of_clubs_deal() -> GameState:
    """Seat 1 to draw, with the 9♣ on the pile and the A♥ on the stock: it holds pairs and
    runs in the making, the 8♦ and the K♣."""
    return stacked_game(
        STANDARD,
        ["Ts Js Qs Ks 9d Jd Qh Jc 7s 7d", "2c 2d 3h 3s 4c 4d 5h 6h 8d Kc"],
        up="9c",
        stock="Ah",
        dealer=0,
    )


def king_of_clubs_position() -> GameState:
    """The deal above once seat 1 has drawn the A♥: the K♣ belongs to nothing."""
    deal = king_of_clubs_deal()
    deal.apply_text("1 draw stock")
    return deal


def test_hint_throws_the_dearest_useless_card_and_names_it_with_its_suit() -> None:
    advice = hint(observe(king_of_clubs_position(), 1))
    assert advice.action == Discard(1, Card.parse("Kc"))
    assert advice.reason.startswith("Discard the K♣: ")
    assert is_one_sentence(advice.reason)


def test_hint_is_the_strong_players_decision() -> None:
    for number, position in enumerate(played_positions(4)):
        if number % 3 == 0:
            view = observe(position, position.turn)
            assert hint(view) == StrongBot().decide(view)


def test_hint_is_a_legal_action_whose_reason_names_its_card() -> None:
    """Over every position of 30 games under random rules."""
    checked = 0
    for position in played_positions(30):
        view = observe(position, position.turn)
        advice = hint(view)
        assert advice.action in position.legal_actions()
        assert advice.action in view.legal_actions
        for card in cards_named(advice.action, view):
            assert card.symbol in advice.reason, f"{advice.action}: {advice.reason!r}"
        checked += 1
    assert checked > 1000


def test_hint_reason_is_one_sentence() -> None:
    """Over every position of 30 games under random rules."""
    long_reasons = set()
    for position in played_positions(30):
        reason = hint(observe(position, position.turn)).reason
        if not is_one_sentence(reason):
            long_reasons.add(reason)
    assert not long_reasons, sorted(long_reasons)[:5]


def test_hint_needs_the_seat_whose_turn_it_is() -> None:
    game = king_of_clubs_position()
    with pytest.raises(ValueError, match="turn"):
        hint(observe(game, 0))
    with pytest.raises(ValueError, match="turn"):
        hint(observe(game, None))


def test_hint_has_nothing_to_advise_once_the_deal_is_over() -> None:
    game, rng = random_game(3, 2)
    for _ in positions(game, [StrongBot(), StrongBot()], rng):
        pass
    assert game.deal_over
    for seat in (0, 1):
        with pytest.raises(ValueError, match="turn"):
            hint(observe(game, seat))


def test_hint_comes_from_strong_expert_or_master_only() -> None:
    with pytest.raises(ValueError, match="'strong', 'expert' or 'master'"):
        hint(observe(king_of_clubs_position(), 1), level="grandmaster")


def test_expert_hint_is_a_legal_action_with_a_one_sentence_reason() -> None:
    """The expert searches for its default time budget: a handful of positions."""
    for number, position in enumerate(played_positions(2)):
        if number % 15:
            continue
        view = observe(position, position.turn)
        advice = hint(view, level="expert", seed=number)
        assert advice.action in view.legal_actions
        assert is_one_sentence(advice.reason), advice.reason


def first_rival(view: Observation, kind: type) -> Action:
    """A legal action of ``kind`` that is not the strong player's choice."""
    strong = StrongBot().decide(view).action
    return next(
        action for action in view.legal_actions if isinstance(action, kind) and action != strong
    )


@pytest.mark.parametrize("kind", [Draw, Discard])
def test_expert_hint_that_overrules_strong_names_its_card(
    kind: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the search prefers another action, the reason says so and still names the card.
    (The expert is replaced by one that always prefers ``rival``: which action a real search
    prefers depends on the clock.)"""
    game = king_of_clubs_deal() if kind is Draw else king_of_clubs_position()
    view = observe(game, 1)
    rival = first_rival(view, kind)
    assert kind is Discard or rival == Draw(1, DrawSource.DISCARD), "strong draws the stock"

    class Overruling:
        def __init__(self, budget_ms: float = 0.0, samples: int | None = None) -> None:
            pass

        def choose(self, observation: Observation, rng: random.Random) -> Action:
            return rival

    monkeypatch.setattr(hints_module, "ExpertBot", Overruling)
    advice = hint(view, level="expert")
    assert advice.action == rival
    assert is_one_sentence(advice.reason)
    for card in cards_named(rival, view):
        assert card.symbol in advice.reason, advice.reason
