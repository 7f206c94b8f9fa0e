"""One wording of actions for people: ``describe_action``, and everything that tells actions.

The hints and the strong player's reasons (advice), the replay transcript and viewer (the
present) and the table's events (the past) all take their words from
``rummykit.core.actions.describe_action``.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot_games import positions, random_game
from rummykit.bots import BasicBot, Bot, RandomBot, StrongBot
from rummykit.bots.hints import hint
from rummykit.bots.strong import advise
from rummykit.core.actions import (
    Action,
    Discard,
    Draw,
    DrawSource,
    Meld,
    Tense,
    describe_action,
    parse_action,
)
from rummykit.core.cards import parse_cards
from rummykit.core.observation import observe
from rummykit.core.record import load_record
from rummykit.protocol.api import NewTable
from rummykit.server.store.store import Store
from rummykit.server.tables.table import deal_new_table, new_table_settings
from rummykit.server.tables.table_words import event_of
from rummykit.transcript import transcript
from table_client import WORKERS

CONFORMANCE = Path(__file__).parents[1] / "records" / "conformance"


@pytest.mark.parametrize(
    ("text", "tense", "taken", "meld", "said"),
    [
        ("0 draw stock", Tense.ADVICE, "", None, "Draw from the stock"),
        ("0 draw stock", Tense.PRESENT, "", None, "Ann draws from the stock"),
        ("0 draw stock", Tense.PRESENT, "Kd", None, "Ann draws the K♦ from the stock"),
        ("0 draw stock", Tense.PAST, "", None, "Ann drew from the stock"),
        ("0 draw discard", Tense.ADVICE, "9c", None, "Take the 9♣ from the discard pile"),
        ("0 draw discard", Tense.PRESENT, "", None, "Ann takes the top discard"),
        (
            "0 draw discard 3",
            Tense.PAST,
            "7c 8c 9c",
            None,
            "Ann took 7♣ 8♣ 9♣ from the discard pile",
        ),
        (
            "0 draw discard 3",
            Tense.PRESENT,
            "",
            None,
            "Ann takes the top 3 cards of the discard pile",
        ),
        ("0 meld 5h X=6h 7h", Tense.ADVICE, "", None, "Meld 5♥ 🃏(6♥) 7♥"),
        ("0 meld 5h X 7h", Tense.PAST, "", "5♥ 🃏(6♥) 7♥", "Ann melded 5♥ 🃏(6♥) 7♥"),
        ("0 layoff Th 1", Tense.ADVICE, "", None, "Lay off the 10♥ on meld 1"),
        (
            "0 layoff Th 1",
            Tense.PRESENT,
            "",
            "7♥ 8♥ 9♥ 10♥",
            "Ann lays off the 10♥ on meld 1, making 7♥ 8♥ 9♥ 10♥",
        ),
        ("0 discard Kc", Tense.ADVICE, "", None, "Discard the K♣"),
        ("0 discard Kc", Tense.PAST, "", None, "Ann discarded the K♣"),
    ],
)
def test_an_action_is_told_as_advice_as_it_happens_and_as_it_happened(
    text: str, tense: Tense, taken: str, meld: str | None, said: str
) -> None:
    actor = None if tense is Tense.ADVICE else "Ann"
    action = parse_action(text)
    cards = parse_cards(taken.split())
    assert describe_action(action, actor=actor, tense=tense, taken=cards, meld=meld) == said


def test_advice_has_no_subject_even_when_an_actor_is_given() -> None:
    action = parse_action("0 discard Kc")
    assert describe_action(action, actor="Ann", tense=Tense.ADVICE) == "Discard the K♣"


def test_every_hint_opens_with_the_action_told_as_advice() -> None:
    """Over every position of 6 games between strong, basic and random under random rules:
    the reason begins with ``describe_action``'s advice (a meld names it as it will lie)."""
    mixed: list[Bot] = [StrongBot(), BasicBot(), RandomBot()]
    checked = 0
    for seed in range(6):
        seats = 2 + seed % 3
        game, rng = random_game(seed, seats)
        bots = [mixed[(seat + seed) % 3] for seat in range(seats)]
        for position in positions(game, bots, rng):
            view = observe(position, position.turn)
            advice = hint(view)
            if isinstance(advice.action, Meld):
                assert advice.reason.startswith("Meld "), advice.reason
            else:
                opening = advise(advice.action, view)
                assert advice.reason.startswith(f"{opening}: ") or advice.reason == (
                    f"{opening} and go out."
                ), advice.reason
            checked += 1
    assert checked > 100


def told(name: str) -> list[str]:
    text, _ = transcript(load_record((CONFORMANCE / f"{name}.json").read_text("utf-8")))
    return text.splitlines()


def test_transcript_tells_each_action_in_the_present_with_the_cards_it_moved() -> None:
    lines = told("out_by_layoff")
    for line in (
        "  Bob draws the K♦ from the stock.",
        "  Bob melds 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ (meld 0).",
        "  Bob discards the K♦.",
        "  Bob lays off the 8♣ on meld 0, making 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣.",
    ):
        assert line in lines


def test_transcript_names_the_card_taken_from_the_discard_pile() -> None:
    assert "  Bob takes the 5♦ from the discard pile." in told("draw_discard_1_is_the_top_card")


def test_table_events_tell_each_action_in_the_past_with_the_players_name() -> None:
    """The human at seat 0 reads ``You ...``; the computer's actions carry its name; a stock
    draw shows no card, a discard shows its card."""

    async def scenario() -> list[tuple[Action, str, str]]:
        store = Store(":memory:")
        table, _ = await deal_new_table(store, new_table_settings(NewTable(seed=3)), WORKERS)
        game = table.game
        told = []
        for _ in range(12):  # six turns: draws and discards, perhaps a take or a meld
            action = BasicBot().choose(observe(game, game.turn), random.Random(0))
            game.apply(action)
            told.append(
                (
                    action,
                    table.players[action.seat].name,
                    event_of(game, action, 0, table.names())["text"],
                )
            )
        store.close()
        return told

    kinds = set()
    for action, name, text in asyncio.run(scenario()):
        who = "You" if action.seat == 0 else f"{name} ("
        assert text.startswith(who) and text.endswith("."), text
        if isinstance(action, Draw) and action.source is DrawSource.STOCK:
            assert text.endswith(" drew from the stock."), text
        elif isinstance(action, Discard):
            assert text.endswith(f" discarded the {action.card.symbol}."), text
        kinds.add(type(action))
    assert {Draw, Discard} <= kinds
