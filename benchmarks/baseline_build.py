"""Time today's core against an earlier commit's, in the same run.

These machines are shared and noisy, so a speed ratio is only worth stating
when both sides ran side by side, interleaved. This module builds another
commit's Cython core once (``git archive`` of that commit into a cache folder,
``setup.py build_ext --inplace``), and runs each build in its own worker
process (a build is a package named ``genethello``; two cannot share one
interpreter). A benchmark sends both workers the same requests in turn and
compares the seconds each reports.

The worker (``bench_worker.py``, beside this file) is the same script for
both builds: it uses only the API the baseline commit already had.

Used by bench_games.py and bench_ffo.py; nothing outside benchmarks/ imports it.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# The yardstick: "today's core" when the second pass began.
BASELINE_COMMIT = "cf7873c"
CHECKOUT = Path(__file__).resolve().parents[1]
WORKER = Path(__file__).resolve().parent / "bench_worker.py"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "genethello" / "baselines"


def _shim(tree: Path, shim: Path) -> Path:
    """`shim`, made a folder for PYTHONPATH whose `genethello` package is
    `tree`'s core/ and cluster/ (setup.py's package-dir mapping, as links)."""
    package = shim / "genethello"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").touch()
    for name in ("core", "cluster"):
        link = package / name
        if not link.is_symlink():
            link.symlink_to(tree / name, target_is_directory=True)
    return shim


BUILD_MODULES = {"Cython": "cython", "setuptools": "setuptools", "numpy": "numpy"}
"""What ``setup.py build_ext`` of a baseline imports (module -> distribution):
the build's isolated environment had them when this checkout was installed,
the benchmark's interpreter needs them too. pyproject.toml's ``bench`` extra
brings them."""


def missing_build_tools() -> str | None:
    """One line naming what building a baseline needs and this interpreter
    lacks (Python modules, git, a C compiler), with the remedy; None when
    nothing is missing."""
    lacking = [dist for module, dist in BUILD_MODULES.items() if importlib.util.find_spec(module) is None]
    if lacking:
        return (f"building the baseline core needs {', '.join(lacking)}, which this Python lacks: "
                f'pip install -e ".[bench]" (or pass --baseline none)')
    tools = [tool for tool in ("git", os.environ.get("CC", "cc")) if shutil.which(tool) is None]
    if tools:
        return f"building the baseline core needs {' and '.join(tools)} on PATH (or pass --baseline none)"
    return None


def build_commit(commit: str = BASELINE_COMMIT) -> Path:
    """The PYTHONPATH folder of `commit`'s built core, building it on first
    use (a minute or two) into the user's cache; later runs reuse it."""
    if shutil.which("git") is None:
        raise SystemExit("error: finding the baseline commit needs git on PATH (or pass --baseline none)")
    sha = subprocess.run(["git", "-C", str(CHECKOUT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                         capture_output=True, text=True)
    if sha.returncode != 0:
        raise SystemExit(f"error: commit {commit} is not in this checkout's history "
                         "(a shallow clone? fetch it, or pass --baseline none)")
    tree = CACHE / sha.stdout.strip()
    if (tree / ".built").exists():
        return _shim(tree, tree / ".shim")
    missing = missing_build_tools()
    if missing:
        raise SystemExit(f"error: {missing}")
    CACHE.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="build-", dir=CACHE))
    print(f"building the baseline core {commit} in {tree} (once) ...", file=sys.stderr, flush=True)
    archive = subprocess.run(["git", "-C", str(CHECKOUT), "archive", "--format=tar", sha.stdout.strip()],
                             capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(staging)], input=archive.stdout, check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GENETHELLO_")}
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=staging, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise SystemExit(f"error: building {commit} failed:\n{done.stderr[-2000:]}")
    (staging / ".built").touch()
    if tree.exists():                      # a half-built earlier attempt
        shutil.rmtree(tree)
    staging.rename(tree)
    return _shim(tree, tree / ".shim")


def checkout_path() -> Path:
    """The PYTHONPATH folder of this checkout's core (built in place), in a
    temporary folder removed at exit (nothing is written into the checkout)."""
    shim = Path(tempfile.mkdtemp(prefix="genethello-shim-"))
    atexit.register(shutil.rmtree, shim, True)
    return _shim(CHECKOUT, shim)


class BuildWorker:
    """One build of the core in its own process, answering JSON requests
    (one line each way; see bench_worker.py for the requests)."""

    def __init__(self, label: str, python_path: Path):
        self.label = label
        env = dict(os.environ, PYTHONPATH=str(python_path), PYTHONDONTWRITEBYTECODE="1")
        self.process = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env, cwd=str(WORKER.parent))

    def call(self, **request) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"error: the {self.label} worker died (exit {self.process.wait()})")
        answer = json.loads(line)
        if "error" in answer:
            raise SystemExit(f"error: the {self.label} worker: {answer['error']}")
        return answer

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> BuildWorker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
