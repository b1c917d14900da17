"""Network runs (issue 24): CMA-ES on n-tuple networks with its state in
the database. What a run stores is a function of its config and seed alone:
a run killed with SIGKILL and resumed, or played by 1 or 2 workers, stores
what an uninterrupted one does (payloads, breeder states and fitness points
included, see conftest.db_snapshot); the optimizer's state comes back
exactly and is never unpickled; a database stored at 0003 upgrades and
resumes as the GeneThello run it was."""

from __future__ import annotations

import io
import json
import shutil
import signal
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from cmaes import CMA

from genethello.cluster.breeding.breeders import RatedGeneration, breeder_for
from genethello.cluster.breeding.cma_es import CmaStateError, dump_state, load_state, new_optimizer
from genethello.cluster.breeding.numerics import numeric_versions_json, pin_blas_threads
from genethello.cluster.cli.main import main as cli_main
from genethello.cluster.config import BreedingConfig, ConfigError
from genethello.cluster.db import Database, current_revision, head_revision
from genethello.cluster.reads import find_run
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import RayExecutor, SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import config_from_mapping, load_config
from genethello.core.families.registry import parse_kind

from .conftest import db_snapshot, query, session_pids, snapshot_diff, write_config
from .test_cli_runs import Watcher, start_and_kill

FIXTURE_0003 = Path(__file__).parent / "data" / "run-0003.sqlite"

#: A tiny CMA-ES run on all-2: 6 members against the WPC heuristic, 480
#: games a generation in 15 tasks (long enough to be killed mid-generation),
#: the hall every 2 generations.
NET = dict(name="net", population__type="all-2", population__size=6, breeding__method="cma-es",
           fitness__kind="fixed", fitness__opponents=["wpc"], fitness__games_per_opponent=40,
           fitness__start_plies=2, fitness__batch_games=32, hall__games_per_member=4, hall__every=2,
           stop__max_generations=4)
NET_TASKS = 15


def drive(db_path: Path, config: Path, executor, create: bool = True) -> str:
    db = Database.open(db_path, create=create)
    try:
        run_id = create_run(db, load_config(config)) if create else find_run(db, None).id
        return Coordinator(db, run_id, executor, Progress(enabled=False)).run()
    finally:
        db.dispose()


def serial_reference(folder: Path, run: str, **overrides: object) -> dict:
    """The snapshot of run ``run`` (a small config with ``overrides``) driven
    serially: what every worker count and interruption must store."""
    config = write_config(folder, **overrides)
    assert drive(folder / "ref.db", config, SerialExecutor(0.001)) == "finished"
    return db_snapshot(folder / "ref.db", run)


def assert_workers_store(folder: Path, run: str, reference: dict, **overrides: object) -> None:
    """Run ``run`` (as :func:`serial_reference`) on 1 and 2 Ray workers:
    each stores ``reference``."""
    config = write_config(folder, **overrides)
    for workers in (1, 2):
        db = folder / f"w{workers}.db"
        assert drive(db, config, RayExecutor(workers, 0.001, 2)) == "finished"
        snap = db_snapshot(db, run)
        assert snap == reference, snapshot_diff(snap, reference)


@pytest.fixture
def home(tmp_path):
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture(scope="module")
def net_reference(tmp_path_factory):
    return serial_reference(tmp_path_factory.mktemp("net-reference"), "net", **NET)


# --------------------------------------------------------------------------- #
# The optimizer's state


@pytest.mark.parametrize("variant", ["full", "separable"])
def test_a_restored_optimizer_asks_what_the_uninterrupted_one_asks(variant):
    pin_blas_threads()   # as the coordinator does (threads contending for 2 cores: seconds an ask)
    optimizer = new_optimizer(variant, np.zeros(288), 1.0, 8, 7)
    assert dump_state(optimizer) == dump_state(new_optimizer(variant, np.zeros(288), 1.0, 8, 7))
    for _ in range(3):
        samples = [optimizer.ask() for _ in range(8)]
        optimizer.tell([(x, float((x[:5] ** 2).sum())) for x in samples])
    restored = load_state(dump_state(optimizer))
    assert type(restored) is type(optimizer) and restored.generation == optimizer.generation == 3
    for _ in range(2):
        ours, theirs = [optimizer.ask() for _ in range(8)], [restored.ask() for _ in range(8)]
        assert all(np.array_equal(a, b) for a, b in zip(ours, theirs))
        optimizer.tell([(x, float(x.sum())) for x in ours])
        restored.tell([(x, float(x.sum())) for x in theirs])
    assert dump_state(optimizer) == dump_state(restored)


def test_a_state_is_never_unpickled_and_bad_bytes_are_refused():
    pickled = io.BytesIO()
    np.savez(pickled, __state__=np.array([{"code": "anything"}], dtype=object))   # needs pickle to load
    for data in (pickled.getvalue(), b"not a state", dump_state(CMA(mean=np.zeros(3), sigma=1.0))[:-20]):
        with pytest.raises(CmaStateError):
            load_state(data)


# --------------------------------------------------------------------------- #
# Whole runs


def test_one_or_two_workers_store_what_a_serial_run_stores(ray_cluster, tmp_path, net_reference):
    assert_workers_store(tmp_path, "net", net_reference, **NET)
    snap = net_reference
    assert len(snap["fitness"]) == 4 * NET_TASKS and len(snap["population"]) == 4 * 6
    assert all(p[-1] is not None for p in snap["players"])          # every network's weights are stored
    assert [m[1] for m in snap["hall_members"]] == [1, 2, 4]          # every 2 generations, and the first
    assert [g[-1] is not None for g in snap["generations"]] == [False, False, True, True]  # the last 2 states


def test_a_network_run_killed_and_resumed_stores_the_same(ray_cluster, tmp_path, home, net_reference):
    """SIGKILL the `genethello evolve` of a network run mid-generation
    (between fitness commits, after the first generation was bred), then
    resume it here: the content equals the uninterrupted run's."""
    config = write_config(tmp_path, **NET)
    db = tmp_path / "killed.db"

    def between_commits(w: Watcher) -> bool:
        state = w.state()
        return (state is not None and state[0] >= 2 and state[1] == "playing"
                and 0 < state[2] < state[3] and not w.writing())

    proc, (g, status, done, total) = start_and_kill(
        ["evolve", "--config", str(config), "--db", str(db), "--workers", "1", "--quiet"], db,
        between_commits, "a kill between fitness commits", home, tmp_path)
    assert proc.returncode == -signal.SIGKILL and session_pids(proc.pid) == []
    stored = query(db, "SELECT count(*), sum(games) FROM fitness_results WHERE generation = ?", g)[0]
    assert 0 < stored[0] < NET_TASKS and stored[1] == done
    assert drive(db, config, RayExecutor(2, 0.001, 2), create=False) == "finished"
    snap = db_snapshot(db, "net")
    assert snap == net_reference, snapshot_diff(snap, net_reference)


def test_a_0003_database_upgrades_and_resumes_as_the_genethello_run_it_was(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE_0003, path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0003",)]
    db = Database.open(path, create=False)
    try:
        assert current_revision(db.engine) == head_revision()
        (versions, payloads, states), = query(path, "SELECT (SELECT numeric_versions FROM runs), "
                                                    "(SELECT count(payload) FROM chromosomes), "
                                                    "(SELECT count(breeder_state) FROM generations)")
        assert (versions, payloads, states) == (None, 0, 0)
        assert Coordinator(db, 1, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
    finally:
        db.dispose()
    fresh = tmp_path / "fresh.db"
    # 0005 wrote "random" into its config: it goes on drawing its hall's
    # openings with replacement, as a fresh run told to does.
    assert json.loads(query(path, "SELECT config_json FROM runs")[0][0])["openings"] == {"series": "random"}
    assert drive(fresh, write_config(tmp_path, openings__series="random"), SerialExecutor(0.001)) == "finished"
    a, b = db_snapshot(path, "t", lineage=False), db_snapshot(fresh, "t", lineage=False)
    assert a == b, snapshot_diff(a, b)


# --------------------------------------------------------------------------- #
# Config and resume refusals


@pytest.mark.parametrize("data, key", [
    ({"fitness": {"kind": "league"}}, "fitness.kind"),
    ({"fitness": {"opponents": ["edax"]}}, "fitness.opponents"),
    ({"fitness": {"kind": "fixed", "opponents": []}}, "fitness.opponents"),
    ({"fitness": {"epsilon": 1.5}}, "fitness.epsilon"),
    ({"fitness": {"games_per_pair": 0}}, "fitness.games_per_pair"),
    ({"breeding": {"cma-es": {"cma_variant": "diagonal"}}}, "breeding.cma-es.cma_variant"),
    ({"breeding": {"method": "cma-es"}}, "breeding.method"),          # GeneThello's oe_fmc: networks only
    ({"population": {"type": "all-2"}, "hall": {"every": 0}}, "hall.every"),
    ({"fitness": {"kind": "hall"}, "hall": {"games_per_member": 0}}, "fitness.kind"),
    # A network run's yardstick is the League measure alone: other opponents would be ignored.
    ({"population": {"type": "all-2"}, "yardstick": {"opponents": ["p_1_10"]}}, "yardstick.opponents"),
    ({"population": {"type": "all-2"}, "yardstick": {"sprt_opponents": ["p_1_10"], "sprt": [0, 20]}},
     "yardstick.sprt_opponents"),
    ({"population": {"type": "all-2"}, "yardstick": {"gtp_engines": ["gtp-rhino -l 1"]}}, "yardstick.gtp_engines"),
])
def test_bad_network_keys_name_themselves(data, key):
    with pytest.raises(ConfigError, match=rf"^{key.replace('.', '[.]')}: "):
        config_from_mapping(data)


def test_resume_refuses_other_numeric_libraries_in_one_line(tmp_path, capsys):
    db_path = tmp_path / "n.db"
    db = Database.open(db_path, create=True)
    create_run(db, load_config(write_config(tmp_path, **NET)))
    db.dispose()
    with sqlite3.connect(db_path) as conn:
        conn.execute("""UPDATE runs SET numeric_versions = '{"cmaes": "0.13.1", "numpy": "1.26.0"}'""")
    assert cli_main(["resume", "--db", str(db_path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "numpy 1.26.0 -> " in err[0] and "--allow-numeric-change" in err[0], err


def test_resume_with_other_numeric_libraries_accepted_records_the_change(tmp_path):
    db_path = tmp_path / "n.db"
    db = Database.open(db_path, create=True)
    try:
        run_id = create_run(db, load_config(write_config(tmp_path, **{**NET, "stop__max_generations": 1})))
        old = '{"cmaes": "0.13.1", "numpy": "1.26.0"}'
        with sqlite3.connect(db_path) as conn:
            conn.execute("UPDATE runs SET numeric_versions = ?", (old,))
        now = numeric_versions_json()
        assert Coordinator(db, run_id, SerialExecutor(0.001), Progress(enabled=False)).run(
            accept_numerics=now) == "finished"
    finally:
        db.dispose()
    (versions, changes), = query(db_path, "SELECT numeric_versions, core_changes FROM runs")
    assert versions == now
    assert json.loads(changes) == [{"generation": 0, "numeric_from": old, "numeric_to": now}]


# --------------------------------------------------------------------------- #
# GeneThello's GA and random search on real weights


def _ranked_networks(size: int) -> list:
    bred = breeder_for(BreedingConfig(method="ga")).first_population(parse_kind("all-2"), size, [],
                                                                     np.random.default_rng(3))
    return list(bred.members)


def test_the_ga_breeds_networks_with_elites_crossover_and_gaussian_mutation():
    ranked = _ranked_networks(10)
    config = BreedingConfig(elites=2, mutation_rate=0.05, mutation_sigma=0.3, mutant_fraction=0.2)
    rated = RatedGeneration(1, parse_kind("all-2"), ranked, (), None, list(range(10, 0, -1)))
    bred = breeder_for(config).next_population(rated, 10, np.random.default_rng(4))
    members = list(bred.members)
    assert bred.state is None and len({str(m) for m in members}) == 10
    assert members[:2] == ranked[:2] and all(m.birth == 2 for m in members[2:])
    parents = np.array([r.network.weights for r in ranked[:4]])     # ceil(0.35 * 10) = 4 parents
    for child in members[2:]:
        w = np.asarray(child.network.weights)
        from_parents = np.isclose(w[None, :], parents).any(axis=0)
        # every weight is a parent's, but for the few (about 5%) moved by Gaussian noise
        assert 0 < (~from_parents).sum() < 0.2 * w.size
    again = breeder_for(config).next_population(rated, 10, np.random.default_rng(4))
    assert list(again.members) == members


def test_random_search_keeps_the_elite_networks_and_draws_the_rest():
    ranked = _ranked_networks(6)
    rated = RatedGeneration(1, parse_kind("all-2"), ranked, ())
    members = list(breeder_for(BreedingConfig(method="random-search", elites=1)).next_population(
        rated, 6, np.random.default_rng(9)).members)
    assert members[0] == ranked[0] and not set(members[1:]) & set(ranked)


def test_an_engine_for_a_network_runs_yardstick_is_refused_in_one_line(tmp_path, capsys):
    db_path = tmp_path / "n.db"
    db = Database.open(db_path, create=True)
    create_run(db, load_config(write_config(tmp_path, **NET)))
    db.dispose()
    assert cli_main(["resume", "--db", str(db_path), "--gtp", "gtp-rhino -l 1", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--gtp: run" in err[0] and "Othello League measure alone" in err[0], err
    assert cli_main(["evolve", "--config", str(write_config(tmp_path, "e.toml", **NET)), "--db",
                     str(tmp_path / "e.db"), "--gtp-engine", "gtp-rhino -l 1", "--quiet"]) == 2   # its old name
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "yardstick.gtp_engines: a network run's yardstick" in err[0], err
    assert not (tmp_path / "e.db").exists()
