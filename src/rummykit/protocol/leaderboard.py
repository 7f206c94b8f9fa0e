"""The ratings' answers: ``GET /api/leaderboard``, its thresholds, and a player's page.

The routes are ``rummykit.server.accounts.rating_routes``; the answers live here, with the
rest of the wire, so that the published schema holds them and a client reads them without
the server. ``rating`` is the displayed number (``rummykit.ratings.display_value``);
``provisional`` says it is not settled (shown with "?").
"""

from __future__ import annotations

from typing import Final

from pydantic import Field, TypeAdapter

from rummykit.protocol.bot_stream import BotLimits
from rummykit.protocol.messages import Strict
from rummykit.ratings import Pool


class LeaderboardEntry(Strict):
    """One account on a leaderboard."""

    name: str
    rating: int
    """The displayed rating: ``1500 + 60 (mu - 25)``, rounded."""
    mu: float
    sigma: float
    """Drifted over the time since the last rated game."""
    games: int
    """Rated games in this pool."""
    provisional: bool
    """Not settled yet (or no longer): shown with "?"."""
    bot: bool
    """A program's account."""
    online: bool = False
    """A program's account online now (``GET /api/bots``): it can be challenged."""


class LeaderboardThresholds(Strict):
    """``GET /api/leaderboard/thresholds``: a leaderboard's thresholds, and what a game counts.

    What a settled rating needs to be on a leaderboard, and how much a rated game counts.
    """

    min_games: int
    """Rated games in the pool (``LEADERBOARD_GAMES``)."""
    min_opponents: int
    """Distinct accounts met (``LEADERBOARD_OPPONENTS``)."""
    idle_days: int
    """The last rated game at most this many days ago (``LEADERBOARD_IDLE_DAYS``)."""
    trusted_games: int
    """A game counts in full against opponents with this many rated games (``TRUSTED_GAMES``),
    less against newer ones."""
    trusted_opponents: int
    """... who have met this many people other than the player, at other addresses
    (``TRUSTED_OPPONENTS``); accounts at one address count little against each other."""
    repeat_days: int
    """Meeting the same opponent again within this many days counts less each time
    (``REPEAT_WINDOW_DAYS``)."""


class HistoryPoint(Strict):
    """A rating just after one rated game."""

    table: str
    at: float
    """When the game ended (seconds since the epoch)."""
    rating: int


class PoolRecord(Strict):
    """A player's rating and results in one pool."""

    rating: int
    mu: float
    sigma: float
    provisional: bool
    games: int
    wins: int
    """Games finished first alone."""
    draws: int
    """Games finished first together with another (equal totals)."""
    losses: int
    """Every other game."""
    average_place: float
    """The mean finishing place, 1 best (a tie shares the better place)."""
    history: list[HistoryPoint]
    """The rating after each game, oldest first (the newest ``HISTORY_POINTS``)."""
    deals: int
    """Deals played to their end in these games."""
    points_per_deal: float | None
    """The mean points scored a deal (null: no deal known)."""
    going_out_rate: float | None
    """The share of deals the player went out in, 0 to 1 (rummies included)."""
    rummies: int
    """Deals the player went rummy in."""
    seconds_per_turn: float | None
    """The mean time the player took over the turns they played themselves."""
    timeouts: int
    """Turns whose time ran out (the computer finished them)."""
    computer_share: float | None
    """The share of the player's turns the computer played, 0 to 1."""


class RecentGame(Strict):
    """One of a player's recent rated games."""

    table: str
    at: float
    pool: Pool
    rank: int
    """0 best; tied players share a rank."""
    tied: bool
    """Another player shares the rank (equal totals)."""
    seats: int
    """The rated players of the game."""
    rating_before: int
    rating_after: int
    weight: float
    """The share of a full update the game counted, 0 to 1: less against new accounts, between
    accounts at one address and against the same opponents again (``THRESHOLDS``)."""
    opponents: list[str]
    """The other players' names, in seat order."""
    preset: str
    """The house rules the game started from."""


class ArenaWon(Strict):
    """An arena a player won: ``/#/arena/{id}``."""

    id: str
    name: str


class PlayerAnswer(Strict):
    """``GET /api/players/{name}``."""

    name: str
    bot: bool
    online: bool = False
    """Online now, so it can be challenged: a program's account connected, or a person with a
    page of the site open (an inbox, on any of the site's processes)."""
    accepts: BotLimits | None = None
    """What an online program's account takes (null: offline, or a person)."""
    pools: dict[Pool, PoolRecord]
    """The pools the player was rated in."""
    recent: list[RecentGame]
    """The newest ``RECENT_GAMES`` rated games, newest first."""
    arenas_won: list[ArenaWon] = Field(default_factory=list)
    """The arenas the player won, newest first (the 20 newest)."""


LEADERBOARD: Final[TypeAdapter[list[LeaderboardEntry]]] = TypeAdapter(list[LeaderboardEntry])
"""The answer to ``GET /api/leaderboard``: the pool's accounts, best first."""
