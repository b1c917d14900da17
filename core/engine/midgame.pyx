"""The midgame search: negamax alpha-beta and negascout, fail-hard and
fail-soft, with the transposition table and move ordering, to a fixed depth.

Values are evaluation units for the side to move; a decided game is worth
EVAL_WIN per disc of its final margin. A pass does not use up depth. The
loops run without the GIL.

Where evolution spends its time (depth-4 games): roots that shallow search
plainly (PLAIN_ROOT_DEPTH), ordering interior moves by the history of
cut-offs and depth-1 nodes' leaves by their killers (ordering.pxd), and a
depth-1 node values its leaves in place (children_are_leaves).
"""

from libc.stdint cimport uint64_t

from genethello.core.engine.bitboard cimport (
    PASS, NO_MOVE, legal_moves, flips, popcount, gt_lowest_square, square_bit, moves_in_direction,
)
from genethello.core.evaluation.evaluation cimport (
    EVAL_WIN, LeafFrame, children_frame, leaf_partial, leaf_complete, clamp_evaluation,
)
from genethello.core.engine.ttable cimport TTEntry, tt_probe, tt_store, BOUND_LOWER, BOUND_UPPER, BOUND_EXACT
from genethello.core.engine.move cimport MAX_MOVES, Move, Child, make_move, list_moves, list_squares
from genethello.core.engine.ordering cimport (
    order_moves, order_from_memory, remember_cutoff, leaf_killer_mask, remember_leaf_killer,
)
from genethello.core.engine.context cimport (
    SearchContext, RootResult, INF, out_of_budget, final_margin, clamp, bound_kind, search_children,
)

cdef enum:
    EVAL_ORDER_DEPTH = 4         # nodes this deep order moves by evaluation; shallower by square class
    HASH_DEPTH = 3               # nodes this deep use the transposition table
    SCOUT_DEPTH = 3              # negascout's null windows from this depth (shallower: plain alpha-beta)
    ORDER_DEPTH = 3              # nodes this deep order their moves; at depth 2 sorting cost more than
                                 # it saved (bench_games: 472 -> 496 games/s, 4% more nodes)


cdef inline bint surely_has_move(uint64_t P, uint64_t O) noexcept nogil:
    """A cheap proof that P can move: a move along a column (one direction
    of the eight, no edge masks). False proves nothing."""
    return (moves_in_direction(P, O, 8) & ~(P | O)) != 0


cdef int children_are_leaves(SearchContext* c, uint64_t P, uint64_t O, uint64_t moves, int beta) noexcept nogil:
    """Fail-soft value of a depth-1 node (P to move, `moves` its legal
    moves): the best of its leaves, stopping at the first one >= beta.
    With ordering on, the leaves that last cut off at this disc count go
    first (leaf killers: the cheapest ordering there is, and it saves a
    fifth of bench_games' leaves), the rest in square order.

    A leaf's evaluation is a partial value less the mobility weight times
    the opponent's move count (evaluation.pxd's leaf frame). With a mobility
    weight >= 0 the partial value (plus the frame's slack: a network's
    largest mobility entry) bounds the leaf from above (clamping is
    monotone), so a leaf whose bound is no better than the best so far
    cannot change the node's value or cause its cut-off: its replies are not
    generated. The one exception is a leaf where the game is over (its value
    is the final margin, which no evaluation bounds): a leaf is skipped only
    when a cheap test shows its side to move has a move (surely_has_move),
    else it is valued in full. Skipping changes nothing but the node count
    (about 1% fewer leaves valued)."""
    cdef int discs = popcount(P | O)
    cdef LeafFrame frame = children_frame(&c.evaluator, P, O)
    cdef int v, raw, best = -INF, sq
    cdef uint64_t f, replies
    cdef uint64_t first = moves & leaf_killer_mask(c, discs) if c.ordering else 0
    cdef uint64_t rest = moves ^ first
    cdef Child child
    while first | rest:
        if first:
            sq = gt_lowest_square(first)
            first &= first - 1
        else:
            sq = gt_lowest_square(rest)
            rest &= rest - 1
        f = flips(P, O, sq)
        child = make_move(P, O, sq, f)
        raw = leaf_partial(&c.evaluator, &frame, child.opponent, child.player, f, square_bit(sq))
        if (frame.mobility_weight >= 0 and clamp_evaluation(raw + frame.partial_slack) <= best
                and surely_has_move(child.player, child.opponent)):
            continue
        c.nodes += 1
        replies = legal_moves(child.player, child.opponent)
        if replies == 0 and legal_moves(child.opponent, child.player) == 0:
            v = -final_margin(child.player, child.opponent) * EVAL_WIN
        else:
            v = leaf_complete(&frame, raw, replies)
        if v > best:
            best = v
            if v >= beta:
                if c.ordering:
                    remember_leaf_killer(c, discs, sq)
                break
    return best


cdef int midgame(SearchContext* c, uint64_t P, uint64_t O, int depth, int alpha, int beta,
                 uint64_t last_flipped) noexcept nogil:
    """Negamax value of P to move, `depth` plies deep, in the window
    (alpha, beta) under the context's algorithm."""
    cdef int best = -INF, best_move = NO_MOVE, v, n, hash_move = NO_MOVE, discs
    cdef bint memory
    cdef uint64_t moves
    cdef Move listed[MAX_MOVES]
    cdef TTEntry* e
    if depth == 0:
        v = leaf_value(c, P, O, last_flipped)
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
        best = children_are_leaves(c, P, O, moves, beta)
        return best if c.soft else clamp(best, alpha, beta)

    # Below a plain root (c.plain_tree) no probes, evaluated ordering or null
    # windows; moves are ordered from the memory of earlier cut-offs, and
    # results are stored as ever: the principal variation (and so the
    # ponderer's predicted reply) is read back from the table.
    e = tt_probe(c.tt, P, O) if depth >= HASH_DEPTH and not c.plain_tree else NULL
    if e != NULL:
        hash_move = e.move
        if e.depth == depth:
            if e.bound == BOUND_EXACT or (e.bound == BOUND_LOWER and e.value >= beta) or (
                    e.bound == BOUND_UPPER and e.value <= alpha):
                return e.value if c.soft else clamp(e.value, alpha, beta)

    memory = c.ordering and c.plain_tree        # order by the cut-offs remembered (ordering.pxd)
    discs = popcount(P | O) if memory else 0
    if c.ordering and depth >= ORDER_DEPTH and not c.plain_tree:
        n = order_moves(c, P, O, moves, hash_move, depth >= EVAL_ORDER_DEPTH, listed)
    else:
        n = list_squares(moves, listed)
        if memory:
            order_from_memory(c, discs, listed, n)
    best = search_children(c, midgame, P, O, listed, n, depth - 1, alpha, beta, best,
                           c.scout and depth >= SCOUT_DEPTH and not c.plain_tree, c.soft, False, &best_move)
    if c.aborted:
        return 0
    if memory and best >= beta:
        remember_cutoff(c, discs, depth, best_move)
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


cdef int minimax_value(SearchContext* c, uint64_t P, uint64_t O, int depth, uint64_t last_flipped) noexcept nogil:
    """Plain negamax, every move in board order, no pruning: the reference
    that every search variant must agree with (same leaf and pass rules)."""
    cdef uint64_t moves, f
    cdef int best = -INF, v, sq
    cdef Child child
    if depth == 0:
        return leaf_value(c, P, O, last_flipped)
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
        v = -minimax_value(c, child.player, child.opponent, depth - 1, f)
        if v > best:
            best = v
    return best
