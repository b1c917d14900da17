"""The static checks, run as part of the test suite so that CI keeps them clean.

* ruff: lint and import order of every Python file (``[tool.ruff]``);
* mypy: the package as ``genethello.core`` / ``genethello.cluster``, through
  the links in ``typecheck/`` and the stubs of the compiled modules
  (``core/*.pyi``) (``[tool.mypy]``);
* cython-lint: the ``.pyx`` / ``.pxd`` files of the core (``[tool.cython-lint]``).

Each test runs the tool as its own process from the repository root with
the configuration in ``pyproject.toml`` and fails with the tool's report.
The tools come with the test extra (``pip install -e '.[test]'``); a test
whose tool is missing skips, naming it. mypy keeps its cache in
``.mypy_cache/`` (ignored by git): a fresh clone pays for one full check.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (the test extra installs it: pip install -e '.[test]')")


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """``args`` in the repository, with this interpreter's scripts first on
    PATH: cython-lint runs ``pycodestyle`` by name, which a virtual
    environment that is used but not activated (``.venv/bin/python -m
    pytest``) does not put on PATH."""
    scripts = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": os.pathsep.join([scripts, os.environ.get("PATH", "")])}
    return subprocess.run(args, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, env=env)


def _report(result: subprocess.CompletedProcess[str]) -> str:
    return (result.stdout + result.stderr).strip()


def test_ruff_finds_nothing():
    _require("ruff")
    result = _run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], timeout=120)
    assert result.returncode == 0, _report(result)


def test_mypy_finds_nothing():
    _require("mypy")
    result = _run([sys.executable, "-m", "mypy", "-p", "genethello.core", "-p", "genethello.cluster"], timeout=300)
    # errors show the path mypy read them through: typecheck/genethello/core/x.py is core/x.py
    report = _report(result).replace("typecheck/genethello/", "")
    assert result.returncode == 0, report
    assert "Success: no issues found" in report, report


def test_mypy_checks_callers_of_the_compiled_modules_through_their_stubs():
    # Without core/engine/board.pyi the import below would fail (or be Any) and the
    # wrong type would pass unseen.
    _require("mypy")
    code = ("from genethello.core.engine.board import Board\n"
            "from genethello.core.engine.search import Searcher\n"
            "empties: str = Board().empties\n"
            "Searcher(None)\n")
    result = _run([sys.executable, "-m", "mypy", "-c", code], timeout=300)
    report = _report(result)
    assert result.returncode == 1, report
    assert 'expression has type "int", variable has type "str"' in report, report
    assert 'Argument 1 to "Searcher" has incompatible type "None"; expected "BaseEvaluator"' in report, report


def test_every_compiled_module_has_a_stub():
    # mypy reads a compiled module through its .pyi; one without would be
    # an import error (or Any) for its callers.
    missing = [str(p.relative_to(REPO_ROOT)) for root in ("core", "cluster")
               for p in sorted((REPO_ROOT / root).rglob("*.pyx")) if not p.with_suffix(".pyi").exists()]
    assert not missing, f"compiled modules without a .pyi stub: {missing}"


def test_no_module_is_relaxed():
    # A ratchet: a module leaves the ignore_errors list once it passes strict
    # mypy, and none comes back; the list is empty now.
    import tomllib

    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    relaxed: set[str] = set()
    for override in config["tool"]["mypy"].get("overrides", []):
        if override.get("ignore_errors"):
            modules = override["module"]
            relaxed.update([modules] if isinstance(modules, str) else modules)
    assert relaxed == set(), sorted(relaxed)


def test_cython_lint_finds_nothing():
    _require("cython_lint")
    result = _run([sys.executable, "-c", "import sys; from cython_lint.cython_lint import main; sys.exit(main())",
                   "core"], timeout=120)
    assert result.returncode == 0, _report(result)
