"""Whole games over the socket against the computer, checking every view and every frame.

The human seat plays ``simple_choice``: the first draw listed, the first meld listed, else
the first lay-off, else the last discard listed. The computer plays at pace 0.

What a seat was sent is checked against the truth: the table's stored record, replayed
through the engine after the game, gives every hand and the stock at each table version
(version 1 is the first deal dealt; each action and each new deal adds one). No frame may
name a card the seat could not see at that version: its own hand, the discard pile, the
melds, the cards others are known to hold (taken from the pile), and every hand once the
deal is over. The stock is sent only as a count.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit.core.cards import Card, standard_deck
from rummykit.core.presets import preset_with_overrides
from rummykit.protocol.limits import Limits
from rummykit.protocol.views import POSITIONS
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import (
    Frame,
    ManualClock,
    Position,
    cards_in_frame,
    cards_in_text,
    create_table,
    is_my_turn,
    play_until,
    seat_connection,
    truth_by_version,
)

pytestmark = pytest.mark.timeout(120)

VIEW_KEYS = {
    "table", "seat", "practice", "preset", "rules", "players", "deal", "dealer", "turn",
    "phase", "hand", "hand_value", "hand_sizes", "known", "melds", "discard", "stock",
    "renewals_used", "idle_renewals_used", "scores", "taken", "legal", "can_draw_stock",
    "deal_result", "history",
    "game_over", "winner", "target", "deals_limit", "lower_wins", "pace_ms", "topics",
    "turn_timer", "deadline", "server_now", "party", "next_table", "paused", "watchers",
    "turn_number", "has_laid", "first_meld_turns", "refused", "must_play", "melds_this_turn",
    "played_this_turn", "table_points", "thrown", "next_ready", "next_waiting", "next_deadline",
}  # fmt: skip
"""The keys of a seat's view (rummykit.protocol.views.seat_view)."""


def check_view(view: dict[str, Any], seats: int, table_id: str, rules: Any) -> None:
    """What every view must hold on its own."""
    assert set(view) == VIEW_KEYS, set(view) ^ VIEW_KEYS
    assert view["table"] == table_id and view["seat"] == 0
    assert [player["position"] for player in view["players"]] == list(POSITIONS[seats])
    assert view["players"][0]["kind"] == "human"
    assert len(view["hand_sizes"]) == len(view["known"]) == len(view["scores"]) == seats
    assert len(view["hand"]) == view["hand_sizes"][0]
    assert view["hand"] == sorted(view["hand"], key=lambda text: Card.parse(text))
    assert view["hand_value"] == sum(rules.card_points(Card.parse(c).code) for c in view["hand"])
    assert isinstance(view["stock"], int) and view["stock"] >= 0
    # one deck, no jokers: every card is somewhere, once
    melded = sum(len(meld["cards"]) for meld in view["melds"])
    assert sum(view["hand_sizes"]) + view["stock"] + len(view["discard"]) + melded == 52
    on_table = view["hand"] + view["discard"] + [c for m in view["melds"] for c in m["cards"]]
    assert len(set(on_table)) == len(on_table)
    for seat, known in enumerate(view["known"]):
        assert len(known) <= view["hand_sizes"][seat]
    mine = is_my_turn(view)
    assert bool(view["legal"]) == mine, view["legal"]
    if mine:
        verbs = {action.split()[0] for action in view["legal"]}
        if view["phase"] == "draw":
            assert verbs == {"draw"}
            assert view["can_draw_stock"] == ("draw stock" in view["legal"])
        else:
            assert "draw" not in verbs and "discard" in verbs | {"meld", "layoff"}
            for action in view["legal"]:
                words = action.split()
                if words[0] in ("discard", "meld"):
                    assert all(card in view["hand"] for card in words[1:]), action
    if view["phase"] == "over":
        result = view["deal_result"]
        assert result is not None
        assert len(result["hands"]) == seats and result["hands"][0] == view["hand"]
        assert [len(hand) for hand in result["hands"]] == view["hand_sizes"]
        assert result["values"][0] == view["hand_value"]
        assert result["result"] in ("out", "rummy", "blocked")
    else:
        assert view["deal_result"] is None
    # the running totals are the sum of the deals played
    totals = [0] * seats
    for deal in view["history"]:
        for seat, points in enumerate(deal["points"]):
            totals[seat] += points
    assert view["scores"] == totals
    assert len(view["history"]) == view["deal"] + (1 if view["phase"] == "over" else 0)
    if view["game_over"]:
        assert view["phase"] == "over"
        assert max(view["scores"]) >= view["target"]
        best = max(view["scores"])
        if view["scores"].count(best) == 1:
            assert view["winner"] == view["scores"].index(best)


def play_whole_game(
    client: TestClient, opponents: list[str], overrides: dict[str, Any], seed: int
) -> tuple[str, list[Frame], dict[str, Any]]:
    """Play a game to its end; the table id, every frame seat 0 received, the last view."""
    table_id, token = create_table(client, opponents=opponents, rules=overrides, seed=seed)
    _, rules = preset_with_overrides({"preset": "classic", **overrides})
    seats = len(opponents) + 1
    versions: list[int] = []

    def on_view(frame: Frame) -> None:
        check_view(frame["d"], seats, table_id, rules)
        versions.append(frame["v"])

    with seat_connection(client, table_id, token) as seat:
        seat.set_pace(0)
        last = play_until(seat, lambda view: view["game_over"], on_view=on_view)
    assert versions == sorted(versions), "a view went back in time"
    return table_id, seat.frames, last


def check_events(frames: list[Frame]) -> None:
    """Each action is announced once, at the version it made, before that version's view."""
    event_versions = [frame["v"] for frame in frames if frame["t"] == "event"]
    assert len(event_versions) == len(set(event_versions))
    previous_view = None
    for frame in frames:
        if frame["t"] == "event":
            event = frame["d"]
            assert set(event) == {"seat", "action", "card", "kind", "params", "text"}
            assert event["text"].strip()
            assert previous_view is not None and frame["v"] == previous_view + 1
        elif frame["t"] == "view":
            previous_view = frame["v"]


def check_no_hidden_card(
    frames: list[Frame], truth: dict[int, Any], seat: int = 0
) -> tuple[int, int]:
    """No frame names a card hidden from ``seat`` at its version; (frames, cards) checked."""
    checked = named = 0
    for frame in frames:
        position = truth[frame["v"]]
        found = cards_in_frame(frame)
        hidden = position.hidden_from(seat)
        if frame["t"] == "event":
            # an action played face up shows its cards, even if they went on into a stock
            # renewed from the pile in the same step (a discard, then the pile turned over)
            words = frame["d"]["action"].split()
            assert words[0] in ("draw", "meld", "layoff", "discard"), words
            if words[0] != "draw":
                hidden -= cards_in_text(frame["d"]["action"])
        leaked = found & hidden
        assert not leaked, (
            f"frame {frame['t']} at version {frame['v']} names hidden cards {sorted(leaked)}: "
            f"{frame['d']}"
        )
        checked += 1
        named += len(found)
        if frame["t"] == "view":
            view = frame["d"]
            # the view's public parts are the truth, the hand is the seat's own
            assert Counter(view["hand"]) == Counter(position.hands[seat])
            assert view["discard"] == list(position.discard)
            assert [Counter(m["cards"]) for m in view["melds"]] == [
                Counter(meld) for meld in position.melds
            ]
            assert [Counter(k) for k in view["known"]] == [Counter(k) for k in position.known]
            assert view["stock"] == len(position.stock)
            assert view["hand_sizes"] == [len(hand) for hand in position.hands]
            assert view["scores"] == list(position.scores)
            if view["deal_result"] is not None:
                assert [Counter(h) for h in view["deal_result"]["hands"]] == [
                    Counter(hand) for hand in position.hands
                ]
    return checked, named


@dataclass(frozen=True)
class PlayedGame:
    """A whole game played over the socket, and what the store says happened."""

    table_id: str
    frames: list[Frame]
    last: dict[str, Any]
    truth: dict[int, Position]
    record: dict[str, Any]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> PlayedGame:
    """One game against two computer players to 30, shared by the tests that read it."""
    store_path = tmp_path_factory.mktemp("game") / "tables.sqlite3"
    app = create_app(
        ServerConfig(
            store_path=store_path, accept_seeds=True, limits=Limits.unlimited(), public_history=True
        ),
        sleep=ManualClock().sleep,
    )
    with TestClient(app) as client:
        table_id, frames, last = play_whole_game(
            client, ["basic", "strong"], {"target": 30}, seed=7
        )
        record = client.get(f"/api/games/{table_id}/record").json()
    return PlayedGame(table_id, frames, last, truth_by_version(store_path, table_id), record)


def test_whole_game_against_two_computers(game: PlayedGame) -> None:
    last = game.last
    assert last["game_over"] and last["phase"] == "over"
    assert len(last["history"]) >= 2, "expected several deals"
    check_events(game.frames)
    assert max(game.truth) == game.frames[-1]["v"]
    checked, named = check_no_hidden_card(game.frames, game.truth)
    assert checked == len(game.frames) > 100 and named > 1000
    assert len(game.record["deals"]) == len(last["history"])


def test_whole_game_with_house_rules_every_frame_clean(
    client: TestClient, store_path: Path
) -> None:
    """Deep takes from the discard pile and the pile turned over: still nothing hidden sent."""
    overrides = {"target": 25, "discard_take": "any", "renew": "flip", "renewals": 2}
    table_id, frames, last = play_whole_game(client, ["basic"], overrides, seed=11)
    assert last["game_over"]
    check_events(frames)
    check_no_hidden_card(frames, truth_by_version(store_path, table_id))


def test_stock_order_is_never_sent(game: PlayedGame) -> None:
    for frame in game.frames:
        if frame["t"] == "view":
            assert isinstance(frame["d"]["stock"], int)
        stock = set(game.truth[frame["v"]].stock)
        if frame["t"] == "event" and not frame["d"]["action"].startswith("draw"):
            stock -= cards_in_text(frame["d"]["action"])  # played face up, then turned over
        assert not (cards_in_frame(frame) & stock), frame


def test_every_intent_after_game_over_is_refused_as_game_over(client: TestClient) -> None:
    table_id, token = create_table(client, rules={"target": 10}, seed=5)
    with seat_connection(client, table_id, token) as seat:
        seat.set_pace(0)
        play_until(seat, lambda view: view["game_over"])
        for kind in ("next", "redeal"):
            seat.send(kind)
            frame = seat.refused()
            assert frame["d"]["code"] == "game_over"
        # a move too: the game is over, not merely its deal (issue 31: it said wrong_phase)
        for action in ("draw stock", "discard 2C", "nonsense"):
            seat.send("act", {"action": action})
            assert seat.refused()["d"]["code"] == "game_over", action


def test_every_card_is_dealt_from_a_whole_deck(game: PlayedGame) -> None:
    whole = Counter(str(card) for card in standard_deck())
    for position in game.truth.values():
        cards = Counter(position.stock) + Counter(position.discard)
        for hand in position.hands:
            cards += Counter(hand)
        for meld in position.melds:
            cards += Counter(meld)
        assert cards == whole


def test_the_frame_check_catches_a_hidden_card(game: PlayedGame) -> None:
    """The checker itself: a view naming an opponent's card, or a stock card, fails it."""
    view = next(f for f in game.frames if f["t"] == "view" and f["d"]["phase"] != "over")
    position = game.truth[view["v"]]
    opponent_hidden = sorted(set(position.hands[1]) - set(position.known[1]))
    for secret in (opponent_hidden[0], position.stock[0]):
        forged = {**view, "d": {**view["d"], "topics": [f"psst: {Card.parse(secret).symbol}"]}}
        with pytest.raises(AssertionError, match="hidden cards"):
            check_no_hidden_card([forged], game.truth)


def test_whole_game_at_a_four_seat_table(client: TestClient, store_path: Path) -> None:
    opponents = ["basic", "strong", "basic"]
    table_id, frames, last = play_whole_game(client, opponents, {"target": 25}, seed=2)
    assert last["game_over"]
    assert [player["position"] for player in last["players"]] == list(POSITIONS[4])
    check_events(frames)
    check_no_hidden_card(frames, truth_by_version(store_path, table_id))
