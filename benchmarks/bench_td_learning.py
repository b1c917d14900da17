#!/usr/bin/env python3
"""Benchmark learning slices: self-play games learned from per second per
core (:func:`genethello.core.learning.self_play.learn`), beside plain
depth-2 self-play of the same network with no learning, in one run.

Rows, one core, rounds interleaved so that machine noise hits all rows
alike (time is this process's CPU time, ``time.process_time``):

- ``all-2-s8 learn d1`` / ``d2``: ``learn()`` from zero weights, ε 0.1,
  λ 0.5, α 0.1, batches of 10 games, at depth 1 and 2 (each call builds
  its :class:`~genethello.core.learning.self_play.Learner`: one evaluator
  build a slice);
- ``all-2-s8 learner d2``: one ``Learner`` kept across the rounds, a slice
  a round (what a member that learns slice after slice pays: its games);
- ``all-2-s8 play d2``: the baseline, ``play_game`` at depth 2, ε 0.1, on
  the network that slice learned (its engine built once, outside the
  clock: a learning slice builds one per batch, and the table's footer
  gives that build's CPU seconds, which dominate a large network's slice);
- ``all-2-s8 td only``: ``td_lambda_game`` alone on the baseline's games
  (the update's own cost);
- ``all-4+2x2-s8 ...``: the same from zero on ``config/search-player.toml``'s
  architecture, and its ``learner d2 exact12`` / ``search2`` rows: the
  Learner with exact targets within 12 empties / targets bootstrapped from
  depth-2 searches (issue 36 part 4);
- ``all-4+2x2-s8-m ...``: the same architecture with mobility entries
  (networks.py): what reading the side to move's moves at every position,
  in play and in the update, costs;
- ``patterns-v2-s30 ...``: the same from the pattern-table network
  (:func:`genethello.core.families.networks.pattern_table_network`) with a
  quarter of the games, but for ``learner d2``, whose slices are as long
  as the others' (a slice ends by rounding every weight it touched: that
  fixed cost, a few weights for all-4+2x2, tens of thousands for the
  table, must spread over the same games for the ratio to compare like
  with like; a run's slices are longer still, table-player.toml's 400).

The ratio column is games/s over the same network's ``play d2`` row in the
same run (above 1: faster than the baseline); the last lines give
patterns-v2-s30's learning games/s over all-4+2x2-s8's (issue 36: >= 0.5x).

Usage: python benchmarks/bench_td_learning.py [--games N] [--rounds R] [--seed S]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from genethello.core.engine.game import Engine, play_game
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple import MOBILITY_ENTRIES
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.networks import Network, pattern_table_network
from genethello.core.learning.self_play import Learner, LearningSettings, learn
from genethello.core.learning.td import TupleReader, td_lambda_game

EPSILON, LAM, ALPHA, BATCH = 0.1, 0.5, 0.1, 10
BUILD_SECONDS: dict[str, float] = {}
BATCHES: dict[str, int] = {}


def network_rows(label: str, net: Network, games: int, seed: int, batch: int = BATCH,
                 targets: bool = False, learner_games: int | None = None) -> dict[str, tuple[Callable[[], int], str]]:
    """``label``'s rows: name -> (a run returning the games it did, its
    baseline row); the kept Learner's slices have ``learner_games`` games
    (default ``games``)."""
    BATCHES[label] = batch

    def settings(depth: int, slice_games: int = games, **further: int) -> LearningSettings:
        return LearningSettings(alpha=ALPHA, lam=LAM, epsilon=EPSILON, depth=depth, games=slice_games,
                                batch_games=batch, **further)

    learned, _ = learn(net, settings(2), seed)            # the baseline plays what learning ends with
    learner = Learner(net)
    slices = [seed]

    def learner_slice() -> int:
        slices[0] += 1
        return learner.slice(settings(2, learner_games or games), slices[0]).games

    start = time.process_time()
    engine = Engine(NetworkEvaluator(learned), depth=2)   # built once, outside the clock
    BUILD_SECONDS[label] = time.process_time() - start
    baseline_games: list[tuple] = []

    def play() -> int:
        baseline_games.clear()
        for j in range(games):
            baseline_games.append(play_game(engine, engine, epsilon=EPSILON, seed=seed * 1_000_003 + j).moves)
        return games

    def td_only() -> int:
        if not baseline_games:
            play()
        reader = TupleReader(learned.architecture, learned.stages, learned.mobility)
        weights = np.array(learned.weights)
        for moves in baseline_games:
            td_lambda_game(reader, weights, moves, ALPHA, LAM)
        return len(baseline_games)

    def further_slice(**further: int) -> Callable[[], int]:
        further_learner = Learner(net)

        def run() -> int:
            slices[0] += 1
            return further_learner.slice(settings(2, **further), slices[0]).games
        return run

    base = f"{label} play d2"
    further_rows = {f"{label} learner d2 exact12": (further_slice(exact_targets=12), base),
                    f"{label} learner d2 search2": (further_slice(search_targets=2), base)} if targets else {}
    return {f"{label} learn d1": (lambda: learn(net, settings(1), seed)[1].games, base),
            f"{label} learn d2": (lambda: learn(net, settings(2), seed)[1].games, base),
            f"{label} learner d2": (learner_slice, base)} | further_rows | {
            base: (play, base),
            f"{label} td only": (td_only, base)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per row and round (default 200; "
                                                                 "patterns-v2-s30 a quarter but its learner)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="learning seed (default 1)")
    args = parser.parse_args(argv)
    arch = architecture("all-2")
    rows = network_rows("all-2-s8", Network(arch, np.zeros(8 * arch.n_weights), 8), args.games, args.seed)
    arch4 = architecture("all-4+2x2")
    rows |= network_rows("all-4+2x2-s8", Network(arch4, np.zeros(8 * arch4.n_weights), 8), args.games, args.seed,
                         targets=True)
    mobility = Network(arch4, np.zeros(8 * (arch4.n_weights + MOBILITY_ENTRIES)), 8, mobility=True)
    rows |= network_rows("all-4+2x2-s8-m", mobility, args.games, args.seed)
    pattern_games = max(1, args.games // 4)
    rows |= network_rows("patterns-v2-s30", pattern_table_network(), pattern_games, args.seed,
                         learner_games=args.games)
    seconds = dict.fromkeys(rows, 0.0)
    played = dict.fromkeys(rows, 0)
    for _ in range(args.rounds):
        for name, (run, _) in rows.items():
            start = time.process_time()
            played[name] += run()
            seconds[name] += time.process_time() - start
    print(f"ε {EPSILON}, λ {LAM}, α {ALPHA}, {args.rounds} rounds, one core, CPU time")
    print(f"{'row':>32} {'games':>6} {'games/s/core':>13} {'vs play d2':>11}")
    for name, (_, base) in rows.items():
        rate = played[name] / seconds[name]
        base_rate = played[base] / seconds[base]
        print(f"{name:>32} {played[name]:>6} {rate:>13.1f} {rate / base_rate:>10.2f}x")
    for label, build in BUILD_SECONDS.items():
        print(f"{label}: one evaluator build {build:.3f} s CPU (learn() builds one a slice)")
    for row in ("learn d1", "learn d2", "learner d2"):
        ours, theirs = (played[f"{x} {row}"] / seconds[f"{x} {row}"] for x in ("patterns-v2-s30", "all-4+2x2-s8"))
        print(f"patterns-v2-s30 {row}: {ours / theirs:.2f}x the games/s of all-4+2x2-s8 {row}")
    ours, theirs = (played[f"{x} learner d2"] / seconds[f"{x} learner d2"] for x in ("all-4+2x2-s8-m", "all-4+2x2-s8"))
    print(f"all-4+2x2-s8-m learner d2 (with mobility entries): {ours / theirs:.2f}x the games/s of all-4+2x2-s8's")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
