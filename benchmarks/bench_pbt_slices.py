#!/usr/bin/env python3
"""Benchmark successive pbt-td slices of one member, as a worker learns
them: a Learner built each slice (before issue 36 part 6) against one kept
between slices (:class:`~genethello.cluster.breeding.learner_cache.LearnerCache`),
in one run.

Each row is a chain of slices: slice k starts from the member slice k-1
made (its text and payload, as a SliceSpec names it) and ends with the
learned member's text and payload, as
:func:`~genethello.cluster.breeding.network_pbt.learn_slice` hands them
back. The two rows of a network learn the same members bit for bit
(checked). Rows, one core, rounds interleaved (a slice of each row a
round), CPU time (``time.process_time``); the first round is a warm-up and
not counted (the kept row builds its Learner there):

- ``all-4+2x2-s8``: ``config/search-player.toml``'s network and learning
  keys, from zero weights;
- ``patterns-v2-s30-w10``: from ``patterns-v2-net`` (5 million weights),
  α 0.02, the same other keys.

The ratio column is the kept row's games/s over the built row's; the last
line is patterns-v2's kept games/s over all-4+2x2-s8's (issue 36: >= 0.5x).
A third patterns-v2 row, ``smoothed``, learns with
``learning_stage_smoothing = 2`` (each slice's change averaged across the
stages, and so a Learner built each slice); its ratio is over the kept row's.

Usage: python benchmarks/bench_pbt_slices.py [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from genethello.cluster.breeding.learner_cache import LearnerCache
from genethello.cluster.breeding.network_pbt import Hyper, SliceSpec, learn_slice, start_network
from genethello.cluster.config import BreedingConfig
from genethello.core.families.network_family import NetworkIndividual
from genethello.core.families.registry import family_of, parse_kind

#: config/search-player.toml's learning keys (games from --games).
SEARCH_PLAYER = BreedingConfig(method="pbt-td", learning_batch=25, learning_alpha=0.05, learning_lambda=0.7,
                               learning_epsilon=0.1, learning_depth=1, learning_max_depth=2, learning_exact=6,
                               learning_opening_plies=2)


class Chain:
    """Slices of one member, one after the other (``learners``: None builds
    a Learner each slice)."""

    def __init__(self, kind_name: str, start: str, config: BreedingConfig, learners: LearnerCache | None) -> None:
        kind = parse_kind(kind_name)
        member = NetworkIndividual(kind, 1, start_network(kind, start))
        self.text, self.payload = str(member), family_of(member).storage(member).payload or b""
        self.config, self.learners = config, learners
        self.hyper = Hyper(config.learning_alpha, config.learning_lambda, config.learning_epsilon,
                           config.learning_depth)
        self.birth = 1
        self.made: list[str] = []

    def slice(self) -> int:
        self.birth += 1
        learned = learn_slice(SliceSpec(0, self.text, self.payload, self.hyper, 1000 + self.birth, self.birth),
                              self.config, self.learners)
        self.text, self.payload = learned.text, learned.payload
        self.made.append(learned.text)
        return learned.report.games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="self-play games a slice (default 200)")
    parser.add_argument("--rounds", type=int, default=4, help="slices a row, the first not counted (default 4)")
    args = parser.parse_args(argv)
    small = replace(SEARCH_PLAYER, learning_games=args.games)
    table = replace(small, learning_alpha=0.02)
    rows = {}
    for label, kind, start, config in (("all-4+2x2-s8", "all-4+2x2-s8", "", small),
                                       ("patterns-v2-s30-w10", "patterns-v2-s30-w10", "patterns-v2-net", table)):
        rows[f"{label} built"] = Chain(kind, start, config, None)
        rows[f"{label} kept"] = Chain(kind, start, config, LearnerCache())
    rows["patterns-v2-s30-w10 smoothed"] = Chain("patterns-v2-s30-w10", "patterns-v2-net",
                                                 replace(table, learning_stage_smoothing=2.0), LearnerCache())
    seconds = dict.fromkeys(rows, 0.0)
    played = dict.fromkeys(rows, 0)
    for round_ in range(args.rounds):
        for name, chain in rows.items():
            start = time.process_time()
            games = chain.slice()
            if round_ > 0:
                seconds[name] += time.process_time() - start
                played[name] += games
    print(f"successive pbt-td slices of {args.games} games (search-player keys), {args.rounds - 1} counted a row, "
          "one core, CPU time")
    print(f"{'row':>28} {'games':>6} {'games/s/core':>13} {'s/slice':>8} {'over base':>11}")
    rate = {name: played[name] / seconds[name] for name in rows}
    for name, chain in rows.items():
        base = name.replace(" kept", " built").replace(" smoothed", " kept")
        print(f"{name:>28} {played[name]:>6} {rate[name]:>13.1f} {seconds[name] / (args.rounds - 1):>8.3f} "
              f"{rate[name] / rate[base]:>10.2f}x")
        if name.endswith(" kept"):
            assert chain.made == rows[base].made, f"{name} learned other members than {base}"
    for name, chain in rows.items():
        if chain.learners is not None:
            print(f"{name}: {chain.learners.hits} slices on a kept Learner, {chain.learners.builds} built")
    ratio = rate["patterns-v2-s30-w10 kept"] / rate["all-4+2x2-s8 kept"]
    print(f"patterns-v2-s30-w10 kept: {ratio:.2f}x the games/s of all-4+2x2-s8 kept")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
