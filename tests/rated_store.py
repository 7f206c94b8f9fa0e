"""A store full of rated games, for the browser tests of the leaderboard and the player pages.

A club of twelve accounts (the last a program's) plays ``CLUB_GAMES`` winner-scoring games,
one a day (``play_club``): every member settles and qualifies for the winner leaderboard. Three
of them play one penalty-scoring game (rated, so provisional: that board is empty until
"Show everyone rated"). Then two accounts that signed up through the API, Ada and Bob, play a
real ranked game over sockets, so a recent game has a replay to open.

The store's clock starts at ``START`` (a real date, so the pages show real days) and stands
still afterwards: a server on ``clock.time`` sees every rating as fresh.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from starlette.testclient import TestClient

from party_client import (
    account,
    accounts_store,
    open_seat,
    play_club,
    play_everyone,
    started_ranked,
    store_rated_game,
)
from ports import free_port
from rummykit.ratings import Pool
from rummykit.server.store.rated import RatedGame
from table_client import LiveServer, ManualClock, clocked_app

CLUB = tuple(f"P{number:02}" for number in range(12))
"""The club's accounts, best first (``play_club`` gives the lower numbers better totals)."""

BOT = CLUB[-1]
"""The club's program account."""

CLUB_GAMES = 90
"""Enough four-player games for twelve accounts to settle and reach the leaderboard."""

PENALTY_PLAYERS = (1, 2, 3)
"""The accounts (ids, so P00 to P02) of the one penalty-scoring game."""

START = 1_760_000_000.0
"""2025-10-09: the first day of the club's games."""

RANKED = ("Ada", "Bob")
"""The two accounts that play a ranked game over sockets."""


@dataclass(frozen=True)
class RatedStore:
    """The store's file, its clock, and the table of the ranked game played over sockets."""

    path: Path
    clock: ManualClock
    ranked_table: str


def rated_store(path: Path) -> RatedStore:
    """Fill a new store at ``path`` as the module says."""
    clock = ManualClock()
    clock.now = START
    store = accounts_store(path, clock, CLUB, bots={BOT})
    play_club(store, clock, len(CLUB), CLUB_GAMES)
    store_rated_game(store, RatedGame("penalty0", Pool.PENALTY, PENALTY_PLAYERS, (10, 35, 60), 1))
    store.close()
    with TestClient(clocked_app(path, clock)) as client:
        people = [account(client, name) for name in RANKED]
        _, table, tokens = started_ranked(client, people)
        with (
            open_seat(client, table, tokens[0]) as first,
            open_seat(client, table, tokens[1]) as second,
        ):
            play_everyone({0: first, 1: second})
    return RatedStore(path, clock, table)


@contextlib.contextmanager
def rated_server(path: Path) -> Iterator[tuple[LiveServer, RatedStore]]:
    """A live server over a new rated store at ``path``, on the store's (still) clock."""
    rated = rated_store(path)
    server = LiveServer(rated.path, free_port(), now=rated.clock.time)
    server.start()
    try:
        yield server, rated
    finally:
        server.stop()
