"""The site: a Starlette app serving the browser table, one task per table, in wings.

Each wing is a package with one job, and its ``__init__`` is its face (nothing outside a wing
imports its other modules); lower wings never import higher ones:

- ``runtime``: worker processes for costly work, rate-limited logs, failures gone past;
- ``http``: requests and sockets before a wing sees them (bodies, hellos, origins, beats);
- ``cluster``: several processes serving one site (leases, the bus, the relay, presence);
- ``store``: the games, parties and accounts kept in SQLite or PostgreSQL, migrated;
- ``tables``: one task per table (its turns, its computer players, what it says);
- ``accounts``: accounts, sign-ins, ratings, the leaderboard, the player pages;
- ``parties``: parties, their lobby and routes, who may see a finished game;
- ``reviews``: post-game reviews on the worker pool;
- ``site``: the app made from a ``ServerConfig``, and ``rummy serve`` / ``rummy play``.

The wire itself is ``rummykit.protocol``, below the server and the client; its JSON Schema is
``docs/protocol.schema.json``, printed by ``python -m rummykit.protocol.schema``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummykit.server.site import create_app

__all__ = ["create_app"]


if not TYPE_CHECKING:  # mypy reads the import above, and refuses a name it does not know

    def __getattr__(name: str) -> object:
        # The app (the whole server: Starlette, the store, SQLAlchemy) is imported when asked
        # for, not with the package: the command line and the clients read the protocol only.
        if name == "create_app":
            from rummykit.server.site import create_app

            return create_app
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
