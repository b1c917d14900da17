"""Shared fixtures: where the real data lives.

The project's real data (perft counts, FFO positions, expert games, format
samples) lies in ``shared/data`` beside the checkout; GENETHELLO_SHARED_DATA
overrides the location.
"""

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests are derandomized in CI (and reproducible everywhere):
# the same examples on every run.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", derandomize=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path:
    env = os.environ.get("GENETHELLO_SHARED_DATA")
    if env:
        return Path(env)
    for candidate in (REPO_ROOT / "shared" / "data", REPO_ROOT.parent / "shared" / "data"):
        if candidate.is_dir():
            return candidate
    raise RuntimeError("shared/data not found beside the checkout; set GENETHELLO_SHARED_DATA")


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return shared_data_dir()
