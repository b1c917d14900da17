"""Make ``run-0003.sqlite``: a run database written by genethello at schema
revision 0003 (the commit before migration 0004), for the migration test.

It holds one run of the suite's small config (tests/cluster/conftest.py),
``t``, with its hall of fame, stopped in the middle of generation 2 (10 of
its 30 games committed).

Run it from a checkout at revision 0003 with that checkout installed:
    python tests/cluster/data/make_run_0003_db.py tests/cluster/data/run-0003.sqlite
It is kept for provenance: newer code writes newer revisions.
"""

import sys
from pathlib import Path

from genethello.cluster.db import Database
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.cluster.conftest import write_config  # noqa: E402


class StopAfter:
    """Serial executor that runs out of work once ``games`` games of
    generation 2 were handed out (the coordinator then stops with the
    generation incomplete)."""

    def __init__(self, games: int) -> None:
        self.inner = SerialExecutor(task_seconds=0.001)
        self.workers = 1
        self.left = games

    def run(self, task, next_batch, should_stop):
        def source(size):
            batch = next_batch(1)
            if batch and getattr(batch[0], "generation", 0) == 2 and hasattr(batch[0], "pair_index"):
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
    coordinator = Coordinator(db, run_id, StopAfter(10), Progress(enabled=False))
    print("t:", coordinator.run())
    db.dispose()
    (folder / "_t.toml").unlink()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
