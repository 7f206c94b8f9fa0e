"""Failover that always finishes (issue 29): the scenario at every kill moment, twice.

Two ``rummy serve`` processes on one PostgreSQL and one Redis; ``rummy party new`` on the
first and two ``rummy join`` on the second, each program given both addresses; the first
process SIGKILLed at a moment of the party's life (``failover_scenario``): in its lobby, as
the guests join, when all are ready (the host's start on its way), the same with the first
slowed down so that its count of versions falls in step with the second's (``start_sent``: the
hang of the issue, 5 runs in 8 before the fix), as the party shows its table, at the host's
first action, between the two deals. Every run ends with every program finished (exit 0) and
the three records equal. ``benchmarks/failover_runs.py`` runs the same scenario for longer
soaks, with a table of the results.
"""

from __future__ import annotations

import concurrent.futures
from pathlib import Path
from typing import Final

import pytest

from failover_scenario import Outcome, logs, run_once
from redis_service import RedisService, redis_server
from services import PostgresServer

__all__ = ["redis_server"]

RUNS_A_MOMENT: Final = 2
"""Each moment twice, side by side (``benchmarks/failover_runs.py`` soaks longer): each run
has its own two processes and database, and mostly waits (for a dead owner's lease to run
out, 6 s, or its party's lock, 10 s), so the two load the machine as a busy site would."""
MOMENTS: Final = (
    "lobby",
    "joining",
    "ready",
    "start_sent",
    "started",
    "first_action",
    "between_deals",
)
"""The moments cycled over the runs (``seated`` is left to the benchmark: the start follows
the last ready within milliseconds, so it is caught as ``ready`` or ``started`` anyway)."""
RUN_BUDGET_S: Final = 60.0
"""The longest one run may take (one takes 5 to 20 s: a game of two short deals, after the
dead owner's lease or lock has run out)."""

# slow: real processes killed on the real clock (leases of 6 s): a run of its own in `make test`.
# The moments are tests of their own, so that the slow run spreads them over its workers.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(RUN_BUDGET_S + 60)]


@pytest.mark.parametrize("moment", MOMENTS)
def test_the_first_process_killed_at_a_moment_twice_every_program_finishes_with_one_record(
    moment: str, tmp_path: Path, postgres_server: PostgresServer, redis_server: RedisService
) -> None:
    def one(run: int) -> tuple[Outcome, str]:
        database = postgres_server.new_database()
        folder = tmp_path / f"run-{run + 1}"
        try:
            outcome = run_once(moment, folder, database, redis_server.url, budget_s=RUN_BUDGET_S)
        finally:
            postgres_server.drop_database(database)
        return outcome, f"run {run + 1}: {outcome}\n{logs(folder)}"

    with concurrent.futures.ThreadPoolExecutor(max_workers=RUNS_A_MOMENT) as pool:
        ended = list(pool.map(one, range(RUNS_A_MOMENT)))
    for outcome, said in ended:
        assert outcome.killed, said  # the first died with the programs still running
        assert outcome.ok and outcome.deals == 2, said
