"""``rummy ratings``: a server's leaderboard, as a table or as JSON.

``--json`` prints ``GET /api/leaderboard``'s answer as it is:
``[{"name", "rating", "mu", "sigma", "games", "provisional", "bot"}]``, best first.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.parse
from typing import Any, Final

from rummykit.client.addresses import add_server_option
from rummykit.client.report import with_bot_mark
from rummykit.ratings import Pool

_EPILOG: Final = """examples:
  rummy ratings --server http://127.0.0.1:8000
      the winner-scoring leaderboard: settled ratings of regular players, best first
  rummy ratings --server URL --pool penalty --all --json
      every account rated under penalty scoring, provisional ones too, as JSON
"""


def leaderboard(server: str, pool: Pool, everyone: bool) -> list[dict[str, Any]]:
    """``GET /api/leaderboard``: the pool's leaderboard (every rated account with ``everyone``)."""
    from rummykit.client.web import ServerError, _call

    query = urllib.parse.urlencode({"pool": pool.value, **({"all": "1"} if everyone else {})})
    answer = _call(server, f"/api/leaderboard?{query}")
    if not isinstance(answer, list) or not all(isinstance(entry, dict) for entry in answer):
        raise ServerError("The server's leaderboard is not a list of players.")
    return answer


def leaderboard_lines(entries: list[dict[str, Any]]) -> list[str]:
    """The leaderboard as a table: place, name (with BOT), rating ("?" while provisional), games."""
    names = [with_bot_mark(entry["name"], entry["bot"]) for entry in entries]
    width = max([len("NAME"), *map(len, names)])
    lines = [f"{'#':>4}  {'NAME':<{width}}  {'RATING':>6}  {'GAMES':>5}"]
    for place, (entry, name) in enumerate(zip(entries, names, strict=True), start=1):
        rating = f"{entry['rating']}{'?' if entry['provisional'] else ''}"
        lines.append(f"{place:>4}  {name:<{width}}  {rating:>6}  {entry['games']:>5}")
    return lines


def _command_ratings(args: argparse.Namespace) -> int:
    from rummykit.client.web import ServerError

    pool = Pool(args.pool)
    try:
        entries = leaderboard(args.server, pool, args.all)
    except ServerError as error:
        print(f"rummy ratings: {error.message}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(entries))
    elif not entries:
        more = "" if args.all else " (--all lists provisional ratings too)"
        print(f"Nobody is on the {pool.value} leaderboard yet{more}.")
    else:
        print("\n".join(leaderboard_lines(entries)))
    return 0


def add_ratings_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ratings`` to the ``rummy`` command's sub-commands."""
    ratings = commands.add_parser(
        "ratings",
        help="print a server's leaderboard",
        description="Print a server's leaderboard of ranked play, best first: settled "
        "ratings of players with enough recent games against enough opponents; a rating "
        'with "?" is provisional.',
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_server_option(ratings)
    ratings.add_argument(
        "--pool",
        choices=[pool.value for pool in Pool],
        default=Pool.WINNER.value,
        help="winner or penalty scoring (default winner)",
    )
    ratings.add_argument(
        "--all", action="store_true", help="every rated account, provisional ones included"
    )
    ratings.add_argument(
        "--json",
        action="store_true",
        help='the leaderboard as JSON: [{"name", "rating", "mu", "sigma", "games", '
        '"provisional", "bot"}]',
    )
    ratings.set_defaults(run=_command_ratings)
