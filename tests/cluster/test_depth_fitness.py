"""Fitness with search in the loop (issue 29, part 2): with ``fitness.depth
>= 1`` a network run's fitness games, of every kind, and its hall's games
are the core's engine games at that depth and exact setting. Each game is
the game the engine itself plays (replayed here with ``play_game``); a
depth run stores the same content at 1 and 2 workers and after a SIGKILL
and resume; depth 0 (the default) is the fast 1-ply loop, unchanged; bad
keys are one line naming themselves."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import numpy as np
import pytest

from genethello.cluster.config import ConfigError, FitnessConfig
from genethello.cluster.fitness.epsilon_players import epsilon_seed, split_epsilon
from genethello.cluster.fitness.matches import Matches, Pairing, PlaySetting, side_of
from genethello.cluster.fitness.network_depth_fitness import (
    WPC,
    DepthFitnessTask,
    depth_contestant,
    depth_fitness_tasks,
    opponent_individual,
    resolve_opponent,
    wpc_evaluator,
)
from genethello.cluster.fitness.network_fitness import NetworkFitnessTask, fitness_tasks
from genethello.cluster.run.executors import RayExecutor
from genethello.cluster.run.run_check import config_from_json, config_from_mapping, load_config
from genethello.core.engine.game import Engine, play_game
from genethello.core.evaluation.evaluation import BaseEvaluator
from genethello.core.families.network_family import NETWORKS, NetworkIndividual
from genethello.core.families.registry import evaluator_of, parse_individual, parse_kind
from genethello.core.play.league import wpc_hundredths

from .conftest import db_snapshot, query, session_pids, snapshot_diff, write_config
from .test_cli_runs import Watcher, start_and_kill
from .test_network_runs import assert_workers_store, drive, serial_reference

#: A tiny depth-2 CMA-ES run on all-2: 6 members against the WPC heuristic,
#: p_1_10 and p_1_10 as an ε-player from distinct-4 openings, 216 games a
#: generation in 27 tasks, the hall (at depth 2, anchored on the two that
#: are not ε-players) every 2 generations.
DEPTH = dict(name="deep", population__type="all-2", population__size=6, breeding__method="cma-es",
             fitness__kind="fixed", fitness__opponents=["wpc", "p_1_10", "eps0.25:p_1_10"],
             fitness__games_per_opponent=6, fitness__depth=2, fitness__openings="distinct-4",
             fitness__batch_games=8, hall__games_per_member=4, hall__every=2, stop__max_generations=4)
DEPTH_TASKS = 27


def _members(count: int, seed: int = 5) -> list[NetworkIndividual]:
    rng = np.random.default_rng(seed)
    return [NETWORKS.random_individual(parse_kind("all-2"), 1, rng) for _ in range(count)]


def _evaluator(contestant: object) -> BaseEvaluator:
    if contestant == WPC:
        return wpc_evaluator()
    assert isinstance(contestant, tuple)
    return evaluator_of(parse_individual(*contestant))


def _name(contestant: object) -> str:
    return contestant if isinstance(contestant, str) else contestant[0]


def _engine(contestant: object, task: DepthFitnessTask) -> Engine:
    """A fresh engine of ``contestant`` at the task's setting (an ε-player's ε its own)."""
    epsilon, player = split_epsilon(_name(contestant))
    plain = player if isinstance(contestant, str) else (player, contestant[1])
    return Engine(_evaluator(plain), depth=task.depth, exact_empties=task.exact_empties, epsilon=epsilon)


def _engine_points(task: DepthFitnessTask) -> np.ndarray:
    """The task's points from the engine's own games, one fresh pair of engines a game."""
    points = np.zeros(task.members)
    for b, w, opening in zip(task.black.tolist(), task.white.tolist(), task.starts(), strict=True):
        black, white = _engine(task.contestants[b], task), _engine(task.contestants[w], task)
        seed = epsilon_seed(_name(task.contestants[b]), _name(task.contestants[w]), opening)
        result = play_game(black, white, opening, seed=seed)
        for side, pts in ((b, result.black_points), (w, 1.0 - result.black_points)):
            if task.slots[side] >= 0:
                points[task.slots[side]] += pts
    return points


@pytest.mark.parametrize("fitness, hall", [
    (FitnessConfig(kind="fixed", opponents=("wpc", "p_1_10", "all-2-league", "fdmxcp_52_2:0:6:9:4:5"),
                   games_per_opponent=3, depth=2, openings="distinct-4"), 0),
    (FitnessConfig(kind="coevolution", games_per_pair=2, depth=2, exact_empties=6, start_plies=3), 0),
    (FitnessConfig(kind="hall", opponents=("wpc",), games_per_opponent=2, depth=1, openings="distinct-3"), 2),
    (FitnessConfig(kind="fixed", opponents=("eps0.3:wpc", "eps1:all-2-league", "wpc"), games_per_opponent=3,
                   depth=2, openings="distinct-4"), 0),
])
def test_depth_fitness_games_are_the_engines_own_games(fitness, hall):
    members = _members(4)
    halls = _members(hall, seed=9)
    opponents = [resolve_opponent(o) for o in fitness.opponents]
    tasks = depth_fitness_tasks(fitness, 3, 11, members, halls, opponents, batch_games=7)
    games = {"fixed": 4 * len(fitness.opponents) * 6, "coevolution": 6 * 4, "hall": 4 * 2 * 4}[fitness.kind]
    assert sum(t.games for t in tasks) == games
    for task in tasks:
        ours = task.run()
        assert ours.games == task.games and np.array_equal(ours.points, _engine_points(task))
    # The games do not depend on how they are cut into tasks.
    whole = depth_fitness_tasks(fitness, 3, 11, members, halls, opponents, batch_games=1000)
    assert np.array_equal(sum(t.run().points for t in tasks), whole[0].run().points)
    # Every double game of a pairing starts from its own opening.
    if fitness.openings:
        starts = tasks[0].starts()
        assert len({starts[2 * k] for k in range(3 if fitness.kind == "fixed" else 2)}) > 1


def test_a_hall_entry_at_depth_is_the_engines_own_games():
    champion, *others = _members(3, seed=2)
    contestants = (depth_contestant(champion), *(depth_contestant(m) for m in others))
    specs = [Pairing(0, 0, 1, (37, 43)), Pairing(1, 2, 0, (37, 43)), Pairing(2, 0, 2, ())]
    outcomes = Matches(tuple(side_of(c, PlaySetting(2, 4)) for c in contestants)).run(specs)
    for spec, outcome in zip(specs, outcomes, strict=True):
        black = Engine(_evaluator(contestants[spec.black]), depth=2, exact_empties=4)
        white = Engine(_evaluator(contestants[spec.white]), depth=2, exact_empties=4)
        assert outcome.score == play_game(black, white, spec.opening).score


def test_the_wpc_evaluator_is_the_wpc_heuristic():
    """Its value of a position for the side that just moved is the WPC's, in hundredths."""
    rng = np.random.default_rng(3)
    net = wpc_evaluator().ntuple
    for _ in range(200):
        owner = rng.integers(0, 3, 64)
        mine = sum(1 << s for s in range(64) if owner[s] == 1)
        theirs = sum(1 << s for s in range(64) if owner[s] == 2)
        assert net.value(mine, theirs) == wpc_hundredths(mine, theirs)


def test_depth_zero_is_the_fast_loop_and_old_configs_read_as_it():
    assert (FitnessConfig().depth, FitnessConfig().exact_empties, FitnessConfig().openings) == (0, 0, "")
    tasks = fitness_tasks(FitnessConfig(kind="fixed", games_per_opponent=4), 1, 3, _members(3))
    assert all(isinstance(t, NetworkFitnessTask) for t in tasks)
    stored = json.loads(config_from_mapping({"population": {"type": "all-2"}, "breeding": {"method": "cma-es"}})
                        .to_json())
    for key in ("depth", "exact_empties", "openings"):
        del stored["fitness"][key]    # a config stored before the keys existed
    assert config_from_json(json.dumps(stored)).fitness == FitnessConfig()


def test_a_fitness_opponent_may_not_be_a_file(tmp_path):
    """The opponents are stored with the run's config, which every resume
    reads: a file they named would be opened on a database's say (even one
    that exists and holds a network)."""
    path = tmp_path / "best.json"
    data = {"population": {"type": "all-2"}, "breeding": {"method": "cma-es"},
            "fitness": {"depth": 2, "kind": "fixed", "opponents": [str(path)]}}
    with pytest.raises(ConfigError, match=r"^fitness[.]opponents: .* names a file"):
        config_from_mapping(data)


@pytest.mark.parametrize("fitness, key", [
    ({"depth": 2, "kind": "fixed", "opponents": ["nobody_1"]}, "fitness.opponents"),
    ({"depth": 2, "kind": "fixed", "opponents": ["random"]}, "fitness.opponents"),
    ({"depth": 2, "kind": "fixed", "opponents": ["no-such-network.json"]}, "fitness.opponents"),
    ({"depth": 2, "kind": "fixed", "opponents": ["wpc", "eps2:p_1_10"]}, "fitness.opponents"),     # ε > 1
    ({"depth": 2, "kind": "fixed", "opponents": ["wpc", "eps0.1:eps0.2:p_1_10"]}, "fitness.opponents"),
    ({"depth": 2, "kind": "fixed", "opponents": ["wpc", "eps0.1:nobody_1"]}, "fitness.opponents"),
    ({"depth": 2, "kind": "fixed", "opponents": ["eps0.1:wpc"]}, "fitness.opponents"),  # no anchor for the hall
    ({"kind": "fixed", "opponents": ["eps0.1:wpc"]}, "fitness.opponents"),      # depth 0: the loop's own ε
    ({"kind": "fixed", "opponents": ["p_1_10"]}, "fitness.opponents"),          # depth 0: the fast loop's only
    ({"depth": 21}, "fitness.depth"),
    ({"depth": -1}, "fitness.depth"),
    ({"depth": 2, "exact_empties": 31}, "fitness.exact_empties"),
    ({"exact_empties": 4}, "fitness.exact_empties"),                            # needs a depth
    ({"openings": "distinct-4"}, "fitness.openings"),                          # needs a depth
    ({"depth": 2, "openings": "bogus"}, "fitness.openings"),
    ({"depth": 2, "openings": "distinct-2", "games_per_pair": 4}, "fitness.games_per_pair"),
    ({"depth": 2, "kind": "fixed", "openings": "distinct-1", "games_per_opponent": 2}, "fitness.games_per_opponent"),
])
def test_bad_depth_keys_are_one_line_naming_the_key(fitness, key):
    data = {"population": {"type": "all-2"}, "breeding": {"method": "cma-es"}, "fitness": fitness}
    with pytest.raises(ConfigError, match=rf"^{key.replace('.', '[.]')}: ") as caught:
        config_from_mapping(data)
    assert "\n" not in str(caught.value)


# --------------------------------------------------------------------------- #
# Whole runs


@pytest.fixture(scope="module")
def depth_reference(tmp_path_factory):
    return serial_reference(tmp_path_factory.mktemp("depth-reference"), "deep", **DEPTH)


def test_a_depth_run_at_one_or_two_workers_stores_what_a_serial_run_stores(ray_cluster, tmp_path,
                                                                            depth_reference):
    assert_workers_store(tmp_path, "deep", depth_reference, **DEPTH)
    snap = depth_reference
    assert len(snap["fitness"]) == 4 * DEPTH_TASKS and len(snap["population"]) == 4 * 6
    assert [m[1] for m in snap["hall_members"]] == [1, 2, 4]
    # Each entry plays the hall's members and the two fitness opponents, at
    # least a pair each: 1 (alone, against wpc and p_1_10), 2 and 4.
    assert [len([h for h in snap["hall_games"] if h[0] == g]) for g in (1, 2, 4)] == [4, 6, 8]
    opponents = {h[2] for h in snap["hall_games"]} | {h[3] for h in snap["hall_games"]}
    assert "p_1_10" in opponents and str(opponent_individual("wpc")) in opponents
    assert not any(o.startswith("eps") for o in opponents)     # the ε-player plays the fitness only
    assert {h[1] for h in snap["hall_ratings"]} <= {m[0] for m in snap["hall_members"]}


def test_a_depth_run_killed_and_resumed_stores_the_same(ray_cluster, tmp_path: Path, depth_reference):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, **DEPTH)
    db = tmp_path / "killed.db"

    def between_commits(w: Watcher) -> bool:
        state = w.state()
        return (state is not None and state[0] >= 2 and state[1] == "playing"
                and 0 < state[2] < state[3] and not w.writing())

    proc, (g, _, done, _) = start_and_kill(
        ["evolve", "--config", str(config), "--db", str(db), "--workers", "1", "--quiet"], db,
        between_commits, "a kill between depth fitness commits", home, tmp_path)
    assert proc.returncode == -signal.SIGKILL and session_pids(proc.pid) == []
    stored = query(db, "SELECT count(*), sum(games) FROM fitness_results WHERE generation = ?", g)[0]
    assert 0 < stored[0] < DEPTH_TASKS and stored[1] == done
    assert drive(db, config, RayExecutor(2, 0.001, 2), create=False) == "finished"
    snap = db_snapshot(db, "deep")
    assert snap == depth_reference, snapshot_diff(snap, depth_reference)


def test_the_depth2_league_config_plays_its_opponents_at_depth_2():
    config = load_config(Path(__file__).parents[2] / "config" / "league-depth2.toml")
    f = config.fitness
    assert (config.breeding.method, config.chromosome_type.name, f.kind, f.depth) == ("cma-es", "all-2", "fixed", 2)
    assert [resolve_opponent(o) == WPC for o in f.opponents] == [True, False]
    tasks = depth_fitness_tasks(f, 1, config.seed, _members(config.population_size), (),
                                [resolve_opponent(o) for o in f.opponents], batch_games=f.batch_games)
    assert sum(t.games for t in tasks) == 16 * 2 * 2 * 16


def test_every_fitness_opponent_has_a_row_that_reads_back():
    """A fixed run's hall stores games against its opponents: each has a
    player row (wpc: the all-1 network of its weights) that parses back."""
    for spec in ("wpc", "p_1_10", "all-2-league", "fdmxcp_52_2:0:6:9:4:5"):
        individual = opponent_individual(spec)
        text, payload = depth_contestant(individual)
        assert parse_individual(text, payload) == individual
