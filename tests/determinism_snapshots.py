"""Content snapshots of five small runs, to compare one tree's databases with
another's: the check that a refactor changed no stored byte.

    python -m tests.determinism_snapshots --out DIR               # serial, 1 and 2 Ray workers
    python -m tests.determinism_snapshots --out DIR --serial-only
    python -m tests.determinism_snapshots --compare DIR_A DIR_B

The runs: a GeneThello run (the cluster tests' small run), a CMA-ES network
run with a hall, a network GA run injecting the hall's best, a network run
at depth against fixed opponents (the hall anchored on them), and a pbt-td
learning run. Each is stored by ``conftest.db_snapshot`` (natural keys,
payloads and states by digest) as one JSON file a run and executor. Not a
test: it takes minutes, and its point is to compare two trees (the issue-35
refactor's "byte-identical databases before and after").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

RUNS: dict[str, dict[str, Any]] = {
    "genethello": dict(name="t", stop__max_generations=3),
    "cma-es-hall": dict(name="net", population__type="all-2", population__size=6, breeding__method="cma-es",
                        fitness__kind="fixed", fitness__opponents=["wpc"], fitness__games_per_opponent=40,
                        fitness__start_plies=2, fitness__batch_games=32, hall__games_per_member=4, hall__every=2,
                        stop__max_generations=4),
    "ga-inject": dict(name="ga", population__type="all-2", population__size=6, breeding__method="ga",
                      breeding__inject_top=1, fitness__kind="coevolution", fitness__games_per_pair=4,
                      fitness__start_plies=2, fitness__batch_games=16, hall__games_per_member=4, hall__every=1,
                      stop__max_generations=4),
    "depth-fixed": dict(name="depth", population__type="all-2-s4", population__size=4, breeding__method="ga",
                        fitness__kind="fixed", fitness__opponents=["p_1_10"], fitness__games_per_opponent=4,
                        fitness__depth=1, fitness__openings="distinct-4", fitness__batch_games=4,
                        hall__games_per_member=4, hall__every=2, yardstick__league_double_games=0,
                        stop__max_generations=3),
    "pbt-td": dict(name="learning", population__type="all-2-s4", population__size=4, breeding__method="pbt-td",
                   breeding__learning_games=30, breeding__learning_batch=10, breeding__learning_max_depth=2,
                   fitness__kind="coevolution", fitness__games_per_pair=2, fitness__depth=1,
                   fitness__openings="distinct-4", fitness__batch_games=4, hall__games_per_member=4, hall__every=2,
                   yardstick__league_double_games=0, stop__max_generations=4),
}


def _drive(db_path: Path, config: Path, executor: Any) -> str:
    from genethello.cluster.db import Database
    from genethello.cluster.run.coordinator import Coordinator, create_run
    from genethello.cluster.run.progress import Progress
    from genethello.cluster.run.run_check import load_config

    db = Database.open(db_path, create=True)
    try:
        run_id = create_run(db, load_config(config))
        return Coordinator(db, run_id, executor, Progress(enabled=False)).run()
    finally:
        db.dispose()


def take(out: Path, serial_only: bool) -> None:
    from genethello.cluster.run.executors import RayExecutor, SerialExecutor, start_ray
    from tests.cluster.conftest import db_snapshot, write_config

    out.mkdir(parents=True, exist_ok=True)
    executors: list[tuple[str, Any]] = [("serial", lambda: SerialExecutor(0.001))]
    if not serial_only:
        os.environ.setdefault("HOME", tempfile.mkdtemp())
        start_ray(None, 2)
        executors += [(f"ray{w}", (lambda w=w: RayExecutor(w, 0.001, 2))) for w in (1, 2)]
    with tempfile.TemporaryDirectory() as scratch:
        for name, overrides in RUNS.items():
            folder = Path(scratch) / name
            folder.mkdir()
            config = write_config(folder, **overrides)
            for label, make in executors:
                db = folder / f"{label}.db"
                status = _drive(db, config, make())
                snap = db_snapshot(db, str(overrides["name"]))
                (out / f"{name}-{label}.json").write_text(json.dumps(snap, sort_keys=True, default=list))
                print(f"{name:12} {label:6} {status}", flush=True)


def compare(a: Path, b: Path) -> int:
    differ = 0
    for file in sorted(a.glob("*.json")):
        other = b / file.name
        if not other.exists():
            print(f"{file.name}: only in {a}")
            differ += 1
            continue
        left, right = json.loads(file.read_text()), json.loads(other.read_text())
        keys = [k for k in left if left[k] != right.get(k)]
        print(f"{file.name}: {'equal' if not keys else 'DIFFERS in ' + ', '.join(keys)}")
        differ += bool(keys)
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--serial-only", action="store_true")
    parser.add_argument("--compare", nargs=2, type=Path)
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        parser.error("--out or --compare")
    take(args.out, args.serial_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
