"""Playing one game: two engines, an opening, the result.

The move loop runs in C (the searches are called without going through
Python), since evolution plays hundreds of thousands of games.
"""

import random
from dataclasses import dataclass

from libc.stdint cimport uint64_t
from genethello.core.engine.bitboard cimport PASS, legal_moves, flips, popcount, gt_lowest_square
from genethello.core.engine.board cimport Board, BLACK
from genethello.core.engine.search cimport Searcher
from genethello.core.engine.context cimport RootResult, monotonic_seconds
from genethello.core.evaluation.evaluation cimport BaseEvaluator
from genethello.core.engine.move cimport Child, make_move
from genethello.core.engine.midgame cimport PLAIN_ROOT_DEPTH
from genethello.core.engine.endgame cimport HASH_EMPTIES

from genethello.core.engine.squares import join_move_list
from genethello.core.play.scoring import points_from_margin
from genethello.core.play.timecontrol import move_budget


cdef int _check_evaluator(object evaluator) except -1:
    """Refuse anything but an evaluator (an individual's comes from its family)."""
    if not isinstance(evaluator, BaseEvaluator):
        raise TypeError(f"an engine searches an evaluator, not a {type(evaluator).__name__} (its family's "
                        "evaluator_of(individual) builds one)")
    return 0


cdef class Engine:
    """A player: an evaluator searched with given limits.

    Args:
        evaluator: an evaluator of any kind (a BaseEvaluator, such as
            GeneThello's Evaluator, a NetworkEvaluator); an individual's
            comes from its family
            (:func:`genethello.core.families.registry.evaluator_of`), which
            the engine, below the families, does not know.
        depth: plies per move (fixed-depth play: node counts decide, so
            games are reproducible).
        time: seconds on this player's clock for the whole game.
        exact_empties: solve exactly once this many or fewer squares are empty.
        algorithm, tt_bits, hashing, ordering: passed to the Searcher
            (hashing only where a search would probe the table: not for
            depth <= 4 with fewer than 9 exact empties and no clock).
        epsilon: in :func:`play_game`, each of this engine's moves is, with
            this probability, a legal move drawn uniformly instead of its
            search's (an ε-player: a sparring partner that errs, so that
            its opponents meet positions its search alone never reaches).
    Raises:
        TypeError: for anything but an evaluator.
        ValueError: without depth or time, or with out-of-range values.
    """
    cdef readonly Searcher searcher
    cdef readonly int depth
    cdef readonly int exact_empties
    cdef readonly double time
    cdef readonly double epsilon

    def __init__(self, evaluator, depth=None, time=None, int exact_empties=0,
                 str algorithm="negascout-soft", int tt_bits=16, bint hashing=True, bint ordering=True,
                 double epsilon=0.0):
        _check_evaluator(evaluator)
        if depth is None and time is None:
            raise ValueError("an engine needs a depth or a time (seconds per game)")
        if depth is not None and not 1 <= int(depth) <= 60:
            raise ValueError(f"depth must be in 1..60, got {depth}")
        if time is not None and float(time) <= 0:
            raise ValueError(f"time must be positive seconds per game, got {time}")
        if not 0 <= exact_empties <= 60:
            raise ValueError(f"exact empties must be in 0..60, got {exact_empties}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be within [0, 1], not {epsilon!r}")
        # A fixed shallow depth with a small exact endgame never probes the
        # table (plain roots; the solver's table starts deeper): only the
        # principal variation would be stored there, which games do not
        # read. Without it they play the same moves, 6-8% faster.
        probes = time is not None or int(depth) > PLAIN_ROOT_DEPTH or exact_empties >= HASH_EMPTIES
        self.searcher = Searcher(evaluator, algorithm, tt_bits, hashing and probes, ordering)
        self.depth = 60 if depth is None else int(depth)
        self.time = 0.0 if time is None else float(time)
        self.exact_empties = exact_empties
        self.epsilon = epsilon

    @property
    def evaluator(self):
        return self.searcher.evaluator

    def use_evaluator(self, evaluator) -> None:
        """Play with another evaluator from the
        next game on; the table is cleared at the start of every game."""
        _check_evaluator(evaluator)
        self.searcher.use_evaluator(evaluator)

    def __reduce__(self):
        return (Engine, (self.searcher.evaluator, self.depth, self.time or None, self.exact_empties,
                         self.searcher.algorithm, self.searcher.table.bits, self.searcher.hashing,
                         self.searcher.ordering, self.epsilon))


@dataclass(frozen=True)
class GameResult:
    """A finished game.

    Attributes:
        moves: squares played from the start, PASS included.
        black_discs, white_discs: discs on the final board.
        score: Black's final margin with empties to the winner (WOF).
        opening_plies: how many of the moves were the given/random opening.
        black_seconds, white_seconds: thinking time used.
        time_loss: 'black'/'white' if that side's clock ran out, else None.
        nodes: positions searched by both engines.
    """
    moves: tuple
    black_discs: int
    white_discs: int
    score: int
    opening_plies: int
    black_seconds: float
    white_seconds: float
    time_loss: object
    nodes: int

    @property
    def winner(self):
        """'black', 'white' or None for a draw."""
        return "black" if self.score > 0 else ("white" if self.score < 0 else None)

    @property
    def black_points(self) -> float:
        """1, 0.5 or 0: Black's result for rating."""
        return points_from_margin(self.score)

    def move_list(self) -> str:
        """'f5d6...' (passes implicit)."""
        return join_move_list(list(self.moves))


def random_opening(int plies, seed) -> list:
    """A seeded random legal opening of `plies` moves from the start
    (Python's Mersenne Twister: the same seed gives the same moves on every
    machine). Stops early if the game ends."""
    rng = random.Random(seed)
    b = Board()
    out = []
    while len(out) < plies and not b.is_game_over():
        if b.must_pass():
            b.play(PASS)
            out.append(PASS)
            continue
        moves = b.legal_moves()
        mv = moves[rng.randrange(len(moves))]
        b.play(mv)
        out.append(mv)
    return out


cdef inline uint64_t _splitmix64(uint64_t* state) noexcept nogil:
    """The next number of a SplitMix64 stream (Steele, Lea & Flood 2014):
    the ε-moves' generator, the same on every machine."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int _random_move(uint64_t moves, uint64_t* state) noexcept nogil:
    """One of the squares of ``moves`` (not 0), drawn from ``state``."""
    cdef int k = <int>(_splitmix64(state) % <uint64_t>popcount(moves))
    while k > 0:
        moves &= moves - 1
        k -= 1
    return gt_lowest_square(moves)


def play_game(Engine black, Engine white, opening=(), bint clear_tables=True, double epsilon=0.0,
              uint64_t seed=0) -> GameResult:
    """Play a game from the start (after the opening moves, which must be
    legal) to the end. Transposition tables are cleared first.

    With ``epsilon`` > 0 each move after the opening is, with that
    probability, a legal move drawn uniformly instead of the engine's
    (ε-greedy play, what temporal-difference learning explores with); an
    engine with an ``epsilon`` of its own plays each of its moves at the
    larger of the two. The draws come from one SplitMix64 stream seeded by
    ``seed``, so the game is a pure function of the engines, the opening,
    ε and the seed. ε = 0 on both engines and the game (the default) draws
    nothing.

    Raises:
        IllegalMoveError: if the opening is not a legal move sequence.
        ValueError: if ``epsilon`` is not within [0, 1].
    """
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be within [0, 1], not {epsilon!r}")
    cdef Board board = Board.from_moves(list(opening))
    cdef uint64_t P = board.pos.player, O = board.pos.opponent
    cdef int side = board.pos.side, reached, n_empties
    cdef Engine eng
    cdef RootResult r
    cdef Child child
    cdef double clock[2]
    cdef double used[2]
    cdef double budget, t0
    cdef uint64_t nodes = 0
    cdef uint64_t stream = seed
    cdef uint64_t draw_below[2]  # each colour's ε * 2**53
    cdef uint64_t legal
    moves = list(board.history)
    time_loss = None
    clock[0] = black.time
    clock[1] = white.time
    used[0] = used[1] = 0.0
    draw_below[BLACK] = <uint64_t>(max(epsilon, black.epsilon) * 9007199254740992.0)
    draw_below[1 - BLACK] = <uint64_t>(max(epsilon, white.epsilon) * 9007199254740992.0)
    if clear_tables:
        black.searcher.clear()
        white.searcher.clear()
    while True:
        if legal_moves(P, O) == 0:
            if legal_moves(O, P) == 0:
                break
            moves.append(PASS)
            P, O = O, P
            side ^= 1
            continue
        if draw_below[side] and (_splitmix64(&stream) >> 11) < draw_below[side]:
            legal = legal_moves(P, O)
            r.move = _random_move(legal, &stream)
            child = make_move(P, O, r.move, flips(P, O, r.move))
            P, O = child.player, child.opponent
            side ^= 1
            moves.append(r.move)
            continue
        eng = black if side == BLACK else white
        n_empties = 64 - popcount(P | O)
        budget = move_budget(clock[side], n_empties) if eng.time > 0 else 0.0
        t0 = monotonic_seconds()
        with nogil:
            r = eng.searcher.c_best_move(P, O, eng.depth, eng.exact_empties, 0, budget, &reached)
        t0 = monotonic_seconds() - t0
        used[side] += t0
        nodes += eng.searcher.ctx.nodes
        if eng.time > 0:
            clock[side] -= t0
            if clock[side] < 0 and time_loss is None:
                time_loss = "black" if side == BLACK else "white"
        child = make_move(P, O, r.move, flips(P, O, r.move))
        P, O = child.player, child.opponent
        side ^= 1
        moves.append(r.move)
    black_discs = popcount(P if side == BLACK else O)
    white_discs = popcount(O if side == BLACK else P)
    empties = 64 - black_discs - white_discs
    score = black_discs - white_discs
    score += empties if score > 0 else (-empties if score < 0 else 0)
    return GameResult(tuple(moves), black_discs, white_discs, score, len(board.history),
                      used[0], used[1], time_loss, nodes)
