"""Shared fixtures: where the real data lives.

The project's real data (perft counts, FFO positions, expert games, format
samples) lies in ``shared/data`` beside the checkout; GENETHELLO_SHARED_DATA
overrides the location.
"""

import os
from pathlib import Path

import pytest

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
