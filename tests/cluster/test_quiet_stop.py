"""Stopping a run by signal, as systemd, a container runtime or Ctrl-C do:
the whole process group gets SIGTERM (or SIGINT), the run stops after the
games in flight, exits 0, prints no stack dump (Ray's C++ fatal-signal
handler, a relayed "Terminated with signal 15" traceback), leaves no Ray
process behind, and resumes. Real `genethello` subprocesses with real Ray."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.cluster.conftest import cli_env, genethello_argv, query, reap_session, session_pids, write_config
from tests.signals import default_sigint

NOISE = ("SIGTERM received", "stack trace", "Traceback", "logging.cc", "Terminated with signal", "PC: @")


def start(args: list[str], folder: Path, home: Path, tag: str) -> tuple[subprocess.Popen, Path, Path]:
    """`genethello ARGS` in a session of its own, its output in files."""
    out, err = folder / f"{tag}.out", folder / f"{tag}.err"
    proc = subprocess.Popen(genethello_argv(*args), cwd=folder, env=cli_env(home), stdout=out.open("w"),
                            stderr=err.open("w"), start_new_session=True, preexec_fn=default_sigint)
    return proc, out, err


def wait_for(path: Path, text: str, proc: subprocess.Popen, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while text not in path.read_text():
        assert proc.poll() is None, f"ended before {text!r}:\n{path.read_text()}"
        assert time.monotonic() < deadline, f"no {text!r} within {timeout} s:\n{path.read_text()}"
        time.sleep(0.2)


def stop_by_signal(proc: subprocess.Popen, out: Path, err: Path, sig: signal.Signals) -> str:
    """Send ``sig`` to the process group, wait for the end, check it was
    quiet and clean; returns stdout and stderr together."""
    os.killpg(proc.pid, sig)
    try:
        rc = proc.wait(timeout=120)
    finally:
        reap_session(proc.pid, wait=0.0)
    text = out.read_text() + err.read_text()
    assert rc == 0, text
    assert f"{sig.name}: stopping after the games in flight" in text
    assert ": stopped at generation" in text, text
    for noise in NOISE:
        assert noise not in text, text
    # Ray's processes (in sessions of their own) end with the driver.
    deadline = time.monotonic() + 15
    while session_pids(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert session_pids(proc.pid) == []
    return text


def test_sigterm_to_the_process_group_stops_quietly_and_the_run_resumes(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, name="sig", stop__max_generations=500)
    db = tmp_path / "sig.db"
    proc, out, err = start(["evolve", "--config", str(config), "--db", str(db), "--workers", "2"], tmp_path, home,
                           "evolve")
    try:
        wait_for(err, "generation 1 rated", proc)
        text = stop_by_signal(proc, out, err, signal.SIGTERM)
        # Without a terminal, the generation's progress is one line at its end.
        assert re.search(r"^generation 1: 30/30 games in [\d.]+ s, [\d.]+ games/s$", text, re.M), text
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        reap_session(proc.pid)
    [(status, stopped_at)] = query(db, "SELECT status, generation FROM runs")
    assert status == "stopped"

    proc, out, err = start(["resume", "--db", str(db), "--workers", "2"], tmp_path, home, "resume")
    try:
        wait_for(err, f"generation {stopped_at + 1} rated", proc)
        stop_by_signal(proc, out, err, signal.SIGTERM)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        reap_session(proc.pid)
    [(status, generation)] = query(db, "SELECT status, generation FROM runs")
    assert status == "stopped" and generation > stopped_at


@pytest.mark.parametrize("sig", [signal.SIGINT], ids=["ctrl-c"])
def test_ctrl_c_to_the_process_group_stops_quietly(tmp_path, sig):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, name="int", stop__max_generations=500)
    db = tmp_path / "int.db"
    proc, out, err = start(["evolve", "--config", str(config), "--db", str(db), "--workers", "2"], tmp_path, home,
                           "evolve")
    try:
        wait_for(err, "generation 1 rated", proc)
        stop_by_signal(proc, out, err, sig)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        reap_session(proc.pid)
