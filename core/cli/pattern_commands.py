"""Commands about the pattern feature: patterns learn | evaluate | show."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from genethello.core import pattern_learning as pl
from genethello.core.cli.arguments import non_negative_int, positive_int
from genethello.core.evaluation import pattern_table as ptab
from genethello.core.evaluation import patterns as pt
from genethello.core.frontend.errors import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]
             ) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """Add ``patterns`` and its core-side actions; returns its actions so
    that the cluster side can add ``label``."""
    p = sub.add_parser("patterns", help="learn, check and show the edge/corner pattern tables")
    psub = p.add_subparsers(dest="patterns_command", metavar="ACTION")
    psub.required = True

    q = psub.add_parser("learn", help="fit a pattern table on a games file (v1) or a labels file (v2)")
    source = q.add_mutually_exclusive_group(required=True)
    source.add_argument("--games", type=Path, metavar="FILE",
                        help="move-list file, one finished game per line (.gz ok): fit geometry v1 to the human "
                             "final results (training slice)")
    source.add_argument("--labels", type=Path, metavar="FILE",
                        help="labels file of 'patterns label': fit geometry v2 to the core's exact margins and "
                             "search values, starting from --prior")
    q.add_argument("--out", type=Path, metavar="FILE", help="table file to write; with --labels required and never "
                   "overwritten (default with --games: the shipped data/patterns-v1.bin)")
    q.add_argument("--geometry", type=int, choices=sorted(pt.GEOMETRIES), default=pt.V1,
                   help="with --games: the table's geometry; --labels always fits 2 (default: 1)")
    q.add_argument("--prior", default="patterns-v1", metavar="VERSION|FILE",
                   help="with --labels: the table whose values a configuration keeps until the labels "
                        "show it: a shipped version, a table file, or 'none', zeros (default: patterns-v1)")
    q.add_argument("--large-ridge", type=float, metavar="R",
                   help="with --labels: the ridge of the corner and edge shapes (default: --ridge)")
    q.add_argument("--overlap", type=non_negative_int, metavar="K",
                   help=f"moves on each side of a stage it also learns from (default: {pl.OVERLAP} with "
                        f"--games, {pl.LABEL_OVERLAP} with --labels)")
    q.add_argument("--version", dest="table_version", default="patterns-v2", metavar="VERSION",
                   help="with --labels: the version name written in the file (default: patterns-v2)")
    q.add_argument("--holdout-every", type=non_negative_int, default=0, metavar="K",
                   help="with --labels: leave out labels of games whose number is a multiple of K and "
                        "report the error on them; 0 trains on all (default: 0)")
    q.add_argument("--holdout", type=non_negative_int, default=pl.HOLDOUT, metavar="K",
                   help=f"never train on lines whose number is a multiple of K; 0 uses all (default: {pl.HOLDOUT})")
    q.add_argument("--skip-bad", action="store_true", help="skip and count bad lines instead of failing")
    q.add_argument("--limit", type=non_negative_int, metavar="N", help="read only the first N lines")
    q.add_argument("--ridge", type=float, metavar="R",
                   help=f"shrinkage toward 0 or the prior (default: {pl.RIDGE} with --games, {pl.LABEL_RIDGE} "
                        "with --labels)")
    q.add_argument("--min-count", type=non_negative_int, default=pl.MIN_COUNT, metavar="N",
                   help=f"leave configurations seen fewer times at 0 (default: {pl.MIN_COUNT})")
    q.add_argument("--iterations", type=non_negative_int, default=pl.ITERATIONS, metavar="N",
                   help=f"conjugate-gradient steps per stage (default: {pl.ITERATIONS})")
    q.set_defaults(handler=run_learn)

    q = psub.add_parser("evaluate", help="how often the sign of the pattern score predicts the winner")
    q.add_argument("--games", type=Path, required=True, metavar="FILE",
                   help="move-list file, one finished game per line (.gz ok)")
    table = q.add_mutually_exclusive_group()
    table.add_argument("--table", type=Path, metavar="FILE", help="table file (default: the newest shipped one)")
    table.add_argument("--patterns", metavar="VERSION", help="a shipped table version (patterns-v1, patterns-v2)")
    q.add_argument("--slice", choices=("validation", "training", "all"), default="all",
                   help="which games of the file: the held-out ones, the others, or all (default: all)")
    q.add_argument("--holdout", type=non_negative_int, default=pl.HOLDOUT, metavar="K",
                   help=f"the validation games are the lines numbered K, 2K, ... (default: {pl.HOLDOUT})")
    q.add_argument("--moves", default="20,30,40", metavar="LIST", help="move numbers to test (default: 20,30,40)")
    q.add_argument("--skip-bad", action="store_true", help="skip and count bad lines instead of failing")
    q.add_argument("--limit", type=non_negative_int, metavar="N", help="read only the first N lines")
    q.add_argument("--perfect", type=non_negative_int, default=0, metavar="K",
                   help=f"also solve up to K positions a move number exactly (moves >= "
                        f"{60 - pl.PERFECT_MAX_EMPTIES}; ~0.3 s each at move 40) and show how often "
                        "perfect play predicts the human winner: the ceiling of any static score (default: 0)")
    q.add_argument("--mae", type=non_negative_int, default=0, metavar="K",
                   help="also solve K positions at each --mae-empties count (a seeded sample of the selected "
                        "games; ~0.3 s each at 20) and print the pattern score's mean absolute error, RMSE and "
                        "bias against the exact margin, in discs, beside the MAE of the games' own final "
                        "margins; 0: off (default: 0)")
    q.add_argument("--mae-empties", default=",".join(str(e) for e in pl.SCORE_ERROR_EMPTIES), metavar="LIST",
                   help="empties counts of the --mae sample, comma-separated, 0.."
                        f"{pl.PERFECT_MAX_EMPTIES} (default: {','.join(str(e) for e in pl.SCORE_ERROR_EMPTIES)})")
    q.add_argument("--seed", type=non_negative_int, default=0, metavar="X",
                   help="seed of the --mae sample (default: 0)")
    q.add_argument("--workers", type=positive_int, default=1, metavar="N",
                   help="processes for the --perfect and --mae solves (default: 1)")
    q.set_defaults(handler=run_evaluate)

    q = psub.add_parser("show", help="print the best and worst edge configurations of a stage")
    q.add_argument("--stage", type=int, required=True, metavar="S", help=f"stage 0..{pt.N_STAGES_ - 1}")
    table = q.add_mutually_exclusive_group()
    table.add_argument("--table", type=Path, metavar="FILE", help="table file (default: the newest shipped one)")
    table.add_argument("--patterns", metavar="VERSION", help="a shipped table version (patterns-v1, patterns-v2)")
    q.add_argument("--count", type=int, default=10, metavar="N", help="how many of each (default: 10)")
    q.set_defaults(handler=run_show)
    return psub


def _table(path: Path | None, version: str | None = None) -> ptab.PatternTable:
    return ptab.shared_table(version) if path is None else ptab.load_table(path)


def _report_skipped(games: pl.GameSet) -> None:
    if games.skipped:
        print(f"skipped {games.skipped} bad line(s); first: {games.first_error}")


def run_learn_labels(args: argparse.Namespace) -> int:
    """Fit geometry v2 to a labels file (``patterns label``)."""
    from genethello.core.pattern_learning.label_file import read_labels

    t0 = time.perf_counter()
    if args.out is None:
        raise UserError("--labels needs --out (the table file to write)")
    if args.out.exists():
        raise FileExistsError(f"{args.out} exists; choose another --out or remove it first")
    ridge = pl.LABEL_RIDGE if args.ridge is None else args.ridge
    labels = read_labels(args.labels)
    if labels.values.size == 0:
        raise UserError(f"{args.labels}: no labelled positions")
    prior = None
    prior_version = "none"
    if args.prior.lower() != "none":
        as_file = Path(args.prior)
        prior_table = ptab.load_table(as_file) if as_file.suffix == ".bin" else ptab.shared_table(args.prior)
        prior, prior_version = prior_table.array, prior_table.version
    overlap = pl.LABEL_OVERLAP if args.overlap is None else args.overlap
    numbers = np.array([int(s[1:]) for s in labels.sources], dtype=np.int64)
    held = (numbers % args.holdout_every == 0) if args.holdout_every else np.zeros(numbers.size, dtype=bool)
    train = ~held
    print(f"{labels.values.size} labelled positions ({int(labels.exact.sum())} exact, "
          f"{int((~labels.exact).sum())} searched) from {args.labels.name}; training on {int(train.sum())}"
          + (f", holding out {int(held.sum())} (games numbered k*{args.holdout_every})" if held.any() else ""),
          flush=True)

    def progress(stage: int, fitted: int, rmse: float) -> None:
        first, last = pt.stage_moves(stage, pt.V2)
        print(f"  stage {stage:>2} (moves {first:>2}-{last:>2}): {fitted:>6} configurations fitted, "
              f"training rmse {rmse:5.2f} discs", flush=True)

    table, report = pl.learn_labels(labels.movers[train], labels.others[train], labels.values[train], pt.V2,
                                    prior, ridge=ridge, min_count=args.min_count, iterations=args.iterations,
                                    overlap=overlap, progress=progress, large_ridge=args.large_ridge)
    if held.any():
        for name, t in (("prior " + prior_version, prior), ("new table", table)):
            if t is None:
                continue
            score = pt.scores(t, labels.movers[held], labels.others[held]).astype(np.float64) / pt.TABLE_SCALE_
            err = score - labels.values[held]
            print(f"held-out labels, {name}: MAE {np.abs(err).mean():.2f} discs, "
                  f"RMSE {np.sqrt((err * err).mean()):.2f} ({int(held.sum())} positions)")
    s = labels.settings
    training = {
        "labels_file": args.labels.name, "labels": int(train.sum()), "exact": int(labels.exact[train].sum()),
        "games_file": s.games, "games_sha256": s.games_sha256, "holdout": s.holdout, "seed": s.seed,
        "exact_empties": s.exact_empties, "search_depth": s.search_depth, "search_table": s.patterns,
        "target": "exact final margin (<= exact_empties) or search value, for the mover",
        "fit": "prior + ridge least squares correction, preconditioned CG", "prior": prior_version,
        "ridge": ridge, "large_ridge": args.large_ridge, "min_count": args.min_count,
        "iterations": args.iterations, "overlap": overlap, "labels_holdout_every": args.holdout_every,
    }
    version = ptab.write_table(args.out, table, training, version=args.table_version, overwrite=False)
    print(f"wrote {args.out.name} ({args.out.stat().st_size} bytes), version {version}, "
          f"in {time.perf_counter() - t0:.1f} s")
    return 0


def run_learn(args: argparse.Namespace) -> int:
    if args.labels is not None:
        return run_learn_labels(args)
    if args.out is None:
        args.out = ptab.DEFAULT_TABLE_PATH
    if args.ridge is None:
        args.ridge = pl.RIDGE
    overlap = pl.OVERLAP if args.overlap is None else args.overlap
    t0 = time.perf_counter()
    games = pl.read_games(args.games, skip_bad=args.skip_bad, limit=args.limit)
    _report_skipped(games)
    train = games.slice("training", args.holdout)
    if train.games == 0:
        raise UserError(f"{args.games}: no games to learn from")
    print(f"{games.games} games read, training on {train.games} ({train.movers.size} positions), "
          f"holding out every {args.holdout}th line" if args.holdout else
          f"{games.games} games read, training on all of them ({train.movers.size} positions)", flush=True)

    def progress(stage: int, fitted: int, rmse: float) -> None:
        first, last = pt.stage_moves(stage, args.geometry)
        print(f"  stage {stage:>2} (moves {first:>2}-{last:>2}): {fitted:>6} configurations, "
              f"rmse {rmse:5.2f} discs", flush=True)

    table, report = pl.learn(train, ridge=args.ridge, min_count=args.min_count, iterations=args.iterations,
                             overlap=overlap, progress=progress, geometry=args.geometry)
    training = {
        "games_file": games.name, "games_sha256": games.sha256, "lines_read": games.games + games.skipped,
        "skipped": games.skipped, "holdout": args.holdout, "trained_games": train.games,
        "positions": int(train.movers.size), "target": "final disc difference for the mover",
        "fit": "ridge least squares, preconditioned CG", "ridge": args.ridge, "min_count": args.min_count,
        "iterations": args.iterations, "overlap": overlap, "limit": args.limit,
    }
    training["geometry"] = args.geometry
    version = ptab.write_table(args.out, table, training,
                               version=ptab.VERSION if args.geometry == pt.V1 else args.table_version)
    print(f"wrote {args.out.name} ({args.out.stat().st_size} bytes), version {version}, "
          f"in {time.perf_counter() - t0:.1f} s")
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    moves = _int_list(args.moves, "--moves", "move numbers", 1, 60)
    mae_empties = tuple(dict.fromkeys(_int_list(args.mae_empties, "--mae-empties", "empties counts",
                                                0, pl.PERFECT_MAX_EMPTIES)))
    table = _table(args.table, args.patterns)
    games = pl.read_games(args.games, skip_bad=args.skip_bad, limit=args.limit)
    _report_skipped(games)
    chosen = games.slice(args.slice, args.holdout)
    print(f"table {table.version}; {chosen.games} games ({args.slice} slice of {games.name}); "
          "share of decisive games whose winner the sign predicts (for the player who just moved)")
    print("\n".join(pl.accuracy_lines(pl.sign_accuracy(chosen, table.array, moves))))
    solvable = [m for m in moves if 60 - m <= pl.PERFECT_MAX_EMPTIES]
    if args.perfect and solvable:
        _print_perfect_play(chosen, table, solvable, args.perfect, args.workers)
    elif args.perfect:
        print(f"perfect play: no move number >= {60 - pl.PERFECT_MAX_EMPTIES} in --moves, nothing solved")
    if args.mae:
        _print_score_errors(chosen, table, mae_empties, args.mae, args.seed, args.workers)
    return 0


def _int_list(text: str, option: str, what: str, low: int, high: int) -> list[int]:
    """The comma-separated integers of ``option`` (``what`` they are), each
    in low..high, in the order given; a ValueError naming the option otherwise
    (checked before any game is read)."""
    try:
        values = [int(x) for x in text.split(",")]
    except ValueError:
        raise UserError(f"{option} must be comma-separated {what}, got {text!r}") from None
    if any(not low <= v <= high for v in values):
        raise UserError(f"{option} must be in {low}..{high}, got {text!r}")
    return values


def _solve_progress(name: str) -> Callable[[int, int, int], None]:
    """A progress(key, done, total) for the exact solves: a line on stderr
    every 100 solves of a key and at its end, naming it by ``name`` (a
    format with {key})."""
    shown: dict[int, int] = {}

    def progress(key: int, done: int, total: int) -> None:
        if done // 100 > shown.get(key, 0) or done == total:
            shown[key] = done // 100
            print(f"  {name.format(key=key)}: solved {done}/{total}", file=sys.stderr, flush=True)
    return progress


def _print_score_errors(games: pl.GameSet, table: ptab.PatternTable, empties: tuple[int, ...], sample: int,
                        seed: int, workers: int) -> None:
    progress = _solve_progress("{key} empties")
    print(f"score error: the pattern score against the exact final margin (both in discs, for the player "
          f"who just moved; error = score - exact), on up to {sample} positions an empties count "
          f"(seed {seed}); 'game result' is the MAE of the games' own final margins against the exact one")
    for row in pl.score_errors(games, table.array, empties, sample, seed, workers, progress):
        if row["positions"]:
            print(f"{row['empties']} empties: {row['positions']} positions, MAE {row['mae']:.2f} discs, "
                  f"RMSE {row['rmse']:.2f}, bias {row['bias']:+.2f}; game result MAE {row['result_mae']:.2f}")
        else:
            print(f"{row['empties']} empties: no positions")


MARGIN_BUCKETS = ((2, 2), (4, 6), (8, 12), (14, 20), (22, 64))


def _print_perfect_play(games: pl.GameSet, table: ptab.PatternTable, moves: list[int], sample: int,
                        workers: int) -> None:
    progress = _solve_progress("move {key}")

    print(f"perfect play: up to {sample} decisive positions a move, spread evenly over the games, solved "
          "exactly; the share whose winner each sign predicts, on those positions")
    names = ("perfect",) + pl.PREDICTORS
    rows = pl.perfect_play_accuracy(games, table.array, moves, sample, progress, workers)
    header, *lines = pl.accuracy_lines(rows, names, "solved")
    print(header)
    for row, line in zip(rows, lines):
        print(line)
        parts = []
        for low, high in MARGIN_BUCKETS:
            cells = [(n, share) for v, (n, share) in row["ahead_wins"].items() if low <= abs(v) <= high]
            n = sum(c for c, _ in cells)
            if n:
                won = sum(c * share for c, share in cells) / n
                span = f"{low}" if low == high else (f"{low}+" if high == 64 else f"{low}-{high}")
                parts.append(f"by {span}: {100 * won:.0f}% of {n}")
        print(f"     the side perfect play favours won, {'; '.join(parts)}")


def run_show(args: argparse.Namespace) -> int:
    if args.count < 1:
        raise UserError(f"--count must be positive, got {args.count}")
    table = _table(args.table, args.patterns)
    stages = table.array.shape[0]
    if not 0 <= args.stage < stages:
        raise UserError(f"--stage must be in 0..{stages - 1} for {table.version}, got {args.stage}")
    first, last = pt.stage_moves(args.stage, table.geometry_id)
    best, worst = pl.edge_extremes(table.array, args.stage, args.count)
    print(f"table {table.version}, stage {args.stage} (moves {first}-{last}): edge a1..h1 with X-squares b2, g2;")
    print("X = the player who just moved, O = the other, - = empty; value in discs of final margin for X")
    for title, rows in (("best", best), ("worst", worst)):
        print(f"{title}:")
        for value, edge, b2, g2 in rows:
            print(f"  {edge}  b2={b2} g2={g2}  {value:+7.2f}")
    print("landmarks (the rest of the board empty): edge table, all tables (corners and 2x5 included)")
    for edge, b2, g2, meaning, edge_value, total in pl.landmark_values(table.array, args.stage):
        print(f"  {edge}  b2={b2} g2={g2}  {edge_value:+7.2f} {total:+7.2f}  {meaning}")
    return 0

