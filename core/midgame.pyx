"""The midgame search: negamax alpha-beta and negascout, fail-hard and
fail-soft, with the transposition table and move ordering, to a fixed depth.

Values are evaluation units for the side to move; a decided game is worth
EVAL_WIN per disc of its final margin. A pass does not use up depth. The
loops run without the GIL.
"""

from libc.stdint cimport uint64_t

from genethello.core.bitboard cimport (
    PASS, NO_MOVE, CORNERS, legal_moves, flips, popcount, gt_lowest_square, square_bit,
)
from genethello.core.evaluation cimport EVAL_WIN
from genethello.core.ttable cimport TTEntry, tt_probe, tt_store, BOUND_LOWER, BOUND_UPPER, BOUND_EXACT
from genethello.core.move cimport MAX_MOVES, Move, Child, make_move, list_moves
from genethello.core.ordering cimport order_moves
from genethello.core.context cimport (
    SearchContext, RootResult, INF, out_of_budget, final_margin, clamp, bound_kind, search_children,
)

cdef enum:
    EVAL_ORDER_DEPTH = 4         # nodes this deep order moves by evaluation; shallower by square class
    HASH_DEPTH = 3               # nodes this deep use the transposition table
    SCOUT_DEPTH = 3              # negascout's null windows from this depth (shallower: plain alpha-beta)
    ORDER_DEPTH = 3              # nodes this deep order their moves; at depth 2 sorting cost more than
                                 # it saved (bench_games: 472 -> 496 games/s, 4% more nodes)


cdef int midgame(SearchContext* c, uint64_t P, uint64_t O, int depth, int alpha, int beta,
                 uint64_t last_flipped) noexcept nogil:
    """Negamax value of P to move, `depth` plies deep, in the window
    (alpha, beta) under the context's algorithm."""
    cdef int best = -INF, best_move = NO_MOVE, v, n, hash_move = NO_MOVE, sq, move_number, corners
    cdef uint64_t moves, f
    cdef Move listed[MAX_MOVES]
    cdef Child child
    cdef TTEntry* e
    if depth == 0:
        v = leaf_value(c, P, O, popcount(last_flipped))
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
        # Children are leaves: evaluate them in place, with the counts they
        # share (one disc more than here; corners are never flipped).
        move_number = popcount(P | O) - 3
        corners = popcount(P & CORNERS) - popcount(O & CORNERS)
        while moves:
            sq = gt_lowest_square(moves)
            moves &= moves - 1
            f = flips(P, O, sq)
            child = make_move(P, O, sq, f)
            v = -leaf_value_counted(c, child.player, child.opponent, popcount(f), move_number,
                                    corners + (1 if square_bit(sq) & CORNERS else 0))
            if v > best:
                best = v
                if v >= beta:
                    break
        return best if c.soft else clamp(best, alpha, beta)

    # Below a plain root (c.plain_tree) no probes, ordering or null windows;
    # results are stored as ever: the principal variation (and so the
    # ponderer's predicted reply) is read back from the table.
    e = tt_probe(c.tt, P, O) if depth >= HASH_DEPTH and not c.plain_tree else NULL
    if e != NULL:
        hash_move = e.move
        if e.depth == depth:
            if e.bound == BOUND_EXACT or (e.bound == BOUND_LOWER and e.value >= beta) or (
                    e.bound == BOUND_UPPER and e.value <= alpha):
                return e.value if c.soft else clamp(e.value, alpha, beta)

    if c.ordering and depth >= ORDER_DEPTH and not c.plain_tree:
        n = order_moves(c, P, O, moves, hash_move, depth >= EVAL_ORDER_DEPTH, listed)
    else:
        n = list_moves(P, O, moves, listed)
    best = search_children(c, midgame, P, O, listed, n, depth - 1, alpha, beta, best,
                           c.scout and depth >= SCOUT_DEPTH and not c.plain_tree, c.soft, False, &best_move)
    if c.aborted:
        return 0
    if depth >= HASH_DEPTH:
        tt_store(c.tt, P, O, depth, best, bound_kind(best, alpha, beta), best_move)
    return best if c.soft else clamp(best, alpha, beta)


cdef RootResult midgame_root(SearchContext* c, uint64_t P, uint64_t O, int depth,
                             int alpha, int beta) noexcept nogil:
    """Best move and value at `depth` (>= 1) in the window (alpha, beta):
    every move ordered by evaluation, null windows at any depth; among moves
    of equal value the first in square order (`search_children` with its tiebreak)."""
    cdef RootResult r
    cdef int n, hash_move = NO_MOVE
    cdef uint64_t moves = legal_moves(P, O)
    cdef Move listed[MAX_MOVES]
    cdef TTEntry* e
    r.move = NO_MOVE
    r.value = -INF
    r.complete = False
    c.nodes += 1
    c.plain_tree = depth <= PLAIN_ROOT_DEPTH
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
    if c.ordering and not c.plain_tree:
        n = order_moves(c, P, O, moves, hash_move, True, listed)
    else:
        # In square order the tie-break costs nothing: no move searched
        # later can tie its way to best, so none needs the wider window.
        n = list_moves(P, O, moves, listed)
    r.value = search_children(c, midgame, P, O, listed, n, depth - 1, alpha, beta, r.value,
                              c.scout and not c.plain_tree, c.soft, True, &r.move)
    if c.aborted:
        return r
    if not c.soft:
        r.value = clamp(r.value, alpha, beta)
    tt_store(c.tt, P, O, depth, r.value, bound_kind(r.value, alpha, beta), r.move)
    r.complete = True
    return r


cdef int minimax_value(SearchContext* c, uint64_t P, uint64_t O, int depth, int last_flips) noexcept nogil:
    """Plain negamax, every move in board order, no pruning: the reference
    that every search variant must agree with (same leaf and pass rules)."""
    cdef uint64_t moves, f
    cdef int best = -INF, v, sq
    cdef Child child
    if depth == 0:
        return leaf_value(c, P, O, last_flips)
    moves = legal_moves(P, O)
    if moves == 0:
        if legal_moves(O, P) == 0:
            return final_margin(P, O) * EVAL_WIN
        return -minimax_value(c, O, P, depth, 0)
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        f = flips(P, O, sq)
        child = make_move(P, O, sq, f)
        v = -minimax_value(c, child.player, child.opponent, depth - 1, popcount(f))
        if v > best:
            best = v
    return best
