"""The picture of a tournament: win rates with their intervals, and points per deal.

Needs matplotlib (``pip install 'rummykit[plot]'``). It draws on a bare ``Figure`` with the
Agg canvas, so no display, no pyplot state and no ``MPLBACKEND`` are needed.
"""

from __future__ import annotations

import math
from pathlib import Path

from rummykit.tournament.results import SimResult


class PlotUnavailableError(RuntimeError):
    """matplotlib is not installed."""


def check_plotting() -> None:
    """Raise ``PlotUnavailableError`` with the fix unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotUnavailableError(
            "--plot needs matplotlib: pip install 'rummykit[plot]'."
        ) from None


def plot_result(result: SimResult, path: Path | str) -> None:
    """Write a PNG (or any format matplotlib knows by the file's suffix) of ``result``."""
    check_plotting()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    positions = result.positions
    labels = [f"{position.position} {position.bot}" for position in positions]
    figure = Figure(figsize=(11, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    wins, points = figure.subplots(1, 2, width_ratios=(2, 3))

    rates = [0.0 if math.isnan(p.win_rate) else p.win_rate for p in positions]
    below = [max(0.0, rate - p.win_rate_ci95[0]) for rate, p in zip(rates, positions, strict=True)]
    above = [max(0.0, p.win_rate_ci95[1] - rate) for rate, p in zip(rates, positions, strict=True)]
    # With no games the interval is nan: draw no error bar rather than fail.
    below = [0.0 if math.isnan(value) else value for value in below]
    above = [0.0 if math.isnan(value) else value for value in above]
    slots = range(len(positions))
    wins.bar(slots, rates, yerr=[below, above], capsize=6, color="tab:blue", alpha=0.8)
    wins.set_xticks(list(slots), labels)
    wins.set_ylim(0, 1)
    wins.set_ylabel("games won")
    wins.set_title(f"Win rate, 95% Wilson interval ({result.games} games)")
    if len(positions) > 0:
        wins.axhline(1 / len(positions), color="grey", linestyle=":", linewidth=1)

    samples = [list(p.deal_points) for p in positions]
    if any(samples):
        low = min(min(sample) for sample in samples if sample)
        high = max(max(sample) for sample in samples if sample)
        bins = _bins(low, high)
        for label, sample in zip(labels, samples, strict=True):
            if sample:
                points.hist(sample, bins=bins, histtype="step", linewidth=1.5, label=label)
        points.legend()
    better = "lower is better" if result.lower_is_better else "higher is better"
    points.set_title(f"Points per deal ({result.tally.deals} deals, {better})")
    points.set_xlabel("points in a deal")
    points.set_ylabel("deals")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(Path(path), dpi=100)


def _bins(low: int, high: int) -> list[float]:
    """Bin edges on whole points, at most about 60 bins."""
    width = max(1, math.ceil((high - low + 1) / 60))
    edges = [low - 0.5 + width * step for step in range(math.ceil((high - low + 1) / width) + 1)]
    return edges
