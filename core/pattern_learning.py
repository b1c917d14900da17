"""Learning the pattern tables from game records, and the shipped table file.

What is fitted: for every stage (``patterns.stage_moves``), one value per
configuration of each pattern shape, such that the sum of the 16 instances'
values in a position predicts the game's final disc difference (empties to
the winner) for the player who just moved — the point of view of every
evaluation feature. All shapes of a stage are fitted jointly, by ridge-
regularised least squares:

    minimise  sum_positions (sum_k w[idx_k] - margin)^2 + RIDGE * sum_j w_j^2

Why least squares on the disc difference rather than logistic regression on
the win: the fitted values are then in discs, the unit of the disc feature,
so the pattern feature combines with the other weights on a known scale; the
margin carries more information per game than win/loss (a 40-24 win and a
33-31 win are different positions), and the normal equations are a linear
system that a fixed number of conjugate-gradient steps solves exactly
reproducibly. Winner prediction by sign is measured, not assumed
(``sign_accuracy``).

Shrinkage: the ridge term acts like RIDGE pseudo-positions that say 0 for
every configuration, so a configuration seen a handful of times stays near 0
while one seen thousands of times keeps its fitted value; configurations
seen fewer than MIN_COUNT times are not fitted at all (value 0). Each stage
also learns from the OVERLAP moves on either side of it, which smooths the
tables from one stage to the next.

Determinism: everything is numpy float64 in one thread: sparse products by
gather / ``np.bincount`` (sequential sums), dot products by numpy's pairwise
sum (not BLAS), a fixed number of preconditioned CG iterations, then
rounding to int16 (units of 1/TABLE_SCALE disc). The same games give the
same bytes on the same machine.

Validation: game records whose line number (1-based) is a multiple of
HOLDOUT (every 10th game) are never trained on; ``sign_accuracy`` on them
is the honest measure.

The table file (``data/patterns-v1.bin``) and its loading live in
:mod:`pattern_table`, which the evaluator uses without importing this
learner.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from genethello.core import patterns as pt
from genethello.core.board import Board
from genethello.core.evaluation import Evaluator
from genethello.core.search import Searcher
from genethello.core.squares import square_name

HOLDOUT = 10          # every HOLDOUT-th line is validation, never trained on
RIDGE = 4.0           # pseudo-positions pulling each value toward 0
MIN_COUNT = 2         # configurations seen fewer times in a stage's data stay 0
ITERATIONS = 60       # preconditioned CG steps per stage
OVERLAP = 2           # a stage also learns from this many moves on each side

_SQUARE_TEXT = "abcdefgh"


class GameFileError(ValueError):
    """A games file line that is not a legal, finished game."""


# ------------------------------------------------------------------ games
@dataclass
class GameSet:
    """Positions of the good games of a file, after every move.

    Attributes:
        movers, others: discs of the player who just moved / the other one.
        move_numbers: discs on the board - 4.
        targets: final disc difference for the mover (empties to the winner).
        lines: for each position, the 1-based line number of its game.
        games: how many good games; skipped: bad lines skipped (--skip-bad);
        first_error: the message of the first skipped line, or None.
        sha256: of the file's (uncompressed) bytes.
    """
    movers: np.ndarray
    others: np.ndarray
    move_numbers: np.ndarray
    targets: np.ndarray
    lines: np.ndarray
    games: int
    skipped: int = 0
    first_error: str | None = None
    sha256: str = ""
    name: str = ""

    def select(self, mask: np.ndarray) -> GameSet:
        """The positions where ``mask`` is true (a view for a slice of games)."""
        games = int(np.unique(self.lines[mask]).size)
        return GameSet(self.movers[mask], self.others[mask], self.move_numbers[mask], self.targets[mask],
                       self.lines[mask], games, self.skipped, self.first_error, self.sha256, self.name)

    def slice(self, which: str, holdout: int = HOLDOUT) -> GameSet:
        """'training' (line % holdout != 0), 'validation' (line % holdout == 0) or 'all'."""
        if which == "all" or (holdout == 0 and which == "training"):
            return self
        if holdout < 1:
            raise ValueError(f"no {which} slice without a holdout (holdout={holdout})")
        held = (self.lines % holdout) == 0
        if which == "validation":
            return self.select(held)
        if which == "training":
            return self.select(~held)
        raise ValueError(f"slice must be 'training', 'validation' or 'all', not {which!r}")


def _parse_line(text: str, number: int) -> list[int]:
    """Squares of one strict move-list line ('f5d6c3...').

    Raises:
        GameFileError: naming the line, the move number and the bad text.
    """
    if not text:
        raise GameFileError(f"line {number}: empty line (expected a move list like f5d6c3...)")
    raw = text.encode("ascii", "replace")
    codes = np.frombuffer(raw, dtype=np.uint8)
    cols, rows = codes[0::2], codes[1::2]
    if (len(raw) % 2 or ((cols < 97) | (cols > 104)).any() or ((rows < 49) | (rows > 56)).any()):
        for i in range(0, len(text), 2):
            pair = text[i:i + 2]
            if len(pair) < 2 or pair[0] not in _SQUARE_TEXT or pair[1] not in "12345678":
                raise GameFileError(f"line {number}: move {i // 2 + 1} {pair!r} is not a square a1..h8 "
                                    "(bad character)")
    return ((rows.astype(np.int64) - 49) * 8 + (cols.astype(np.int64) - 97)).tolist()


def _open_text(path: Path) -> bytes:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data


def read_games(path: str | Path, skip_bad: bool = False, limit: int | None = None) -> GameSet:
    """Replay every game of a move-list file (one game per line, gzip or
    plain) and collect the positions after each move.

    Args:
        skip_bad: skip (and count) lines that are not a legal finished game
            instead of failing on the first one.
        limit: read only the first ``limit`` lines.
    Raises:
        GameFileError: for the first bad line (unless skip_bad), naming the
            line number and the move.
        OSError: if the file cannot be read.
    """
    path = Path(path)
    data = _open_text(path)
    digest = hashlib.sha256(data).hexdigest()
    text_lines = data.decode("latin-1").split("\n")
    if text_lines and text_lines[-1] == "":
        text_lines.pop()
    if limit is not None:
        text_lines = text_lines[:limit]
    games: list[list[int]] = []
    numbers: list[int] = []
    skipped = 0
    first_error = None

    def bad(message: str) -> None:
        nonlocal skipped, first_error
        if not skip_bad:
            raise GameFileError(message + " (use --skip-bad to skip such lines)")
        skipped += 1
        if first_error is None:
            first_error = message

    for number, line in enumerate(text_lines, start=1):
        try:
            games.append(_parse_line(line.rstrip("\r"), number))
            numbers.append(number)
        except GameFileError as exc:
            bad(str(exc))
    movers, others, move_numbers, targets, game_index, errors = pt.replay_games(games)
    if errors:
        dropped = set()
        for gi, move, code in errors:
            number = numbers[gi]
            sq = games[gi][move - 1] if 0 < move <= len(games[gi]) else None
            if code == pt.REPLAY_ILLEGAL:
                message = f"line {number}: move {move} ({square_name(sq)}) is illegal"
            elif code == pt.REPLAY_AFTER_END:
                message = f"line {number}: move {move} ({square_name(sq)}) comes after the end of the game"
            else:
                message = f"line {number}: the game is not finished after its {move} moves"
            bad(message)
            dropped.add(gi)
        # replay_games already left those games out; renumber the rest
        kept = [gi for gi in range(len(games)) if gi not in dropped]
        numbers = [numbers[gi] for gi in kept]
        # game_index counts all games given; map it through the kept list
        remap = np.full(len(games), -1, dtype=np.int64)
        remap[np.array(kept, dtype=np.int64)] = np.arange(len(kept))
        game_index = remap[game_index]
    lines = np.array(numbers, dtype=np.int64)[game_index] if len(numbers) else np.zeros(0, np.int64)
    return GameSet(movers, others, move_numbers, targets, lines, len(numbers), skipped, first_error,
                   digest, path.name)


# --------------------------------------------------------------- symmetry
def canonical_map(geometry: int = pt.V1) -> np.ndarray:
    """For each index of a stage's table, the index its value is tied to
    (the smaller of a configuration and its mirror image, per shape)."""
    g = pt.GEOMETRIES[geometry]
    out = np.arange(g["stage_size"], dtype=np.int64)
    for (name, squares, _, offset, size), mirror in zip(g["shapes"], g["mirrors"]):
        if mirror is None:
            continue
        n = len(squares)
        idx = np.arange(size, dtype=np.int64)
        digits = np.stack([(idx // 3 ** i) % 3 for i in range(n)], axis=1)
        # mirrored configuration: digit at position i moves to mirror[i]
        mirrored = np.zeros(size, dtype=np.int64)
        for i in range(n):
            mirrored += digits[:, i] * 3 ** mirror[i]
        out[offset:offset + size] = offset + np.minimum(idx, mirrored)
    return out


# --------------------------------------------------------------- learning
def _dot(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.add.reduce(a * b))      # numpy pairwise sum: one thread, fixed order


def _fit_stage(cols: np.ndarray, y: np.ndarray, ridge: float | np.ndarray, min_count: int,
               iterations: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Ridge least squares for one stage.

    Args:
        cols: (n, instances) canonical indices; y: (n,) float64 targets.
        ridge: one ridge for every value, or one per table index.
    Returns:
        (canonical indices fitted, their values in discs, how many fitted).
    """
    n, k = cols.shape
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0), 0
    uniq, inverse = np.unique(cols.ravel(), return_inverse=True)
    inverse = inverse.reshape(n, k)
    counts = np.bincount(inverse.ravel(), minlength=uniq.size)
    rare = counts < min_count
    m = int(uniq.size)
    # rare columns go to a sentinel column m that is held at 0
    remap = np.arange(m + 1, dtype=np.int64)
    remap[:m][rare] = m
    J = remap[inverse]
    flat = J.ravel()
    # diagonal of A^T A (+ ridge) as Jacobi preconditioner; counts include
    # repeats of one column in a row only approximately (fine for a preconditioner)
    if np.ndim(ridge):
        ridge = np.append(np.asarray(ridge, dtype=np.float64)[uniq], 0.0)
    diag = np.bincount(flat, minlength=m + 1).astype(np.float64) + ridge
    inv_diag = 1.0 / diag
    inv_diag[m] = 0.0

    def apply(w: np.ndarray) -> np.ndarray:          # (A^T A + ridge I) w
        r = w[J].sum(axis=1)
        out = np.bincount(flat, weights=np.repeat(r, k), minlength=m + 1)
        out += ridge * w
        out[m] = 0.0
        return out

    b = np.bincount(flat, weights=np.repeat(y, k), minlength=m + 1)
    b[m] = 0.0
    w = np.zeros(m + 1)
    r = b.copy()
    z = r * inv_diag
    p = z.copy()
    rz = _dot(r, z)
    for _ in range(iterations):
        if rz == 0.0:
            break
        q = apply(p)
        pq = _dot(p, q)
        if pq == 0.0:
            break
        alpha = rz / pq
        w += alpha * p
        r -= alpha * q
        z = r * inv_diag
        rz_new = _dot(r, z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    keep = ~rare
    return uniq[keep], w[:m][keep], int(keep.sum())


@dataclass
class LearnReport:
    positions: int
    games: int
    fitted: list[int] = field(default_factory=list)      # configurations fitted per stage
    rmse: list[float] = field(default_factory=list)      # training RMSE (discs) per stage


def learn(games: GameSet, ridge: float = RIDGE, min_count: int = MIN_COUNT,
          iterations: int = ITERATIONS, overlap: int = OVERLAP, progress=None,
          geometry: int = pt.V1) -> tuple[np.ndarray, LearnReport]:
    """Fit a table of ``geometry`` on every position of ``games`` (pass the
    training slice) to the games' final results.

    Returns:
        (int16 table of the geometry's shape, report).
    """
    table, report = learn_labels(games.movers, games.others, games.targets, geometry, None, ridge=ridge,
                                 min_count=min_count, iterations=iterations, overlap=overlap, progress=progress)
    report.games = games.games
    return table, report


# ------------------------------------------------- learning from labels
LABEL_RIDGE = 8.0        # pseudo-positions pulling each value toward the prior's
LARGE_SHAPE = 19683      # shapes with at least this many configurations take ``large_ridge``
LABEL_OVERLAP = 2        # moves on each side of a v2 stage (2 moves wide) also learnt from


def prior_values(prior: np.ndarray | None, geometry: int) -> np.ndarray:
    """A starting table (float64 discs) of ``geometry`` from ``prior`` (a
    table of any geometry, or None: zeros): each stage takes the prior's
    values of its first move's stage for the shapes they share (v1's shapes
    open every geometry's layout); shapes the prior lacks start at 0."""
    g = pt.GEOMETRIES[geometry]
    out = np.zeros((g["n_stages"], g["stage_size"]), dtype=np.float64)
    if prior is None:
        return out
    prior = np.asarray(prior)
    pg = pt.GEOMETRIES[pt.geometry_of_table(prior)]
    shared = min(pg["stage_size"], g["stage_size"])
    for stage in range(g["n_stages"]):
        first, _ = pt.stage_moves(stage, geometry)
        source = pt.stage_of_move(first, pt.geometry_of_table(prior))
        out[stage, :shared] = prior[source, :shared].astype(np.float64) / pt.TABLE_SCALE_
    return out


def learn_labels(movers: np.ndarray, others: np.ndarray, values: np.ndarray, geometry: int = pt.V2,
                 prior: np.ndarray | None = None, ridge: float = LABEL_RIDGE, min_count: int = MIN_COUNT,
                 iterations: int = ITERATIONS, overlap: int = LABEL_OVERLAP,
                 progress=None, large_ridge: float | None = None) -> tuple[np.ndarray, LearnReport]:
    """Fit a table of ``geometry`` to labelled positions (``patterns label``).

    Each stage is the prior's (``prior_values``) plus a ridge least-squares
    correction fitted to the labels' residuals against it: a configuration
    the labels never show keeps the prior's value, one they show thousands
    of times takes theirs. The same deterministic CG as ``learn``.

    Args:
        movers, others: the positions (uint64); values: their labels (discs
            for the mover).
        large_ridge: the ridge of the shapes with LARGE_SHAPE or more
            configurations (the corners and edges, whose values the prior
            knows from far more games than the labels hold); None: ``ridge``.
    Returns:
        (int16 table, report with per-stage configurations fitted and RMSE).
    """
    g = pt.GEOMETRIES[geometry]
    canon = canonical_map(geometry)
    idx = canon[pt.indices(movers, others, geometry)]
    moves = pt.move_numbers(movers, others)
    y_all = np.asarray(values, dtype=np.float64)
    start = prior_values(prior, geometry)
    penalty: float | np.ndarray = ridge
    if large_ridge is not None:
        penalty = np.full(g["stage_size"], float(ridge))
        for _, _, _, offset, size in g["shapes"]:
            if size >= LARGE_SHAPE:
                penalty[offset:offset + size] = large_ridge
    table = np.zeros((g["n_stages"], g["stage_size"]), dtype=np.int16)
    report = LearnReport(positions=int(moves.size), games=0)
    for stage in range(g["n_stages"]):
        first, last = pt.stage_moves(stage, geometry)
        rows = (moves >= first - overlap) & (moves <= last + overlap)
        base = start[stage]
        residual = y_all[rows] - base[idx[rows]].sum(axis=1)
        cols, delta, fitted = _fit_stage(idx[rows], residual, penalty, min_count, iterations)
        full = base.copy()
        full[cols] += delta
        full = full[canon]
        q = np.clip(np.rint(full * pt.TABLE_SCALE_), -32767, 32767).astype(np.int16)
        table[stage] = q
        in_stage = (moves >= first) & (moves <= last)
        pred = q.astype(np.int64)[idx[in_stage]].sum(axis=1) / pt.TABLE_SCALE_
        err = pred - y_all[in_stage]
        report.fitted.append(fitted)
        report.rmse.append(float(np.sqrt(_dot(err, err) / max(1, err.size))))
        if progress is not None:
            progress(stage, fitted, report.rmse[-1])
    return table, report


# ---------------------------------------------------------------- evidence
PREDICTORS = ("pattern", "discs", "mobility", "squares")
PERFECT_MAX_EMPTIES = 24    # exact solves beyond this take too long to sample


def _sign_hits(values: np.ndarray, won: np.ndarray) -> float:
    """Share of positions where the sign of ``values`` names the winner; 0 counts half."""
    hits = np.where(values == 0, 0.5, ((values > 0) == won).astype(np.float64))
    return float(hits.mean()) if hits.size else float("nan")


def _predictor_values(games: GameSet, table: np.ndarray, sel: np.ndarray) -> dict:
    m, o = games.movers[sel], games.others[sel]
    values = {"pattern": pt.scores(table, m, o, games.move_numbers[sel])}
    values["discs"], values["mobility"], values["squares"] = pt.simple_predictors(m, o)
    return values


def sign_accuracy(games: GameSet, table: np.ndarray, move_numbers=(20, 30, 40)) -> list[dict]:
    """For the positions at each move number of every decisive game, how
    often the sign of each predictor (for the mover) matches the result.
    A predictor of exactly 0 counts half.

    Returns:
        one dict per move number: move, positions, and a fraction per predictor.
    """
    out = []
    for move in move_numbers:
        sel = (games.move_numbers == move) & (games.targets != 0)
        values = _predictor_values(games, table, sel)
        won = games.targets[sel] > 0
        row = {"move": move, "positions": int(sel.sum())}
        row.update({name: _sign_hits(values[name], won) for name in PREDICTORS})
        out.append(row)
    return out


SOLVE_CHUNK = 32   # positions a worker process solves per task


def _solve_positions(movers: list[int], others: list[int], progress=None) -> list[int]:
    """Exact margins for the movers, with one searcher (and table) for all."""
    searcher = Searcher(Evaluator(), tt_bits=20)
    out = []
    for mover, other in zip(movers, others):
        out.append(-searcher.solve(Board.from_bitboards(other, mover, "black")).value)
        if progress is not None:
            progress(len(out), len(movers))
    return out


def exact_margins(movers: np.ndarray, others: np.ndarray, progress=None, workers: int = 1) -> np.ndarray:
    """The perfect-play final disc difference (empties to the winner) of
    each position, for the player who just moved (the other side is to
    move, or passes). ``progress(done, total)`` is called as solves finish;
    ``workers`` > 1 solves in that many processes (same values, same order)."""
    m, o = movers.tolist(), others.tolist()
    if workers <= 1:
        return np.array(_solve_positions(m, o, progress), dtype=np.int64).reshape(len(m))
    out = np.zeros(len(m), dtype=np.int64)
    from concurrent.futures import ProcessPoolExecutor, as_completed

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


def perfect_play_accuracy(games: GameSet, table: np.ndarray, move_numbers=(40,), sample: int = 1000,
                          progress=None, workers: int = 1) -> list[dict]:
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
    out = []
    for move in move_numbers:
        if 60 - move > PERFECT_MAX_EMPTIES:
            raise ValueError(f"perfect play is measured from move {60 - PERFECT_MAX_EMPTIES} on "
                             f"(at most {PERFECT_MAX_EMPTIES} empties), not at move {move}")
        where = np.nonzero((games.move_numbers == move) & (games.targets != 0))[0]
        if where.size > sample:
            where = where[np.linspace(0, where.size - 1, sample).round().astype(np.int64)]
        sel = np.zeros(games.move_numbers.size, dtype=bool)
        sel[where] = True
        values = _predictor_values(games, table, sel)
        values["perfect"] = exact_margins(games.movers[sel], games.others[sel],
                                          None if progress is None else lambda d, n, m=move: progress(m, d, n),
                                          workers)
        won = games.targets[sel] > 0
        row = {"move": move, "positions": int(sel.sum())}
        row.update({name: _sign_hits(values[name], won) for name in PREDICTORS + ("perfect",)})
        favoured_won = np.where(values["perfect"] > 0, won, ~won)
        row["ahead_wins"] = {int(v): (int((values["perfect"] == v).sum()),
                                      float(favoured_won[values["perfect"] == v].mean()))
                             for v in np.unique(values["perfect"])}
        out.append(row)
    return out


SCORE_ERROR_EMPTIES = (16, 20)   # the empties counts `patterns evaluate --mae` samples


def score_errors(games: GameSet, table: np.ndarray, empties: tuple[int, ...] = SCORE_ERROR_EMPTIES,
                 sample: int = 300, seed: int = 0, workers: int = 1, progress=None) -> list[dict]:
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
        raise ValueError(f"sample must be >= 0, got {sample}")
    out = []
    for count in empties:
        if not 0 <= count <= PERFECT_MAX_EMPTIES:
            raise ValueError(f"score errors are measured at 0..{PERFECT_MAX_EMPTIES} empties, not {count}")
        where = np.nonzero(games.move_numbers == 60 - count)[0]
        if where.size > sample:
            rng = np.random.default_rng([seed, count])
            where = np.sort(rng.choice(where, size=sample, replace=False))
        m, o = games.movers[where], games.others[where]
        score = pt.scores(table, m, o, games.move_numbers[where]).astype(np.float64) / pt.TABLE_SCALE_
        exact = exact_margins(m, o, None if progress is None else lambda d, n, e=count: progress(e, d, n), workers)
        err = score - exact
        n = int(err.size)
        row = {"empties": count, "positions": n,
               "mae": float(np.abs(err).mean()) if n else float("nan"),
               "rmse": float(np.sqrt(_dot(err, err) / n)) if n else float("nan"),
               "bias": float(err.mean()) if n else float("nan"),
               "result_mae": float(np.abs(games.targets[where] - exact).mean()) if n else float("nan"),
               "index": where.astype(np.int64), "score": score, "exact": exact}
        out.append(row)
    return out


# ------------------------------------------------------------------ display
def accuracy_lines(rows: list[dict], names=PREDICTORS, count_title: str = "positions") -> list[str]:
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
        raise ValueError(f"edge configuration must be 8+1+1 characters of X, O, -: {text!r}")
    return sum("-XO".index(ch) * 3 ** i for i, ch in enumerate(text))


def landmark_values(table: np.ndarray, stage: int) -> list:
    """For each of EDGE_LANDMARKS: (edge, b2, g2, meaning, edge-table value,
    all-tables value), in discs; the all-tables value is the pattern score of
    a board holding only those discs minus that of an empty board, i.e.
    what the configuration is worth once the corner and 2x5 tables that
    overlap the edge are counted too."""
    first, last = pt.stage_moves(stage, pt.geometry_of_table(table))
    out = []
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


def edge_extremes(table: np.ndarray, stage: int, count: int = 10) -> tuple[list, list]:
    """The ``count`` best and worst edge+2X configurations of a stage (each
    mirror pair once; all-empty and never-fitted (0) configurations left out),
    as [(value in discs, row text a1..h1, b2, g2)]."""
    size = pt.SHAPES[0][4]                      # edge+2X, at offset 0
    canon = canonical_map()[:size]
    values = np.asarray(table)[stage, :size].astype(np.int64)
    ids = np.nonzero((canon == np.arange(size)) & (values != 0))[0]
    order = np.argsort(-values[ids], kind="stable")
    def row(i):
        text = config_text(int(i), 10)
        return (values[i] / pt.TABLE_SCALE_, text[:8], text[8], text[9])
    best = [row(ids[j]) for j in order[:count]]
    worst = [row(ids[j]) for j in order[::-1][:count]]
    return best, worst
