"""Shared fixtures: where the test data lives.

The small real data the tests use (perft counts, FFO positions, format samples,
GTP scripts, the first 2,000 WTHOR games) is in ``tests/data`` inside the
repository, so a fresh clone runs its tests on its own (tests/data/README.md
says where each file came from). Only the full 89,940-game file stays outside:
``full_games_file`` looks for it under GENETHELLO_SHARED_DATA or in
``shared/data`` beside the checkout, and tests that need it skip without it.
"""

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests are derandomized in CI (and reproducible everywhere):
# the same examples on every run.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", derandomize=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

REPO_ROOT = Path(__file__).resolve().parents[1]

# An internal error a test provokes logs its traceback here (inherited by the
# commands the tests start), never in the user's cache.
os.environ.setdefault("GENETHELLO_ERROR_LOGS", tempfile.mkdtemp(prefix="genethello-test-errors-"))


TEST_DATA = Path(__file__).resolve().parent / "data"
GAMES_SLICE = TEST_DATA / "games" / "wthor_human_games_first2000.txt.gz"
FULL_GAMES_NAME = "wthor_human_games.txt.gz"


def full_games_places() -> list[Path]:
    """Where the full games file may be, in the order looked: the
    GENETHELLO_SHARED_DATA folder when set, else shared/data inside or beside
    the checkout."""
    env = os.environ.get("GENETHELLO_SHARED_DATA")
    roots = [Path(env)] if env else [REPO_ROOT / "shared" / "data", REPO_ROOT.parent / "shared" / "data"]
    return [root / "games" / FULL_GAMES_NAME for root in roots]


def full_games_file() -> Path | None:
    """The full WTHOR games file (4 MB, kept out of the repository), or None."""
    return next((path for path in full_games_places() if path.is_file()), None)


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The in-repository test data folder (tests/data); needs nothing outside the clone."""
    return TEST_DATA


@pytest.fixture(scope="session")
def games_slice() -> Path:
    """The first 2,000 lines of the WTHOR games file, in its format (gzip, one game a line)."""
    return GAMES_SLICE


def require_full_games() -> Path:
    """The full WTHOR games file; skips the calling test, naming the file and
    where it was looked for, when it is absent (as in a plain clone)."""
    path = full_games_file()
    if path is None:
        looked = ", ".join(str(p) for p in full_games_places())
        pytest.skip(f"{FULL_GAMES_NAME} not found (looked at {looked}; set GENETHELLO_SHARED_DATA)")
    return path


@pytest.fixture(scope="session")
def full_games() -> Path:
    """The full WTHOR games file, or a skip that names it (see require_full_games)."""
    return require_full_games()
