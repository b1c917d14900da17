"""bench_evolution.py --networks: the n-tuple network experiment runs every
method with every fitness and prints its League curve and summary; a run of
its loop is a pure function of its options."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

pytest.importorskip("cmaes")


def _run(tmp_path: Path, *extra: str) -> str:
    proc = subprocess.run([sys.executable, "benchmarks/bench_evolution.py", "--networks", "--budget", "1600",
                           "--checkpoints", "2", "--seeds", "1", "--lambda", "4", "--games-per-member", "5",
                           "--games-per-pair", "5", "--league", "20", "--final-league", "30", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_network_experiment_prints_its_curve_and_summary_and_is_seeded(tmp_path):
    out = _run(tmp_path, "--save", str(tmp_path / "best.npy"))
    tables = out[out.index("The champion's League score"):]
    for method in ("cma", "sep-cma", "ga", "random"):
        for fitness in ("fixed", "coevolution"):
            rows = [ln for ln in tables.splitlines() if re.match(rf"{re.escape(method)}\s+{fitness}\s", ln)]
            assert len(rows) == 3, (method, fitness, tables)        # curve, pooled curve, final summary
            saved = np.load(tmp_path / f"best-{method}-{fitness}-1.npy")
            assert saved.shape == (288,) and np.all(np.isfinite(saved))
    assert "Final champions" in tables


def test_a_network_run_is_a_function_of_its_options():
    first, second = (_run_one() for _ in range(2))
    assert first == second


def _run_one() -> list:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from network_loop import evolve
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from genethello.cluster.fitness.network_fitness import FitnessConfig

    result = evolve("cma", FitnessConfig("coevolution", games_per_pair=2), population=5, budget=800, checkpoints=2,
                    league_double_games=20, seed=3)
    return [(games, generation, score) for games, generation, score in result.curve] + [result.champion.tolist()]
