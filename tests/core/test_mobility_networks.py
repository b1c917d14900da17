"""Staged networks that also weigh the side to move's mobility (kinds
``ARCH-sS-m``, networks.py): the kind's name and file, the searches
against a plain Python negamax over a plain Python value (tuple reads by
the symmetry of tests/ntuple_reference.py plus the mobility entry), the TD
update against the docstring's preconditioned step, and learning in place
against an evaluator built afresh."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import Board
from genethello.core.cli.network_commands import show_lines
from genethello.core.engine.game import Engine, play_game
from genethello.core.engine.search import ALGORITHMS, Searcher, minimax
from genethello.core.evaluation.evaluation import EVAL_LIMIT
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple import MOBILITY_ENTRIES
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.network_family import NETWORKS, NetworkError, NetworkIndividual
from genethello.core.families.network_files import NetworkFileError, network_file_text, parse_network_file
from genethello.core.families.networks import Network
from genethello.core.learning.live import LiveNetwork
from genethello.core.learning.self_play import LEARNED_GRID, MAX_LEARNED_DISCS, Learner, LearningSettings
from genethello.core.learning.td import TupleReader, game_positions, position_value, td_lambda_game
from tests.ntuple_reference import reference_reads
from tests.reference import plain_negamax
from tests.strategies import positions

ARCH = architecture("all-2")
STAGES = 4
#: td.pyx's MOBILITY_STEP: a mobility entry's share of a step, as if read this many times squared
MOBILITY_STEP = 16


def stage_of(player: int, opponent: int) -> int:
    return min((bin(player | opponent).count("1") - 4) * STAGES // 60, STAGES - 1)


def legal_count(player: int, opponent: int, side: str = "black") -> int:
    board = Board.from_bitboards(player, opponent, side)
    return 0 if board.must_pass() or board.is_game_over() else len(board.legal_moves())


def reads(player: int, opponent: int) -> Counter:
    """n_j of every weight the position (``player`` to move) reads: its
    stage's tuple entries, then its stage's mobility entry once."""
    stage = stage_of(player, opponent)
    counts = Counter(stage * ARCH.n_weights + j for j in reference_reads(ARCH, player, opponent))
    moves = min(legal_count(player, opponent), MOBILITY_ENTRIES - 1)
    counts[STAGES * ARCH.n_weights + stage * MOBILITY_ENTRIES + moves] += 1
    return counts


def plain_value(weights: np.ndarray, player: int, opponent: int) -> float:
    return sum(n * weights[j] for j, n in reads(player, opponent).items())


def mobility_network(seed: int, sigma: float = 1.0, mobility_sigma: float = 3.0) -> Network:
    """Random weights on the 1/64-disc grid (so the searches' integers are
    the real weights times 64 exactly), large mobility entries."""
    rng = np.random.default_rng(seed)
    tuples = np.rint(rng.normal(0.0, sigma, STAGES * ARCH.n_weights) * 64) / 64
    entries = np.rint(rng.normal(0.0, mobility_sigma, STAGES * MOBILITY_ENTRIES) * 64) / 64
    return Network(ARCH, np.concatenate([tuples, entries]), STAGES, mobility=True)


def python_negamax(board: Board, network: Network, depth: int) -> int:
    """The side to move's value: a leaf is its plain value (64 units a disc,
    clamped as the searches clamp)."""
    def leaf(position: Board) -> int:
        value = round(plain_value(network.weights, position.player, position.opponent) * 64)
        return max(-EVAL_LIMIT, min(EVAL_LIMIT, value))

    return plain_negamax(board, depth, leaf)


# ----------------------------------------------------------------- the kind

def test_the_kind_is_named_with_m_and_counts_each_stages_mobility_entries():
    kind = NETWORKS.parse_kind("patterns-v2-s30-m")
    assert (kind.name, kind.stages, kind.whole_disc_weight, kind.mobility) == ("patterns-v2-s30-m", 30, 0, True)
    assert kind.n_weights == 30 * (kind.architecture.n_weights + MOBILITY_ENTRIES)
    assert NETWORKS.parse_kind("patterns-v2-s30").n_weights == 30 * kind.architecture.n_weights
    with pytest.raises(NetworkError, match="no whole-disc weight"):
        NETWORKS.parse_kind("all-2-s4-w10-m")
    with pytest.raises(NetworkError, match="not a network architecture"):
        NETWORKS.parse_kind("all-2-m")
    with pytest.raises(ValueError, match="mobility"):
        Network(ARCH, np.zeros(ARCH.n_weights + MOBILITY_ENTRIES), 1, mobility=True)


def test_a_mobility_network_file_says_so_and_reads_back():
    network = mobility_network(1)
    individual = NetworkIndividual(NETWORKS.parse_kind("all-2-s4-m"), 3, network)
    text = network_file_text(individual)
    assert '"mobility": true' in text and str(individual).startswith("all-2-s4-m_3_")
    back = parse_network_file(text, "f.json")
    assert back == individual and np.array_equal(back.network.weights, network.weights)
    with pytest.raises(NetworkFileError, match='"mobility" is 1, not true or false'):
        parse_network_file(text.replace('"mobility": true', '"mobility": 1'), "f.json")
    # without the key the same weights are another kind's count: one line, no traceback
    with pytest.raises(NetworkFileError, match="weights"):
        parse_network_file(text.replace('"mobility": true,\n', ""), "f.json")


def test_network_show_counts_the_mobility_entries():
    lines = show_lines(NetworkIndividual(NETWORKS.parse_kind("all-2-s4-m"), 3, mobility_network(1)))
    assert f"weights: {STAGES * (ARCH.n_weights + MOBILITY_ENTRIES):,} in all" in "\n".join(lines)
    assert f"then {STAGES} stages x {MOBILITY_ENTRIES} mobility entries" in "\n".join(lines)


def test_the_digest_tells_mobility_apart():
    zero = np.zeros(STAGES * ARCH.n_weights)
    plain = Network(ARCH, zero, STAGES)
    with_zero_entries = Network(ARCH, np.concatenate([zero, np.zeros(STAGES * MOBILITY_ENTRIES)]), STAGES,
                                mobility=True)
    assert plain.digest() != with_zero_entries.digest()


# ------------------------------------------------------------- the searches

@settings(max_examples=30, deadline=None, derandomize=True)
@given(board=positions(max_plies=58), seed=st.integers(0, 2**32 - 1), depth=st.integers(1, 3))
def test_search_value_equals_a_plain_negamax_over_tuples_and_mobility(board, seed, depth):
    """Every algorithm, the plain minimax and the root's move values agree
    with the plain negamax, also where a depth-1 node skips leaves whose
    bound (partial value plus the stage's largest mobility entry) cannot
    beat its best."""
    if board.is_game_over():
        return
    network = mobility_network(seed)
    expected = python_negamax(board, network, depth)
    evaluator = NetworkEvaluator(network)
    assert minimax(board, evaluator, depth) == expected
    for algorithm in ALGORITHMS:
        assert Searcher(evaluator, algorithm, tt_bits=10).search(board, depth=depth).value == expected, algorithm
    if not board.must_pass():
        assert max(dict(Searcher(evaluator, tt_bits=10).move_values(board, depth)).values()) == expected


@settings(max_examples=30, deadline=None, derandomize=True)
@given(board=positions(max_plies=58), seed=st.integers(0, 2**32 - 1))
def test_the_evaluators_value_is_minus_the_side_to_moves_plain_value(board, seed):
    """NTupleEvaluator.value and evaluate_move value the position after a
    move for the mover: minus the side to move's value, mobility included;
    position_value (the TD's reader) is the side to move's."""
    if board.is_game_over() or board.must_pass():
        return
    network = mobility_network(seed)
    evaluator = NetworkEvaluator(network)
    reader = TupleReader(ARCH, STAGES, True)
    for move in board.legal_moves():
        child = board.copy()
        child.play(move)
        want = plain_value(network.weights, child.player, child.opponent)
        assert position_value(reader, network.weights, child.player, child.opponent) == pytest.approx(want, abs=1e-9)
        assert evaluator.ntuple.value(child.opponent, child.player) == -round(want * 64)
        assert evaluator.evaluate_move(board, move) == -round(want * 64)


def test_zero_mobility_entries_play_as_the_network_without_them():
    tuples = mobility_network(5).weights[:STAGES * ARCH.n_weights]
    plain = NetworkEvaluator(Network(ARCH, tuples, STAGES))
    zero = NetworkEvaluator(Network(ARCH, np.concatenate([tuples, np.zeros(STAGES * MOBILITY_ENTRIES)]), STAGES,
                                    mobility=True))
    board = Board.from_moves("f5d6c3d3c4f4f6f3e6e7")
    for depth in (1, 2, 3, 4):
        assert Searcher(plain).move_values(board, depth) == Searcher(zero).move_values(board, depth)


# ----------------------------------------------------------------- learning

def expected_update(weights: np.ndarray, moves, alpha: float, lam: float) -> np.ndarray:
    """td.pyx's docstring: the offline λ-return, then each position's
    normalized step with its mobility entry counted MOBILITY_STEP times."""
    positions, black_margin = game_positions(moves)
    T = len(positions)
    v = [plain_value(weights, p, o) for p, o, _ in positions]
    G = [0.0] * T
    G[-1] = black_margin if positions[-1][2] == 0 else -black_margin
    for t in range(T - 2, -1, -1):
        sigma = 1 if positions[t + 1][2] == positions[t][2] else -1
        G[t] = sigma * ((1 - lam) * v[t + 1] + lam * G[t + 1])
    w = np.array(weights, dtype=np.float64)
    for t, (p, o, _) in enumerate(positions):
        counts = reads(p, o)
        mobility = max(counts)                 # the one index past every stage's LUTs
        steps = {j: (MOBILITY_STEP if j == mobility else n) for j, n in counts.items()}
        delta = G[t] - plain_value(w, p, o)
        norm = sum(n * n for j, n in counts.items() if j != mobility) + MOBILITY_STEP
        before = plain_value(w, p, o)
        for j, n in steps.items():
            w[j] += alpha * delta * n / norm
        assert plain_value(w, p, o) - before == pytest.approx(alpha * delta, abs=1e-9)   # NLMS: exactly α δ
    return w


@pytest.mark.parametrize("lam", [0.0, 0.5, 1.0])
def test_td_update_with_mobility_is_the_specified_update(lam):
    network = mobility_network(2, sigma=0.3, mobility_sigma=0.5)
    engine = Engine(NetworkEvaluator(network), depth=2)
    moves = play_game(engine, engine, epsilon=0.2, seed=4).moves
    want = expected_update(network.weights, moves, 0.4, lam)
    got = np.array(network.weights)
    td_lambda_game(TupleReader(ARCH, STAGES, True), got, moves, 0.4, lam)
    assert np.allclose(got, want, rtol=1e-12, atol=1e-12)
    tail = slice(STAGES * ARCH.n_weights, None)
    assert not np.array_equal(got[tail], network.weights[tail])     # the mobility entries learned


def test_a_reader_refuses_weights_without_the_mobility_entries():
    with pytest.raises(ValueError, match="and mobility"):
        position_value(TupleReader(ARCH, STAGES, True), np.zeros(STAGES * ARCH.n_weights), 0x810000000, 0x1008000000)


def test_learning_in_place_keeps_the_live_evaluator_equal_to_a_fresh_one():
    """After slices the live evaluator's LUTs, its mobility entries and their
    bounds are those of an evaluator built afresh: searches give the same
    values, moves and node counts (the bound decides which leaves are skipped)."""
    learner = Learner(mobility_network(3, sigma=0.3, mobility_sigma=0.5))
    settings_ = LearningSettings(alpha=0.5, lam=0.5, epsilon=0.2, depth=2, games=6, batch_games=2,
                                 exact_empties=6, opening_plies=2)
    learner.slice(settings_, 1)
    learner.slice(settings_, 2)
    fresh = LiveNetwork(learner.network(), MAX_LEARNED_DISCS, LEARNED_GRID)
    for live, built in zip(learner.live.luts(), fresh.luts()):
        assert (live is None and built is None) or np.array_equal(live, built)
    network = learner.network()
    live_eval, fresh_eval = NetworkEvaluator(network, ntuple=learner.live.evaluator), NetworkEvaluator(network)
    for moves in ("f5d6c3d3c4f4f6f3e6e7", "f5f6e6f4e3c5c4d3", "c4c3d3c5b4"):
        board = Board.from_moves(moves)
        a, b = Searcher(live_eval), Searcher(fresh_eval)
        ra, rb = a.search(board, depth=4), b.search(board, depth=4)
        assert (ra.value, ra.move, ra.nodes) == (rb.value, rb.move, rb.nodes)
        for move in board.legal_moves():
            assert live_eval.evaluate_move(board, move) == fresh_eval.evaluate_move(board, move)
    assert np.allclose(network.weights[STAGES * ARCH.n_weights:] * LEARNED_GRID,
                       np.rint(network.weights[STAGES * ARCH.n_weights:] * LEARNED_GRID))
