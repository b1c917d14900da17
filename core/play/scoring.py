"""What a finished game is worth to a player.

A game ends with a disc margin (winner takes the empty squares); ratings,
tournaments and the yardstick all count it the same way, so they share this
one function; a match score's interval is here too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass


def points_from_margin(margin: int) -> float:
    """Game points for the side whose final disc margin is ``margin``:
    1 for a win (margin > 0), 0.5 for a draw, 0 for a loss."""
    return 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)


#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """(low, high) of a match score's 95% Wilson interval; (0, 1) for no games.

    The score is points / games (win 1, draw ½, loss 0), the points standing
    for the successes of a proportion: unlike the normal approximation the
    interval stays inside 0..1 and behaves at 0% and 100%. Draws make the
    true variance a little smaller than the binomial one, so the interval is
    slightly conservative.

    Raises:
        ValueError: for negative games or points outside 0..games.
    """
    if games < 0 or not 0 <= points <= games:
        raise ValueError(f"points={points!r} of games={games!r}: expected 0 <= points <= games")
    if games == 0:
        return 0.0, 1.0
    p = points / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    low = 0.0 if points == 0 else max(0.0, centre - half)
    high = 1.0 if points == games else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class MatchScore:
    """A match's result from one player's side: its W/D/L counts, the score
    (points per game) and the score's 95% Wilson interval. Parts of a match
    played apart add up with ``+``."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        """Points per game (win 1, draw ½, loss 0); 0 for no games."""
        return self.points / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.points, self.games)

    def add(self, margin: int) -> MatchScore:
        """This score after one more game that ended with ``margin`` (from
        this player's side)."""
        return MatchScore(self.wins + (margin > 0), self.draws + (margin == 0), self.losses + (margin < 0))

    def __add__(self, other: MatchScore) -> MatchScore:
        return MatchScore(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)

    @classmethod
    def from_margins(cls, margins: Iterable[int]) -> MatchScore:
        """The score of games that ended with these margins (this side's view)."""
        margins = list(margins)
        return cls(sum(m > 0 for m in margins), sum(m == 0 for m in margins), sum(m < 0 for m in margins))

    def text(self) -> str:
        """'62.5% [57.7%, 67.1%] (W/D/L 240/20/140)'."""
        low, high = self.interval
        return (f"{self.score:.1%} [{low:.1%}, {high:.1%}] "
                f"(W/D/L {self.wins}/{self.draws}/{self.losses})")
