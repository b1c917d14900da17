"""Sequential yardstick tests: an opt-in way to ask "is the best so far at
least ELO1 stronger than this reference player, or at most ELO0?" and stop
playing as soon as the answer is known.

A run's ``yardstick.sprt_opponents`` (reference players, any family) are
not given the fixed 386-game series with its ±5-point interval; each is
played pair by pair (one opening of the run's opening set with both
colours, :func:`~genethello.cluster.measures.yardstick.series_openings`) under the
sequential probability ratio test of :mod:`genethello.core.play.sprt`
(pentanomial, logistic Elo, bounds ``yardstick.sprt``), up to
``yardstick.sprt_max_games``.

Workers finish games in any order, so the test is never fed as results
arrive: the pairs are played in waves of :data:`WAVE_PAIRS`, and after each
wave the test reads the pairs in schedule order from the first, stopping at
the first pair where it decides. Pairs after that one (played in the same
wave) are not counted. The decision, the counts and the W/D/L are therefore
the same for one worker or a hundred; only the wasted games differ.

Its results are stored as yardstick rows with the test beside them, and are
left out of the pooled yardstick score, which claims a fixed-sample
interval.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from genethello.cluster.config import RunConfig
from genethello.cluster.fitness.games import GauntletSpec
from genethello.cluster.measures.measured_series import play_specs, series_openings
from genethello.cluster.work import Executor
from genethello.core.frontend.wording import signed
from genethello.core.play.scoring import MatchScore, points_from_margin
from genethello.core.play.sprt import Decision, Pentanomial, Sprt, run_sprt

__all__ = ["WAVE_PAIRS", "SPRT_KEY", "SprtRecord", "sprt_name", "sprt_of", "sprt_specs", "decide", "measure_sprt"]

WAVE_PAIRS = 32
"""Pairs handed to the workers at a time: at most 31 pairs are played past
the decision, and 64 games keep a small cluster busy."""

SPRT_KEY = 3_000
"""Series key of sequential opponent k: 3000 + k (the fixed series use 1000
+ k, the GTP engines 2000 + k), so its openings are its own."""


@dataclass(frozen=True)
class SprtRecord:
    """Where a yardstick SPRT stopped, as stored beside its row: the test,
    its decision ("H0", "H1", or None when ``max_games`` came first), the
    LLR then and the pair counts (0, 0.5, 1, 1.5, 2 points)."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    max_games: int
    decision: Decision | None
    llr: float
    pairs: tuple[int, int, int, int, int]

    def test(self) -> Sprt:
        return Sprt(self.elo0, self.elo1, self.alpha, self.beta)

    def to_json(self) -> dict[str, object]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "max_games": self.max_games, "decision": self.decision, "llr": self.llr, "pairs": list(self.pairs)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SprtRecord:
        """The record :meth:`to_json` wrote.

        Raises:
            ValueError: for a decision or pair counts it cannot have written.
        """
        pairs = data["pairs"]
        if not isinstance(pairs, list) or len(pairs) != 5:
            raise ValueError(f"a stored SPRT's pairs are not five counts: {pairs!r}")
        decision = data["decision"]
        if decision not in ("H0", "H1", None):
            raise ValueError(f"a stored SPRT's decision is {decision!r}")
        a, b, c, d, e = (int(n) for n in pairs)
        return cls(float(data["elo0"]), float(data["elo1"]), float(data["alpha"]), float(data["beta"]),
                   int(data["max_games"]), decision, float(data["llr"]), (a, b, c, d, e))

    def text(self) -> str:
        """'H1 accepted after 48 games (LLR +2.98 >= +2.94; H0 0, H1 20
        logistic Elo)', or H0, or 'neither after 2000 games (...)'."""
        sprt = self.test()
        games = 2 * sum(self.pairs)
        llr, lower, upper = signed(self.llr), signed(sprt.lower), signed(sprt.upper)
        bounds = f"H0 {self.elo0:g}, H1 {self.elo1:g} logistic Elo, alpha {self.alpha:g}, beta {self.beta:g}"
        if self.decision == "H1":
            return f"SPRT: H1 accepted after {games} games (LLR {llr} >= {upper}; {bounds})"
        if self.decision == "H0":
            return f"SPRT: H0 accepted after {games} games (LLR {llr} <= {lower}; {bounds})"
        return f"SPRT: neither after {games} games, the cap (LLR {llr} within [{lower}, {upper}]; {bounds})"


def sprt_name(opponent: str) -> str:
    """The stored name of sequential opponent ``opponent``: 'p_1_10 (SPRT)',
    apart from a fixed series against the same player."""
    return f"{opponent} (SPRT)"


def sprt_of(config: RunConfig) -> Sprt:
    """The run's yardstick test (bounds ``yardstick.sprt``, error rates
    ``sprt_alpha`` and ``sprt_beta``)."""
    ys = config.yardstick
    return Sprt(float(ys.sprt[0]), float(ys.sprt[1]), ys.sprt_alpha, ys.sprt_beta)


def sprt_specs(config: RunConfig, candidate: str, opponent: str, k: int, patterns: str = "") -> list[GauntletSpec]:
    """Every game sequential opponent k (chromosome text ``opponent``) may
    need, in schedule order: pair p is game 2p (candidate Black) and 2p + 1
    (candidate White) from the pair's opening."""
    ys = config.yardstick
    specs: list[GauntletSpec] = []
    for seed, opening in series_openings(config, SPRT_KEY + k, ys.sprt_max_games // 2):
        for candidate_black in (True, False):
            specs.append(GauntletSpec(len(specs), candidate, "chromosome:" + opponent, candidate_black, seed,
                                      opening, ys.depth, config.games.exact_empties, patterns))
    return specs


def decide(sprt: Sprt, margins: Sequence[int], max_games: int) -> tuple[SprtRecord, MatchScore] | None:
    """The test over the candidate's margins in schedule order (two a
    pair): its record and the W/D/L of the pairs it counted, or None while
    it has not decided and the cap is not reached."""
    pair_points = [points_from_margin(margins[i]) + points_from_margin(margins[i + 1])
                   for i in range(0, len(margins) - 1, 2)]
    outcome = run_sprt(sprt, pair_points, len(pair_points))
    if outcome.decision is None and 2 * len(pair_points) < max_games:
        return None
    counted = 2 * outcome.counts.pairs
    score = MatchScore.from_margins(margins[:counted])
    record = SprtRecord(sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, max_games, outcome.decision, outcome.llr,
                        _pair_counts(outcome.counts))
    return record, score


def _pair_counts(counts: Pentanomial) -> tuple[int, int, int, int, int]:
    c = tuple(int(n) for n in counts.counts)
    return c[0], c[1], c[2], c[3], c[4]


def measure_sprt(config: RunConfig, candidate: str, executor: Executor, should_stop: Callable[[], bool],
                 patterns: str = "") -> list[tuple[str, MatchScore, SprtRecord]] | None:
    """Every sequential opponent's test of ``candidate``: (opponent, W/D/L
    of the counted games, the test's record). None when stopped first."""
    ys = config.yardstick
    if not ys.sprt_opponents:
        return []
    sprt = sprt_of(config)
    results = []
    for k, opponent in enumerate(ys.sprt_opponents):
        specs = sprt_specs(config, candidate, opponent, k, patterns)
        margins: list[int] = []
        decided = None
        while decided is None:
            wave = specs[len(margins):len(margins) + 2 * WAVE_PAIRS]
            outcomes = play_specs(executor, wave, should_stop)
            if outcomes is None:
                return None
            margins.extend(o.margin for o in sorted(outcomes, key=lambda o: o.index))
            decided = decide(sprt, margins, ys.sprt_max_games)
        record, score = decided
        results.append((opponent, score, record))
    return results
