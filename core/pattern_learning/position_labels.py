"""The value of one position, as the core measures it: the label that pattern
tables are fitted to.

A position is given as (mover, other): the discs of the player who just moved
and of the other player, who is to move (or passes). Its label is a final
disc difference for the mover (empties to the winner), measured one of two
ways, decided by the number of empty squares alone:

* at ``exact_empties`` empties or fewer: the exact margin under perfect
  play, from the core's solver;
* above: minus the value of a ``search_depth``-ply negascout search for the
  side to move with the pattern score of a given table as the whole
  evaluation (in discs), iterative deepening from a cleared transposition
  table, so the value depends on the position and the table only, never on
  what was searched before.

Both are pure functions of the position (and the table), so a label is the
same on any worker, in any order. The many-positions side (which positions,
on which workers, the labels file) lives in the cluster package.
"""

from __future__ import annotations

from dataclasses import dataclass

from genethello.core.engine.board import Board
from genethello.core.engine.search import Searcher, disc_score
from genethello.core.engine.squares import BLACK
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.frontend.errors import UserError

DEFAULT_EXACT_EMPTIES = 20
DEFAULT_SEARCH_DEPTH = 10
LABEL_TT_BITS = 20           # 16 MiB of transposition table per labeller


@dataclass(frozen=True)
class PositionLabel:
    """A labelled position.

    Attributes:
        mover, other: the position (the other side is to move or passes).
        empties: empty squares.
        exact: True when ``value`` is the solved margin, False for a search value.
        value: final disc difference for the mover, in discs (-64..64).
        nodes: nodes the measurement visited (its cost).
    """
    mover: int
    other: int
    empties: int
    exact: bool
    value: int
    nodes: int


class Labeller:
    """Measures positions with one pair of engines (and tables) for many.

    Args:
        exact_empties: solve positions with at most this many empties (0..24).
        search_depth: plies of the search above that (1..20).
        patterns: the pattern table version the search evaluates with
            (None: the newest shipped one).
    Raises:
        ValueError: for a limit out of range or an unknown table version.
    """

    def __init__(self, exact_empties: int = DEFAULT_EXACT_EMPTIES, search_depth: int = DEFAULT_SEARCH_DEPTH,
                 patterns: str | None = None) -> None:
        if not 0 <= exact_empties <= 24:
            raise UserError(f"exact empties must be in 0..24, got {exact_empties}")
        if not 1 <= search_depth <= 20:
            raise UserError(f"search depth must be in 1..20, got {search_depth}")
        self.exact_empties = exact_empties
        self.search_depth = search_depth
        self.evaluator = Evaluator(weights=((0, 0, 0, 0, 0, 1, 0),) * 3, patterns=patterns)
        self.patterns = self.evaluator.pattern_version
        self._solver = Searcher(Evaluator(), tt_bits=LABEL_TT_BITS)
        self._searcher = Searcher(self.evaluator, tt_bits=LABEL_TT_BITS)

    def label(self, mover: int, other: int) -> PositionLabel:
        """The label of one position.

        Raises:
            ValueError: if the discs overlap or are not 64-bit masks.
        """
        if not (0 <= mover < 1 << 64 and 0 <= other < 1 << 64) or mover & other:
            raise ValueError(f"not a position: mover {mover:#x}, other {other:#x}")
        board = Board.from_bitboards(other, mover, BLACK)     # the other side is to move
        empties = board.empties
        if empties <= self.exact_empties:
            self._solver.clear()
            result = self._solver.solve(board)
            return PositionLabel(mover, other, empties, True, -int(result.value), result.nodes)
        self._searcher.clear()
        result = self._searcher.search(board, depth=self.search_depth)
        value = int(round(disc_score(result.value, result.exact)))
        return PositionLabel(mover, other, empties, False, -value, result.nodes)
