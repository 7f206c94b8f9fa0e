"""The benchmark smoke tests: each runs a script of ``benchmarks/`` in miniature.

Every test in this folder is marked ``slow``: most start servers and measure over windows of
the real clock. ``make test`` runs them in a pytest run of their own, after the other tests
and before the browser's, spread test by test over the cores, so that no loaded window shares
a core with the whole suite.
"""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of this folder ``slow`` (the hook sees every item: only ours are)."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.slow)
