"""Checks on the project's tooling: lint, formatting, typing, import rules, entry point."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "rummykit" / "core"
LINT_PATHS = [p for p in ("src", "tests", "benchmarks") if (ROOT / p).exists()]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _report(proc: subprocess.CompletedProcess[str]) -> str:
    return f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"


def test_ruff_check_passes() -> None:
    # --no-cache: a fresh checkout (CI) has no cache, and a stale one can hide a finding.
    proc = _run(sys.executable, "-m", "ruff", "check", "--no-cache", *LINT_PATHS)
    assert proc.returncode == 0, _report(proc)


def test_ruff_format_check_passes() -> None:
    proc = _run(sys.executable, "-m", "ruff", "format", "--check", "--no-cache", *LINT_PATHS)
    assert proc.returncode == 0, _report(proc)


def test_mypy_passes() -> None:
    # Uses [tool.mypy] in pyproject.toml (files = src; strict for rummykit.core.*).
    proc = _run(sys.executable, "-m", "mypy")
    assert proc.returncode == 0, _report(proc)


def _absolute_imports(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, imported module, statement) for every absolute import, nested ones included."""
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name, f"import {a.name}") for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = ", ".join(a.name for a in node.names)
            found.append((node.lineno, node.module, f"from {node.module} import {names}"))
    return found


def _allowed_in_core(module: str) -> bool:
    top = module.split(".")[0]
    if top in sys.stdlib_module_names:
        return True
    return module == "rummykit.core" or module.startswith("rummykit.core.")


def test_core_imports_only_the_standard_library() -> None:
    files = sorted(CORE.rglob("*.py"))
    assert files, f"no modules found under {CORE}"
    offending = [
        f"{path.relative_to(ROOT)}:{lineno}: {statement}"
        for path in files
        for lineno, module, statement in _absolute_imports(
            ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        )
        if not _allowed_in_core(module)
    ]
    assert not offending, "rummykit.core must import only the standard library:\n" + "\n".join(
        offending
    )


LAYERS: dict[str, frozenset[str]] = {
    "rummykit.core": frozenset({"rummykit.core"}),
    "rummykit.bots": frozenset({"rummykit.core", "rummykit.bots"}),
    "rummykit.tournament": frozenset({"rummykit.core", "rummykit.bots", "rummykit.tournament"}),
    "rummykit.ratings": frozenset({"rummykit.core", "rummykit.ratings"}),
    "rummykit.review": frozenset({"rummykit.core", "rummykit.bots", "rummykit.review"}),
    # the wire's vocabularies are read from their sources: the ratings' pools
    # (``rummykit.ratings.Pool``), the hints' kinds (``rummykit.bots.hint_words``) and the
    # review's marks (``rummykit.review.Mark``)
    "rummykit.protocol": frozenset(
        {
            "rummykit.core",
            "rummykit.bots",
            "rummykit.ratings",
            "rummykit.review",
            "rummykit.protocol",
        }
    ),
    # what the review's judgements are made into: the analysis board and the puzzles (a
    # puzzle's position is the seat's view the wire sends)
    "rummykit.analysis": frozenset(
        {"rummykit.core", "rummykit.bots", "rummykit.review", "rummykit.analysis"}
    ),
    "rummykit.puzzles": frozenset(
        {
            "rummykit.core",
            "rummykit.bots",
            "rummykit.review",
            "rummykit.protocol",
            "rummykit.puzzles",
        }
    ),
    "rummykit.client": frozenset(
        {
            "rummykit.core",
            "rummykit.bots",
            "rummykit.ratings",
            "rummykit.protocol",
            "rummykit.data_folder",
            "rummykit.client",
        }
    ),
    "rummykit.server": frozenset(
        {
            "rummykit.core",
            "rummykit.bots",
            "rummykit.ratings",
            "rummykit.review",
            "rummykit.analysis",
            "rummykit.puzzles",
            "rummykit.protocol",
            "rummykit.data_folder",
            "rummykit.server",
        }
    ),
}
"""Each layer and the packages of ours it may import: the layers depend downward only."""


def _package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_each_layer_imports_only_the_layers_below_it() -> None:
    offending: list[str] = []
    checked = 0
    for layer, allowed in LAYERS.items():
        folder = ROOT / "src" / Path(*layer.split("."))
        for path in sorted(folder.rglob("*.py")):
            checked += 1
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for lineno, module, statement in _absolute_imports(tree):
                if module.startswith("rummykit") and _package_of(module) not in allowed:
                    offending.append(f"{path.relative_to(ROOT)}:{lineno}: {statement}")
    assert checked >= 20, "the layer folders hold the project's modules"
    assert not offending, "a layer imports one above it:\n" + "\n".join(offending)


def test_python_m_rummykit_help_exits_zero() -> None:
    proc = _run(sys.executable, "-m", "rummykit", "--help")
    assert proc.returncode == 0, _report(proc)


def _run_a_skipping_test(
    tmp_path: Path, ci: str, workers: list[str]
) -> subprocess.CompletedProcess[str]:
    probe = tmp_path / "test_probe.py"
    probe.write_text('import pytest\n\n\ndef test_probe():\n    pytest.skip("a tool is missing")\n')
    env = {**os.environ, "CI": ci, "PYTHONPATH": str(ROOT / "tests")}
    options = ["-q", "-p", "conftest", "-c", os.devnull, "--rootdir", str(tmp_path)]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *options, *workers, "-p", "no:cacheprovider", str(probe)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist workers"])
def test_a_skipped_test_fails_the_run_in_ci_and_only_there(
    tmp_path: Path, workers: list[str]
) -> None:
    # CI must run every test (browser and lint included): a skip there is a failure, also
    # when `make test` spreads the tests over workers.
    in_ci = _run_a_skipping_test(tmp_path, "true", workers)
    assert in_ci.returncode == 1, _report(in_ci)
    assert "CI runs every test" in in_ci.stdout
    assert _run_a_skipping_test(tmp_path, "", workers).returncode == 0
