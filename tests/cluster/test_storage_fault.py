"""A storage fault ends the run with one line and no native crash (issue
37 §9): a database's WAL shared memory made immutable under a running
process. SQLite writes that file through a memory mapping on every BEGIN
and on close; the kernel answered with SIGBUS and a crash dump. Needs
``chattr`` (root on ext4): skipped elsewhere."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import os, subprocess, sys
from genethello.cluster.db import Database
from genethello.cluster.db.models import Run
path = sys.argv[1]
db = Database.open(path, create=True)
with db.session(immediate=True) as s:
    s.query(Run).count()
subprocess.run(["chattr", "+i", path + "-shm"], check=True)
try:
    with db.session(immediate=True) as s:
        s.query(Run).count()
except PermissionError as exc:
    print(exc, file=sys.stderr)
    if getattr(exc, "abandon_connections", False):
        sys.stderr.flush()
        os._exit(2)
    raise
print("no error", file=sys.stderr)
"""


def _chattr_works(folder: Path) -> bool:
    probe = folder / "probe"
    probe.touch()
    if shutil.which("chattr") is None:
        return False
    done = subprocess.run(["chattr", "+i", str(probe)], capture_output=True)
    subprocess.run(["chattr", "-i", str(probe)], capture_output=True)
    return done.returncode == 0


def test_an_immutable_shared_memory_file_is_one_line_not_sigbus(tmp_path):
    if not _chattr_works(tmp_path):
        pytest.skip("chattr +i is not available here (root on ext4)")
    db = tmp_path / "run.db"
    try:
        done = subprocess.run([sys.executable, "-c", SCRIPT, str(db)], capture_output=True, text=True, timeout=60)
    finally:
        subprocess.run(["chattr", "-i", f"{db}-shm"], capture_output=True)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert done.stderr.strip() == (f"the database's shared-memory file {db}-shm cannot be written (made read-only "
                                   "or immutable under the run?): stopping before SQLite writes to it")
