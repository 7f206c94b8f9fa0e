"""The compiled engine and the pure one play the same games, move for move.

``scripts/compile_engine.py`` compiles the engine's hot modules from the same sources with
mypyc; a compiled module checks its types at run time and may differ in a corner Python
forgives. Here random games under random rules are traced in this process (compiled) and in
a process that runs the pure sources (``RUMMYKIT_PURE=1``), and the traces must be equal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import build_trace
from rummykit.build import PURE_VARIABLE, engine_build
from rummykit.core.rules import MAX_SEATS, MIN_SEATS

TESTS = Path(__file__).resolve().parent.parent


def pure_traces(cases: list[tuple[int, int]]) -> tuple[str, list[list[str]]]:
    """The build a process asked for pure sources ran, and its traces of these cases."""
    environment = dict(os.environ, **{PURE_VARIABLE: "1"})
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(TESTS), *filter(None, [environment.get("PYTHONPATH")])]
    )
    finished = subprocess.run(
        [sys.executable, "-m", "build_trace"],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        env=environment,
        check=True,
        timeout=240,
    )
    answer = json.loads(finished.stdout)
    return answer["build"], answer["traces"]


@pytest.fixture(scope="module")
def compiled() -> None:
    """This process runs the compiled engine (CI builds it; elsewhere ``make compile``)."""
    if engine_build() != "compiled":
        if os.environ.get("CI"):
            pytest.fail("CI runs the compiled engine: scripts/compile_engine.py built none")
        pytest.skip("no compiled engine here: make compile builds one")


cases = st.lists(
    st.tuples(st.integers(0, 2**32 - 1), st.integers(MIN_SEATS, MAX_SEATS)),
    min_size=12,
    max_size=12,
)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases)
def test_the_compiled_and_the_pure_engine_play_the_same_games(
    compiled: None, games: list[tuple[int, int]]
) -> None:
    build, traces = pure_traces(games)
    assert build == "pure"
    assert sum(map(len, traces)) >= len(games), "every game plays at least one action"
    for (seed, seats), theirs in zip(games, traces, strict=True):
        ours = build_trace.trace(seed, seats)
        parted = next(
            (
                step
                for step, pair in enumerate(zip(ours, theirs, strict=False))
                if len(set(pair)) > 1
            ),
            None,
        )
        assert ours == theirs, f"seed {seed}, {seats} seats: the builds part at step {parted}"


def test_the_pure_switch_loads_every_engine_module_from_its_source() -> None:
    code = (
        "import rummykit.core.state, rummykit.bots.strong;"
        "from rummykit.build import compiled_modules, engine_build;"
        "print(engine_build(), compiled_modules())"
    )
    environment = dict(os.environ, **{PURE_VARIABLE: "1"})
    finished = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True
    )
    assert finished.stdout.split() == ["pure", "[]"]
