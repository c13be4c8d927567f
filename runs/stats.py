"""The statistics of a run over many boards.

>>> lo, hi = wilson_interval(3, 100)
>>> round(lo, 4), round(hi, 4)
(0.0103, 0.0845)
>>> [round(100 * x, 2) for x in wilson_interval(50, 100)]
[40.38, 59.62]
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson_interval"]

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""


def wilson_interval(k: int, n: int, *, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n`` (95 % by default), as fractions.

    ``(0.0, 1.0)`` when ``n`` is 0.

    Notes
    -----
    :math:`O(1)`. Unlike the normal approximation it stays inside ``[0, 1]`` and is sound
    for proportions near 0 and 1 (unsolvable deals, boards every strategy clears).
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))
