"""Searches: negamax alpha-beta and negascout, fail-hard and fail-soft, with
iterative deepening, a transposition table, move ordering, an exact endgame
solver, and limits by depth, nodes and time.

Values: the midgame search returns evaluation units (a decided game is worth
EVAL_WIN per disc of its final margin); the endgame solver returns the exact
final disc difference (empties to the winner). A pass does not use up depth.
All inner loops run without the GIL, so another thread (a GTP reader, a
ponderer) keeps running while the engine thinks.
"""

from libc.stdint cimport uint64_t, uint8_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from genethello.core.bitboard cimport (
    PASS, NO_MOVE, legal_moves, flips, popcount, square_bit, gt_lowest_square, CORNERS,
    NOT_FILE_A, NOT_FILE_H,
)
from genethello.core.evaluation cimport EvalWeights, Evaluator, evaluate_after_move, EVAL_WIN
from genethello.core.ttable cimport (
    TTable, TTEntry, TranspositionTable, tt_probe, tt_store,
    BOUND_LOWER, BOUND_UPPER, BOUND_EXACT, ENDGAME_DEPTH,
)
from genethello.core.board cimport Board
from genethello.core.stability cimport stable_discs

from dataclasses import dataclass, field

cdef enum:
    INF = 65 * EVAL_WIN          # beyond any midgame value
    DISC_INF = 65                # beyond any disc difference
    MAX_MOVES = 64
    SHALLOW_EMPTIES = 6          # below this the solver scans empties, no hashing
    ETC_EMPTIES = 12             # the solver probes its children's table entries from this many empties
    STABILITY_ALPHA = 0          # the solver tries a stability cut-off when alpha is at least this
    CHECK_INTERVAL = 4096        # nodes between looks at the clock and the stop flag
    DIRECT_DEPTH = 4             # fixed searches this shallow skip iterative deepening
    EVAL_ORDER_DEPTH = 4         # nodes this deep order moves by evaluation; shallower by square class
    HASH_DEPTH = 3               # nodes this deep use the transposition table
    SCOUT_DEPTH = 3              # negascout's null windows from this depth (shallower: plain alpha-beta)
    POTMOB_WEIGHT = 4            # solver ordering: one reply = 16, one square of potential mobility = 4
                                 # (FFO #40-#44: 366.7M -> 310.6M nodes)
    ORDER_DEPTH = 3              # nodes this deep order their moves; at depth 2 sorting cost more than
                                 # it saved (bench_games: 472 -> 496 games/s, 4% more nodes)

ALGORITHMS = {
    "alphabeta-hard": ALPHABETA_HARD,
    "alphabeta-soft": ALPHABETA_SOFT,
    "negascout-hard": NEGASCOUT_HARD,
    "negascout-soft": NEGASCOUT_SOFT,
}

# Cheap move ordering for shallow nodes: corners, then A/B edge squares,
# inner squares, C-squares, X-squares last (the classic square classes).
cdef int SQUARE_CLASS[64]
SQUARE_CLASS[:] = [
    8, 1, 5, 4, 4, 5, 1, 8,
    1, 0, 3, 3, 3, 3, 0, 1,
    5, 3, 4, 3, 3, 4, 3, 5,
    4, 3, 3, 3, 3, 3, 3, 4,
    4, 3, 3, 3, 3, 3, 3, 4,
    5, 3, 4, 3, 3, 4, 3, 5,
    1, 0, 3, 3, 3, 3, 0, 1,
    8, 1, 5, 4, 4, 5, 1, 8,
]

# Quadrants a1-d4, e1-h4, a5-d8, e5-h8, for parity ordering in the endgame.
cdef uint64_t QUADRANT[4]
QUADRANT[:] = [0x000000000F0F0F0FULL, 0x00000000F0F0F0F0ULL,
               0x0F0F0F0F00000000ULL, 0xF0F0F0F000000000ULL]


cdef double monotonic_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint out_of_budget(SearchContext* c) noexcept nogil:
    """Count a node; every few thousand nodes look at the clock, the node
    limit and the stop flag. True once the search must unwind."""
    c.nodes += 1
    if c.nodes >= c.next_check:
        c.next_check = c.nodes + CHECK_INTERVAL
        if c.node_limit and c.next_check > c.node_limit:
            c.next_check = c.node_limit
        if c.stop or (c.node_limit and c.nodes >= c.node_limit) or (
                c.deadline > 0 and monotonic_seconds() >= c.deadline):
            c.aborted = True
    return c.aborted


cdef inline int final_margin(uint64_t P, uint64_t O) noexcept nogil:
    """Final disc difference for P with the empties going to the winner."""
    cdef int p = popcount(P), o = popcount(O)
    cdef int empties = 64 - p - o
    if p > o:
        return p - o + empties
    if p < o:
        return p - o - empties
    return 0


cdef inline int clamp(int v, int lo, int hi) noexcept nogil:
    return lo if v < lo else (hi if v > hi else v)


# ------------------------------------------------------------------ midgame
cdef inline int leaf_value(SearchContext* c, uint64_t P, uint64_t O, int last_flips) noexcept nogil:
    """Value for the side to move P of the position after O's last move."""
    cdef uint64_t moves = legal_moves(P, O)
    c.nodes += 1
    if moves == 0 and legal_moves(O, P) == 0:
        return final_margin(P, O) * EVAL_WIN
    return -evaluate_after_move(c.w, O, P, last_flips, moves)


cdef inline void insert_by_key(int* keys, int* squares, uint64_t* flipped, int n,
                               int key, int sq, uint64_t f) noexcept nogil:
    """Insert a move into the first n entries, kept sorted by key, highest
    first; equal keys keep their arrival order (a stable insertion sort:
    at most ~30 moves, so nothing faster pays)."""
    cdef int i = n
    while i > 0 and keys[i - 1] < key:
        keys[i] = keys[i - 1]
        squares[i] = squares[i - 1]
        flipped[i] = flipped[i - 1]
        i -= 1
    keys[i] = key
    squares[i] = sq
    flipped[i] = f


cdef inline int bound_kind(int value, int alpha0, int beta) noexcept nogil:
    """What a fail-soft value found in the window (alpha0, beta) says about
    the true value: a lower bound, an upper bound, or the value itself."""
    return BOUND_LOWER if value >= beta else (BOUND_UPPER if value <= alpha0 else BOUND_EXACT)


cdef int order_moves(SearchContext* c, uint64_t P, uint64_t O, uint64_t moves, int hash_move,
                     bint by_eval, int* squares, uint64_t* flipped) noexcept nogil:
    """Fill squares/flipped with the moves, hash move first, then the rest by
    the mover's static evaluation (by_eval) or by square class, best first.
    Returns the count."""
    cdef int n = 0, sq, key
    cdef int keys[MAX_MOVES]
    cdef uint64_t f, child_p, child_o
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        f = flips(P, O, sq)
        if sq == hash_move:
            key = INF
        elif not by_eval:
            key = SQUARE_CLASS[sq]
        else:
            child_p = O ^ f
            child_o = P | f | square_bit(sq)
            key = evaluate_after_move(c.w, child_o, child_p, popcount(f), legal_moves(child_p, child_o))
        insert_by_key(keys, squares, flipped, n, key, sq, f)
        n += 1
    return n


cdef inline int unordered_moves(uint64_t P, uint64_t O, uint64_t moves, int* squares,
                                uint64_t* flipped) noexcept nogil:
    """The moves in board order (the naive baseline)."""
    cdef int n = 0, sq
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        squares[n] = sq
        flipped[n] = flips(P, O, sq)
        n += 1
    return n


cdef int midgame(SearchContext* c, uint64_t P, uint64_t O, int depth, int alpha, int beta,
                 int last_flips) noexcept nogil:
    """Negamax value of P to move, `depth` plies deep, in the window
    (alpha, beta) under the context's algorithm."""
    cdef int alpha0 = alpha, best = -INF, best_move = NO_MOVE, v, i, n, hash_move = NO_MOVE, sq
    cdef uint64_t moves, f, child_p, child_o
    cdef int squares[MAX_MOVES]
    cdef uint64_t flipped[MAX_MOVES]
    cdef TTEntry* e
    if depth == 0:
        v = leaf_value(c, P, O, last_flips)
        return v if c.soft else clamp(v, alpha, beta)
    if out_of_budget(c):
        return 0
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            v = final_margin(P, O) * EVAL_WIN
            return v if c.soft else clamp(v, alpha, beta)
        return -midgame(c, O, P, depth, -beta, -alpha, 0)

    if depth == 1:
        # Children are leaves: evaluate them in place.
        while moves:
            sq = gt_lowest_square(moves)
            moves &= moves - 1
            f = flips(P, O, sq)
            v = -leaf_value(c, O ^ f, P | f | square_bit(sq), popcount(f))
            if v > best:
                best = v
                if v >= beta:
                    break
        return best if c.soft else clamp(best, alpha, beta)

    e = tt_probe(c.tt, P, O) if depth >= HASH_DEPTH else NULL
    if e != NULL:
        hash_move = e.move
        if e.depth == depth:
            if e.bound == BOUND_EXACT or (e.bound == BOUND_LOWER and e.value >= beta) or (
                    e.bound == BOUND_UPPER and e.value <= alpha):
                return e.value if c.soft else clamp(e.value, alpha, beta)

    if c.ordering and depth >= ORDER_DEPTH:
        n = order_moves(c, P, O, moves, hash_move, depth >= EVAL_ORDER_DEPTH, squares, flipped)
    else:
        n = unordered_moves(P, O, moves, squares, flipped)
    for i in range(n):
        f = flipped[i]
        child_p = O ^ f
        child_o = P | f | square_bit(squares[i])
        if c.scout and i > 0 and depth >= SCOUT_DEPTH:
            v = -midgame(c, child_p, child_o, depth - 1, -alpha - 1, -alpha, popcount(f))
            if alpha < v < beta:
                v = -midgame(c, child_p, child_o, depth - 1, -beta, -(v if c.soft else alpha), popcount(f))
        else:
            v = -midgame(c, child_p, child_o, depth - 1, -beta, -alpha, popcount(f))
        if c.aborted:
            return 0
        if v > best:
            best = v
            best_move = squares[i]
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    if depth >= HASH_DEPTH:
        tt_store(c.tt, P, O, depth, best,
                 bound_kind(best, alpha0, beta), best_move)
    return best if c.soft else clamp(best, alpha0, beta)


cdef RootResult midgame_root(SearchContext* c, uint64_t P, uint64_t O, int depth,
                             int alpha, int beta) noexcept nogil:
    """Best move and value at `depth` (>= 1) in the window (alpha, beta)."""
    cdef RootResult r
    cdef int alpha0 = alpha, v, i, n, hash_move = NO_MOVE
    cdef uint64_t moves = legal_moves(P, O), f, child_p, child_o
    cdef int squares[MAX_MOVES]
    cdef uint64_t flipped[MAX_MOVES]
    cdef TTEntry* e
    r.move = NO_MOVE
    r.value = -INF
    r.complete = False
    c.nodes += 1
    if moves == 0:
        if legal_moves(O, P) == 0:
            r.value = final_margin(P, O) * EVAL_WIN
        else:
            r.move = PASS
            r.value = -midgame(c, O, P, depth, -beta, -alpha, 0)
        r.complete = not c.aborted
        return r
    e = tt_probe(c.tt, P, O)
    if e != NULL:
        hash_move = e.move
    if c.ordering:
        n = order_moves(c, P, O, moves, hash_move, True, squares, flipped)
    else:
        n = unordered_moves(P, O, moves, squares, flipped)
    for i in range(n):
        f = flipped[i]
        child_p = O ^ f
        child_o = P | f | square_bit(squares[i])
        if c.scout and i > 0:
            v = -midgame(c, child_p, child_o, depth - 1, -alpha - 1, -alpha, popcount(f))
            if alpha < v < beta:
                v = -midgame(c, child_p, child_o, depth - 1, -beta, -(v if c.soft else alpha), popcount(f))
        else:
            v = -midgame(c, child_p, child_o, depth - 1, -beta, -alpha, popcount(f))
        if c.aborted:
            return r
        if v > r.value:
            r.value = v
            r.move = squares[i]
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    if not c.soft:
        r.value = clamp(r.value, alpha0, beta)
    tt_store(c.tt, P, O, depth, r.value,
             bound_kind(r.value, alpha0, beta), r.move)
    r.complete = True
    return r


# ------------------------------------------------------------------ endgame
cdef inline uint64_t neighbours(uint64_t x) noexcept nogil:
    """The squares next to a square of x, in any of the 8 directions."""
    cdef uint64_t h = ((x << 1) & NOT_FILE_A) | ((x >> 1) & NOT_FILE_H)
    cdef uint64_t row = x | h
    return h | (row << 8) | (row >> 8)


cdef inline uint64_t odd_quadrants(uint64_t empty) noexcept nogil:
    """The quadrants holding an odd number of empty squares (parity: the
    side that plays last in a region gains from it)."""
    cdef uint64_t odd = 0
    cdef int q
    for q in range(4):
        if popcount(empty & QUADRANT[q]) & 1:
            odd |= QUADRANT[q]
    return odd


cdef inline int solve_last(SearchContext* c, uint64_t P, uint64_t O) noexcept nogil:
    """Exact score with one empty square."""
    cdef uint64_t empty = ~(P | O)
    cdef int sq = gt_lowest_square(empty)
    cdef uint64_t f = flips(P, O, sq)
    cdef int p = popcount(P), n
    c.nodes += 1
    if f:
        n = popcount(f)
        return 2 * (p + n + 1) - 64
    f = flips(O, P, sq)
    if f:
        n = popcount(f)
        return 64 - 2 * (63 - p + n + 1)
    return final_margin(P, O)


cdef int solve_shallow(SearchContext* c, uint64_t P, uint64_t O, int alpha, int beta,
                       int n_empties) noexcept nogil:
    """Fail-soft exact search for few empties: scan the empty squares, those in
    odd quadrants first (the last move of an odd region is worth having)."""
    cdef uint64_t empty = ~(P | O), odd = 0, squares, f
    cdef int best = -DISC_INF, v, sq, stage
    if n_empties == 1:
        return solve_last(c, P, O)
    if out_of_budget(c):
        return 0
    odd = odd_quadrants(empty)
    for stage in range(2):
        squares = empty & (odd if stage == 0 else ~odd)
        while squares:
            sq = gt_lowest_square(squares)
            squares &= squares - 1
            f = flips(P, O, sq)
            if f == 0:
                continue
            v = -solve_shallow(c, O ^ f, P | f | square_bit(sq), -beta, -(alpha if alpha > best else best),
                               n_empties - 1)
            if v > best:
                best = v
                if v >= beta:
                    return v
    if best == -DISC_INF:
        if legal_moves(O, P) == 0:
            return final_margin(P, O)
        return -solve_shallow(c, O, P, -beta, -alpha, n_empties)
    return best


cdef int solve_deep(SearchContext* c, uint64_t P, uint64_t O, int alpha, int beta,
                    int n_empties, int* best_move_out) noexcept nogil:
    """Fail-soft exact negascout with hashing and fastest-first ordering:
    fewest replies for the opponent first (corner replies count twice), then
    fewest empty squares next to our discs (the opponent's potential
    mobility), corners and moves into odd regions favoured."""
    cdef int alpha0 = alpha, best = -DISC_INF, best_move = NO_MOVE, v, i, n = 0, sq, key, hash_move = NO_MOVE
    cdef uint64_t moves, f, child_p, child_o, replies, odd = 0
    cdef int squares[MAX_MOVES]
    cdef int keys[MAX_MOVES]
    cdef uint64_t flipped[MAX_MOVES]
    cdef TTEntry* e
    if n_empties <= SHALLOW_EMPTIES:
        return solve_shallow(c, P, O, alpha, beta, n_empties)
    if out_of_budget(c):
        return 0
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            return final_margin(P, O)
        v = -solve_deep(c, O, P, -beta, -alpha, n_empties, NULL)
        if best_move_out != NULL:
            best_move_out[0] = PASS
        return v
    if alpha >= STABILITY_ALPHA and best_move_out == NULL:
        # The opponent keeps its stable discs: P cannot score above this.
        v = 64 - 2 * popcount(stable_discs(O, P))
        if v <= alpha:
            return v
    e = tt_probe(c.tt, P, O)
    if e != NULL:
        hash_move = e.move
        if e.depth == ENDGAME_DEPTH and best_move_out == NULL:
            if e.bound == BOUND_EXACT or (e.bound == BOUND_LOWER and e.value >= beta) or (
                    e.bound == BOUND_UPPER and e.value <= alpha):
                return e.value
            if e.bound == BOUND_LOWER and e.value > alpha:
                alpha = e.value
            elif e.bound == BOUND_UPPER and e.value < beta:
                beta = e.value
    odd = odd_quadrants(~(P | O))
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        f = flips(P, O, sq)
        if n_empties >= ETC_EMPTIES and best_move_out == NULL:
            # Enhanced transposition cut-off: a child already known to be
            # bad enough for the opponent refutes this node without a search.
            e = tt_probe(c.tt, O ^ f, P | f | square_bit(sq))
            if e != NULL and e.depth == ENDGAME_DEPTH and e.bound != BOUND_LOWER and -e.value >= beta:
                return -e.value
        if sq == hash_move:
            key = 1 << 20
        else:
            child_p = O ^ f
            child_o = P | f | square_bit(sq)
            replies = legal_moves(child_p, child_o)
            key = (-16 * (popcount(replies) + popcount(replies & CORNERS))
                   + (8 if square_bit(sq) & CORNERS else 0) - popcount(f)
                   + (4 if square_bit(sq) & odd else 0)
                   - POTMOB_WEIGHT * popcount(neighbours(child_o) & ~(child_p | child_o)))
        insert_by_key(keys, squares, flipped, n, key, sq, f)
        n += 1
    for i in range(n):
        f = flipped[i]
        child_p = O ^ f
        child_o = P | f | square_bit(squares[i])
        if i > 0:
            v = -solve_deep(c, child_p, child_o, -alpha - 1, -alpha, n_empties - 1, NULL)
            if alpha < v < beta:
                v = -solve_deep(c, child_p, child_o, -beta, -v, n_empties - 1, NULL)
        else:
            v = -solve_deep(c, child_p, child_o, -beta, -alpha, n_empties - 1, NULL)
        if c.aborted:
            return 0
        if v > best:
            best = v
            best_move = squares[i]
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    tt_store(c.tt, P, O, ENDGAME_DEPTH, best,
             bound_kind(best, alpha0, beta), best_move)
    if best_move_out != NULL:
        best_move_out[0] = best_move
    return best


cdef RootResult endgame_root(SearchContext* c, uint64_t P, uint64_t O,
                             int alpha, int beta) noexcept nogil:
    """Exact best move and final disc difference (fail-soft in the window)."""
    cdef RootResult r
    cdef int n_empties = 64 - popcount(P | O), move = NO_MOVE
    cdef uint64_t moves = legal_moves(P, O), f
    cdef int sq, v
    r.complete = False
    if n_empties <= SHALLOW_EMPTIES:
        # Root of a tiny endgame: try each move with the shallow solver.
        r.move = NO_MOVE
        r.value = -DISC_INF
        if moves == 0:
            r.move = PASS if legal_moves(O, P) else NO_MOVE
            r.value = solve_shallow(c, P, O, alpha, beta, n_empties) if n_empties else final_margin(P, O)
        while moves:
            sq = gt_lowest_square(moves)
            moves &= moves - 1
            f = flips(P, O, sq)
            if n_empties == 1:
                v = -final_margin(O ^ f, P | f | square_bit(sq))
            else:
                v = -solve_shallow(c, O ^ f, P | f | square_bit(sq), -beta,
                                   -(alpha if alpha > r.value else r.value), n_empties - 1)
            if v > r.value:
                r.value = v
                r.move = sq
        r.complete = not c.aborted
        return r
    r.value = solve_deep(c, P, O, alpha, beta, n_empties, &move)
    r.move = move if moves else (PASS if legal_moves(O, P) else NO_MOVE)
    r.complete = not c.aborted
    return r


# ------------------------------------------------------------- Python face
@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    Attributes:
        move: best square, PASS, or None when the game is over.
        value: evaluation units (midgame) or exact final disc difference
            (``exact`` True), for the side to move.
        depth: plies of the deepest completed iteration (empties when exact).
        exact: the value is a solved endgame score.
        nodes: positions visited.
        seconds: wall time spent.
        pv: principal variation from the transposition table (may be short).
    """
    move: int | None
    value: int
    depth: int
    exact: bool
    nodes: int
    seconds: float
    pv: tuple = ()

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


cdef class Searcher:
    """An engine: one evaluator, one algorithm, one transposition table.

    Args:
        evaluator: the player's weights.
        algorithm: 'alphabeta-hard', 'alphabeta-soft', 'negascout-hard' or
            'negascout-soft' (the default).
        tt_bits: log2 of the transposition table's buckets (16: 3 MiB).
        hashing: use the transposition table (False: a naive baseline).
        ordering: order moves by static evaluation (False: board order, the
            naive baseline the benchmarks compare against).
    Raises:
        ValueError: for an unknown algorithm name.
    """

    def __init__(self, Evaluator evaluator, str algorithm="negascout-soft", int tt_bits=16,
                 bint hashing=True, bint ordering=True):
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown search algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
        self.evaluator = evaluator
        self.algorithm = algorithm
        self.table = TranspositionTable(tt_bits)
        self.ctx.w = &evaluator.w
        self.hashing = hashing
        self.ordering = ordering
        self.ctx.tt = &self.table.table if hashing else NULL
        self.ctx.ordering = ordering
        code = ALGORITHMS[algorithm]
        self.ctx.soft = code in (ALPHABETA_SOFT, NEGASCOUT_SOFT)
        self.ctx.scout = code in (NEGASCOUT_HARD, NEGASCOUT_SOFT)

    def __reduce__(self):
        return (Searcher, (self.evaluator, self.algorithm, self.table.bits, self.hashing, self.ordering))

    def use_evaluator(self, Evaluator evaluator) -> None:
        """Search with other weights from now on (clear the table first:
        its values belong to the old weights). Lets a worker keep two
        searchers, and their tables, for all the players it hosts."""
        self.evaluator = evaluator
        self.ctx.w = &evaluator.w

    def clear(self) -> None:
        """Forget the transposition table (between games)."""
        self.table.clear()

    def stop(self) -> None:
        """Ask a running search (in another thread) to return what it has.

        Only a search already running is stopped: each search clears the flag
        when it begins, so a caller racing a search's start repeats stop()
        until the searching thread has returned. A stopped exact solve does
        not fall back to a midgame search: stop means return now."""
        self.ctx.stop = 1

    cdef void _begin(self, uint64_t node_limit, double seconds) noexcept nogil:
        self.ctx.nodes = 0
        self.ctx.next_check = 0
        self.ctx.node_limit = node_limit
        self.ctx.deadline = monotonic_seconds() + seconds if seconds > 0 else 0
        self.ctx.aborted = False
        self.ctx.stop = 0

    cdef RootResult c_best_move(self, uint64_t P, uint64_t O, int depth, int exact_empties,
                                uint64_t node_limit, double seconds, int* reached) noexcept nogil:
        """Iterative deepening to `depth` (or until the limits), or an exact
        solve once `exact_empties` or fewer squares are empty. With a time
        limit, no new iteration starts after half of it (the next one would
        rarely finish), and a solve that runs out of time falls back to the
        midgame search."""
        cdef RootResult best, r
        cdef int d, first, n_empties = 64 - popcount(P | O)
        cdef double start = monotonic_seconds()
        self._begin(node_limit, seconds)
        reached[0] = 0
        if n_empties <= exact_empties:
            if seconds > 0:
                self.ctx.deadline = start + 0.7 * seconds
            r = endgame_root(&self.ctx, P, O, -DISC_INF, DISC_INF)
            if r.complete:
                reached[0] = ENDGAME_DEPTH
                return r
            self.ctx.aborted = False
            self.ctx.deadline = start + seconds if seconds > 0 else 0
            if node_limit:
                self.ctx.node_limit = self.ctx.nodes + node_limit
            self.ctx.next_check = self.ctx.nodes
        best.move = NO_MOVE
        best.value = 0
        best.complete = False
        # Fixed shallow searches go straight to their depth: at depth 4 the
        # earlier iterations cost more than their hash moves save (55k vs 71k
        # nodes a game). Limited searches always deepen step by step.
        first = depth if (seconds == 0 and node_limit == 0 and depth <= DIRECT_DEPTH) else 1
        for d in range(first, depth + 1):
            r = midgame_root(&self.ctx, P, O, d, -INF, INF)
            if not r.complete:
                break
            best = r
            reached[0] = d
            if r.move == NO_MOVE:          # game over: nothing deeper to find
                break
            if seconds > 0 and monotonic_seconds() - start > 0.5 * seconds:
                break
        if reached[0] == 0:
            # Not even one ply finished: any legal move beats losing on time.
            r.move = NO_MOVE
            r.value = 0
            r.complete = False
            if legal_moves(P, O):
                r.move = gt_lowest_square(legal_moves(P, O))
            elif legal_moves(O, P):
                r.move = PASS
            return r
        return best

    def search(self, Board board, depth=None, nodes=None, seconds=None, int exact_empties=0):
        """Best move for the side to move.

        Args:
            board: the position (not changed).
            depth: plies, 1..60 (default 60 when another limit is given).
            nodes: stop after about this many nodes.
            seconds: stop after this much wall time (the move is always
                legal; the last complete iteration decides).
            exact_empties: solve exactly when this many or fewer squares
                are empty.
        Returns:
            SearchResult.
        Raises:
            ValueError: without any limit, or for out-of-range limits.
        """
        if depth is None and nodes is None and seconds is None and board.empties > exact_empties:
            raise ValueError("search needs a limit: depth, nodes or seconds")
        cdef int d = 60 if depth is None else int(depth)
        if not 1 <= d <= 60:
            raise ValueError(f"search depth must be in 1..60, got {d}")
        cdef uint64_t n = 0 if nodes is None else int(nodes)
        cdef double s = 0.0 if seconds is None else float(seconds)
        if seconds is not None and s <= 0:
            raise ValueError(f"search time must be positive, got {seconds!r} seconds")
        cdef uint64_t P = board.pos.player, O = board.pos.opponent
        cdef int reached = 0
        cdef RootResult r
        cdef double t0 = monotonic_seconds()
        with nogil:
            r = self.c_best_move(P, O, d, exact_empties, n, s, &reached)
        elapsed = monotonic_seconds() - t0
        exact = reached == ENDGAME_DEPTH
        move = None if r.move == NO_MOVE else r.move
        return SearchResult(move, r.value, 64 - popcount(P | O) if exact else reached, exact,
                            self.ctx.nodes, elapsed, self._pv(P, O, move))

    def solve(self, Board board, nodes=None, seconds=None):
        """Exact best move and final disc difference (empties to the winner).

        Returns:
            SearchResult with exact=True, or exact=False (value meaningless)
            if a limit stopped the solve first.
        """
        cdef uint64_t P = board.pos.player, O = board.pos.opponent
        cdef RootResult r
        cdef double t0 = monotonic_seconds()
        self._begin(0 if nodes is None else int(nodes), 0.0 if seconds is None else float(seconds))
        with nogil:
            r = endgame_root(&self.ctx, P, O, -DISC_INF, DISC_INF)
        elapsed = monotonic_seconds() - t0
        move = None if r.move == NO_MOVE else r.move
        return SearchResult(move, r.value, 64 - popcount(P | O), bool(r.complete), self.ctx.nodes, elapsed,
                            self._pv(P, O, move) if r.complete else ())

    def window(self, Board board, int depth, int alpha, int beta) -> int:
        """The raw value of a fixed-depth search in the window (alpha, beta),
        without iterative deepening (for tests of the bound contracts)."""
        if depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        cdef uint64_t P = board.pos.player, O = board.pos.opponent
        self._begin(0, 0.0)
        cdef int v
        with nogil:
            v = midgame(&self.ctx, P, O, depth, alpha, beta, 0)
        return v

    def move_values(self, Board board, int depth, int exact_empties=0) -> list:
        """Exact (full-window) value of every legal move, best first:
        [(square, value)], from the mover's point of view; each value is the
        search of the position after the move at depth-1 (or solved exactly
        when at most exact_empties squares remain)."""
        if depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        cdef uint64_t P = board.pos.player, O = board.pos.opponent, f, cp, co
        cdef int sq, v
        cdef RootResult r
        out = []
        for sq in board.legal_moves():
            f = flips(P, O, sq)
            cp = O ^ f
            co = P | f | square_bit(sq)
            self._begin(0, 0.0)
            with nogil:
                if 64 - popcount(cp | co) <= exact_empties:
                    r = endgame_root(&self.ctx, cp, co, -DISC_INF, DISC_INF)
                    v = -r.value
                elif depth == 1:
                    v = -leaf_value(&self.ctx, cp, co, popcount(f))
                else:
                    v = -midgame(&self.ctx, cp, co, depth - 1, -INF, INF, popcount(f))
            out.append((sq, v))
        out.sort(key=lambda mv: -mv[1])
        return out

    cdef tuple _pv(self, uint64_t P, uint64_t O, object first):
        """Best line: the first move, then the table's best moves."""
        cdef TTEntry* e
        cdef uint64_t f
        cdef int sq
        line = []
        if first is None:
            return ()
        sq = first
        for _ in range(30):
            if sq == PASS:
                P, O = O, P
            elif 0 <= sq < 64 and (legal_moves(P, O) & square_bit(sq)):
                f = flips(P, O, sq)
                P, O = O ^ f, P | f | square_bit(sq)
            else:
                break
            line.append(sq)
            if legal_moves(P, O) == 0:
                if legal_moves(O, P) == 0:
                    break
                sq = PASS
                continue
            e = tt_probe(self.ctx.tt, P, O)
            if e == NULL or e.move >= 64:
                break
            sq = e.move
        return tuple(line)


def minimax(Board board, Evaluator evaluator, int depth) -> int:
    """Plain negamax without pruning, ordering or hashing: the reference that
    every search variant must agree with (same leaf and pass rules)."""
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    cdef SearchContext c
    c.w = &evaluator.w
    c.nodes = 0
    return _minimax(&c, board.pos.player, board.pos.opponent, depth, 0)


cdef int _minimax(SearchContext* c, uint64_t P, uint64_t O, int depth, int last_flips) noexcept nogil:
    cdef uint64_t moves, f
    cdef int best = -INF, v, sq
    if depth == 0:
        return leaf_value(c, P, O, last_flips)
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            return final_margin(P, O) * EVAL_WIN
        return -_minimax(c, O, P, depth, 0)
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        f = flips(P, O, sq)
        v = -_minimax(c, O ^ f, P | f | square_bit(sq), depth - 1, popcount(f))
        if v > best:
            best = v
    return best
