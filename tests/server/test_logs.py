"""One client cannot flood the log: records of one kind pass at a bounded rate, and say how
many like them were held back (one client once caused 459 tracebacks a second)."""

from __future__ import annotations

import logging

import pytest

from rummykit.server.runtime.logs import LOG_BURST, RateLimitedLog, limit_logging


def test_a_flood_of_one_kind_of_record_is_held_back_and_counted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    logger = logging.getLogger("rummykit.test.flood")
    log_filter = limit_logging(logger, clock=lambda: now[0])
    assert limit_logging(logger) is log_filter  # once per logger
    with caplog.at_level(logging.ERROR, logger="rummykit.test.flood"):
        for number in range(500):
            logger.error("table %s: an intent failed", number)
        logger.error("another kind of trouble")
        now[0] += 3.0  # three more of the flooding kind may pass
        for number in range(5):
            logger.error("table %s: an intent failed", number)
    flood = [record for record in caplog.records if "an intent failed" in record.getMessage()]
    assert len(flood) == LOG_BURST + 3
    assert "480 more like it were held back" in flood[LOG_BURST].getMessage()
    assert any(record.getMessage() == "another kind of trouble" for record in caplog.records)
    logger.removeFilter(log_filter)


def test_the_tables_log_is_limited() -> None:
    table_logger = logging.getLogger("rummykit.table")
    import rummykit.server.tables.table  # noqa: F401 - the module puts the limit on its logger

    assert any(isinstance(found, RateLimitedLog) for found in table_logger.filters)
