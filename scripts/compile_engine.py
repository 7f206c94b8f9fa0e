"""Compile the engine's hot modules with mypyc, in place, next to their sources.

    python scripts/compile_engine.py          # build (about 25 s on two cores)
    python scripts/compile_engine.py --clean  # remove the built modules: pure Python again

The modules are listed once, in ``pyproject.toml`` under ``[tool.rummykit.compiled]``. Each
is compiled on its own (``separate``: the C compiler runs on every core), and the built
extension modules land beside the ``.py`` files in ``src/``, where Python's import prefers
them; the sources stay the one source of truth (no second copy of the rules), and
``RUMMYKIT_PURE=1`` runs the pure package even where a build exists. Needs mypy (a
development dependency), setuptools and a C compiler; without a compiler it says so and
exits 0, and the pure package runs as before (``make`` calls it that way).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import sysconfig
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src"
BUILD = ROOT / "build" / "mypyc"


def compiled_sources() -> list[Path]:
    """The modules to compile, from ``pyproject.toml``, as paths under ``src/``."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [SOURCE / name for name in settings["tool"]["rummykit"]["compiled"]["modules"]]


def built_files() -> list[Path]:
    """Every extension module a build left in ``src/`` (the modules and mypyc's runtime)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return sorted(SOURCE.rglob(f"*{suffix}"))


def clean() -> None:
    """Remove what a build left: the pure package runs again."""
    for path in built_files():
        path.unlink()
    shutil.rmtree(BUILD, ignore_errors=True)


def have_compiler() -> bool:
    """Whether the C compiler Python was built with is on this machine."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(compiler) is not None


def build() -> None:
    """Compile the listed modules in place (``build_ext --inplace``)."""
    from mypyc.build import mypycify  # development dependency: imported only to build
    from setuptools import Distribution

    clean()
    sources = [str(path.relative_to(SOURCE)) for path in compiled_sources()]
    # The project's mypy settings name the test and benchmark folders too; mypy --strict
    # checks everything elsewhere (make lint), so the build reads no configuration.
    extensions = mypycify(
        [f"--config-file={os.devnull}", f"--cache-dir={BUILD / 'mypy_cache'}", *sources],
        # The C compiler's -O1: the engine runs as fast as at mypyc's default -O3 (least
        # deadwood of 10 cards 3.92 against 4.08 us, the bot tests within 1%), and the build
        # takes 24 s of two cores instead of 38 s (40 CPU-s instead of 67): every CI run
        # builds it.
        opt_level="1",
        target_dir=str(BUILD),
        separate=True,
    )
    distribution = Distribution({"name": "rummykit-engine", "ext_modules": extensions})
    command = distribution.get_command_obj("build_ext")
    command.inplace = True
    command.build_temp = str(BUILD / "temp")
    command.build_lib = str(BUILD / "lib")
    command.parallel = True
    distribution.run_command("build_ext")


def main(argv: list[str] | None = None) -> int:
    """Build, clean or list, as the command line asks; the exit status."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument(
        "--list", action="store_true", help="print the sources it compiles (for make), and stop"
    )
    arguments = parser.parse_args(argv)
    if arguments.list:
        print(" ".join(str(path.relative_to(ROOT)) for path in compiled_sources()))
        return 0
    if arguments.clean:
        clean()
        return 0
    if not have_compiler():
        print("No C compiler here: the engine stays pure Python.", file=sys.stderr)
        return 0
    os.chdir(SOURCE)  # mypyc names modules by their path from here
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
