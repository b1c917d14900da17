"""Every seed of a run comes from derive_seed: each legacy purpose gives the
value of the recipe it replaced (written out here as it was), the function
is pure, and distinct purposes give distinct seeds."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from genethello.core.play.seeds import PURPOSES, derive_seed, series_name

ROOTS = (0, 1, 7, 12345, 2**32 - 1, 2**32, 2**40 + 3, 2**63 - 1)
SMALL = (0, 1, 2, 9, 250)


def _uint64(sequence: np.random.SeedSequence, words: int = 1, index: int = 0) -> int:
    return int(sequence.generate_state(words, np.uint64)[index])


def _stream(rng: np.random.Generator) -> list[int]:
    return [int(x) for x in rng.integers(0, 2**62, 5)]


@pytest.mark.parametrize("root", ROOTS)
def test_spawn_key_purposes_are_the_old_recipes(root):
    for g, b, w in [(0, 0, 1), (3, 2, 0), (17, 5, 9), (0, 1000, 2003)]:
        old = _uint64(np.random.SeedSequence(entropy=root, spawn_key=(g, b, w)))      # pairing.opening_seed
        assert derive_seed(root, "game-opening", g, b, w) == old
    assert derive_seed(root, "hall") == _uint64(np.random.SeedSequence(entropy=root, spawn_key=(0x4841_4C4C,)))
    assert derive_seed(root, "league") == _uint64(np.random.SeedSequence(entropy=root,
                                                                         spawn_key=(0x4C45_4147,))) >> 1


@pytest.mark.parametrize("root", ROOTS)
def test_entropy_list_purposes_are_the_old_recipes(root):
    # network_run._seed(run_seed, *key) = SeedSequence([run_seed, *key]); self_play._game_seeds.
    assert derive_seed(root, "network-league") == _uint64(np.random.SeedSequence([root, 0x4E4C_4541]))
    for g in SMALL:
        assert derive_seed(root, "network-hall", g) == _uint64(np.random.SeedSequence([root, 0x4E48_414C, g]))
        stream, opening = np.random.SeedSequence([root, g]).generate_state(2, np.uint64)
        assert (derive_seed(root, "self-play-stream", g), derive_seed(root, "self-play-opening", g)) == (
            int(stream), int(opening))


@pytest.mark.parametrize("root", ROOTS)
def test_generator_purposes_draw_the_old_streams(root):
    for g in SMALL:
        # breeding.population.generation_rng, pattern_learning's sample
        old = np.random.default_rng(np.random.SeedSequence([root, g]))
        assert _stream(np.random.default_rng(derive_seed(root, "generation", g))) == _stream(old)
        assert _stream(np.random.default_rng(derive_seed(root, "score-error-sample", g))) == _stream(
            np.random.default_rng([root, g]))
        for kind in (0, 1, 2):                                   # run.labelling._pick
            assert _stream(np.random.default_rng(derive_seed(root, "label-positions", kind, g))) == _stream(
                np.random.default_rng([root, kind, g]))


def _blake(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


@pytest.mark.parametrize("root", ROOTS)
def test_blake2b_purposes_are_the_old_recipes(root):
    for g in SMALL:
        for kind in ("cmaes-1ply", "pbt-td"):
            for what in ("games", "starts"):
                assert derive_seed(root, "network-fitness", g, kind, what) == _blake(
                    f"genethello-network-fitness:{root}:{g}:{kind}:{what}")
        assert derive_seed(root, "league-game", g) == _blake(f"genethello-league:{root}:{g}") >> 1
    assert derive_seed(root, "league-fast-1") == _blake(f"genethello-league-fast-1:{root}")


def _draws(seed: object) -> list[float]:
    rng = random.Random(seed)  # type: ignore[arg-type]
    return [rng.random() for _ in range(5)]


@pytest.mark.parametrize("root", [*ROOTS, "hall/5/3/2", "compare/9", "yardstick/1/1000"])
def test_python_text_purposes_draw_the_old_streams(root):
    assert _draws(derive_seed(root, "openings")) == _draws(f"openings/{root}")
    for i in SMALL:
        assert _draws(derive_seed(root, "sampled-opening", i)) == _draws(f"{root}/{i}")
        assert _draws(derive_seed(root, "sampled-opening", i, 3)) == _draws(f"{root}/{i}/3")
        assert _draws(derive_seed(root, "selfplay", i)) == _draws(f"selfplay:{root}:{i}")


def test_series_names_are_the_old_texts():
    assert series_name(5, "hall", 3, 2) == "hall/5/3/2"
    assert series_name(9, "compare") == "compare/9"
    assert series_name(11, "network-fitness", 4, "cmaes-1ply") == "network-fitness/11/4/cmaes-1ply"
    assert series_name(1, "yardstick", 1003) == "yardstick/1/1003"


def _keys(purpose: str) -> tuple[int | str, ...]:
    if purpose == "network-fitness":
        return (1, "k", "games")
    if purpose in ("game-opening",):
        return (1, 2, 3)
    if purpose in ("hall", "league", "network-league", "league-fast-1", "openings"):
        return ()
    if purpose == "label-positions":
        return (1, 2)
    return (1,)


def test_derive_seed_is_pure_and_purposes_are_distinct():
    first = {purpose: derive_seed(42, purpose, *_keys(purpose)) for purpose in PURPOSES}
    again = {purpose: derive_seed(42, purpose, *_keys(purpose)) for purpose in reversed(list(PURPOSES))}
    assert first == again
    # Two legacy purposes share a recipe (default_rng([seed, n]) in both
    # places): the breeder's stream and the score-error sample, whose seed is
    # a command's --seed, never a run's. Every other purpose is apart.
    assert first["generation"] == first["score-error-sample"]
    del first["score-error-sample"]
    assert len(set(first.values())) == len(first)
    assert derive_seed(42, "hall") != derive_seed(43, "hall")
    assert derive_seed(42, "game-opening", 1, 2, 3) != derive_seed(42, "game-opening", 1, 3, 2)


@pytest.mark.parametrize("args, words", [((1, "no-such"), "no seed purpose 'no-such'"),
                                         ((-1, "hall"), "root=-1"), ((1, "game-opening", 1, "x", 2), "key 1")])
def test_bad_purposes_and_keys_are_named(args, words):
    with pytest.raises(ValueError, match=words):
        derive_seed(*args)
