"""Shared pytest configuration: Hypothesis settings profiles.

Select one with ``HYPOTHESIS_PROFILE``; by default ``ci`` when ``CI`` is set, else ``dev``.
"""

import os

from hypothesis import settings

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
