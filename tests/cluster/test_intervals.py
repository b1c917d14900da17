"""Wilson intervals for match scores, with hand-computed values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genethello.cluster.measures.intervals import MatchScore, games_for_half_width, wilson_interval


def test_known_values():
    # 50 of 100: centre 0.5, half-width z/(1+z²/n)·sqrt(p q/n + z²/4n²).
    z = 1.959963984540054
    half = z / (1 + z * z / 100) * math.sqrt(0.25 / 100 + z * z / 40_000)
    assert wilson_interval(50, 100) == pytest.approx((0.5 - half, 0.5 + half))
    assert wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    # All won: the lower end is n/(n+z²), the upper 1.
    low, high = wilson_interval(20, 20)
    assert low == pytest.approx(20 / (20 + z * z)) and high == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_385_games_give_five_points_at_half():
    assert games_for_half_width(0.05) == 385
    low, high = wilson_interval(192.5, 385)
    assert (high - low) / 2 <= 0.05
    low, high = wilson_interval(150, 300)
    assert (high - low) / 2 > 0.05


@given(st.integers(1, 2000), st.data())
def test_the_interval_holds_the_score_and_stays_in_range(games, data):
    points = data.draw(st.integers(0, 2 * games)) / 2
    low, high = wilson_interval(points, games)
    assert 0.0 <= low <= points / games <= high <= 1.0


@pytest.mark.parametrize("points, games", [(-1, 4), (5, 4), (1, -1)])
def test_impossible_scores_are_refused(points, games):
    with pytest.raises(ValueError):
        wilson_interval(points, games)


def test_match_score_counts_and_text():
    score = MatchScore.from_margins([10, 0, -2, 64, -64, 0])
    assert (score.wins, score.draws, score.losses) == (2, 2, 2)
    assert score.points == 3.0 and score.score == 0.5 and score.games == 6
    assert score.add(1) == MatchScore(3, 2, 2)
    assert score.text().startswith("50.0% [") and score.text().endswith("(W/D/L 2/2/2)")
