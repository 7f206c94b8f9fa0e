"""Which engine runs: the compiled build's switches, its staleness check and what it tells."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.build import PURE_VARIABLE, engine_build, pure_requested, stale_compiled_sources
from rummykit.cli import main

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def test_the_pure_switch_reads_any_value_but_empty_or_zero() -> None:
    assert not pure_requested({})
    assert not pure_requested({PURE_VARIABLE: ""})
    assert not pure_requested({PURE_VARIABLE: "0"})
    assert pure_requested({PURE_VARIABLE: "1"})
    assert pure_requested({PURE_VARIABLE: "yes"})


def test_a_source_edited_after_its_build_is_named_stale_and_only_it(tmp_path: Path) -> None:
    package = tmp_path / "core"
    package.mkdir()
    for name in ("fresh", "edited"):
        (package / f"{name}.py").write_text("x = 1\n")
        (package / f"{name}{SUFFIX}").write_bytes(b"")
        os.utime(package / f"{name}.py", (1_000, 1_000))
        os.utime(package / f"{name}{SUFFIX}", (2_000, 2_000))
    (package / f"helpers__mypyc{SUFFIX}").write_bytes(b"")  # a build's own runtime: no source
    os.utime(package / "edited.py", (3_000, 3_000))
    assert stale_compiled_sources(tmp_path) == [package / "edited.py"]


def test_rummy_version_says_which_engine_runs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("rummy ") and out.rstrip().endswith(f"(engine: {engine_build()})")


def test_the_pure_switch_is_read_when_the_package_is_imported() -> None:
    environment = dict(os.environ, **{PURE_VARIABLE: "1"})
    code = (
        "import rummykit.core.state; from rummykit.build import engine_build; print(engine_build())"
    )
    finished = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True
    )
    assert finished.stdout.strip() == "pure"
