"""Opening sets: distinct positions up to the board's symmetries, drawn
without replacement, the same on every machine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core.engine.board import Board
from genethello.core.engine.game import random_opening
from genethello.core.evaluation.ntuple_shapes import transform
from genethello.core.play.openings import (
    DEFAULT_SET,
    BadOpeningSetError,
    OpeningSet,
    TooFewOpeningsError,
    canonical_key,
    distinct_openings,
    opening_set,
)


def image(board: Board, symmetry: int) -> Board:
    """``board`` under one of the 8 symmetries, square by square (the
    n-tuple networks' definition, independent of the bit tricks)."""
    def moved(bits: int) -> int:
        return sum(1 << transform(sq, symmetry) for sq in range(64) if bits >> sq & 1)
    return Board.from_bitboards(moved(board.black), moved(board.white), board.side_to_move)


@pytest.mark.parametrize("plies, size", [(0, 1), (1, 1), (2, 3), (3, 14), (4, 60), (5, 322), (6, 1773)])
def test_set_sizes(plies, size):
    # 1 ply: the four first moves are mirror images; 2 plies: the
    # perpendicular, diagonal and parallel openings.
    assert OpeningSet(plies).size == size


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 30), st.integers(0, 2**32 - 1))
def test_the_key_is_the_same_for_every_mirror_image_and_tells_other_positions_apart(plies, seed):
    board = Board.from_moves(random_opening(plies, seed))
    key = canonical_key(board)
    assert {canonical_key(image(board, s)) for s in range(8)} == {key}
    other = Board.from_moves(random_opening(plies, seed + 1))
    images = {(b.black, b.white, b.side_to_move) for b in (image(other, s) for s in range(8))}
    assert (canonical_key(other) == key) == ((board.black, board.white, board.side_to_move) in images)


@pytest.mark.parametrize("plies", [4, 6, 9])
def test_a_series_never_repeats_a_position_or_a_mirror_image(plies):
    openings = distinct_openings(50, plies, "series")
    assert all(len(o) == plies for o in openings)
    assert len({canonical_key(Board.from_moves(o)) for o in openings}) == 50


def test_a_series_depends_on_its_seed_only_and_grows_by_its_end():
    openings = distinct_openings(300, 6, 7)
    assert distinct_openings(300, 6, 7) == openings
    assert distinct_openings(10, 6, 7) == openings[:10]
    assert distinct_openings(300, 6, 8) != openings
    # The whole set is one series' draw of every position, each once.
    whole = distinct_openings(60, 4, 1)
    assert sorted(canonical_key(Board.from_moves(o)) for o in whole) == sorted(
        canonical_key(Board.from_moves(o)) for o in distinct_openings(60, 4, 2))


def test_the_first_openings_of_a_known_series_stay_the_same():
    # Pinned: a run's stored games depend on these (Python's Mersenne Twister
    # and the set's order, both the same on every machine).
    assert distinct_openings(2, 6, 0) == [[19, 18, 17, 11, 37, 46], [19, 20, 37, 44, 21, 26]]


@pytest.mark.parametrize("count, plies", [(2, 0), (2, 1), (4, 2), (61, 4)])
def test_more_openings_than_a_set_holds_are_refused(count, plies):
    with pytest.raises(TooFewOpeningsError, match=f"{count} openings were asked of distinct-{plies}, which holds"):
        distinct_openings(count, plies, 0)


def test_set_names():
    assert opening_set(DEFAULT_SET) == OpeningSet(6)
    assert opening_set("distinct-0").plies == 0
    for bad in ("distinct-", "distinct-x", "distinct--1", "distinct-21", "random-6", "", "6"):
        with pytest.raises(BadOpeningSetError, match=f"unknown opening set {bad!r}: use distinct-N"):
            opening_set(bad)
