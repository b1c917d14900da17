# Move ordering (Edax's move.c evaluates its move lists the same way): which
# child to search first. The midgame orders by the mover's static evaluation
# (or, near the leaves, by square class); the exact solver orders fastest
# first. All inline: a node orders its moves in its own loop, without a call.

from libc.stdint cimport uint64_t
from genethello.core.engine.bitboard cimport (
    legal_moves, flips, popcount, square_bit, gt_lowest_square, CORNERS, NOT_FILE_A, NOT_FILE_H,
)
from genethello.core.evaluation.evaluation cimport evaluate_leaf
from genethello.core.engine.context cimport SearchContext, INF
from genethello.core.engine.move cimport MAX_MOVES, Move, Child, make_move

cdef extern from *:
    """
    /* Cheap move ordering for shallow nodes: corners, then A/B edge squares,
       inner squares, C-squares, X-squares last (the classic square classes). */
    static const int GT_SQUARE_CLASS[64] = {
        8, 1, 5, 4, 4, 5, 1, 8,
        1, 0, 3, 3, 3, 3, 0, 1,
        5, 3, 4, 3, 3, 4, 3, 5,
        4, 3, 3, 3, 3, 3, 3, 4,
        4, 3, 3, 3, 3, 3, 3, 4,
        5, 3, 4, 3, 3, 4, 3, 5,
        1, 0, 3, 3, 3, 3, 0, 1,
        8, 1, 5, 4, 4, 5, 1, 8,
    };
    /* Quadrants a1-d4, e1-h4, a5-d8, e5-h8, for parity ordering in the endgame. */
    static const uint64_t GT_QUADRANT[4] = {
        0x000000000F0F0F0FULL, 0x00000000F0F0F0F0ULL, 0x0F0F0F0F00000000ULL, 0xF0F0F0F000000000ULL,
    };
    /* The squares next to each square: a move there can only turn discs
       when one of them is the opponent's. */
    static const uint64_t GT_NEIGHBOUR[64] = {
        0x0000000000000302ULL, 0x0000000000000705ULL, 0x0000000000000E0AULL, 0x0000000000001C14ULL,
        0x0000000000003828ULL, 0x0000000000007050ULL, 0x000000000000E0A0ULL, 0x000000000000C040ULL,
        0x0000000000030203ULL, 0x0000000000070507ULL, 0x00000000000E0A0EULL, 0x00000000001C141CULL,
        0x0000000000382838ULL, 0x0000000000705070ULL, 0x0000000000E0A0E0ULL, 0x0000000000C040C0ULL,
        0x0000000003020300ULL, 0x0000000007050700ULL, 0x000000000E0A0E00ULL, 0x000000001C141C00ULL,
        0x0000000038283800ULL, 0x0000000070507000ULL, 0x00000000E0A0E000ULL, 0x00000000C040C000ULL,
        0x0000000302030000ULL, 0x0000000705070000ULL, 0x0000000E0A0E0000ULL, 0x0000001C141C0000ULL,
        0x0000003828380000ULL, 0x0000007050700000ULL, 0x000000E0A0E00000ULL, 0x000000C040C00000ULL,
        0x0000030203000000ULL, 0x0000070507000000ULL, 0x00000E0A0E000000ULL, 0x00001C141C000000ULL,
        0x0000382838000000ULL, 0x0000705070000000ULL, 0x0000E0A0E0000000ULL, 0x0000C040C0000000ULL,
        0x0003020300000000ULL, 0x0007050700000000ULL, 0x000E0A0E00000000ULL, 0x001C141C00000000ULL,
        0x0038283800000000ULL, 0x0070507000000000ULL, 0x00E0A0E000000000ULL, 0x00C040C000000000ULL,
        0x0302030000000000ULL, 0x0705070000000000ULL, 0x0E0A0E0000000000ULL, 0x1C141C0000000000ULL,
        0x3828380000000000ULL, 0x7050700000000000ULL, 0xE0A0E00000000000ULL, 0xC040C00000000000ULL,
        0x0203000000000000ULL, 0x0507000000000000ULL, 0x0A0E000000000000ULL, 0x141C000000000000ULL,
        0x2838000000000000ULL, 0x5070000000000000ULL, 0xA0E0000000000000ULL, 0x40C0000000000000ULL
    };
    """
    const int SQUARE_CLASS "GT_SQUARE_CLASS" [64]
    const uint64_t QUADRANT "GT_QUADRANT" [4]
    const uint64_t NEIGHBOUR "GT_NEIGHBOUR" [64]

cdef inline int quadrant_bit(int sq) noexcept nogil:
    """The quadrant of a square as one bit (a1-d4 1, e1-h4 2, a5-d8 4,
    e5-h8 8): the exact solver keeps the odd quadrants as 4 bits and flips
    one bit a move. Bit 5 of the square is its row's half, bit 2 its column's."""
    return 1 << (((sq >> 5) << 1) | ((sq >> 2) & 1))


cdef enum:
    HASH_MOVE_KEY = 1 << 20      # the solver's key for the table's move: above any other
    POTMOB_WEIGHT = 4            # solver ordering: one reply = 16, one square of potential mobility = 4
                                 # (FFO #40-#44: 366.7M -> 310.6M nodes)


cdef inline void insert_by_key(int* keys, Move* moves, int n, int key, int sq, uint64_t f) noexcept nogil:
    """Insert a move into the first n entries, kept sorted by key, highest
    first; equal keys keep their arrival order (a stable insertion sort:
    at most ~30 moves, so nothing faster pays)."""
    cdef int i = n
    while i > 0 and keys[i - 1] < key:
        keys[i] = keys[i - 1]
        moves[i] = moves[i - 1]
        i -= 1
    keys[i] = key
    moves[i].square = sq
    moves[i].flipped = f


cdef inline int order_moves(SearchContext* c, uint64_t P, uint64_t O, uint64_t moves, int hash_move,
                            bint by_eval, Move* out) noexcept nogil:
    """Fill `out` with the moves, hash move first, then the rest by the
    mover's static evaluation (by_eval) or by square class, best first.
    Returns the count."""
    cdef int n = 0, sq, key
    cdef int keys[MAX_MOVES]
    cdef uint64_t f
    cdef Child child
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        f = flips(P, O, sq)
        if sq == hash_move:
            key = INF
        elif not by_eval:
            key = SQUARE_CLASS[sq]
        else:
            child = make_move(P, O, sq, f)
            key = evaluate_leaf(&c.evaluator, child.opponent, child.player, f,
                                legal_moves(child.player, child.opponent))
        insert_by_key(keys, out, n, key, sq, f)
        n += 1
    return n


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


cdef inline int fastest_first_key(uint64_t P, uint64_t O, int sq, uint64_t f, int hash_move,
                                  uint64_t odd) noexcept nogil:
    """The solver's ordering key of a move (higher first): the table's move
    first, then fewest replies for the opponent (corner replies count
    twice), fewest empty squares next to our discs (the opponent's potential
    mobility), corners and moves into odd regions favoured."""
    cdef Child child
    cdef uint64_t replies
    if sq == hash_move:
        return HASH_MOVE_KEY
    child = make_move(P, O, sq, f)
    replies = legal_moves(child.player, child.opponent)
    return (-16 * (popcount(replies) + popcount(replies & CORNERS))
            + (8 if square_bit(sq) & CORNERS else 0) - popcount(f)
            + (4 if square_bit(sq) & odd else 0)
            - POTMOB_WEIGHT * popcount(neighbours(child.opponent) & ~(child.player | child.opponent)))


# Ordering from memory, for the shallow plain searches (midgame.pyx): a depth-4
# root cannot afford to evaluate moves to order them (each evaluation costs a
# leaf), but cut-offs repeat from node to node, so the squares that refuted
# the siblings are tried first. Only node counts change: a node's value is
# the same in any order, and the root's tie-break makes its move so too.

cdef enum:
    HISTORY_AGE_SHIFT = 4        # each search starts from history / 16 (bench_games nodes: /4 and
                                 # /32 alike; cleared at every search: 4% more nodes)


cdef inline void age_history(SearchContext* c) noexcept nogil:
    """At the start of a search: earlier searches' counts fade, so the
    moves refuting this position's neighbours decide."""
    cdef int side, sq
    for side in range(2):
        for sq in range(64):
            c.history[side][sq] >>= HISTORY_AGE_SHIFT


cdef inline void order_from_memory(SearchContext* c, int discs, Move* moves, int n) noexcept nogil:
    """Order the listed moves of an interior node of `discs` discs: the move
    that last cut off at this disc count first, then by the side's history,
    highest first (stable: square order among equals)."""
    cdef const int* history = c.history[discs & 1]
    cdef int refutation = c.refutation[discs & 63]
    cdef int i, j
    cdef Move m
    for i in range(1, n):
        m = moves[i]
        j = i
        while j > 0 and history[moves[j - 1].square] < history[m.square]:
            moves[j] = moves[j - 1]
            j -= 1
        moves[j] = m
    for i in range(1, n):
        if moves[i].square == refutation:
            m = moves[i]
            while i > 0:
                moves[i] = moves[i - 1]
                i -= 1
            moves[0] = m
            return


cdef inline void remember_cutoff(SearchContext* c, int discs, int depth, int move) noexcept nogil:
    """An interior node of `discs` discs, `depth` deep, cut off with `move`."""
    c.history[discs & 1][move] += 1 << (2 * depth)
    c.refutation[discs & 63] = move


cdef inline uint64_t leaf_killer_mask(SearchContext* c, int discs) noexcept nogil:
    """The leaves to value first at a depth-1 node of `discs` discs."""
    return square_bit(c.leaf_killers[discs & 63][0]) | square_bit(c.leaf_killers[discs & 63][1])


cdef inline void remember_leaf_killer(SearchContext* c, int discs, int sq) noexcept nogil:
    """A depth-1 node of `discs` discs cut off at leaf `sq`."""
    cdef int* killers = c.leaf_killers[discs & 63]
    if killers[0] != sq:
        killers[1] = killers[0]
        killers[0] = sq
