"""The Ray executor when a worker process dies under a batch: Ray is told
not to retry, so the loss reaches the executor, which plays the batch
again; every game comes back exactly once, as a serial run plays it."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from genethello.cluster.fitness.matches import Matches, Pairing, PlaySetting, Side
from genethello.cluster.run.executors import RayExecutor, SerialExecutor, WorkerLostError

PLAYERS = ("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3", "oe_fmc_2_20:44:1:6:2:3:2:4:2:8:1", "fmc_0_5:3:1")
TASK = Matches(tuple(Side(text, None, PlaySetting(depth=5, exact_empties=8, tt_bits=14)) for text in PLAYERS))
PAIRS = [(b, w) for b in range(3) for w in range(3) if b != w]
SPECS = [Pairing(i, b, w, (37, 43)) for i, (b, w) in enumerate(PAIRS * 2)]   # 12 games


def parent_pid(pid: int) -> int:
    """The parent of a process (0 when it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])    # after "pid (name)": state, ppid, ...


def started_by_this_test(pid: int) -> bool:
    """Whether the process descends from this test process: the Ray that
    the ray_cluster fixture started here (its raylet's workers), not the
    Ray of another session or program on the same machine."""
    me = os.getpid()
    while pid > 1:
        pid = parent_pid(pid)
        if pid == me:
            return True
    return False


def busy_worker_pids() -> list[int]:
    """This session's Ray worker processes running a game batch now (Ray
    titles a busy worker's process 'ray::<task name>')."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if not entry.joinpath("cmdline").read_bytes().startswith(b"ray::_run_remote"):
                    continue
            except OSError:
                continue
            if started_by_this_test(int(entry.name)):
                pids.append(int(entry.name))
    return pids


class WorkerKiller:
    """A thread that SIGKILLs busy Ray workers (of this session's Ray): the
    first one it sees, or every one while it runs."""

    def __init__(self, every: bool) -> None:
        self.every = every
        self.killed: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set() and (self.every or not self.killed):
            for pid in busy_worker_pids():
                if pid not in self.killed:
                    os.kill(pid, signal.SIGKILL)
                    self.killed.append(pid)
            time.sleep(0.005)

    def __enter__(self) -> WorkerKiller:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(10)


def batches_of_two(specs: list[Pairing]):
    queue = list(specs)

    def next_batch(size: int) -> list[Pairing]:
        batch, queue[:] = queue[:2], queue[2:]
        return batch
    return next_batch


def test_a_batch_lost_with_its_worker_is_played_again(ray_cluster):
    executor = RayExecutor(2, task_seconds=0.05, ray_retries=0)
    with WorkerKiller(every=False) as killer:
        outcomes = [o for batch in executor.run(TASK, batches_of_two(SPECS), lambda: False)
                    for o in batch]
    assert killer.killed, "no busy Ray worker was seen to kill"
    assert executor.retried_batches >= 1
    assert sorted(o.index for o in outcomes) == list(range(len(SPECS)))
    assert sorted(outcomes, key=lambda o: o.index) == TASK.run(SPECS)


def test_a_batch_lost_too_often_is_a_named_error(ray_cluster):
    executor = RayExecutor(2, task_seconds=0.05, ray_retries=0)
    executor.MAX_RETRIES = 1
    with (WorkerKiller(every=True) as killer,
          pytest.raises(WorkerLostError, match=r"a batch of 2 games was lost 2 times; last error: ")):
        for _ in executor.run(TASK, batches_of_two(SPECS), lambda: False):
            pass
    assert len(killer.killed) >= 2


class _SlowItems:
    """A task whose items take ``seconds`` each (a learning slice's kind)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def run(self, items: list[int]) -> list[int]:
        time.sleep(self.seconds * len(items))
        return items


class _FastItems(_SlowItems):
    """Another kind of task, whose items take a fraction of a millisecond (a hall game's)."""


def _batch_sizes(executor: SerialExecutor, task: _SlowItems, items: int) -> list[int]:
    pending = list(range(items))

    def next_batch(size: int) -> list[int]:
        batch, pending[:] = pending[:size], pending[size:]
        return batch

    return [len(batch) for batch in executor.run(task, next_batch, lambda: False)]


def test_each_kind_of_task_sizes_its_own_batches():
    """After thousands of quick items, slow ones still go a few at a time
    (else a learning phase after the hall's games went to one worker whole)."""
    executor = SerialExecutor(task_seconds=0.02)
    assert max(_batch_sizes(executor, _FastItems(0.00001), 3000)) > 100
    assert max(_batch_sizes(executor, _SlowItems(0.01), 8)) <= 2
