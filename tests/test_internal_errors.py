"""A user's error and genethello's own are told apart at the front door.

A UserError (bad input, file or database) prints one line and exits 2; any
other exception is a bug: one line naming a log file that holds its
traceback, exit 70, and no traceback on screen. The bug is planted in the
command's process (its handler is replaced before ``main`` runs: the
parser, the error path and the log are genethello's own), because a real
bug cannot be kept in the code for a test to find.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from genethello.core.frontend.errors import INTERNAL_ERROR_STATUS, USER_ERROR_STATUS

PLANT = """
import sys
from genethello.cluster.cli import main as front
from genethello.core.frontend.errors import UserError

def planted(handler, args, context):
    raise {error}

front.call_handler = planted
sys.exit(front.main(["perft", "1"]))
"""


def _run(error: str, logs: Path | str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GENETHELLO_ERROR_LOGS": str(logs)}
    return subprocess.run([sys.executable, "-c", PLANT.format(error=error)], capture_output=True, text=True,
                          env=env, timeout=60)


@pytest.mark.parametrize("error", ["KeyError('slot 3')", "ValueError('a check of our own failed')"])
def test_a_bug_prints_one_line_naming_the_log_that_holds_its_traceback(tmp_path, error):
    # A plain ValueError is a bug too: only a UserError is the user's.
    proc = _run(error, tmp_path / "logs")
    assert proc.returncode == INTERNAL_ERROR_STATUS
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0].startswith("genethello perft: internal error (")
    named = re.search(r"the traceback is in (\S+);", lines[0])
    assert named is not None
    log = Path(named.group(1))
    assert log.parent == tmp_path / "logs"
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and error.split("(")[0] in text and "planted" in text
    assert oct(log.stat().st_mode & 0o777) == "0o600"


def test_a_user_error_prints_its_line_and_exits_2_with_no_log(tmp_path):
    proc = _run("UserError('the config names no such opening set')", tmp_path / "logs")
    assert proc.returncode == USER_ERROR_STATUS
    assert proc.stderr == "genethello perft: error: the config names no such opening set\n"
    assert not (tmp_path / "logs").exists()


def test_an_unwritable_log_folder_falls_back_to_the_temporary_folder(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    proc = _run("RuntimeError('boom')", blocked / "logs")
    assert proc.returncode == INTERNAL_ERROR_STATUS and len(proc.stderr.splitlines()) == 1
    log = Path(re.search(r"the traceback is in (\S+);", proc.stderr).group(1))  # type: ignore[union-attr]
    assert "RuntimeError: boom" in log.read_text()
    log.unlink()

