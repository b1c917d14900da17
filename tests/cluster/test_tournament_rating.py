"""Bradley–Terry fit: known numbers, recovery of simulated ratings, error bars."""

from __future__ import annotations

import math

import numpy as np
import pytest

from genethello.cluster.fitness.pairing import round_robin_pairs
from genethello.cluster.fitness.tournament_rating import ELO_PER_NAT, RatingEstimate, fit_bradley_terry

TRUE = {"a": -300.0, "b": -150.0, "c": -50.0, "d": 50.0, "e": 150.0, "f": 300.0}


def simulate(true: dict, games_per_pair: int, seed: int, draw_rate: float = 0.1):
    """Games from Elo-scale true ratings: each pair plays games_per_pair
    games (half with each colour); black's expected score follows the
    logistic curve, with draws taking a share of it from both sides."""
    rng = np.random.default_rng(seed)
    games = []
    for black, white in round_robin_pairs(list(true)):
        p = 1.0 / (1.0 + 10.0 ** ((true[white] - true[black]) / 400.0))
        u = rng.random(games_per_pair // 2)
        # P(win) = p - d/2, P(draw) = d, P(loss) = 1 - p - d/2: expected score p.
        d = draw_rate * min(p, 1 - p)
        scores = np.where(u < p - d / 2, 1.0, np.where(u < p + d / 2, 0.5, 0.0))
        games.extend((black, white, float(s)) for s in scores)
    return games


def test_two_players_known_numbers():
    # A scores 300/400 against B: the maximum-likelihood gap is
    # 400·log10(3) Elo, and the stderr of each centred rating is half that
    # of the gap, ELO_PER_NAT / (2·sqrt(n·p·q)).
    games = [("A", "B", 1.0)] * 150 + [("B", "A", 0.0)] * 150 + [("A", "B", 0.0)] * 50 + [("B", "A", 1.0)] * 50
    fit = fit_bradley_terry(["A", "B"], games, prior_games=1e-9)
    assert fit["A"].rating - fit["B"].rating == pytest.approx(400 * math.log10(3), rel=1e-6)
    assert fit["A"].rating + fit["B"].rating == pytest.approx(0.0, abs=1e-9)
    expected_stderr = ELO_PER_NAT / (2 * math.sqrt(400 * 0.75 * 0.25))
    assert fit["A"].stderr == pytest.approx(expected_stderr, rel=1e-6)
    assert fit["B"].stderr == pytest.approx(expected_stderr, rel=1e-6)
    assert fit["A"] == RatingEstimate(fit["A"].rating, fit["A"].stderr, games=400, score=300.0)
    assert fit["B"].score == 100.0


def test_recovers_simulated_ratings():
    games = simulate(TRUE, games_per_pair=400, seed=7)
    fit = fit_bradley_terry(list(TRUE), games)
    assert list(fit) == list(TRUE)
    assert sorted(fit, key=lambda p: fit[p].rating) == list(TRUE)
    assert sum(est.rating for est in fit.values()) == pytest.approx(0.0, abs=1e-9)
    for player, est in fit.items():
        assert est.games == 5 * 400
        assert abs(est.rating - TRUE[player]) < 4 * est.stderr
        assert 5 < est.stderr < 20


def test_error_bars_shrink_with_more_games():
    few = fit_bradley_terry(list(TRUE), simulate(TRUE, 40, seed=1))
    many = fit_bradley_terry(list(TRUE), simulate(TRUE, 640, seed=1))
    for player in TRUE:
        # 16 times the games: about a quarter of the error.
        assert many[player].stderr < 0.35 * few[player].stderr


def test_a_player_who_won_everything_stays_finite():
    games = simulate(TRUE, 40, seed=3)
    games = [(b, w, 1.0 if b == "a" else 0.0 if w == "a" else s) for b, w, s in games]
    fit = fit_bradley_terry(list(TRUE), games)
    top = fit["a"]
    assert top.score == top.games == 5 * 40
    assert math.isfinite(top.rating) and math.isfinite(top.stderr)
    assert top.rating == max(est.rating for est in fit.values())
    assert top.stderr > max(est.stderr for p, est in fit.items() if p != "a")
    # More prior games pull the unbeaten player back towards the field.
    assert fit_bradley_terry(list(TRUE), games, prior_games=10)["a"].rating < top.rating


def test_result_does_not_depend_on_game_order_and_is_deterministic():
    games = simulate(TRUE, 100, seed=4)
    fit = fit_bradley_terry(list(TRUE), games)
    assert fit_bradley_terry(list(TRUE), games) == fit
    shuffled = list(games)
    np.random.default_rng(0).shuffle(shuffled)
    refit = fit_bradley_terry(list(TRUE), shuffled)
    for player in TRUE:
        assert refit[player].rating == pytest.approx(fit[player].rating, abs=1e-6)
        assert refit[player].stderr == pytest.approx(fit[player].stderr, rel=1e-6)


def test_a_player_without_games_sits_near_the_average():
    games = simulate({"x": 100.0, "y": -100.0}, 100, seed=5)
    fit = fit_bradley_terry(["x", "y", "idle"], games)
    idle = fit["idle"]
    assert idle.games == 0 and idle.score == 0.0
    assert math.isfinite(idle.rating) and math.isfinite(idle.stderr)
    assert fit["y"].rating < idle.rating < fit["x"].rating


def test_empty_field():
    assert fit_bradley_terry([], []) == {}


@pytest.mark.parametrize(
    ("players", "games", "kwargs", "message"),
    [
        (["a", "a"], [], {}, "duplicates"),
        (["a", "b"], [("a", "z", 1)], {}, "'z' is not among the players"),
        (["a", "b"], [("a", "b", 1), ("a", "b", 0.3)], {}, "game 1: score_black=0.3"),
        (["a", "b"], [("a", "a", 1)], {}, "itself"),
        (["a", "b"], [], {"prior_games": 0}, "prior_games=0"),
        (["a", "b"], [], {"iterations": 0}, "iterations=0"),
        (["a", "b"], [], {"tolerance": 0.0}, "tolerance=0.0"),
    ],
)
def test_bad_arguments(players, games, kwargs, message):
    with pytest.raises(ValueError, match=message):
        fit_bradley_terry(players, games, **kwargs)


def test_inputs_are_not_modified():
    players = list(TRUE)
    games = simulate(TRUE, 20, seed=6)
    before = (list(players), list(games))
    fit_bradley_terry(players, games)
    assert (players, games) == before
