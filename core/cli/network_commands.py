"""The ``network`` command: make, show, export and smooth n-tuple network files.

* ``network random --arch all-2 --seed S --out F.json``: a network with
  weights drawn N(0, 1) from the seed (the family's random individual), to
  try the commands with or to start from;
* ``network show PLAYER``: a network's name, architecture, stages (which
  moves each plays), scale (discs, or normalized), weights and digest;
* ``network export PLAYER --out F.json``: write a network (from ``--db``, a
  shipped one, or another file) as a network file;
* ``network smooth PLAYER --sigma S --out F.json``: a staged network with
  each stage's weights averaged with its neighbours' (Gaussian, σ = S
  stages; :mod:`genethello.core.families.stage_smoothing`).

PLAYER is named as on every command (``individual_names.resolve_individual``).
The file format is :mod:`genethello.core.families.network_files`.
"""

from __future__ import annotations

import argparse

import numpy as np

from genethello.core.cli.arguments import PLAYER_HELP, add_db_option, non_negative_int
from genethello.core.cli.context import CommandContext, takes_context
from genethello.core.evaluation.ntuple_shapes import ARCHITECTURES
from genethello.core.families.network_family import NETWORKS, NetworkIndividual
from genethello.core.families.network_files import write_network_file
from genethello.core.families.networks import DISC_UNITS, MOBILITY_ENTRIES, scale
from genethello.core.families.stage_smoothing import MAX_SIGMA, smoothed_stages
from genethello.core.frontend.errors import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("network", help="make, show and export n-tuple network files",
                       description="Make a random network, show a network, or write one as a network file "
                                   "(JSON: architecture, name and real weights).")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    r = actions.add_parser("random", help="a network with seeded N(0, 1) weights, written to a file")
    r.add_argument("--arch", required=True, choices=ARCHITECTURES, help="the architecture")
    r.add_argument("--seed", type=non_negative_int, required=True, metavar="X", help="the weights' seed")
    r.add_argument("--birth", type=non_negative_int, default=0, metavar="G", help="its birth generation (default: 0)")
    r.add_argument("--out", required=True, metavar="FILE", help="the file to write (F.json)")
    r.add_argument("--force", action="store_true", help="replace an existing file")
    r.set_defaults(handler=takes_context(run_random))
    s = actions.add_parser("show", help="a network's name, architecture, stages, scale, weights and digest")
    s.add_argument("player", metavar="PLAYER", help=PLAYER_HELP)
    add_db_option(s, "a network given by id or text")
    s.set_defaults(handler=takes_context(run_show))
    e = actions.add_parser("export", help="write a network as a network file")
    e.add_argument("player", metavar="PLAYER", help=PLAYER_HELP)
    add_db_option(e, "a network given by id or text")
    e.add_argument("--out", required=True, metavar="FILE", help="the file to write (F.json)")
    e.add_argument("--force", action="store_true", help="replace an existing file")
    e.set_defaults(handler=takes_context(run_export))
    m = actions.add_parser("smooth", help="a staged network with each stage's weights averaged with its neighbours'",
                           description="Write PLAYER (a staged network) with every stage's weights replaced by a "
                                       "Gaussian-weighted mean over the stages around it (sigma in stages): the "
                                       "noise of stages that each learned from their own positions averages out.")
    m.add_argument("player", metavar="PLAYER", help=PLAYER_HELP)
    add_db_option(m, "a network given by id or text")
    m.add_argument("--sigma", type=float, required=True, metavar="S",
                   help=f"the Gaussian's width in stages, above 0 and at most {MAX_SIGMA:g}")
    m.add_argument("--out", required=True, metavar="FILE", help="the file to write (F.json)")
    m.add_argument("--force", action="store_true", help="replace an existing file")
    m.set_defaults(handler=takes_context(run_smooth))


def network_named(spec: str, db: str | None, context: CommandContext) -> NetworkIndividual:
    """The network ``spec`` names; a one-line ValueError for a chromosome."""
    individual = context.individual(spec, db)
    if not isinstance(individual, NetworkIndividual):
        raise UserError(f"{spec!r} is a GeneThello chromosome, not a network")
    return individual


def write(individual: NetworkIndividual, out: str, force: bool) -> None:
    """Write the file, refusing to replace one unless ``force`` (a link is
    replaced itself, its target never written)."""
    write_network_file(individual, out, force)
    print(f"wrote {individual} to {out}")


def run_random(args: argparse.Namespace, context: CommandContext) -> int:
    kind = NETWORKS.parse_kind(args.arch)
    write(NETWORKS.random_individual(kind, args.birth, np.random.default_rng(args.seed)), args.out, args.force)
    return 0


def run_export(args: argparse.Namespace, context: CommandContext) -> int:
    write(network_named(args.player, args.db, context), args.out, args.force)
    return 0


def run_smooth(args: argparse.Namespace, context: CommandContext) -> int:
    individual = network_named(args.player, args.db, context)
    try:
        network = smoothed_stages(individual.network, args.sigma)
    except ValueError as exc:
        raise UserError(f"network smooth {args.player}: {exc}") from None
    write(NetworkIndividual(individual.type, individual.birth, network), args.out, args.force)
    return 0


def stage_moves(stages: int) -> list[tuple[int, int]]:
    """The move numbers (0 = the start, discs - 4) each stage of a network
    with ``stages`` stages plays: stage of move n = min(n * S // 60, S - 1)
    (:mod:`genethello.core.families.networks`)."""
    spans: list[tuple[int, int]] = []
    for n in range(61):
        stage = min(n * stages // 60, stages - 1)
        if stage == len(spans):
            spans.append((n, n))
        else:
            spans[stage] = (spans[stage][0], n)
    return spans


def show_lines(individual: NetworkIndividual) -> list[str]:
    """What ``network show`` prints: name, architecture, stages and scale,
    weights (per stage and in all: the counts agree), digest, ranges."""
    network = individual.network
    arch = network.architecture
    q = network.int_weights
    per_stage = arch.n_weights
    total = network.weights.size
    lines = [f"name: {individual}",
             f"architecture: {arch.name} ({len(arch.tuples)} base tuples, {len(arch.expanded)} with their "
             f"symmetric images, {per_stage:,} weights a stage)"]
    if network.staged:
        spans = ", ".join(f"{a}-{b}" for a, b in stage_moves(network.stages))
        whole = (f"; plus {network.whole_disc_weight} x the mover's whole discs" if network.whole_disc_weight
                 else "")
        lines += [f"stages: {network.stages}, one set of weights each, by move number (discs - 4): {spans}",
                  f"scale: in discs of final margin for the side to move, {DISC_UNITS} integer units a disc"
                  f"{whole}",
                  f"weights: {total:,} in all ({network.stages} stages x {per_stage:,}"
                  + (f", then {network.stages} stages x {MOBILITY_ENTRIES} mobility entries: discs for the side "
                     "to move by its legal moves, 0.." + f"{MOBILITY_ENTRIES - 1}" if network.mobility else "") + ")"]
    else:
        lines += ["stages: 1 (the same weights all game)",
                  f"scale: normalized, the largest value of any position {scale(arch)} integer units "
                  "(only the weights' ratios matter)",
                  f"weights: {total:,}"]
    lines += [f"birth: {individual.birth}",
              f"digest: {individual.digest} (of the {total:,} quantized weights)",
              f"real weights: min {float(network.weights.min()):.6g}, max {float(network.weights.max()):.6g}",
              f"quantized weights: min {int(q.min())}, max {int(q.max())}, {int(np.count_nonzero(q)):,} of "
              f"{q.size:,} not zero; largest |value| of any position at most {individual.fast_evaluator().bound:,}"]
    return lines


def run_show(args: argparse.Namespace, context: CommandContext) -> int:
    print("\n".join(show_lines(network_named(args.player, args.db, context))))
    return 0
