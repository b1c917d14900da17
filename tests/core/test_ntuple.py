"""n-tuple networks: the typed value against a plain Python sum over the
tuples, symmetry, the architectures' weight counts, quantization, and the
fast batch game loop against a slow Python game loop written here."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import PASS, Board
from genethello.core.evaluation.evaluation import EVAL_LIMIT
from genethello.core.evaluation.ntuple import NTupleEvaluator
from genethello.core.evaluation.ntuple_shapes import (
    ARCHITECTURES,
    Architecture,
    BadTuplesError,
    architecture,
    parse_tuples_text,
    read_tuples_file,
    straight_tuples,
)
from genethello.core.families.networks import Network, bound_norm, normalized, quantize, scale, weights_digest
from genethello.core.play.league import wpc_hundredths
from genethello.core.play.ntuple_games import member_points, play_games, points_from_margins
from tests.ntuple_reference import SYMMETRIES, reference_value, transform_board
from tests.strategies import positions

MASK = (1 << 64) - 1

def random_int_weights(arch: Architecture, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(-40, 41, arch.n_weights).astype(np.int32)


# ------------------------------------------------------------ architectures

def test_all_2_has_jaskowskis_288_weights():
    arch = architecture("all-2")
    assert len(straight_tuples(2)) == 210            # 56 horizontal, 56 vertical, 98 diagonal pairs
    assert len(arch.tuples) == 32 and arch.n_weights == 288
    # every adjacent pair is read by exactly one class
    covered = {frozenset(sq) for _, sq in arch.expanded}
    assert covered == {frozenset(t) for t in straight_tuples(2)}


def test_weight_counts_of_the_named_architectures():
    counts = {name: (len(architecture(name).tuples), architecture(name).n_weights) for name in ARCHITECTURES}
    assert counts == {"all-1": (10, 30), "all-2": (32, 288), "all-3": (24, 648), "all-4": (21, 1701),
                      "all-2x2": (10, 810), "all-4+2x2": (31, 2511)}


def test_unknown_architecture_is_one_line():
    with pytest.raises(BadTuplesError, match="unknown n-tuple architecture 'all-9'.*all-2"):
        architecture("all-9")


def test_tuples_file_reads_back_and_names_bad_lines(tmp_path):
    arch = architecture("all-4+2x2")
    path = tmp_path / "net.tuples"
    path.write_text("# a comment\n\n" + arch.text())
    assert read_tuples_file(path).tuples == arch.tuples
    assert parse_tuples_text("a1, b1 c1  # edge\nh8 g7\n", "x").tuples == ((0, 1, 2), (63, 54))
    for text, message in (("a1 b1\na1 z9\n", "line 2: 'z9' is not a square"),
                          ("a1 a1\n", "line 1: .*repeats a square"),
                          ("a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2\n", "line 1: .*11 squares"),
                          ("# nothing\n", "no tuples")):
        with pytest.raises(BadTuplesError, match=message) as info:
            parse_tuples_text(text, "x", source="net.tuples")
        assert "\n" not in str(info.value)
    with pytest.raises(BadTuplesError, match="cannot read tuples file"):
        read_tuples_file(tmp_path / "missing.tuples")


# ------------------------------------------------------------------ values

@settings(max_examples=60)
@given(board=positions(), name=st.sampled_from(ARCHITECTURES), seed=st.integers(0, 2**32 - 1))
def test_value_equals_the_plain_sum_over_tuples(board, name, seed):
    arch = architecture(name)
    w = random_int_weights(arch, seed)
    ev = NTupleEvaluator(arch, w)
    for mine, theirs in ((board.player, board.opponent), (board.opponent, board.player)):
        assert ev.value(mine, theirs) == reference_value(arch, w, mine, theirs)


@settings(max_examples=40)
@given(board=positions(), name=st.sampled_from(ARCHITECTURES), seed=st.integers(0, 2**32 - 1))
def test_symmetric_positions_get_equal_values(board, name, seed):
    ev = NTupleEvaluator(architecture(name), random_int_weights(architecture(name), seed))
    values = {ev.value(transform_board(board.player, s), transform_board(board.opponent, s)) for s in SYMMETRIES}
    assert len(values) == 1


def test_tuples_file_architecture_evaluates_like_the_sum():
    arch = parse_tuples_text("a1 b2 c3 d4\nd4 e4\nb1\n", "mine")
    w = random_int_weights(arch, 5)
    board = Board.from_moves("f5d6c3d3c4f4c5b3c2")
    assert NTupleEvaluator(arch, w).value(board.player, board.opponent) == \
        reference_value(arch, w, board.player, board.opponent)


def test_evaluator_pickles_and_refuses_wrong_sizes():
    arch = architecture("all-2")
    ev = NTupleEvaluator(arch, random_int_weights(arch, 1))
    copy = pickle.loads(pickle.dumps(ev))
    board = Board.from_moves("f5d6c3")
    assert copy.value(board.player, board.opponent) == ev.value(board.player, board.opponent)
    with pytest.raises(ValueError, match="takes 288 weights, got 287"):
        NTupleEvaluator(arch, np.zeros(287))


# ------------------------------------------------------------- quantization

@settings(max_examples=30)
@given(name=st.sampled_from(ARCHITECTURES), seed=st.integers(0, 2**32 - 1),
       size=st.sampled_from([1e-9, 1e-3, 1.0, 1e6]))
def test_quantization_is_deterministic_pinned_and_within_the_range(name, seed, size):
    arch = architecture(name)
    w = np.random.default_rng(seed).normal(0.0, 1.0, arch.n_weights)
    q = quantize(arch, w * size)
    assert q.dtype == np.int32
    assert np.array_equal(q, quantize(arch, (w * size).copy()))          # the same every time
    assert np.array_equal(q, quantize(arch, w))                          # the optimizer's scale does not matter
    assert bound_norm(arch, normalized(arch, w * size)) == pytest.approx(1.0)
    ev = NTupleEvaluator(arch, q)
    assert ev.bound < EVAL_LIMIT                                         # no position can clamp
    assert ev.bound > scale(arch) - len(arch.expanded)                   # and the range is used
    assert np.count_nonzero(q) > arch.n_weights // 2                     # tiny weights do not vanish


@pytest.mark.parametrize("name", ARCHITECTURES)
def test_the_bound_is_reached_without_clamping(name):
    """All weights equal: the full board of one colour reads every tuple's
    largest entry, so its value is the bound itself, below EVAL_LIMIT."""
    arch = architecture(name)
    q = quantize(arch, np.ones(arch.n_weights))
    ev = NTupleEvaluator(arch, q)
    assert ev.value(MASK, 0) == ev.bound == ev.value(0, MASK)
    assert ev.bound < EVAL_LIMIT


def test_quantization_rounds_half_to_even_and_zero_stays_zero():
    arch = parse_tuples_text("a1\n", "one")          # one 1-tuple, 4 distinct images (the corners)
    assert arch.multiplicities == (4,)
    top = scale(arch) / 4
    # weights (top, x, -top): bound 4 * top = SCALE, so the factor is exactly 1
    for x, expected in ((1.5, 2), (2.5, 2), (3.5, 4), (-2.5, -2), (0.49, 0)):
        assert quantize(arch, [top, x, -top])[1] == expected
    assert not quantize(arch, [0.0, 0.0, 0.0]).any()


def test_network_digest_names_the_integers():
    arch = architecture("all-2")
    rng = np.random.default_rng(3)
    net = Network.random(arch, rng)
    scaled = Network(arch, net.weights * 7.0)
    assert net.digest() == scaled.digest() == weights_digest(arch, net.int_weights)
    assert net.digest() != Network.random(arch, rng).digest()
    assert len(net.digest()) == 12
    with pytest.raises(ValueError, match="finite"):
        Network(arch, np.full(arch.n_weights, np.nan))


# ------------------------------------------------------------------- games

def mix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def value_after(board: Board, me, move: int) -> int:
    """``me``'s value (the WPC's or a network's) of the position after ``move``, for the mover."""
    board.play(move)
    mine, theirs = board.opponent, board.player
    board.undo()
    return wpc_hundredths(mine, theirs) if me == "wpc" else me.value(mine, theirs)


def slow_game(black, white, seed: int, game_id: int, epsilon: float, opening=()) -> tuple[int, list[int]]:
    """The documented rules, one Python step at a time: Black's margin and the moves."""
    board = Board.from_moves(list(opening))
    played = []
    while not board.is_game_over():
        if board.must_pass():
            board.play(PASS)
            continue
        me = black if board.side_to_move == "black" else white
        moves = sorted(board.legal_moves())
        n = bin(board.black | board.white).count("1") - 4
        key = mix(mix(mix(seed) ^ game_id) ^ n)
        if me == "random" or (key >> 11) / 2**53 < epsilon:
            move = moves[((mix(key) >> 32) * len(moves)) >> 32]
        else:
            values = [value_after(board, me, m) for m in moves]
            move = moves[values.index(max(values))]
        played.append(move)
        board.play(move)
    return board.final_score(), played


@pytest.fixture(scope="module")
def networks():
    rng = np.random.default_rng(11)
    return [Network.random(architecture(name), rng).evaluator() for name in ("all-2", "all-2", "all-3", "all-4+2x2")]


@pytest.mark.parametrize("pairing", [(0, 1), (1, 0), (2, 3), (0, "wpc"), ("wpc", 3), (1, "random"),
                                     ("random", "wpc")])
def test_fast_games_equal_the_slow_reference(networks, pairing):
    contestants = networks + ["wpc", "random"]
    index = [c if isinstance(c, int) else 4 + ("wpc", "random").index(c) for c in pairing]
    openings = [(), [37, 43, 34]]                      # the start, and f5 d6 c5
    ids = np.array([0, 1, 2, 977, 2**40 + 3])
    for epsilon in (0.1, 0.0):
        for o in range(2):
            margins, moves = play_games(contestants, [index[0]] * 5, [index[1]] * 5, ids, 42, epsilon,
                                        openings=openings, opening_index=[o] * 5, record=True)
            for g, margin, row in zip(ids, margins, moves):
                expected_margin, expected_moves = slow_game(contestants[index[0]], contestants[index[1]], 42,
                                                            int(g), epsilon, openings[o])
                assert (int(margin), [m for m in row.tolist() if m >= 0]) == (expected_margin, expected_moves)


def test_results_do_not_depend_on_the_batch_split(networks):
    contestants = networks + ["wpc", "random"]
    rng = np.random.default_rng(2)
    n = 300
    black, white = rng.integers(0, 6, n), rng.integers(0, 6, n)
    ids = rng.permutation(10_000)[:n]
    openings = [(), [37], [37, 43], [19, 18, 17]]
    which = rng.integers(0, 4, n)
    whole = play_games(contestants, black, white, ids, 9, openings=openings, opening_index=which)
    order = rng.permutation(n)
    pieces = np.empty(n, dtype=np.int32)
    for part in np.array_split(order, 7):
        pieces[part] = play_games(contestants, black[part], white[part], ids[part], 9,
                                  openings=openings, opening_index=which[part])
    assert np.array_equal(whole, pieces)
    slow = play_games(contestants, black, white, ids, 9, openings=openings, opening_index=which, incremental=False)
    assert np.array_equal(whole, slow)
    other_seed = play_games(contestants, black, white, ids, 10, openings=openings, opening_index=which)
    assert not np.array_equal(whole, other_seed)


def test_points_are_summed_per_member():
    margins = np.array([5, 0, -3, 64])
    assert points_from_margins(margins).tolist() == [1.0, 0.5, 0.0, 1.0]
    assert member_points(3, [0, 1, 2, 2], [1, 0, 0, 1], margins).tolist() == [2.5, 0.5, 1.0]


def test_wpc_beats_random():
    n = 400
    ids = np.arange(n)
    black = ids % 2
    margins = play_games(["wpc", "random"], black, 1 - black, ids, 1)
    points = member_points(2, black, 1 - black, margins)
    assert points.sum() == n and points[0] > 0.7 * n
    assert np.all(np.abs(margins) <= 64)


def test_bad_batches_are_one_line(networks):
    for kwargs, message in (
        (dict(contestants=["wpc", "gnu"]), "contestant 1 is 'gnu'"),
        (dict(black=[0, 2]), "outside 0..1"),
        (dict(game_ids=[1]), "one length"),
        (dict(epsilon=1.5), "epsilon 1.5"),
        (dict(openings=[[0]], opening_index=[0, 0]), "opening 0: move 1 \\(a1\\) is illegal"),
        (dict(openings=[()], opening_index=[0, 1]), "opening index is outside"),
        (dict(openings=[()]), "without opening_index"),
    ):
        args = dict(contestants=[networks[0], "wpc"], black=[0, 1], white=[1, 0], game_ids=[1, 2], seed=3)
        args.update(kwargs)
        with pytest.raises(ValueError, match=message) as info:
            play_games(**args)
        assert "\n" not in str(info.value)
