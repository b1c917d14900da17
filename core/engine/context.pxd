# What every search shares (Edax's search.h): the context a search carries
# down the tree, the value bounds, the node budget, and the negascout loop
# over a node's ordered children, written once for the midgame search and the
# exact solver, with its root variant (GeneThello's tie-break) for both roots.

from libc.stdint cimport uint64_t, int16_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from genethello.core.engine.bitboard cimport popcount, flips
from genethello.core.evaluation.evaluation cimport LeafEval, EVAL_WIN
from genethello.core.engine.ttable cimport TTable, BOUND_LOWER, BOUND_UPPER, BOUND_EXACT
from genethello.core.engine.move cimport Move, Child, make_move

cdef enum:
    INF = 65 * EVAL_WIN          # beyond any midgame value
    DISC_INF = 65                # beyond any disc difference
    CHECK_INTERVAL = 4096        # nodes between looks at the clock and the stop flag


cdef struct SearchContext:
    LeafEval evaluator         # how leaves are valued (evaluation.pxd); what it points to is the Searcher's
    TTable* tt
    uint64_t nodes
    uint64_t node_limit        # 0 = none
    uint64_t next_check        # node count at which limits are looked at next
    double deadline            # CLOCK_MONOTONIC seconds; 0 = none
    int stop                   # set by another thread to end the search early
    bint aborted               # a limit or stop ended the search; results are partial
    bint soft                  # fail-soft (else fail-hard)
    bint scout                 # negascout / PVS (else plain alpha-beta)
    bint ordering              # order moves: by static evaluation, or below a plain root by the
                               # memory of cut-offs below (else board order)
    const int16_t* order_table  # a pattern table the exact solver orders its top nodes by (NULL: none)
    int order_geometry         # its geometry
    # What the shallow searches remember of their cut-offs to order moves
    # without evaluating them (ordering.pxd): kept across a game's searches,
    # cleared by Searcher.clear(). Indexed by the position's disc count
    # (its parity tells the side to move, passes aside).
    int history[2][64]         # per side and square: cut-offs at interior nodes, 4^depth each, aged
    int refutation[64]         # per disc count: the move that last cut off at an interior node
    int leaf_killers[64][2]    # per disc count of a depth-1 node: the last two leaves that cut off
    bint plain_tree            # below the root: plain alpha-beta, no table probes, no evaluated ordering
                               # (a shallow root search, where they cost more than they save; see midgame.pyx)


cdef struct RootResult:
    int move                   # best move (PASS when the side must pass)
    int value                  # evaluation units (midgame) or discs (endgame)
    bint complete              # the iteration finished within its limits


# A search below a node: the midgame search (depth in plies) or the exact
# solver (depth = empty squares), value for the side to move P in the window
# (alpha, beta). `last_flipped` is the move that led here (the midgame's leaf
# evaluation weighs its flips; the solver ignores it).
ctypedef int (*ChildSearch)(SearchContext* c, uint64_t P, uint64_t O, int depth, int alpha, int beta,
                            uint64_t last_flipped) noexcept nogil


cdef inline double monotonic_seconds() noexcept nogil:
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


cdef inline int bound_kind(int value, int alpha0, int beta) noexcept nogil:
    """What a fail-soft value found in the window (alpha0, beta) says about
    the true value: a lower bound, an upper bound, or the value itself."""
    return BOUND_LOWER if value >= beta else (BOUND_UPPER if value <= alpha0 else BOUND_EXACT)


cdef inline int search_children(SearchContext* c, ChildSearch search, uint64_t P, uint64_t O,
                                const Move* moves, int n, int depth, int alpha, int beta, int best,
                                bint scout, bint soft, bint tiebreak, int* best_move) noexcept nogil:
    """Negascout over the n ordered moves of P (n >= 1): the first child in
    the full window; with `scout` the others in a null window first, searched
    again in the full one when they land inside it (`soft`: from the
    null-window value up, a fail-soft search's tighter bound). Each child is
    `search`ed `depth` deep (the children's depth, passed as is).

    Returns the best value, `best` if no child beats it, even outside
    (alpha, beta) (the caller clamps a fail-hard result), and sets best_move
    to its square. Stops at the first beta cut-off, and at once when the
    search is aborted (c.aborted): the value so far is then meaningless.
    Inline, so `search` is a constant at each use and the calls are direct.

    With `tiebreak` (the roots), GeneThello's rule: among moves of exactly
    equal value the first in square order (a1, b1, ..., h1, a2, ..., h8:
    the lowest square index) is the best move, whatever order the moves are
    searched in. GeneThello played that way, so its published games replay
    only under this rule; and with it a fixed-depth search's move no longer
    depends on move ordering, so speed work cannot change a run's games.
    Every caller passes a constant, so below the root the compiler drops
    the rule's test.

    How ties are resolved exactly: once the best value so far is an exact
    value inside the window (best > the caller's alpha, so alpha == best), a
    move before the best move in square order wins by equalling it, so its
    window opens one lower: (best - 1, best + 1) instead of the null window
    (best, best + 1) (plain alpha-beta: (best - 1, beta)). Inside that window
    a result of exactly best is the move's value, not a bound: a tie, settled
    by one search. Above it, the move is better, and is searched again as
    without the rule; below, it is worse. A move after the best move in
    square order must beat it. The invariant: after each move, (best, best
    move) is the greatest (value, -square) of the moves searched. Only the
    windows at the root change; the tree below is searched as ever.

    Why a window of two and not a null window at best - 1 and a re-search:
    at depth 4 the oe_fmc players' best value is tied in two positions of
    five. bench_games: 66,089 nodes a game before the rule, 70,206 with the
    null window and re-search, 69,233 with the window of two (a tie needs
    one proof that the reply cannot do better, which no window avoids).

    Values at or below the caller's alpha are bounds, not values, so ties
    among them are not resolved (the searches call the root with the full
    window)."""
    cdef int i, v, alpha0 = alpha
    cdef bint earlier
    cdef Child child
    cdef uint64_t flipped
    for i in range(n):
        # A list may leave flips to be computed here (0: not yet; a legal
        # move always turns a disc): a cut-off then spares the later moves'.
        flipped = moves[i].flipped
        if flipped == 0:
            flipped = flips(P, O, moves[i].square)
        child = make_move(P, O, moves[i].square, flipped)
        earlier = tiebreak and best > alpha0 and moves[i].square < best_move[0]
        if scout and i > 0:
            v = -search(c, child.player, child.opponent, depth, -alpha - 1, -alpha + earlier, flipped)
            if alpha < v < beta:
                v = -search(c, child.player, child.opponent, depth, -beta, -(v if soft else alpha),
                            flipped)
        else:
            v = -search(c, child.player, child.opponent, depth, -beta, -alpha + earlier, flipped)
        if c.aborted:
            return best
        if v > best or (earlier and v == best):
            best = v
            best_move[0] = moves[i].square
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best
