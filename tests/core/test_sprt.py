"""The pentanomial SPRT against its definition: the LLR of given counts
against an independent maximization, Wald's bounds, the stopping pair, and
the error rates of many seeded simulated tests."""

from __future__ import annotations

import math

import numpy as np
import pytest

from genethello.core.play.sprt import (
    Pentanomial,
    Sprt,
    SprtArgumentError,
    elo_estimate,
    logistic_elo,
    logistic_score,
    run_sprt,
)

SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def dual_maximum(freqs: list[float], score: float) -> float:
    """max over x of sum f_i log(1 + x (a_i - score)), by golden-section
    search on the (concave) function's values: the log likelihood of the
    best distribution of mean ``score`` is the unconstrained one's minus
    this. A different route from the module's root-finding on the slope."""
    d = [a - score for a in SCORES]
    lo, hi = -1.0 / (1.0 - score) + 1e-12, 1.0 / score - 1e-12

    def value(x: float) -> float:
        return sum(f * math.log(1.0 + x * di) for f, di in zip(freqs, d, strict=True))

    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(200):
        m1, m2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if value(m1) < value(m2):
            lo = m1
        else:
            hi = m2
    return value((lo + hi) / 2.0)


def independent_llr(counts: tuple[int, ...], elo0: float, elo1: float) -> float:
    regular = [c if c > 0 else 1e-3 for c in counts]
    total = sum(regular)
    freqs = [c / total for c in regular]
    # LLR = N * (max log-lik under H1 - max log-lik under H0) / N per pair
    return total * (dual_maximum(freqs, logistic_score(elo0)) - dual_maximum(freqs, logistic_score(elo1)))


@pytest.mark.parametrize("counts, elo0, elo1", [
    ((3, 10, 20, 12, 5), 0.0, 20.0),
    ((1, 2, 30, 9, 4), -10.0, 5.0),
    ((7, 1, 1, 1, 0), 0.0, 50.0),     # an empty bin, and data below both hypotheses
    ((0, 0, 12, 0, 0), 0.0, 20.0),    # only 1-point pairs (a deterministic self-match)
    ((0, 0, 0, 0, 9), 0.0, 20.0),     # only won pairs
])
def test_llr_equals_an_independent_maximization(counts, elo0, elo1):
    got = Sprt(elo0, elo1).llr(Pentanomial(counts))
    assert got == pytest.approx(independent_llr(counts, elo0, elo1), rel=1e-7, abs=1e-9)


def test_llr_by_hand_for_pairs_that_all_score_one_point():
    # 12 pairs of 1 point, bins (1e-3, 1e-3, 12, 1e-3, 1e-3), N = 12.004:
    # under H0 (score 1/2) the observed frequencies already have mean 1/2,
    # so p0 = f. Under H1 (score s1 = L(20) = 0.528751...) the mean must
    # rise, by swelling the 1.5- and 2-point bins: p_i = f_i / (1 + x d_i)
    # with d_i = a_i - s1 and x close to its lower end -1 / (1 - s1), where
    # the 2-point bin's denominator vanishes. For f ~ (e, e, 1, e, e), e -> 0,
    # the 1-point bin keeps p_2 = 1 / (1 + x (0.5 - s1)) -> (1 - s1) / 0.5
    # = 0.942498, a loss of log(0.942498) = -0.059222 per pair: LLR ~ 12 *
    # -0.059222 = -0.71066, and e = 1e-3 / 12.004 moves it by under 1%.
    llr = Sprt(0.0, 20.0).llr(Pentanomial((0, 0, 12, 0, 0)))
    assert llr == pytest.approx(12 * math.log((1 - logistic_score(20.0)) / 0.5), rel=1e-2)


def test_bounds_are_walds():
    sprt = Sprt(0.0, 10.0, alpha=0.05, beta=0.1)
    assert sprt.lower == pytest.approx(math.log(0.1 / 0.95)) == pytest.approx(-2.251291799)
    assert sprt.upper == pytest.approx(math.log(0.9 / 0.05)) == pytest.approx(2.890371758)
    assert sprt.decision(2.9) == "H1" and sprt.decision(-2.26) == "H0" and sprt.decision(0.0) is None


@pytest.mark.parametrize("args, message", [
    ((20.0, 0.0), "ELO0 < ELO1"),
    ((5.0, 5.0), "ELO0 < ELO1"),
    ((0.0, math.inf), "finite"),
    ((0.0, 5.0, 0.0), "--alpha must be between 0 and 0.5"),
    ((0.0, 5.0, 0.5), "--alpha"),
    ((0.0, 5.0, 0.05, 0.7), "--beta"),
])
def test_bad_parameters_are_refused_in_one_line(args, message):
    with pytest.raises(SprtArgumentError, match=message) as info:
        Sprt(*args)
    assert "\n" not in str(info.value)


def test_pair_points_must_be_a_pair_score():
    with pytest.raises(ValueError, match="0, 0.5, 1, 1.5 or 2"):
        Pentanomial().add(2.5)
    assert Pentanomial().add(0).add(1.5).add(1.5).counts == (1, 0, 0, 2, 0)


def test_elo_estimate_and_its_interval():
    # 2 pairs of 0.5 (1 point of 2), 2 of 0.75, 1 of 1: mean 0.7, mean square
    # deviation (2*0.04 + 2*0.0025 + 0.09) / 5 = 0.035, standard error
    # sqrt(0.035 / 5) = 0.083666; 95%: 0.7 -+ 0.163983.
    est = elo_estimate(Pentanomial((0, 0, 2, 2, 1)))
    assert est.elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    assert est.low == pytest.approx(logistic_elo(0.7 - 1.959964 * 0.083666), abs=0.01)
    assert est.high == pytest.approx(logistic_elo(0.7 + 1.959964 * 0.083666), abs=0.01)
    assert str(elo_estimate(Pentanomial((0, 0, 12, 0, 0)))) == "+0.0 [+0.0, +0.0]"
    assert str(elo_estimate(Pentanomial((0, 0, 0, 0, 3)))) == "+inf [+inf, +inf]"
    assert str(elo_estimate(Pentanomial((3, 0, 0, 0, 0)))) == "-inf [-inf, -inf]"
    assert str(elo_estimate(Pentanomial())) == "+0.0 [-inf, +inf]"


def test_degenerate_counts_give_finite_llrs_that_lean_the_right_way():
    sprt = Sprt(0.0, 20.0)
    assert math.isfinite(sprt.llr(Pentanomial((0, 0, 5, 0, 0)))) and sprt.llr(Pentanomial((0, 0, 5, 0, 0))) < 0
    assert 0 < sprt.llr(Pentanomial((0, 0, 0, 0, 5))) < math.inf
    assert -math.inf < sprt.llr(Pentanomial((5, 0, 0, 0, 0))) < 0
    assert sprt.llr(Pentanomial()) == 0.0


def pair_distribution(elo: float, draws: float = 0.2, same_opening: float = 0.3) -> np.ndarray:
    """A pentanomial distribution of mean L(elo): with probability
    ``same_opening`` the opening decides (each side wins it once: 1 point),
    otherwise two independent games with ``draws`` draws each. The pair's
    games are correlated, as real ones are."""
    game = (logistic_score(elo) - same_opening / 2) / (1 - same_opening)
    win, loss = game - draws / 2, 1 - game - draws / 2
    one = np.array([loss, draws, win])
    pair = np.convolve(one, one) * (1 - same_opening)
    pair[2] += same_opening
    assert pair.min() > 0 and abs(pair @ np.array(SCORES) - logistic_score(elo)) < 1e-12
    return pair


def simulated_decisions(sprt: Sprt, elo: float, runs: int, seed: int) -> list[str | None]:
    rng = np.random.default_rng(seed)
    bins = rng.choice(5, size=(runs, 3000), p=pair_distribution(elo)) / 2.0
    return [run_sprt(sprt, row.tolist(), 3000).decision for row in bins]


def test_error_rates_of_simulated_tests_stay_within_alpha_and_beta():
    # alpha != beta, so a test that swapped them (or its bounds) would fail.
    sprt, runs = Sprt(0.0, 100.0, alpha=0.05, beta=0.15), 600
    under_h0 = simulated_decisions(sprt, 0.0, runs, seed=1)
    under_h1 = simulated_decisions(sprt, 100.0, runs, seed=2)
    assert None not in under_h0 and None not in under_h1
    false_h1 = under_h0.count("H1") / runs
    false_h0 = under_h1.count("H0") / runs
    assert false_h1 <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs), false_h1
    assert false_h0 <= 0.15 + 3 * math.sqrt(0.15 * 0.85 / runs), false_h0
    # and the test has power: far beyond the hypotheses it decides the right way
    assert simulated_decisions(sprt, 200.0, 100, seed=3).count("H1") >= 97
    assert simulated_decisions(sprt, -150.0, 100, seed=4).count("H0") >= 97


def test_the_test_stops_at_the_pair_whose_llr_first_crosses_a_bound():
    rng = np.random.default_rng(7)
    points = (rng.choice(5, size=400, p=pair_distribution(60.0)) / 2.0).tolist()
    sprt = Sprt(0.0, 40.0)
    counts, crossing = [0] * 5, None
    for number, p in enumerate(points, start=1):
        counts[int(p * 2)] += 1
        llr = independent_llr(tuple(counts), 0.0, 40.0)
        if llr >= sprt.upper or llr <= sprt.lower:
            crossing = number, "H1" if llr > 0 else "H0"
            break
    assert crossing is not None
    taken: list[float] = []
    reports: list[int] = []

    def pairs():
        for p in points:
            taken.append(p)
            yield p

    outcome = run_sprt(sprt, pairs(), 400, lambda c, llr: reports.append(c.pairs))
    assert (outcome.counts.pairs, outcome.decision) == crossing
    assert len(taken) == crossing[0] and reports == list(range(1, crossing[0] + 1))   # no pair played past it
    assert run_sprt(sprt, points, crossing[0] - 1).decision is None          # one pair short: neither
