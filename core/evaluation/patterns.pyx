"""Edge and corner patterns: the Python face of ``patterns.pxd``.

Batch functions for learning and for the ``patterns`` commands: the 16
pattern indices of many positions at once, their scores under a table, the
replay of whole game records into (mover, other) positions, and the simple
predictors (discs, mobility, square weights) the pattern score is compared
with. See ``patterns.pxd`` for the shapes, the index rule and the stages.
"""

import numpy as np

from libc.stdint cimport uint64_t, int16_t, int8_t, uint8_t, int32_t, int64_t
from genethello.core.engine.bitboard cimport PASS, START_BLACK, START_WHITE, legal_moves, flips, popcount, square_bit
from genethello.core.engine.move cimport Child, make_move

SHAPES = (
    # name, squares (0..63, read in this order from the transformed board),
    # the transforms of its instances, its table offset and size.
    ("edge+2X", (0, 1, 2, 3, 4, 5, 6, 7, 9, 14), ("id", "v", "t", "tv"), EDGE_OFFSET, EDGE_SIZE),
    ("corner3x3", (0, 1, 2, 8, 9, 10, 16, 17, 18), ("id", "v", "h", "hv"), C33_OFFSET, C33_SIZE),
    ("corner2x5", (0, 1, 2, 3, 4, 8, 9, 10, 11, 12),
     ("id", "v", "h", "hv", "t", "tv", "th", "thv"), C25_OFFSET, C25_SIZE),
)
"""The pattern shapes; instance k of the 16 is shape by shape, transform by
transform, in this order."""

# The permutation of a shape's digit positions under the shape's own mirror
# symmetry (None: no symmetry inside the shape). Learning ties the two
# configurations so that mirrored positions score the same.
SHAPE_MIRRORS = (
    (7, 6, 5, 4, 3, 2, 1, 0, 9, 8),          # edge: a1..h1 reversed, b2 <-> g2
    (0, 3, 6, 1, 4, 7, 2, 5, 8),             # 3x3: transpose
    None,                                     # 2x5: its 8 instances are all the symmetries
)

# Geometry v2's lines (patterns.pxd), after v1's three shapes.
LINE_SHAPES = (
    ("row2", tuple(range(8, 16)), ("id", "v", "t", "tv"), ROW2_OFFSET, LINE8_SIZE),
    ("row3", tuple(range(16, 24)), ("id", "v", "t", "tv"), ROW3_OFFSET, LINE8_SIZE),
    ("row4", tuple(range(24, 32)), ("id", "v", "t", "tv"), ROW4_OFFSET, LINE8_SIZE),
    ("diag8", tuple(9 * i for i in range(8)), ("id", "h"), D8_OFFSET, LINE8_SIZE),
    ("diag7", tuple(9 * i + 1 for i in range(7)), ("id", "v", "h", "t"), D7_OFFSET, D7_SIZE),
    ("diag6", tuple(9 * i + 2 for i in range(6)), ("id", "v", "h", "t"), D6_OFFSET, D6_SIZE),
    ("diag5", tuple(9 * i + 3 for i in range(5)), ("id", "v", "h", "t"), D5_OFFSET, D5_SIZE),
    ("diag4", tuple(9 * i + 4 for i in range(4)), ("id", "v", "h", "t"), D4_OFFSET, D4_SIZE),
)
SHAPES_V2 = SHAPES + LINE_SHAPES
SHAPE_MIRRORS_V2 = SHAPE_MIRRORS + tuple(tuple(range(len(sq) - 1, -1, -1)) for _, sq, _, _, _ in LINE_SHAPES)
"""Every line is tied to its reverse (its own symmetry)."""

V1 = GEOMETRY_V1
V2 = GEOMETRY_V2
GEOMETRIES = {
    GEOMETRY_V1: {"shapes": SHAPES, "mirrors": SHAPE_MIRRORS, "n_stages": N_STAGES,
                  "stage_size": STAGE_SIZE, "n_instances": N_INSTANCES, "stage_width": STAGE_WIDTH},
    GEOMETRY_V2: {"shapes": SHAPES_V2, "mirrors": SHAPE_MIRRORS_V2, "n_stages": V2_N_STAGES,
                  "stage_size": V2_STAGE_SIZE, "n_instances": V2_N_INSTANCES, "stage_width": V2_STAGE_WIDTH},
}
"""Per geometry id: its shapes, mirror ties and table layout."""

STAGE_SIZE_ = STAGE_SIZE
N_STAGES_ = N_STAGES
N_INSTANCES_ = N_INSTANCES
STAGE_WIDTH_ = STAGE_WIDTH
TABLE_SCALE_ = TABLE_SCALE
PATTERN_SHIFT_ = PATTERN_SHIFT

# Replay outcomes (codes in the error list of replay_games).
REPLAY_ILLEGAL = 1       # the move is not legal (or the game was already over)
REPLAY_UNFINISHED = 2    # the record stops before the game is over
REPLAY_AFTER_END = 3     # a move after the game is over

# The classic square-weight table, for comparison only.
from genethello.core.engine.squares import SQUARE_WEIGHTS
cdef int C_SQUARE_WEIGHTS[64]
for _i in range(64):
    C_SQUARE_WEIGHTS[_i] = SQUARE_WEIGHTS[_i]


def _geometry(int geometry) -> dict:
    if geometry not in GEOMETRIES:
        raise ValueError(f"unknown pattern geometry {geometry}; this build has {sorted(GEOMETRIES)}")
    return GEOMETRIES[geometry]


def stage_of_move(int move_number, int geometry=GEOMETRY_V1) -> int:
    """The table stage of a move number (discs on the board - 4)."""
    _geometry(geometry)
    if not 0 <= move_number <= 60:
        raise ValueError(f"move number must be in 0..60, got {move_number}")
    return v2_stage(move_number) if geometry == GEOMETRY_V2 else pattern_stage(move_number)


def stage_moves(int stage, int geometry=GEOMETRY_V1) -> tuple:
    """(first, last) move number of a stage."""
    g = _geometry(geometry)
    if not 0 <= stage < g["n_stages"]:
        raise ValueError(f"stage must be in 0..{g['n_stages'] - 1}, got {stage}")
    if geometry == GEOMETRY_V2:
        return 2 * stage, (60 if stage == V2_N_STAGES - 1 else 2 * stage + 1)
    first = 0 if stage == 0 else stage * STAGE_WIDTH + 1
    return first, stage * STAGE_WIDTH + STAGE_WIDTH


def indices(movers, others, int geometry=GEOMETRY_V1):
    """The instance indices (offsets into one stage's table included) of
    each position, as an int32 array of shape (n, instances): 16 in
    geometry v1, 46 in v2 (v1's 16 first).

    Args:
        movers, others: equal-length uint64 arrays (the discs of the player
            who just moved and of the other player).
    """
    cdef int width = _geometry(geometry)["n_instances"]
    cdef const uint64_t[::1] m = np.ascontiguousarray(movers, dtype=np.uint64)
    cdef const uint64_t[::1] o = np.ascontiguousarray(others, dtype=np.uint64)
    if m.shape[0] != o.shape[0]:
        raise ValueError("movers and others must have the same length")
    out = np.empty((m.shape[0], width), dtype=np.int32)
    cdef int32_t[:, ::1] v = out
    cdef int idx[MAX_INSTANCES]
    cdef Py_ssize_t i
    cdef int k
    cdef bint v2 = geometry == GEOMETRY_V2
    with nogil:
        for i in range(m.shape[0]):
            if v2:
                pattern_indices_v2_c(m[i], o[i], idx)
            else:
                pattern_indices_c(m[i], o[i], idx)
            for k in range(width):
                v[i, k] = idx[k]
    return out


def move_numbers(movers, others):
    """Each position's move number (discs on the board - 4, at least 0), as
    an int64 array: the stage key of learning and scoring."""
    cdef const uint64_t[::1] m = np.ascontiguousarray(movers, dtype=np.uint64)
    cdef const uint64_t[::1] o = np.ascontiguousarray(others, dtype=np.uint64)
    if m.shape[0] != o.shape[0]:
        raise ValueError("movers and others must have the same length")
    out = np.empty(m.shape[0], dtype=np.int64)
    cdef int64_t[::1] v = out
    cdef Py_ssize_t i
    with nogil:
        for i in range(m.shape[0]):
            v[i] = max(0, popcount(m[i] | o[i]) - 4)
    return out


move_numbers_of = move_numbers     # for ``scores``, whose argument of that name hides it


def geometry_of_table(table) -> int:
    """The geometry id whose layout a table array has (by its shape)."""
    shape = tuple(np.shape(table))
    for gid, g in GEOMETRIES.items():
        if shape == (g["n_stages"], g["stage_size"]):
            return gid
    raise ValueError(f"a pattern table has the shape of one geometry "
                     f"({', '.join(str((g['n_stages'], g['stage_size'])) for g in GEOMETRIES.values())}), "
                     f"got {shape}")


def scores(table, movers, others, move_numbers=None):
    """Pattern scores (table units) of positions, each in the stage of its
    discs' move number, as an int32 array.

    Args:
        table: int16 array of either geometry's shape (found from it).
        move_numbers: the stage of each position (uint8, clamped to 60);
            None: the move number of its discs.
    """
    cdef int geometry = geometry_of_table(table)
    cdef const int16_t[:, ::1] t = np.ascontiguousarray(table, dtype=np.int16)
    cdef const uint64_t[::1] m = np.ascontiguousarray(movers, dtype=np.uint64)
    cdef const uint64_t[::1] o = np.ascontiguousarray(others, dtype=np.uint64)
    if move_numbers is None:
        move_numbers = move_numbers_of(m, o).astype(np.uint8)
    cdef const uint8_t[::1] n = np.ascontiguousarray(move_numbers, dtype=np.uint8)
    if not (m.shape[0] == o.shape[0] == n.shape[0]):
        raise ValueError("movers, others and move_numbers must have the same length")
    out = np.empty(m.shape[0], dtype=np.int32)
    cdef int32_t[::1] v = out
    cdef Py_ssize_t i
    with nogil:
        for i in range(m.shape[0]):
            v[i] = pattern_eval_at(&t[0, 0], geometry, m[i], o[i], n[i])
    return out


def simple_predictors(movers, others):
    """Three classic predictors of the mover's result, each an int32 array:
    disc difference, mobility difference (mover's legal moves minus the
    other's) and square-weight difference (``SQUARE_WEIGHTS``)."""
    cdef const uint64_t[::1] m = np.ascontiguousarray(movers, dtype=np.uint64)
    cdef const uint64_t[::1] o = np.ascontiguousarray(others, dtype=np.uint64)
    n = m.shape[0]
    discs = np.empty(n, dtype=np.int32)
    mobility = np.empty(n, dtype=np.int32)
    squares = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] d = discs, mob = mobility, sq = squares
    cdef Py_ssize_t i
    cdef int s, k
    cdef uint64_t a, b
    with nogil:
        for i in range(n):
            a = m[i]
            b = o[i]
            d[i] = popcount(a) - popcount(b)
            mob[i] = popcount(legal_moves(a, b)) - popcount(legal_moves(b, a))
            s = 0
            for k in range(64):
                if (a >> k) & 1:
                    s += C_SQUARE_WEIGHTS[k]
                elif (b >> k) & 1:
                    s -= C_SQUARE_WEIGHTS[k]
            sq[i] = s
    return discs, mobility, squares


def replay_games(list games):
    """Replay game records (lists of squares from the start; passes implicit,
    an explicit PASS allowed where a side must pass) and list the position
    after every move.

    Returns:
        (movers, others, move_numbers, targets, game_index, errors):
        uint64, uint64, uint8, int8, int32 arrays with one row per position
        of the good games, where ``targets`` is the final disc difference
        for the mover (empties to the winner), and ``errors`` a list of
        (game index, move number 1.., code) for the games that were left
        out: REPLAY_ILLEGAL (that move is illegal), REPLAY_AFTER_END (that
        move comes after the end of the game) or REPLAY_UNFINISHED (move
        number = moves given; a side can still move).
    """
    cdef Py_ssize_t total = 0
    for g in games:
        total += len(g)
    movers = np.empty(total, dtype=np.uint64)
    others = np.empty(total, dtype=np.uint64)
    numbers = np.empty(total, dtype=np.uint8)
    targets = np.empty(total, dtype=np.int8)
    game_index = np.empty(total, dtype=np.int32)
    cdef uint64_t[::1] vm = movers, vo = others
    cdef uint8_t[::1] vn = numbers
    cdef int8_t[::1] vt = targets
    cdef int32_t[::1] vg = game_index
    cdef Py_ssize_t n = 0, start, j
    cdef uint64_t player, opponent
    cdef Child child
    cdef int side, sq, number, margin, p, o, e, gi = 0
    cdef int bad
    errors = []
    for g in games:
        player = START_BLACK     # black to move
        opponent = START_WHITE
        side = 0                    # colour of player: 0 black, 1 white
        start = n
        bad = 0
        number = 0
        for mv in g:
            number += 1
            sq = mv
            if legal_moves(player, opponent) == 0:
                if legal_moves(opponent, player) == 0:
                    bad = REPLAY_AFTER_END
                    break
                player, opponent = opponent, player
                side ^= 1
                if sq == PASS:
                    continue
            if sq < 0 or sq >= 64 or (legal_moves(player, opponent) & square_bit(sq)) == 0:
                bad = REPLAY_ILLEGAL
                break
            child = make_move(player, opponent, sq, flips(player, opponent, sq))
            player, opponent = child.player, child.opponent
            side ^= 1
            # opponent is the mover now; record it with its colour in the sign slot
            vm[n] = opponent
            vo[n] = player
            vn[n] = popcount(player | opponent) - 4
            vt[n] = 1 if side == 1 else -1      # mover is black when side (to move) is white
            vg[n] = gi
            n += 1
        if bad:
            errors.append((gi, number, bad))
            n = start
        elif legal_moves(player, opponent) != 0 or legal_moves(opponent, player) != 0:
            errors.append((gi, number, REPLAY_UNFINISHED))
            n = start
        else:
            p = popcount(player)
            o = popcount(opponent)
            e = 64 - p - o
            margin = p - o + (e if p > o else (-e if p < o else 0))   # for player
            if side == 1:
                margin = -margin                                     # now for black
            for j in range(start, n):
                vt[j] = <int8_t>(margin * vt[j])
        gi += 1
    return (movers[:n].copy(), others[:n].copy(), numbers[:n].copy(), targets[:n].copy(),
            game_index[:n].copy(), errors)
