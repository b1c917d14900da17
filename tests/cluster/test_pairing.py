"""Round-robin schedule, batching and per-game opening seeds."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.cluster.config import ConfigError
from genethello.cluster.fitness.pairing import (
    MAX_GAMES_PER_GENERATION,
    RoundRobin,
    batch,
    opening_seed,
    round_robin_games,
    round_robin_pairs,
)
from genethello.cluster.run.run_check import config_from_mapping, max_players


@settings(derandomize=True, max_examples=40)
@given(st.lists(st.integers(), unique=True, max_size=30))
def test_round_robin_has_every_ordered_pair_once(players):
    pairs = round_robin_pairs(players)
    P = len(players)
    assert len(pairs) == P * (P - 1)
    assert len(set(pairs)) == len(pairs)
    assert all(black != white for black, white in pairs)
    assert set(pairs) == {(i, j) for i in players for j in players if i != j}


def test_round_robin_canonical_order():
    assert round_robin_pairs(["x", "y", "z"]) == [
        ("x", "y"), ("x", "z"), ("y", "x"), ("y", "z"), ("z", "x"), ("z", "y"),
    ]
    players = list(range(100, 107))
    pairs = round_robin_pairs(players)
    P = len(players)
    for b in range(P):
        for w in range(P):
            if b != w:
                assert pairs[b * (P - 1) + w - (w > b)] == (players[b], players[w])


def test_round_robin_edge_cases():
    assert round_robin_pairs([]) == []
    assert round_robin_pairs(["solo"]) == []
    with pytest.raises(ValueError, match="duplicates"):
        round_robin_pairs([1, 2, 1])


@settings(derandomize=True, max_examples=60)
@given(st.lists(st.integers(), max_size=50), st.integers(1, 20))
def test_batch_splits_in_order(items, size):
    chunks = batch(items, size)
    assert [x for chunk in chunks for x in chunk] == items
    assert all(len(chunk) == size for chunk in chunks[:-1])
    assert all(1 <= len(chunk) <= size for chunk in chunks)
    assert len(chunks) == -(-len(items) // size)


@pytest.mark.parametrize("size", [0, -3, 1.5, True])
def test_batch_rejects_bad_sizes(size):
    with pytest.raises(ValueError, match="batch size"):
        batch([1, 2, 3], size)


def test_opening_seed_is_pinned():
    # Computed once from SeedSequence(entropy=2024, spawn_key=(7, 3, 5));
    # a change here means every stored game's opening would change.
    assert opening_seed(2024, 7, 3, 5) == 8133286360933215077


def test_opening_seed_matches_its_definition():
    expected = np.random.SeedSequence(entropy=99, spawn_key=(1, 2, 3)).generate_state(1, dtype=np.uint64)[0]
    assert opening_seed(99, 1, 2, 3) == int(expected)
    assert type(opening_seed(99, 1, 2, 3)) is int


def test_opening_seed_differs_across_run_generation_and_pair():
    seeds = {
        opening_seed(run, generation, b, w)
        for run in (0, 1)
        for generation in range(4)
        for b in range(6)
        for w in range(6)
        if b != w
    }
    assert len(seeds) == 2 * 4 * 30
    assert all(0 <= s < 2**64 for s in seeds)
    # Colour matters: (b, w) and (w, b) are different games.
    assert opening_seed(5, 1, 0, 1) != opening_seed(5, 1, 1, 0)


def test_opening_seed_is_stable_across_calls_and_argument_types():
    assert opening_seed(3, 2, 1, 0) == opening_seed(3, 2, 1, 0) == opening_seed(np.int64(3), 2, np.int32(1), 0)


@pytest.mark.parametrize(
    ("args", "name"),
    [((-1, 0, 0, 1), "run_seed"), ((0, -2, 0, 1), "generation"), ((0, 0, 1.0, 1), "black_index"),
     ((0, 0, 0, None), "white_index")],
)
def test_opening_seed_rejects_bad_arguments(args, name):
    with pytest.raises(ValueError, match=name):
        opening_seed(*args)


# --------------------------------------------------------------------------- #
# The lazy schedule of a generation


@settings(derandomize=True, max_examples=40)
@given(st.integers(0, 40))
def test_lazy_round_robin_is_the_canonical_schedule(players):
    lazy = RoundRobin(players)
    eager = round_robin_pairs(list(range(players)))
    assert len(lazy) == len(eager) == round_robin_games(players)
    assert list(lazy) == eager
    assert [lazy[i] for i in range(len(lazy))] == eager
    assert lazy[:] == eager
    for index, (black, white) in enumerate(eager):
        assert lazy.pair_index(black, white) == index
        assert (black, white) in lazy
    if eager:
        assert lazy[-1] == eager[-1]


def test_lazy_round_robin_of_a_huge_population_builds_nothing():
    players = 100_000
    lazy = RoundRobin(players)
    assert len(lazy) == players * (players - 1) == 9_999_900_000
    assert lazy[0] == (0, 1) and lazy[players - 2] == (0, players - 1) and lazy[players - 1] == (1, 0)
    assert lazy[len(lazy) - 1] == (players - 1, players - 2)
    assert lazy.pair_index(54_321, 12_345) == 54_321 * (players - 1) + 12_345
    assert (5, 5) not in lazy and (0, players) not in lazy and "ab" not in lazy
    first = iter(lazy)
    assert [next(first) for _ in range(3)] == [(0, 1), (0, 2), (0, 3)]


def test_lazy_round_robin_refuses_bad_indices():
    lazy = RoundRobin(4)
    with pytest.raises(IndexError, match="outside 0..11"):
        lazy[12]
    with pytest.raises(IndexError):
        lazy[-13]
    with pytest.raises(TypeError):
        lazy[1.0]
    with pytest.raises(ValueError, match="not a game"):
        lazy.pair_index(2, 2)
    with pytest.raises(ValueError, match="players"):
        RoundRobin(-1)


@pytest.mark.parametrize("size, allowed", [(3162, True), (3163, False), (100_000, False)])
def test_a_generation_of_more_than_ten_million_games_is_refused_at_config_load(size, allowed):
    assert max_players(MAX_GAMES_PER_GENERATION) == 3162
    if allowed:
        assert config_from_mapping({"population": {"size": size}}).population_size == size
        return
    with pytest.raises(ConfigError, match=rf"^population.size: {size} players would play "
                                          rf"{size * (size - 1):,} games a generation, more than the "
                                          r"10,000,000 allowed \(at most 3162 players\)$"):
        config_from_mapping({"population": {"size": size}})


def test_huge_population_is_one_line_from_the_command(tmp_path):
    config = tmp_path / "huge.toml"
    config.write_text("[population]\nsize = 100000\n")
    proc = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "evolve", "--config", str(config),
                           "--db", str(tmp_path / "huge.db")], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path, env={**os.environ, "HOME": str(tmp_path)})
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "population.size: 100000 players would play 9,999,900,000 games" in lines[0], proc.stderr
    assert not (tmp_path / "huge.db").exists()
