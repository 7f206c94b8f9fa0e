"""Failures gone past are said in the log: an expected one in a debug line, ours with a trace."""

from __future__ import annotations

import logging

import pytest
from starlette.websockets import WebSocketDisconnect

from rummykit.server.runtime import going_on
from rummykit.server.runtime.faults import logger


def test_a_socket_already_gone_is_a_debug_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger=logger.name), going_on("sending a view"):
        raise WebSocketDisconnect(1001)
    [record] = caplog.records
    assert record.levelno == logging.DEBUG
    assert record.getMessage().startswith("sending a view: ")
    assert record.exc_info is None


def test_an_error_of_ours_is_logged_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger=logger.name), going_on("sending a view"):
        raise KeyError("seat")
    [record] = caplog.records
    assert record.levelno == logging.ERROR
    assert record.getMessage() == "sending a view failed"
    assert record.exc_info is not None and record.exc_info[0] is KeyError


def test_nothing_but_exceptions_is_gone_past() -> None:
    with pytest.raises(KeyboardInterrupt), going_on("anything"):
        raise KeyboardInterrupt
