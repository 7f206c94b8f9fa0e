"""The bot interface: the registry, what a bot may see, and choices that follow the seed.

A bot is handed one seat's ``Observation`` and a ``random.Random``, never the game. These
tests check that the observation leads nowhere near the hidden cards (no game object, no
other hand, no stock order), that a seat's view and every bot's choice stay the same when the
cards it cannot see are dealt differently, and that the same observation and seed always give
the same action, so a whole game replays from its seed.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import random
import types
from collections.abc import Iterator

import pytest

import rummykit.bots.expert as expert_module
from bot_games import hidden_from, play_deal_checked, positions, random_game, reshuffle_hidden
from rummykit.bots import BOTS, BasicBot, ExpertBot, MasterBot, RandomBot, StrongBot, make_bot
from rummykit.bots.base import Bot
from rummykit.bots.play import play_game
from rummykit.cli import main
from rummykit.core.cards import Card
from rummykit.core.observation import HISTORY_FIELDS, Observation, observe
from rummykit.core.presets import find_preset
from rummykit.core.state import DealLog, GameState, LegalActions

BOT_NAMES = ("random", "basic", "strong", "expert", "master")
SEARCHERS = ("expert", "master")
"""The bots that search: they run on a fixed sample count here, and see fewer positions."""


def fast_bot(name: str, samples: int = 2) -> Bot:
    """The bot of this name; a searcher on a fixed number of samples (quick, and no clock)."""
    if name == "expert":
        return ExpertBot(samples=samples)
    if name == "master":
        return MasterBot(samples=samples)
    return make_bot(name)


def reachable(value: object) -> Iterator[object]:
    """Every object reachable from ``value`` through fields, attributes and containers."""
    seen: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if isinstance(item, str | bytes | int | float | enum.Enum | Card | type) or item is None:
            continue
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif dataclasses.is_dataclass(item):
            stack.extend(getattr(item, field.name) for field in dataclasses.fields(item))
        else:
            stack.extend(vars(item).values() if hasattr(item, "__dict__") else ())
            for klass in type(item).__mro__:
                for name in getattr(klass, "__slots__", ()):
                    if hasattr(item, name):
                        stack.append(getattr(item, name))


def shown_cards(view: Observation) -> set[Card]:
    """The cards an observation shows of the present position (history fields aside)."""
    shown: set[Card] = set()
    for field in dataclasses.fields(view):
        if field.name in HISTORY_FIELDS:
            continue
        shown.update(item for item in reachable(getattr(view, field.name)) if type(item) is Card)
    return shown


# ----- the registry ---------------------------------------------------------------------


def test_the_registry_holds_random_basic_strong_expert_and_master() -> None:
    assert set(BOTS) == set(BOT_NAMES)
    kinds = {
        "random": RandomBot,
        "basic": BasicBot,
        "strong": StrongBot,
        "expert": ExpertBot,
        "master": MasterBot,
    }
    for name in BOT_NAMES:
        bot = make_bot(name)
        assert isinstance(bot, kinds[name])
        assert bot.name == name


def test_an_unknown_bot_name_is_refused_with_the_choices() -> None:
    with pytest.raises(KeyError, match="basic, expert, master, random, strong"):
        make_bot("grandmaster")


def test_rummy_bots_lists_every_registered_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bots"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == sorted(BOT_NAMES)
    for line in lines:
        description = line.split(maxsplit=1)[1]
        assert description and description != "(no description)"


# ----- bots never see hidden cards ------------------------------------------------------


def test_an_observation_holds_no_game_and_no_hidden_card() -> None:
    """Walk every field of every seat's view through a whole deal (one deck, no jokers, so
    that a hidden card cannot also be a visible copy): nothing leads back to the game, its
    legal-action view, its rng or its deck log, and no card shown is in the stock or in
    another seat's hand unless that seat took it from the pile."""
    forbidden = (GameState, LegalActions, random.Random, DealLog)
    checked = 0
    for seed in range(6):
        seats = 2 + seed % 5
        game, rng = random_game(seed, seats, decks=1, jokers=0)
        bots = [make_bot("basic")] * seats
        for position in positions(game, bots, rng):
            for seat in [*range(seats), None]:
                view = observe(position, seat)
                for item in reachable(view):
                    assert not isinstance(item, forbidden), f"{type(item).__name__} in the view"
                if seat is None:
                    assert view.hand == () and view.legal_actions == ()
                    continue
                leaked = shown_cards(view) & set(hidden_from(position, seat))
                assert not leaked, f"seat {seat} sees {sorted(leaked)}"
                checked += 1
    assert checked > 1000


def test_an_observation_is_frozen() -> None:
    game, _ = random_game(0, 2)
    view = observe(game, game.turn)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
    assert isinstance(view.hand, tuple) and isinstance(view.legal_actions, tuple)


def test_a_seat_sees_the_same_whatever_cards_it_cannot_see() -> None:
    """Deal the cards a seat cannot see out again at random (the others keep what they took
    from the pile): its view does not change, under random rules of every kind."""
    for seed in range(10):
        seats = 2 + seed % 5
        game, rng = random_game(seed, seats)
        bots = [make_bot("strong")] * seats
        for position in positions(game, bots, rng):
            seat = rng.randrange(seats)
            other = reshuffle_hidden(position, seat, random.Random(seed))
            assert observe(other, seat) == observe(position, seat)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_bot_chooses_the_same_whatever_cards_it_cannot_see(name: str) -> None:
    bot = fast_bot(name)
    game, rng = random_game(11, 3)
    for number, position in enumerate(positions(game, [make_bot("basic")] * 3, rng)):
        if name in SEARCHERS and number % 5:
            continue  # a searcher: every fifth position keeps the test quick
        seat = position.turn
        other = reshuffle_hidden(position, seat, random.Random(number))
        here = bot.choose(observe(position, seat), random.Random(number))
        there = bot.choose(observe(other, seat), random.Random(number))
        assert here == there


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_bot_plays_a_whole_deal_from_observations_only(name: str) -> None:
    """The game loop hands each bot ``observe(game, seat)`` alone and applies its choice
    with the checked ``apply``: an illegal choice would raise."""
    for seats in (2, 4):
        game, rng = random_game(20 + seats, seats)
        assert play_deal_checked(game, [fast_bot(name)] * seats, rng)
        assert game.deal_over and game.summaries


# ----- the same seed, the same choice ---------------------------------------------------


@pytest.mark.parametrize("name", BOT_NAMES)
def test_the_same_observation_and_seed_give_the_same_action(name: str) -> None:
    """The searchers run on a fixed number of samples: with a time budget, how far they search
    depends on the machine."""
    game, rng = random_game(34, 3, melding="during_play")
    checked = 0
    for number, position in enumerate(positions(game, [make_bot("strong")] * 3, rng)):
        if name in SEARCHERS and number % 8:
            continue  # a searcher: every eighth position keeps the test quick
        view = observe(position, position.turn)
        first = fast_bot(name, samples=4).choose(view, random.Random(number))
        again = fast_bot(name, samples=4).choose(
            observe(position, position.turn), random.Random(number)
        )
        assert first == again
        assert first in view.legal_actions
        checked += 1
    assert checked >= 8


def test_the_expert_on_a_sample_budget_chooses_the_same_however_fast_the_clock_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two runs with the same rng and sample budget choose the same actions, whatever the
    time budget and even when the clock jumps a minute between two readings (a machine far
    slower than this one): the sample budget, not the clock, decides how far it searches."""
    game, rng = random_game(41, 2, melding="during_play")
    views = [
        observe(position, position.turn)
        for number, position in enumerate(positions(game, [make_bot("strong")] * 2, rng))
        if number % 4 == 0
    ]
    assert len(views) >= 5
    first = [
        ExpertBot(samples=3).choose(view, random.Random(number))
        for number, view in enumerate(views)
    ]
    ticks = itertools.count()
    slow_clock = types.SimpleNamespace(perf_counter=lambda: 60.0 * next(ticks))
    monkeypatch.setattr(expert_module, "time", slow_clock)
    again = [
        ExpertBot(budget_ms=1.0, samples=3).choose(view, random.Random(number))
        for number, view in enumerate(views)
    ]
    assert next(ticks) >= len(views), "the expert read the slow clock at each decision"
    assert again == first


def test_the_expert_refuses_a_sample_budget_below_one() -> None:
    with pytest.raises(ValueError, match="at least one sample"):
        ExpertBot(samples=0)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_game_played_twice_with_the_same_seed_gives_the_same_record(name: str) -> None:
    preset = find_preset("classic")
    rules = preset.rules.replace(deals=1) if name in SEARCHERS else preset.rules
    records = []
    for _ in range(2):
        record, ended = play_game(preset, [fast_bot(name), fast_bot(name)], seed=5, rules=rules)
        assert ended
        records.append(record.to_json())
    assert records[0] == records[1]
    other, _ = play_game(preset, [fast_bot(name), fast_bot(name)], seed=6, rules=rules)
    assert other.to_json() != records[0], "another seed deals another game"
