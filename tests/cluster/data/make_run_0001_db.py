"""Make ``run-0001.sqlite``: a run database written by genethello at schema
revision 0001 (commit cf7873c), for the migration test.

It holds two runs of the suite's small config (tests/cluster/conftest.py):
  t   stopped in the middle of generation 2 (10 of its 30 games committed);
  c   converged, then extended with ``resume --max-generations`` (which at
      0001 wrote the non-config key ``converge_baseline`` into config_json)
      and converged again.

Run it from a checkout of cf7873c with that checkout installed:
    python tests/cluster/data/make_run_0001_db.py tests/cluster/data/run-0001.sqlite
It is kept for provenance: newer code writes newer revisions.
"""

import sys
from pathlib import Path

from genethello.cluster.cli.main import main as cli_main
from genethello.cluster.db import Database
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.cluster.conftest import write_config  # noqa: E402


class StopAfter:
    """Serial executor that asks the coordinator to stop once ``games``
    games of generation 2 were handed out."""

    def __init__(self, coordinator_ref: list, games: int) -> None:
        self.inner = SerialExecutor(task_seconds=0.001)
        self.workers = 1
        self.ref = coordinator_ref
        self.left = games

    def run(self, task, next_batch, should_stop):
        def source(size):
            batch = next_batch(1)
            if batch and batch[0].generation == 2:
                self.left -= 1
                if self.left < 0:
                    return []
            return batch
        return self.inner.run(task, source, should_stop)

    def close(self):
        self.inner.close()


def main(out: Path) -> None:
    if out.exists():
        raise SystemExit(f"{out} exists")
    folder = out.parent
    db = Database.open(out, create=True)
    config = write_config(folder, "_t.toml")
    run_id = create_run(db, load_config(config))
    ref: list = []
    coordinator = Coordinator(db, run_id, None, Progress(enabled=False))
    coordinator.executor = StopAfter(ref, 10)
    coordinator.stop.reason = None
    # The executor runs out of games after 10 of generation 2: the coordinator
    # then stops with the generation incomplete, status 'stopped'.
    print("t:", coordinator.run())

    config_c = write_config(folder, "_c.toml", name="c", breeding__elites=4, stop__converge_generations=1,
                            stop__max_generations=40)
    run_c = create_run(db, load_config(config_c))
    print("c:", Coordinator(db, run_c, SerialExecutor(0.001), Progress(enabled=False)).run())
    db.dispose()
    for f in ("_t.toml", "_c.toml"):
        (folder / f).unlink()
    print("c resumed:", cli_main(["resume", "--db", str(out), "--run", "c", "--max-generations", "60",
                                  "--workers", "1", "--quiet"]))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
