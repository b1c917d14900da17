"""Match scores with their counts and confidence intervals, for the cluster.

A score is points / games with a win 1, a draw ½ and a loss 0; its 95%
interval is Wilson's. :class:`MatchScore` and :func:`wilson_interval` live
in :mod:`genethello.core.play.scoring` (the engine commands and the League
measure print them too); this module adds the sizing of a measurement.

At p = ½ the half-width is 1.96 · √(¼ / n): 385 games bring it to 5 points.
"""

from __future__ import annotations

import math

from genethello.core.play.scoring import Z95, MatchScore, wilson_interval

__all__ = ["MatchScore", "Z95", "games_for_half_width", "wilson_interval"]


def games_for_half_width(half_width: float, z: float = Z95) -> int:
    """Games needed so that a score near ½ (the widest case) has at most this
    half-width: ⌈z² / (4 h²)⌉ (385 for 5 points)."""
    if not 0 < half_width < 0.5:
        raise ValueError(f"half_width={half_width!r} must be in (0, 0.5)")
    return math.ceil(z * z / (4 * half_width * half_width))
