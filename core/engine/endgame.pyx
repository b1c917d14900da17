"""The exact endgame solver: fail-soft negascout with the transposition
table (from HASH_EMPTIES), enhanced transposition cut-offs, stability
cut-offs and fastest-first ordering — near the top of the tree also by the
children's pattern scores — while many squares are empty; below
SHALLOW_EMPTIES a scan of a list of the empties, odd quadrants first, down
to dedicated code for the last two squares and a table count of the last
move's flips. `endgame_windows` proves a score by windows of two around a
guess (every final score is even).

Values are final disc differences (empties to the winner) for the side to
move. The loops run without the GIL.
"""

from libc.stdint cimport uint64_t

from genethello.core.engine.bitboard cimport PASS, NO_MOVE, legal_moves, flips, popcount, gt_lowest_square, square_bit
from genethello.core.engine.ttable cimport (
    TTEntry, tt_probe, tt_store, tt_prefetch, BOUND_LOWER, BOUND_UPPER, BOUND_EXACT, ENDGAME_DEPTH,
)
from genethello.core.engine.stability cimport stable_discs
from genethello.core.evaluation.patterns cimport pattern_eval, PATTERN_SHIFT
from genethello.core.engine.move cimport MAX_MOVES, Move, Child, make_move
from genethello.core.engine.ordering cimport (
    insert_by_key, odd_quadrants, fastest_first_key, SQUARE_CLASS, NEIGHBOUR, quadrant_bit,
)
from genethello.core.engine.context cimport (
    SearchContext, RootResult, DISC_INF, out_of_budget, final_margin, bound_kind, search_children,
)

cdef extern from *:
    """
    /* Counting the last move's flips without playing it (the board is full
       but for one square, so every square that is not the mover's is the
       opponent's). Each of the four lines through the square is gathered
       into a byte, the square's column (its row for a column) being its
       place in the byte; GT_LINE_FLIPS[place][byte] is the discs the mover
       turns on that line. Gathered diagonals hold zeros off the board: they
       read as opponent discs past the line's end, where no own disc can
       close a run, so they never count. */
    static unsigned char GT_LINE_FLIPS[8][256];
    static uint64_t GT_DIAG9[64], GT_DIAG7[64];

    static void gt_init_last_flips(void) {
        for (int place = 0; place < 8; place++)
            for (int line = 0; line < 256; line++) {
                int total = 0, run = 0, j;
                for (j = place - 1; j >= 0 && !((line >> j) & 1); j--) run++;
                if (j >= 0) total += run;
                run = 0;
                for (j = place + 1; j < 8 && !((line >> j) & 1); j++) run++;
                if (j < 8) total += run;
                GT_LINE_FLIPS[place][line] = (unsigned char)total;
            }
        for (int sq = 0; sq < 64; sq++) {
            int r = sq >> 3, c = sq & 7;
            GT_DIAG9[sq] = GT_DIAG7[sq] = 0;
            for (int k = -7; k <= 7; k++) {
                if (r + k >= 0 && r + k < 8 && c + k >= 0 && c + k < 8)
                    GT_DIAG9[sq] |= 1ULL << ((r + k) * 8 + c + k);
                if (r + k >= 0 && r + k < 8 && c - k >= 0 && c - k < 8)
                    GT_DIAG7[sq] |= 1ULL << ((r + k) * 8 + c - k);
            }
        }
    }

    /* Discs `mover` turns by playing `sq`, the only empty square. */
    static inline int gt_last_flips(uint64_t mover, int sq) {
        const int r = sq >> 3, c = sq & 7;
        const uint64_t file_a = 0x0101010101010101ULL;
        int n = GT_LINE_FLIPS[c][(mover >> (r * 8)) & 0xFF];
        n += GT_LINE_FLIPS[r][(((mover >> c) & file_a) * 0x0102040810204080ULL) >> 56];
        n += GT_LINE_FLIPS[c][((mover & GT_DIAG9[sq]) * file_a) >> 56];
        n += GT_LINE_FLIPS[c][((mover & GT_DIAG7[sq]) * file_a) >> 56];
        return n;
    }
    """
    void gt_init_last_flips() noexcept nogil
    int last_flips "gt_last_flips" (uint64_t mover, int sq) noexcept nogil

gt_init_last_flips()


cdef enum:
    SHALLOW_EMPTIES = 6          # below this the solver scans empties, no hashing
    EVAL_ORDER_WEIGHT = 2        # nodes of EVAL_ORDER_EMPTIES or more also weigh their children's
                                 # pattern scores, this much a disc (16 = one reply less): FFO #40-#44
                                 # 293 M -> 192 M nodes (weights 1, 3, 4, 8, 16: 202, 188, 200, 226, 261 M)
    ETC_EMPTIES = 12             # the solver probes its children's table entries from this many empties
    STABILITY_ALPHA = 0          # the solver tries a stability cut-off when alpha is at least this


cdef inline int last_move_margin(SearchContext* c, uint64_t P, uint64_t O, int x) noexcept nogil:
    """Exact score with one empty square, x: P plays it if it can, else O
    does, else the game ends with x going to the winner. Only the flips are
    counted; nothing is played."""
    cdef int p = popcount(P)
    cdef int n = last_flips(P, x)
    c.nodes += 1
    if n:
        return 2 * (p + n) - 62                    # P: p + n + 1 discs, O: 63 - p - n
    n = last_flips(O, x)
    if n:
        return 2 * (p - n) - 64                    # P: p - n discs, O: 64 - p + n
    return 2 * p - 62 if p >= 32 else 2 * p - 64   # x to the winner


cdef int solve_2(SearchContext* c, uint64_t P, uint64_t O, int alpha, int beta, int x1, int x2) noexcept nogil:
    """Exact fail-soft score with two empty squares, x1 tried first."""
    cdef uint64_t f
    cdef int v, best = -DISC_INF
    c.nodes += 1
    f = flips(P, O, x1) if NEIGHBOUR[x1] & O else 0
    if f:
        best = -last_move_margin(c, O ^ f, P | f | square_bit(x1), x2)
        if best >= beta:
            return best
    f = flips(P, O, x2) if NEIGHBOUR[x2] & O else 0
    if f:
        v = -last_move_margin(c, O ^ f, P | f | square_bit(x2), x1)
        return v if v > best else best
    if best > -DISC_INF:
        return best
    # P passes; O picks the lower of its moves (P's value throughout).
    best = DISC_INF
    f = flips(O, P, x1) if NEIGHBOUR[x1] & P else 0
    if f:
        best = last_move_margin(c, P ^ f, O | f | square_bit(x1), x2)
        if best <= alpha:
            return best
    f = flips(O, P, x2) if NEIGHBOUR[x2] & P else 0
    if f:
        v = last_move_margin(c, P ^ f, O | f | square_bit(x2), x1)
        return v if v < best else best
    if best < DISC_INF:
        return best
    return final_margin(P, O)


cdef int solve_shallow(SearchContext* c, uint64_t P, uint64_t O, int alpha, int beta,
                       const int* squares, int n, int odd) noexcept nogil:
    """Exact fail-soft score with the n (3..SHALLOW_EMPTIES) empty squares
    listed in `squares`: no table, no ordering beyond parity. Squares in
    quadrants with an odd number of empties (`odd`, one bit a quadrant) are
    tried first, each group in list order (the last move of an odd region
    is worth having); a child's quadrant parity is one bit flip away."""
    cdef int rest[SHALLOW_EMPTIES]
    cdef int best = -DISC_INF, v, i, j, k, x, stage
    cdef uint64_t f
    if out_of_budget(c):
        return 0
    for stage in range(2):
        for i in range(n):
            x = squares[i]
            if ((odd & quadrant_bit(x)) == 0) == (stage == 0) or not (NEIGHBOUR[x] & O):
                continue
            f = flips(P, O, x)
            if f == 0:
                continue
            k = 0
            for j in range(n):
                if j != i:
                    rest[k] = squares[j]
                    k += 1
            if n == 3:
                v = -solve_2(c, O ^ f, P | f | square_bit(x), -beta, -(alpha if alpha > best else best),
                             rest[0], rest[1])
            else:
                v = -solve_shallow(c, O ^ f, P | f | square_bit(x), -beta, -(alpha if alpha > best else best),
                                   rest, n - 1, odd ^ quadrant_bit(x))
            if v > best:
                best = v
                if v >= beta:
                    return v
    if best == -DISC_INF:
        if legal_moves(O, P) == 0:
            return final_margin(P, O)
        return -solve_shallow(c, O, P, -beta, -alpha, squares, n, odd)
    return best


cdef int solve_few(SearchContext* c, uint64_t P, uint64_t O, int alpha, int beta, int n_empties) noexcept nogil:
    """Exact fail-soft score with at most SHALLOW_EMPTIES empties: the empty
    squares listed once, the classic square classes first (corners, then A
    and B squares, X-squares last), for the shallow solvers to pass down."""
    cdef uint64_t empty = ~(P | O)
    cdef int squares[SHALLOW_EMPTIES]
    cdef int keys[SHALLOW_EMPTIES]
    cdef int n = 0, i, x, odd = 0
    if n_empties == 0:
        c.nodes += 1
        return final_margin(P, O)
    while empty:
        x = gt_lowest_square(empty)
        empty &= empty - 1
        i = n
        while i > 0 and keys[i - 1] < SQUARE_CLASS[x]:
            keys[i] = keys[i - 1]
            squares[i] = squares[i - 1]
            i -= 1
        keys[i] = SQUARE_CLASS[x]
        squares[i] = x
        n += 1
    if n == 1:
        return last_move_margin(c, P, O, squares[0])
    if n == 2:
        return solve_2(c, P, O, alpha, beta, squares[0], squares[1])
    for i in range(n):
        odd ^= quadrant_bit(squares[i])
    return solve_shallow(c, P, O, alpha, beta, squares, n, odd)


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
    cdef int alpha0 = alpha, best, best_move = NO_MOVE, v, n = 0, sq, hash_move = NO_MOVE, key
    cdef uint64_t moves, f, odd = 0
    cdef Move listed[MAX_MOVES]
    cdef int keys[MAX_MOVES]
    cdef Child child
    cdef TTEntry* e
    if n_empties <= SHALLOW_EMPTIES:
        return solve_few(c, P, O, alpha, beta, n_empties)
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
    if alpha >= STABILITY_ALPHA and best_move_out == NULL and 64 - 2 * popcount(O) <= alpha:
        # The opponent keeps its stable discs: P cannot score above this.
        # (Its stable discs are some of its discs: with too few discs in
        # all, no count of stable ones can cut, so they go uncounted.)
        v = 64 - 2 * popcount(stable_discs(O, P))
        if v <= alpha:
            return v
    e = tt_probe(c.tt, P, O) if n_empties >= HASH_EMPTIES or best_move_out != NULL else NULL
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
        child = make_move(P, O, sq, f)
        if n_empties >= ETC_EMPTIES and best_move_out == NULL:
            # Enhanced transposition cut-off: a child already known to be
            # bad enough for the opponent refutes this node without a search.
            e = tt_probe(c.tt, child.player, child.opponent)
            if e != NULL and e.depth == ENDGAME_DEPTH and e.bound != BOUND_LOWER and -e.value >= beta:
                return -e.value
        elif n_empties > HASH_EMPTIES:
            tt_prefetch(c.tt, child.player, child.opponent)
        key = fastest_first_key(P, O, sq, f, hash_move, odd)
        if n_empties >= EVAL_ORDER_EMPTIES and c.order_table != NULL:
            key += EVAL_ORDER_WEIGHT * (pattern_eval(c.order_table, c.order_geometry, child.opponent, child.player)
                                        >> PATTERN_SHIFT)
        insert_by_key(keys, listed, n, key, sq, f)
        n += 1
    if best_move_out != NULL:   # the root: GeneThello's tie-break
        best = search_children(c, solve_deep, P, O, listed, n, n_empties - 1, alpha, beta, -DISC_INF,
                               True, True, True, &best_move)
    else:
        best = search_children(c, solve_deep, P, O, listed, n, n_empties - 1, alpha, beta, -DISC_INF,
                               True, True, False, &best_move)
    if c.aborted:
        return 0
    if n_empties >= HASH_EMPTIES or best_move_out != NULL:
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
            r.value = solve_few(c, P, O, alpha, beta, n_empties)
        while moves:
            sq = gt_lowest_square(moves)
            moves &= moves - 1
            f = flips(P, O, sq)
            child = make_move(P, O, sq, f)
            v = -solve_few(c, child.player, child.opponent, -beta, -(alpha if alpha > r.value else r.value),
                           n_empties - 1)
            if v > r.value:
                r.value = v
                r.move = sq
        r.complete = not c.aborted
        return r
    r.value = solve_node(c, P, O, alpha, beta, n_empties, &move)
    r.move = move if moves else (PASS if legal_moves(O, P) else NO_MOVE)
    r.complete = not c.aborted
    return r


cdef RootResult endgame_windows(SearchContext* c, uint64_t P, uint64_t O, int guess) noexcept nogil:
    """Exact best move and score by windows of two around a guess. Every
    final score is even (64 squares; the empties go to the winner), so the
    window (g - 1, g + 1) either proves the score is g, the best move found
    with the root's tie-break among the moves worth g, or returns a bound
    beyond g, which is the next guess (MTD(f), the table kept from window to
    window). A narrow window prunes far more than the full one: FFO #40-#44
    with their true scores as guesses take 30% fewer nodes."""
    cdef RootResult r
    cdef int g = guess - (guess & 1)
    if g > 64:
        g = 64
    elif g < -64:
        g = -64
    while True:
        r = endgame_root(c, P, O, g - 1, g + 1)
        if not r.complete or g - 1 < r.value < g + 1:
            return r
        g = r.value
