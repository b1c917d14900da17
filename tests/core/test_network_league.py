"""The League measure on the fast loop (core/play/network_league.py, league-fast-1)."""

from __future__ import annotations

import numpy as np
import pytest

from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.networks import Network
from genethello.core.play.league import LEAGUE_WPC_WEIGHTS
from genethello.core.play.network_league import LEAGUE_FAST_VERSION, league_fast_seed, league_score


def _wpc_network() -> Network:
    """The WPC heuristic as an all-1 network (LUT 0, w, -w a square class)."""
    arch = architecture("all-1")
    return Network(arch, np.array([x for (s,) in arch.tuples for x in (0.0, LEAGUE_WPC_WEIGHTS[s],
                                                                      -LEAGUE_WPC_WEIGHTS[s])]))


def test_the_wpc_heuristic_as_a_network_scores_about_half_against_itself():
    score = league_score(_wpc_network(), 2000, seed=1)
    assert score.games == 4000
    low, high = score.interval
    assert low < 0.5 < high, score.text()


def test_a_random_network_scores_far_below_and_its_interval_is_the_wilson_one():
    net = Network.random(architecture("all-2"), np.random.default_rng(2))
    score = league_score(net, 1000, seed=3)
    assert score.games == 2000 and score.wins + score.draws + score.losses == 2000
    assert score.score < 0.4
    low, high = score.interval
    assert low < score.score < high


def test_the_measure_is_seeded_and_named():
    net = Network.random(architecture("all-2"), np.random.default_rng(4))
    assert league_score(net, 300, seed=7) == league_score(net.evaluator(), 300, seed=7)
    assert league_score(net, 300, seed=7) != league_score(net, 300, seed=8)
    assert league_fast_seed(7) != league_fast_seed(8)
    assert LEAGUE_FAST_VERSION == "league-fast-1"
    assert league_score(net, 0, seed=1).games == 0
    with pytest.raises(ValueError, match="double_games"):
        league_score(net, -1, seed=1)
