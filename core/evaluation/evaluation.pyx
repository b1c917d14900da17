"""The evaluators: the objects a search values positions with.

``BaseEvaluator`` is what every kind derives from (a Searcher takes any); it
holds the C-level leaf evaluation the searches call (evaluation.pxd).
``Evaluator`` is GeneThello's kind, the evaluation function of a chromosome
(its features are in features.pxd):

score = wf*Flips + wd*Discs - wm*Mobility + wc*Corners - wx*XSquares
        + wr*Parity + wp*Pattern

with one weight set per game phase (opening, midgame, endgame, split at move
numbers o and e). Features are GeneThello's, measured right after a move from
the mover's point of view; the search negates as negamax requires.

Pattern is the sum of the learned edge and corner values (patterns.pxd,
pattern_learning.py, loaded by pattern_table.py): the predicted final disc difference for the mover, in
discs (table units of 1/32 disc, >> 5). The table is loaded once per
process and shared by every evaluator that weighs it.
"""

from libc.stdint cimport uint64_t, int16_t
from genethello.core.engine.bitboard cimport popcount, legal_moves, flips, square_bit, CORNERS
from genethello.core.evaluation.features cimport F_PATTERN, exposed_x_squares, parity_feature
from genethello.core.evaluation.patterns cimport pattern_eval, PATTERN_SHIFT
from genethello.core.engine.board cimport Board
from genethello.core.engine.move cimport Child, make_move

FEATURES = "fdmxcpr"
FEATURE_NAMES = ("flips", "discs", "mobility", "xsquares", "corners", "pattern", "parity")


cdef class BaseEvaluator:
    """What a Searcher searches with: an evaluator of some kind, which fills
    in the C-level leaf evaluation (evaluation.pxd) in its constructor. Not
    usable by itself."""

    @property
    def nbytes(self) -> int:
        """About the bytes this evaluator holds of its own, what a cache of
        evaluators weighs it by: a few kilobytes (GeneThello's weights; the
        pattern tables they read are the process's, shared); a network's
        evaluator counts its LUTs and weights."""
        return 4096


cdef class Evaluator(BaseEvaluator):
    """Weights of one player: phase bounds (o, e) and 3x7 integer weights.

    Weights belong to the evaluator object, so a worker can hold many players
    at once. Picklable (crosses into Ray workers).

    Args:
        phase_bounds: (o, e): moves <= o use the opening weights, o < move <= e
            the midgame weights, later moves the endgame weights.
        weights: three sequences (opening, midgame, endgame) of seven ints in
            the order "fdmxcpr" (flips, discs, mobility, xsquares, corners,
            pattern, parity).
        chromosome: the chromosome these weights came from, kept for reports.
        patterns: the pattern table version to weigh ('patterns-v1', 'v2',
            ...; see ``pattern_table.resolve_version``), None for the newest
            shipped one. Only loaded when a pattern weight is non-zero.
    Raises:
        ValueError: for the wrong shape or phase bounds outside 0..60, o > e,
            or an unknown pattern table version.
    """

    def __init__(self, phase_bounds=(60, 60), weights=((0, 1, 0, 0, 0, 0, 0),) * 3, chromosome=None,
                 patterns=None):
        o, e = (int(x) for x in phase_bounds)
        if not (0 <= o <= e <= 60):
            raise ValueError(f"phase bounds must satisfy 0 <= o <= e <= 60, got o={o}, e={e}")
        rows = [tuple(int(x) for x in row) for row in weights]
        if len(rows) != 3 or any(len(r) != 7 for r in rows):
            raise ValueError(f"weights must be 3 phases x 7 features ({FEATURES}), got {weights!r}")
        self.phase_bounds = (o, e)
        self.weights = tuple(rows)
        self.chromosome = chromosome
        for p in range(3):
            for f in range(7):
                self.w.weight[p][f] = rows[p][f]
        for m in range(61):
            self.w.phase_of_move[m] = 0 if m <= o else (1 if m <= e else 2)
        self.w.use_pattern = any(r[F_PATTERN] for r in rows)
        self.leaf.kind = FEATURES_KIND
        self.leaf.features = &self.w
        self.w.pattern_table = NULL
        self.pattern_array = None
        self.pattern_version = ""
        self.pattern_request = patterns
        if self.w.use_pattern:
            self._attach_patterns()

    def _attach_patterns(self):
        """Point the weights at the process-wide table of the requested
        version (loaded on first use, never copied)."""
        from genethello.core.evaluation.pattern_table import shared_table
        table = shared_table(self.pattern_request)
        cdef const int16_t[:, ::1] view = table.array
        self.pattern_array = table.array
        self.pattern_version = table.version
        self.w.pattern_table = &view[0, 0]
        self.w.pattern_geometry = table.geometry_id

    @classmethod
    def from_chromosome(cls, chromosome, patterns=None):
        """The evaluator of a ``genethello.core.families.chromosome.Chromosome``
        (``patterns``: the table version, None for the newest)."""
        return cls(chromosome.phase_bounds(), chromosome.phase_weights(), chromosome, patterns)

    def __reduce__(self):
        return (Evaluator, (self.phase_bounds, self.weights, self.chromosome, self.pattern_request))

    def __repr__(self):
        if self.chromosome is not None:
            return f"Evaluator.from_chromosome({str(self.chromosome)!r})"
        return f"Evaluator({self.phase_bounds!r}, {self.weights!r})"

    def features(self, Board board, move) -> dict:
        """The seven feature values of playing ``move`` (a square) on
        ``board``, from the mover's point of view (for reports and tests).

        Raises:
            ValueError: if the move is not legal.
        """
        cdef int sq = int(move)
        cdef uint64_t P = board.pos.player, O = board.pos.opponent, f
        cdef Child child
        if not 0 <= sq < 64 or not (legal_moves(P, O) & square_bit(sq)):
            raise ValueError(f"square {sq} is not a legal move here")
        f = flips(P, O, sq)
        child = make_move(P, O, sq, f)
        mover, other = child.opponent, child.player
        empty = ~(mover | other) & 0xFFFFFFFFFFFFFFFF
        xs = exposed_x_squares(empty)
        return {
            "flips": popcount(f),
            "discs": popcount(mover) - popcount(other),
            "mobility": popcount(legal_moves(other, mover)),
            "xsquares": popcount(mover & xs) - popcount(other & xs),
            "corners": popcount(mover & CORNERS) - popcount(other & CORNERS),
            "pattern": self._pattern_value(mover, other),
            "parity": parity_feature(empty),
        }

    def _pattern_value(self, uint64_t mover, uint64_t other) -> int:
        """The pattern feature (discs) with the shared table, also
        for an evaluator that does not weigh it."""
        cdef const int16_t[:, ::1] view
        cdef int geometry
        if self.pattern_array is not None:
            view = self.pattern_array
            geometry = self.w.pattern_geometry
        else:
            from genethello.core.evaluation.pattern_table import shared_table
            table = shared_table(self.pattern_request)
            view = table.array
            geometry = table.geometry_id
        return pattern_eval(&view[0, 0], geometry, mover, other) >> PATTERN_SHIFT

    def evaluate_move(self, Board board, move) -> int:
        """The evaluation of playing ``move`` on ``board`` for the mover."""
        cdef int sq = int(move)
        cdef uint64_t P = board.pos.player, O = board.pos.opponent, f
        cdef Child child
        if not 0 <= sq < 64 or not (legal_moves(P, O) & square_bit(sq)):
            raise ValueError(f"square {sq} is not a legal move here")
        f = flips(P, O, sq)
        child = make_move(P, O, sq, f)
        return evaluate_leaf(&self.leaf, child.opponent, child.player, f,
                             legal_moves(child.player, child.opponent))
