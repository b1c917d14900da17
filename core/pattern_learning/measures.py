"""How well a table predicts: the sign of its score against the games'
winners (``sign_accuracy``), against perfect play (``perfect_play_accuracy``)
and its score against the exact final margin (``score_errors``), with the
exact solves they need (``exact_margins``, optionally in worker processes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import partial
from typing import Any

import numpy as np

from genethello.core.engine.board import Board
from genethello.core.engine.search import Searcher
from genethello.core.engine.squares import BLACK
from genethello.core.evaluation import patterns as pt
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.frontend.errors import UserError
from genethello.core.pattern_learning.fit import pairwise_dot
from genethello.core.pattern_learning.games import GameSet
from genethello.core.play.seeds import derive_seed

#: ``progress(done, total)`` as exact solves finish.
SolveProgress = Callable[[int, int], None]
#: ``progress(move number or empties count, done, total)`` as exact solves finish.
StageSolveProgress = Callable[[int, int, int], None]

PREDICTORS = ("pattern", "discs", "mobility", "squares")
PERFECT_MAX_EMPTIES = 24    # exact solves beyond this take too long to sample


def _sign_hits(values: np.ndarray, won: np.ndarray) -> float:
    """Share of positions where the sign of ``values`` names the winner; 0 counts half."""
    hits = np.where(values == 0, 0.5, ((values > 0) == won).astype(np.float64))
    return float(hits.mean()) if hits.size else float("nan")


def _predictor_values(games: GameSet, table: np.ndarray, sel: np.ndarray) -> dict[str, np.ndarray]:
    m, o = games.movers[sel], games.others[sel]
    values = {"pattern": pt.scores(table, m, o, games.move_numbers[sel])}
    values["discs"], values["mobility"], values["squares"] = pt.simple_predictors(m, o)
    return values


def sign_accuracy(games: GameSet, table: np.ndarray,
                  move_numbers: Sequence[int] = (20, 30, 40)) -> list[dict[str, Any]]:
    """For the positions at each move number of every decisive game, how
    often the sign of each predictor (for the mover) matches the result.
    A predictor of exactly 0 counts half.

    Returns:
        one dict per move number: move, positions, and a fraction per predictor.
    """
    out: list[dict[str, Any]] = []
    for move in move_numbers:
        sel = (games.move_numbers == move) & (games.targets != 0)
        values = _predictor_values(games, table, sel)
        won = games.targets[sel] > 0
        row: dict[str, Any] = {"move": move, "positions": int(sel.sum())}
        row.update({name: _sign_hits(values[name], won) for name in PREDICTORS})
        out.append(row)
    return out


SOLVE_CHUNK = 32   # positions a worker process solves per task


def _solve_positions(movers: list[int], others: list[int], progress: SolveProgress | None = None) -> list[int]:
    """Exact margins for the movers, with one searcher (and table) for all."""
    searcher = Searcher(Evaluator(), tt_bits=20)
    out: list[int] = []
    for mover, other in zip(movers, others):
        out.append(-searcher.solve(Board.from_bitboards(other, mover, BLACK)).value)
        if progress is not None:
            progress(len(out), len(movers))
    return out


def exact_margins(movers: np.ndarray, others: np.ndarray, progress: SolveProgress | None = None,
                  workers: int = 1) -> np.ndarray:
    """The perfect-play final disc difference (empties to the winner) of
    each position, for the player who just moved (the other side is to
    move, or passes). ``progress(done, total)`` is called as solves finish;
    ``workers`` > 1 solves in that many processes (same values, same order)."""
    m, o = movers.tolist(), others.tolist()
    if workers <= 1:
        return np.array(_solve_positions(m, o, progress), dtype=np.int64).reshape(len(m))
    out = np.zeros(len(m), dtype=np.int64)
    done = 0
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_solve_positions, m[i:i + SOLVE_CHUNK], o[i:i + SOLVE_CHUNK]): i
                   for i in range(0, len(m), SOLVE_CHUNK)}
        for future in as_completed(futures):
            values = future.result()
            start = futures[future]
            out[start:start + len(values)] = values
            done += len(values)
            if progress is not None:
                progress(done, len(out))
    return out


def perfect_play_accuracy(games: GameSet, table: np.ndarray, move_numbers: Sequence[int] = (40,),
                          sample: int = 1000, progress: StageSolveProgress | None = None,
                          workers: int = 1) -> list[dict[str, Any]]:
    """How often perfect play predicts the human winner: the ceiling of any
    static score. For each move number (at most PERFECT_MAX_EMPTIES empties),
    up to ``sample`` decisive positions spread evenly over the games are
    solved exactly; the sign of their perfect-play margin is scored beside
    every predictor of ``sign_accuracy`` on the same positions.

    Returns:
        one dict per move number: move, positions (solved), a fraction per
        predictor and 'perfect', and 'ahead_wins': for each exact margin
        seen, (positions, share the side it favours won).
    Raises:
        ValueError: for a move number with more than PERFECT_MAX_EMPTIES empties.
    """
    out: list[dict[str, Any]] = []
    for move in move_numbers:
        if 60 - move > PERFECT_MAX_EMPTIES:
            raise UserError(f"perfect play is measured from move {60 - PERFECT_MAX_EMPTIES} on "
                             f"(at most {PERFECT_MAX_EMPTIES} empties), not at move {move}")
        where = np.nonzero((games.move_numbers == move) & (games.targets != 0))[0]
        if where.size > sample:
            where = where[np.linspace(0, where.size - 1, sample).round().astype(np.int64)]
        sel = np.zeros(games.move_numbers.size, dtype=bool)
        sel[where] = True
        values = _predictor_values(games, table, sel)
        values["perfect"] = exact_margins(games.movers[sel], games.others[sel],
                                          None if progress is None else partial(progress, move), workers)
        won = games.targets[sel] > 0
        row: dict[str, Any] = {"move": move, "positions": int(sel.sum())}
        row.update({name: _sign_hits(values[name], won) for name in PREDICTORS + ("perfect",)})
        favoured_won = np.where(values["perfect"] > 0, won, ~won)
        row["ahead_wins"] = {int(v): (int((values["perfect"] == v).sum()),
                                      float(favoured_won[values["perfect"] == v].mean()))
                             for v in np.unique(values["perfect"])}
        out.append(row)
    return out


SCORE_ERROR_EMPTIES = (16, 20)   # the empties counts `patterns evaluate --mae` samples


def score_errors(games: GameSet, table: np.ndarray, empties: tuple[int, ...] = SCORE_ERROR_EMPTIES,
                 sample: int = 300, seed: int = 0, workers: int = 1,
                 progress: StageSolveProgress | None = None) -> list[dict[str, Any]]:
    """The error of the table's static score against the exact final margin.

    For each empties count (at most PERFECT_MAX_EMPTIES), ``sample``
    positions with exactly that many empty squares are drawn from ``games``
    (all of them if fewer; drawn without replacement by
    ``np.random.default_rng([seed, empties])``, then kept in file order, so
    the same games, seed and sample give the same positions whatever the
    other empties counts asked for) and solved exactly with
    ``exact_margins`` (``workers`` processes). Decided and drawn games alike
    are kept: this measures the score, not the winner.

    Viewpoint and units: both numbers are for the player who just moved (the
    point of view of the table and of the learner's target; the other side
    is to move, or passes), in discs of final disc difference with empties
    to the winner. The static score is ``patterns.scores`` (table units) /
    TABLE_SCALE, i.e. the same sum of the stage's 16 instances the learner
    fitted to the final margin. The error is score - exact.

    Beside the table, the same positions measure the game's own final
    margin (``games.targets``) against the exact one: how far the players'
    later moves took the game from perfect play, i.e. the noise of the human
    results a table fitted to games (v1, v2's prior) learned from.

    ``progress(empties, done, total)`` is called as solves finish.

    Returns:
        one dict per empties count: empties, positions, mae, rmse, bias (mean
        signed error; all in discs; nan when no position), result_mae (the
        final margin's MAE against the exact one), and per position (in
        sample order) 'index' (into ``games``' arrays), 'score' (float
        discs) and 'exact' (int discs).
    Raises:
        ValueError: for an empties count outside 0..PERFECT_MAX_EMPTIES or a
        negative sample.
    """
    if sample < 0:
        raise UserError(f"sample must be >= 0, got {sample}")
    out: list[dict[str, Any]] = []
    for count in empties:
        if not 0 <= count <= PERFECT_MAX_EMPTIES:
            raise UserError(f"score errors are measured at 0..{PERFECT_MAX_EMPTIES} empties, not {count}")
        where = np.nonzero(games.move_numbers == 60 - count)[0]
        if where.size > sample:
            rng = np.random.default_rng(derive_seed(seed, "score-error-sample", count))
            where = np.sort(rng.choice(where, size=sample, replace=False))
        m, o = games.movers[where], games.others[where]
        score = pt.scores(table, m, o, games.move_numbers[where]).astype(np.float64) / pt.TABLE_SCALE_
        exact = exact_margins(m, o, None if progress is None else partial(progress, count), workers)
        err = score - exact
        n = int(err.size)
        row: dict[str, Any] = {"empties": count, "positions": n,
               "mae": float(np.abs(err).mean()) if n else float("nan"),
               "rmse": float(np.sqrt(pairwise_dot(err, err) / n)) if n else float("nan"),
               "bias": float(err.mean()) if n else float("nan"),
               "result_mae": float(np.abs(games.targets[where] - exact).mean()) if n else float("nan"),
               "index": where.astype(np.int64), "score": score, "exact": exact}
        out.append(row)
    return out
