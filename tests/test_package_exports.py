"""The package's public names, imported when first asked for (``rummykit/__init__.py``).

The ``rummy`` command imports the package before its ``main`` can catch a Ctrl+C, so the
package imports nothing itself; each name still comes from ``from rummykit import NAME``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import rummykit


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


def test_importing_the_package_imports_none_of_its_modules() -> None:
    script = (
        "import sys; import rummykit; "
        "print(sorted(name for name in sys.modules if name.startswith('rummykit')))"
    )
    answer = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert answer.stdout.strip() == "['rummykit']"
