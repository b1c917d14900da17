"""Selection that keeps learning (issue 36 part 5): the ready criterion,
hyperparameter floors and resampling, the gated best so far, and pbt-td's
plan with them switched on (off, it is today's plan: the determinism
snapshots and tests/cluster/test_pbt_td.py)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from genethello.cluster.breeding.breeders import RatedGeneration
from genethello.cluster.breeding.network_pbt import Hyper, PbtTdBreeder, dump_state, load_state
from genethello.cluster.breeding.origins import COPIED, LEARNED
from genethello.cluster.breeding.pbt_selection import (
    HyperPrior,
    ahead_beyond_noise,
    bounded,
    gate_best,
    interval_gate,
    ready,
    resampled,
    score_stderr,
    since_copy_after,
)
from genethello.cluster.config import BreedingConfig, ConfigError
from genethello.cluster.run.run_check import config_from_mapping
from genethello.core.families.registry import parse_kind
from genethello.core.play.scoring import MatchScore
from genethello.core.play.sprt import Sprt

KIND = parse_kind("all-2-s4")
CONFIG = BreedingConfig(method="pbt-td", learning_games=12, learning_batch=4, learning_max_depth=3)


def test_score_stderr_is_a_binomials_with_a_pseudo_game_each_way():
    # 30 of 40: p = 31/42, sqrt(p (1 - p) / 40)
    p = 31 / 42
    assert score_stderr(30, 40) == pytest.approx(math.sqrt(p * (1 - p) / 40))
    assert score_stderr(40, 40) > 0
    with pytest.raises(ValueError):
        score_stderr(5, 0)


def test_a_lead_counts_only_beyond_the_noise():
    # 100 games each: 60 vs 50 points is a lead of 0.10; its stderr ~0.0697, so z 1 says yes and z 2 no
    se = math.hypot(score_stderr(60, 100), score_stderr(50, 100))
    assert se == pytest.approx(0.0697, abs=1e-3)
    assert ahead_beyond_noise(60, 50, 100, 1.0) and not ahead_beyond_noise(60, 50, 100, 2.0)
    assert ahead_beyond_noise(50.5, 50, 100, 0.0) and not ahead_beyond_noise(50, 50, 100, 0.0)
    assert not ahead_beyond_noise(40, 50, 100, 0.0)


def test_ready_needs_both_the_slices_and_the_lead():
    assert not ready(2, 3, 90, 10, 100, 2.0)            # too few slices of its own
    assert ready(3, 3, 90, 10, 100, 2.0)
    assert not ready(5, 3, 52, 50, 100, 2.0)            # a lead within the noise
    assert ready(5, 3, 52, 50, 100, 0.0)                # z 0: any lead
    assert ready(0, 0, 0, 0, 0, 2.0)                    # no games known: no noise test
    assert since_copy_after([1, 4, 2], [False, True, False]) == [2, 1, 3]


PRIOR = HyperPrior(alpha=(0.005, 0.5), lam=(0.3, 1.0), epsilon=(0.02, 0.2), max_depth=3,
                   alpha_floor=0.005, lambda_floor=0.3, epsilon_floor=0.02)


def test_floors_hold_and_leave_values_above_them():
    assert bounded((0.0003, 0.03, 0.001, 2), PRIOR) == (0.005, 0.3, 0.02, 2)
    assert bounded((0.05, 0.7, 0.1, 1), PRIOR) == (0.05, 0.7, 0.1, 1)
    with pytest.raises(ValueError):
        HyperPrior(alpha=(0.0, 0.5), lam=(0, 1), epsilon=(0, 1), max_depth=2)


def test_resampling_draws_from_the_prior_and_nothing_at_probability_0():
    rng = np.random.default_rng(5)
    before = rng.bit_generator.state
    assert resampled((0.05, 0.7, 0.1, 1), PRIOR, 0.0, rng) == ((0.05, 0.7, 0.1, 1), "")
    assert rng.bit_generator.state == before                # no draw: today's stream
    every = [resampled((9.0, 9.0, 9.0, 9), PRIOR, 1.0, np.random.default_rng(s))[0] for s in range(200)]
    alphas, lams, epsilons, depths = zip(*every, strict=True)
    assert min(alphas) >= 0.005 and max(alphas) <= 0.5
    assert sum(a < 0.05 for a in alphas) == pytest.approx(100, abs=30)   # log-uniform: half below the geometric mean
    assert min(lams) >= 0.3 and max(lams) <= 1 and min(epsilons) >= 0.02 and max(epsilons) <= 0.2
    assert set(depths) == {1, 2, 3}
    values, said = resampled((0.05, 0.7, 0.1, 1), PRIOR, 1.0, np.random.default_rng(1))
    assert said.startswith("alpha ~") and "depth ~" in said


def test_the_best_so_far_is_replaced_only_when_the_sprt_says_stronger():
    sprt = Sprt(0.0, 30.0)
    assert gate_best([2.0] * 40, sprt, 200) == "replace"
    assert gate_best([0.0] * 40, sprt, 200) == "keep"
    assert gate_best([1.0] * 3, sprt, 200) == "play on"
    assert gate_best([1.0] * 10, sprt, 10) == "keep"         # undecided at the limit: the old one stays
    # the test stops at the first pair that decides it: later pairs do not undo a decision
    decided = next(n for n in range(1, 60) if gate_best([2.0] * n, sprt, 200) == "replace")
    assert gate_best([2.0] * decided + [0.0] * 30, sprt, 200) == "replace"
    assert interval_gate(MatchScore(70, 0, 30)) and not interval_gate(MatchScore(55, 0, 45))
    assert not interval_gate(MatchScore(0, 0, 0))


def _rated(breeder: PbtTdBreeder, size: int, points: list[float], games: int = 100) -> RatedGeneration:
    first = breeder.first_population(KIND, size, (), np.random.default_rng(1))
    return RatedGeneration(3, KIND, list(first.members), (), first.state, points, list(range(size)), games)


def test_plan_copies_only_from_a_ready_donor_and_counts_slices_since_copies():
    size = 8
    spread = [float(100 - 10 * k) for k in range(size)]        # a clear ranking, 100 games each
    close = [float(50 - 0.1 * k) for k in range(size)]         # a ranking within the noise
    breeder = PbtTdBreeder(replace(CONFIG, ready_slices=2, ready_z=2.0))
    plan = breeder.plan(_rated(breeder, size, spread), size, np.random.default_rng(7))
    assert [o.kind for o in plan.origins] == [LEARNED] * 6 + [COPIED] * 2
    assert plan.since_copy == (4, 4, 4, 4, 4, 4, 1, 1)         # generation 3: three slices of their own, plus this one
    quiet = breeder.plan(_rated(breeder, size, close), size, np.random.default_rng(7))
    assert all(o.kind == LEARNED for o in quiet.origins)
    # the stored state keeps the counts, and a donor copied into one slice ago is not ready
    rated = _rated(breeder, size, spread)
    hypers = load_state(rated.state, size)
    stored = dump_state(hypers, [None] * size, plan.since_copy)
    assert [slot["since_copy"] for slot in json.loads(stored)["slots"]] == list(plan.since_copy)
    assert load_state(stored, size) == hypers
    reversed_counts = dump_state(hypers, [None] * size, (1, 1, 1, 1, 1, 1, 4, 4))
    again = breeder.plan(replace(rated, state=reversed_counts), size, np.random.default_rng(7))
    assert all(o.kind == LEARNED for o in again.origins)
    young = PbtTdBreeder(replace(CONFIG, ready_slices=5))
    assert all(o.kind == LEARNED for o in young.plan(_rated(young, size, spread), size,
                                                     np.random.default_rng(7)).origins)
    with pytest.raises(ValueError, match="ready_z needs the games"):
        PbtTdBreeder(replace(CONFIG, ready_z=2.0)).plan(_rated(breeder, size, spread, games=0), size,
                                                         np.random.default_rng(7))


def test_plan_floors_and_resamples_a_copied_members_hyperparameters():
    size = 8
    breeder = PbtTdBreeder(replace(CONFIG, alpha_floor=0.04, lambda_floor=0.65, epsilon_floor=0.09,
                                   resample_probability=0.5))
    rated = _rated(breeder, size, [float(size - k) for k in range(size)])
    plan = breeder.plan(rated, size, np.random.default_rng(7))
    copied = [s.hyper for s, o in zip(plan.slices, plan.origins, strict=True) if o.kind == COPIED]
    assert copied and all(h.alpha >= 0.04 and h.lam >= 0.65 and h.epsilon >= 0.09 for h in copied)
    plain = PbtTdBreeder(CONFIG).plan(rated, size, np.random.default_rng(7))
    assert plain.since_copy is None
    assert [s.hyper for s in plain.slices] != [s.hyper for s in plan.slices]
    assert load_state(rated.state, size)[0] == Hyper(CONFIG.learning_alpha, CONFIG.learning_lambda,
                                                     CONFIG.learning_epsilon, 1)


def test_the_new_keys_are_checked_and_default_to_plain_pbt():
    b = BreedingConfig()
    assert (b.ready_slices, b.ready_z, b.alpha_floor, b.lambda_floor, b.epsilon_floor,
            b.resample_probability) == (0, 0.0, 0.0, 0.0, 0.0, 0.0)
    with pytest.raises(ConfigError, match="breeding.resample_probability"):
        config_from_mapping({"population": {"type": "all-2-s4"}, "breeding": {"method": "pbt-td",
                                                                              "resample_probability": 2.0}})


def test_a_learning_run_with_the_ready_criterion_counts_each_slots_slices(tmp_path):
    from genethello.cluster.run.executors import SerialExecutor

    from .conftest import query, write_config
    from .test_network_runs import drive

    config = write_config(tmp_path, name="ready", population__type="all-2-s4", population__size=4,
                          breeding__method="pbt-td", breeding__learning_games=10, breeding__learning_batch=5,
                          breeding__ready_slices=1, breeding__ready_z=0.5, breeding__resample_probability=0.5,
                          breeding__alpha_floor=0.01, fitness__kind="coevolution", fitness__games_per_pair=2,
                          fitness__depth=1, fitness__openings="distinct-4", fitness__batch_games=4,
                          hall__games_per_member=0, yardstick__league_double_games=0, stop__max_generations=3)
    assert drive(tmp_path / "r.db", config, SerialExecutor(0.001)) == "finished"
    states = [json.loads(row[0]) for row in query(tmp_path / "r.db", "SELECT breeder_state FROM generations "
                                                                      "WHERE number > 1 ORDER BY number")]
    assert len(states) == 2
    for state in states:
        assert all(slot["since_copy"] >= 1 and slot["alpha"] >= 0.01 for slot in state["slots"])


# ------------------------------------------------- the gated best so far in a run

def test_the_gate_replaces_the_best_only_with_a_stronger_player():
    """play_gate on real games at depth 1: p_1_10 against a network of
    zero weights replaces it; the reverse keeps it (an SPRT of 0 against
    200 Elo decides in a few pairs)."""
    from genethello.cluster.measures.best_gate import play_gate
    from genethello.cluster.run.executors import SerialExecutor
    from genethello.core.families.individual_names import resolve_individual
    from genethello.core.families.network_family import NetworkIndividual
    from genethello.core.families.networks import Network

    config = config_from_mapping({"population": {"type": "all-2-s4", "size": 4},
                                  "hall": {"gate_pairs": 24, "gate_elo": 200.0},
                                  "yardstick": {"depth": 1, "league_double_games": 0}})
    kind = config.chromosome_type
    weak = NetworkIndividual(kind, 1, Network(kind.architecture, np.zeros(kind.n_weights), kind.stages))
    strong = resolve_individual("p_1_10")
    executor = SerialExecutor(0.001)
    assert play_gate(config, 3, strong, weak, executor) is True
    assert play_gate(config, 3, weak, strong, executor) is False
    with pytest.raises(ConfigError, match="hall.gate_pairs"):
        config_from_mapping({"population": {"type": "all-2-s4"}, "hall": {"gate_pairs": 4, "games_per_member": 0}})


def test_a_gated_run_keeps_its_best_so_far_until_a_new_top_passes_the_gate(tmp_path):
    """A hall that ranks a later entrant first does not make it the best so
    far when the gate (here two pairs, which never decide: 'keep') does
    not pass it; the run's measure plays the kept best; with no gate the
    best is the hall's top."""
    from genethello.cluster.db import Database
    from genethello.cluster.measures.yardstick import measure
    from genethello.cluster.reads.ranking import hall_ranked
    from genethello.cluster.run.coordinator import Coordinator, create_run
    from genethello.cluster.run.executors import SerialExecutor
    from genethello.cluster.run.run_check import load_config

    from .conftest import query, write_config

    def run(name: str, gate: int) -> tuple[list[int], int, list[int]]:
        folder = tmp_path / name
        folder.mkdir()
        config = write_config(folder, name=name, population__type="all-2", population__size=6,
                              breeding__method="ga", fitness__kind="fixed", fitness__opponents=["wpc"],
                              fitness__games_per_opponent=40, fitness__start_plies=2, fitness__batch_games=32,
                              hall__games_per_member=4, hall__every=1, hall__gate_pairs=gate,
                              yardstick__every=2, yardstick__depth=1, yardstick__league_double_games=4,
                              stop__max_generations=4, stop__converge_generations=0)
        db = Database.open(folder / "r.db", create=True)
        try:
            run_id = create_run(db, load_config(config))
            assert Coordinator(db, run_id, SerialExecutor(0.001), yardstick=measure).run() == "finished"
            top = hall_ranked(db, run_id, 1)[0].player_id
        finally:
            db.dispose()
        bests = [row[0] for row in query(folder / "r.db", "SELECT best_player_id FROM generations ORDER BY number")]
        measured = [row[0] for row in query(folder / "r.db", "SELECT DISTINCT player_id FROM yardstick_results")]
        return bests, top, measured

    bests, top, measured = run("open", 0)
    assert bests[-1] == top and len(set(bests)) > 1          # the hall's top moved, and so did the best
    gated, gated_top, gated_measured = run("gated", 2)
    assert gated == [gated[0]] * 4 and gated_top != gated[0]  # kept, though the hall ranks another first
    assert gated_measured == [gated[0]]
