"""What a run's family draws of its best so far, generation by generation.

The runs page and ``plot`` chart the best so far of every generation. What
there is to draw depends on the family (:mod:`genethello.core.families.registry`),
so each family names its chart here, in :data:`CHARTS` (this module is the
table of the families' charts: each chart knows its family's individuals):

* **GeneThello** (``genethello``): the genes of the best, one line a gene
  (a few to two dozen small integers), as the page and ``plot`` always
  drew them;
* **networks** (``ntuple``): 288 to thousands of real weights cannot be
  drawn as lines, so the chart summarizes the best's weights: the share of
  the evaluation range each *tuple class* holds (a class: the tuples of one
  shape and one place on the board, corner/edge/inner; a share: the class's
  part of the bound norm ``B`` of :mod:`genethello.core.families.networks`, the
  largest value a position can get, so the shares sum to 100% and do not
  depend on the optimizer's free scale), and that scale itself, the L2
  norm of the real weights (a 1-ply player ignores it; its drift shows what
  the optimizer does).

A chart is a list of series with one value per generation row (None where
the generation has no best yet), each on the left or the right axis.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from genethello.cluster.db import Database
from genethello.cluster.reads.history import GenerationRow
from genethello.cluster.reads.runs import RunInfo, player_record
from genethello.core.families.chromosome import FAMILY_NAME as GENETHELLO_FAMILY
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.network_family import FAMILY_NAME as NETWORK_FAMILY
from genethello.core.families.registry import family_of, family_of_kind, parse_individual

__all__ = ["CHARTS", "ChampionChart", "ChampionSeries", "champion_chart", "run_family", "tuple_class"]


@dataclass(frozen=True)
class ChampionSeries:
    """One line: its label, one value per generation row, its axis."""

    label: str
    values: tuple[float | None, ...]
    axis: str = "left"              # "left" or "right"


@dataclass(frozen=True)
class ChampionChart:
    """What a family draws of the best so far (module docstring)."""

    family: str
    title: str
    left_label: str
    right_label: str | None
    series: tuple[ChampionSeries, ...]


def run_family(run: RunInfo) -> str:
    """The family name of the run's population type (GeneThello's when unknown)."""
    return str(family_of_kind(run.chromosome_type or "").name)


def _gene_chart(db: Database, run: RunInfo, rows: Sequence[GenerationRow]) -> ChampionChart:
    genes: list[tuple[int, ...] | None] = []
    names: list[str] = []
    for row in rows:
        try:
            best = Chromosome.parse(row.best) if row.best and row.best != "-" else None
        except ValueError:
            best = None
        if best is not None and not names:
            names = best.type.gene_names()
        genes.append(tuple(best.genes) if best is not None else None)
    series = tuple(ChampionSeries(name, tuple(g[i] if g is not None else None for g in genes),
                                  "right" if name in ("o", "e") else "left") for i, name in enumerate(names))
    return ChampionChart("genethello", "genes of the best so far", "weight", "o, e (move)", series)


def tuple_class(squares: Sequence[int]) -> str:
    """A base tuple's class: its shape (``2×2`` square, else ``N-tuple``)
    and its place (``corner`` if it holds a corner square, else ``edge`` if
    all its squares are on the edge, else ``inner``)."""
    rows = {s // 8 for s in squares}
    cols = {s % 8 for s in squares}
    square = len(squares) == 4 and len(rows) == 2 and len(cols) == 2
    shape = "2×2" if square else f"{len(squares)}-tuple"
    on_edge = [s // 8 in (0, 7) or s % 8 in (0, 7) for s in squares]
    corner = any(s in (0, 7, 56, 63) for s in squares)
    place = "corner" if corner else "edge" if all(on_edge) else "inner"
    return f"{shape} {place}"


def _weight_chart(db: Database, run: RunInfo, rows: Sequence[GenerationRow]) -> ChampionChart:
    summaries: dict[str, tuple[dict[str, float], float] | None] = {}
    classes: list[str] = []
    for text in dict.fromkeys(row.best for row in rows if row.best):
        try:
            individual = parse_individual(*player_record(db, text))
        except ValueError:
            individual = None
        network = family_of(individual).network(individual) if individual is not None else None
        if network is None:
            summaries[text] = None
            continue
        arch, w = network.architecture, network.weights
        parts: dict[str, float] = {}
        start = 0
        for squares, size, m in zip(arch.tuples, arch.lut_sizes, arch.multiplicities):
            name = tuple_class(squares)
            parts[name] = parts.get(name, 0.0) + m * float(np.abs(w[start:start + size]).max())
            start += size
        bound = sum(parts.values())
        shares = {k: 100.0 * v / bound if bound > 0 else 0.0 for k, v in parts.items()}
        summaries[text] = (shares, float(np.linalg.norm(w)))
        classes.extend(k for k in parts if k not in classes)
    per_row = [summaries.get(row.best) if row.best else None for row in rows]
    series = [ChampionSeries(f"{name} share %", tuple(
        round(s[0].get(name, 0.0), 2) if s is not None else None for s in per_row)) for name in sorted(classes)]
    series.append(ChampionSeries("L2 norm of the real weights",
                                 tuple(round(s[1], 4) if s is not None else None for s in per_row), "right"))
    return ChampionChart("ntuple", "weights of the best so far: each tuple class's share of the evaluation range",
                         "share %", "L2 norm", tuple(series))


#: Each family's chart of its best so far, by family name.
CHARTS: dict[str, Callable[[Database, RunInfo, Sequence[GenerationRow]], ChampionChart]] = {
    GENETHELLO_FAMILY: _gene_chart,
    NETWORK_FAMILY: _weight_chart,
}


def champion_chart(db: Database, run: RunInfo, rows: Sequence[GenerationRow]) -> ChampionChart:
    """The chart the run's family draws of its best so far, one value a row
    of ``rows`` (:func:`~genethello.cluster.reads.generation_rows`)."""
    return CHARTS.get(run_family(run), _gene_chart)(db, run, rows)
