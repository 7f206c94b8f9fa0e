"""Browser tests: the app under uvicorn on 127.0.0.1, Debian's Chromium driven by Playwright.

- No ``playwright install``: the browser is Debian's Chromium in its headless build,
  ``/usr/bin/chromium-headless-shell`` (``apt-get install -y --no-upgrade
  chromium-headless-shell``): the same engine without the desktop browser's window machinery,
  it ran the browser tests in 243 s against 341-360 s for ``/usr/bin/chromium`` on two cores
  (the party page's three-browser game 49 s against 60-110 s). Without it the tests are
  skipped, except when ``CI`` is set: then they fail, and so does the run if any test was
  skipped (``tests/conftest.py``).
- Every test here is marked ``e2e`` and runs in its own pytest invocation (``make test`` runs
  ``pytest -m "not e2e"`` and then ``pytest -m e2e tests/web``): the sync Playwright API and
  asyncio tests do not share a process well.
- ``live_server`` serves a fresh app on a temporary SQLite store and a free port; it can be
  stopped and started again on the same store and port, as a restart.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import IN_CI
from ports import free_port
from table_client import LiveServer
from web_helpers import REVIEW_SAMPLES, People, fresh_page, stop_watching_errors

CHROMIUM_PACKAGE = "chromium-headless-shell"
"""The Debian package that holds the browser (``.ci/run`` installs the same one)."""
CHROMIUM = Path(os.environ.get("RUMMY_CHROMIUM", f"/usr/bin/{CHROMIUM_PACKAGE}"))
"""Debian's headless Chromium (``RUMMY_CHROMIUM`` names another binary, e.g. the desktop
``/usr/bin/chromium``, or a missing one to check the CI rule)."""
INSTALL_CHROMIUM = f"apt-get install -y --no-upgrade {CHROMIUM_PACKAGE}"
"""What to run when the browser is missing."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """A page's errors count while the test runs, not while its fixtures are torn down."""
    stop_watching_errors()


def need_chromium(what: str) -> None:
    """Skip the test when Chromium is missing, or fail it in CI, where ``what`` must run."""
    if not CHROMIUM.exists():
        if IN_CI:
            pytest.fail(f"{CHROMIUM} is missing (CI must run {what})")
        pytest.skip(f"{CHROMIUM} is missing: {INSTALL_CHROMIUM}")


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The app on a temporary store and a free port, stopped after the test."""
    server = LiveServer(tmp_path / "tables.sqlite3", free_port())
    server.start()
    yield server
    server.stop()


@pytest.fixture
def review_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The app, reviewing with few samples a decision (``REVIEW_SAMPLES``)."""
    server = LiveServer(tmp_path / "tables.sqlite3", free_port(), review_samples=REVIEW_SAMPLES)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright (sync API), one for the whole run."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: {INSTALL_CHROMIUM}"
        if IN_CI:
            pytest.fail(reason + " (CI must run the browser tests)")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield launched
    launched.close()
    playwright.stop()


def expected_console(request: pytest.FixtureRequest) -> list[str]:
    """The console errors a test provokes on purpose: its ``expected_console`` marks."""
    return [
        pattern for mark in request.node.iter_markers("expected_console") for pattern in mark.args
    ]


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page (own storage) at a desktop size; page and console errors fail the test,
    but those its ``expected_console`` mark names."""
    viewport = {"width": 1280, "height": 860}
    with fresh_page(browser, viewport, expected=expected_console(request)) as fresh:
        yield fresh


@pytest.fixture
def people(browser: Any) -> Iterator[People]:
    """Several people, each in a browser context of their own; their pages' errors fail."""
    crowd = People(browser)
    yield crowd
    crowd.close()
    assert not crowd.errors, f"errors in the pages: {crowd.errors}"
