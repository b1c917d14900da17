"""A real multi-node Ray cluster on this machine (ray.cluster_utils.Cluster:
a head without CPUs and two worker nodes of one CPU each). A generation is
played through Coordinator + RayExecutor joined to the cluster's address; one
worker node is removed while games are in flight. The generation must still
complete, every pair exactly once, with the content of a single-node run.

The cluster runs in a subprocess (with its own HOME) so that it never meets
the test session's Ray instance in this process."""

from __future__ import annotations

import json
import subprocess
import sys

from genethello.cluster.db import Database
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

from .conftest import cli_env, db_snapshot, kill_session, query, reap_session, snapshot_diff, write_config

P = 6
GAMES = P * (P - 1)

# Depth 2 with exact solving from 16 empties: about 0.1 s a game, so a task
# of two games is still running when its node goes.
CONFIG = dict(name="multi", population__size=P, games__depth=2, games__exact_empties=16,
              stop__max_generations=1, cluster__task_seconds=0.2)

SCRIPT = r'''
import json, sys, threading, time
import ray
from ray.cluster_utils import Cluster
from genethello.cluster.run.run_check import load_config
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.db import Database
from genethello.cluster.run.executors import RayExecutor, start_ray
from genethello.cluster.run.progress import Progress

config_path, db_path, report_path, remove_after = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
node_args = dict(object_store_memory=100 * 2**20)
# The GCS declares a silent node dead after failure_threshold health checks
# (default 5 x 3 s); check faster so the test does not wait 15 s.
health = dict(health_check_initial_delay_ms=0, health_check_period_ms=300, health_check_failure_threshold=3)
cluster = Cluster(initialize_head=True, head_node_args=dict(num_cpus=0, include_dashboard=False,
                                                            _system_config=health, **node_args))
report = {}
try:
    nodes = [cluster.add_node(num_cpus=1, **node_args) for _ in range(2)]
    cluster.wait_for_nodes()
    workers = start_ray(cluster.address)  # the code path of `genethello evolve --address`
    report["workers"] = workers
    report["nodes_before"] = sum(n["Alive"] for n in ray.nodes())
    cfg = load_config(config_path)
    db = Database.open(db_path, create=True)
    run_id = create_run(db, cfg)
    executor = RayExecutor(workers, cfg.cluster.task_seconds, cfg.cluster.max_in_flight_per_worker)
    coordinator = Coordinator(db, run_id, executor, Progress(enabled=False))
    done = threading.Event()

    def games_committed():
        with db.engine.connect() as conn:
            return conn.exec_driver_sql("SELECT count(*) FROM games").scalar()

    def remover():
        while not done.is_set():
            n = games_committed()
            if n >= remove_after:
                # The node whose CPU is taken: a task is running there.
                free = ray._private.state.available_resources_per_node()
                victim = min(nodes, key=lambda node: free.get(node.node_id, {}).get("CPU", 0.0))
                report["games_at_removal"] = n
                report["victim_busy"] = free.get(victim.node_id, {}).get("CPU", 0.0) == 0.0
                cluster.remove_node(victim, allow_graceful=False)
                report["games_after_removal"] = games_committed()
                return
            time.sleep(0.01)

    thread = threading.Thread(target=remover)
    thread.start()
    started = time.monotonic()
    try:
        report["status"] = coordinator.run()
    finally:
        done.set()
        thread.join()
    report["seconds"] = time.monotonic() - started
    report["retried_batches"] = executor.retried_batches
    report["nodes_after"] = sum(n["Alive"] for n in ray.nodes())
    db.dispose()
finally:
    with open(report_path, "w") as f:
        json.dump(report, f)
    ray.shutdown()
    cluster.shutdown()
'''


def test_generation_survives_a_lost_node(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, **CONFIG)
    script = tmp_path / "multinode.py"
    script.write_text(SCRIPT)
    db_path, report_path = tmp_path / "multi.db", tmp_path / "report.json"
    proc = subprocess.Popen([sys.executable, str(script), str(config), str(db_path), str(report_path), "4"],
                            cwd=tmp_path, env=cli_env(home), text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        kill_session(proc)
        out, _ = proc.communicate()
        raise AssertionError(f"the multi-node run timed out:\n{out[-5000:]}") from None
    finally:
        reap_session(proc.pid)
    assert proc.returncode == 0, out[-5000:]
    report = json.loads(report_path.read_text())
    assert report["workers"] == 2 and report["nodes_before"] == 3, report
    assert report["status"] == "finished", report
    # The node went while the generation was being played; one node was left.
    assert 4 <= report["games_at_removal"] < GAMES, report
    assert report["games_after_removal"] < GAMES, report
    assert report["nodes_after"] == 2, report
    assert report["victim_busy"], report  # it was playing a batch when it went

    # Every pair exactly once.
    pairs = query(db_path, "SELECT pair_index, black_id, white_id FROM games WHERE generation = 1")
    assert sorted(i for i, _, _ in pairs) == list(range(GAMES))
    assert len({(b, w) for _, b, w in pairs}) == GAMES
    assert query(db_path, "SELECT status, games_done FROM generations") == [("rated", GAMES)]

    # The content of the same run on one node.
    ref_db = Database.open(tmp_path / "single.db", create=True)
    run_id = create_run(ref_db, load_config(config))
    assert Coordinator(ref_db, run_id, SerialExecutor(0.2), Progress(enabled=False)).run() == "finished"
    ref_db.dispose()
    a, b = db_snapshot(db_path, "multi"), db_snapshot(tmp_path / "single.db", "multi")
    assert a == b, snapshot_diff(a, b)
