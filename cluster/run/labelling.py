"""Labelling positions for the pattern learner, many at a time.

Decisions here are pure: which positions (``label_plan``), the labels file's
header and lines (``LabelSettings``, ``format_line``, ``parse_line``), and
the order they are written in (``OrderedWriter``). The position values come
from the core (:mod:`genethello.core.pattern_learning.position_labels`), on the workers.

The plan is a sequence of *units*, each a game: the training games of the
file in file order (every ``holdout``-th line is validation and never used),
with one self-play game after every ``selfplay_every`` of them. From each
unit, ``exact_per_game`` positions with at most ``exact_empties`` empties
and ``search_per_game`` with more are drawn without replacement by
``numpy.random.default_rng([seed, kind, number])`` and kept in move order.
A self-play game is a seeded random opening of 4..20 plies followed by a
pattern-only depth-2 engine that plays a random legal move one time in ten,
all from ``random.Random`` seeded by (seed, its number): the same on every
machine.

The file is written in plan order whatever order the workers finish in, so
a file is a pure function of its settings and of how many units were
labelled, and a longer run extends a shorter one: a stopped run resumes
from its last complete line and ends with the same bytes as one that never
stopped.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

import numpy as np

from genethello.core.evaluation.patterns import move_numbers
from genethello.core.frontend.bounded_cache import BoundedCache
from genethello.core.pattern_learning import GameSet
from genethello.core.pattern_learning.label_file import LabelSettings, format_line
from genethello.core.pattern_learning.position_labels import Labeller
from genethello.core.play.seeds import derive_seed

if TYPE_CHECKING:
    from genethello.core.engine.search import Searcher

SELFPLAY_EPSILON = 0.1           # a self-play move is random this often
SELFPLAY_DEPTH = 2


@dataclass(frozen=True)
class PlannedPosition:
    """A position to label: its place in the plan and where it came from
    ('h' + the game's line number, or 's' + the self-play game number)."""

    index: int
    source: str
    mover: int
    other: int


@dataclass(frozen=True)
class LabelSpec:
    """A position travelling to a worker (how to measure it travels once,
    in its :class:`PositionLabels` task)."""

    index: int
    mover: int
    other: int


@dataclass(frozen=True)
class LabelOutcome:
    """A worker's measurement of one LabelSpec."""

    index: int
    empties: int
    exact: bool
    value: int
    nodes: int


#: This worker's labeller: one (a task's labeller replaces another's).
_LABELLERS: BoundedCache[tuple[int, int, str], Labeller] = BoundedCache(1)


@dataclass(frozen=True)
class PositionLabels:
    """The task of ``patterns label``: measure positions exactly (at most
    ``exact_empties`` empties) or by a ``search_depth`` search on pattern
    table ``patterns``, with this worker process's labeller."""

    exact_empties: int
    search_depth: int
    patterns: str

    def run(self, specs: Sequence[LabelSpec]) -> list[LabelOutcome]:
        key = (self.exact_empties, self.search_depth, self.patterns)
        labeller = _LABELLERS.get(key)
        if labeller is None:
            labeller = _LABELLERS.put(key, Labeller(self.exact_empties, self.search_depth, self.patterns))
        out = []
        for spec in specs:
            label = labeller.label(spec.mover, spec.other)
            out.append(LabelOutcome(spec.index, label.empties, label.exact, label.value, label.nodes))
        return out


# ------------------------------------------------------------------ plan
def _draw(rng: np.random.Generator, candidates: np.ndarray, count: int) -> np.ndarray:
    if candidates.size <= count:
        return candidates
    return np.sort(rng.choice(candidates, size=count, replace=False))


def _pick(settings: LabelSettings, kind: int, number: int, empties: np.ndarray) -> np.ndarray:
    """Indices (into one game's positions, in move order) of the positions
    drawn from a game with these empties counts."""
    rng = np.random.default_rng(derive_seed(settings.seed, "label-positions", kind, number))
    exact = _draw(rng, np.nonzero(empties <= settings.exact_empties)[0], settings.exact_per_game)
    deep = _draw(rng, np.nonzero(empties > settings.exact_empties)[0], settings.search_per_game)
    return np.sort(np.concatenate([exact, deep]))


def selfplay_game(seed: int, number: int, patterns: str | None = None) -> list[tuple[int, int]]:
    """The (mover, other) positions after every move of self-play game ``number``."""
    from genethello.core.engine.board import Board
    from genethello.core.engine.squares import PASS

    rng = random.Random(derive_seed(seed, "selfplay", number))
    searcher = _selfplay_searcher(patterns)
    board = Board()
    opening = rng.randint(4, 20)
    out: list[tuple[int, int]] = []
    while not board.is_game_over():
        if board.must_pass():
            board.play(PASS)
            continue
        moves = board.legal_moves()
        if len(out) < opening or rng.random() < SELFPLAY_EPSILON:
            move = moves[rng.randrange(len(moves))]
        else:
            searcher.clear()
            found = searcher.search(board, depth=SELFPLAY_DEPTH).move
            assert found is not None, "the position has legal moves"
            move = found
        board.play(move)
        out.append((board.opponent, board.player))
    return out


#: The self-play engines, one per pattern table version (there are a few).
_SELFPLAY: BoundedCache[str | None, Searcher] = BoundedCache(8)


def _selfplay_searcher(patterns: str | None) -> Searcher:
    """The self-play engine (pattern-only, one per table version)."""
    from genethello.core.engine.search import Searcher
    from genethello.core.evaluation.evaluation import Evaluator

    searcher = _SELFPLAY.get(patterns)
    if searcher is None:
        evaluator = Evaluator(weights=((0, 0, 0, 0, 0, 1, 0),) * 3, patterns=patterns)
        searcher = _SELFPLAY.put(patterns, Searcher(evaluator, tt_bits=14))
    return searcher


def training_lines(games: GameSet, holdout: int) -> np.ndarray:
    """The line numbers of the training games, in file order."""
    lines = np.unique(games.lines)
    return lines if holdout <= 0 else lines[lines % holdout != 0]


def label_plan(games: GameSet, settings: LabelSettings, units: int | None = None) -> Iterator[PlannedPosition]:
    """The positions to label, in plan order (see the module's docstring),
    from the first ``units`` units (None: every unit; self-play units do not
    end, so None with self-play stops after the last training game)."""
    lines = training_lines(games, settings.holdout)
    order = np.argsort(games.lines, kind="stable")
    sorted_lines = games.lines[order]
    every = settings.selfplay_every
    index = 0
    human = selfplay = 0
    unit = 0
    while units is None or unit < units:
        if every and unit % (every + 1) == every:
            positions = selfplay_game(settings.seed, selfplay, settings.patterns)
            movers = np.array([m for m, _ in positions], dtype=np.uint64)
            others = np.array([o for _, o in positions], dtype=np.uint64)
            source, kind, number = f"s{selfplay}", 1, selfplay
            selfplay += 1
        else:
            if human >= lines.size:
                return
            line = int(lines[human])
            lo, hi = np.searchsorted(sorted_lines, [line, line + 1])
            rows = order[lo:hi]
            movers, others = games.movers[rows], games.others[rows]
            source, kind, number = f"h{line}", 0, line
            human += 1
        unit += 1
        for k in _pick(settings, kind, number, 60 - move_numbers(movers, others)):
            yield PlannedPosition(index, source, int(movers[k]), int(others[k]))
            index += 1


def plan_size(games: GameSet, settings: LabelSettings, units: int | None = None) -> int:
    """How many positions ``label_plan`` yields (counted without self-play
    games played: a self-play game is assumed to yield its full quota)."""
    lines = training_lines(games, settings.holdout)
    every = settings.selfplay_every
    n_units = units if units is not None else (lines.size + (lines.size // every if every else 0))
    n_human = n_units - (n_units // (every + 1) if every else 0)
    n_human = min(n_human, lines.size)
    per = settings.exact_per_game + settings.search_per_game
    counts = np.bincount(games.lines.astype(np.int64))
    total = 0
    for line in lines[:n_human]:
        total += min(per, int(counts[line]))
    return total + (n_units - n_human) * per


class OrderedWriter:
    """Writes outcomes in plan order as they arrive in any order."""

    def __init__(self, stream: TextIO, next_index: int) -> None:
        self.stream = stream
        self.next_index = next_index
        self._waiting: dict[int, tuple[PlannedPosition, LabelOutcome]] = {}

    def add(self, planned: PlannedPosition, outcome: LabelOutcome) -> int:
        """Take one outcome; returns how many lines were written."""
        self._waiting[planned.index] = (planned, outcome)
        written = 0
        while self.next_index in self._waiting:
            p, o = self._waiting.pop(self.next_index)
            self.stream.write(format_line(p.source, p.index, o.empties, o.exact, o.value, p.mover, p.other,
                                          o.nodes))
            self.next_index += 1
            written += 1
        return written

    @property
    def waiting(self) -> int:
        return len(self._waiting)
