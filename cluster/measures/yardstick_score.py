"""What a measurement of the best so far stores against one opponent: a
record type, apart from the games that produce it, so that the run's
interfaces and the read side name it without importing a game."""

from __future__ import annotations

from dataclasses import dataclass

from genethello.cluster.db.sprt_record import SprtRecord
from genethello.core.play.scoring import MatchScore

__all__ = ["YardstickScore"]


@dataclass(frozen=True)
class YardstickScore:
    """The candidate's result against one opponent, with its counts; for a
    sequential opponent (``yardstick.sprt_opponents``), the test's record
    too (its games are then left out of the pooled score)."""

    opponent: str
    result: MatchScore
    sprt: SprtRecord | None = None

    @property
    def games(self) -> int:
        return self.result.games

    @property
    def points(self) -> float:
        return self.result.points

    @property
    def score(self) -> float:
        return self.result.score
