"""The exact endgame solver: fail-soft negascout with the transposition
table, enhanced transposition cut-offs, stability cut-offs and fastest-first
ordering while many squares are empty; a plain scan of the empties, odd
regions first, for the last few.

Values are final disc differences (empties to the winner) for the side to
move. The loops run without the GIL.
"""

from libc.stdint cimport uint64_t

from genethello.core.bitboard cimport PASS, NO_MOVE, legal_moves, flips, popcount, gt_lowest_square
from genethello.core.ttable cimport (
    TTEntry, tt_probe, tt_store, BOUND_LOWER, BOUND_UPPER, BOUND_EXACT, ENDGAME_DEPTH,
)
from genethello.core.stability cimport stable_discs
from genethello.core.move cimport MAX_MOVES, Move, Child, make_move
from genethello.core.ordering cimport insert_by_key, odd_quadrants, fastest_first_key
from genethello.core.context cimport (
    SearchContext, RootResult, DISC_INF, out_of_budget, final_margin, bound_kind, search_children,
)

cdef enum:
    SHALLOW_EMPTIES = 6          # below this the solver scans empties, no hashing
    ETC_EMPTIES = 12             # the solver probes its children's table entries from this many empties
    STABILITY_ALPHA = 0          # the solver tries a stability cut-off when alpha is at least this


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
    cdef Child child
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
            child = make_move(P, O, sq, f)
            v = -solve_shallow(c, child.player, child.opponent, -beta, -(alpha if alpha > best else best),
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


cdef int solve_deep(SearchContext* c, uint64_t P, uint64_t O, int n_empties, int alpha, int beta,
                    uint64_t last_flipped) noexcept nogil:
    """The solver below the root (the negascout loop's child search;
    `last_flipped` is not needed)."""
    return solve_node(c, P, O, alpha, beta, n_empties, NULL)


cdef inline int solve_node(SearchContext* c, uint64_t P, uint64_t O, int alpha, int beta,
                           int n_empties, int* best_move_out) noexcept nogil:
    """Fail-soft exact negascout with hashing and fastest-first ordering.
    At the root (best_move_out given, set to the best move) every move is
    searched: no table, stability or enhanced transposition cut-off, and
    among moves of equal score the first in square order is the best
    (`search_children` with its tiebreak)."""
    cdef int alpha0 = alpha, best, best_move = NO_MOVE, v, n = 0, sq, hash_move = NO_MOVE
    cdef uint64_t moves, f, odd = 0
    cdef Move listed[MAX_MOVES]
    cdef int keys[MAX_MOVES]
    cdef Child child
    cdef TTEntry* e
    if n_empties <= SHALLOW_EMPTIES:
        return solve_shallow(c, P, O, alpha, beta, n_empties)
    if out_of_budget(c):
        return 0
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            return final_margin(P, O)
        v = -solve_deep(c, O, P, n_empties, -beta, -alpha, 0)
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
            child = make_move(P, O, sq, f)
            e = tt_probe(c.tt, child.player, child.opponent)
            if e != NULL and e.depth == ENDGAME_DEPTH and e.bound != BOUND_LOWER and -e.value >= beta:
                return -e.value
        insert_by_key(keys, listed, n, fastest_first_key(P, O, sq, f, hash_move, odd), sq, f)
        n += 1
    if best_move_out != NULL:   # the root: GeneThello's tie-break
        best = search_children(c, solve_deep, P, O, listed, n, n_empties - 1, alpha, beta, -DISC_INF,
                               True, True, True, &best_move)
    else:
        best = search_children(c, solve_deep, P, O, listed, n, n_empties - 1, alpha, beta, -DISC_INF,
                               True, True, False, &best_move)
    if c.aborted:
        return 0
    tt_store(c.tt, P, O, ENDGAME_DEPTH, best, bound_kind(best, alpha0, beta), best_move)
    if best_move_out != NULL:
        best_move_out[0] = best_move
    return best


cdef RootResult endgame_root(SearchContext* c, uint64_t P, uint64_t O,
                             int alpha, int beta) noexcept nogil:
    """Exact best move and final disc difference (fail-soft in the window);
    among moves of equal score the first in square order."""
    cdef RootResult r
    cdef int n_empties = 64 - popcount(P | O), move = NO_MOVE
    cdef uint64_t moves = legal_moves(P, O), f
    cdef int sq, v
    cdef Child child
    r.complete = False
    if n_empties <= SHALLOW_EMPTIES:
        # Root of a tiny endgame: try each move with the shallow solver, in
        # square order, a later move replacing the best only when strictly
        # better (the window's alpha is the best so far: a tie fails low), so
        # the first in square order wins a tie, as search_children's tiebreak does.
        r.move = NO_MOVE
        r.value = -DISC_INF
        if moves == 0:
            r.move = PASS if legal_moves(O, P) else NO_MOVE
            r.value = solve_shallow(c, P, O, alpha, beta, n_empties) if n_empties else final_margin(P, O)
        while moves:
            sq = gt_lowest_square(moves)
            moves &= moves - 1
            f = flips(P, O, sq)
            child = make_move(P, O, sq, f)
            if n_empties == 1:
                v = -final_margin(child.player, child.opponent)
            else:
                v = -solve_shallow(c, child.player, child.opponent, -beta,
                                   -(alpha if alpha > r.value else r.value), n_empties - 1)
            if v > r.value:
                r.value = v
                r.move = sq
        r.complete = not c.aborted
        return r
    r.value = solve_node(c, P, O, alpha, beta, n_empties, &move)
    r.move = move if moves else (PASS if legal_moves(O, P) else NO_MOVE)
    r.complete = not c.aborted
    return r
