"""Nothing of a local run outlives it (issue 30 §4): SIGKILL of its process
group leaves no Ray process behind (the reaper in its private network
namespace ends DashboardAgent and RuntimeEnvAgent, which ignore SIGTERM),
and a second SIGINT stops a run at once, whatever game is in flight.

Real ``genethello evolve`` subprocesses with their own Ray; every process
they started is killed by pid in ``finally`` whatever the outcome."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

from .conftest import _proc_stats, _ray_processes_of, cli_env, genethello_argv, kill_session, query, write_config


def alive(pids: set[int]) -> set[int]:
    stats = _proc_stats()
    return {p for p in pids if p in stats and stats[p][0] != "Z"}


def start_deep_run(tmp_path: Path) -> tuple[subprocess.Popen, set[int]]:
    """A local run whose games cannot end within the test (depth 60, exact
    30), started and playing; returns it and its processes (Ray's included),
    which are all in a network namespace other than this process's."""
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, games__depth=60, games__exact_empties=30, population__size=4,
                          cluster__task_seconds=60.0)
    proc = subprocess.Popen(genethello_argv("evolve", "--config", str(config), "--db", str(tmp_path / "deep.db"),
                                            "--workers", "2"),
                            cwd=tmp_path, env=cli_env(home), text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    for line in proc.stdout:
        if " workers; database " in line or time.monotonic() > deadline:
            break
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:          # until a worker plays a game
        stats = _proc_stats()
        pids = _ray_processes_of(proc.pid, stats) | {p for p, s in stats.items() if s[3] == proc.pid}
        names = set()
        for p in alive(pids):
            with contextlib.suppress(OSError):
                names.add(Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")[0])
        if {b"ray::DashboardAgent", b"ray::RuntimeEnvAgent", b"ray::_run_remote"} <= names:
            break
        time.sleep(0.5)
    return proc, pids


def cleanup(proc: subprocess.Popen, pids: set[int]) -> None:
    kill_session(proc)
    for pid in alive(pids):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def wait_gone(pids: set[int], within: float) -> set[int]:
    deadline = time.monotonic() + within
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    return alive(pids)


def describe(pids: set[int]) -> list[bytes]:
    found = []
    for p in pids:
        with contextlib.suppress(OSError):
            found.append(Path(f"/proc/{p}/cmdline").read_bytes()[:80])
    return found


def test_sigkill_of_the_process_group_leaves_no_ray_process(tmp_path):
    proc, pids = start_deep_run(tmp_path)
    try:
        assert {b"ray::DashboardAgent", b"ray::RuntimeEnvAgent"} <= {
            Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")[0] for p in alive(pids)}
        own = os.readlink("/proc/self/ns/net")
        assert {os.readlink(f"/proc/{p}/ns/net") for p in alive(pids)} - {own}, "not in a private namespace"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        # The agents used to stay for minutes (they ignore SIGTERM); the reaper ends them at once.
        left = wait_gone(pids, 15)
        assert not left, describe(left)
    finally:
        cleanup(proc, pids)


def test_a_second_sigint_stops_a_deep_game_at_once(tmp_path):
    proc, pids = start_deep_run(tmp_path)
    try:
        os.kill(proc.pid, signal.SIGINT)
        time.sleep(2)
        os.kill(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
        assert proc.returncode == 130 and "Traceback" not in out, out
        assert "SIGINT again: stopping now; the games in flight are dropped (resume plays them again)" in out, out
        assert out.strip().splitlines()[-1] == "genethello: interrupted", out
        left = wait_gone(pids, 15)
        assert not left, describe(left)
        # What is committed stays, and the run reads as stopped: resume continues it.
        assert query(tmp_path / "deep.db", "SELECT status, lease_owner FROM runs") == [("stopped", None)]
    finally:
        cleanup(proc, pids)
