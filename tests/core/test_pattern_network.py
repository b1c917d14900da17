"""The patterns-v2 table as a network (issue 29, part 1): the shipped
``patterns-v2-net`` is a staged network of the ``patterns-v2``
architecture that values every position as ``p_1_10`` does (ten times the
table's whole discs), so it plays move for move as p_1_10 at depth 4."""

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import PASS, Board
from genethello.core.engine.game import Engine, play_game
from genethello.core.engine.search import Searcher
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.individual_names import resolve_individual, shipped_network
from genethello.core.families.network_family import NetworkIndividual
from genethello.core.families.networks import pattern_table_network
from genethello.core.families.registry import evaluator_of
from genethello.core.play.openings import distinct_openings
from tests.strategies import positions

P_1_10 = "p_1_10"
OPPONENT = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"


@functools.cache
def shipped() -> NetworkIndividual:
    found = shipped_network("patterns-v2-net")
    assert found is not None
    return found


@functools.cache
def evaluators() -> tuple[NetworkEvaluator, object]:
    return NetworkEvaluator(shipped().network, shipped()), evaluator_of(Chromosome.parse(P_1_10))


def test_the_architecture_is_the_tables_shapes():
    arch = architecture("patterns-v2")
    assert len(arch.tuples) == 11 and arch.n_weights == 167_265        # patterns.pxd V2_STAGE_SIZE
    assert shipped().network.evaluator().n_tuples == 46                # V2_N_INSTANCES
    assert str(shipped()).startswith("patterns-v2-s30-w10_0_")


def test_the_shipped_network_is_the_table_converted():
    assert shipped().network.digest() == pattern_table_network().digest()
    assert resolve_individual("patterns-v2-net") == shipped()


@settings(max_examples=60)
@given(board=positions(), seed=st.integers(0, 2**32 - 1))
def test_every_move_is_valued_as_p_1_10_values_it(board, seed):
    network, p = evaluators()
    moves = board.legal_moves()
    if not moves:
        return
    move = moves[seed % len(moves)]
    assert network.evaluate_move(board, move) == p.evaluate_move(board, move)


@pytest.mark.parametrize("opponent", [P_1_10, OPPONENT])
def test_it_plays_move_for_move_as_p_1_10_at_depth_4(opponent):
    """Whole games at depth 4 (exact at 8 empties) from distinct openings:
    the network and p_1_10, each against the same opponent, play the same
    games, searching the same number of nodes."""
    network, p = evaluators()
    other = evaluator_of(Chromosome.parse(opponent))
    for i, opening in enumerate(distinct_openings(3, 6, "pattern-network")):
        games = []
        for player in (network, p):
            me, them = Engine(player, depth=4, exact_empties=8), Engine(other, depth=4, exact_empties=8)
            black, white = (me, them) if i % 2 == 0 else (them, me)
            result = play_game(black, white, opening)
            games.append((result.moves, result.score, result.nodes))
        assert games[0] == games[1]


def test_searches_find_the_same_values_and_moves_as_p_1_10():
    network, p = evaluators()
    rng = np.random.default_rng(5)
    board = Board()
    a, b = Searcher(network), Searcher(p)
    for _ in range(50):
        if board.is_game_over():
            break
        if board.legal_moves():
            for depth in (1, 2, 4):
                one, two = a.search(board, depth=depth), b.search(board, depth=depth)
                assert (one.move, one.value, one.nodes) == (two.move, two.value, two.nodes)
            board.play(int(rng.choice(board.legal_moves())))
        else:
            board.play(PASS)
