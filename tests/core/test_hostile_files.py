"""Hostile network files and options (issue 30 §5, §6): each is one line on
stderr (exit 2), in bounded time, from the real ``genethello`` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from genethello.core.families.network_family import NETWORKS
from genethello.core.families.networks import MAX_WEIGHT, bound_norm, quantize

CHROMOSOME = "oe_fmc_1_6:52:7:8:5:6:4:4:1:10:5"


def genethello(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """``genethello ARGS`` to its end; a hang fails the test (timeout) rather than the run."""
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def one_line(result: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A real all-1 network file."""
    folder = tmp_path_factory.mktemp("networks")
    made = genethello("network", "random", "--arch", "all-1", "--seed", "1", "--out", "base.json", cwd=folder)
    assert made.returncode == 0, made.stderr
    return folder / "base.json"


def variant(base: Path, name: str, weights: object = None, raw_first: str | None = None) -> Path:
    """``base`` with its weights replaced (or its first weight's text replaced by ``raw_first``)."""
    text = base.read_text()
    doc = json.loads(text)
    if raw_first is not None:
        text = text.replace(json.dumps(doc["weights"][0]), raw_first, 1)
    else:
        doc["weights"] = weights
        text = json.dumps(doc)
    path = base.with_name(name)
    path.write_text(text)
    return path


def test_a_401_digit_weight_is_one_line(base):
    path = variant(base, "digits.json", raw_first="1" * 401)
    assert one_line(genethello("network", "show", str(path), cwd=base.parent)) == (
        f"genethello network: error: {path}: weight 0 is an integer of 401 digits, not a finite number")
    path = variant(base, "digits5k.json", raw_first="1" * 5000)
    assert one_line(genethello("network", "show", str(path), cwd=base.parent)) == (
        f"genethello network: error: {path}: not JSON genethello reads (a number of more than 4,300 digits)")


def test_weights_near_the_float_range_are_one_line(base):
    n = len(json.loads(base.read_text())["weights"])
    path = variant(base, "huge.json", [1e306] * n)
    assert one_line(genethello("match", str(path), CHROMOSOME, "--depth", "1", cwd=base.parent)) == (
        f"genethello match: error: {path}: weight 0 is 1e+306, not a finite number within ±1e+150")
    # The bound norm's exact sum overflowed (OverflowError from fsum) on the largest architecture.
    arch = NETWORKS.parse_kind("all-4+2x2").architecture
    with pytest.raises(ValueError, match=r"within ±1e\+150"):
        bound_norm(arch, [MAX_WEIGHT * 10] * arch.n_weights)


def test_subnormal_weights_are_one_line_not_int_min(base):
    n = len(json.loads(base.read_text())["weights"])
    path = variant(base, "subnormal.json", [5e-324] * n)
    assert one_line(genethello("network", "show", str(path), cwd=base.parent)) == (
        f"genethello network: error: {path}: network weights too small to quantize: their bound norm is "
        "3.16202e-322, less than 1e-150 (all zeros is the zero network)")
    arch = NETWORKS.parse_kind("all-1").architecture
    assert not quantize(arch, [0.0] * arch.n_weights).any()         # the zero network stays one


def test_a_fifo_as_a_network_file_is_one_line_at_once(tmp_path):
    fifo = tmp_path / "net.json"
    os.mkfifo(fifo)
    for args in (("network", "show", str(fifo)), ("match", str(fifo), CHROMOSOME, "--depth", "1")):
        line = one_line(genethello(*args, cwd=tmp_path, timeout=30))
        assert line.endswith(f"error: cannot read network file {fifo}: a FIFO, not a regular file"), line


@pytest.mark.parametrize("command", [("match", CHROMOSOME, CHROMOSOME), ("selfplay", CHROMOSOME, CHROMOSOME),
                                     ("gtp", "--player", CHROMOSOME)])
@pytest.mark.parametrize("seconds", ["inf", "1e9"])
def test_an_endless_clock_is_refused(tmp_path, command, seconds):
    result = genethello(*command, "--time", seconds, cwd=tmp_path, timeout=30)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"genethello {command[0]}: error: argument --time: must be a finite number > 0 and at most 86400, "
        f"got {seconds}")


@pytest.mark.parametrize(("games", "openings"), [
    ("1", "1 opening with one colour"), ("2", "1 opening with both colours"),
    ("3", "1 opening with both colours and 1 opening with one colour")])
def test_a_match_says_how_many_openings_had_both_colours(tmp_path, games, openings):
    result = genethello("match", CHROMOSOME, CHROMOSOME, "--depth", "1", "--games", games, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    *_, score, verdict = result.stdout.strip().splitlines()
    assert score.endswith(f"), {openings}") and verdict.startswith("verdict: "), result.stdout
