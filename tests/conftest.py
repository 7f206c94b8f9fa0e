"""Shared pytest configuration: Hypothesis settings profiles, and no skipped test in CI.

Select a profile with ``HYPOTHESIS_PROFILE``; by default ``ci`` when ``CI`` is set, else
``dev`` (``make test`` sets ``ci`` unless told otherwise: the README's run is CI's). On a
developer's machine a test may skip when a tool is missing (Chromium, Node.js); with ``CI``
set, any skipped test fails the run: CI runs every test, browser and lint included.
"""

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, settings

from helpers import IN_CI
from rummykit.build import engine_build, pure_requested, stale_compiled_sources
from services import postgres_server, postgres_url, store_backend  # noqa: F401 - fixtures

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    # the same examples on every CI run: a red CI must be reproducible, and a run must not turn
    # red because one new random example found a slow position (a hint on a random-rules
    # deal once searched past the five-minute limit and left no seed to replay). Examples
    # new to each run come from the dev profile, which stays random.
    derandomize=True,
    print_blob=True,
    # no explain phase: it traces every line while shrinking a failure, and a failure that is
    # pytest-timeout's limit on a long example then shrinks for tens of minutes
    phases=tuple(phase for phase in Phase if phase is not Phase.explain),
)
settings.register_profile(
    "dev",
    max_examples=30,
    deadline=None,
)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev"))


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to test a compiled engine older than its sources: it would run the old code."""
    if pure_requested():
        return
    stale = stale_compiled_sources()
    if stale:
        names = ", ".join(str(path.relative_to(Path.cwd())) for path in stale[:3])
        pytest.exit(
            f"The compiled engine is older than {names}: run `make compile` to rebuild it, "
            "`make pure` to remove it, or set RUMMYKIT_PURE=1 to test the sources.",
            returncode=4,
        )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the files marked ``heavy`` first, then the others by their number of tests.

    ``make test`` spreads whole files over pytest-xdist's workers in this order
    (``--dist loadfile --no-loadscope-reorder``). xdist's own order, most tests first, took
    the crash-safety file (two tests, a minute) last: one worker ran it alone for a minute at
    the end while the others had finished. A file's tests keep their order.
    """
    tests_in: dict[str, int] = {}
    heavy: set[str] = set()
    for item in items:
        name = item.nodeid.split("::", 1)[0]
        tests_in[name] = tests_in.get(name, 0) + 1
        if item.get_closest_marker("heavy"):
            heavy.add(name)
    first_seen = {name: index for index, name in enumerate(tests_in)}
    items.sort(
        key=lambda item: (
            (name := item.nodeid.split("::", 1)[0]) not in heavy,
            -tests_in[name],
            first_seen[name],
        )
    )


def pytest_report_header() -> str:
    """Which engine the run tests: compiled (mypyc) or the pure sources."""
    return f"rummykit engine: {engine_build()}"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data folder for the commands a test runs (``tmp_path/data``)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("RUMMY_DATA_DIR", str(folder))
    return folder


_skipped: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note every skipped test."""
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI, a run with a skipped test fails."""
    if IN_CI and _skipped and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say which tests were skipped, and that CI fails for them."""
    if IN_CI and _skipped:
        terminalreporter.write_line(
            f"CI: {len(_skipped)} test(s) skipped, and CI runs every test: the run fails. "
            + ", ".join(_skipped[:5]),
            red=True,
        )
