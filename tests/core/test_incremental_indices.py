"""Incremental tuple indices inside the search (issue 29, part 1): every
leaf a search values through its NTupleTracker equals the full evaluation,
at every node of random games, through moves made, unmade and passed; and
a search with them finds what a search without them finds."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import PASS, Board
from genethello.core.engine.game import Engine, play_game
from genethello.core.engine.search import ALGORITHMS, Searcher
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple import NTupleTracker
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.networks import Network
from genethello.core.families.registry import evaluator_of
from genethello.core.play.openings import distinct_openings

NETWORKS = (("all-2", 1), ("all-4+2x2", 1), ("all-2", 8), ("all-3", 30))


def network(name: str, stages: int, seed: int) -> Network:
    arch = architecture(name)
    sigma = 1.0 if stages == 1 else 0.5
    return Network.random(arch, np.random.default_rng(seed), sigma, stages)


def random_game(seed: int, length: int = 70) -> list[Board]:
    """The positions of a random game (passes included), from the start."""
    rng = np.random.default_rng(seed)
    board, positions = Board(), []
    while not board.is_game_over() and len(positions) < length:
        positions.append(board.copy())
        moves = board.legal_moves()
        board.play(PASS if not moves else int(rng.choice(moves)))
    positions.append(board.copy())
    return positions


@settings(max_examples=12)
@given(seed=st.integers(0, 2**32 - 1), which=st.sampled_from(NETWORKS), depth=st.integers(1, 4))
def test_the_search_leaves_equal_the_full_evaluation_at_every_node_of_random_games(seed, which, depth):
    """Check mode: the tracker computes every value it gives the search in
    full too and counts disagreements. A search at every position of a
    random game (so the tracker carries its indices from one search to the
    next, across passes and both colours) must see none."""
    searcher = Searcher(NetworkEvaluator(network(*which, seed)))
    tracker = searcher.network_tracker
    assert isinstance(tracker, NTupleTracker)
    tracker.checking = True
    for board in random_game(seed):
        if not board.is_game_over():
            searcher.search(board, depth=depth)
    assert tracker.checked > 100 and tracker.mismatches == 0


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), which=st.sampled_from(NETWORKS))
def test_indices_follow_moves_made_unmade_and_passed(seed, which):
    """A random walk forward and back (moves made, unmade, passes) through
    one tracker: each value equals the full one, and the indices equal
    those a fresh tracker reaches on the same position (whatever the path)."""
    typed = network(*which, seed).evaluator()
    tracker = NTupleTracker(typed)
    rng = np.random.default_rng(seed)
    board, depth = Board(), 0
    for _ in range(150):
        back = depth > 0 and (board.is_game_over() or rng.random() < 0.35)
        if back:
            board.undo()
            depth -= 1
        else:
            moves = board.legal_moves()
            board.play(PASS if not moves else int(rng.choice(moves)))
            depth += 1
        for mine, theirs in ((board.player, board.opponent), (board.opponent, board.player)):
            assert tracker.value(typed, mine, theirs) == typed.value(mine, theirs)
        fresh = NTupleTracker(typed)
        fresh.value(typed, *tracker.indices()[:2])
        assert fresh.indices() == tracker.indices()


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_a_search_finds_the_same_with_and_without_incremental_indices(algorithm):
    net = network("all-2", 8, 11)
    tracked, full = Searcher(NetworkEvaluator(net), algorithm), Searcher(NetworkEvaluator(net), algorithm)
    full.track_network(False)
    assert full.network_tracker is None
    for board in random_game(11, 50)[::3]:
        if board.is_game_over():
            continue
        for depth in (1, 3, 5):
            a, b = tracked.search(board, depth=depth), full.search(board, depth=depth)
            assert (a.move, a.value, a.nodes) == (b.move, b.value, b.nodes)


def test_whole_games_are_the_same_with_and_without_incremental_indices():
    one, two = network("all-2", 1, 1), network("all-4+2x2", 1, 2)
    opening = distinct_openings(1, 6, "incremental")[0]
    games = []
    for on in (True, False):
        a = Engine(NetworkEvaluator(one), depth=4, exact_empties=8)
        b = Engine(NetworkEvaluator(two), depth=4, exact_empties=8)
        a.searcher.track_network(on)
        b.searcher.track_network(on)
        result = play_game(a, b, opening)
        games.append((result.moves, result.score, result.nodes))
    assert games[0] == games[1]


def test_the_tracker_follows_the_evaluator_the_searcher_uses():
    small, large = network("all-2", 1, 3), network("all-4+2x2", 1, 3)
    searcher = Searcher(NetworkEvaluator(small))
    first = searcher.network_tracker
    searcher.use_evaluator(NetworkEvaluator(network("all-2", 8, 4)))     # the same tuples: the same tracker
    assert searcher.network_tracker is first
    searcher.use_evaluator(NetworkEvaluator(large))                      # other tuples: a tracker of their own
    tracker = searcher.network_tracker
    assert tracker is not first and tracker.tracks(large.evaluator()) and not tracker.tracks(small.evaluator())
    board = Board.from_moves("f5d6c3d3c4f4")
    searcher.network_tracker.checking = True
    searcher.search(board, depth=3)
    assert searcher.network_tracker.checked > 0 and searcher.network_tracker.mismatches == 0
    searcher.use_evaluator(evaluator_of(Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3")))
    assert searcher.network_tracker is None                             # other kinds need none
