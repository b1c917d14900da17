"""The test data the repository carries (tests/data): every file is described
in its README, the games slice is what the README says it is, and the
optional lookup of the full games file finds it only where it is."""

from __future__ import annotations

import gzip
import itertools
import re
from pathlib import Path

import pytest

from genethello.core import pattern_learning as pl
from tests.conftest import (
    FULL_GAMES_NAME,
    GAMES_SLICE,
    TEST_DATA,
    full_games_file,
    full_games_places,
    require_full_games,
)

SLICE_LINES = 2000


def test_data_dir_is_inside_the_repository(data_dir):
    assert data_dir == TEST_DATA
    assert (data_dir / "perft.txt").is_file() and GAMES_SLICE.is_file()


def test_every_data_file_is_named_in_the_readme():
    readme = (TEST_DATA / "README.md").read_text()
    files = [p for p in TEST_DATA.rglob("*") if p.is_file() and p.name != "README.md"]
    assert len(files) > 15
    for path in files:
        # Named in full, or by its folder and a brace/star pattern (ffo/fforum-{1-19,...}.obf).
        relative = path.relative_to(TEST_DATA).as_posix()
        assert relative in readme or f"{path.parent.relative_to(TEST_DATA).as_posix()}/" in readme, relative


def test_games_slice_keeps_the_format_and_both_holdout_parts(games_slice):
    lines = gzip.decompress(games_slice.read_bytes()).decode("ascii").split("\n")
    assert lines[-1] == "" and len(lines) - 1 == SLICE_LINES
    games = pl.read_games(games_slice)
    assert games.games == SLICE_LINES and games.skipped == 0
    assert games.slice("validation").games == SLICE_LINES // pl.HOLDOUT
    assert games.slice("training").games == SLICE_LINES - SLICE_LINES // pl.HOLDOUT


def test_games_slice_is_the_start_of_the_full_file(games_slice, full_games):
    with gzip.open(full_games, "rt") as f:
        head = list(itertools.islice(f, SLICE_LINES))
    with gzip.open(games_slice, "rt") as f:
        assert f.read() == "".join(head)


def test_full_games_lookup_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("GENETHELLO_SHARED_DATA", str(tmp_path))
    expected = tmp_path / "games" / FULL_GAMES_NAME
    assert full_games_places() == [expected]
    assert full_games_file() is None
    expected.parent.mkdir()
    expected.write_bytes(b"")
    assert full_games_file() == expected


def test_full_games_lookup_without_the_environment_looks_beside_the_checkout(monkeypatch):
    monkeypatch.delenv("GENETHELLO_SHARED_DATA", raising=False)
    repo = Path(__file__).resolve().parents[1]
    assert full_games_places() == [repo / "shared" / "data" / "games" / FULL_GAMES_NAME,
                                   repo.parent / "shared" / "data" / "games" / FULL_GAMES_NAME]


def test_a_missing_full_file_skips_naming_it(tmp_path, monkeypatch):
    monkeypatch.setenv("GENETHELLO_SHARED_DATA", str(tmp_path))
    expected = f"{re.escape(FULL_GAMES_NAME)} not found .*{re.escape(str(tmp_path))}"
    with pytest.raises(pytest.skip.Exception, match=expected):
        require_full_games()
