"""Incremental Elo: the textbook numbers, zero-sum, symmetry, order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.cluster.fitness.elo import EloTable, apply_in_order, expected_score


def test_expected_score():
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert expected_score(1500, 1900) == pytest.approx(1 / 11)


def test_known_example_1500_vs_1500_k32():
    table = EloTable(start_rating=1500, k=32)
    assert table.update("a", "b", 1) == (1516.0, 1484.0)
    assert table.ratings() == {"a": 1516.0, "b": 1484.0}

    draw = EloTable(1500, 32)
    assert draw.update("a", "b", 0.5) == (1500.0, 1500.0)

    loss = EloTable(1500, 32)
    assert loss.update("a", "b", 0) == (1484.0, 1516.0)


def test_draw_moves_ratings_towards_each_other():
    table = EloTable(k=32)
    table.add("strong", 1900)
    table.add("weak", 1500)
    strong, weak = table.update("strong", "weak", 0.5)
    assert strong == pytest.approx(1900 - 32 * (10 / 11 - 0.5))
    assert weak == pytest.approx(1500 + 32 * (10 / 11 - 0.5))


@settings(derandomize=True, max_examples=100)
@given(
    ra=st.floats(0, 3000),
    rb=st.floats(0, 3000),
    score=st.sampled_from([0, 0.5, 1]),
    k=st.floats(1, 64),
)
def test_update_is_zero_sum_and_symmetric_in_colour(ra, rb, score, k):
    table = EloTable(k=k)
    table.add("x", ra)
    table.add("y", rb)
    x, y = table.update("x", "y", score)
    assert x + y == pytest.approx(ra + rb, abs=1e-9)
    assert (x - ra) == pytest.approx(-(y - rb), abs=1e-9)

    # The same game seen with colours swapped gives the same new ratings.
    swapped = EloTable(k=k)
    swapped.add("x", ra)
    swapped.add("y", rb)
    y2, x2 = swapped.update("y", "x", 1 - score)
    assert x2 == pytest.approx(x, abs=1e-9)
    assert y2 == pytest.approx(y, abs=1e-9)
    assert abs(x - ra) <= k


def test_unknown_players_join_at_the_start_rating():
    table = EloTable(start_rating=1200, k=16)
    table.update(1, 2, 1)
    assert table.rating(1) == 1208 and table.rating(2) == 1192
    assert 1 in table and 3 not in table and len(table) == 2
    with pytest.raises(KeyError, match="3"):
        table.rating(3)


def test_add_refuses_a_known_player():
    table = EloTable()
    table.add("p")
    assert table.rating("p") == 1500.0
    with pytest.raises(ValueError, match="already in the table"):
        table.add("p", 1800)


@pytest.mark.parametrize("score", [2, -1, 0.25, "1", None, float("nan"), True])
def test_update_rejects_bad_scores(score):
    table = EloTable()
    with pytest.raises(ValueError, match="score_black"):
        table.update("a", "b", score)
    assert len(table) == 0


def test_bad_arguments():
    with pytest.raises(ValueError, match="k=0"):
        EloTable(k=0)
    with pytest.raises(ValueError, match="itself"):
        EloTable().update("a", "a", 1)


def random_results(seed: int, games: int = 300):
    rng = np.random.default_rng(seed)
    players = [f"p{i}" for i in range(8)]
    results = []
    for _ in range(games):
        black, white = rng.choice(len(players), size=2, replace=False)
        results.append((players[black], players[white], float(rng.choice([0.0, 0.5, 1.0]))))
    return results


def test_applying_the_same_canonical_order_twice_gives_identical_floats():
    results = random_results(1)
    first = apply_in_order(EloTable(k=24), results).ratings()
    second = apply_in_order(EloTable(k=24), list(results)).ratings()
    assert first == second  # exact float equality, not approx


def test_ratings_depend_on_order_which_is_why_results_are_sorted_first():
    results = random_results(2)
    canonical = apply_in_order(EloTable(), results).ratings()
    shuffled = list(results)
    np.random.default_rng(0).shuffle(shuffled)
    assert apply_in_order(EloTable(), shuffled).ratings() != canonical
    # Sorting completion order back into schedule order restores the ratings.
    order = {id(r): i for i, r in enumerate(results)}
    restored = sorted(shuffled, key=lambda r: order[id(r)])
    assert apply_in_order(EloTable(), restored).ratings() == canonical


def test_apply_in_order_checks_everything_before_applying():
    table = EloTable()
    with pytest.raises(ValueError, match="result 1"):
        apply_in_order(table, [("a", "b", 1), ("a", "b", 3)])
    assert len(table) == 0


def test_ratings_is_a_copy():
    table = EloTable()
    table.update("a", "b", 1)
    snapshot = table.ratings()
    snapshot["a"] = 0.0
    assert table.rating("a") == 1516.0
