"""Invariants over random games under random legal rule combinations (hypothesis).

At every step of a random game: every card is in exactly one place, hand sizes and scores
add up, every listed legal action is accepted, random illegal actions are refused with a code
and change nothing, and no observation shows a card its seat may not see. At the end, the
game's record replays to the same position.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import random_rules
from rummykit.core.actions import Action, Discard, Draw, DrawSource, LayOff, Meld
from rummykit.core.cards import Card, standard_deck
from rummykit.core.errors import IllegalActionError
from rummykit.core.observation import observe
from rummykit.core.options import json_value
from rummykit.core.presets import find_preset
from rummykit.core.record import load_record, record_of, replay, state_json
from rummykit.core.rules import MAX_SEATS, MIN_SEATS, Rules, option_specs
from rummykit.core.state import GameState, Phase

STEP_CAP = 400
"""Actions per example: enough for several deals, few enough to keep the suite quick."""


@st.composite
def rules_and_seats(draw: st.DrawFn) -> tuple[Rules, int]:
    """A legal combination of every rule option, and a table size it can deal."""
    seats = draw(st.integers(MIN_SEATS, MAX_SEATS))
    rng = draw(st.randoms(use_true_random=False))
    deals = draw(st.none() | st.integers(1, 3))
    return random_rules(rng, seats, deals=deals), seats


def card_places(game: GameState) -> Counter[Card]:
    """Every card the deal has, wherever it is."""
    places: Counter[Card] = Counter()
    for hand in game.hands:
        places.update(hand)
    places.update(game.stock)
    places.update(game.discard_pile)
    for meld in game.melds:
        places.update(meld.cards)
    return places


def snapshot(game: GameState) -> tuple[object, ...]:
    """Everything an action could change."""
    return (
        [list(hand) for hand in game.hands],
        list(game.stock),
        list(game.discard_pile),
        list(game.melds),
        game.turn,
        game.phase,
        list(game.scores),
        [list(cards) for cards in game.known],
        game.renewals_used,
        game.taken_top,
        game.must_play,
        game.melds_this_turn,
        len(game.logs[-1].actions),
    )


def random_action(game: GameState, rng: random.Random) -> Action:
    """Any well-formed action, legal or not."""
    deck = standard_deck(game.rules.decks, game.rules.jokers)
    seat = rng.randrange(-1, game.seat_count + 1)
    kind = rng.randrange(4)
    if kind == 0:
        return Draw(seat, rng.choice(list(DrawSource)), rng.randrange(1, 4))
    if kind == 1:
        cards = tuple(rng.choice(deck) for _ in range(rng.randrange(1, 6)))
        return Meld(seat, cards)
    if kind == 2:
        return LayOff(seat, rng.choice(deck), rng.randrange(-1, len(game.melds) + 2))
    return Discard(seat, rng.choice(deck))


def choose(actions: list[Action], rng: random.Random) -> Action:
    """Mostly random play, leaning to melds and lay-offs so that deals end by going out."""
    playing = [action for action in actions if isinstance(action, Meld | LayOff)]
    if playing and rng.random() < 0.7:
        return rng.choice(playing)
    return rng.choice(actions)


def check_observation(game: GameState, seat: int) -> None:
    """A seat's view holds its own hand and public cards only."""
    view = observe(game, seat)
    assert Counter(view.hand) == Counter(game.hands[seat])
    assert view.hand_sizes == tuple(len(hand) for hand in game.hands)
    assert view.stock_count == len(game.stock)
    for other, known in enumerate(view.known_cards):
        assert not Counter(known) - Counter(game.hands[other]), "known cards must be held"
    if seat != game.turn or game.phase is Phase.OVER:
        assert view.legal_actions == ()
    shown = {field.name for field in dataclasses.fields(view)}
    assert "stock" not in shown and "hands" not in shown and "deck" not in shown


@settings(max_examples=40)
@given(rules_and_seats(), st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(setup: tuple[Rules, int], seed: int) -> None:
    rules, seats = setup
    rng = random.Random(seed)
    game = GameState.new(rules, seats, dealer=rng.randrange(seats), seed=seed)
    deck = Counter(standard_deck(rules.decks, rules.jokers))
    taken_from_pile: list[Counter[Card]] = [Counter() for _ in range(seats)]
    for _ in range(STEP_CAP):
        assert card_places(game) == deck, "every card is in exactly one place"
        assert sum(len(hand) for hand in game.hands) + len(game.stock) + len(
            game.discard_pile
        ) + sum(len(meld.cards) for meld in game.melds) == sum(deck.values())
        assert game.scores == [
            sum(summary.points[seat] for summary in game.summaries if summary.points)
            for seat in range(seats)
        ]
        check_observation(game, rng.randrange(seats))
        if game.deal_over:
            if game.game_over:
                break
            game.start_deal()
            continue
        legal = list(game.legal_actions())
        assert legal, "the seat to act always has a legal action"
        assert list(game.legal_actions()) == legal, "legal actions are deterministic"
        for action in rng.sample(legal, min(len(legal), 5)):
            game.check(action)
        for _ in range(3):
            wrong = random_action(game, rng)
            if not game.can(wrong):
                before = snapshot(game)
                try:
                    game.check(wrong)
                except IllegalActionError as error:
                    assert error.code and error.message
                else:  # pragma: no cover - can() said it was illegal
                    raise AssertionError(f"{wrong} passed check but can() said no")
                assert snapshot(game) == before
        action = choose(legal, rng)
        if isinstance(action, Draw) and action.source is DrawSource.DISCARD:
            taken_from_pile[action.seat].update(game.discard_pile[-action.depth :])
        game.apply(action)
    for seat, known in enumerate(game.known):
        assert not Counter(known) - taken_from_pile[seat], "known cards came from the pile"
    record = record_of(game, find_preset("standard"), [f"P{seat}" for seat in range(seats)])
    replayed = replay(load_record(record.to_json()))
    assert replayed.ok, replayed.error
    assert replayed.state is not None
    assert state_json(replayed.state) == state_json(game)
    assert replayed.state.scores == game.scores
    assert replayed.state.summaries == game.summaries


@settings(max_examples=25)
@given(rules_and_seats(), st.integers(0, 2**32 - 1))
def test_every_listed_action_applies_and_illegal_ones_do_not(
    setup: tuple[Rules, int], seed: int
) -> None:
    rules, seats = setup
    rng = random.Random(seed)
    game = GameState.new(rules, seats, seed=seed)
    for _ in range(150):
        if game.deal_over:
            break
        legal = game.legal_actions()
        listed = list(legal)
        for action in listed:
            assert action in legal
            copy = game.clone()
            copy.apply(action)  # raises if the listing lied
        action = choose(listed, rng)
        game.apply(action)


def test_random_rules_reach_every_value_each_option_describes() -> None:
    # The generator reads the options' descriptions, so a new option or choice takes part in
    # every property test above without an edit; this checks that it really does.
    seen: dict[str, set[object]] = {spec.name: set() for spec in option_specs()}
    rng = random.Random(7)
    for _ in range(600):
        rules = random_rules(rng, rng.randint(MIN_SEATS, MAX_SEATS))
        for name, value in rules.to_mapping().items():
            seen[name].add(value)
    for spec in option_specs():
        if spec.name == "deals":
            continue  # one deal a game unless a test asks for more: the games stay short
        wanted = {json_value(choice.value) for choice in spec.choices}
        assert wanted <= seen[spec.name], (spec.name, wanted - seen[spec.name])
        if spec.none is not None:
            assert None in seen[spec.name], spec.name
        assert len(seen[spec.name]) >= 2, f"{spec.name} never varies"
