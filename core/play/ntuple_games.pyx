"""Fast 1-ply games in batches: networks against networks, the League's WPC
heuristic or a random player, with no Python per move or per game.

Fitness for evolving n-tuple networks is millions of short games, so
:func:`play_games` takes a whole batch (who plays Black, who plays White,
each game's id and start) and plays it in one ``nogil`` loop, returning
Black's final margin per game; :func:`member_points` sums the points.

The rules of a game here:

* a *network* plays the move after which its value of the position (for
  itself, the mover) is largest; the *WPC* player the move after which its
  weighted discs minus the opponent's, on the League's weights in exact
  hundredths (:data:`genethello.core.play.league.LEAGUE_WPC_HUNDREDTHS`), are
  largest; exact ties go to the first square in a1..h8 order, as in
  :mod:`genethello.core.play.league`. The *random* player picks uniformly.
* with probability ``epsilon`` a move of either side is instead a uniformly
  random legal move (the League's forced randomisation).
* the random draws come from a counter-based generator: the draws for the
  move that puts disc number ``n`` on the board (``n`` = discs - 4 before
  the move, so 0 for the first move from the standard start) in the game
  with id ``g`` of a batch seeded ``s`` are ``key = mix(mix(mix(s) ^ g) ^ n)``
  and ``mix(key)``, ``mix`` being splitmix64's finaliser (:func:`mix64`).
  The coin is ``(key >> 11) / 2**53 < epsilon``; the random move is the
  ``((mix(key) >> 32) * count) >> 32``-th legal move in a1..h8 order. So a game
  is a pure function of (players, seed, game id, start): any subset of a
  batch, in any process, in any split, plays the same games.
* the score is Black's final disc margin, empty squares to the winner
  (WOF), as everywhere in genethello; points are 1, ½, 0.

These draws are not those of :mod:`genethello.core.play.league` (Python's
Mersenne Twister per player): the two loops play different games from the
same seed, with the same distribution.

Networks are evaluated incrementally: the loop keeps, for each network
side, every tuple's LUT index up to date, and values a candidate
move by the change of the tuples through its placed and flipped squares only
(``incremental=False`` evaluates every tuple of every candidate instead, with
the same choices; benchmarks/bench_ntuple.py measures both).
"""

import numpy as np

from libc.stdint cimport uint64_t, int32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from genethello.core.engine.bitboard cimport legal_moves, flips, popcount, gt_lowest_square
from genethello.core.evaluation.ntuple cimport NTupleNet, NTupleEvaluator, ntuple_value

from genethello.core.engine.board import Board
from genethello.core.play.league import LEAGUE_WPC_HUNDREDTHS

cdef enum:
    KIND_NETWORK = 0
    KIND_WPC = 1
    KIND_RANDOM = 2

#: The built-in contestants :func:`play_games` accepts by name.

cdef int WPC[64]
for _i in range(64):
    WPC[_i] = LEAGUE_WPC_HUNDREDTHS[_i]

cdef double TWO_TO_MINUS_53 = 1.0 / 9007199254740992.0


cdef inline uint64_t _mix64(uint64_t x) noexcept nogil:
    """splitmix64: the golden-ratio step, then its finaliser."""
    x += <uint64_t>0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return x ^ (x >> 31)


def mix64(uint64_t x) -> int:
    """splitmix64 of ``x`` (what the game loop draws with; for references)."""
    return _mix64(x)


cdef struct Contestant:
    int kind
    const NTupleNet* net
    int layout           # networks of one architecture share a layout number (and so the tuple indices)


cdef inline int _nth_move(uint64_t moves, int n) noexcept nogil:
    while n > 0:
        moves &= moves - 1
        n -= 1
    return gt_lowest_square(moves)


cdef inline void _shift_square(const NTupleNet* net, int32_t* idx, int s, int delta) noexcept nogil:
    """Square ``s``'s digit changes by ``delta``: move every tuple through it."""
    cdef int k
    for k in range(net.incidence_begin[s], net.incidence_begin[s + 1]):
        idx[net.incidence_tuple[k]] += net.incidence_power[k] * delta


cdef inline void _play_move(const NTupleNet* net, int32_t* idx, int sq, uint64_t flipped,
                            int mover_digit) noexcept nogil:
    """The mover (digit 1 Black, 2 White) places on ``sq`` and turns ``flipped``."""
    cdef int s
    _shift_square(net, idx, sq, mover_digit)
    while flipped:
        s = gt_lowest_square(flipped)
        flipped &= flipped - 1
        _shift_square(net, idx, s, 2 * mover_digit - 3)     # the other side's digit -> the mover's


cdef inline int _trial_move(const NTupleNet* net, int32_t* idx, const int32_t* lut, int sq, uint64_t flipped,
                            int mover_digit, const int32_t* current) noexcept nogil:
    """The value change of the mover's move on ``sq`` turning ``flipped``,
    ``idx`` being the position's indices, left as they were on return. A
    tuple may hold several changed squares, so the flipped squares' tuples
    are moved in ``idx`` one square after another; the placed square comes
    last and is only read, and the flipped squares' entries are then copied
    back from ``current`` (the position's indices, the same as ``idx``).
    (Sums fit an int: every value is below EVAL_LIMIT in size.)"""
    cdef Py_ssize_t k, end, t, old, new
    cdef int s
    cdef int change = 0
    cdef int flip_delta = 2 * mover_digit - 3             # the other side's digit -> the mover's
    cdef const int32_t* tuples = net.incidence_tuple
    cdef const int32_t* powers = net.incidence_power
    cdef const int32_t* begin = net.incidence_begin
    cdef uint64_t left = flipped
    while left:
        s = gt_lowest_square(left)
        left &= left - 1
        k = begin[s]
        end = begin[s + 1]
        while k < end:
            t = tuples[k]
            old = idx[t]
            new = old + powers[k] * flip_delta
            idx[t] = <int32_t>new
            change += lut[new] - lut[old]
            k += 1
    k = begin[sq]
    end = begin[sq + 1]
    while k < end:
        old = idx[tuples[k]]
        change += lut[old + powers[k] * mover_digit] - lut[old]
        k += 1
    while flipped:
        s = gt_lowest_square(flipped)
        flipped &= flipped - 1
        k = begin[s]
        end = begin[s + 1]
        while k < end:
            t = tuples[k]
            idx[t] = current[t]
            k += 1
    return change


cdef inline void _reset_indices(const NTupleNet* net, int32_t* idx, uint64_t black, uint64_t white) noexcept nogil:
    """The indices of the position: those of the empty board (each LUT's
    first entry), then every disc added (a few dozen updates, not a pass
    over all the tuples' squares)."""
    cdef int s
    memcpy(idx, net.base_offset, net.n_tuples * sizeof(int32_t))
    while black:
        s = gt_lowest_square(black)
        black &= black - 1
        _shift_square(net, idx, s, 1)
    while white:
        s = gt_lowest_square(white)
        white &= white - 1
        _shift_square(net, idx, s, 2)


cdef int _network_move(const NTupleNet* net, int32_t* idx, uint64_t P, uint64_t O, uint64_t moves,
                       int mover_digit, bint incremental, int32_t* work, uint64_t* best_flips) noexcept nogil:
    """The network's 1-ply choice for the side to move (P), whose colour's
    digit is ``mover_digit``: the largest value after the move, first square
    on ties; its flipped discs go to ``best_flips``. ``idx`` holds the
    current position's indices (left unchanged); ``work`` is scratch room
    for as many."""
    cdef const int32_t* lut = net.weights if mover_digit == 1 else net.weights_swapped
    cdef int best_move = -1, sq
    cdef int64_t best = 0, value
    cdef uint64_t f, bit
    if incremental:   # the trial moves run on a copy of the indices, restored after each
        memcpy(work, idx, net.n_tuples * sizeof(int32_t))
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        f = flips(P, O, sq)
        if incremental:
            value = _trial_move(net, work, lut, sq, f, mover_digit, idx)
        else:
            bit = (<uint64_t>1) << sq
            value = ntuple_value(net, P | bit | f, O & ~f)
        if best_move < 0 or value > best:
            best = value
            best_move = sq
            best_flips[0] = f
    return best_move


cdef int _wpc_move(uint64_t P, uint64_t O, uint64_t moves, uint64_t* best_flips) noexcept nogil:
    """The WPC heuristic's choice: the largest weighted-disc balance after
    the move (placed square once, each flipped disc twice: it leaves the
    other side), first square on ties; its flipped discs go to ``best_flips``."""
    cdef int best_move = -1, sq, s, value, best = 0
    cdef uint64_t f, left
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        f = flips(P, O, sq)
        value = WPC[sq]
        left = f
        while left:
            s = gt_lowest_square(left)
            left &= left - 1
            value += 2 * WPC[s]
        if best_move < 0 or value > best:
            best = value
            best_move = sq
            best_flips[0] = f
    return best_move


cdef int _play_one(const Contestant* black, const Contestant* white, int32_t* idx_black, int32_t* idx_white,
                   int32_t* work,
                   uint64_t B, uint64_t W, bint black_to_move, uint64_t seed_key, uint64_t game_id,
                   double epsilon, bint incremental, signed char* record) noexcept nogil:
    """One game from Black's discs B, White's W; Black's final margin (WOF).
    ``record``: NULL, or room for 60 squares, which get the squares played
    in order (passes left out), -1 after the last."""
    cdef const Contestant* mover
    cdef int32_t* idx
    cdef uint64_t P, O, moves, key, f
    cdef int sq, digit, n_moves, margin, empties, ply = 0
    cdef int side = 0 if black_to_move else 1
    # Two networks of one architecture read the same tuple indices: one copy, one update a move.
    cdef bint shared = black.kind == KIND_NETWORK and white.kind == KIND_NETWORK and black.layout == white.layout
    if shared:
        idx_white = idx_black
    if black.kind == KIND_NETWORK:
        _reset_indices(black.net, idx_black, B, W)
    if white.kind == KIND_NETWORK and not shared:
        _reset_indices(white.net, idx_white, B, W)
    while True:
        P = B if side == 0 else W
        O = W if side == 0 else B
        moves = legal_moves(P, O)
        if moves == 0:
            if legal_moves(O, P) == 0:
                break
            side ^= 1
            continue
        mover = black if side == 0 else white
        idx = idx_black if side == 0 else idx_white
        digit = side + 1
        key = _mix64(_mix64(seed_key ^ game_id) ^ <uint64_t>(popcount(B | W) - 4))
        if mover.kind == KIND_RANDOM or <double>(key >> 11) * TWO_TO_MINUS_53 < epsilon:
            n_moves = popcount(moves)
            sq = _nth_move(moves, <int>(((_mix64(key) >> 32) * <uint64_t>n_moves) >> 32))
            f = flips(P, O, sq)
        elif moves & (moves - 1) == 0:           # one legal move: nothing to weigh
            sq = gt_lowest_square(moves)
            f = flips(P, O, sq)
        elif mover.kind == KIND_NETWORK:
            sq = _network_move(mover.net, idx, P, O, moves, digit, incremental, work, &f)
        else:
            sq = _wpc_move(P, O, moves, &f)
        if record != NULL:
            record[ply] = <signed char>sq
            ply += 1
        if black.kind == KIND_NETWORK:
            _play_move(black.net, idx_black, sq, f, digit)
        if white.kind == KIND_NETWORK and not shared:
            _play_move(white.net, idx_white, sq, f, digit)
        P |= ((<uint64_t>1) << sq) | f
        O &= ~f
        if side == 0:
            B, W = P, O
        else:
            W, B = P, O
        side ^= 1
    if record != NULL:
        while ply < 60:
            record[ply] = -1
            ply += 1
    margin = popcount(B) - popcount(W)
    empties = 64 - popcount(B | W)
    if margin > 0:
        margin += empties
    elif margin < 0:
        margin -= empties
    return margin


def _start_positions(openings):
    """(black, white, black_to_move) arrays for each opening's position."""
    n = len(openings)
    black = np.empty(n, dtype=np.uint64)
    white = np.empty(n, dtype=np.uint64)
    to_move = np.empty(n, dtype=np.uint8)
    for i, moves in enumerate(openings):
        try:
            board = Board.from_moves(list(moves))
        except ValueError as exc:
            raise ValueError(f"opening {i}: {exc}") from None
        black[i], white[i] = board.black, board.white
        to_move[i] = board.side_to_move == "black"
    return black, white, to_move


def play_games(contestants, black, white, game_ids, uint64_t seed, double epsilon=0.1, openings=None,
               opening_index=None, bint incremental=True, bint record=False):
    """Play a batch of 1-ply games; Black's final margin (WOF) for each.

    Args:
        contestants: the players, each an ``NTupleEvaluator`` or a built-in
            name (``"wpc"``, ``"random"``).
        black, white: for each game, the index in ``contestants`` of the
            player of Black and of White (equal lengths).
        game_ids: each game's id, the key of its random draws (a game is a
            function of its players, start, ``seed`` and id alone).
        seed: the batch's seed.
        epsilon: the probability of a random move, for either side.
        openings: move lists (squares, PASS allowed) whose end positions
            are the start positions; None: the standard start for every game.
        opening_index: for each game, the index in ``openings`` of its
            start (needed with ``openings``).
        incremental: update tuple indices move by move (False: evaluate
            every tuple of every candidate; the same games, slower).
        record: also return the moves.
    Returns:
        numpy int32 array: Black's final margin of each game; with
        ``record``, also a numpy int8 array [games, 60] of the squares
        played after the start (passes left out), -1 after the last.
    Raises:
        ValueError: one line naming the faulty argument.
    """
    cdef int n_players = len(contestants)
    if n_players == 0:
        raise ValueError("play_games: no contestants")
    kinds = []
    for i, c in enumerate(contestants):
        if isinstance(c, NTupleEvaluator):
            if c.n_stages != 1:
                # The fast loop sums one set of LUTs; a staged network's
                # value depends on the stage: it plays through the search.
                raise ValueError(f"contestant {i} is a network of {c.n_stages} stages: the fast 1-ply loop plays "
                                 "single-stage networks (a staged one plays through the search)")
            kinds.append(KIND_NETWORK)
        elif c == "wpc":
            kinds.append(KIND_WPC)
        elif c == "random":
            kinds.append(KIND_RANDOM)
        else:
            raise ValueError(f"contestant {i} is {c!r}: expected an NTupleEvaluator, 'wpc' or 'random'")
    b = np.ascontiguousarray(black, dtype=np.int64)
    w = np.ascontiguousarray(white, dtype=np.int64)
    g = np.ascontiguousarray(game_ids, dtype=np.uint64)
    if not (b.ndim == w.ndim == g.ndim == 1 and b.shape[0] == w.shape[0] == g.shape[0]):
        raise ValueError(f"black, white and game_ids must be 1-d of one length (got {b.shape}, {w.shape}, {g.shape})")
    if b.size and (b.min() < 0 or w.min() < 0 or b.max() >= n_players or w.max() >= n_players):
        raise ValueError(f"a player index is outside 0..{n_players - 1}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon {epsilon} is outside 0..1")
    if openings is None:
        if opening_index is not None:
            raise ValueError("opening_index given without openings")
        starts = _start_positions([()])
        o = np.zeros(b.shape[0], dtype=np.int64)
    else:
        if opening_index is None:
            raise ValueError("openings given without opening_index")
        starts = _start_positions(openings)
        o = np.ascontiguousarray(opening_index, dtype=np.int64)
        if o.shape != b.shape:
            raise ValueError(f"opening_index has shape {o.shape}, expected {b.shape}")
        if o.size and (o.min() < 0 or o.max() >= len(openings)):
            raise ValueError(f"an opening index is outside 0..{len(openings) - 1}")
    cdef const int64_t[::1] bv = b, wv = w, ov = o
    cdef const uint64_t[::1] gv = g
    cdef const uint64_t[::1] start_black = starts[0], start_white = starts[1]
    cdef const unsigned char[::1] start_to_move = starts[2]
    out = np.empty(b.shape[0], dtype=np.int32)
    cdef int32_t[::1] outv = out
    played = np.empty((b.shape[0] if record else 0, 60), dtype=np.int8)
    cdef signed char[:, ::1] playedv = played
    cdef signed char* row = NULL
    cdef int max_tuples = 1
    cdef NTupleEvaluator ev
    for i, c in enumerate(contestants):
        if kinds[i] == KIND_NETWORK:
            ev = c
            max_tuples = max(max_tuples, ev.net.n_tuples)
    cdef Contestant* table = <Contestant*> malloc(n_players * sizeof(Contestant))
    cdef int32_t* idx_black = <int32_t*> malloc(max_tuples * sizeof(int32_t))
    cdef int32_t* idx_white = <int32_t*> malloc(max_tuples * sizeof(int32_t))
    cdef int32_t* work = <int32_t*> malloc(max_tuples * sizeof(int32_t))
    if table == NULL or idx_black == NULL or idx_white == NULL or work == NULL:
        free(table)
        free(idx_black)
        free(idx_white)
        free(work)
        raise MemoryError("play_games: no memory for the batch's tables")
    layouts = {}
    for i, c in enumerate(contestants):
        table[i].kind = kinds[i]
        table[i].net = NULL
        table[i].layout = -1
        if kinds[i] == KIND_NETWORK:
            ev = c
            table[i].net = &ev.net
            table[i].layout = layouts.setdefault(ev.architecture.tuples, len(layouts))
    cdef Py_ssize_t k, n = b.shape[0]
    cdef uint64_t seed_key = _mix64(seed)
    try:
        with nogil:
            for k in range(n):
                if record:
                    row = &playedv[k, 0]
                outv[k] = _play_one(&table[bv[k]], &table[wv[k]], idx_black, idx_white, work,
                                    start_black[ov[k]], start_white[ov[k]], start_to_move[ov[k]] != 0,
                                    seed_key, gv[k], epsilon, incremental, row)
    finally:
        free(table)
        free(idx_black)
        free(idx_white)
        free(work)
    return (out, played) if record else out


def points_from_margins(margins):
    """Black's points per game (numpy float64): 1 win, 0.5 draw, 0 loss."""
    m = np.asarray(margins)
    return np.where(m > 0, 1.0, np.where(m == 0, 0.5, 0.0))


def member_points(int n_members, black, white, margins):
    """Each member's summed points over the games (numpy float64
    [n_members]): Black's points to ``black[k]``, the rest to ``white[k]``."""
    pts = points_from_margins(margins)
    out = np.zeros(n_members, dtype=np.float64)
    np.add.at(out, np.asarray(black, dtype=np.int64), pts)
    np.add.at(out, np.asarray(white, dtype=np.int64), 1.0 - pts)
    return out
