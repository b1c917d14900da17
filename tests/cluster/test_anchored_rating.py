"""The panel's anchored rating: one unknown Bradley–Terry rating against
opponents of fixed rating, with its likelihood-ratio interval."""

import math

import pytest

from genethello.cluster.measures.anchored_rating import (
    ELO_PER_NAT,
    AnchoredResult,
    anchored_rating,
    expected,
    format_rating,
    log_likelihood,
    performance,
)

Z = 1.959963984540054


def test_one_opponent_is_the_logit_of_the_score():
    # 75 of 100 against a player rated 0: 400 log10(0.75 / 0.25) = 190.85
    r = performance(0.0, 100, 75.0)
    assert r.rating == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert r.games == 100
    # against a player rated 250 the same score shows 250 more
    assert performance(250.0, 100, 75.0).rating == pytest.approx(250 + 400 * math.log10(3), abs=1e-6)
    # an even score shows the opponent's rating
    assert performance(-40.0, 10, 5.0).rating == pytest.approx(-40.0, abs=1e-6)


def test_symmetric_results_rate_at_the_centre():
    # 50% against -100 and 50% against +100: by symmetry the rating is 0,
    # and 30/40 against -100 with 10/40 against +100 too
    assert anchored_rating([AnchoredResult(-100, 20, 10), AnchoredResult(100, 20, 10)]).rating == pytest.approx(0)
    assert anchored_rating([AnchoredResult(-100, 40, 30), AnchoredResult(100, 40, 10)]).rating == pytest.approx(0)


def test_the_maximum_sets_points_equal_to_expected_points():
    results = [AnchoredResult(0, 40, 30), AnchoredResult(200, 40, 10), AnchoredResult(-50, 10, 6.5)]
    r = anchored_rating(results).rating
    assert sum(x.games * expected(r, x.rating) for x in results) == pytest.approx(46.5, abs=1e-6)


def test_the_interval_is_where_the_likelihood_drops_by_z_squared_over_two():
    results = [AnchoredResult(0, 40, 30), AnchoredResult(200, 40, 10)]
    r = anchored_rating(results)
    best = log_likelihood(r.rating, results)
    assert r.low < r.rating < r.high
    for end in (r.low, r.high):
        assert log_likelihood(end, results) == pytest.approx(best - Z * Z / 2, abs=1e-6)


def test_many_games_give_the_fisher_interval():
    # n = 10000 at 50%: half-width z * (400 / ln 10) / sqrt(n / 4) = 6.81
    r = performance(0.0, 10_000, 5_000.0)
    assert r.high - r.rating == pytest.approx(Z * ELO_PER_NAT / 50, rel=1e-3)
    assert r.rating - r.low == pytest.approx(Z * ELO_PER_NAT / 50, rel=1e-3)


@pytest.mark.parametrize("games", [2, 9, 40])
def test_more_points_never_rate_lower_and_the_interval_holds_the_rating(games):
    previous = None
    for half_points in range(0, 2 * games + 1):
        r = performance(30.0, games, half_points / 2)
        assert r.low <= r.rating <= r.high
        if previous is not None:
            assert r.rating > previous.rating
            assert r.low >= previous.low and r.high >= previous.high
        previous = r


def test_higher_anchors_rate_higher():
    low = anchored_rating([AnchoredResult(0, 20, 12), AnchoredResult(100, 20, 8)])
    high = anchored_rating([AnchoredResult(50, 20, 12), AnchoredResult(100, 20, 8)])
    assert high.rating > low.rating


def test_a_clean_sweep_is_unbounded_on_one_side():
    won = performance(0.0, 10, 10.0)
    assert won.rating == math.inf and won.high == math.inf and math.isfinite(won.low) and won.low > 0
    # the lower end: where 10 wins have likelihood exp(-z²/2), p^10 = exp(-1.92)
    assert 10 * math.log(expected(won.low, 0.0)) == pytest.approx(-Z * Z / 2, abs=1e-6)
    lost = performance(0.0, 10, 0.0)
    assert lost.rating == -math.inf and lost.low == -math.inf and lost.high == pytest.approx(-won.low)
    assert format_rating(won).startswith(">+") and format_rating(lost).startswith("<-")


def test_the_anchors_errors_widen_the_interval():
    exact = performance(0.0, 100, 60.0)
    loose = performance(0.0, 100, 60.0, opponent_stderr=30.0)
    assert loose.rating == pytest.approx(exact.rating)
    # one opponent: the rating moves one for one with its anchor
    assert loose.high - loose.rating == pytest.approx(math.hypot(exact.high - exact.rating, Z * 30.0))
    assert loose.rating - loose.low == pytest.approx(math.hypot(exact.rating - exact.low, Z * 30.0))


def test_bad_results_are_refused():
    with pytest.raises(ValueError, match="no games"):
        anchored_rating([])
    with pytest.raises(ValueError, match="no games"):
        anchored_rating([AnchoredResult(0, 0, 0)])
    with pytest.raises(ValueError, match="points"):
        AnchoredResult(0, 4, 5)
    with pytest.raises(ValueError, match="finite"):
        AnchoredResult(math.nan, 4, 2)
    assert format_rating(performance(0.0, 100, 75.0)) == "+191 [+115, +273]"
