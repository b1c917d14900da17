"""The sequential probability ratio test on game pairs: is A stronger than B
by ``elo1`` or only by ``elo0``, answered as soon as the games say so.

A game pair is one opening played twice, A taking each colour once. Its two
games share the opening, so they are not independent: the test counts pairs,
not games, in five bins by A's pair score (0, ½, 1, 1½, 2 points), the
*pentanomial* model that Fishtest and fastchess use.

The test is the generalized SPRT of Michel Van den Bergh's notes, in
**logistic Elo**: a hypothesis "A's Elo advantage is e" is the hypothesis
"A's expected score per game is ``L(e) = 1 / (1 + 10 ** (-e / 400))``", and
its likelihood is that of the pair-score distribution closest to the
observed one (maximum likelihood) among those with that mean. The log
likelihood ratio of H1 (Elo ``elo1``) against H0 (Elo ``elo0``) is then

    LLR = sum_i n_i * log(p1_i / p0_i)

over the five bins, with ``p_k`` the maximum-likelihood distribution of mean
``L(elo_k)``. It has a closed form up to one number: ``p_i = f_i / (1 + x *
(a_i - s))``, with ``f`` the observed frequencies, ``a_i`` the pair scores
as fractions (0, ¼, ½, ¾, 1) and ``x`` the root of ``sum_i f_i (a_i - s) /
(1 + x (a_i - s)) = 0``, found here by a safeguarded Newton iteration.
The test stops with H1 once the LLR reaches ``log((1 - beta) / alpha)``
and with H0 once it falls to ``log(beta / (1 - alpha))`` (Wald's bounds).

Empty bins get a count of 1e-3, as Fishtest does, so that every
distribution keeps all five outcomes possible: otherwise a mean outside the
observed scores (only draws seen, only wins seen) has no distribution at all
and the ratio is undefined.

Logistic, not normalized, Elo: the Elo the rest of genethello reports (the
hall's and the yardstick's ratings) is logistic, so the bounds mean the same
numbers as those ratings. In normalized Elo the same bounds would depend on
the draw rate and the pair correlation of the players being tested.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from genethello.core.frontend.errors import UserError
from genethello.core.play.scoring import Z95

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score as a fraction of its 2 points, bin by bin."""

EMPTY_BIN = 1e-3
"""The count given to an empty bin when computing the LLR (Fishtest's value)."""

MAX_BOUND_ELO = 1000.0
"""The largest Elo bound, either sign, the test takes: a score of 99.7% per
game. Far beyond it the expected score rounds to exactly 0 or 1 (from about
6,400 Elo) and the maximum-likelihood fit divides by zero; any bound near it
already says one side never loses, which no test of game pairs needs."""

Decision = Literal["H0", "H1"]


class SprtArgumentError(UserError):
    """An SPRT asked for with impossible parameters."""


def logistic_score(elo: float) -> float:
    """The expected score per game of a player ``elo`` logistic Elo stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def logistic_elo(score: float) -> float:
    """The logistic Elo advantage of a player scoring ``score`` per game
    (0 <= score <= 1; -inf and +inf at the ends)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 0.0 - 400.0 * math.log10(1.0 / score - 1.0)  # 0.0 - ...: +0.0, not -0.0, at score 0.5


@dataclass(frozen=True)
class Pentanomial:
    """Counts of game pairs by A's pair score: ``counts[k]`` pairs scored
    ``k / 2`` points (0, ½, 1, 1½, 2)."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    def add(self, pair_points: float) -> Pentanomial:
        """These counts with one more pair, worth ``pair_points`` to A.

        Raises:
            ValueError: for points other than 0, 0.5, 1, 1.5, 2.
        """
        index = round(pair_points * 2)
        if index * 0.5 != pair_points or not 0 <= index <= 4:
            raise ValueError(f"a game pair scores 0, 0.5, 1, 1.5 or 2 points, got {pair_points!r}")
        c = list(self.counts)
        c[index] += 1
        return Pentanomial((c[0], c[1], c[2], c[3], c[4]))

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def games(self) -> int:
        return 2 * self.pairs

    def __str__(self) -> str:
        return "/".join(str(n) for n in self.counts)


def _constrained_mle(freqs: list[float], score: float) -> list[float]:
    """The distribution over :data:`PAIR_SCORES` of mean ``score`` that
    maximizes the likelihood of the frequencies ``freqs`` (all > 0, sum 1).

    It is ``f_i / (1 + x (a_i - s))`` with ``x`` the root of the decreasing
    function ``g(x) = sum f_i (a_i - s) / (1 + x (a_i - s))`` on the open
    interval where every denominator stays positive, ``(-1 / (1 - s), 1 / s)``.
    """
    d = [a - score for a in PAIR_SCORES]
    low, high = -1.0 / (1.0 - score), 1.0 / score
    x = 0.0
    for _ in range(200):
        g = sum(f * di / (1.0 + x * di) for f, di in zip(freqs, d, strict=True))
        if g == 0.0:
            break
        if g > 0.0:
            low = x
        else:
            high = x
        slope = -sum(f * di * di / (1.0 + x * di) ** 2 for f, di in zip(freqs, d, strict=True))
        step = x - g / slope
        # Newton while it stays inside the bracket, bisection otherwise.
        new_x = step if low < step < high else (low + high) / 2.0
        converged = abs(new_x - x) <= 1e-15 * max(1.0, abs(x))
        x = new_x
        if converged:
            break
    return [f / (1.0 + x * di) for f, di in zip(freqs, d, strict=True)]


@dataclass(frozen=True)
class EloEstimate:
    """A's logistic Elo advantage estimated from its pair scores, with the
    bounds of its 95% interval (``-inf``/``+inf`` where the score interval
    reaches 0% or 100%)."""

    elo: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.elo:+.1f} [{self.low:+.1f}, {self.high:+.1f}]"


def elo_estimate(counts: Pentanomial) -> EloEstimate:
    """A's Elo advantage from the mean pair score, with a 95% interval from
    the pairs' own spread (standard error of the mean pair score, normal
    approximation, mapped through the logistic curve).

    No pairs: ``0 [-inf, +inf]``. Pairs that all score the same (all 1
    point: every opening won once by each side or drawn twice) have no
    spread, and the interval is that single point: it is what those pairs
    show, and a self-match at a fixed depth does show exactly that.
    """
    n = counts.pairs
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf)
    mean = sum(c * a for c, a in zip(counts.counts, PAIR_SCORES, strict=True)) / n
    variance = sum(c * (a - mean) ** 2 for c, a in zip(counts.counts, PAIR_SCORES, strict=True)) / n
    half = Z95 * math.sqrt(variance / n)
    return EloEstimate(logistic_elo(mean), logistic_elo(max(0.0, mean - half)),
                       logistic_elo(min(1.0, mean + half)))


@dataclass(frozen=True)
class Sprt:
    """A sequential test of H0: A is ``elo0`` logistic Elo stronger than B,
    against H1: ``elo1`` stronger, with false-H1 rate ``alpha`` and false-H0
    rate ``beta``.

    Raises:
        SprtArgumentError: unless ``elo0 < elo1`` (both finite, within
            :data:`MAX_BOUND_ELO` of 0) and alpha and
            beta lie strictly between 0 and 0.5.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise SprtArgumentError(f"--sprt needs finite Elo bounds, got {self.elo0:g} {self.elo1:g}")
        if max(abs(self.elo0), abs(self.elo1)) > MAX_BOUND_ELO:
            raise SprtArgumentError(f"--sprt ELO0 ELO1 must lie within ±{MAX_BOUND_ELO:g} Elo (a score of "
                                    f"{logistic_score(MAX_BOUND_ELO):.1%} a game), got {self.elo0:g} {self.elo1:g}")
        if not self.elo0 < self.elo1:
            raise SprtArgumentError(f"--sprt ELO0 ELO1 needs ELO0 < ELO1, got {self.elo0:g} {self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise SprtArgumentError(f"--{name} must be between 0 and 0.5 (exclusive), got {value:g}")

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: log(beta / (1 - alpha))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: log((1 - beta) / alpha)."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Pentanomial) -> float:
        """The log likelihood ratio of H1 against H0 given the pair counts
        (0 for no pairs; empty bins counted as :data:`EMPTY_BIN`)."""
        if counts.pairs == 0:
            return 0.0
        regular = [float(c) if c > 0 else EMPTY_BIN for c in counts.counts]
        total = sum(regular)
        freqs = [c / total for c in regular]
        p0 = _constrained_mle(freqs, logistic_score(self.elo0))
        p1 = _constrained_mle(freqs, logistic_score(self.elo1))
        return sum(c * math.log(b / a) for c, a, b in zip(regular, p0, p1, strict=True))

    def decision(self, llr: float) -> Decision | None:
        """"H1" once the LLR reaches the upper bound, "H0" once it falls to
        the lower one, None while it lies between them."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


@dataclass(frozen=True)
class SprtOutcome:
    """Where a sequential test stopped: its decision (None when the pairs ran
    out first), the pair counts and the LLR then."""

    decision: Decision | None
    counts: Pentanomial
    llr: float


def run_sprt(sprt: Sprt, pair_points: Iterable[float], max_pairs: int,
             report: Callable[[Pentanomial, float], None] = lambda counts, llr: None) -> SprtOutcome:
    """Take pairs' points from ``pair_points`` (lazily: a pair is played only
    when asked for) until the test decides or ``max_pairs`` pairs are in,
    calling ``report(counts, llr)`` after each pair.

    Raises:
        ValueError: for a pair score other than 0, 0.5, 1, 1.5, 2.
    """
    counts, llr = Pentanomial(), 0.0
    decision: Decision | None = None
    pairs = iter(pair_points)
    while decision is None and counts.pairs < max_pairs:
        points = next(pairs, None)
        if points is None:
            break
        counts = counts.add(points)
        llr = sprt.llr(counts)
        report(counts, llr)
        decision = sprt.decision(llr)
    return SprtOutcome(decision, counts, llr)
