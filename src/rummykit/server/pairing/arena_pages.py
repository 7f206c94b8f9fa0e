"""The pages watching arenas: this process's own, and who has one open anywhere on the site.

A player is paired in an arena only while one of their pages has it open. Pages are
connected to any process of the site, so each process writes the players whose page it holds
on a shared board (``arena-pages:ID``, renewed every round while the page stays open) and reads
everyone's from there. A seat found for a player whose page is on another process is sent by
post (``rummykit.server.cluster.Post``) to each process that shows them the arena.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Final

from rummykit.protocol import PAIRING_SERVER_MESSAGES, Strict
from rummykit.server.cluster import Board, Post, address
from rummykit.server.runtime import going_on
from rummykit.server.store import Account, Now

PAGE_S: Final = 5.0
"""How long a page's entry stands unless written again: the pages of a process that died no
longer count after this."""

Send = Callable[[Strict], Awaitable[None]]


@dataclasses.dataclass(eq=False)
class Watcher:
    """A page watching an arena (``account``: signed in)."""

    send: Send
    account: Account | None


def pages_board(arena_id: str) -> str:
    """The board of the players with a page of the arena open."""
    return f"arena-pages:{arena_id}"


def seat_box(arena_id: str, account: int) -> str:
    """The name of a player's box for their seats at the arena's tables.

    Each process showing them the arena's page has one.
    """
    return f"arena-seat:{arena_id}:{account}"


class ArenaPages:
    """The pages of this process, per arena, and the players present on the whole site."""

    def __init__(self, board: Board, post: Post, now: Now) -> None:
        """Presence on ``board``; seats for other processes' pages by ``post``."""
        self._board = board
        self._post = post
        self._process = post.process
        self._now = now
        self._pages: dict[str, list[Watcher]] = {}
        self._written: dict[str, set[str]] = {}
        """The keys this process last wrote on each arena's board."""
        self._present: dict[str, set[int]] = {}
        """The players with a page of each arena open anywhere, as last read."""
        self._where: dict[str, set[tuple[int, str]]] = {}
        """The processes showing each player the arena's page, as last read."""

    def of(self, arena_id: str) -> list[Watcher]:
        """This process's pages of an arena."""
        return list(self._pages.get(arena_id, []))

    def arenas(self) -> list[str]:
        """The arenas with a page open here."""
        return [arena_id for arena_id, pages in self._pages.items() if pages]

    def present(self, arena_id: str) -> set[int]:
        """The players with a page of the arena open, here or (as last read) elsewhere."""
        here = {each.account.id for each in self.of(arena_id) if each.account is not None}
        return here | self._present.get(arena_id, set())

    def _mine(self, arena_id: str, account: int) -> list[Watcher]:
        return [each for each in self.of(arena_id) if each.account and each.account.id == account]

    async def add(self, arena_id: str, watcher: Watcher) -> None:
        """A page opened here."""
        self._pages.setdefault(arena_id, []).append(watcher)
        if watcher.account is not None:
            account = watcher.account.id

            async def seated(letters: list[str]) -> None:
                for letter in letters:
                    message = PAIRING_SERVER_MESSAGES.validate_json(letter)
                    await self._send(self._mine(arena_id, account), message)

            await self._post.open(self._post.box(seat_box(arena_id, account)), seated)
        await self.share(arena_id)

    async def remove(self, arena_id: str, watcher: Watcher) -> None:
        """A page closed."""
        pages = self._pages.get(arena_id, [])
        if watcher in pages:
            pages.remove(watcher)
        if not pages:
            self._pages.pop(arena_id, None)
        if watcher.account is not None and not self._mine(arena_id, watcher.account.id):
            await self._post.close(self._post.box(seat_box(arena_id, watcher.account.id)))
        await self.share(arena_id)

    async def share(self, arena_id: str) -> None:
        """Write our players of the arena on the board again, and read everyone's."""
        board = pages_board(arena_id)
        keys = {
            f"{self._process}:{each.account.id}"
            for each in self.of(arena_id)
            if each.account is not None
        }
        with going_on("sharing who has an arena open"):
            gone = self._written.get(arena_id, set()) - keys
            if gone:
                await self._board.remove(board, gone)
            await self._board.put(board, dict.fromkeys(keys, ""), self._now() + PAGE_S)
            if keys:
                self._written[arena_id] = keys
            else:
                self._written.pop(arena_id, None)
            standing = await self._board.read(board, self._now())
            self._present[arena_id] = {int(key.rpartition(":")[2]) for key in standing}
            self._where[arena_id] = {
                (int(player), process)
                for process, _, player in (key.rpartition(":") for key in standing)
            }

    def forget(self, arena_id: str) -> None:
        """The arena is over and nobody here watches it: nothing more to read of it."""
        self._present.pop(arena_id, None)
        self._where.pop(arena_id, None)

    async def tell_seat(self, arena_id: str, account: int, message: Strict) -> None:
        """Tell a player their seat: on their pages here, and by post elsewhere.

        Every other process that shows them the arena's page is sent it.
        """
        await self._send(self._mine(arena_id, account), message)
        elsewhere = {
            process
            for player, process in self._where.get(arena_id, set())
            if player == account and process != self._process
        }
        for process in elsewhere:
            box = address(process, seat_box(arena_id, account))
            with going_on("sending an arena's seat"):
                await self._post.send(box, message.model_dump_json())

    async def collect_seats(self, arena_id: str) -> None:
        """Give our pages the seats other processes sent them (a lost nudge's catch-up)."""
        players = {each.account.id for each in self.of(arena_id) if each.account is not None}
        for account in players:
            with going_on("collecting an arena's seat"):
                await self._post.deliver(self._post.box(seat_box(arena_id, account)))

    @staticmethod
    async def _send(pages: list[Watcher], message: Strict) -> None:
        for watcher in pages:
            with going_on("telling an arena's player their seat"):
                await watcher.send(message)
