"""Faults outside genethello: each is one line naming the cause, in bounded
time, and loses nothing — a read-only database, a full disk, a cluster that
cannot be reached."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from genethello.cluster.db import Database
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

from .conftest import db_snapshot, query, run_cli, snapshot_diff, write_config

needs_mount = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None,
                                 reason="needs root and mount(8) for a small or read-only tmpfs")


@contextmanager
def tmpfs(path: Path, size_kib: int):
    path.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def one_line_error(r: subprocess.CompletedProcess) -> str:
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


def serial_reference(folder: Path, config: Path) -> dict:
    db = Database.open(folder / "reference.db", create=True)
    try:
        run_id = create_run(db, load_config(config))
        assert Coordinator(db, run_id, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
    finally:
        db.dispose()
    return db_snapshot(folder / "reference.db", "t")


@needs_mount
def test_read_only_database_reads_but_refuses_to_write(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, stop__max_generations=1)
    made = tmp_path / "made.db"
    assert run_cli("evolve", "--config", str(config), "--db", str(made), "--workers", "1", "--quiet",
                   home=home, cwd=tmp_path).returncode == 0
    with tmpfs(tmp_path / "ro", 2048) as mount:
        shutil.copy(made, mount / "run.db")
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        before = (mount / "run.db").read_bytes()
        for command in (["resume", "--max-generations", "2"], ["evolve", "--config", str(config), "--name", "u"]):
            r = run_cli(*command, "--db", str(mount / "run.db"), "--workers", "1", home=home, cwd=tmp_path)
            assert "read-only" in one_line_error(r)
        assert (mount / "run.db").read_bytes() == before
        for command in (["status"], ["best"]):
            r = run_cli(*command, "--db", str(mount / "run.db"), home=home, cwd=tmp_path)
            assert r.returncode == 0, r.stderr


@needs_mount
def test_a_full_disk_is_one_line_and_resume_continues_after_space_is_freed(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, stop__max_generations=3)
    reference = serial_reference(tmp_path, config)
    with tmpfs(tmp_path / "small", 16384) as mount:
        db = mount / "run.db"
        # Leave the run room for its first generation or so, not for three.
        filler = mount / "filler"
        filler.write_bytes(b"\0" * (16384 - 240) * 1024)
        r = run_cli("evolve", "--config", str(config), "--db", str(db), "--workers", "1", "--quiet",
                    home=home, cwd=tmp_path)
        assert "full" in one_line_error(r)
        filler.unlink()
        r = run_cli("resume", "--db", str(db), "--workers", "1", "--quiet", home=home, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        got = db_snapshot(db, "t")
    assert got == reference, snapshot_diff(got, reference)


def test_an_unreachable_cluster_is_one_line_within_30_seconds(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path)
    db = tmp_path / "run.db"
    t0 = time.monotonic()
    r = run_cli("evolve", "--config", str(config), "--db", str(db), "--address", "127.0.0.1:1",
                home=home, cwd=tmp_path, timeout=60)
    assert time.monotonic() - t0 < 30
    assert "127.0.0.1:1" in one_line_error(r)
    # The run was created and waits for a cluster: resume continues it.
    assert query(db, "SELECT name, status, generation FROM runs") == [("t", "failed", 0)]


def test_workers_are_checked_alike_by_evolve_and_resume(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path)
    for workers in ("0", "-1"):
        for command in (["evolve", "--config", str(config)], ["resume"]):
            r = run_cli(*command, "--db", str(tmp_path / "none.db"), "--workers", workers, home=home, cwd=tmp_path)
            assert f"--workers must be >= 1, got {workers}" in one_line_error(r)
    assert not (tmp_path / "none.db").exists()
