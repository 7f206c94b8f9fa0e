"""A process stopped in the middle of a write does not hold the others' writes for ever.

A table's owner paused mid-transaction (a stalled machine) kept its locks, and the process
that took the table over could not write behind them: every intent there was refused
`try_again` until the sleeper woke (CI saw it once in the failover test). PostgreSQL ends a
store connection idle in a transaction after ``IDLE_IN_TRANSACTION_MS``; this waits on
PostgreSQL's own clock, so it is marked slow.
"""

from __future__ import annotations

import time

import psycopg
import pytest

from rummykit.server.store.database import (
    IDLE_IN_TRANSACTION_MS,
    STATEMENT_TIMEOUT_MS,
    PostgresDatabase,
    is_unavailable,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(60)]


def test_a_write_behind_a_stalled_transaction_goes_through_once_postgresql_ends_it(
    postgres_url: str,
) -> None:
    stalled, other = PostgresDatabase(postgres_url), PostgresDatabase(postgres_url)
    try:
        with other.read() as session:
            shown = session.execute("SHOW idle_in_transaction_session_timeout").fetchall()
        assert shown == [(f"{IDLE_IN_TRANSACTION_MS // 1000}s",)]
        refused = 0
        # the sleeper's commit, once it wakes, finds its transaction ended: an outage to it
        # (nothing written, try again), and it is fenced from the table when it does
        with pytest.raises(psycopg.Error) as woke, stalled.transaction() as held:
            stalled.serialize(held, "table:T1")  # a write under way ... then it sleeps
            started = time.monotonic()
            deadline = started + (IDLE_IN_TRANSACTION_MS + 4 * STATEMENT_TIMEOUT_MS) / 1000
            while True:
                assert time.monotonic() < deadline, "the other process never wrote"
                try:
                    with other.transaction() as session:
                        other.serialize(session, "table:T1")
                    break
                except psycopg.Error as error:  # the lock's wait ran past the statement's time
                    assert is_unavailable(error), error
                    refused += 1
            waited = time.monotonic() - started
        assert is_unavailable(woke.value), woke.value
        assert refused >= 1  # it was held, then let go
        assert waited >= IDLE_IN_TRANSACTION_MS / 1000 - 0.5
    finally:
        stalled.close()
        other.close()
