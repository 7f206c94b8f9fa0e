"""One table: the single task that changes it, its seats, its bots and its listeners.

Everything that would change the game (a browser's intent, a bot's move) goes through the
table's queue and is applied in order by its one task: the engine checks it, the store
commits it, and only then is it acknowledged and every seat sent its own view.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from rummykit.bots import make_bot
from rummykit.bots.base import Bot
from rummykit.bots.hints import hint
from rummykit.core.actions import Action, Discard, Draw, DrawSource, LayOff, Meld, parse_action
from rummykit.core.cards import standard_deck
from rummykit.core.errors import IllegalActionError, InvalidActionError
from rummykit.core.observation import observe
from rummykit.core.record import load_record, record_of, replay
from rummykit.core.rules import Preset, Rules, describe_rules, preset_with_overrides
from rummykit.core.state import GameState
from rummykit.server.protocol import ClientMessage, envelope, refusal
from rummykit.server.store import Store
from rummykit.server.views import position_name, seat_view

Send = Callable[[str], Awaitable[None]]
"""Sends one text frame to one connection."""

DEFAULT_PACE_MS = 700
"""How long the computer waits before each of its actions: slow enough to follow."""

BOT_LEVELS = ("basic", "strong", "expert")
"""The computer players a table can seat."""


logger = logging.getLogger("rummykit.table")


def _quiet(send: Send) -> Send:
    """``send`` that forgets a connection gone away instead of failing the table."""

    async def quiet(frame: str) -> None:
        with contextlib.suppress(Exception):
            await send(frame)

    return quiet


class TableError(ValueError):
    """A table that cannot be made or found as asked."""


def new_table_settings(
    *,
    preset: str,
    overrides: dict[str, Any] | None,
    name: str,
    opponents: list[str],
    practice: bool,
    seed: int | None = None,
) -> dict[str, Any]:
    """Checked settings for a new table: the human at seat 0, then the computer players."""
    if practice:
        preset, overrides, opponents = "practice", {}, ["strong"]
    if not 1 <= len(opponents) <= 5:
        raise TableError("Choose one to five computer opponents.")
    for level in opponents:
        if level not in BOT_LEVELS:
            raise TableError(f"Unknown level {level!r}: choose {', '.join(BOT_LEVELS)}.")
    found, rules = preset_with_overrides({"preset": preset, **(overrides or {})})
    found.check_seats(len(opponents) + 1)
    rules.check_seats(len(opponents) + 1)
    players = [{"name": name.strip()[:24] or "You", "kind": "human"}]
    players += [{"name": level.title(), "kind": "bot", "level": level} for level in opponents]
    return {
        "rules": describe_rules(found, rules),
        "players": players,
        "practice": practice,
        "seed": seed if seed is not None else secrets.randbits(32),
        "pace_ms": DEFAULT_PACE_MS,
    }


class Table:
    """A game in progress and everything around it; only ``run`` changes the game."""

    def __init__(self, table_id: str, settings: dict[str, Any], store: Store) -> None:
        """A table from its settings; ``start`` deals or ``rebuild`` restores its game."""
        self.id = table_id
        self.settings = settings
        self.store = store
        preset, rules = preset_with_overrides(settings["rules"])
        self.preset: Preset = preset
        self.rules: Rules = rules
        self.players: list[dict[str, Any]] = settings["players"]
        self.practice = bool(settings.get("practice"))
        self.pace_ms = int(settings.get("pace_ms", DEFAULT_PACE_MS))
        self.rng = random.Random(settings["seed"])
        self.bots: dict[int, Bot] = {
            seat: make_bot(player["level"])
            for seat, player in enumerate(self.players)
            if player["kind"] == "bot"
        }
        self.game = GameState(
            rules, len(self.players), dealer=self.rng.randrange(len(self.players))
        )
        self.version = 0
        self.listeners: dict[int, set[Send]] = {}
        self.queue: asyncio.Queue[tuple[int, ClientMessage, Send]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    # ----- making and restoring ------------------------------------------------------

    @classmethod
    def create(cls, store: Store, settings: dict[str, Any]) -> tuple[Table, str]:
        """A new table, stored, with its first deal dealt; and the human seat's token."""
        table_id = secrets.token_urlsafe(9)
        token = secrets.token_urlsafe(24)
        store.create_table(table_id, settings, {0: token})
        table = cls(table_id, settings, store)
        table._deal()
        return table, token

    @classmethod
    def restore(cls, store: Store, table_id: str) -> Table:
        """A stored table rebuilt by replaying its record."""
        settings = store.settings(table_id)
        if settings is None:
            raise TableError(f"There is no table {table_id!r}.")
        table = cls(table_id, settings, store)
        deals = store.deals(table_id)
        if deals:
            table.game = table._replayed(deals)
        else:
            table._deal()
        table.version = max(table.version, store.version(table_id))
        return table

    def _replayed(self, deals: list[dict[str, Any]]) -> GameState:
        record = load_record(
            {
                "format": "rummy-record/1",
                "rules": self.settings["rules"],
                "players": [player["name"] for player in self.players],
                "deals": deals,
            }
        )
        result = replay(record)
        if result.error is not None or result.state is None:
            message = result.error.message if result.error else "empty"
            raise TableError(f"Table {self.id} cannot be rebuilt: {message}")
        return result.state

    def _deal(self) -> None:
        deal_number = len(self.game.logs)
        # Seeded by the table's seed, the deal and the version, so that a table restored
        # from the store never deals a deck again, and a thrown-away deal is not dealt again.
        shuffler = random.Random(f"{self.settings['seed']}:{deal_number}:{self.version}")
        deck = list(standard_deck(self.rules.decks, self.rules.jokers))
        shuffler.shuffle(deck)
        seed = shuffler.randrange(2**31)
        self.store.add_deal(self.id, deal_number, self.game.dealer, deck, seed, self.version + 1)
        self.game.start_deal(deck, seed=seed)
        self.version += 1

    def record_json(self) -> dict[str, Any]:
        """The game record so far (the decks reveal every card: only for finished games)."""
        names = [player["name"] for player in self.players]
        return record_of(self.game, self.preset, names).to_json()

    # ----- listeners -----------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """Seat ``seat``'s view of the table as JSON."""
        return seat_view(
            self.game,
            seat,
            self.players,
            table_id=self.id,
            preset=self.preset.name,
            practice=self.practice,
            pace_ms=self.pace_ms,
        )

    async def join(self, seat: int, send: Send) -> None:
        """Start sending ``seat``'s views to a connection, beginning with the current one."""
        self.listeners.setdefault(seat, set()).add(send)
        await send(envelope("view", self.version, self.view(seat)))
        self.ensure_running()

    def leave(self, seat: int, send: Send) -> None:
        """Stop sending to a connection."""
        self.listeners.get(seat, set()).discard(send)

    async def _broadcast(self, acted: Action | None) -> None:
        for seat, sends in list(self.listeners.items()):
            frames = []
            if acted is not None:
                frames.append(envelope("event", self.version, self._event(acted, seat)))
            frames.append(envelope("view", self.version, self.view(seat)))
            for send in list(sends):
                for frame in frames:
                    try:
                        await send(frame)
                    except Exception:  # a closed socket: forget it, the game goes on
                        sends.discard(send)
                        break

    def _event(self, action: Action, viewer: int) -> dict[str, Any]:
        who = position_name(viewer, action.seat, self.game.seat_count)
        name = "You" if who == "You" else f"{self.players[action.seat]['name']} ({who})"
        card = None
        if isinstance(action, Draw):
            if action.source is DrawSource.STOCK:
                text = f"{name} drew from the stock."
            else:
                taken = self.game.known[action.seat][-action.depth :]
                card = str(taken[-1]) if taken else None
                shown = " ".join(c.symbol for c in taken)
                text = f"{name} took {shown} from the discard pile."
        elif isinstance(action, Meld):
            meld = self.game.melds[-1]
            text = f"{name} melded {meld.symbols}."
        elif isinstance(action, LayOff):
            text = (
                f"{name} laid off {action.card.symbol} on {self.game.melds[action.meld].symbols}."
            )
            card = str(action.card)
        else:
            assert isinstance(action, Discard)
            text = f"{name} discarded {action.card.symbol}."
            card = str(action.card)
        return {
            "seat": action.seat,
            "action": str(action).split(" ", 1)[1],
            "card": card,
            "text": text,
        }

    # ----- the one task ------------------------------------------------------------------

    def ensure_running(self) -> None:
        """Start the table's task if it is not running."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        """Stop the table's task (the game stays stored)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def submit(self, seat: int, message: ClientMessage, reply: Send) -> None:
        """Queue an intent from ``seat``; the answer goes to ``reply``."""
        self.ensure_running()
        await self.queue.put((seat, message, reply))

    def _bot_to_act(self) -> int | None:
        game = self.game
        if game.deal_over or game.turn not in self.bots:
            return None
        return game.turn

    async def run(self) -> None:
        """Apply intents and bot moves in order, forever (until stopped)."""
        while True:
            bot_seat = self._bot_to_act()
            if bot_seat is not None:
                try:
                    seat, message, reply = await asyncio.wait_for(
                        self.queue.get(), timeout=self.pace_ms / 1000
                    )
                except TimeoutError:
                    try:
                        await self._bot_move(bot_seat)
                    except Exception:  # a failing bot must not take the table down with it
                        logger.exception(
                            "table %s: the computer at seat %s failed", self.id, bot_seat
                        )
                        await asyncio.sleep(1)
                    continue
            else:
                seat, message, reply = await self.queue.get()
            try:
                await self._handle(seat, message, _quiet(reply))
            except Exception:  # one bad intent must never stop the table
                logger.exception("table %s: an intent failed", self.id)

    async def _bot_move(self, seat: int) -> None:
        view = observe(self.game, seat)
        bot_rng = random.Random(self.rng.random())
        action = await asyncio.to_thread(self.bots[seat].choose, view, bot_rng)
        await self._play(action)

    async def _play(self, action: Action) -> None:
        """Apply a legal action: on a copy, then stored, then adopted and announced."""
        game = self.game.clone()
        shuffled_before = len(game.logs[-1].reshuffles)
        game.apply(action)
        log = game.logs[-1]
        self.store.add_action(
            self.id,
            len(game.logs) - 1,
            len(log.actions) - 1,
            log.actions[-1],
            log.reshuffles[shuffled_before:],
            self.version + 1,
        )
        self.game = game
        self.version += 1
        if game.game_over:
            self._finish()
        await self._broadcast(action)

    def _finish(self) -> None:
        game = self.game
        self.store.finish(
            self.id,
            {
                "players": [player["name"] for player in self.players],
                "scores": list(game.scores),
                "winner": game.winner,
                "deals": len(game.summaries),
                "preset": self.preset.name,
            },
        )

    async def _handle(self, seat: int, message: ClientMessage, reply: Send) -> None:
        if message.type == "hint":
            await self._hint(seat, reply)
            return
        if message.type == "pace":
            self.pace_ms = message.pace_ms
            await reply(envelope("view", self.version, self.view(seat)))
            return
        if message.version != self.version:
            await reply(
                refusal(
                    self.version,
                    "stale",
                    "The table has moved on since you acted; here is where it stands now.",
                )
            )
            await reply(envelope("view", self.version, self.view(seat)))
            return
        if message.type == "act":
            await self._act(seat, message.action, reply)
        elif message.type == "next":
            await self._next_deal(reply)
        elif message.type == "redeal":
            await self._redeal(reply)

    async def _act(self, seat: int, text: str, reply: Send) -> None:
        try:
            action = parse_action(f"{seat} {text}")
            self.game.check(action)
        except (InvalidActionError, IllegalActionError) as error:
            await reply(refusal(self.version, error.code, error.message))
            return
        await self._play(action)

    async def _next_deal(self, reply: Send) -> None:
        if not self.game.deal_over:
            await reply(refusal(self.version, "wrong_phase", "Finish this deal first."))
            return
        if self.game.game_over:
            await reply(refusal(self.version, "game_over", "The game is over: start a new one."))
            return
        self._deal()
        await self._broadcast(None)

    async def _redeal(self, reply: Send) -> None:
        if self.game.game_over:
            await reply(refusal(self.version, "game_over", "The game is over: start a new one."))
            return
        if self.game.deal_over:
            await reply(refusal(self.version, "wrong_phase", "This deal is over: deal the next."))
            return
        deals = self.store.deals(self.id)[:-1]
        if deals:
            self.game = self._replayed(deals)
        else:
            self.game = GameState(self.rules, len(self.players), dealer=self.game.logs[0].dealer)
        self._deal()
        await self._broadcast(None)

    async def _hint(self, seat: int, reply: Send) -> None:
        view = observe(self.game, seat)
        if not view.is_my_turn:
            await reply(refusal(self.version, "not_your_turn", "A hint waits for your turn."))
            return
        advice = await asyncio.to_thread(hint, view)
        await reply(
            envelope(
                "hint",
                self.version,
                {"action": str(advice.action).split(" ", 1)[1], "reason": advice.reason},
            )
        )
