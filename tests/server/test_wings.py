"""The server's wings: each has a face (its ``__init__``), and the wings depend downward only.

A module of one wing may import a module of its own wing, or another wing's face
(``rummykit.server.tables``), never another wing's private module
(``rummykit.server.tables.table``). The same holds for the protocol package and for every
module outside the server (the command line, the client). Wings are ordered: a lower wing
never imports a higher one, so the faces import without a cycle.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"

WINGS: tuple[str, ...] = (
    "rummykit.protocol",
    "rummykit.server.runtime",
    "rummykit.server.http",
    "rummykit.server.cluster",
    "rummykit.server.store",
    "rummykit.server.tables",
    "rummykit.server.accounts",
    "rummykit.server.parties",
    "rummykit.server.pairing",
    "rummykit.server.reviews",
    "rummykit.server.puzzles",
    "rummykit.server.site",
)
"""The wings, lowest first."""

MAX_WING_LINES = 2_500
MAX_CLASS_LINES = 400


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _wing_of(module: str) -> str | None:
    for wing in WINGS:
        if module == wing or module.startswith(wing + "."):
            return wing
    return None


def _our_modules() -> list[Path]:
    return [
        path for path in sorted((SRC / "rummykit").rglob("*.py")) if "migrations" not in path.parts
    ]


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def test_the_server_folder_holds_only_wings() -> None:
    server = SRC / "rummykit" / "server"
    loose = sorted(p.name for p in server.glob("*.py") if p.name != "__init__.py")
    assert loose == [], f"a server module outside every wing: {loose}"
    folders = sorted(p.name for p in server.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == sorted(w.rsplit(".", 1)[1] for w in WINGS if w.startswith("rummykit.server"))


def test_nothing_reaches_into_another_wings_private_modules() -> None:
    offending: list[str] = []
    for path in _our_modules():
        mine = _wing_of(_module_of(path))
        for lineno, module in _imports(path):
            theirs = _wing_of(module)
            if theirs is not None and theirs != mine and module != theirs:
                offending.append(f"{path.relative_to(ROOT)}:{lineno}: {module}")
    assert not offending, "imports past a wing's face:\n" + "\n".join(offending)


def test_a_wing_imports_only_the_wings_below_it() -> None:
    offending: list[str] = []
    for path in _our_modules():
        mine = _wing_of(_module_of(path))
        if mine is None:
            continue
        for lineno, module in _imports(path):
            theirs = _wing_of(module)
            if theirs is not None and WINGS.index(theirs) > WINGS.index(mine):
                offending.append(f"{path.relative_to(ROOT)}:{lineno}: {mine} imports {theirs}")
    assert not offending, "a wing imports one above it:\n" + "\n".join(offending)


@pytest.mark.parametrize("wing", WINGS)
def test_each_face_says_what_it_is_and_exports_what_it_names(wing: str) -> None:
    face = importlib.import_module(wing)
    assert face.__doc__, f"{wing} has no docstring"
    exported = getattr(face, "__all__", [])
    missing = [name for name in exported if not hasattr(face, name)]
    assert not missing, f"{wing} names {missing} but has none of them"


@pytest.mark.parametrize("wing", [w for w in WINGS if w.startswith("rummykit.server.")])
def test_no_wing_is_a_house_of_its_own(wing: str) -> None:
    folder = SRC / Path(*wing.split("."))
    lines = sum(
        len(p.read_text(encoding="utf-8").splitlines())
        for p in folder.rglob("*.py")
        if "migrations" not in p.parts
    )
    assert lines <= MAX_WING_LINES, f"{wing} has {lines} lines (at most {MAX_WING_LINES})"


def test_a_site_of_several_processes_without_postgresql_is_refused_once(tmp_path: Path) -> None:
    from rummykit.server.site import ConfigError, ServerConfig

    with pytest.raises(ConfigError, match="PostgreSQL"):
        ServerConfig(store_path=tmp_path / "t.sqlite3", redis_url="redis://127.0.0.1:9")
    with pytest.raises(ConfigError, match="postgresql://"):
        ServerConfig(database_url="mysql://nobody@host/db")
    with pytest.raises(ConfigError, match="SQLite file or a PostgreSQL"):
        ServerConfig()
    assert ServerConfig(store_path="t.sqlite3").store_location == "t.sqlite3"


def _class_lengths() -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for path in _our_modules():
        if _wing_of(_module_of(path)) is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                found.append((length, f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"))
    return found


def test_no_class_of_the_server_is_over_its_size() -> None:
    big = sorted((n, where) for n, where in _class_lengths() if n > MAX_CLASS_LINES)
    assert not big, f"classes over {MAX_CLASS_LINES} lines: {big}"
