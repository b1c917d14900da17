"""The text the ``patterns`` commands print: accuracy tables, and a table's
values for edge configurations (landmarks, best and worst)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from genethello.core.evaluation import patterns as pt
from genethello.core.frontend.errors import UserError
from genethello.core.pattern_learning.fit import canonical_map
from genethello.core.pattern_learning.measures import PREDICTORS


def accuracy_lines(rows: list[dict[str, Any]], names: Sequence[str] = PREDICTORS,
                   count_title: str = "positions") -> list[str]:
    """The rows of ``sign_accuracy`` / ``perfect_play_accuracy`` as a table:
    a header, then per move number the count and a percentage per name."""
    lines = [f"{'move':>4} {count_title:>9} " + " ".join(f"{name:>8}" for name in names)]
    for row in rows:
        lines.append(f"{row['move']:>4} {row['positions']:>9} "
                     + " ".join(f"{100 * row[name]:7.1f}%" for name in names))
    return lines


def config_text(index: int, squares: int) -> str:
    """'X-O...' for a shape index: X mover, O other, - empty, in square order."""
    return "".join("-XO"[(index // 3 ** i) % 3] for i in range(squares))


#: (value in discs, edge a1..h1, b2, g2) of one edge+2X configuration.
EdgeValue = tuple[float, str, str, str]

EDGE_LANDMARKS = (
    # (edge a1..h1, b2, g2, what it shows)
    ("X-------", "-", "-", "a corner"),
    ("O-------", "-", "-", "a corner for the other"),
    ("--------", "X", "-", "an X-square next to an empty corner"),
    ("--------", "O", "-", "the other's X-square next to an empty corner"),
    ("XXX-----", "-", "-", "a stable corner run"),
    ("XXXXXXXX", "-", "-", "the whole edge"),
    ("--XXXX--", "-", "-", "a balanced edge"),
    ("-XXXXXX-", "-", "-", "a 6-disc edge (both corners open)"),
    ("-X------", "-", "-", "a lone C-square"),
)


def edge_index(edge: str, b2: str = "-", g2: str = "-") -> int:
    """Index in the edge+2X table of a configuration written like
    'X--OO---' (a1..h1) with b2 and g2 (X mover, O other, - empty)."""
    text = edge + b2 + g2
    if len(text) != 10 or any(ch not in "-XO" for ch in text):
        raise UserError(f"edge configuration must be 8+1+1 characters of X, O, -: {text!r}")
    return sum("-XO".index(ch) * 3 ** i for i, ch in enumerate(text))


def landmark_values(table: np.ndarray, stage: int) -> list[tuple[str, str, str, str, float, float]]:
    """For each of EDGE_LANDMARKS: (edge, b2, g2, meaning, edge-table value,
    all-tables value), in discs; the all-tables value is the pattern score of
    a board holding only those discs minus that of an empty board, i.e.
    what the configuration is worth once the corner and 2x5 tables that
    overlap the edge are counted too."""
    first, last = pt.stage_moves(stage, pt.geometry_of_table(table))
    out: list[tuple[str, str, str, str, float, float]] = []
    for edge, b2, g2, meaning in EDGE_LANDMARKS:
        mover = other = 0
        for ch, sq in zip(edge + b2 + g2, (0, 1, 2, 3, 4, 5, 6, 7, 9, 14)):
            mover |= (ch == "X") << sq
            other |= (ch == "O") << sq
        scores = pt.scores(table, np.array([mover, 0], np.uint64), np.array([other, 0], np.uint64),
                           np.array([last, last], np.uint8))
        edge_value = int(np.asarray(table)[stage, edge_index(edge, b2, g2)]) / pt.TABLE_SCALE_
        out.append((edge, b2, g2, meaning, edge_value, int(scores[0] - scores[1]) / pt.TABLE_SCALE_))
    return out


def edge_extremes(table: np.ndarray, stage: int, count: int = 10) -> tuple[list[EdgeValue], list[EdgeValue]]:
    """The ``count`` best and worst edge+2X configurations of a stage (each
    mirror pair once; all-empty and never-fitted (0) configurations left out),
    as [(value in discs, row text a1..h1, b2, g2)]."""
    size = pt.SHAPES[0][4]                      # edge+2X, at offset 0
    canon = canonical_map()[:size]
    values = np.asarray(table)[stage, :size].astype(np.int64)
    ids = np.nonzero((canon == np.arange(size)) & (values != 0))[0]
    order = np.argsort(-values[ids], kind="stable")
    def row(i: int) -> EdgeValue:
        text = config_text(int(i), 10)
        return (values[i] / pt.TABLE_SCALE_, text[:8], text[8], text[9])
    best = [row(ids[j]) for j in order[:count]]
    worst = [row(ids[j]) for j in order[::-1][:count]]
    return best, worst
