"""The ε-player's name and seed (cluster/fitness/epsilon_players.py): a
fitness opponent ``eps0.2:PLAYER`` errs on its own moves; every other
name is the player it names, and the draws are a pure function of the game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genethello.cluster.fitness.epsilon_players import (
    anchor_opponents,
    epsilon_player,
    epsilon_player_name,
    epsilon_seed,
    split_epsilon,
)

PLAYERS = ("wpc", "p_1_10", "fdmxcp_52_2:0:6:9:4:5", "all-2-league", "patterns-v2-net")


@pytest.mark.parametrize("player", PLAYERS)
def test_a_name_with_its_epsilon_splits_back_into_both(player):
    for epsilon in (0.05, 0.2, 1.0, 1e-3):
        name = epsilon_player_name(epsilon, player)
        assert epsilon_player(name) and split_epsilon(name) == (epsilon, player)
    assert (epsilon_player(player), split_epsilon(player)) == (False, (0.0, player))


@given(st.text(max_size=30))
def test_any_other_name_is_the_player_it_names(name):
    if not epsilon_player(name):
        assert split_epsilon(name) == (0.0, name)


@pytest.mark.parametrize("name", ["eps0:wpc", "eps1.5:wpc", "eps2:p_1_10", "eps0.0:wpc"])
def test_an_epsilon_outside_zero_to_one_is_one_line(name):
    with pytest.raises(ValueError, match=r"^'eps[^']*': an ε-player's ε must be in \(0, 1\]") as caught:
        split_epsilon(name)
    assert "\n" not in str(caught.value)


def test_the_seed_is_the_games_own():
    opening = (37, 43, 34)
    seed = epsilon_seed("p_1_10", "eps0.2:wpc", opening)
    assert seed == epsilon_seed("p_1_10", "eps0.2:wpc", list(opening))
    assert len({seed, epsilon_seed("eps0.2:wpc", "p_1_10", opening),              # colours swapped
                epsilon_seed("p_1_10", "eps0.3:wpc", opening),                     # another ε
                epsilon_seed("p_1_10", "eps0.2:wpc", opening[:2])}) == 4          # another opening
    assert 0 <= seed < 2 ** 64


def test_the_hall_is_anchored_on_the_players_that_do_not_err():
    assert anchor_opponents(["eps0.1:wpc", "p_1_10", "eps0.5:p_1_10", "wpc"]) == ("p_1_10", "wpc")
    assert anchor_opponents(["eps0.1:wpc"]) == ()
