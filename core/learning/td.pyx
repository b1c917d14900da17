"""Temporal-difference learning of a staged n-tuple network, in typed loops.

A staged network (:mod:`genethello.core.families.networks`, S > 1) values a
position in discs of final margin for the side to move: the sum, over its
expanded tuples, of the real weight each reads in the LUTs of the
position's stage. :class:`TupleReader` holds an architecture's expanded
tuples as typed arrays, :func:`position_value` is that sum on real
(float64) weights, and :func:`td_lambda_game` learns from one game.

**The update** (the offline λ-return, Sutton & Barto 2018 §12.1; the
targets of Szubert, Jaśkowski & Krawiec's CTDL, which learns TD(λ) from
the member's own games): a game's positions s_0 .. s_{T-1} are every
position where the side to move has a move (passes carry no position),
v_t their values on the weights before the game, z_t the final margin
(empties to the winner) for s_t's side to move. The λ-return is

    G_{T-1} = z_{T-1},
    G_t     = σ_t ((1 - λ) v_{t+1} + λ G_{t+1}),

σ_t = +1 when s_{t+1} has the same side to move as s_t (the other
passed) and -1 otherwise (values are for the side to move). The returns
are computed on the weights before the game (the forward view is exact
only offline); then, for t = 0 .. T-1 in order, position t's weights move
towards its return by a normalized step (normalized least mean squares):

    δ_t = G_t - v'_t,   w_j += α δ_t n_j(s_t) / Σ_k n_k(s_t)²

with v'_t the position's value on the weights as updated so far and
n_j(s_t) how many expanded tuples read weight j in s_t (several images of
a tuple often read the same entry, most of all on an empty board). The
step moves v'_t by exactly α δ_t: α is the fraction of each position's
error learned, whatever the architecture, and α <= 1 never overshoots. (A
plain step α/E per tuple overshoots by the multiplicity, and applying a
whole game's errors at once by the positions sharing a weight: measured,
both diverge.) λ = 1 learns the outcome alone (Monte Carlo), λ = 0 one
step ahead (TD(0)).

**Mobility entries** (a network of kind ``ARCH-sS-m``): a position also
reads its stage's entry for the side to move's legal moves, one weight
after every stage's LUTs (networks.py). Every position of a stage with
that many moves shares it, where a tuple weight is one pattern's, so it
gets a larger share of each correction: the step above with that entry
counted MOBILITY_STEP (16) times in Σ n_k² and moved MOBILITY_STEP times
δ (a normalized step preconditioned on that weight; the value still moves
by exactly α δ). With the tuples' share alone (1 in about 60 for
``patterns-v2``), 2,000 games from ``table-player`` moved the entries
by about 0.05 disc.
"""

from libc.stdint cimport uint64_t, int32_t, int64_t

import numpy as np

from genethello.core.engine.bitboard cimport PASS, START_BLACK, START_WHITE, legal_moves, flips, popcount
from genethello.core.engine.move cimport Child, make_move
from genethello.core.evaluation.ntuple cimport MOBILITY_ENTRIES
from genethello.core.evaluation.ntuple import stage_of_move

cdef enum:
    MOBILITY_STEP = 16  # a mobility entry's step, relative to a tuple weight's (module docstring)
    MAX_LENGTH = 10     # ntuple_shapes.MAX_TUPLE_LENGTH
    MAX_POSITIONS = 61  # a game has at most 60 moves, so at most 60 positions with a move


cdef class TupleReader:
    """An architecture's expanded tuples, with the stages of a staged
    network, as the typed loops read them: tuple e reads base LUT
    ``offset[e]`` at ``sum_k digit(squares[e][k]) * 3**k`` (digit 1 the side
    to move, 2 the other), stage s's weights from ``s * n_weights``."""

    cdef readonly int n_expanded, n_weights, n_stages
    cdef readonly int n_read                # indices a position reads: the expanded tuples, + 1 with mobility
    cdef readonly bint mobility
    cdef int32_t[::1] offset, length, squares, stages_by_move
    cdef int32_t[::1] group_first           # the first expanded tuple that may read tuple e's entry

    def __init__(self, architecture, int stages, bint mobility=False):
        expanded = architecture.expanded
        starts = np.concatenate([[0], np.cumsum(architecture.lut_sizes)])
        self.n_expanded = len(expanded)
        self.n_read = self.n_expanded + (1 if mobility else 0)
        self.mobility = mobility
        self.n_weights = int(architecture.n_weights)
        self.n_stages = stages
        self.offset = np.array([starts[u] for u, _ in expanded], dtype=np.int32)
        self.length = np.array([len(sq) for _, sq in expanded], dtype=np.int32)
        squares = np.zeros(self.n_expanded * MAX_LENGTH, dtype=np.int32)
        for e, (_, sq) in enumerate(expanded):
            squares[e * MAX_LENGTH:e * MAX_LENGTH + len(sq)] = sq
        self.squares = squares
        self.stages_by_move = np.ascontiguousarray(stage_of_move(stages), dtype=np.int32)
        # Two tuples read the same weight only when they are images of one
        # base tuple (each base tuple has its own LUT), and the expanded
        # tuples list a base tuple's images together: a tuple's equals are
        # among its own run of images, so counting them looks no further
        # (from every earlier tuple, should a future order not keep them together).
        bases = [u for u, _ in expanded]
        together = all(a <= b for a, b in zip(bases, bases[1:]))
        first = np.zeros(self.n_read, dtype=np.int32)
        for e in range(1, self.n_expanded):
            first[e] = first[e - 1] if together and bases[e] == bases[e - 1] else (e if together else 0)
        if mobility:
            first[self.n_expanded] = self.n_expanded      # the mobility entry: read once
        self.group_first = first

    cdef inline int stage(self, uint64_t P, uint64_t O) noexcept nogil:
        return self.stages_by_move[popcount(P | O) - 4]

    cdef void read(self, uint64_t P, uint64_t O, int32_t* out) noexcept nogil:
        """Every expanded tuple's weight index (stage included) on (P, O),
        then with mobility the index of the entry for P's legal moves
        (after every stage's LUTs: networks.py)."""
        cdef int e, k, sq, index, moves
        cdef int stage = self.stage(P, O)
        cdef int base = stage * self.n_weights
        cdef int power
        if self.mobility:
            moves = popcount(legal_moves(P, O))
            out[self.n_expanded] = (self.n_stages * self.n_weights + stage * MOBILITY_ENTRIES
                                    + (moves if moves < MOBILITY_ENTRIES else MOBILITY_ENTRIES - 1))
        for e in range(self.n_expanded):
            index = 0
            power = 1
            for k in range(self.length[e]):
                sq = self.squares[e * MAX_LENGTH + k]
                if (P >> sq) & 1:
                    index += power
                elif (O >> sq) & 1:
                    index += 2 * power
                power *= 3
            out[e] = base + self.offset[e] + index


cdef class TouchedWeights:
    """Which weights (stage included) updates have touched since the last
    :meth:`clear`: a flag a weight and the list of those flagged, so that
    what follows an update (clipping, rounding, patching a live evaluator:
    :mod:`genethello.core.learning.live`) costs the weights a game read,
    not every weight of the network."""

    def __init__(self, int size):
        self.flags = np.zeros(size, dtype=np.uint8)
        self.items = np.empty(1024, dtype=np.int32)
        self.count = 0

    cdef void mark(self, const int32_t* index, int n) except *:
        cdef int e, j
        for e in range(n):
            j = index[e]
            if not self.flags[j]:
                if self.count == self.items.shape[0]:
                    grown = np.empty(2 * self.count, dtype=np.int32)
                    grown[:self.count] = self.items
                    self.items = grown
                self.flags[j] = 1
                self.items[self.count] = j
                self.count += 1

    def add(self, const int32_t[::1] indices) -> None:
        """Flag ``indices`` (weights, stage included)."""
        if indices.shape[0]:
            if np.any(np.asarray(indices) < 0) or np.any(np.asarray(indices) >= self.flags.shape[0]):
                raise ValueError(f"a weight index outside 0..{self.flags.shape[0] - 1}")
            self.mark(&indices[0], indices.shape[0])

    def indices(self) -> np.ndarray:
        """The flagged weights (a copy, int32)."""
        return np.array(self.items[:self.count], dtype=np.int32)

    def clear(self) -> None:
        """Unflag every weight (costs the flagged ones)."""
        cdef int i
        for i in range(self.count):
            self.flags[self.items[i]] = 0
        self.count = 0


cdef inline int64_t _squared_counts(TupleReader reader, const int32_t* index) noexcept nogil:
    """Σ_j n_j²: over the weights read, the square of how many tuples read
    each, as Σ_e (2 c_e + 1) with c_e the earlier tuples that read tuple
    e's weight (n² = Σ_{c<n} 2c + 1); only images of one base tuple can
    (``group_first``), so this reads no memory but the indices."""
    cdef int e, f, n = reader.n_read, same
    cdef int64_t total = 0
    for e in range(n):
        same = 0
        for f in range(reader.group_first[e], e):
            if index[f] == index[e]:
                same += 1
        total += 2 * same + 1
    if reader.mobility:                 # the mobility entry, read once, stepped as if read sqrt(MOBILITY_STEP) times
        total += MOBILITY_STEP - 1
    return total


cdef inline double _sum(const double[::1] weights, const int32_t* index, int n) noexcept nogil:
    cdef double total = 0.0
    cdef int e
    for e in range(n):
        total += weights[index[e]]
    return total


def position_value(TupleReader reader, const double[::1] weights, uint64_t player, uint64_t opponent) -> float:
    """The staged network's value of the position (``player`` to move) on
    real ``weights``: discs of final margin for the side to move."""
    _check_weights(reader, weights)
    cdef int32_t[::1] index = np.empty(reader.n_read, dtype=np.int32)
    reader.read(player, opponent, &index[0])
    return _sum(weights, &index[0], reader.n_read)


def position_indices(TupleReader reader, const uint64_t[::1] players, const uint64_t[::1] opponents) -> np.ndarray:
    """The weight indices (stage included) each position reads, one row a
    position (``players[i]`` to move): int32 [n, reader.n_read]. A
    position's value is the sum of the weights at its row, so a fit to
    labelled positions (``benchmarks/experiment_exact_fit.py``) builds
    its sparse design from these rows."""
    if players.shape[0] != opponents.shape[0]:
        raise ValueError(f"{players.shape[0]} players but {opponents.shape[0]} opponents")
    cdef Py_ssize_t n = players.shape[0], i
    rows = np.empty((n, reader.n_read), dtype=np.int32)
    cdef int32_t[:, ::1] out = rows
    for i in range(n):
        if players[i] & opponents[i]:
            raise ValueError(f"position {i}: a square holds both sides' discs")
        reader.read(players[i], opponents[i], &out[i, 0])
    return rows


cdef int _check_weights(TupleReader reader, const double[::1] weights) except -1:
    cdef int expected = reader.n_stages * (reader.n_weights + (MOBILITY_ENTRIES if reader.mobility else 0))
    if weights.shape[0] != expected:
        raise ValueError(f"{weights.shape[0]} weights for a network of {reader.n_stages} stage(s) of "
                         f"{reader.n_weights}{' and mobility' if reader.mobility else ''}")
    return 0


cdef struct Replayed:
    int count                           # positions with a move
    int black_margin                    # the final margin for Black, empties to the winner


cdef Replayed _replay(moves, uint64_t* players, uint64_t* opponents, int* sides) except *:
    """The positions of a game from the standard start (``moves`` with
    passes), each before its move; ValueError for an illegal move."""
    cdef uint64_t P = START_BLACK, O = START_WHITE, legal
    cdef int side = 0, move
    cdef Child child
    cdef Replayed out
    out.count = 0
    for m in moves:
        move = m
        legal = legal_moves(P, O)
        if move == PASS:
            if legal:
                raise ValueError("a pass where a move was legal")
            if not legal_moves(O, P):
                raise ValueError("a pass after the game's end")
            P, O = O, P
            side ^= 1
            continue
        if move < 0 or move > 63 or not (legal >> move) & 1:
            raise ValueError(f"illegal move {move} at position {out.count}")
        if out.count >= MAX_POSITIONS:
            raise ValueError("more moves than a game has")
        players[out.count] = P
        opponents[out.count] = O
        sides[out.count] = side
        out.count += 1
        child = make_move(P, O, move, flips(P, O, move))
        P, O = child.player, child.opponent
        side ^= 1
    if legal_moves(P, O) or legal_moves(O, P):
        raise ValueError("the moves do not end the game")
    cdef int mine = popcount(P), theirs = popcount(O)
    cdef int margin = mine - theirs, empties = 64 - mine - theirs
    if margin > 0:
        margin += empties
    elif margin < 0:
        margin -= empties
    out.black_margin = margin if side == 0 else -margin
    return out


def game_positions(moves) -> tuple:
    """(player, opponent, side) of every position of the game with a move
    (side 0 Black), before its move, and Black's final margin: what
    :func:`td_lambda_game` learns from (for tests and tools)."""
    cdef uint64_t players[MAX_POSITIONS]
    cdef uint64_t opponents[MAX_POSITIONS]
    cdef int sides[MAX_POSITIONS]
    cdef Replayed r = _replay(moves, players, opponents, sides)
    return [(players[t], opponents[t], sides[t]) for t in range(r.count)], r.black_margin


def td_lambda_game(TupleReader reader, double[::1] weights, moves, double alpha, double lam,
                   TouchedWeights touched=None, bootstrap=None, exact=None) -> tuple:
    """Learn from one game (``moves`` from the standard start, passes
    included, to the end) by the offline λ-return (module docstring),
    updating ``weights`` in place (and flagging in ``touched``, if given,
    every weight the update moved). Returns (positions learned from, the
    sum of their squared errors G_t - v_t before the update, in discs²).

    Targets that see further (issue 36 part 4), one value a position of
    the game (``game_positions``' order; NaN where none):

    - ``bootstrap``: the value the λ-return bootstraps from in place of
      the static value v_{t+1} (a search's value of the position with the
      weights the game was played on: search-value targets);
    - ``exact``: the position's exact score (the solver's): its target
      G_t is that score, and it is also the value positions before it
      bootstrap from. So, with b_t = exact_t, else bootstrap_t, else v_t:
      G_{T-1} = exact_{T-1} or z_{T-1}; G_t = exact_t where solved, else
      σ_t ((1 - λ) b_{t+1} + λ G_{t+1}). Without both: today's update.

    Raises:
        ValueError: for weights of another size, alpha or lam out of
            [0, 1], or moves that are not a whole legal game.
    """
    _check_weights(reader, weights)
    if touched is not None and touched.flags.shape[0] != weights.shape[0]:
        raise ValueError(f"touched weights of {touched.flags.shape[0]} for {weights.shape[0]} weights")
    if not 0.0 <= alpha <= 1.0 or not 0.0 <= lam <= 1.0:
        raise ValueError(f"alpha and lambda must be within [0, 1], not {alpha!r} and {lam!r}")
    cdef double[::1] boot, solved
    cdef bint has_boot = bootstrap is not None, has_exact = exact is not None
    cdef uint64_t players[MAX_POSITIONS]
    cdef uint64_t opponents[MAX_POSITIONS]
    cdef int sides[MAX_POSITIONS]
    cdef double values[MAX_POSITIONS]
    cdef double targets[MAX_POSITIONS]
    cdef double bootstrapped[MAX_POSITIONS]
    cdef Replayed r = _replay(moves, players, opponents, sides)
    cdef int n = reader.n_read, T = r.count, t, e
    if has_boot:
        boot = np.ascontiguousarray(bootstrap, dtype=np.float64)
        if boot.shape[0] != T:
            raise ValueError(f"{boot.shape[0]} bootstrap values for a game of {T} positions")
    if has_exact:
        solved = np.ascontiguousarray(exact, dtype=np.float64)
        if solved.shape[0] != T:
            raise ValueError(f"{solved.shape[0]} exact scores for a game of {T} positions")
    cdef int32_t[::1] index = np.empty(max(1, T) * n, dtype=np.int32)
    cdef double delta, squared = 0.0, ahead
    if T == 0:
        return 0, 0.0
    for t in range(T):
        reader.read(players[t], opponents[t], &index[t * n])
        values[t] = _sum(weights, &index[t * n], n)
        bootstrapped[t] = values[t]
        if has_boot and boot[t] == boot[t]:             # not NaN
            bootstrapped[t] = boot[t]
        if has_exact and solved[t] == solved[t]:
            bootstrapped[t] = solved[t]
    ahead = r.black_margin if sides[T - 1] == 0 else -r.black_margin
    targets[T - 1] = ahead
    if has_exact and solved[T - 1] == solved[T - 1]:
        targets[T - 1] = solved[T - 1]
    for t in range(T - 2, -1, -1):
        if has_exact and solved[t] == solved[t]:
            targets[t] = solved[t]
            continue
        ahead = (1.0 - lam) * bootstrapped[t + 1] + lam * targets[t + 1]
        targets[t] = ahead if sides[t + 1] == sides[t] else -ahead
    for t in range(T):
        delta = targets[t] - values[t]
        squared += delta * delta
        delta = alpha * (targets[t] - _sum(weights, &index[t * n], n)) / _squared_counts(reader, &index[t * n])
        for e in range(n):
            weights[index[t * n + e]] += delta
        if reader.mobility:
            weights[index[t * n + n - 1]] += delta * (MOBILITY_STEP - 1)
    if touched is not None:
        touched.mark(&index[0], T * n)
    return T, squared
