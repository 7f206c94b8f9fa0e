"""A table's deals: each shuffled, stored with its first turn's deadline, then adopted.

A live table shuffles with the operating system's randomness; a test table by its seed, the
deal and the version (see ``shuffled``). A stored game is rebuilt by replaying its record in
a worker process: a long game takes seconds, never on the event loop.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import TYPE_CHECKING, Any

from rummykit.core.cards import Card, standard_deck
from rummykit.core.state import GameState
from rummykit.server.runtime import rebuild_game
from rummykit.server.tables.new_table import TableError

if TYPE_CHECKING:
    from rummykit.server.tables.table import Table


class Dealer:
    """Deals a table's deals and rebuilds its stored game."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def replayed(self, deals: list[dict[str, Any]]) -> GameState:
        """The game these deals make, replayed in a worker: a long game takes seconds."""
        record = {
            "format": "rummy-record/1",
            "rules": self.table.settings.rules,
            "players": [player.name for player in self.table.players],
            "deals": deals,
        }
        game, error = await self.table.workers.run(rebuild_game, record, client=self.table.client)
        if game is None:
            raise TableError(f"Table {self.table.id} cannot be rebuilt: {error}")
        if self.table.settings.seed is None:  # a live deal has no seed: see _shuffled
            game.draw_renewals_from_system()
        return game

    def shuffled(self) -> tuple[list[Card], int | None]:
        """The next deal's deck and the seed of its new stocks (``None``: a live table's).

        A live table shuffles the deck with the operating system's randomness, and its deals
        have no seed: each new stock is drawn from ``secrets`` too and kept with the action
        that made it (``GameState._shuffle_order``), so that no searchable seed predicts it.
        A test table is seeded by its seed, the deal and the version, so that a table restored
        from the store never deals a deck again and a thrown-away deal is not dealt again; its
        new stocks follow the seed recorded with the deal.
        """
        deck = list(standard_deck(self.table.rules.decks, self.table.rules.jokers))
        if self.table.settings.seed is None:
            secrets.SystemRandom().shuffle(deck)
            return deck, None
        deal_number = len(self.table.game.logs)
        shuffler = random.Random(f"{self.table.settings.seed}:{deal_number}:{self.table.version}")
        shuffler.shuffle(deck)
        return deck, shuffler.randrange(2**31)

    async def deal(self) -> None:
        """Deal the next deal: stored (with its first turn's deadline), then adopted."""
        deck, seed = self.shuffled()
        deal_number, version = len(self.table.game.logs), self.table.version + 1
        dealt, deadline = self.dealt(deck, seed)
        await asyncio.to_thread(
            self.table.store.add_deal,
            self.table.id,
            deal_number,
            self.table.game.dealer,
            deck,
            seed,
            version,
            deadline,
        )
        self.adopt(dealt, deadline)

    def dealt(self, deck: list[Card], seed: int | None) -> tuple[GameState, float | None]:
        """The game with this deal dealt (on a copy), and its first turn's deadline."""
        game = self.table.game.clone()
        game.start_deal(deck, seed=seed)
        return game, self.table.keeper.deadline_of(game, same_turn=False)

    def adopt(self, game: GameState, deadline: float | None) -> None:
        """Make ``game`` (a deal dealt on a copy, stored) the table's, with its deadline."""
        self.table.game = game
        self.table.keeper.deadline = deadline
        self.table.version += 1

    async def store_new(self, token_hashes: dict[int, str], epoch: int | None = None) -> None:
        """Deal a ``fresh`` table's first deal and store the table with it, in one write.

        Its seats are held by the tokens whose hashes are ``token_hashes``; ``epoch``: the
        lease this process holds it by, in a cluster (stored in the same write).
        """
        deck, seed = self.shuffled()
        dealt, deadline = self.dealt(deck, seed)
        first_deal = (self.table.game.dealer, deck, seed)
        await asyncio.to_thread(
            self.table.store.create_table,
            self.table.id,
            self.table.settings,
            {},
            first_deal,
            deadline,
            token_hashes=token_hashes,
            epoch=epoch,
        )
        self.adopt(dealt, deadline)
        self.table.audience.recent_from = self.table.version + 1
