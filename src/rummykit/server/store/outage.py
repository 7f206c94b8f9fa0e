"""Outages answered fast and clean: the database or Redis out of reach, or the disk full.

Whatever the request, an outage is answered at once, never with a 500 or a traceback:

- HTTP: ``503`` with ``Retry-After`` and a sentence for the player (``OUT_OF_REACH``);
- a socket: closed with ``CloseCode.TRY_AGAIN_LATER`` (1013) and the same sentence; an intent
  on a socket already open is refused with ``try_again`` by the table itself.

Nothing is lost by it: the failing write was not committed, so nothing was acknowledged.
How soon an outage is noticed is set where each service is reached: the database's
connection and statement timeouts (``rummykit.server.store.database``), Redis's
(``rummykit.server.cluster.lease.redis_client``).

The log says so once per outage (``rummykit.server.cluster.outage_log``).
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Final, cast

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from starlette.applications import Starlette
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response
from starlette.types import ExceptionHandler
from starlette.websockets import WebSocket

from rummykit.protocol import CloseCode, ErrorAnswer, answer_text
from rummykit.server.cluster import OUTAGES, BusUnavailable, LeaseUnavailable
from rummykit.server.runtime import going_on
from rummykit.server.store.database import is_unavailable

RETRY_AFTER_S: Final = 5
"""The wait a ``503`` asks for: a database restarting comes back in seconds, and a page that
asks again sooner only adds to the load of one coming back."""

OUT_OF_REACH: Final = answer_text("out_of_reach")
"""The player's sentence of a ``503`` and of a socket closed by an outage (a close reason fits
in 123 bytes)."""


REDIS_ERRORS: Final = (BusUnavailable, LeaseUnavailable, RedisConnectionError, RedisTimeoutError)
"""The errors that say Redis is out of reach (the database's: ``database.is_unavailable``)."""


def service_of(error: BaseException) -> str | None:
    """Which service ``error`` says is out of reach (``database``, ``redis``), or ``None``."""
    if isinstance(error, REDIS_ERRORS):
        return "redis"
    if is_unavailable(error):
        return "database"
    return None


def _detail(error: BaseException) -> str:
    """The error's kind and the first line of its message."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else 'no detail'}"


def note_outage(error: BaseException) -> bool:
    """Whether ``error`` is an outage; if so, noted in the log (once per ``LOG_EVERY_S``)."""
    service = service_of(error)
    if service is None:
        return False
    OUTAGES.note(service, _detail(error))
    return True


class PoolReconnections(logging.Filter):
    """psycopg's pool logs each failed try to reconnect: the outage log says it once instead."""

    SAID: Final = ("error connecting in", "reconnection attempt in pool")
    """How the pool's lines of a failed reconnection begin."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is written: not when it is a failed reconnection."""
        message = record.getMessage()
        if not message.startswith(self.SAID):
            return True
        OUTAGES.note("database", message.strip().splitlines()[0])
        return False


def _quiet_pool_reconnections() -> None:
    pool_logger = logging.getLogger("psycopg.pool")
    if not any(isinstance(each, PoolReconnections) for each in pool_logger.filters):
        pool_logger.addFilter(PoolReconnections())


def unavailable_answer() -> Response:
    """The ``503`` of an outage: the sentence, and when to ask again."""
    return JSONResponse(
        ErrorAnswer.said("out_of_reach").model_dump(),
        503,
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


async def _answer_outage(connection: HTTPConnection, error: Exception) -> Response | None:
    if not note_outage(error):
        raise error  # not an outage: a bug, answered 500 with its traceback
    if isinstance(connection, WebSocket):
        # accepted already (``counted_socket``), or the close is a refusal of the handshake
        with going_on("closing a socket in an outage"):
            await connection.close(CloseCode.TRY_AGAIN_LATER, OUT_OF_REACH)
        return None
    return unavailable_answer()


def handle_outages(app: Starlette) -> None:
    """Answer every outage under ``app`` with a ``503`` or a close, never a 500."""
    import psycopg

    kinds = (*REDIS_ERRORS, sqlite3.OperationalError, psycopg.OperationalError)
    for kind in kinds:
        # one handler for both kinds of connection: Starlette types it as either
        app.add_exception_handler(kind, cast(ExceptionHandler, _answer_outage))
    _quiet_pool_reconnections()
