"""``/api/puzzles/...``: a puzzle shown without its answer, an answer judged, ratings moved.

The site serves puzzles made by hand from a known record (``puzzle_fixtures``), put on the
app's shelf before the first request; its wall clock is the test's (``ManualClock``), so
the day's puzzle is asked for on chosen dates.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from puzzle_fixtures import GO_OUT, THREW, small_set
from rummykit.cli import main
from rummykit.protocol import MAX_BODY_BYTES
from rummykit.protocol.limits import Limits
from rummykit.puzzles.model import Puzzle, PuzzleSet, Theme, write_puzzles
from rummykit.server.puzzles import PuzzleShelf
from rummykit.server.site import ConfigError
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from services import StoreBackend
from table_client import WORKERS, ManualClock, clocked_app

DAY = 24 * 3600.0
PASSWORD = "correct horse battery"
GIVEAWAYS = {"solutions", "played", "options", "loss", "exact", "source"}


@pytest.fixture(scope="module")
def puzzles() -> PuzzleSet:
    return small_set()


@pytest.fixture
def site(store_path: Path, clock: ManualClock, puzzles: PuzzleSet) -> Iterator[TestClient]:
    app = clocked_app(store_path, clock)
    app.state.puzzles = PuzzleShelf(puzzles)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def stored_site(
    store_backend: StoreBackend, tmp_path: Path, clock: ManualClock, puzzles: PuzzleSet
) -> Iterator[TestClient]:
    """The site on each database in turn: the ratings' SQL runs on SQLite and PostgreSQL."""
    postgres = store_backend.kind == "postgresql"
    app = create_app(
        ServerConfig(
            store_path=tmp_path / "unused.sqlite3" if postgres else store_backend.location,
            database_url=store_backend.location if postgres else None,
            accept_seeds=True,
            limits=Limits.unlimited(),
        ),
        sleep=clock.sleep,
        now=clock.time,
        clock=clock.time,
        workers=WORKERS,
    )
    app.state.puzzles = PuzzleShelf(puzzles)
    with TestClient(app) as client:
        yield client


def of_theme(puzzles: PuzzleSet, theme: Theme) -> list[Puzzle]:
    return [puzzle for puzzle in puzzles.puzzles if puzzle.theme is theme]


def go_out(puzzles: PuzzleSet) -> Puzzle:
    [puzzle] = of_theme(puzzles, Theme.GO_OUT)
    return puzzle


def sign_up(client: TestClient, name: str) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text


def send(client: TestClient, puzzle_id: str, action: str) -> Any:
    return client.post(f"/api/puzzles/{puzzle_id}/answer", json={"action": action})


# ----- a puzzle shown gives nothing away --------------------------------------------------------


def test_the_next_puzzle_shows_the_seats_view_without_its_solution(
    site: TestClient, puzzles: PuzzleSet
) -> None:
    answer = site.get("/api/puzzles/next", params={"theme": "go_out"})
    assert answer.status_code == 200, answer.text
    shown = answer.json()
    puzzle = go_out(puzzles)
    assert shown["id"] == puzzle.id and shown["theme"] == "go_out" and shown["seat"] == 0
    assert shown["view"] == puzzle.view.model_dump(mode="json")
    assert shown["rating"] == round(puzzle.rating)
    assert not GIVEAWAYS & set(shown)
    assert GO_OUT not in answer.text and THREW not in answer.text


def test_a_guest_gets_a_puzzle_of_the_theme_asked_and_of_any_theme_without_one(
    site: TestClient, puzzles: PuzzleSet
) -> None:
    for _ in range(10):
        assert site.get("/api/puzzles/next?theme=draw").json()["theme"] == "draw"
    ids = {puzzle.id for puzzle in puzzles.puzzles}
    assert site.get("/api/puzzles/next").json()["id"] in ids


def test_the_themes_are_counted(site: TestClient) -> None:
    answer = site.get("/api/puzzles/themes")
    assert answer.json() == {
        "themes": [
            {"theme": "go_out", "count": 1},
            {"theme": "discard", "count": 2},
            {"theme": "draw", "count": 2},
        ]
    }


# ----- answers ------------------------------------------------------------------------------


def test_the_solution_is_right_and_says_why(site: TestClient, puzzles: PuzzleSet) -> None:
    puzzle = go_out(puzzles)
    verdict = send(site, puzzle.id, GO_OUT).json()
    assert verdict["correct"] is True
    assert verdict["solutions"] == [GO_OUT] and verdict["played"] == THREW
    assert verdict["loss"] == puzzle.loss and verdict["exact"] is False
    assert [option["action"] for option in verdict["options"]] == [THREW, GO_OUT]
    assert verdict["rating"] is None  # a guest


def test_a_legal_choice_that_is_not_a_solution_is_wrong(
    site: TestClient, puzzles: PuzzleSet
) -> None:
    verdict = send(site, go_out(puzzles).id, THREW).json()
    assert verdict["correct"] is False and verdict["action"] == THREW
    assert verdict["solutions"] == [GO_OUT]


def test_an_action_the_rules_refuse_there_is_refused_with_the_engines_code(
    site: TestClient, puzzles: PuzzleSet
) -> None:
    puzzle = go_out(puzzles)
    answer = send(site, puzzle.id, "0 discard Kd")  # seat 0 holds Ad 6c 6h 6s
    assert answer.status_code == 409
    refusal = answer.json()
    assert refusal["code"] == "card_not_in_hand" and refusal["reason"] == "not_held"
    assert refusal["params"] == {"card": "Kd"} and "K♦" in refusal["error"]
    other = send(site, puzzle.id, "1 draw stock").json()
    assert other["reason"] == "not_seat_turn"
    unreadable = send(site, puzzle.id, "0 juggle 6h").json()
    assert unreadable["code"] == "bad_action"


# ----- ratings ------------------------------------------------------------------------------


def test_a_signed_in_players_first_answer_moves_both_ratings_and_later_ones_do_not(
    stored_site: TestClient, puzzles: PuzzleSet
) -> None:
    sign_up(stored_site, "Ada")
    puzzle = go_out(puzzles)
    first = send(stored_site, puzzle.id, GO_OUT).json()["rating"]
    assert first["counted"] is True and first["before"] == 1500
    assert first["after"] > first["before"] and first["provisional"] is True
    assert first["puzzle_before"] == round(puzzle.rating) > first["puzzle_after"]
    again = send(stored_site, puzzle.id, THREW).json()["rating"]
    assert again["counted"] is False
    assert again["before"] == again["after"] == first["after"]
    assert again["puzzle_before"] == again["puzzle_after"] == first["puzzle_after"]
    shown = stored_site.get("/api/puzzles/next?theme=go_out").json()
    assert shown["rating"] == first["puzzle_after"]  # the puzzle's rating moved for all


def test_a_players_page_shows_their_puzzle_rating_once_they_answered(
    stored_site: TestClient, puzzles: PuzzleSet
) -> None:
    sign_up(stored_site, "Dora")
    before = stored_site.get("/api/players/Dora/puzzles")
    assert before.status_code == 200, before.text
    assert before.json() == {"name": "Dora", "rating": None, "provisional": True, "answered": 0}
    rating = send(stored_site, go_out(puzzles).id, GO_OUT).json()["rating"]
    send(stored_site, go_out(puzzles).id, THREW)  # a second answer counts no more
    after = stored_site.get("/api/players/Dora/puzzles").json()
    assert after == {"name": "Dora", "rating": rating["after"], "provisional": True, "answered": 1}
    assert stored_site.get("/api/players/Nobody/puzzles").status_code == 404
    assert stored_site.get("/api/players/Dora/puzzles?x=1").status_code == 400


def test_a_wrong_first_answer_lowers_the_players_rating(
    stored_site: TestClient, puzzles: PuzzleSet
) -> None:
    sign_up(stored_site, "Bea")
    rating = send(stored_site, go_out(puzzles).id, THREW).json()["rating"]
    assert rating["counted"] is True and rating["after"] < rating["before"] == 1500
    assert rating["puzzle_after"] > rating["puzzle_before"]


def test_a_player_is_not_given_a_puzzle_answered_lately_while_the_theme_has_others(
    stored_site: TestClient, puzzles: PuzzleSet, clock: ManualClock
) -> None:
    sign_up(stored_site, "Cyrus")
    done, other = of_theme(puzzles, Theme.DRAW)
    send(stored_site, done.id, done.solutions[0])
    for _ in range(10):
        assert stored_site.get("/api/puzzles/next?theme=draw").json()["id"] == other.id
    send(stored_site, other.id, other.solutions[0])
    found = {stored_site.get("/api/puzzles/next?theme=draw").json()["id"] for _ in range(20)}
    assert found <= {done.id, other.id}  # every one answered: they come round again


# ----- the day's puzzle -----------------------------------------------------------------------


def test_the_daily_puzzle_is_the_same_all_day_and_follows_the_date(
    site: TestClient, clock: ManualClock, puzzles: PuzzleSet
) -> None:
    clock.advance(20_000 * DAY)  # 2024-10-04, midnight UTC
    first = site.get("/api/puzzles/daily").json()
    assert first["date"] == "2024-10-04"
    clock.advance(DAY - 1)
    assert site.get("/api/puzzles/daily").json() == first
    days = {}
    for _ in range(10):
        clock.advance(DAY)
        shown = site.get("/api/puzzles/daily").json()
        days[shown["date"]] = shown["id"]
    start = datetime.date(2024, 10, 5)
    assert sorted(days) == [str(start + datetime.timedelta(days=n)) for n in range(10)]
    assert len(set(days.values())) > 1
    assert not GIVEAWAYS & set(first)


# ----- what is refused ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/puzzles/next?theme=knitting",
        "/api/puzzles/next?theme=draw&level=hard",
        "/api/puzzles/daily?date=2024-01-01",
        "/api/puzzles/themes?all=1",
    ],
)
def test_an_unknown_theme_or_query_is_refused(site: TestClient, path: str) -> None:
    answer = site.get(path)
    assert answer.status_code == 400 and answer.json()["error"]


@pytest.mark.parametrize("puzzle_id", ["0123456789ab", "NOT-AN-ID", "0123456789abcdef"])
def test_an_answer_to_no_such_puzzle_is_404(site: TestClient, puzzle_id: str) -> None:
    assert send(site, puzzle_id, GO_OUT).status_code == 404


def test_bodies_too_long_or_unreadable_are_refused(site: TestClient, puzzles: PuzzleSet) -> None:
    path = f"/api/puzzles/{go_out(puzzles).id}/answer"
    huge = site.post(path, content=b'{"action": "' + b"x" * MAX_BODY_BYTES + b'"}')
    assert huge.status_code == 413
    assert site.post(path, json={"action": "0 discard 6h " * 20}).status_code == 400
    assert site.post(path, content=b"not json").status_code == 400
    assert site.post(path, json={"action": GO_OUT, "more": 1}).status_code == 400
    assert site.post(path, json={}).status_code == 400


def test_the_site_serves_its_starter_set_unless_given_another(
    store_path: Path, clock: ManualClock
) -> None:
    with TestClient(clocked_app(store_path, clock)) as client:
        themes = client.get("/api/puzzles/themes").json()["themes"]
        shown = client.get("/api/puzzles/daily")
    assert shown.status_code == 200
    assert sum(theme["count"] for theme in themes) > 0


def test_a_site_serves_the_puzzle_file_it_is_given(
    tmp_path: Path, clock: ManualClock, puzzles: PuzzleSet
) -> None:
    made = tmp_path / "ours.json"
    write_puzzles(puzzles, made)  # as `rummy puzzles make` writes it
    config = ServerConfig(store_path=tmp_path / "site.sqlite3", puzzles=made, accept_seeds=True)
    app = create_app(config, sleep=clock.sleep, now=clock.time, clock=clock.time, workers=WORKERS)
    with TestClient(app) as client:
        shown = client.get("/api/puzzles/next").json()
        assert shown["id"] in {puzzle.id for puzzle in puzzles.puzzles}
        themes = client.get("/api/puzzles/themes").json()["themes"]
        assert sum(row["count"] for row in themes) == len(puzzles.puzzles)


@pytest.mark.parametrize("text", ["not json", '{"format": "rummykit-puzzles/1", "puzzles": []}'])
def test_a_puzzle_file_that_cannot_be_served_is_refused_at_the_start(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="puzzles: "):
        ServerConfig(store_path=tmp_path / "site.sqlite3", puzzles=bad)
    code = main(["serve", "--store", str(tmp_path / "site.sqlite3"), "--puzzles", str(bad)])
    assert code == 2
    assert "rummy serve: puzzles: " in capsys.readouterr().err
