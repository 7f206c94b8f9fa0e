"""Shared helpers for tests: stacked decks and games set up from readable hands."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rummykit.build import PURE_VARIABLE
from rummykit.core.cards import Card, parse_cards, standard_deck
from rummykit.core.errors import RulesError
from rummykit.core.options import OptionKind, OptionSpec
from rummykit.core.rules import MAX_SEATS_ONE_DECK, Rules, option_specs
from rummykit.core.state import GameState
from rummykit.tournament import TIMING_FIELDS

IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
"""Whether the tests run in CI, where every test must run: none may skip."""

RECORD_ERROR_CODES = (
    "not_your_turn",
    "wrong_phase",
    "card_not_in_hand",
    "invalid_meld",
    "meld_limit",
    "layoff_not_allowed",
    "layoff_does_not_fit",
    "no_such_meld",
    "discard_taken_card",
    "must_discard_to_go_out",
    "empty_discard",
    "discard_take_not_allowed",
    "bad_action",
)
"""The error codes of docs/RECORD.md's table, in its order, restated here so that tests check the
engine against the contract rather than against itself."""


def stacked_deck(
    rules: Rules,
    hands: Sequence[str],
    up: str,
    stock: str = "",
    dealer: int = 0,
) -> list[Card]:
    """A whole deck (top first) that deals ``hands`` (seat by seat), ``up`` and then ``stock``.

    ``hands[seat]`` is a space-separated card list of exactly the rules' hand size; ``stock``
    gives the first stock cards, top first; the rest of the deck follows in code order.
    """
    seats = len(hands)
    size = rules.hand_size_for(seats)
    held = [list(parse_cards(hand.split())) for hand in hands]
    for seat, cards in enumerate(held):
        assert len(cards) == size, f"seat {seat} needs {size} cards, not {len(cards)}"
    wanted = [card for cards in held for card in cards] + [Card.parse(up)]
    wanted += list(parse_cards(stock.split()))
    rest = Counter(standard_deck(rules.decks, rules.jokers))
    rest.subtract(Counter(wanted))
    assert all(count >= 0 for count in rest.values()), "a card is used more often than the deck has"
    deck: list[Card] = []
    for index in range(seats * size):
        seat = (dealer + 1 + index) % seats
        deck.append(held[seat][index // seats])
    deck.append(Card.parse(up))
    deck.extend(parse_cards(stock.split()))
    deck.extend(sorted(rest.elements()))
    return deck


def stacked_game(
    rules: Rules,
    hands: Sequence[str],
    up: str,
    stock: str = "",
    dealer: int = 0,
) -> GameState:
    """A game whose first deal gives ``hands``, turns up ``up`` and stacks ``stock`` on top."""
    deck = stacked_deck(rules, hands, up, stock, dealer)
    return GameState.new(rules, len(hands), dealer=dealer, deck=deck)


SMALL_STEPS = (0, 1, 2, 3, 20, 100)
"""How far above its least value a number option with a wide range is drawn: mostly near."""


def random_value(spec: OptionSpec, rng: random.Random) -> object:
    """Any value the option takes, drawn from its one description (``OptionSpec``)."""
    values: list[object] = [choice.value for choice in spec.choices]
    if spec.none is not None:
        values.append(None)
    if spec.kind is OptionKind.BOOLEAN:
        values += [True, False]
    if spec.minimum is not None:
        steps = [spec.minimum + step for step in SMALL_STEPS]
        if spec.maximum is not None and spec.maximum - spec.minimum <= max(SMALL_STEPS):
            steps = list(range(spec.minimum, spec.maximum + 1))
        values += [value for value in steps if spec.maximum is None or value <= spec.maximum]
    return rng.choice(values)


def random_rules(rng: random.Random, seats: int, **fixed: Any) -> Rules:
    """A legal combination of every rule option that can deal ``seats``.

    Every option's value is drawn from its own description, so a new option takes part
    without an edit here: jokers, two decks, every aces rule, meld limits, going out by
    discard, lay-off timing, deep pile takes, penalty scoring, renewals... A seed picks a
    fixed set of rules; ``fixed`` overrides options by name (``deals`` is 1 unless given).
    """
    options: dict[str, Any] = {spec.name: random_value(spec, rng) for spec in option_specs()}
    options["deals"] = 1
    if seats > MAX_SEATS_ONE_DECK:
        options["decks"] = 2  # seven or eight seats are dealt from two decks only
    options.update(fixed)
    if options["melding"] == "knock" and "stock_with_discard" not in fixed:
        options["stock_with_discard"] = False  # not played together (knock_stock_card)
    if options["melding"] == "knock" and options["scoring"] == "melds" and "scoring" not in fixed:
        options["scoring"] = "winner"  # not played together (knock_meld_points)
    rules = Rules(**options)
    try:
        rules.check_seats(seats)
    except RulesError:
        rules = rules.replace(hand_size="by_seats")
    return rules


def play(game: GameState, *actions: str) -> GameState:
    """Apply actions in record notation, checked, in order; the same game for chaining."""
    for text in actions:
        game.apply_text(text)
    return game


BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run_benchmark(
    script: str, *args: str, timeout: float = 280
) -> subprocess.CompletedProcess[str]:
    """Run ``benchmarks/SCRIPT`` with this Python and ``args``: its output, caught, whatever
    its exit code (the smoke tests check it themselves, and show its stderr)."""
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


class RecordingRandom(random.Random):
    """A stand-in for the system's randomness that keeps every order it made."""

    def __init__(self) -> None:
        super().__init__(1)
        self.orders: list[tuple[Card, ...]] = []

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        super().shuffle(x)
        self.orders.append(tuple(x))


def without_timings(value: Any) -> Any:
    """A sim's JSON result without its timings (which differ from run to run)."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMING_FIELDS}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def python_output(script: str, *, pure: bool = False) -> str:
    """What ``python -c script`` prints, in a fresh interpreter run as installed (``pure``: with
    the pure-engine switch, whatever the test run's own build)."""
    environment = {name: value for name, value in os.environ.items() if name != PURE_VARIABLE}
    if pure:
        environment[PURE_VARIABLE] = "1"
    answer = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env=environment,
    )
    return answer.stdout.strip()
