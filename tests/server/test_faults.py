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


def test_no_exception_is_swallowed_without_a_log_line() -> None:
    from pathlib import Path

    server = Path(__file__).resolve().parents[2] / "src" / "rummykit" / "server"
    silent = [
        f"{path.relative_to(server)}:{number}"
        for path in sorted(server.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "suppress(Exception)" in line or "suppress(BaseException)" in line
    ]
    assert silent == [], f"use going_on (rummykit.server.runtime), which logs: {silent}"
