"""Post-game reviews on the server: computed in the background once, then kept with the game.

A review judges each decision of one seat (``rummykit.review``). The server runs the judging
in its worker pool one decision at a time, so that a review never holds up the computer
players of live tables, and so that anyone asking sees how far it has come. A finished review
is stored; asking again reads it. Reviews are reproducible (a fixed number of samples, seeded
from where each decision stands), so a review lost to a restart is simply made again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import Any, Final

from rummykit.core.record import load_record
from rummykit.protocol import ParamValue, ReviewState, answer_text
from rummykit.review.walk import (
    DEFAULT_SAMPLES,
    DecisionPoint,
    ReviewedDecision,
    ReviewError,
    decision_points,
    judge_point,
    summarize,
)
from rummykit.server.runtime import SERVER_CLIENT, WorkerPool
from rummykit.server.store import Store

log = logging.getLogger(__name__)

MAX_REVIEWS: Final = 8
"""Reviews a process makes at once (a further request is asked to come back later): each
takes a minute or two of one worker, so a crowd of them would only wait longer."""

MAX_REVIEWS_A_CLIENT: Final = 2
"""Reviews one client (an address) may have under way at once: a fair share of
``MAX_REVIEWS``, so that one client cannot hold every slot (it could, before) and at least
four can review at the same time; a person reviews one game, perhaps two seats of it."""


State = ReviewState


class ReviewsBusy(Exception):
    """No review can start now: ``MAX_REVIEWS`` are under way, or the client's share.

    ``reason`` and ``params`` are the answer's (``ANSWER_REFUSALS``); ``str`` its English.
    """

    reason: str = "reviews_busy"

    def __init__(self, **params: ParamValue) -> None:
        self.params: dict[str, ParamValue] = dict(params)
        super().__init__(answer_text(self.reason, self.params))


class OwnReviewsBusy(ReviewsBusy):
    """No review can start now for this client: ``params["count"]`` of its are under way."""

    reason = "own_reviews_busy"


@dataclasses.dataclass
class ReviewJob:
    """A review under way: how many decisions are judged out of how many."""

    done: int = 0
    total: int | None = None
    """``None`` until the decisions have been found."""
    error: str | None = None
    reason: str = ""
    """Why it failed, as ``ReviewAnswer.reason`` (empty: ``error`` is for programs)."""
    params: dict[str, ParamValue] = dataclasses.field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    client: str = SERVER_CLIENT
    """Who asked for it (an address): whose share of the slots it takes."""


def review_points(record: dict[str, Any], seat: int) -> list[DecisionPoint]:
    """The seat's decisions in a record (a worker's job: it replays the whole game)."""
    return decision_points(load_record(record), seat)


def review_json(
    record: dict[str, Any], seat: int, decisions: list[ReviewedDecision]
) -> dict[str, Any]:
    """The review as stored and answered (``rummy review --json``)."""
    return summarize(load_record(record), seat, decisions).to_json()


class Reviews:
    """The reviews of one server process: those under way, and the store's finished ones."""

    def __init__(self, store: Store, workers: WorkerPool, samples: int = DEFAULT_SAMPLES):
        """Reviews kept in ``store``, judged in ``workers`` with ``samples`` a decision."""
        self.store = store
        self.workers = workers
        self.samples = samples
        self.jobs: dict[tuple[str, int], ReviewJob] = {}
        self._one_at_a_time = asyncio.Lock()

    async def status(self, table_id: str, seat: int) -> tuple[State, ReviewJob | None, Any]:
        """Where the review of ``seat`` stands: its state, its job, and the review once done."""
        job = self.jobs.get((table_id, seat))
        if job is not None:
            return ("failed" if job.error else "running"), job, None
        stored = await asyncio.to_thread(self.store.reviews.get, table_id, seat)
        return ("done" if stored is not None else "none"), None, stored

    async def start(
        self, table_id: str, seat: int, record: dict[str, Any], client: str = SERVER_CLIENT
    ) -> None:
        """Begin the review of ``seat`` in ``record`` unless it is made or under way.

        ``client``: who asks (an address). ``ReviewsBusy`` when ``MAX_REVIEWS`` are under
        way already, or ``MAX_REVIEWS_A_CLIENT`` of ``client``'s.
        """
        key = (table_id, seat)
        job = self.jobs.get(key)
        if job is not None and job.error is None:
            return
        if await asyncio.to_thread(self.store.reviews.get, table_id, seat) is not None:
            return
        running = [job for job in self.jobs.values() if job.error is None]
        if len(running) >= MAX_REVIEWS:
            raise ReviewsBusy
        theirs = sum(job.client == client for job in running)
        if theirs >= MAX_REVIEWS_A_CLIENT:
            raise OwnReviewsBusy(count=theirs)
        job = ReviewJob(client=client)
        self.jobs[key] = job
        job.task = asyncio.get_running_loop().create_task(self._run(key, job, record))

    async def _run(self, key: tuple[str, int], job: ReviewJob, record: dict[str, Any]) -> None:
        table_id, seat = key
        try:
            client = job.client
            points = await self.workers.run(review_points, record, seat, client=client)
            job.total = len(points)
            judged: list[ReviewedDecision] = []
            for point in points:
                async with self._one_at_a_time:
                    judged.append(
                        await self.workers.run(
                            judge_point, point, self.samples, None, client=client
                        )
                    )
                job.done += 1
            made = await self.workers.run(review_json, record, seat, judged, client=client)
            await asyncio.to_thread(self.store.reviews.save, table_id, seat, made)
        except ReviewError as error:
            job.error = str(error)
            return
        except Exception as error:  # a worker or the store failed: say so, let it be asked again
            log.exception("review of %s seat %d failed", table_id, seat)
            job.reason, job.params = "review_broke", {"error": type(error).__name__}
            job.error = answer_text(job.reason, job.params)
            return
        del self.jobs[key]

    def forget_failure(self, table_id: str, seat: int) -> None:
        """Drop a failed review's job, once its failure has been told, so it may start again."""
        job = self.jobs.get((table_id, seat))
        if job is not None and job.error is not None:
            del self.jobs[(table_id, seat)]

    async def close(self) -> None:
        """Stop the reviews under way (they are made again when next asked for)."""
        tasks = [job.task for job in self.jobs.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.jobs.clear()
