"""Every bot plays only legal actions, under every rule combination and table size.

Each bot plays whole single-deal games (``deals=1``) at every seat count from 2 to 8 under
random legal rule combinations (see ``bot_games.random_rules``; seven and eight seats with two
decks). It sees only its seat's
observation, its choice must be one of the observation's legal actions, and the game applies
it with the checked ``apply``, so any illegal choice raises. ``random``, ``basic`` and
``strong`` play 203 games each, 29 at each seat count, at every seat; the searchers
(``expert``, ``master``) play 14 each at one seat against ``strong`` (see
``EXPERT_GAMES_PER_SEAT_COUNT``).
A deal still going after ``DEAL_ACTION_CAP`` actions is cut and counted, not failed.
"""

from __future__ import annotations

import random

import pytest

from bot_games import play_deal_checked, random_game
from rummykit.bots import ExpertBot, MasterBot, make_bot
from rummykit.bots.base import Bot
from rummykit.bots.play import DEAL_ACTION_CAP
from rummykit.core.presets import find_preset
from rummykit.core.rules import MAX_SEATS, MAX_SEATS_ONE_DECK, MIN_SEATS
from rummykit.core.state import DealResult, GameState

pytestmark = pytest.mark.heavy

SEAT_COUNTS = tuple(range(MIN_SEATS, MAX_SEATS + 1))
GAMES_PER_SEAT_COUNT = 29
"""29 games at each of the seven seat counts: at least the 200 games a bot the issue asks."""

SEARCHERS = ("expert", "master")
"""The bots that search; each plays ``EXPERT_GAMES_PER_SEAT_COUNT`` games a seat count."""

EXPERT_GAMES_PER_SEAT_COUNT = 2
"""The expert plays 2 games a seat count, at one seat (a different one each game) against
``strong``. It plays sampled positions out at every decision: a hundred times the others'
cost, and up to seconds a decision under jokers with deep pile takes (where listing the draws
of every playout position is slow), so these 14 games already take about as long as the 609
of the other bots; its choices are always among its candidates, which come from the legal
actions."""

CUT_SHARE = 0.1
"""At most this share of deals may be cut at the action cap: an endless deal needs unlimited
renewals and two seats that never go out, which is rare even between bots."""


def check_games(
    bot: Bot, seats: int, games: int, others: Bot | None = None, **fixed: object
) -> None:
    """Play ``games`` single-deal games with ``bot`` at every seat (or at one seat, a
    different one each game, and ``others`` at the rest); each must end properly.

    ``fixed`` sets rule options for every game (the rest stay random)."""
    cut = 0
    for game_number in range(games):
        game, rng = random_game(seed=1000 * seats + game_number, seats=seats, **fixed)
        bots = [bot] * seats
        if others is not None:
            bots = [others] * seats
            bots[game_number % seats] = bot
        ended = play_deal_checked(game, bots, rng, cap=DEAL_ACTION_CAP)
        if not ended:
            cut += 1
            continue
        assert game.game_over, "a single-deal game is over when its deal is"
        assert game.result in set(DealResult)
        assert game.deal_points is not None and len(game.deal_points) == seats
        winner = game.summaries[-1].winner
        if game.result in (DealResult.KNOCK, DealResult.UNDERCUT):
            assert winner is not None and game.deal.layouts is not None, "hands are laid out"
            assert game.summaries[-1].knocker is not None
        elif game.result is not DealResult.BLOCKED:
            assert winner is not None and not game.hands[winner], "the winner's hand is empty"
    assert cut <= CUT_SHARE * games, f"{cut} of {games} deals passed {DEAL_ACTION_CAP} actions"


@pytest.mark.parametrize("seats", SEAT_COUNTS)
@pytest.mark.parametrize("name", ["random", "basic", "strong"])
def test_bot_finishes_random_rules_games_without_an_illegal_action(name: str, seats: int) -> None:
    check_games(make_bot(name), seats, GAMES_PER_SEAT_COUNT)


def searcher(name: str) -> Bot:
    """A searching bot on a fixed, small sample budget: ``master`` weighs about twice the
    expert's candidates, so it gets one sample a decision to cost about the same."""
    return ExpertBot(samples=2) if name == "expert" else MasterBot(samples=1)


@pytest.mark.parametrize("seats", SEAT_COUNTS)
@pytest.mark.parametrize("name", SEARCHERS)
def test_searcher_finishes_random_rules_games_without_an_illegal_action(
    name: str, seats: int
) -> None:
    check_games(searcher(name), seats, EXPERT_GAMES_PER_SEAT_COUNT, others=make_bot("strong"))


KNOCK_GAMES_PER_SEAT_COUNT = 12
"""Knock rummy (random rules otherwise): 12 games at each seat count, at every seat."""


# ----- 500 Rum: the preset itself, whole games, every seat count -----------------------------

FIVE_HUNDRED_GAMES = 2
"""Games of the ``500`` preset at each seat count for each bot, of ``FIVE_HUNDRED_DEALS`` each
(a game to 500 between random players, who lay little, need not end at all)."""

FIVE_HUNDRED_DEALS = 3
FIVE_HUNDRED_SEATS = tuple(range(MIN_SEATS, find_preset("500").max_seats + 1))
"""The table sizes the ``500`` preset is played at."""


def decks_for(seats: int) -> int:
    """Seven or eight seats are dealt from two decks (one deck serves up to six)."""
    return 2 if seats > MAX_SEATS_ONE_DECK else 1


def play_500_games(bots_at: list[Bot], seats: int, games: int) -> None:
    """Play 500 Rum games of a few deals with ``bots_at``; every deal scores as it should."""
    rules = find_preset("500").rules.replace(deals=FIVE_HUNDRED_DEALS, decks=decks_for(seats))
    for game_number in range(games):
        rng = random.Random(500 * seats + game_number)
        game = GameState.new(rules, seats, seed=rng.randrange(2**32))
        while True:
            assert play_deal_checked(game, bots_at, rng), "the stock is never renewed"
            points = game.deal_points or ()
            values = [game.hand_value(seat) for seat in range(seats)]
            assert list(points) == [
                laid - held for laid, held in zip(game.table_points, values, strict=True)
            ]
            if game.game_over:
                break
            game.start_deal()
        assert len(game.summaries) == FIVE_HUNDRED_DEALS


@pytest.mark.parametrize("seats", SEAT_COUNTS)
@pytest.mark.parametrize("name", ["random", "basic", "strong"])
def test_bot_plays_knock_rummy_legally_at_every_seat_count(name: str, seats: int) -> None:
    check_games(make_bot(name), seats, KNOCK_GAMES_PER_SEAT_COUNT, melding="knock")


@pytest.mark.parametrize("seats", SEAT_COUNTS)
@pytest.mark.parametrize("name", SEARCHERS)
def test_searcher_plays_knock_rummy_legally_at_every_seat_count(name: str, seats: int) -> None:
    check_games(
        searcher(name),
        seats,
        EXPERT_GAMES_PER_SEAT_COUNT,
        make_bot("strong"),
        melding="knock",
    )


@pytest.mark.parametrize("seats", FIVE_HUNDRED_SEATS)
@pytest.mark.parametrize("name", ["random", "basic", "strong"])
def test_bot_plays_whole_500_rum_games_legally(name: str, seats: int) -> None:
    play_500_games([make_bot(name)] * seats, seats, FIVE_HUNDRED_GAMES)


@pytest.mark.parametrize("seats", FIVE_HUNDRED_SEATS)
@pytest.mark.parametrize("name", SEARCHERS)
def test_searcher_plays_a_500_rum_deal_legally(name: str, seats: int) -> None:
    bots: list[Bot] = [make_bot("strong")] * seats
    bots[seats - 1] = searcher(name)
    rules = find_preset("500").rules.replace(deals=1, decks=decks_for(seats))
    rng = random.Random(seats)
    game = GameState.new(rules, seats, seed=seats)
    assert play_deal_checked(game, bots, rng)
    assert game.game_over
