"""The leaderboard and the player pages: ``GET /api/leaderboard`` and ``GET /api/players/{name}``.

Both read the store in a thread, never on the event loop, and show ratings as they stand now:
drifted over the time since the player's last rated game (``rummykit.ratings.drifted``), so a
rating left idle turns provisional on its own. ``rating`` is the displayed number
(``display_value``); ``provisional`` says it is not settled (shown with "?").

The leaderboard lists, best first, only the accounts ``leaderboard_eligible`` (settled, at
least ``LEADERBOARD_GAMES`` games against ``LEADERBOARD_OPPONENTS`` distinct accounts, the last
within ``LEADERBOARD_IDLE_DAYS``); with ``all=1``, every account rated in the pool.
``GET /api/leaderboard/thresholds`` says those thresholds, and how much a game counts
(``rummykit.ratings.trust``, ``repeat_weight``), for the pages to say them; each recent game
on a player page gives its ``weight``, the share of a full update it counted.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from rummykit.protocol import (
    ACCOUNT_NAME,
    LEADERBOARD,
    ArenaWon,
    ErrorAnswer,
    HistoryPoint,
    LeaderboardEntry,
    LeaderboardThresholds,
    PlayerAnswer,
    PoolRecord,
    RecentGame,
)
from rummykit.ratings import (
    LEADERBOARD_GAMES,
    LEADERBOARD_IDLE_DAYS,
    LEADERBOARD_OPPONENTS,
    REPEAT_WINDOW_DAYS,
    TRUSTED_GAMES,
    TRUSTED_OPPONENTS,
    Pool,
    Rating,
    display_value,
    drifted,
    is_settled,
    leaderboard_eligible,
)
from rummykit.server.store import DAY_S, PoolRating, SeatFigures, Store

LEADERBOARD_ROWS: Final = 1000
"""The most accounts one leaderboard answer lists (the best ones)."""

HISTORY_POINTS: Final = 500
"""The most points of a rating's history a player page gives (the newest ones)."""

RECENT_GAMES: Final = 20
"""The rated games a player page lists, newest first."""

BAD_POOL: Final = f"pool: say {', '.join(Pool)}."
BAD_ALL: Final = "all: say 1 to list every rated account, or leave it out."
UNKNOWN_QUERY: Final = "Unknown query parameter {name}: this address takes pool and all."
NO_QUERY: Final = "Unknown query {name}: this address takes none."
NO_PLAYER: Final = "No account has that name."

_TRUE: Final = frozenset({"1", "true"})
_FALSE: Final = frozenset({"0", "false"})


THRESHOLDS: Final = LeaderboardThresholds(
    min_games=LEADERBOARD_GAMES,
    min_opponents=LEADERBOARD_OPPONENTS,
    idle_days=LEADERBOARD_IDLE_DAYS,
    trusted_games=TRUSTED_GAMES,
    trusted_opponents=TRUSTED_OPPONENTS,
    repeat_days=REPEAT_WINDOW_DAYS,
)


def _store(connection: HTTPConnection) -> Store:
    store: Store = connection.app.state.lobby.store
    return store


def _error(message: str, status: int) -> Response:
    return JSONResponse(ErrorAnswer(error=message).model_dump(), status)


def _idle_days(last_played: float, now: float) -> float:
    return max(0.0, now - last_played) / DAY_S


def leaderboard_entries(
    rows: Sequence[PoolRating],
    now: float,
    everyone: bool,
    online: Callable[[str], bool] = lambda name: False,
) -> list[LeaderboardEntry]:
    """The leaderboard from ``Ratings.pool``'s rows at time ``now``, best first.

    Without ``everyone``, only the ratings ``leaderboard_eligible``; ``online(name)``: whether
    a program's account is online.
    """
    entries = []
    for row in rows:
        stored = row.rating
        idle = _idle_days(row.last_played, now)
        games, opponents = row.games, row.opponents
        if not everyone and not leaderboard_eligible(stored, games, opponents, idle):
            continue
        rating = drifted(stored, idle)
        entries.append(
            LeaderboardEntry(
                name=row.name,
                rating=display_value(rating),
                mu=rating.mu,
                sigma=rating.sigma,
                games=games,
                provisional=not is_settled(rating),
                bot=row.bot,
                online=row.bot and online(row.name),
            )
        )
    entries.sort(key=lambda entry: (-entry.mu, entry.sigma, entry.name.casefold()))
    return entries[:LEADERBOARD_ROWS]


def _query(request: Request) -> tuple[Pool, bool] | str:
    """The pool and the ``all`` flag asked for, or the sentence refusing the query."""
    for name in request.query_params:
        if name not in ("pool", "all"):
            return UNKNOWN_QUERY.format(name=name[:20])
    pools, alls = request.query_params.getlist("pool"), request.query_params.getlist("all")
    if len(pools) > 1 or (pools and pools[0] not in tuple(Pool)):
        return BAD_POOL
    if len(alls) > 1 or (alls and alls[0] not in _TRUE | _FALSE):
        return BAD_ALL
    return Pool(pools[0]) if pools else Pool.WINNER, bool(alls) and alls[0] in _TRUE


async def leaderboard(request: Request) -> Response:
    """``GET /api/leaderboard?pool=POOL[&all=1]``: the pool's leaderboard.

    400 for another pool, another ``all`` or another parameter.
    """
    asked = _query(request)
    if isinstance(asked, str):
        return _error(asked, 400)
    pool, everyone = asked
    store = _store(request)
    rows = await asyncio.to_thread(store.ratings.pool, pool)
    online = {bot.name for bot in request.app.state.lobby.bots.online()}
    entries = leaderboard_entries(rows, store.now(), everyone, online.__contains__)
    return JSONResponse(LEADERBOARD.dump_python(entries, mode="json"))


async def thresholds(request: Request) -> Response:
    """``GET /api/leaderboard/thresholds``: the leaderboards' thresholds; 400 for any query."""
    if request.url.query:
        return _error(NO_QUERY.format(name=request.url.query[:20]), 400)
    return JSONResponse(THRESHOLDS.model_dump(mode="json"))


def _pool_record(rows: Sequence[Mapping[str, Any]], now: float) -> PoolRecord:
    last = rows[-1]
    stored = Rating(float(last["mu_after"]), float(last["sigma_after"]))
    rating = drifted(stored, _idle_days(float(last["at"]), now))
    wins = sum(1 for row in rows if row["rank"] == 0 and row["sharing"] == 1)
    draws = sum(1 for row in rows if row["rank"] == 0 and row["sharing"] > 1)
    figures = sum((SeatFigures.from_json(_json(row.get("figures"))) for row in rows), SeatFigures())
    history = [
        HistoryPoint(
            table=str(row["table_id"]),
            at=float(row["at"]),
            rating=display_value(Rating(float(row["mu_after"]), float(row["sigma_after"]))),
        )
        for row in rows[-HISTORY_POINTS:]
    ]
    return PoolRecord(
        rating=display_value(rating),
        mu=rating.mu,
        sigma=rating.sigma,
        provisional=not is_settled(rating),
        games=len(rows),
        wins=wins,
        draws=draws,
        losses=len(rows) - wins - draws,
        average_place=sum(int(row["rank"]) + 1 for row in rows) / len(rows),
        history=history,
        deals=figures.deals,
        points_per_deal=_share(figures.points, figures.deals),
        going_out_rate=_share(figures.outs, figures.deals),
        rummies=figures.rummies,
        seconds_per_turn=_share(figures.seconds, figures.timed_turns),
        timeouts=figures.timeouts,
        computer_share=_share(figures.computer_turns, figures.turns),
    )


def _share(part: float, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _json(text: object) -> Any:
    return json.loads(text) if isinstance(text, str) else None


def _recent(row: Mapping[str, Any]) -> RecentGame:
    before = Rating(float(row["mu_before"]), float(row["sigma_before"]))
    after = Rating(float(row["mu_after"]), float(row["sigma_after"]))
    summary = _json(row.get("summary")) or {}
    players = summary.get("players") or []
    seat = int(row["seat"])
    return RecentGame(
        table=str(row["table_id"]),
        at=float(row["at"]),
        pool=Pool(row["pool"]),
        rank=int(row["rank"]),
        tied=int(row["sharing"]) > 1,
        seats=int(row["seats"]),
        rating_before=display_value(before),
        rating_after=display_value(after),
        weight=round(float(row["weight"]), 4),
        opponents=[str(name) for index, name in enumerate(players) if index != seat],
        preset=str(summary.get("preset", "")),
    )


def player_answer(
    name: str, bot: bool, rows: Sequence[Mapping[str, Any]], now: float
) -> PlayerAnswer:
    """A player's page from ``Store.rated_games.of_account`` rows (oldest first) at ``now``."""
    pools = {
        pool: _pool_record(games, now)
        for pool in Pool
        if (games := [row for row in rows if row["pool"] == pool.value])
    }
    recent = [_recent(row) for row in reversed(rows[-RECENT_GAMES:])]
    return PlayerAnswer(name=name, bot=bot, pools=pools, recent=recent)


async def player(request: Request) -> Response:
    """``GET /api/players/{name}``: an account's ratings, results and recent games.

    404 for no such account; 400 for any query.
    """
    name = request.path_params["name"]
    if request.url.query:
        return _error(NO_QUERY.format(name=request.url.query[:20]), 400)
    if not ACCOUNT_NAME.fullmatch(name):
        return _error(NO_PLAYER, 404)
    store = _store(request)
    account = await asyncio.to_thread(store.accounts.named, name)
    if account is None:
        return _error(NO_PLAYER, 404)
    rows = await asyncio.to_thread(store.rated_games.of_account, account.id)
    answer = player_answer(account.name, account.bot, rows, store.now())
    accepts = request.app.state.lobby.bots.limits_of(account.id) if account.bot else None
    if account.bot:
        online = accepts is not None
    else:  # the challenges know who has a page open, on every process
        online = bool(await request.app.state.challenges.is_online(account.id))
    won = await asyncio.to_thread(store.arenas.won_by, account.name)
    answer = answer.model_copy(
        update={
            "online": online,
            "accepts": accepts,
            "arenas_won": [ArenaWon(id=arena, name=title) for arena, title in won],
        }
    )
    return JSONResponse(answer.model_dump(mode="json"))


RATING_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/leaderboard", leaderboard),
    Route("/api/leaderboard/thresholds", thresholds),
    Route("/api/players/{name}", player),
]
"""The routes of ratings, mounted by the app."""
