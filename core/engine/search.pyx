"""Searches: the root of every search and the Python face.

Iterative deepening over the midgame search (core/engine/midgame.pyx) with an exact
solve (core/engine/endgame.pyx) once few squares are empty, limits by depth, nodes
and time, and the engine object (`Searcher`) with its results
(`SearchResult`). Moves (core/engine/move.pxd), their ordering (core/engine/ordering.pxd)
and what the searches share (core/engine/context.pxd) have their own files.

The root rule (GeneThello's tie-break): among root moves of exactly equal
value the first in square order (a1, b1, ..., h1, a2, ..., h8) is played, in
every variant: each algorithm, with or without ordering and hashing, fixed
depth, iterative deepening under any limit, and the exact solve. Ties are
resolved exactly at the root (`search_children(..., tiebreak=True)` in core/engine/context.pxd);
the tree below is unchanged. So a fixed-depth search's move depends only on
the position, the evaluator and the depth, never on move ordering.

Values: the midgame search returns evaluation units (a decided game is worth
EVAL_WIN per disc of its final margin); the endgame solver returns the exact
final disc difference (empties to the winner). A pass does not use up depth.
All inner loops run without the GIL, so another thread (a GTP reader, a
ponderer) keeps running while the engine thinks.
"""

from libc.string cimport memset
from libc.stdint cimport uint64_t

from genethello.core.engine.bitboard cimport PASS, NO_MOVE, legal_moves, flips, popcount, square_bit, gt_lowest_square
from genethello.core.evaluation.evaluation cimport (
    BaseEvaluator, Evaluator, LeafEval, NO_KIND, NETWORK_KIND, EVAL_WIN, EVAL_LIMIT,
)
from genethello.core.evaluation.ntuple cimport NTupleTracker
from genethello.core.engine.ttable cimport TTEntry, TranspositionTable, tt_probe, ENDGAME_DEPTH
from genethello.core.engine.board cimport Board
from genethello.core.engine.move cimport Child, make_move
from genethello.core.engine.context cimport SearchContext, RootResult, INF, DISC_INF, monotonic_seconds
from genethello.core.engine.midgame cimport leaf_value, midgame, midgame_root, minimax_value
from genethello.core.engine.endgame cimport endgame_root, endgame_windows, EVAL_ORDER_EMPTIES
from genethello.core.engine.ordering cimport age_history

from dataclasses import dataclass

cdef enum:
    DIRECT_DEPTH = 4             # fixed searches this shallow skip iterative deepening
    GUESS_EMPTIES = 18           # solve() from this many empties: windows of two around a guess
    GUESS_DEPTH = 4              # the guess: a search of the pattern table this deep (FFO #40-#44:
                                 # 22% fewer nodes than the full window, 12% less time)

ALGORITHMS = {
    "alphabeta-hard": ALPHABETA_HARD,
    "alphabeta-soft": ALPHABETA_SOFT,
    "negascout-hard": NEGASCOUT_HARD,
    "negascout-soft": NEGASCOUT_SOFT,
}


cdef LeafEval leaf_evaluation(BaseEvaluator evaluator) except *:
    """The leaf evaluation a search copies from an evaluator object (which
    the search then keeps alive: the copy points into it).

    Raises:
        TypeError: for an evaluator that fills in none (a bare BaseEvaluator).
    """
    if evaluator is None or evaluator.leaf.kind == NO_KIND:
        raise TypeError(f"{type(evaluator).__name__} is not an evaluator a search can use")
    return evaluator.leaf


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
        disc_units: the evaluation's units a disc (0: it has no disc
            scale, a chromosome's heuristic; a staged network's 64, a
            whole-disc network's weight): what :attr:`discs` divides by.
    """
    move: int | None
    value: int
    depth: int
    exact: bool
    nodes: int
    seconds: float
    pv: tuple = ()
    disc_units: int = 0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def discs(self) -> int | float:
        """The value as a disc score for the side to move (see
        :func:`disc_score`): an int when the game's end was seen, else a
        float."""
        return disc_score(self.value, self.exact, self.disc_units)


def disc_units(evaluator) -> int:
    """The evaluation's units a disc: a staged network's (its
    ``disc_units``), 0 for an evaluation with no disc scale."""
    return int(getattr(evaluator, "disc_units", 0))


def disc_score(value: int, exact: bool, units: int = 0) -> int | float:
    """A search value as a disc score for the side it belongs to.

    * ``exact`` (a solved position): the value already is the final disc
      margin (empties to the winner): returned as an int.
    * A midgame value beyond the evaluation's range is a game the search saw
      end: EVAL_WIN per disc of its final margin: returned as an int.
    * An evaluation in ``units`` a disc (a staged network's: 64 a disc, a
      whole-disc network's weight a disc): its discs, a float clamped to
      -64..64. (Before issue 36 these were shown as units: a staged
      network's 1.5 discs read as "+64".)
    * Anything else (``units`` 0) is the chromosome's heuristic
      evaluation, which has no disc scale: returned as a float (so it
      prints with decimals), clamped to -64..64.
    """
    if exact:
        return int(value)
    if abs(value) > EVAL_LIMIT:
        return int(round(value / EVAL_WIN))
    if units > 0:
        return float(max(-64.0, min(64.0, value / units)))
    return float(max(-64, min(64, value)))


cdef class Searcher:
    """An engine: one evaluator, one algorithm, one transposition table.

    Args:
        evaluator: the player's evaluation: an evaluator of any kind
            (``genethello.core.evaluation.evaluation.BaseEvaluator``: GeneThello's
            ``Evaluator`` or a network's ``NetworkEvaluator``).
        algorithm: 'alphabeta-hard', 'alphabeta-soft', 'negascout-hard' or
            'negascout-soft' (the default).
        tt_bits: log2 of the transposition table's buckets (16: 3 MiB).
        hashing: use the transposition table (False: a naive baseline).
        ordering: order moves by static evaluation (False: board order, the
            naive baseline the benchmarks compare against).
    Raises:
        ValueError: for an unknown algorithm name.
        TypeError: for an evaluator of no kind (a bare BaseEvaluator).
    """

    def __init__(self, BaseEvaluator evaluator, str algorithm="negascout-soft", int tt_bits=16,
                 bint hashing=True, bint ordering=True):
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown search algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
        self.ctx.evaluator = leaf_evaluation(evaluator)
        self.evaluator = evaluator
        self._track_network()
        self.algorithm = algorithm
        self.table = TranspositionTable(tt_bits)
        self.hashing = hashing
        self.ordering = ordering
        self.ctx.tt = &self.table.table if hashing else NULL
        self.ctx.ordering = ordering
        self.ctx.order_table = NULL
        self.ctx.order_geometry = 0
        code = ALGORITHMS[algorithm]
        self.ctx.soft = code in (ALPHABETA_SOFT, NEGASCOUT_SOFT)
        self.ctx.scout = code in (NEGASCOUT_HARD, NEGASCOUT_SOFT)

    def __reduce__(self):
        return (Searcher, (self.evaluator, self.algorithm, self.table.bits, self.hashing, self.ordering))

    @property
    def disc_units(self) -> int:
        """The evaluator's units a disc (:func:`disc_units`; 0: no disc scale)."""
        return disc_units(self.evaluator)

    def use_evaluator(self, BaseEvaluator evaluator) -> None:
        """Search with other weights from now on (clear the table first:
        its values belong to the old weights). Lets a worker keep two
        searchers, and their tables, for all the players it hosts."""
        self.ctx.evaluator = leaf_evaluation(evaluator)
        self.evaluator = evaluator
        self._track_network()

    cdef int _track_network(self) except -1:
        """Give a network's leaf evaluation this searcher's incremental
        tuple indices (kept across searches and across networks of one
        architecture: the indices describe some position exactly, and a
        leaf moves them to its own); other kinds need none."""
        cdef NTupleTracker tracker
        if self.ctx.evaluator.kind != NETWORK_KIND:
            self.network_tracker = None
            return 0
        typed = self.evaluator.ntuple
        if self.network_tracker is None or not self.network_tracker.tracks(typed):
            self.network_tracker = NTupleTracker(typed)
        tracker = self.network_tracker
        self.ctx.evaluator.network_state = &tracker.state
        return 0

    def track_network(self, bint on=True) -> None:
        """Whether a network's leaves read incremental tuple indices (the
        default) or are each computed in full (``on`` False: the reference,
        and what benchmarks compare against). No effect for other kinds."""
        if on:
            self._track_network()
        else:
            self.ctx.evaluator.network_state = NULL
            self.network_tracker = None

    def clear(self) -> None:
        """Forget the transposition table and the cut-offs the shallow
        searches order moves by (between games: a game's node counts then
        depend on that game alone)."""
        self.table.clear()
        memset(self.ctx.history, 0, sizeof(self.ctx.history))
        memset(self.ctx.refutation, 0, sizeof(self.ctx.refutation))
        memset(self.ctx.leaf_killers, 0, sizeof(self.ctx.leaf_killers))

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
        self.ctx.plain_tree = False
        age_history(&self.ctx)

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
        if EVAL_ORDER_EMPTIES <= board.empties <= exact_empties:
            self._order_by_patterns()
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
                            self.ctx.nodes, elapsed, self._pv(P, O, move), self.disc_units)

    def solve(self, Board board, nodes=None, seconds=None):
        """Exact best move and final disc difference (empties to the winner).

        Returns:
            SearchResult with exact=True, or exact=False (value meaningless)
            if a limit stopped the solve first.
        """
        cdef uint64_t P = board.pos.player, O = board.pos.opponent
        cdef RootResult r
        cdef double t0 = monotonic_seconds()
        cdef int guess = 0, n_empties = 64 - popcount(P | O)
        cdef bint windows = n_empties >= GUESS_EMPTIES
        if n_empties >= EVAL_ORDER_EMPTIES:
            self._order_by_patterns()
        if windows:
            guess = self._guess(board)
        self._begin(0 if nodes is None else int(nodes), 0.0 if seconds is None else float(seconds))
        with nogil:
            if windows:
                r = endgame_windows(&self.ctx, P, O, guess)
            else:
                r = endgame_root(&self.ctx, P, O, -DISC_INF, DISC_INF)
        elapsed = monotonic_seconds() - t0
        move = None if r.move == NO_MOVE else r.move
        return SearchResult(move, r.value, 64 - popcount(P | O), bool(r.complete), self.ctx.nodes, elapsed,
                            self._pv(P, O, move) if r.complete else (), self.disc_units)

    cdef Searcher _pattern_searcher(self):
        """A pattern-only searcher of the newest table (in discs), made on
        first use, one per Searcher so that threads never share it: the
        exact solver's guesses and move ordering come from it, whatever
        this searcher's own evaluator is."""
        if self._guesser is None:
            self._guesser = Searcher(Evaluator(weights=((0, 0, 0, 0, 0, 1, 0),) * 3), tt_bits=14)
        return self._guesser

    cdef int _order_by_patterns(self) except -1:
        """Let the exact solver order its top nodes by the pattern table."""
        cdef Evaluator patterns = self._pattern_searcher().evaluator
        self.ctx.order_table = patterns.w.pattern_table
        self.ctx.order_geometry = patterns.w.pattern_geometry
        return 0

    def _guess(self, Board board) -> int:
        """The exact solver's first guess at a score: a shallow search of
        the newest pattern table (a static predictor of the final margin)."""
        r = self._pattern_searcher().search(board, depth=GUESS_DEPTH)
        return int(round(disc_score(r.value, False)))

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
        cdef uint64_t P = board.pos.player, O = board.pos.opponent, f
        cdef int sq, v
        cdef Child child
        cdef RootResult r
        out = []
        for sq in board.legal_moves():
            f = flips(P, O, sq)
            child = make_move(P, O, sq, f)
            self._begin(0, 0.0)
            with nogil:
                if 64 - popcount(child.player | child.opponent) <= exact_empties:
                    r = endgame_root(&self.ctx, child.player, child.opponent, -DISC_INF, DISC_INF)
                    v = -r.value
                elif depth == 1:
                    v = -leaf_value(&self.ctx, child.player, child.opponent, f)
                else:
                    v = -midgame(&self.ctx, child.player, child.opponent, depth - 1, -INF, INF, f)
            out.append((sq, v))
        out.sort(key=lambda mv: -mv[1])
        return out

    cdef tuple _pv(self, uint64_t P, uint64_t O, object first):
        """Best line: the first move, then the table's best moves."""
        cdef TTEntry* e
        cdef Child child
        cdef int sq
        line = []
        if first is None:
            return ()
        sq = first
        for _ in range(30):
            if sq == PASS:
                P, O = O, P
            elif 0 <= sq < 64 and (legal_moves(P, O) & square_bit(sq)):
                child = make_move(P, O, sq, flips(P, O, sq))
                P, O = child.player, child.opponent
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


def minimax(Board board, BaseEvaluator evaluator, int depth) -> int:
    """Plain negamax without pruning, ordering or hashing: the reference that
    every search variant must agree with (same leaf and pass rules)."""
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    cdef SearchContext c
    c.evaluator = leaf_evaluation(evaluator)
    c.nodes = 0
    return minimax_value(&c, board.pos.player, board.pos.opponent, depth, 0)
