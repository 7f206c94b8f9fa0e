"""Failures the server goes on past, each said in the log: nothing is swallowed unseen.

A socket that closed while a message was on its way, or a Redis connection that broke while
it was being closed, is expected: a debug line says so. Anything else raised there is a bug
of ours: the server still goes on (one table's trouble must not take the others down), and
the log gets the error with its traceback.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Final

from redis.exceptions import RedisError
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed

logger = logging.getLogger(__name__)

GONE: Final[tuple[type[Exception], ...]] = (
    OSError,  # uvicorn's ClientDisconnected among them
    WebSocketDisconnect,
    ConnectionClosed,
    RuntimeError,  # Starlette's "cannot send once a close message has been sent"
)
"""What sending to, or closing, a connection already gone raises."""

REDIS_GONE: Final[tuple[type[Exception], ...]] = (OSError, RedisError)
"""What a Redis connection already gone raises as it is closed or asked."""


@contextlib.contextmanager
def going_on(
    what: str, *, expected: tuple[type[Exception], ...] = GONE, log: logging.Logger = logger
) -> Iterator[None]:
    """Go on past a failure of ``what``, said in the log.

    An ``expected`` one gets a debug line; any other its traceback (an error of ours, seen).
    """
    try:
        yield
    except Exception as error:
        note_gone_past(what, error, expected=expected, log=log)


def note_gone_past(
    what: str,
    error: Exception,
    *,
    expected: tuple[type[Exception], ...] = GONE,
    log: logging.Logger = logger,
) -> None:
    """Say in the log a failure of ``what`` that the caller goes past (as ``going_on`` does)."""
    if isinstance(error, expected):
        log.debug("%s: %s", what, str(error) or type(error).__name__)
    else:
        log.error("%s failed", what, exc_info=error)
