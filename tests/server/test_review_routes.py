"""``/api/games/{id}/review/{seat}``: a finished game's review, made once in the background.

The review is asked for with ``POST`` and followed with ``GET``; it runs in the worker pool one
decision at a time, is stored with the game, and is the same review ``rummy review`` makes of
the game's record. Whoever may download the record may ask for it; nobody else learns even
whether the game exists.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit.core.record import load_record
from rummykit.protocol import ErrorAnswer
from rummykit.protocol.answer_words import answer_text
from rummykit.protocol.limits import Limits
from rummykit.review.walk import review_record
from rummykit.server.reviews import reviews as reviews_module
from rummykit.server.reviews.reviews import Reviews
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import ManualClock, bearer, create_table, play_to_game_over

pytestmark = pytest.mark.timeout(180)

SAMPLES = 3
"""Samples a decision: enough to test the plumbing quickly (the judging has its own tests)."""


def serving(store_path: Path) -> TestClient:
    app = create_app(
        ServerConfig(
            store_path=store_path,
            accept_seeds=True,
            limits=Limits.unlimited(),
            review_samples=SAMPLES,
        ),
        sleep=ManualClock().sleep,
    )
    return TestClient(app)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    """One server for the file's tests (its worker pool starts once), and its store."""
    store_path = tmp_path_factory.mktemp("reviews") / "games.sqlite3"
    with serving(store_path) as served:
        yield served, store_path


@pytest.fixture(scope="module")
def game(site: tuple[TestClient, Path]) -> tuple[str, str]:
    """A two-seat game to 10, played to its end: its id and the person's token."""
    client = site[0]
    table_id, token = create_table(client, rules={"target": 10}, name="Ann", seed=3)
    play_to_game_over(client, table_id, token)
    return table_id, token


@pytest.fixture
def client(site: tuple[TestClient, Path]) -> TestClient:
    return site[0]


def ask(client: TestClient, table_id: str, token: str | None, seat: Any, post: bool = False) -> Any:
    path = f"/api/games/{table_id}/review/{seat}"
    headers = bearer(token) if token else {}
    return client.post(path, headers=headers) if post else client.get(path, headers=headers)


def wait_for_review(client: TestClient, table_id: str, seat: int) -> None:
    """Await the review's task on the app's own loop (no polling, no sleeping)."""
    reviews: Reviews = client.app.state.reviews  # type: ignore[attr-defined]
    job = reviews.jobs.get((table_id, seat))
    if job is None or job.task is None:
        return

    async def finish() -> None:
        assert job.task is not None
        await job.task

    assert client.portal is not None
    client.portal.call(finish)


def test_a_review_is_asked_for_followed_and_kept(
    client: TestClient, game: tuple[str, str], site: tuple[TestClient, Path]
) -> None:
    table_id, token = game
    assert ask(client, table_id, token, 0).json()["state"] == "none"
    started = ask(client, table_id, token, 0, post=True)
    assert started.status_code in (200, 202), started.text
    assert started.json()["state"] in ("running", "done")
    wait_for_review(client, table_id, 0)
    done = ask(client, table_id, token, 0).json()
    assert done["state"] == "done" and done["error"] is None
    review = done["review"]
    assert done["done"] == done["total"] == review["summary"]["decisions"] > 0
    record = client.get(f"/api/games/{table_id}/record", headers=bearer(token)).json()
    made_here = review_record(load_record(record), 0, samples=SAMPLES).to_json()
    assert review == made_here  # the command line's review of the same record
    assert ask(client, table_id, token, 0, post=True).json() == done  # made once
    with serving(site[1]) as again:  # kept with the game: a new process reads it
        assert ask(again, table_id, token, 0).json() == done


def test_any_seat_of_a_game_one_may_see_can_be_reviewed(
    client: TestClient, game: tuple[str, str]
) -> None:
    table_id, token = game
    assert ask(client, table_id, token, 1, post=True).status_code in (200, 202)
    wait_for_review(client, table_id, 1)
    review = ask(client, table_id, token, 1).json()["review"]
    assert review["seat"] == 1 and review["player"] != "Ann"


UNSEEN = ErrorAnswer.said("game_unseen").model_dump()
"""The answer for a game one may not see, or that does not exist: one answer."""


def test_nobody_without_a_seat_learns_anything(client: TestClient, game: tuple[str, str]) -> None:
    table_id, token = game
    for post in (False, True):
        answer = ask(client, table_id, None, 0, post=post)
        assert (answer.status_code, answer.json()) == (404, UNSEEN)
        unknown = ask(client, "nosuchgame", None, 0, post=post)
        assert (unknown.status_code, unknown.json()) == (404, UNSEEN)
    for seat in (2, -1, "x"):
        answer = ask(client, table_id, token, seat, post=True)
        assert answer.status_code == 404 and "seats are 0 to 1" in answer.json()["error"]


def test_a_game_still_going_on_cannot_be_reviewed_and_its_seat_is_told_so(
    client: TestClient,
) -> None:
    table_id, token = create_table(client, name="Ann", seed=3)
    answer = ask(client, table_id, token, 0, post=True)
    not_over = ErrorAnswer.said("game_not_over").model_dump()
    assert (answer.status_code, answer.json()) == (409, not_over)


def test_too_many_reviews_at_once_are_refused_with_a_sentence(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, token = create_table(client, rules={"target": 10}, name="Ann", seed=4)
    play_to_game_over(client, table_id, token)
    monkeypatch.setattr(reviews_module, "MAX_REVIEWS", 0)
    answer = ask(client, table_id, token, 0, post=True)
    busy = {"error": answer_text("reviews_busy"), "reason": "reviews_busy"}
    assert (answer.status_code, answer.json()) == (503, busy)
    assert ask(client, table_id, token, 0).json()["state"] == "none"


def test_a_review_that_breaks_says_why_with_a_reason_the_page_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, token = create_table(client, rules={"target": 10}, name="Ann", seed=5)
    play_to_game_over(client, table_id, token)
    reviews: Reviews = client.app.state.reviews  # type: ignore[attr-defined]

    async def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("a worker went away")

    monkeypatch.setattr(reviews.workers, "run", broken)
    ask(client, table_id, token, 0, post=True)
    wait_for_review(client, table_id, 0)
    failed = ask(client, table_id, token, 0).json()
    params = {"error": "RuntimeError"}
    assert failed["state"] == "failed"
    assert (failed["reason"], failed["params"]) == ("review_broke", params)
    assert failed["error"] == answer_text("review_broke", params)
