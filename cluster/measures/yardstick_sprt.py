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

from genethello.cluster.config import RunConfig
from genethello.cluster.db.sprt_record import SprtRecord
from genethello.cluster.fitness.games import GauntletSpec
from genethello.cluster.measures.measured_series import play_specs, series_openings
from genethello.cluster.work import Executor
from genethello.core.play.scoring import MatchScore, points_from_margin
from genethello.core.play.sprt import Pentanomial, Sprt, run_sprt

__all__ = ["WAVE_PAIRS", "SPRT_KEY", "sprt_name", "sprt_of", "sprt_specs", "decide", "measure_sprt"]

WAVE_PAIRS = 32
"""Pairs handed to the workers at a time: at most 31 pairs are played past
the decision, and 64 games keep a small cluster busy."""

SPRT_KEY = 3_000
"""Series key of sequential opponent k: 3000 + k (the fixed series use 1000
+ k, the GTP engines 2000 + k), so its openings are its own."""


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
