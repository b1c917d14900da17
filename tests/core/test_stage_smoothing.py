"""Smoothing a staged network across its stages (``network smooth``,
core/families/stage_smoothing.py): the weights a user gets, and the
command's file and refusals."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core.evaluation.ntuple import MOBILITY_ENTRIES
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.individual_names import shipped_network
from genethello.core.families.network_files import read_network_file
from genethello.core.families.networks import Network
from genethello.core.families.stage_smoothing import smoothed_stages, stage_kernel

ARCH = architecture("all-1")          # 30 weights a stage


def genethello(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def staged(stage_values: list[float], mobility: bool = False, whole_disc_weight: int = 0) -> Network:
    """A network whose every weight of stage s is ``stage_values[s]`` (its
    mobility entries 10 times that)."""
    luts = np.repeat(np.asarray(stage_values, dtype=np.float64), ARCH.n_weights)
    parts = [luts]
    if mobility:
        parts.append(np.repeat(10.0 * np.asarray(stage_values), MOBILITY_ENTRIES))
    return Network(ARCH, np.concatenate(parts), len(stage_values), whole_disc_weight, mobility)


def test_three_stages_by_hand():
    # sigma 1: k(d) = exp(-d²/2) for d = -3..3; stages beyond the ends are the end stages.
    k = {d: math.exp(-d * d / 2) for d in range(-3, 4)}
    total = sum(k.values())
    values = [0.0, 1.0, 4.0]
    clamp = [0, 0, 0, 0, 1, 2, 2, 2, 2]            # stage of s + d, s + d = -3 .. 5
    expected = [sum(k[d] * values[clamp[s + d + 3]] for d in range(-3, 4)) / total for s in range(3)]
    # stage 0: k0 + k1 * 1 + k2 * 4 + k3 * 4 + the ends (k1 + k2 + k3) * 0, over the total
    assert expected[0] == pytest.approx((k[1] * 1 + (k[2] + k[3]) * 4) / total)
    out = smoothed_stages(staged(values), 1.0)
    assert out.weights.reshape(3, ARCH.n_weights) == pytest.approx(np.repeat([expected], ARCH.n_weights, 0).T)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(2, 30), st.floats(0.2, 5.0), st.floats(-5, 5), st.floats(-2, 2))
def test_constant_and_linear_stages_come_out_as_they_went_in(stages, sigma, level, slope):
    flat = smoothed_stages(staged([level] * stages), sigma)
    assert flat.weights == pytest.approx(np.full(stages * ARCH.n_weights, level))
    # a trend is kept where the kernel does not reach past an end
    radius = math.ceil(3 * sigma)
    trend = smoothed_stages(staged([level + slope * s for s in range(stages)]), sigma).weights
    for s in range(radius, stages - radius):
        assert trend[s * ARCH.n_weights] == pytest.approx(level + slope * s, abs=1e-9)


def test_kind_and_mobility_entries_are_kept_and_smoothed():
    network = staged([0.0, 0.0, 6.4, 0.0, 0.0], mobility=True)
    out = smoothed_stages(network, 0.5)
    assert (out.architecture, out.stages, out.whole_disc_weight, out.mobility) == (ARCH, 5, 0, True)
    luts = out.weights[:5 * ARCH.n_weights].reshape(5, ARCH.n_weights)[:, 0]
    entries = out.weights[5 * ARCH.n_weights:].reshape(5, MOBILITY_ENTRIES)[:, 0]
    assert entries == pytest.approx(10 * luts)
    assert luts[2] < 6.4 and luts[1] == luts[3] > 0 and luts.sum() == pytest.approx(6.4)
    whole = smoothed_stages(staged([1.0, 3.0], whole_disc_weight=10), 2.0)
    assert whole.whole_disc_weight == 10 and whole.weights.mean() == pytest.approx(2.0)


@pytest.mark.parametrize("sigma", [0.0, -1.0, float("nan"), float("inf"), 101.0])
def test_a_bad_sigma_is_refused(sigma):
    with pytest.raises(ValueError, match="sigma"):
        stage_kernel(sigma)


def test_a_single_stage_network_is_refused():
    with pytest.raises(ValueError, match="no stages to smooth"):
        smoothed_stages(Network(ARCH, np.zeros(ARCH.n_weights)), 1.0)


def test_the_command_writes_the_smoothed_network_and_never_overwrites(tmp_path):
    made = genethello("network", "smooth", "pbt-td-searcher", "--sigma", "1", "--out", "smooth.json", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    written = read_network_file(tmp_path / "smooth.json")
    assert made.stdout.strip() == f"wrote {written} to smooth.json"
    start = shipped_network("pbt-td-searcher")
    assert written.network.weights == pytest.approx(smoothed_stages(start.network, 1.0).weights)
    assert (written.type, written.birth) == (start.type, start.birth) and written.digest != start.digest
    before = (tmp_path / "smooth.json").read_bytes()
    again = genethello("network", "smooth", "pbt-td-searcher", "--sigma", "2", "--out", "smooth.json", cwd=tmp_path)
    assert again.returncode == 2 and "exists: give --force" in again.stderr
    assert (tmp_path / "smooth.json").read_bytes() == before
    assert json.loads(before)["architecture"]


@pytest.mark.parametrize(("args", "message"), [
    (("p_1_10", "--sigma", "1"), "'p_1_10' is a GeneThello chromosome, not a network"),
    (("pbt-td-searcher", "--sigma", "0"), "network smooth pbt-td-searcher: sigma 0.0: a number of stages above 0"),
    (("pbt-td-searcher", "--sigma", "x"), "argument --sigma: invalid float value: 'x'"),
])
def test_bad_requests_are_one_line(tmp_path, args, message):
    result = genethello("network", "smooth", *args, "--out", "out.json", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert message in result.stderr.strip().splitlines()[-1]
    assert not (tmp_path / "out.json").exists()
