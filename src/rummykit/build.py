"""Which build of the engine runs: compiled (mypyc) where one was built, else pure Python.

``scripts/compile_engine.py`` compiles the engine's hot modules in place, from the same
sources; Python's import then prefers the compiled module beside each ``.py`` file. Setting
``RUMMYKIT_PURE=1`` (read when ``rummykit`` is first imported) runs the pure sources anyway:
for a debugger, for tracebacks with every line, and for the tests that compare both builds.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

PURE_VARIABLE: Final = "RUMMYKIT_PURE"
"""The environment variable that asks for the pure-Python engine (any value but empty or 0)."""

ENGINE_PROBE: Final = "rummykit.core.cards"
"""A module every compiled build holds: whether it is compiled tells which build runs."""


def pure_requested(environ: os._Environ[str] | dict[str, str] | None = None) -> bool:
    """Whether the environment asks for the pure-Python engine."""
    value = (os.environ if environ is None else environ).get(PURE_VARIABLE, "")
    return value not in ("", "0")


def is_compiled(module: ModuleType) -> bool:
    """Whether this module was loaded from a compiled extension, not from its source."""
    spec = module.__spec__
    return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def compiled_modules() -> list[str]:
    """The names of the ``rummykit`` modules loaded so far from compiled extensions."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("rummykit.") and module is not None and is_compiled(module)
    )


def engine_build() -> str:
    """``"compiled"`` or ``"pure"``: the build of the engine this process runs."""
    probe = importlib.import_module(ENGINE_PROBE)
    return "compiled" if is_compiled(probe) else "pure"


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds ``rummykit`` modules by their ``.py`` source, passing over compiled builds."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("rummykit.") or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None  # a package (its __init__.py is never compiled): the usual finders


def use_pure_sources() -> None:
    """Load every ``rummykit`` module imported from now on from its source."""
    if not any(isinstance(finder, _SourceFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())


def stale_compiled_sources(package: Path | None = None) -> list[Path]:
    """Sources changed since they were compiled: their compiled module would run old code.

    Python's import takes a compiled module over its source without comparing the two, so a
    build older than an edit must be rebuilt (``make compile``) or removed.
    """
    root = Path(__file__).resolve().parent if package is None else package
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    stale = []
    for built in root.rglob("*.so" if os.name != "nt" else "*.pyd"):
        name = built.name
        for suffix in suffixes:
            if name.endswith(suffix):
                source = built.with_name(name.removesuffix(suffix) + ".py")
                if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
                    stale.append(source)
                break
    return sorted(stale)
