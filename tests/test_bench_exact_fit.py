"""benchmarks/experiment_exact_fit.py: the endgame stages of a staged network
fitted to exact scores (docs/networks.md, "What did not pay"). The
experiment runs on the repository's games slice, prints a row a stage,
changes only the stages its labels fall in, and never overwrites a file."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from genethello.core import Board
from genethello.core.evaluation.ntuple import MOBILITY_ENTRIES
from genethello.core.families.individual_names import shipped_network
from genethello.core.families.network_files import read_network_file

ROOT = Path(__file__).resolve().parents[1]
SLICE = ROOT / "tests" / "data" / "games" / "wthor_human_games_first2000.txt.gz"


def _run(*extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "benchmarks/experiment_exact_fit.py", "--games-file", str(SLICE),
                           "--games", "150", "--low", "5", "--high", "8", "--workers", "1", "--iterations", "30",
                           *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_fit_changes_only_the_labelled_stages_and_keeps_the_kind(tmp_path):
    out = tmp_path / "fitted.json"
    proc = _run("--out", str(out), "--inputs")
    assert proc.returncode == 0, proc.stderr
    rows = {int(m.group(1)): m.group(2) for m in re.finditer(r"^\s+(\d+)\s+(\d+-\d+)\s", proc.stdout, re.M)}
    assert rows == {26: "7-8", 27: "5-6"}, proc.stdout
    inputs = proc.stdout[proc.stdout.index("scalar inputs"):]
    assert len(re.findall(r"^\s+2[67](\s+[-+]?\d+\.\d\d){6}$", inputs, re.M)) == 2, inputs
    start = shipped_network("table-player-4").network
    fitted = read_network_file(out).network
    assert (fitted.architecture, fitted.stages, fitted.mobility) == (start.architecture, start.stages, start.mobility)
    per_stage = start.architecture.n_weights
    changed = np.flatnonzero(fitted.weights != start.weights)
    assert changed.size
    luts = changed[changed < start.stages * per_stage] // per_stage
    mobility = (changed[changed >= start.stages * per_stage] - start.stages * per_stage) // MOBILITY_ENTRIES
    assert set(luts.tolist()) | set(mobility.tolist()) <= {26, 27}

    again = _run("--out", str(out))
    assert again.returncode != 0 and again.stderr.strip().endswith("exists: name another file")


def test_scalar_inputs_count_by_hand():
    """Frontier discs, potential mobility and odd quadrants as the
    docstring defines them: at the start, and with the mover's a1 walled in
    by the other side's b1, a2 and b2."""
    script = ROOT / "benchmarks" / "experiment_exact_fit.py"
    spec = importlib.util.spec_from_file_location("experiment_exact_fit", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    start = Board()
    walled = (1 << 0, (1 << 1) | (1 << 8) | (1 << 9))
    got = module.scalar_inputs(np.array([start.player, walled[0]], dtype=np.uint64),
                               np.array([start.opponent, walled[1]], dtype=np.uint64))
    assert got.tolist() == [[0, 0, 4, 1], [-3, 5, 0, 1]]
