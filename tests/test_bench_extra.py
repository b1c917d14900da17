"""The benchmarks that build a baseline core (bench_games.py, bench_ffo.py)
say in one line what is missing and which extra brings it, instead of a
traceback from the build. Python without Cython is made by blocking its
import (``sys.modules['Cython'] = None``, as the import system itself marks
a module that cannot be imported), with an empty cache so that the
baseline has to be built."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("script", ["bench_games.py", "bench_ffo.py"])
def test_a_missing_build_tool_is_one_line_naming_the_extra(script, tmp_path):
    runner = ("import runpy, sys; sys.modules['Cython'] = None; "
              f"sys.argv = [{script!r}]; sys.path.insert(0, 'benchmarks'); "
              f"runpy.run_path('benchmarks/{script}', run_name='__main__')")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", runner], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1
    lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith("building the baseline core ")]
    assert len(lines) == 1, proc.stderr
    assert "cython" in lines[0] and 'pip install -e ".[bench]"' in lines[0] and "Traceback" not in proc.stderr


def test_the_bench_extra_brings_what_the_baseline_build_imports():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from baseline_build import BUILD_MODULES
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    tomllib = pytest.importorskip("tomllib")   # Python 3.11+
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["bench"]
    names = {requirement.split(">")[0].split("=")[0].strip().lower() for requirement in extra}
    assert set(BUILD_MODULES.values()) <= names
