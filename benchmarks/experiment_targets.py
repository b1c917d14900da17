#!/usr/bin/env python3
"""Learn a staged network from zero for a fixed CPU time with each kind of
target (issue 36 part 4) and write each result as a network file, for
``genethello match`` and ``benchmarks/measure_values.py``.

Arms (each a :class:`~genethello.core.learning.self_play.Learner` from zero
weights, or from ``--start patterns-v2-net``, slices of ``--slice-games``
games, batches of 10, depth-2 self-play, exact 6, ε 0.1, λ 0.5, α
``--alpha`` (0.1), until ``--seconds`` of this process's CPU time):

- ``lambda``: today's λ-returns;
- ``exact``: exact targets within ``--exact`` empties;
- ``search``: λ-returns bootstrapped from depth ``--search-depth`` searches.

Prints each arm's games, games per CPU second and its file.

Usage: python benchmarks/experiment_targets.py [--arch all-4+2x2] [--stages 8] [--start patterns-v2-net]
       [--seconds 120] [--alpha A] [--exact N] [--arms lambda exact search] [--out DIR]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.network_family import NetworkIndividual, NetworkKind
from genethello.core.families.network_files import write_network_file
from genethello.core.families.networks import Network, pattern_table_network
from genethello.core.learning.self_play import Learner, LearningSettings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arch", default="all-4+2x2")
    parser.add_argument("--stages", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--slice-games", type=int, default=100)
    parser.add_argument("--exact", type=int, default=12)
    parser.add_argument("--search-depth", type=int, default=2)
    parser.add_argument("--arms", nargs="+", default=["lambda", "exact", "search"])
    parser.add_argument("--start", choices=["zero", "patterns-v2-net"], default="zero")
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--out", type=Path, default=Path("/tmp/targets"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    arch = architecture(args.arch)
    start_network = Network(arch, np.zeros(args.stages * arch.n_weights), args.stages)
    if args.start == "patterns-v2-net":
        start_network = pattern_table_network()
        arch = start_network.architecture
    kind = NetworkKind(arch, start_network.stages, start_network.whole_disc_weight)
    options = {"lambda": {}, "exact": {"exact_targets": args.exact},
               "search": {"search_targets": args.search_depth}}
    print(f"{'arm':>8} {'games':>7} {'games/CPU s':>12} {'slice MSE':>10}  file")
    for arm in args.arms:
        settings = LearningSettings(alpha=args.alpha, lam=0.5, epsilon=0.1, depth=2, exact_empties=6,
                                    games=args.slice_games, batch_games=10, **options[arm])
        learner = Learner(start_network)
        start, games, seed, mse = time.process_time(), 0, 0, 0.0
        while time.process_time() - start < args.seconds:
            seed += 1
            report = learner.slice(settings, seed)
            games += report.games
            mse = report.mean_squared_error
        spent = time.process_time() - start
        path = args.out / f"{kind.name}-{arm}.json"
        write_network_file(NetworkIndividual(kind, seed, learner.network()), path)
        print(f"{arm:>8} {games:>7} {games / spent:>12.1f} {mse:>10.1f}  {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
