"""Shared pytest configuration: Hypothesis settings profiles.

Select one with ``HYPOTHESIS_PROFILE``; by default ``ci`` when ``CI`` is set, else ``dev``.
"""

import os
import sys
from pathlib import Path

from hypothesis import settings

# `from helpers import ...` in any test: the shared helpers live beside this file.
sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=False,
    print_blob=True,
)
settings.register_profile(
    "dev",
    max_examples=30,
    deadline=None,
)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
