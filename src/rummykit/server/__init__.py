"""The table server: a Starlette app serving the browser table, one task per table.

``create_app`` builds the app on a SQLite store; ``rummy serve`` and ``rummy play`` run it
(``rummykit.server.run``). The wire protocol is in ``rummykit.server.protocol`` (socket
messages) and ``rummykit.server.api`` (HTTP bodies and queries); its JSON Schema is
``docs/protocol.schema.json``, printed by ``python -m rummykit.server.schema``.
"""

from rummykit.server.app import create_app

__all__ = ["create_app"]
