"""Temporal-difference learning of staged n-tuple networks: the typed value
against a plain Python sum, the replay of a played game, one game's
offline λ-return update against an implementation written here from the
specification (td.pyx's docstring), ε-greedy self-play, and the learning
slice (self_play.learn) as a pure, helpful function."""

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import PASS, Board
from genethello.core.engine.game import Engine, play_game
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple_shapes import Architecture, architecture
from genethello.core.families.networks import Network
from genethello.core.learning.live import LiveNetwork
from genethello.core.learning.self_play import LEARNED_GRID, MAX_LEARNED_DISCS, Learner, LearningSettings, learn
from genethello.core.learning.td import (
    TouchedWeights,
    TupleReader,
    game_positions,
    position_indices,
    position_value,
    td_lambda_game,
)
from tests.ntuple_reference import reference_reads, reference_value

# Two base tuples: a corner pair (8 distinct images, all empty at the start,
# so one weight is read 8 times) and one centre square (4 images).
TINY = Architecture("tiny", ((0, 1), (27,)))


def popcount(bits: int) -> int:
    return bin(bits).count("1")


def stage_of(mine: int, theirs: int, stages: int) -> int:
    """The specification's stage: min((discs - 4) * S // 60, S - 1)."""
    return min((popcount(mine | theirs) - 4) * stages // 60, stages - 1)


def read_counts(arch: Architecture, stages: int, mine: int, theirs: int) -> Counter:
    """n_j: how many expanded tuples read weight j (stage included), by the
    plain symmetry of tests/ntuple_reference.py."""
    offset = stage_of(mine, theirs, stages) * arch.n_weights
    return Counter(offset + j for j in reference_reads(arch, mine, theirs))


def plain_value(arch: Architecture, stages: int, weights: np.ndarray, mine: int, theirs: int) -> float:
    return sum(n * float(weights[j]) for j, n in read_counts(arch, stages, mine, theirs).items())


def replay(moves) -> tuple[list[tuple[int, int, int]], int]:
    """The positions with a move and Black's final margin, by Board."""
    board, out = Board(), []
    for m in moves:
        if m != PASS:
            out.append((board.player, board.opponent, 0 if board.side_to_move == "black" else 1))
        board.play(m)
    assert board.is_game_over()
    return out, board.final_score()


def expected_update(arch: Architecture, stages: int, weights: np.ndarray, moves, alpha: float, lam: float,
                    bootstrap: dict | None = None, exact: dict | None = None):
    """The offline λ-return and the normalized LMS steps, from the docstring
    (``bootstrap``, ``exact``: position -> value, the targets that see further)."""
    bootstrap, exact = bootstrap or {}, exact or {}
    positions, black_margin = replay(moves)
    T = len(positions)
    v = [plain_value(arch, stages, weights, p, o) for p, o, _ in positions]
    b = [exact.get(t, bootstrap.get(t, v[t])) for t in range(T)]
    G = [0.0] * T
    G[-1] = exact.get(T - 1, black_margin if positions[-1][2] == 0 else -black_margin)
    for t in range(T - 2, -1, -1):
        sigma = 1 if positions[t + 1][2] == positions[t][2] else -1
        G[t] = exact[t] if t in exact else sigma * ((1 - lam) * b[t + 1] + lam * G[t + 1])
    w = np.array(weights, dtype=np.float64)
    after_own_step = []
    for t, (p, o, _) in enumerate(positions):
        counts = read_counts(arch, stages, p, o)
        delta = G[t] - plain_value(arch, stages, w, p, o)
        norm = sum(n * n for n in counts.values())
        for j, n in counts.items():
            w[j] += alpha * delta * n / norm
        after_own_step.append(plain_value(arch, stages, w, p, o))
    return w, T, sum((g - x) ** 2 for g, x in zip(G, v)), G, after_own_step


def zero_network(name: str = "all-2", stages: int = 4) -> Network:
    arch = architecture(name)
    return Network(arch, np.zeros(stages * arch.n_weights), stages)


def random_game(seed: int) -> tuple:
    """A uniformly random legal game (ε = 1: the engine never moves)."""
    engine = Engine(NetworkEvaluator(zero_network()), depth=1)
    return play_game(engine, engine, epsilon=1.0, seed=seed).moves


def game_with_a_pass() -> tuple:
    for seed in range(100):
        moves = random_game(seed)
        if PASS in moves[:-1]:
            return moves
    raise AssertionError("no random game with a pass among 100 seeds")


# ------------------------------------------------------------------ values

@settings(max_examples=25, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stages=st.sampled_from((2, 8, 30)),
       name=st.sampled_from(("all-2", "all-2x2")), plies=st.lists(st.integers(0, 70), min_size=1, max_size=5))
def test_position_indices_are_the_weights_a_position_reads(seed, stages, name, plies):
    """A fit to labelled positions builds its design from these rows: each
    row names every weight the position reads (stage included), as often as
    it reads it, so the row's sum of weights is the position's value."""
    arch = architecture(name)
    moves = random_game(seed)
    boards = [Board.from_moves(list(moves[:min(ply, len(moves))])) for ply in plies]
    boards = [b for b in boards if not b.is_game_over()]
    if not boards:
        return
    reader = TupleReader(arch, stages)
    rows = position_indices(reader, np.array([b.player for b in boards], dtype=np.uint64),
                            np.array([b.opponent for b in boards], dtype=np.uint64))
    weights = np.random.default_rng(seed).normal(0.0, 3.0, stages * arch.n_weights)
    for row, board in zip(rows, boards):
        assert Counter(row.tolist()) == read_counts(arch, stages, board.player, board.opponent)
        assert weights[row].sum() == pytest.approx(position_value(reader, weights, board.player, board.opponent))


def test_position_indices_refuse_a_square_held_by_both_sides():
    reader = TupleReader(architecture("all-2"), 2)
    with pytest.raises(ValueError, match="both sides"):
        position_indices(reader, np.array([1], dtype=np.uint64), np.array([1], dtype=np.uint64))
    with pytest.raises(ValueError, match="opponents"):
        position_indices(reader, np.array([1, 2], dtype=np.uint64), np.array([4], dtype=np.uint64))


@settings(max_examples=40, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stages=st.sampled_from((2, 8, 30)),
       name=st.sampled_from(("all-2", "all-2x2")), ply=st.integers(0, 70))
def test_position_value_is_the_plain_sum_on_its_stage(seed, stages, name, ply):
    """A learner's value of a position reads the weights of that position's
    stage only, and is the plain sum of the tuples' real weights there."""
    arch = architecture(name)
    rng = np.random.default_rng(seed)
    weights = rng.normal(0.0, 3.0, stages * arch.n_weights)
    moves = random_game(seed)
    board = Board.from_moves(list(moves[:min(ply, len(moves))]))
    reader = TupleReader(arch, stages)
    for mine, theirs in ((board.player, board.opponent), (board.opponent, board.player)):
        got = position_value(reader, weights, mine, theirs)
        assert got == pytest.approx(plain_value(arch, stages, weights, mine, theirs), rel=1e-12, abs=1e-9)
        # and on the stage's slice it is tests/ntuple_reference.py's sum (integral weights: it truncates)
        s = stage_of(mine, theirs, stages)
        whole = np.round(weights * 8)
        assert position_value(reader, whole, mine, theirs) == \
            reference_value(arch, whole[s * arch.n_weights:(s + 1) * arch.n_weights], mine, theirs)


def test_position_value_refuses_weights_of_another_size():
    reader = TupleReader(architecture("all-2"), 4)
    with pytest.raises(ValueError, match="1151 weights for a network of 4 stage"):
        position_value(reader, np.zeros(4 * 288 - 1), 0x810000000, 0x1008000000)


# ------------------------------------------------------------------ replay

@pytest.mark.parametrize("epsilon, seed", [(0.0, 0), (0.3, 5), (1.0, 11)])
def test_game_positions_replays_a_played_game(epsilon, seed):
    """What the learner learns from is the game as played: one position per
    move (passes carry none), side to move alternating across moves and
    not across passes, and Black's margin the game's score."""
    engine = Engine(NetworkEvaluator(Network.random(architecture("all-2"), np.random.default_rng(seed))), depth=2)
    result = play_game(engine, engine, epsilon=epsilon, seed=seed)
    positions, black_margin = game_positions(result.moves)
    assert len(positions) == sum(m != PASS for m in result.moves)
    assert black_margin == result.score
    assert (positions, black_margin) == replay(result.moves)


def test_game_positions_of_a_game_with_a_pass():
    moves = game_with_a_pass()
    positions, margin = game_positions(moves)
    assert len(positions) == len(moves) - moves.count(PASS)
    assert (positions, margin) == replay(moves)


# --------------------------------------------------------- one game's step

@pytest.mark.parametrize("lam", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("alpha", [0.3, 1.0])
@pytest.mark.parametrize("which", ["played", "with a pass"])
def test_td_lambda_game_is_the_specified_update(lam, alpha, which):
    """One game's update is the docstring's: λ-returns on the weights
    before the game, then each position's normalized step in order; it
    returns the positions and the sum of squared errors before the update."""
    if which == "played":
        engine = Engine(NetworkEvaluator(Network.random(TINY, np.random.default_rng(3), stages=2)), depth=2)
        moves = play_game(engine, engine).moves
    else:
        moves = game_with_a_pass()
    weights = np.random.default_rng(7).normal(0.0, 2.0, 2 * TINY.n_weights)
    want_w, want_T, want_sq, _, after = expected_update(TINY, 2, weights, moves, alpha, lam)
    got = weights.copy()
    T, squared = td_lambda_game(TupleReader(TINY, 2), got, moves, alpha, lam)
    assert T == want_T == sum(m != PASS for m in moves)
    assert squared == pytest.approx(want_sq, rel=1e-12)
    assert np.allclose(got, want_w, rtol=1e-12, atol=1e-12)
    if alpha == 1.0:   # the last position's own step is the last: its value is its target, the outcome
        p, o, side = replay(moves)[0][-1]
        margin = replay(moves)[1]
        assert position_value(TupleReader(TINY, 2), got, p, o) == pytest.approx(margin if side == 0 else -margin,
                                                                                 abs=1e-9)


@pytest.mark.parametrize("lam", [0.0, 0.5, 1.0])
def test_alpha_one_learns_each_position_to_its_target(lam):
    """NLMS: with α = 1 a position's value after its own step is its target.
    With 60 stages no two positions of a game share a weight, so after the
    game every position is valued at its λ-return (on the weights before)."""
    moves = game_with_a_pass()
    weights = np.random.default_rng(1).normal(0.0, 2.0, 60 * TINY.n_weights)
    _, _, _, targets, after = expected_update(TINY, 60, weights, moves, 1.0, lam)
    assert np.allclose(after, targets, rtol=0, atol=1e-9)   # the property, on the reference
    reader = TupleReader(TINY, 60)
    got = weights.copy()
    td_lambda_game(reader, got, moves, 1.0, lam)
    values = [position_value(reader, got, p, o) for p, o, _ in game_positions(moves)[0]]
    assert np.allclose(values, targets, rtol=0, atol=1e-9)


def test_alpha_one_on_a_shared_weight_network_hits_each_target_in_turn():
    """On all-2 with 2 stages (positions share weights): every position's
    value right after its own step is its target (checked on the reference
    walk, whose final weights the typed update equals)."""
    moves = random_game(4)
    weights = np.random.default_rng(2).normal(0.0, 1.0, 2 * 288)
    want_w, _, _, targets, after = expected_update(architecture("all-2"), 2, weights, moves, 1.0, 0.5)
    assert np.allclose(after, targets, rtol=0, atol=1e-9)
    got = weights.copy()
    td_lambda_game(TupleReader(architecture("all-2"), 2), got, moves, 1.0, 0.5)
    assert np.allclose(got, want_w, rtol=1e-12, atol=1e-12)


def test_td_lambda_game_refuses_what_is_not_a_whole_legal_game():
    """Bad games, weights or steps are refused, and the weights untouched."""
    reader = TupleReader(TINY, 2)
    moves = list(random_game(2))
    weights = np.ones(2 * TINY.n_weights)
    cases = [
        (moves[:-1], "do not end the game"),
        ([0] + moves[1:], "illegal move 0 at position 0"),
        (moves[:10] + [99] + moves[11:], "illegal move 99"),
        ([PASS] + moves, "a pass where a move was legal"),
        (moves + [moves[-1]], "illegal move"),
        (moves + [PASS, PASS], "a pass after the game's end"),
    ]
    for bad, message in cases:
        with pytest.raises(ValueError, match=message):
            td_lambda_game(reader, weights, bad, 0.5, 0.5)
        assert np.array_equal(weights, np.ones(2 * TINY.n_weights))
    with pytest.raises(ValueError, match="weights for a network of 2 stage"):
        td_lambda_game(reader, np.zeros(3 * TINY.n_weights), moves, 0.5, 0.5)
    for alpha, lam in ((1.5, 0.5), (-0.1, 0.5), (0.5, 1.01), (0.5, -1.0)):
        with pytest.raises(ValueError, match="alpha and lambda"):
            td_lambda_game(reader, weights, moves, alpha, lam)
    assert np.array_equal(weights, np.ones(2 * TINY.n_weights))


# ------------------------------------------------------------ ε-greedy play

def engines() -> list[Engine]:
    rng = np.random.default_rng(9)
    return [Engine(NetworkEvaluator(Network.random(architecture("all-2"), rng)), depth=2),
            Engine(NetworkEvaluator(Network.random(architecture("all-2"), rng, sigma=2.0, stages=4)), depth=1),
            Engine(Evaluator((20, 40), [[3, 1, 4, 1, 5, 9, 2]] * 3), depth=3)]


def test_epsilon_zero_is_plain_play():
    """ε = 0 draws nothing: the game is the one played without ε."""
    for engine in engines():
        for seed in (0, 12345):
            plain = play_game(engine, engine)
            greedy = play_game(engine, engine, epsilon=0.0, seed=seed)
            assert greedy.moves == plain.moves and greedy.score == plain.score


def test_epsilon_games_are_a_pure_function_of_the_seed():
    """Same seed, same game; other seeds, other games (ε = 1: random legal
    games; ε = 0.2: mixed with the engine's moves)."""
    for engine in engines()[:2]:
        for epsilon in (1.0, 0.2):
            games = [play_game(engine, engine, epsilon=epsilon, seed=s).moves for s in (1, 1, 2, 3)]
            assert games[0] == games[1]
            assert len({games[1], games[2], games[3]}) == 3
            assert Board.from_moves(list(games[2])).is_game_over()
    plain = play_game(engines()[0], engines()[0]).moves
    assert play_game(engines()[0], engines()[0], epsilon=0.2, seed=1).moves != plain


def test_epsilon_out_of_range_is_refused():
    engine = engines()[0]
    for epsilon in (-0.01, 1.01, float("nan")):
        with pytest.raises(ValueError, match="epsilon must be within"):
            play_game(engine, engine, epsilon=epsilon)


def test_an_engines_own_epsilon_draws_its_moves_only():
    """An ε-player (an engine with an ε of its own) plays its side's moves
    at its ε and leaves the other side's search alone: against a random
    White (ε = 1) every move of Black is its search's best move there; the
    game is a pure function of the seed; an ε out of range is refused."""
    rng = np.random.default_rng(5)
    evaluator = NetworkEvaluator(Network.random(architecture("all-2"), rng))
    black, white = Engine(evaluator, depth=2), Engine(evaluator, depth=2, epsilon=1.0)
    games = [play_game(black, white, seed=s).moves for s in (7, 7, 8)]
    assert games[0] == games[1] != games[2]
    checker = Engine(evaluator, depth=2)
    board, checked = Board(), 0
    for move in games[0]:
        if move != PASS and board.side_to_move == "black":
            assert checker.searcher.search(board, depth=2).move == move
            checked += 1
        board.play(move)
    assert checked >= 20
    assert play_game(black, Engine(evaluator, depth=2, epsilon=0.0), seed=7).moves == play_game(black, black).moves
    for epsilon in (-0.5, 1.5, float("nan")):
        with pytest.raises(ValueError, match="epsilon must be within"):
            Engine(evaluator, depth=2, epsilon=epsilon)


# ----------------------------------------------------------- the slice

SMALL = LearningSettings(alpha=0.5, lam=0.7, epsilon=0.2, depth=1, games=8, batch_games=4)


def test_learn_is_a_pure_function_of_network_settings_and_seed():
    """A worker, machine or resumed run learns the same weights; another
    seed learns others."""
    net = zero_network()
    a, report_a = learn(net, SMALL, 3)
    b, report_b = learn(net, SMALL, 3)
    c, _ = learn(net, SMALL, 4)
    assert np.array_equal(a.weights, b.weights) and report_a == report_b
    assert not np.array_equal(a.weights, c.weights)
    assert not np.array_equal(a.weights, net.weights)
    assert (a.architecture, a.stages, a.whole_disc_weight) == (net.architecture, net.stages, net.whole_disc_weight)
    assert report_a.games == 8 and report_a.positions > 8 * 50
    assert report_a.mean_squared_error == report_a.squared_error / report_a.positions
    assert np.abs(a.weights).max() <= MAX_LEARNED_DISCS


def test_batch_games_is_when_the_weights_are_rebuilt():
    """batch_games = games plays every game on the initial weights and then
    learns from them in order (game j's ε stream from SeedSequence([seed, j]));
    batch_games = 1 learns after every game, which changes the games and so
    the weights; each is deterministic."""
    net = Network.random(architecture("all-2"), np.random.default_rng(5), stages=4)
    settings_all = LearningSettings(alpha=0.5, lam=0.5, epsilon=0.1, depth=1, games=6, batch_games=6)
    settings_one = LearningSettings(alpha=0.5, lam=0.5, epsilon=0.1, depth=1, games=6, batch_games=1)
    learned_all, report_all = learn(net, settings_all, 2)
    learned_one, report_one = learn(net, settings_one, 2)
    assert np.array_equal(learned_one.weights, learn(net, settings_one, 2)[0].weights)
    assert not np.array_equal(learned_all.weights, learned_one.weights)
    # batch_games = games by hand
    engine = Engine(NetworkEvaluator(net), depth=1)
    weights = np.array(net.weights)
    reader = TupleReader(net.architecture, net.stages)
    positions = 0
    for j in range(6):
        stream = int(np.random.SeedSequence([2, j]).generate_state(2, np.uint64)[0])
        moves = play_game(engine, engine, epsilon=0.1, seed=stream).moves
        positions += td_lambda_game(reader, weights, moves, 0.5, 0.5)[0]
    np.clip(weights, -MAX_LEARNED_DISCS, MAX_LEARNED_DISCS, out=weights)
    weights = np.rint(weights * LEARNED_GRID) / LEARNED_GRID      # the slice ends on its grid
    assert np.array_equal(learned_all.weights, weights)
    assert report_all.positions == positions


def test_learn_refuses_an_unstaged_network():
    net = Network(architecture("all-2"), np.zeros(288))
    with pytest.raises(ValueError, match="only a staged network"):
        learn(net, SMALL, 0)


@pytest.mark.parametrize("bad", [dict(alpha=0.0), dict(alpha=1.5), dict(alpha=-0.5), dict(lam=-0.1),
                                 dict(lam=1.1), dict(epsilon=-0.1), dict(epsilon=2.0), dict(depth=0),
                                 dict(batch_games=0), dict(games=-1), dict(exact_empties=-1),
                                 dict(opening_plies=-1)])
def test_learning_settings_refuse_bad_values(bad):
    values = dict(alpha=0.5, lam=0.5, epsilon=0.1, depth=1) | bad
    with pytest.raises(ValueError):
        LearningSettings(**values)


def test_learning_lowers_the_error_on_fresh_games():
    """From zero, 300 games of depth-1 self-play learning value fresh games'
    positions closer to their outcomes than the zero network does."""
    settings_ = LearningSettings(alpha=0.1, lam=0.5, epsilon=0.1, depth=1, games=300, batch_games=10)
    net = zero_network()
    learned, _ = learn(net, settings_, 1)
    reader = TupleReader(net.architecture, net.stages)
    engine = Engine(NetworkEvaluator(learned), depth=1)
    errors = {"zero": [0, 0.0], "learned": [0, 0.0]}
    for seed in range(1000, 1060):
        moves = play_game(engine, engine, epsilon=0.1, seed=seed).moves
        for name, w in (("zero", net.weights), ("learned", learned.weights)):
            T, squared = td_lambda_game(reader, np.array(w), moves, 0.1, 1.0)   # λ = 1: against the outcome
            errors[name][0] += T
            errors[name][1] += squared
    zero, mse = (errors[k][1] / errors[k][0] for k in ("zero", "learned"))
    print(f"mean squared error on 60 fresh games: zero network {zero:.1f}, learned {mse:.1f} discs²")
    assert mse < 0.8 * zero


# ------------------------------------------------- learning in place

def rebuilt_learn(net: Network, settings_: LearningSettings, seed: int) -> tuple[np.ndarray, int, float]:
    """The slice as it was before learning in place: an evaluator rebuilt
    from every weight after each batch, every weight clipped after it and
    rounded at the end (what Learner must equal bit for bit)."""
    from genethello.core.engine.game import random_opening
    reader = TupleReader(net.architecture, net.stages)
    weights = np.array(net.weights, dtype=np.float64)
    positions, squared = 0, 0.0
    for first in range(0, settings_.games, settings_.batch_games):
        engine = Engine(NetworkEvaluator(Network(net.architecture, weights, net.stages, net.whole_disc_weight)),
                        depth=settings_.depth, exact_empties=settings_.exact_empties)
        batch = []
        for game in range(first, min(first + settings_.batch_games, settings_.games)):
            stream, opening_seed = (int(x) for x in np.random.SeedSequence([seed, game]).generate_state(2, np.uint64))
            opening = random_opening(settings_.opening_plies, opening_seed) if settings_.opening_plies else ()
            batch.append(play_game(engine, engine, opening, epsilon=settings_.epsilon, seed=stream).moves)
        for moves in batch:
            T, error = td_lambda_game(reader, weights, moves, settings_.alpha, settings_.lam)
            positions += T
            squared += error
        np.clip(weights, -MAX_LEARNED_DISCS, MAX_LEARNED_DISCS, out=weights)
    return np.rint(weights * LEARNED_GRID) / LEARNED_GRID, positions, squared


# the 3x3 corner: 19,683 entries a stage, past INT16_LUT_ENTRIES, so its evaluator keeps int16 copies;
# its transpose reads the same squares, so each physical entry sums two weights
WIDE = Architecture("wide", ((0, 1, 2, 8, 9, 10, 16, 17, 18), (27,)))


@pytest.mark.parametrize("net", [
    zero_network(),
    Network.random(architecture("all-2"), np.random.default_rng(5), stages=4),            # off the grid
    Network(architecture("all-2"), np.random.default_rng(6).normal(0, 200, 4 * 288), 4),   # beyond ±256
    Network(WIDE, np.random.default_rng(7).normal(0, 0.5, 2 * WIDE.n_weights), 2),       # int16 LUTs kept
], ids=["zero", "off-grid", "beyond-limit", "int16"])
@pytest.mark.parametrize("settings_", [SMALL, LearningSettings(alpha=0.9, lam=0.3, epsilon=0.1, depth=2, games=5,
                                                                batch_games=1, exact_empties=6, opening_plies=2)])
def test_learning_in_place_equals_rebuilding_every_weight(net, settings_):
    """Learner settles only the weights a batch touched, yet learns the
    weights of the rebuilt slice bit for bit, two slices on, and its live
    LUTs (merged, swapped, int16 while they fit) equal an evaluator built
    afresh from its weights."""
    learner = Learner(net)
    first = learner.slice(settings_, 3)
    weights, positions, squared = rebuilt_learn(net, settings_, 3)
    assert np.array_equal(learner.network().weights, weights)
    assert (first.positions, first.squared_error) == (positions, squared)
    learner.slice(settings_, 4)
    again, _, _ = rebuilt_learn(Network(net.architecture, weights, net.stages), settings_, 4)
    assert np.array_equal(learner.network().weights, again)
    fresh = LiveNetwork(learner.network(), MAX_LEARNED_DISCS, LEARNED_GRID)
    for live, built in zip(learner.live.luts(), fresh.luts()):
        assert (live is None and built is None) or np.array_equal(live, built)
    assert learn(net, settings_, 3)[0].digest() == Network(net.architecture, weights, net.stages).digest()


def test_int16_copies_are_kept_and_dropped_as_the_values_need():
    """Entries of two weights of 250 discs fit int16 (32,000/64 disc); one
    weight settled at 256 makes an entry of 32,768: the int16 copies go and
    the int32 LUTs still equal a fresh build's."""
    assert not LiveNetwork(Network(WIDE, np.full(2 * WIDE.n_weights, 256.0), 2), MAX_LEARNED_DISCS,
                           LEARNED_GRID).int16
    live = LiveNetwork(Network(WIDE, np.full(2 * WIDE.n_weights, 250.0), 2), MAX_LEARNED_DISCS, LEARNED_GRID)
    assert live.int16
    touched = TouchedWeights(live.weights.size)
    live.weights[5] = 251.0
    touched.add(np.array([5], dtype=np.int32))
    assert live.settle(touched) == 1 and live.int16
    live.weights[:WIDE.n_weights] = 300.0                  # clipped to 256: entries of 2 x 256 x 64
    touched.add(np.arange(WIDE.n_weights, dtype=np.int32))
    live.settle(touched)
    assert not live.int16 and live.luts()[2] is None and live.weights.max() == MAX_LEARNED_DISCS
    fresh = LiveNetwork(live.network(), MAX_LEARNED_DISCS, LEARNED_GRID)
    assert all(np.array_equal(a, b) for a, b in zip(live.luts()[:2], fresh.luts()[:2]))


def test_touched_weights_flag_each_weight_once():
    touched = TouchedWeights(10)
    touched.add(np.array([3, 7, 3, 0], dtype=np.int32))
    assert touched.count == 3 and sorted(touched.indices()) == [0, 3, 7]
    touched.clear()
    assert touched.count == 0 and touched.indices().size == 0
    with pytest.raises(ValueError, match="outside 0..9"):
        touched.add(np.array([10], dtype=np.int32))
    reader = TupleReader(architecture("all-2"), 4)
    with pytest.raises(ValueError, match="touched weights of 10"):
        td_lambda_game(reader, np.zeros(4 * 288), random_game(1), 0.1, 0.5, touched)



# ------------------------------------------------ targets that see further

def as_array(values: dict, T: int) -> np.ndarray:
    out = np.full(T, np.nan)
    for t, x in values.items():
        out[t] = x
    return out


@pytest.mark.parametrize("lam", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("which", ["exact", "bootstrap", "both"])
def test_further_targets_are_the_specified_update(lam, which):
    """Given exact scores (a solved position's target is its score, and
    positions before bootstrap from it) and bootstrap values (in place of
    the static value of the next position), the update is the docstring's;
    NaN everywhere is today's update."""
    moves = game_with_a_pass()
    T = sum(m != PASS for m in moves)
    weights = np.random.default_rng(7).normal(0.0, 2.0, 2 * TINY.n_weights)
    rng = np.random.default_rng(11)
    exact = {t: float(rng.integers(-64, 65)) for t in range(T - 12, T, 2)} if which != "bootstrap" else {}
    bootstrap = {t: float(rng.normal(0, 10)) for t in range(0, T, 3)} if which != "exact" else {}
    want_w, _, want_sq, targets, after = expected_update(TINY, 2, weights, moves, 0.4, lam, bootstrap, exact)
    got = weights.copy()
    _, squared = td_lambda_game(TupleReader(TINY, 2), got, moves, 0.4, lam, None, as_array(bootstrap, T),
                                as_array(exact, T))
    assert squared == pytest.approx(want_sq, rel=1e-12)
    assert np.allclose(got, want_w, rtol=1e-12, atol=1e-12)
    for t, score in exact.items():
        assert targets[t] == score
    plain = weights.copy()
    td_lambda_game(TupleReader(TINY, 2), plain, moves, 0.4, lam, None, np.full(T, np.nan), np.full(T, np.nan))
    today = weights.copy()
    td_lambda_game(TupleReader(TINY, 2), today, moves, 0.4, lam)
    assert np.array_equal(plain, today)
    with pytest.raises(ValueError, match="exact scores for a game of"):
        td_lambda_game(TupleReader(TINY, 2), weights.copy(), moves, 0.4, lam, None, None, np.zeros(T - 1))


@pytest.mark.parametrize("option", [dict(exact_targets=10), dict(search_targets=2),
                                    dict(exact_targets=8, search_targets=1)])
def test_a_slice_learns_the_targets_its_settings_name(option):
    """A slice with exact or search targets equals, bit for bit, the games
    played by hand, each position with <= N empties solved by the core's
    solver, the others searched d plies on the weights the games were
    played on (no table), and today's update given those values."""
    from genethello.core.engine.search import Searcher
    from genethello.core.evaluation.evaluation import EVAL_LIMIT, EVAL_WIN

    net = Network.random(architecture("all-2"), np.random.default_rng(5), sigma=0.3, stages=4)
    settings_ = LearningSettings(alpha=0.5, lam=0.5, epsilon=0.1, depth=1, games=3, batch_games=3, **option)
    learned, report = learn(net, settings_, 2)
    engine = Engine(NetworkEvaluator(net), depth=1)
    search, solver = Searcher(NetworkEvaluator(net), hashing=False), Searcher(NetworkEvaluator(net))
    weights = np.array(net.weights)
    reader = TupleReader(net.architecture, net.stages)
    games = [play_game(engine, engine, epsilon=0.1,
                       seed=int(np.random.SeedSequence([2, j]).generate_state(2, np.uint64)[0])).moves
             for j in range(3)]
    solved = 0
    for moves in games:
        positions, _ = game_positions(moves)
        exact, bootstrap = {}, {}
        for t, (p, o, side) in enumerate(positions):
            board = Board.from_bitboards(p, o, "black") if side == 0 else Board.from_bitboards(o, p, "white")
            if 64 - popcount(p | o) <= option.get("exact_targets", 0):
                exact[t] = solver.solve(board).value
            elif option.get("search_targets"):
                r = search.search(board, depth=option["search_targets"])
                # discs: a game seen to its end is EVAL_WIN a disc, else 64 units a disc
                bootstrap[t] = r.value if r.exact else (r.value / EVAL_WIN if abs(r.value) > EVAL_LIMIT
                                                        else r.value / 64)
        solved += len(exact)
        td_lambda_game(reader, weights, moves, 0.5, 0.5, None, as_array(bootstrap, len(positions)),
                       as_array(exact, len(positions)))
    np.clip(weights, -MAX_LEARNED_DISCS, MAX_LEARNED_DISCS, out=weights)
    assert np.array_equal(learned.weights, np.rint(weights * LEARNED_GRID) / LEARNED_GRID)
    assert (solved > 0) == ("exact_targets" in option)
    today = learn(net, replace(settings_, exact_targets=0, search_targets=0), 2)[0]
    assert not np.array_equal(learned.weights, today.weights)


@pytest.mark.parametrize("bad", [dict(exact_targets=-1), dict(exact_targets=61), dict(search_targets=-2)])
def test_further_target_settings_refuse_bad_values(bad):
    with pytest.raises(ValueError, match="exact_targets and search_targets must be within 0..60"):
        LearningSettings(alpha=0.5, lam=0.5, epsilon=0.1, depth=1, **bad)
