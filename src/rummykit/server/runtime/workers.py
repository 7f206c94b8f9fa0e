"""Costly work in worker processes, never in the serving process.

A computer player's decision (``expert`` searches for 200 ms), a hint, and rebuilding a long
game from its log are plain Python that holds the interpreter's lock: run in threads of the
serving process they starved the event loop (with ``expert`` opponents the round trip of every
table reached 739 ms at 30 tables). Here they run in a pool of processes with a fixed number
of workers: the cap. Work beyond it waits its turn, and the serving process only sends
observations and receives actions.

The turns are fair across clients (``rummykit.server.runtime.fair_turns``): each job names the
client
it is for (the address that opened a table, a party), and a freed worker goes to the waiting
client served least recently, so that one client's dozens of ``expert`` tables never hold up
another's computer player by more than one decision.

The workers run at a lower priority than the server, so that a busy pool slows the computer
players, never the answers to people.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, TypeVar

from rummykit.bots import make_bot
from rummykit.bots.expert import DEFAULT_BUDGET_MS, ExpertBot
from rummykit.bots.hints import hint
from rummykit.bots.strong import Decision
from rummykit.core.actions import Action
from rummykit.core.observation import Observation
from rummykit.core.record import load_record, replay
from rummykit.core.state import GameState
from rummykit.server.runtime.fair_turns import FairGate

T = TypeVar("T")

SERVER_CLIENT: Final = "server"
"""The client of work the server does for itself rather than for someone (a restore, say)."""

MIN_SEARCH_MS: Final = 20.0
"""The shortest search a crowded pool asks of ``expert``: still a few hundred playouts, and
its candidates start from the strong player's choice, so it never plays worse than that."""

WORKER_NICENESS: Final = 5
"""How much lower the workers' priority is than the server's (``nice``)."""


def default_worker_count() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


ORPHAN_CHECK_S: Final = 2.0
"""How often a worker looks whether the server that started it is still there."""


def _start_worker(server: int) -> None:
    """A worker's start: a lower priority, and an end of its own when its server dies.

    A server killed outright (``kill -9``, the OOM killer) cannot stop its pool: its workers
    waited for work forever, about 40 MB each (a test run that killed servers 40 times left
    hundreds). A thread of each worker ends it once the server ``server`` is gone.

    Ctrl+C in a terminal reaches the whole process group: the workers leave it to the server,
    which stops them as it stops (each would otherwise print a traceback of its own).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # where there is no nice, the workers run at the server's priority
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)
    threading.Thread(target=_end_when_orphaned, args=(server,), daemon=True).start()


def _end_when_orphaned(server: int) -> None:
    while os.getppid() == server:
        time.sleep(ORPHAN_CHECK_S)
    os._exit(1)  # the server is gone: nothing will ever ask this worker for work


def decide(
    level: str, observation: Observation, seed: float, budget_ms: float | None = None
) -> Action:
    """A computer player's action: the bot of ``level`` choosing from ``observation``.

    ``budget_ms``: the search's time, for the levels that search by the clock (``expert``,
    ``master``); ``None``: their own.
    """
    bot = make_bot(level)
    if budget_ms is not None and isinstance(bot, ExpertBot) and bot.samples is None:
        bot.budget_ms = budget_ms
    return bot.choose(observation, random.Random(seed))


def advise(observation: Observation, level: str = "strong") -> Decision:
    """The hint of the player of ``level`` for the seat of ``observation``."""
    return hint(observation, level)


def rebuild_game(record: dict[str, Any]) -> tuple[GameState | None, str]:
    """The game a record (``rummy-record/1`` as JSON) leads to; or ``None`` and why not."""
    result = replay(load_record(record))
    if result.error is not None or result.state is None:
        return None, result.error.message if result.error else "the record is empty"
    return result.state, ""


class WorkerPool:
    """A capped pool of worker processes, started on first use and restarted if one dies."""

    def __init__(self, workers: int | None = None, *, executor: Executor | None = None) -> None:
        """A pool of ``workers`` processes (default: one per core).

        ``executor``: runs the work instead of worker processes (tests time the turns with
        one of their own).
        """
        self.workers = workers or default_worker_count()
        self._executor: Executor | None = executor
        # no more jobs in the executor than it has workers: its own queue is first come,
        # first served, so the waiting is done here, in turns fair across clients
        self.gate = FairGate(self.workers)

    def _pool(self) -> Executor:
        if self._executor is None:
            # "spawn": a fork of a process with threads (uvicorn's, asyncio's) may deadlock
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._executor

    def search_budget_ms(self) -> float:
        """How long a clock-bound search may think now, to keep the computer players' pace.

        With ``n`` jobs in the pool or waiting for it, each waits for about ``n / workers``
        others; past ``workers`` the search is shortened in that proportion (down to
        ``MIN_SEARCH_MS``), so that at 50 ``expert`` tables on two workers a move comes about
        one full search late, not twenty.
        """
        load = self.gate.busy + self.gate.waiting_count() + 1  # the job about to be asked
        if load <= self.workers:
            return DEFAULT_BUDGET_MS
        return max(MIN_SEARCH_MS, DEFAULT_BUDGET_MS * self.workers / load)

    async def run(
        self, function: Callable[..., T], *args: object, client: str = SERVER_CLIENT
    ) -> T:
        """``function(*args)`` in a worker; both must be picklable (module-level functions).

        ``client``: whom the work is for; when every worker is busy, the waiting clients
        take the freed workers in turn (``FairGate``). If a worker died (killed, out of
        memory), the pool is started afresh and the work tried once more.
        """
        async with self.gate.turn(client):
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool(), function, *args)
            except BrokenProcessPool:
                self._discard()
                return await loop.run_in_executor(self._pool(), function, *args)

    def _discard(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def close(self) -> None:
        """Stop the workers (waiting for work in progress)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
