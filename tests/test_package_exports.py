"""The package's public names, imported when first asked for (``rummykit/__init__.py``).

The ``rummy`` command imports the package before its ``main`` can catch a Ctrl+C, so the
package imports nothing itself; each name still comes from ``from rummykit import NAME``.
"""

from __future__ import annotations

import sys

import pytest

import rummykit
from helpers import python_output


@pytest.mark.parametrize("name", rummykit.__all__)
def test_every_public_name_is_the_one_of_its_home_module(name: str) -> None:
    home = rummykit._HOME_OF[name]
    assert getattr(rummykit, name) is getattr(sys.modules[home], name)
    assert name in dir(rummykit)


def test_every_home_names_only_public_names() -> None:
    assert sorted(rummykit._HOME_OF) == sorted(rummykit.__all__)


def test_a_name_the_package_does_not_have_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        getattr(rummykit, "Nothing")  # noqa: B009


def _modules_loaded_by_importing_the_package(pure: bool) -> str:
    return python_output(
        "import sys; import rummykit; "
        "print(sorted(name for name in sys.modules if name.startswith('rummykit')))",
        pure=pure,
    )


def test_importing_the_package_imports_none_of_its_modules() -> None:
    assert _modules_loaded_by_importing_the_package(pure=False) == "['rummykit']"


def test_the_pure_switch_imports_only_the_module_that_turns_it_on() -> None:
    """With RUMMYKIT_PURE set, the package first installs the finder that skips the compiled
    modules (``rummykit.build``), and nothing else."""
    assert _modules_loaded_by_importing_the_package(pure=True) == "['rummykit', 'rummykit.build']"
