"""The table server: a Starlette app serving the browser table, one task per table.

``create_app`` builds the app on a SQLite store; ``rummy serve`` and ``rummy play`` run it
(``rummykit.server.site.run``). The wire protocol is in ``rummykit.protocol.messages`` (socket
messages) and ``rummykit.protocol.api`` (HTTP bodies and queries); its JSON Schema is
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
