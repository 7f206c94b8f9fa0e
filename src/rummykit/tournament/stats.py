"""The statistics of a tournament: proportions and means with 95% intervals, percentiles.

Pure functions on plain numbers; an interval that cannot be computed is ``(nan, nan)``.

>>> low, high = wilson_interval(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
>>> percentile([1.0, 2.0, 3.0, 4.0], 50)
2.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

Z_95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

_T_975: Final = (
    12.706204736174698,
    4.302652729749464,
    3.182446305284263,
    2.7764451051977934,
    2.570581835636314,
    2.4469118511449692,
    2.3646242515927844,
    2.306004135204166,
    2.2621571628540993,
    2.2281388519649385,
    2.200985160082949,
    2.1788128296634177,
    2.1603686564610127,
    2.1447866879169273,
    2.131449545559323,
    2.1199052992210112,
    2.1098155778331806,
    2.10092204024096,
    2.0930240544083096,
    2.0859634472658364,
    2.0796138447276626,
    2.0738730679040147,
    2.0686576104190406,
    2.0638985616280205,
    2.059538552753294,
    2.055529438642871,
    2.0518305164802833,
    2.048407141795244,
    2.045229642132703,
    2.0422724563012373,
)
"""Student's t 97.5% quantiles for 1 to 30 degrees of freedom (from a statistics table)."""


def t_quantile_975(degrees_of_freedom: int) -> float:
    """Student's t quantile at 97.5% (the factor of a two-sided 95% interval).

    Exact for 1 to 30 degrees of freedom; past that, the Cornish-Fisher expansion around the
    normal quantile, good to 1e-5.

    >>> round(t_quantile_975(1), 3), round(t_quantile_975(3), 3), round(t_quantile_975(60), 3)
    (12.706, 3.182, 2.0)
    """
    if degrees_of_freedom < 1:
        raise ValueError(
            f"A t quantile needs at least 1 degree of freedom, not {degrees_of_freedom}."
        )
    if degrees_of_freedom <= len(_T_975):
        return _T_975[degrees_of_freedom - 1]
    z, n = Z_95, float(degrees_of_freedom)
    return (
        z
        + (z**3 + z) / (4 * n)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * n**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * n**3)
    )


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Unlike p ± z·√(p(1-p)/n) it stays inside [0, 1] and is not empty at 0 or n successes.
    With no trials there is nothing to estimate: ``(nan, nan)``.

    >>> wilson_interval(10, 10)[1]
    1.0
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"Successes must be from 0 to the trials ({trials}), not {successes}.")
    if trials == 0:
        return (math.nan, math.nan)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    center = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # At 0 or n successes the bound is exactly 0 or 1 (center and half are equal there);
    # say so rather than leave it to rounding.
    low = 0.0 if successes == 0 else max(0.0, center - half)
    high = 1.0 if successes == trials else min(1.0, center + half)
    return (low, high)


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean; ``nan`` for no values."""
    if not values:
        return math.nan
    return math.fsum(values) / len(values)


def sample_standard_deviation(values: Sequence[float]) -> float:
    """The standard deviation with n - 1 in the denominator; ``nan`` below two values."""
    if len(values) < 2:
        return math.nan
    center = mean(values)
    return math.sqrt(math.fsum((value - center) ** 2 for value in values) / (len(values) - 1))


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """A 95% interval for the mean of independent observations: mean ± t·sd/√n.

    Student's t with n - 1 degrees of freedom makes it honest for few observations (it is
    1.96 only in the limit). Below two observations: ``(nan, nan)``.

    >>> mean_interval([5.0, 5.0, 5.0])
    (5.0, 5.0)
    """
    count = len(values)
    if count < 2:
        return (math.nan, math.nan)
    center = mean(values)
    half = t_quantile_975(count - 1) * sample_standard_deviation(values) / math.sqrt(count)
    return (center - half, center + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0 to 100), interpolating linearly between ranks.

    The method of NumPy's default ``linear``: the value at position q/100·(n - 1) of the
    sorted values. ``nan`` for no values.
    """
    if not 0 <= q <= 100:
        raise ValueError(f"A percentile is from 0 to 100, not {q}.")
    if not values:
        return math.nan
    ordered = sorted(values)
    position = q / 100 * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return ordered[below] + (ordered[above] - ordered[below]) * fraction
