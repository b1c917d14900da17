"""pbt-td, the breeder that learns: exploit and explore decided purely,
slices learned on the workers, state in the database, so that a learning
run stores the same content serial, at 1 and 2 Ray workers, and after a
SIGKILL mid-learning and a resume."""

from __future__ import annotations

import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from genethello.cluster.breeding.breeders import RatedGeneration, breeder_for
from genethello.cluster.breeding.learner_cache import LearnerCache, learner_bytes
from genethello.cluster.breeding.network_pbt import (
    Hyper,
    LearningSlices,
    PbtTdBreeder,
    dump_state,
    learn_slice,
    load_state,
    slot_learning,
    start_network,
)
from genethello.cluster.breeding.origins import COPIED, INITIAL, LEARNED
from genethello.cluster.cli.report_commands import hall_description, network_yardstick, stored_config
from genethello.cluster.config import BreedingConfig, ConfigError
from genethello.cluster.db import Database
from genethello.cluster.reads.lineage import lineage
from genethello.cluster.reads.runs import find_run
from genethello.cluster.run.executors import RayExecutor, SerialExecutor
from genethello.cluster.run.run_check import config_from_mapping, load_config
from genethello.core.families.individual_names import resolve_individual
from genethello.core.families.network_family import NetworkIndividual
from genethello.core.families.networks import Network
from genethello.core.families.registry import parse_individual, parse_kind
from genethello.core.learning.self_play import Learner, learn

from .conftest import db_snapshot, query, session_pids, snapshot_diff, write_config
from .test_cli_runs import Watcher, start_and_kill
from .test_network_runs import assert_workers_store, drive, serial_reference

KIND = parse_kind("all-2-s4")
CONFIG = BreedingConfig(method="pbt-td", learning_games=12, learning_batch=4, learning_max_depth=3)

LEARNING = dict(name="learning", population__type="all-2-s4", population__size=4, breeding__method="pbt-td",
                breeding__learning_games=30, breeding__learning_batch=10, breeding__learning_max_depth=2,
                fitness__kind="coevolution", fitness__games_per_pair=2, fitness__depth=1,
                fitness__openings="distinct-4", fitness__batch_games=4, hall__games_per_member=4, hall__every=2,
                yardstick__league_double_games=0, stop__max_generations=4)


def _rated(breeder: PbtTdBreeder, size: int = 8, seed: int = 1) -> RatedGeneration:
    first = breeder.first_population(KIND, size, (), np.random.default_rng(seed))
    ranked = list(reversed(first.members))            # rank k holds slot size-1-k
    return RatedGeneration(1, KIND, ranked, (), first.state, [float(size - k) for k in range(size)],
                           list(reversed(range(size))))


def test_the_first_population_is_the_start_network_with_distinct_noise():
    bred = PbtTdBreeder(CONFIG).first_population(KIND, 6, (), np.random.default_rng(3))
    assert len({str(m) for m in bred.members}) == 6 and all(o.kind == INITIAL for o in bred.origins)
    weights = np.array([m.network.weights for m in bred.members])
    assert np.abs(weights).max() < 0.5 and weights.std() == pytest.approx(CONFIG.start_sigma, rel=0.1)
    hypers = load_state(bred.state, 6)
    assert hypers[0] == Hyper(CONFIG.learning_alpha, CONFIG.learning_lambda, CONFIG.learning_epsilon, 1)
    assert len(set(hypers[1:])) > 1                    # selection's explore starts at once


def test_exploit_copies_the_top_into_the_bottom_and_explore_perturbs_within_range():
    breeder = PbtTdBreeder(CONFIG)
    rated = _rated(breeder)
    plan = breeder.plan(rated, 8, np.random.default_rng(7))
    by_slot = load_state(rated.state, 8)
    ranked_hypers = [by_slot[s] for s in rated.slots]
    copies = int(CONFIG.exploit_fraction * 8)
    for k, (spec, origin) in enumerate(zip(plan.slices, plan.origins, strict=True)):
        if k < 8 - copies:
            assert origin.kind == LEARNED and origin.parents == (k,)
            assert spec.text == str(rated.ranked[k]) and spec.hyper == ranked_hypers[k]
        else:
            top = origin.parents[0]
            assert origin.kind == COPIED and top < copies and origin.detail
            assert spec.text == str(rated.ranked[top])
            parent, child = ranked_hypers[top], spec.hyper
            for name in ("alpha", "lam", "epsilon"):
                ratio = getattr(child, name) / getattr(parent, name)
                assert ratio == pytest.approx(1.25) or ratio == pytest.approx(0.8) or getattr(child, name) == 1.0
            assert abs(child.depth - parent.depth) <= 1 and 1 <= child.depth <= 3
    assert len({s.seed for s in plan.slices}) == 8
    assert breeder.plan(rated, 8, np.random.default_rng(7)) == plan


def test_td_alone_never_selects():
    breeder = PbtTdBreeder(replace(CONFIG, exploit_fraction=0.0))
    rated = _rated(breeder)
    plan = breeder.plan(rated, 8, np.random.default_rng(7))
    assert all(o.kind == LEARNED for o in plan.origins)
    assert {s.hyper for s in plan.slices} == {Hyper(CONFIG.learning_alpha, CONFIG.learning_lambda,
                                                     CONFIG.learning_epsilon, 1)}


def test_a_slice_is_the_core_learning_of_the_parent_and_the_serial_breed_equals_the_planned_one():
    breeder = PbtTdBreeder(CONFIG)
    rated = _rated(breeder, size=4)
    plan = breeder.plan(rated, 4, np.random.default_rng(2))
    spec = plan.slices[0]
    parent = parse_individual(spec.text, spec.payload)
    assert isinstance(parent, NetworkIndividual)
    network, _ = learn(parent.network, spec.hyper.settings(CONFIG), spec.seed)
    learned = learn_slice(spec, CONFIG)
    assert np.array_equal(parse_individual(learned.text, learned.payload).network.weights, network.weights)
    assert learned.report.games == CONFIG.learning_games and learned.report.positions > 0
    serial = breeder.next_population(rated, 4, np.random.default_rng(2))
    planned = breeder.bred(plan, list(reversed(LearningSlices(CONFIG).run(plan.slices))))
    assert [str(m) for m in serial.members] == [str(m) for m in planned.members]
    assert serial.state == planned.state and serial.origins == planned.origins
    assert all(m.birth == 2 for m in serial.members)


def test_a_smoothed_slice_is_the_start_plus_its_learned_change_averaged_across_stages():
    """learning_stage_smoothing: the member is its start plus the slice's
    change, each stage's change the Gaussian mean of its neighbours' (σ 1:
    k(d) = exp(-d²/2), d = -3..3, the end stages standing for those
    beyond), on the learned grid; the same with or without kept learners."""
    config = replace(CONFIG, learning_stage_smoothing=1.0)
    breeder = PbtTdBreeder(config)
    spec = breeder.plan(_rated(breeder, size=4), 4, np.random.default_rng(2)).slices[0]
    start = parse_individual(spec.text, spec.payload).network
    plain, _ = learn(start, spec.hyper.settings(config), spec.seed)
    change = (plain.weights - start.weights).reshape(KIND.stages, -1)
    k = np.exp(-np.arange(-3, 4) ** 2 / 2.0)
    shared = np.array([sum(k[d + 3] * change[min(max(s + d, 0), KIND.stages - 1)] for d in range(-3, 4)) / k.sum()
                       for s in range(KIND.stages)])
    expected = start.weights + shared.ravel()
    for learners in (None, LearnerCache(4)):
        learned = learn_slice(spec, config, learners)
        weights = parse_individual(learned.text, learned.payload).network.weights
        assert np.allclose(weights, expected, rtol=0, atol=2 ** -16)
        assert np.array_equal(weights * 65536, np.rint(weights * 65536))          # on the learned grid
    assert not np.allclose(weights, plain.weights, rtol=0, atol=2 ** -10)         # smoothing changed something
    assert learned.report.games == config.learning_games


def _learned_generations(breeder: PbtTdBreeder, learners: LearnerCache | None, size: int = 8,
                         generations: int = 3) -> list[list[tuple[str, bytes]]]:
    """Each generation's learned members (text, payload), generation 2 on,
    each slice learned with ``learners`` (None: a Learner built a slice)."""
    rated = _rated(breeder, size)
    made = []
    for number in range(1, generations):
        plan = breeder.plan(rated, size, np.random.default_rng(number))
        learned = [learn_slice(spec, breeder.config, learners) for spec in plan.slices]
        bred = breeder.bred(plan, learned)
        made.append([(r.text, r.payload) for r in learned])
        order = list(np.random.default_rng(number).permutation(size))        # some ranking of the new members
        rated = RatedGeneration(number + 1, KIND, [bred.members[k] for k in order], (), bred.state,
                                [float(size - k) for k in range(size)], order)
    return made


@pytest.mark.parametrize("max_learners", [16, 3])
def test_kept_learners_learn_the_bits_a_learner_built_each_slice_learns(max_learners):
    """Slices on Learners kept from the slice before (copied slots and
    their donors starting from one member, a cache too small for the
    population) store exactly what slices on a Learner built each time
    store; kept ones are found, and bounded."""
    breeder = PbtTdBreeder(CONFIG)
    built = _learned_generations(breeder, None, generations=4)
    learners = LearnerCache(max_learners=max_learners)
    assert _learned_generations(breeder, learners, generations=4) == built
    assert learners.hits >= (3 if max_learners == 3 else 10) and len(learners) <= max_learners
    assert learners.builds + learners.hits == 3 * 8


def test_the_learner_cache_keeps_only_what_the_next_generation_starts_from():
    """A learner of a member born before the generation a slice learns
    from is forgotten; a full cache keeps no new one."""
    network = Network(KIND.architecture, np.zeros(KIND.n_weights), KIND.stages)
    learners = LearnerCache(max_bytes=2 * learner_bytes(Learner(network)))
    for birth, text in ((2, "a"), (2, "b"), (3, "c")):
        learners.keep(text, b"", birth, KIND, Learner(network))
    assert len(learners) == 2                         # a and b: c did not fit
    learners.keep("d", b"", 5, KIND, Learner(network))
    assert len(learners) == 1                         # a and b were born before generation 4
    assert learners.take("d", b"", 6)[1] is not None and learners.hits == 1 and len(learners) == 0


def test_the_state_reads_back_and_a_bad_one_is_one_line():
    hypers = [Hyper(0.1, 0.5, 0.2, 2), Hyper(1.0, 0.0, 0.0, 1)]
    state = dump_state(hypers, [None, "alpha x1.25 lambda /1.25 epsilon x1.25 depth 1"])
    assert load_state(state, 2) == hypers and dump_state(hypers, [None, None]) == dump_state(hypers, [None, None])
    for bad, said in ((None, "no stored breeder state"), (b"\xff", "cannot be read"), (state, "2 slots for 3"),
                      (b'{"format":1,"method":"cma-es","slots":[]}', "cannot be read"),
                      (dump_state([Hyper(2.0, 0.5, 0.2, 1)], [None]), "out of range")):
        with pytest.raises(ValueError) as caught:
            load_state(bad, 3 if bad is state else 1)
        assert said in str(caught.value) and "\n" not in str(caught.value)


def test_the_read_side_reads_a_slots_words_through_the_breeders_table():
    from genethello.cluster.breeding.cma_es import dump_state as dump_cma_state
    from genethello.cluster.breeding.cma_es import new_optimizer
    from genethello.cluster.breeding.lineage_words import slot_words
    state = dump_state([Hyper(0.1, 0.5, 0.2, 2), Hyper(1.0, 0.0, 0.0, 1)],
                       [None, "alpha x1.25 lambda /1.25 epsilon x1.25 depth 1"])
    assert slot_words(state, 0) == "alpha 0.1 lambda 0.5 epsilon 0.2 depth 2"
    assert slot_words(state, 1) == "alpha 1 lambda 0 epsilon 0 depth 1; perturbed alpha x1.25 lambda /1.25 " \
                                   "epsilon x1.25 depth 1"
    cma = dump_cma_state(new_optimizer("separable", np.zeros(8), 1.0, 4, 7))
    for other, slot in ((state, 2), (state, -1), (None, 0), (cma, 0), (b"\xff" * 10, 0), (b"[]", 0)):
        assert slot_words(other, slot) is None


def _mapping(**breeding: object) -> dict[str, object]:
    return {"population": {"type": "all-2-s4", "size": 4},
            "breeding": {"method": "pbt-td", **breeding},
            "fitness": {"depth": 1}, "yardstick": {"league_double_games": 0}}


def test_a_learning_config_reads_and_bad_ones_are_one_line_naming_the_key():
    config = config_from_mapping(_mapping(learning_start="", learning_alpha=0.2))
    assert isinstance(breeder_for(config.breeding), PbtTdBreeder) and config.breeding.learning_alpha == 0.2
    cases = [
        ({"population": {"type": "all-2"}}, "breeding.method"),
        ({"fitness": {"depth": 0}}, "fitness.depth"),
        ({"yardstick": {"league_double_games": 10}}, "yardstick.league_double_games"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_start": "/etc/passwd"}}},
         "breeding.pbt-td.learning_start"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_start": "patterns-v2-net"}}},
         "breeding.pbt-td.learning_start"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_alpha": 0.0}}}, "breeding.pbt-td.learning_alpha"),
        ({"breeding": {"method": "pbt-td", "learning_alpha": 0.0}}, "breeding.learning_alpha"),   # the legacy form
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_depth": 3, "learning_max_depth": 2}}},
         "breeding.pbt-td.learning_depth"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"exploit_fraction": 0.9}}}, "breeding.pbt-td.exploit_fraction"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_exact_targets": 21}}},
         "breeding.pbt-td.learning_exact_targets"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_search_targets": 13}}},
         "breeding.pbt-td.learning_search_targets"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_max_search_targets": 3}}},
         "breeding.pbt-td.learning_max_search_targets"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_search_targets": 4,
                                                      "learning_max_search_targets": 3}}},
         "breeding.pbt-td.learning_max_search_targets"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_stage_smoothing": -1.0}}},
         "breeding.pbt-td.learning_stage_smoothing"),
        ({"breeding": {"method": "pbt-td", "pbt-td": {"learning_stage_smoothing": 101.0}}},
         "breeding.pbt-td.learning_stage_smoothing"),
    ]
    for change, key in cases:
        data = _mapping()
        for section, values in change.items():
            data[section] = {**data[section], **values}   # type: ignore[dict-item]
        with pytest.raises(ConfigError) as caught:
            config_from_mapping(data)
        assert str(caught.value).startswith(key) and "\n" not in str(caught.value), (change, caught.value)


def test_target_keys_reach_each_slice_and_explore_moves_the_target_depth_within_its_bound():
    """learning_exact_targets and learning_search_targets are each slice's
    settings; with learning_max_search_targets, explore moves a copied
    slot's target depth by at most a ply within 1..max, the state keeps it
    and the lineage words say it. Without the keys, no slot stores one."""
    config = config_from_mapping(_mapping(learning_exact_targets=8, learning_search_targets=2,
                                          learning_max_search_targets=3)).breeding
    assert (config.learning_exact_targets, config.learning_search_targets) == (8, 2)
    breeder = PbtTdBreeder(replace(CONFIG, learning_exact_targets=8, learning_search_targets=2,
                                   learning_max_search_targets=3))
    rated = _rated(breeder)
    assert {h.search_targets for h in load_state(rated.state, 8)} > {2}          # generation 1's explore
    plan = breeder.plan(rated, 8, np.random.default_rng(7))
    ranked = [load_state(rated.state, 8)[s] for s in rated.slots]
    for spec, origin in zip(plan.slices, plan.origins, strict=True):
        settings = spec.hyper.settings(breeder.config)
        assert settings.exact_targets == 8 and settings.search_targets == spec.hyper.search_targets
        assert 1 <= spec.hyper.search_targets <= 3
        if origin.kind == COPIED:
            assert abs(spec.hyper.search_targets - ranked[origin.parents[0]].search_targets) <= 1
            assert f"search {spec.hyper.search_targets}" in str(origin.detail)
    state = dump_state([s.hyper for s in plan.slices], plan.perturbed)
    assert [h.search_targets for h in load_state(state, 8)] == [s.hyper.search_targets for s in plan.slices]
    assert f"depth 1 search {plan.slices[0].hyper.search_targets}" in str(slot_learning(state, 0))
    assert b"search_targets" not in _rated(PbtTdBreeder(CONFIG)).state
    assert CONFIG.learning_exact_targets == CONFIG.learning_search_targets == 0


def test_the_pattern_table_network_is_a_start():
    config = config_from_mapping({**_mapping(learning_start="patterns-v2-net"),
                                  "population": {"type": "patterns-v2-s30-w10", "size": 2}})
    bred = PbtTdBreeder(config.breeding).first_population(config.chromosome_type, 2, (), np.random.default_rng(1))
    assert all(m.type.name == "patterns-v2-s30-w10" for m in bred.members)


def test_a_start_of_another_whole_disc_weight_keeps_its_real_weights():
    """table-player plays whole discs (-w10); a patterns-v2-s30 run starts
    from the same weights and plays them in 1/64 disc."""
    kind = parse_kind("patterns-v2-s30")
    start = start_network(kind, "table-player")
    shipped = resolve_individual("table-player").network
    assert (start.stages, start.whole_disc_weight) == (30, 0)
    assert np.array_equal(start.weights, shipped.weights) and start.digest() != shipped.digest()
    with pytest.raises(ValueError, match="is not a patterns-v2-s8 network"):
        start_network(parse_kind("patterns-v2-s8"), "table-player")
    with_mobility = start_network(parse_kind("patterns-v2-s30-m"), "table-player")    # the entries start at 0
    assert with_mobility.mobility and np.array_equal(with_mobility.weights[:shipped.weights.size], shipped.weights)
    assert not with_mobility.weights[shipped.weights.size:].any()


# --------------------------------------------------------------------------- #
# Whole runs


@pytest.fixture(scope="module")
def learning_reference(tmp_path_factory):
    return serial_reference(tmp_path_factory.mktemp("learning-reference"), "learning", **LEARNING)


def test_the_lineage_says_who_learned_who_was_copied_from_whom_and_what_was_perturbed(tmp_path):
    config = write_config(tmp_path, **{**LEARNING, "stop__max_generations": 3, "hall__games_per_member": 0})
    db_path = tmp_path / "lineage.db"
    assert drive(db_path, config, SerialExecutor(0.001)) == "finished"
    slots = query(db_path, "SELECT slot, origin, parent_a, player_id FROM population WHERE generation = 3 "
                  "ORDER BY slot")
    assert [row[1] for row in slots] == ["learned"] * 3 + ["copied"]
    db = Database.open(db_path, create=False)
    try:
        nodes = {row[3]: lineage(db, row[3], 2) for row in slots}
    finally:
        db.dispose()
    learned, copied = nodes[slots[0][3]], nodes[slots[3][3]]
    assert learned.parent_ids == (slots[0][2],) and "after learning from its own games (alpha " in learned.describe()
    how = copied.describe()
    assert copied.parent_ids == (slots[3][2],) and "copied into a bottom slot" in how and "; perturbed alpha " in how
    assert copied.parents[0].parents[0].describe().startswith("the run's start network (alpha")


def test_a_learning_run_at_one_or_two_workers_stores_what_a_serial_run_stores(ray_cluster, tmp_path,
                                                                               learning_reference):
    assert_workers_store(tmp_path, "learning", learning_reference, **LEARNING)
    snap = learning_reference
    origins = [row for row in snap["population"]]
    assert len(origins) == 4 * 4
    states = query(tmp_path / "w1.db", "SELECT number, length(breeder_state) FROM generations ORDER BY number")
    assert [n for n, size in states if size] == [1, 2, 3, 4]   # the hyperparameters of every generation kept


def test_a_learning_run_killed_mid_learning_and_resumed_stores_the_same(ray_cluster, tmp_path: Path,
                                                                        learning_reference):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, **{**LEARNING, "breeding__learning_games": 400})
    db = tmp_path / "killed.db"

    def learning(w: Watcher) -> bool:
        state = w.state()
        return state is not None and state[0] >= 2 and state[1] == "rated" and not w.writing()

    proc, (g, status, _, _) = start_and_kill(
        ["evolve", "--config", str(config), "--db", str(db), "--workers", "1", "--quiet"], db,
        learning, "a kill while the members learn", home, tmp_path)
    assert proc.returncode == -signal.SIGKILL and session_pids(proc.pid) == []
    assert status == "rated" and query(db, "SELECT max(number) FROM generations")[0][0] == g
    assert drive(db, config, RayExecutor(2, 0.001, 2), create=False) == "finished"
    reference_config = write_config(tmp_path, "reference.toml", **{**LEARNING, "breeding__learning_games": 400})
    assert drive(tmp_path / "reference.db", reference_config, SerialExecutor(0.001)) == "finished"
    snap, reference = db_snapshot(db, "learning"), db_snapshot(tmp_path / "reference.db", "learning")
    assert snap == reference, snapshot_diff(snap, reference)


def test_the_search_player_config_learns_at_depth_against_the_measured_opponents():
    """config/search-player.toml, the README's config that breeds a search
    player: pbt-td with selection, from zero weights, fitness against the
    two opponents the experiment measures, at depth, never stopped early
    for a best that stands still."""
    config = load_config(Path(__file__).parents[2] / "config" / "search-player.toml")
    b, f = config.breeding, config.fitness
    assert (b.method, b.learning_start, config.chromosome_type.name) == ("pbt-td", "", "all-4+2x2-s8")
    assert b.exploit_fraction > 0 and config.stop.converge_generations == 0
    assert f.kind == "fixed" and f.depth >= 2 and set(f.opponents) == {"p_1_10", "fdmxcp_52_2:0:6:9:4:5"}
    first = PbtTdBreeder(b).first_population(config.chromosome_type, config.population_size, (),
                                             np.random.default_rng(config.seed))
    weights = np.array([m.network.weights for m in first.members])
    assert len({str(m) for m in first.members}) == 8 and np.count_nonzero(weights) == 7
    assert not start_network(config.chromosome_type, "").weights.any()


def test_best_and_history_say_how_a_hall_at_depth_measured_and_that_no_league_was_played(tmp_path):
    config = write_config(tmp_path, **{**LEARNING, "stop__max_generations": 2, "fitness__kind": "fixed",
                                       "fitness__opponents": ["p_1_10"], "fitness__games_per_opponent": 2,
                                       "hall__every": 1})
    db_path = tmp_path / "fixed.db"
    assert drive(db_path, config, SerialExecutor(0.001)) == "finished"
    db = Database.open(db_path, create=False)
    try:
        run = find_run(db, None)
        config = stored_config(run)
        said = hall_description(run, config, 10)
        assert "depth 1, exact at 0 empties, against the members and the fitness opponents (p_1_10)" in said
        assert "Elo vs p_1_10 at depth 1 (p_1_10 = 0)" in said and "1 ply" not in said
        assert network_yardstick(config).startswith("none")
    finally:
        db.dispose()


def test_a_stored_state_nested_deep_is_one_line_and_unread_by_lineage():
    """A breeder state nested 100,000 deep in a database (issue 37 §5):
    resume's read says one line, lineage's says nothing of it (it was a
    RecursionError through resume, lineage and the web's lineage view)."""
    deep = b'{"format":1,"method":"pbt-td","slots":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with pytest.raises(ValueError) as caught:
        load_state(deep, 1)
    assert "nested too deep" in str(caught.value) and "\n" not in str(caught.value)
    assert slot_learning(deep, 0) is None


@pytest.mark.parametrize("depth, max_depth", [(13, None), (3, 2), (1000, 2), (0, 2)])
def test_a_stored_depth_above_the_configs_bound_is_refused(depth, max_depth):
    """A slot's stored depth above learning_max_depth (or the config's cap
    of 12) is refused on resume, not learned from for minutes (§7)."""
    state = dump_state([Hyper(0.05, 0.7, 0.1, depth)], [None])
    with pytest.raises(ValueError) as caught:
        load_state(state, 1, max_depth)
    top = 12 if max_depth is None else max_depth
    assert str(caught.value) == (f"pbt-td: the stored breeder state's slot 0 learns at depth {depth}, outside "
                                 f"1..{top} (breeding.learning_max_depth)")
    assert load_state(dump_state([Hyper(0.05, 0.7, 0.1, 2)], [None]), 1, 2)[0].depth == 2


def test_past_members_of_a_learning_run_are_stored_as_the_integers_they_play(tmp_path):
    """Issue 37 §1: a member two generations past its last is stored played
    (about a sixteenth of its real weights) and still parses, shows and
    plays as the same network; the current members keep their real weights
    (resume learns from them)."""
    from genethello.cluster.db.played_chains import chain_depth
    from genethello.cluster.reads.runs import player_record

    config = write_config(tmp_path, **{**LEARNING, "hall__games_per_member": 0})
    db_path = tmp_path / "played.db"
    assert drive(db_path, config, SerialExecutor(0.001)) == "finished"
    db = Database.open(db_path, create=False)
    try:
        rows = [(pid, text, death, stored, player_record(db, pid)[1]) for pid, text, death, stored in query(
            db_path, "SELECT id, text, death, payload FROM chromosomes ORDER BY id")]
    finally:
        db.dispose()
    played = [r for r in rows if chain_depth(r[3]) is not None]     # played, or chained to its parent's
    assert {r[0] for r in played} == {r[0] for r in rows if r[2] <= 2} and played
    exact = [r for r in rows if r[2] > 2]
    assert all(len(r[3]) == 8 * KIND.n_weights for r in exact)
    for _, text, _, _, payload in rows:
        assert str(parse_individual(text, payload)) == text
    assert max(len(r[3]) for r in played) < 8 * KIND.n_weights / 4
    shown = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "network", "show",
                            str(played[0][0]), "--db", str(db_path)], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and f"name: {played[0][1]}" in shown.stdout, shown.stderr


def test_a_played_payload_is_the_same_network_and_todays_payloads_read_as_before():
    """The integers a member plays are kept exactly (its text, digest and
    games); a payload of today's format (real weights) reads the same
    weights before and after this change."""
    from genethello.core.families.network_family import NETWORKS, network_payload, played_payload

    rng = np.random.default_rng(5)
    for kind_name in ("all-2-s4", "all-1-s2-w3"):
        kind = parse_kind(kind_name)
        member = NETWORKS.random_individual(kind, 7, rng)
        raw = network_payload(member.network)
        assert raw == np.asarray(member.network.weights, dtype="<f8").tobytes()
        assert np.array_equal(parse_individual(str(member), raw).network.weights, member.network.weights)
        again = parse_individual(str(member), played_payload(member.network))
        assert str(again) == str(member)
        assert np.array_equal(again.network.int_weights, member.network.int_weights)
        assert np.array_equal(again.network.weights, member.network.int_weights / 64.0)
    big = Network(KIND.architecture, np.full(KIND.n_weights, 1000.0), KIND.stages)     # beyond 16 bits
    assert np.array_equal(parse_individual(str(NetworkIndividual(KIND, 1, big)), played_payload(big))
                          .network.int_weights, big.int_weights)
