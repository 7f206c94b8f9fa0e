"""benchmarks/inference.py in miniature: both samplers guess the other hand in a few deals.

The deals and the samples are seeded, so the figures are the same on every run: the inferred
sampler must guess better than uniform deals here, as it does over the full run.
"""

import json
from pathlib import Path

import pytest

from helpers import run_benchmark


@pytest.mark.timeout(300)
def test_the_inferred_sampler_guesses_the_other_hand_better_than_uniform_deals(
    tmp_path: Path,
) -> None:
    out = tmp_path / "inference.json"
    finished = run_benchmark(
        "inference.py", "--deals", "4", "--samples", "30", "--levels", "basic", "--json", str(out)
    )
    assert finished.returncode == 0, finished.stderr
    rows = {row["sampler"]: row for row in json.loads(out.read_text())}
    uniform, inferred = rows["uniform"], rows["inferred"]
    assert uniform["positions"] == inferred["positions"] > 0
    assert inferred["log_loss"] < uniform["log_loss"]
    assert inferred["chance_held"] - inferred["chance_free"] > (
        uniform["chance_held"] - uniform["chance_free"]
    )
    assert "| basic |" in finished.stdout
