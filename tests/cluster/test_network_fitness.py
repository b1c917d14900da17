"""Network fitness (cluster/fitness/network_fitness.py): the games a generation
plays, cut into tasks, and the points they give — exact, seeded, and the
same however the games are split or run."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from genethello.cluster.config import PopulationConfig, RunConfig
from genethello.cluster.fitness.network_fitness import (
    FitnessConfig,
    FitnessGames,
    fitness_tasks,
    rank_members,
    start_openings,
    total_points,
)
from genethello.cluster.run.executors import RayExecutor, SerialExecutor, batches_of
from genethello.cluster.run.run_check import check_run_config
from genethello.core.engine.board import Board
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.network_family import NETWORKS, NetworkIndividual
from genethello.core.families.networks import Network
from genethello.core.play.league import LEAGUE_WPC_WEIGHTS

ALL_1 = NETWORKS.parse_kind("all-1")
ALL_2 = NETWORKS.parse_kind("all-2")


def _random_members(kind, n, seed=1):
    rng = np.random.default_rng(seed)
    return [NETWORKS.random_individual(kind, 0, rng) for _ in range(n)]


def _wpc_network() -> NetworkIndividual:
    """The League's WPC heuristic as an all-1 network: LUT (empty, mine,
    theirs) = (0, w, -w) for each square class."""
    arch = architecture("all-1")
    weights = []
    for (square,) in arch.tuples:
        w = LEAGUE_WPC_WEIGHTS[square]
        weights += [0.0, w, -w]
    return NetworkIndividual(ALL_1, 0, Network(arch, np.array(weights)))


def _points(config, members, hall=(), batch_games=4096, seed=5, generation=3):
    tasks = fitness_tasks(config, generation, seed, members, hall, batch_games)
    results = [t.run() for t in tasks]
    return total_points(results, len(members)), sum(r.games for r in results), tasks


def test_coevolution_points_sum_to_the_games_of_the_round_robin():
    members = _random_members(ALL_1, 6)
    config = FitnessConfig("coevolution", games_per_pair=3, start_plies=4)
    points, games, _ = _points(config, members)
    assert games == 15 * 3 * 2
    assert points.sum() == games
    # every member plays 5 opponents * 3 double games
    assert np.all((points >= 0) & (points <= 30))


def test_fixed_points_are_the_members_share_and_each_plays_its_own_games():
    members = _random_members(ALL_1, 4)
    config = FitnessConfig("fixed", opponents=("wpc", "random"), games_per_opponent=10)
    points, games, tasks = _points(config, members)
    assert games == 4 * 2 * 10 * 2
    assert np.all(points <= 40)
    # the member slots of a task are the members only; opponents count nothing
    assert all(set(t.slots.tolist()) <= {-1, 0, 1, 2, 3} for t in tasks)


def test_results_do_not_depend_on_how_the_games_are_split_or_ordered():
    members = _random_members(ALL_1, 7, seed=3)
    for config in (FitnessConfig("coevolution", games_per_pair=4, start_plies=3),
                   FitnessConfig("fixed", opponents=("wpc", "random"), games_per_opponent=9, start_plies=5),
                   FitnessConfig("hall", games_per_opponent=5, start_plies=2)):
        hall = _random_members(ALL_1, 3, seed=9) if config.kind == "hall" else ()
        whole, games, tasks = _points(config, members, hall, batch_games=100_000)
        assert len(tasks) == 1
        for batch in (1, 7, 64):
            tasks = fitness_tasks(config, 3, 5, members, hall, batch)
            results = [t.run() for t in reversed(tasks)]
            assert [r.task_index for r in results] == list(range(len(tasks)))[::-1]
            assert sum(r.games for r in results) == games
            np.testing.assert_array_equal(total_points(results, len(members)), whole)


def test_the_same_inputs_give_the_same_tasks_and_points_and_another_seed_other_games():
    members = _random_members(ALL_1, 5)
    config = FitnessConfig("coevolution", games_per_pair=20, start_plies=4)
    a, _, tasks_a = _points(config, members)
    b, _, tasks_b = _points(config, _random_members(ALL_1, 5))
    np.testing.assert_array_equal(a, b)
    assert [(t.game_seed, t.start_seed, t.black.tolist()) for t in tasks_a] == \
        [(t.game_seed, t.start_seed, t.black.tolist()) for t in tasks_b]
    c, _, _ = _points(config, members, seed=6)
    d, _, _ = _points(config, members, generation=4)
    assert not np.array_equal(a, c)
    assert not np.array_equal(a, d)


def test_a_double_game_plays_one_start_with_each_side_black_once():
    members = _random_members(ALL_1, 3)
    config = FitnessConfig("coevolution", games_per_pair=2, start_plies=6)
    (task,) = fitness_tasks(config, 1, 2, members)
    assert task.black[0::2].tolist() == task.white[1::2].tolist()
    assert task.white[0::2].tolist() == task.black[1::2].tolist()
    # colour symmetry: a network against itself from the same starts, both colours: exactly half the points
    twins = [members[0], members[0]]
    points, games, _ = _points(FitnessConfig("coevolution", games_per_pair=50, epsilon=0.0, start_plies=6), twins)
    assert points.sum() == games == 100
    assert points[0] == points[1] == 50


def test_starts_are_legal_random_positions_of_the_named_length():
    openings = start_openings(123, np.arange(200), 6)
    assert len(openings) == 200
    assert len(set(openings)) > 150
    for moves in openings:
        assert len(moves) == 6
        Board.from_moves(list(moves))          # legal, or it raises
    assert start_openings(123, np.arange(5), 6) == openings[:5]
    assert start_openings(124, np.arange(5), 6) != openings[:5]
    assert start_openings(123, np.arange(3), 0) == [(), (), ()]


def test_the_wpc_network_beats_random_networks_and_ranks_first():
    members = [*_random_members(ALL_1, 5, seed=11), _wpc_network()]
    points, games, _ = _points(FitnessConfig("coevolution", games_per_pair=40, start_plies=4), members)
    assert rank_members(points)[0] == 5
    assert points[5] / (5 * 80) > 0.75
    wpc_vs_random, _, _ = _points(FitnessConfig("fixed", opponents=("random",), games_per_opponent=200),
                                  [_wpc_network()])
    assert wpc_vs_random[0] / 400 > 0.75


def test_hall_fitness_counts_members_only_and_an_empty_hall_plays_the_opponents():
    members = _random_members(ALL_1, 3)
    hall = [_wpc_network()]
    config = FitnessConfig("hall", games_per_opponent=30, opponents=("random",))
    points, games, tasks = _points(config, members, hall)
    assert games == 3 * 30 * 2
    assert points.sum() < games / 2        # the WPC network wins most
    empty, _, _ = _points(config, members, ())
    fixed, _, _ = _points(FitnessConfig("fixed", games_per_opponent=30, opponents=("random",)), members)
    np.testing.assert_array_equal(empty, fixed)


def test_ranking_is_points_descending_then_slot():
    assert rank_members([3.0, 5.0, 3.0, 5.5]) == [3, 1, 0, 2]


def test_a_task_pickles_small_with_integer_weights():
    members = _random_members(ALL_2, 20)
    tasks = fitness_tasks(FitnessConfig("coevolution", games_per_pair=5), 1, 1, members, batch_games=1024)
    assert len(tasks) == 2
    size = len(pickle.dumps(tasks[0]))
    assert size < 20 * 288 * 4 + 40_000, size
    assert all(c.int_weights.dtype == np.int32 for c in tasks[0].contestants if not isinstance(c, str))


@pytest.mark.parametrize("config", [
    dict(kind="sideways"), dict(games_per_pair=0), dict(kind="fixed", games_per_opponent=0),
    dict(opponents=("edax",)), dict(kind="fixed", opponents=()), dict(epsilon=1.5), dict(start_plies=-1),
    dict(start_plies=40), dict(games_per_pair=2.5),
])
def test_a_bad_fitness_config_is_one_clear_error(config):
    # A value is refused where the FitnessConfig is built; the kind, and what
    # it needs of the other keys, by the run check (the table of fitness
    # kinds lies above the config's ground floor).
    with pytest.raises(ValueError) as err:
        check_run_config(RunConfig(population=PopulationConfig(type="all-1", size=4),
                                   fitness=FitnessConfig(**config)))
    assert "\n" not in str(err.value) and "fitness" in str(err.value)


def test_coevolution_needs_two_members():
    with pytest.raises(ValueError, match="at least 2 members"):
        fitness_tasks(FitnessConfig("coevolution"), 1, 1, _random_members(ALL_1, 1))


def _executor_points(executor, tasks, members):
    outcomes = [o for batch in executor.run(FitnessGames(), batches_of(tasks), lambda: False) for o in batch]
    return total_points(outcomes, members), len(outcomes)


def test_the_executors_run_fitness_tasks_unchanged(ray_cluster):
    members = _random_members(ALL_2, 8)
    config = FitnessConfig("coevolution", games_per_pair=6, start_plies=4)
    tasks = fitness_tasks(config, 2, 4, members, batch_games=37)
    expected = total_points([t.run() for t in tasks], 8)
    serial, n = _executor_points(SerialExecutor(task_seconds=0.001), tasks, 8)
    assert n == len(tasks)
    np.testing.assert_array_equal(serial, expected)
    on_ray, n = _executor_points(RayExecutor(ray_cluster, task_seconds=0.001), tasks, 8)
    assert n == len(tasks)
    np.testing.assert_array_equal(on_ray, expected)
