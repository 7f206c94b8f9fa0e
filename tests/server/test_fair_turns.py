"""Fair turns in the worker pool: one client's flood of jobs never holds up another's job.

Issue 29: 60 ``expert`` tables opened from one address left an honest table's computer
answering 3 times in 20 s instead of about 18, because the pool ran jobs first come, first
served. The pool here runs on an executor of the test's own, whose jobs take a fixed time of
a clock the test moves: no process, no sleep.
"""

from __future__ import annotations

import asyncio
import heapq
import random
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest

from rummykit.bots.expert import DEFAULT_BUDGET_MS, ExpertBot
from rummykit.core.actions import Action
from rummykit.core.observation import Observation, observe
from rummykit.core.presets import PRESETS
from rummykit.core.state import GameState
from rummykit.protocol.answer_words import answer_text
from rummykit.server.reviews.reviews import (
    MAX_REVIEWS,
    MAX_REVIEWS_A_CLIENT,
    OwnReviewsBusy,
    Reviews,
    ReviewsBusy,
)
from rummykit.server.runtime.fair_turns import FairGate
from rummykit.server.runtime.workers import MIN_SEARCH_MS, WorkerPool, decide

JOB_S = 0.2
"""What each job takes on the test's clock: an ``expert`` decision."""

FLOOD = 60
"""Jobs one client queues at once: the 60 ``expert`` tables of the issue."""


class TimedExecutor(Executor):
    """Runs each job for ``JOB_S`` of its own clock, on ``workers`` workers, first come first
    served (as a process pool does); ``advance`` finishes the next job due."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.now = 0.0
        self.running: list[tuple[float, int, Future[Any], Callable[[], Any]]] = []
        self.queued: list[tuple[Future[Any], Callable[[], Any]]] = []
        self.started = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.queued.append((future, lambda: fn(*args, **kwargs)))
        self._start()
        return future

    def _start(self) -> None:
        while self.queued and len(self.running) < self.workers:
            future, call = self.queued.pop(0)
            self.started += 1
            heapq.heappush(self.running, (self.now + JOB_S, self.started, future, call))

    def advance(self) -> None:
        due, _, future, call = heapq.heappop(self.running)
        self.now = due
        future.set_result(call())
        self._start()


async def settle() -> None:
    """Let every task run until all wait (a result crosses the executor in a few steps)."""
    for _ in range(50):
        await asyncio.sleep(0)


def job(name: str) -> str:
    return name


async def honest_wait(workers: int, pool_workers: int) -> float:
    """How long after it is asked the honest client's job is done, with ``FLOOD`` of the
    flooder's jobs queued before it."""
    executor = TimedExecutor(workers)
    pool = WorkerPool(pool_workers, executor=executor)
    flood = [
        asyncio.ensure_future(pool.run(job, f"flood {n}", client="10.0.0.66")) for n in range(FLOOD)
    ]
    await settle()
    executor.advance()  # the flood is under way: one of its jobs is done
    await settle()
    asked = executor.now
    honest = asyncio.ensure_future(pool.run(job, "honest", client="10.0.0.7"))
    await settle()
    while not honest.done():
        executor.advance()
        await settle()
    assert honest.result() == "honest"
    waited = executor.now - asked
    while not all(task.done() for task in flood):
        executor.advance()
        await settle()
    assert sorted(task.result() for task in flood) == sorted(f"flood {n}" for n in range(FLOOD))
    return waited


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_a_flood_of_one_clients_jobs_delays_anothers_by_at_most_one_job(workers: int) -> None:
    waited = asyncio.run(honest_wait(workers, workers))
    assert waited <= 2 * JOB_S + 1e-9  # one job's wait for a worker, then its own job


def test_first_come_first_served_made_the_honest_job_wait_for_the_flood() -> None:
    """The same flood with the executor's own queue deciding (the gate as wide as the flood):
    the honest job waits behind all of it, as before the fix."""
    waited = asyncio.run(honest_wait(2, FLOOD + 1))
    assert waited >= (FLOOD - 2) / 2 * JOB_S


def test_waiting_clients_take_freed_slots_in_turn() -> None:
    async def scenario() -> list[str]:
        gate = FairGate(1)
        order: list[str] = []
        release = asyncio.Event()

        async def work(client: str, name: str) -> None:
            async with gate.turn(client):
                order.append(name)
                await release.wait()

        first = asyncio.ensure_future(work("a", "a0"))
        await settle()
        tasks = [asyncio.ensure_future(work("a", f"a{n}")) for n in range(1, 4)]
        await settle()
        tasks += [asyncio.ensure_future(work("b", f"b{n}")) for n in range(2)]
        await settle()
        tasks.append(asyncio.ensure_future(work("c", "c0")))
        release.set()
        await asyncio.gather(first, *tasks)
        return order

    # a was served last, so b and c (never served) go first; then a and b alternate
    assert asyncio.run(scenario()) == ["a0", "b0", "c0", "a1", "b1", "a2", "a3"]


def test_a_waiter_that_gives_up_leaves_its_line_and_its_slot_to_others() -> None:
    async def scenario() -> tuple[int, int]:
        gate = FairGate(1)
        await gate.acquire("a")
        gave_up = asyncio.ensure_future(gate.acquire("b"))
        waiting = asyncio.ensure_future(gate.acquire("c"))
        await settle()
        gave_up.cancel()
        await settle()
        assert gate.waiting_count("b") == 0
        gate.release()
        await waiting
        gate.release()
        return gate.busy, gate.waiting_count()

    assert asyncio.run(scenario()) == (0, 0)


def test_a_gate_needs_a_slot() -> None:
    with pytest.raises(ValueError, match="at least one slot, not 0"):
        FairGate(0)


class NoReviewsMade:
    """A store's reviews, none made yet."""

    def get(self, table_id: str, seat: int) -> None:
        return None


class NoReviews:
    """A store with no review made yet."""

    reviews = NoReviewsMade()


class StuckPool(WorkerPool):
    """A pool whose work never ends while the test runs: every review stays under way."""

    def __init__(self) -> None:
        super().__init__(1)
        self.clients: list[str] = []

    async def run(self, function: Callable[..., Any], *args: object, client: str = "") -> Any:
        self.clients.append(client)
        await asyncio.Event().wait()


def test_one_client_holds_at_most_its_share_of_the_review_slots() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        pool = StuckPool()
        reviews = Reviews(NoReviews(), pool)  # type: ignore[arg-type]
        refusals: list[str] = []
        for game in range(MAX_REVIEWS):
            try:
                await reviews.start(f"game{game}", 0, {}, "10.0.0.66")
            except OwnReviewsBusy as busy:  # answered 429: the client's own limit
                refusals.append(str(busy))
        assert len(refusals) == MAX_REVIEWS - MAX_REVIEWS_A_CLIENT
        for other in range(MAX_REVIEWS // MAX_REVIEWS_A_CLIENT - 1):
            for seat in range(MAX_REVIEWS_A_CLIENT):
                await reviews.start("other", seat + 10 * other, {}, f"10.0.1.{other}")
        try:  # every slot is taken now, fairly: a newcomer is told to come back later
            await reviews.start("late", 0, {}, "10.0.2.1")
        except OwnReviewsBusy:
            raise AssertionError("the newcomer has no review under way") from None
        except ReviewsBusy as busy:  # answered 503: the server's limit
            refusals.append(str(busy))
        await settle()
        clients = sorted(set(pool.clients))
        await reviews.close()
        return refusals, clients

    refusals, clients = asyncio.run(scenario())
    assert refusals[0] == answer_text("own_reviews_busy", {"count": MAX_REVIEWS_A_CLIENT})
    assert refusals[-1] == answer_text("reviews_busy")
    assert len(refusals) == MAX_REVIEWS - MAX_REVIEWS_A_CLIENT + 1
    # the reviews' work takes its turns in the pool as the client who asked
    assert clients == ["10.0.0.66", "10.0.1.0", "10.0.1.1", "10.0.1.2"]


def test_a_crowded_pool_shortens_the_experts_search_in_proportion() -> None:
    async def scenario() -> tuple[float, float, float]:
        executor = TimedExecutor(2)
        pool = WorkerPool(2, executor=executor)
        idle = pool.search_budget_ms()
        flood = [asyncio.ensure_future(pool.run(job, "x", client="a")) for _ in range(18)]
        await settle()
        crowded = pool.search_budget_ms()  # 2 running, 16 waiting, and the one to ask
        more = [asyncio.ensure_future(pool.run(job, "x", client="b")) for _ in range(200)]
        await settle()
        floor = pool.search_budget_ms()
        while not all(task.done() for task in [*flood, *more]):
            executor.advance()
            await settle()
        return idle, crowded, floor

    idle, crowded, floor = asyncio.run(scenario())
    assert idle == DEFAULT_BUDGET_MS
    assert crowded == pytest.approx(DEFAULT_BUDGET_MS * 2 / 19)
    assert floor == MIN_SEARCH_MS


def test_the_expert_searches_for_the_budget_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    game = GameState.new(PRESETS["classic"].rules, 2, seed=5)
    view = observe(game, game.turn)
    budgets: list[float] = []
    choose = ExpertBot.choose

    def watched(bot: ExpertBot, observation: Observation, rng: random.Random) -> Action:
        budgets.append(bot.budget_ms)
        return choose(bot, observation, rng)

    monkeypatch.setattr(ExpertBot, "choose", watched)
    assert decide("expert", view, 0.5, 30.0) in view.legal_actions
    assert decide("expert", view, 0.5) in view.legal_actions
    assert budgets == [30.0, DEFAULT_BUDGET_MS]
