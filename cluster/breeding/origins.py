"""Why each member of a population is there: the breeders' account of every slot.

A breeder returns, beside the members of the new generation, one
:class:`Origin` per slot, in slot order: survived as an elite, re-entered
from the best of history, drawn at random, read from the initial file, born
of a crossover (then mutated), a mutant, a newborn that duplicated a member
and was mutated again, a sample of a CMA-ES distribution, a member that
learned from its own games, or one that copied a top member's weights
(pbt-td). An origin names
its parents by position in what the breeder was handed (the rated
generation's ranking, best first, or its injected members), because a
breeder knows no database ids; :func:`resolve` turns those positions into
player ids once the coordinator knows whose they are. Recording origins
changes no decision: the breeders draw exactly what they drew before.

Pure: no Ray, no SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["INITIAL", "RANDOM", "ELITE", "REENTERED", "CROSSOVER", "MUTANT", "DUPLICATE_MUTATED", "CMA_SAMPLE",
           "LEARNED", "COPIED", "ORIGIN_KINDS", "BRED_KINDS", "Origin", "StoredOrigin", "resolve"]

#: Generation 1's members read from ``population.initial``.
INITIAL = "initial"
#: Drawn at random (generation 1, and random search's newcomers).
RANDOM = "random"
#: Kept unchanged as one of the best of the previous generation.
ELITE = "elite"
#: The best of history (the hall, the run's best by Elo, or another run's) put back.
REENTERED = "reentered"
#: Uniform crossover of two parents, then mutation.
CROSSOVER = "crossover"
#: One parent mutated in at least one gene (weight).
MUTANT = "mutant"
#: A crossover child or mutant that duplicated a member, mutated again until unique.
DUPLICATE_MUTATED = "duplicate-mutated"
#: A sample of the CMA-ES distribution told the previous generation's ranking.
CMA_SAMPLE = "cma-sample"

#: Learned a slice of temporal differences from its own weights (pbt-td).
LEARNED = "learned"
#: Took the weights and hyperparameters of a top member, perturbed the
#: hyperparameters, then learned a slice (pbt-td's exploit and explore).
COPIED = "copied"

#: Every kind a breeder may give, in the order reports list them.
ORIGIN_KINDS = (ELITE, REENTERED, CROSSOVER, MUTANT, DUPLICATE_MUTATED, CMA_SAMPLE, LEARNED, COPIED, RANDOM, INITIAL)
#: The kinds whose parents are positions in the rated generation's ranking.
BRED_KINDS = (ELITE, CROSSOVER, MUTANT, DUPLICATE_MUTATED, LEARNED, COPIED)


@dataclass(frozen=True)
class Origin:
    """Why one slot's member is there.

    Attributes:
        kind: one of :data:`ORIGIN_KINDS`.
        parents: for :data:`BRED_KINDS`, positions in the rated generation's
            ranking (best first; an elite names itself; a crossover its two
            parents, the same one twice when there was a single parent); for
            :data:`REENTERED`, the position in the injected members; () for
            the others.
        detail: for :data:`DUPLICATE_MUTATED`, the operator that first made
            it (:data:`CROSSOVER` or :data:`MUTANT`); for :data:`COPIED`,
            what was perturbed (``alpha x1.25 lambda /1.25 ...``); None
            otherwise.
    """

    kind: str
    parents: tuple[int, ...] = ()
    detail: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ORIGIN_KINDS:
            raise ValueError(f"origin kind {self.kind!r} is not one of {', '.join(ORIGIN_KINDS)}")

    def duplicated(self) -> Origin:
        """This newborn's origin once it was mutated again for duplicating a member."""
        return Origin(DUPLICATE_MUTATED, self.parents, self.kind)


@dataclass(frozen=True)
class StoredOrigin:
    """An origin as the run stores it on its population slot.

    Attributes:
        kind: one of :data:`ORIGIN_KINDS`.
        parent_a, parent_b: player ids (``chromosomes.id``) of the parents,
            None where there is none; a re-entered member's parent is the
            player it was (in this run, or in the run it came from).
        source_generation: the generation whose ranking, hall or
            distribution the member came from (the previous one; 0 for a
            CMA-ES sample of the starting distribution); None for random
            and initial members.
    """

    kind: str
    parent_a: int | None = None
    parent_b: int | None = None
    source_generation: int | None = None


def resolve(origins: Sequence[Origin], generation: int, ranked_ids: Sequence[int],
            injected_ids: Sequence[int] = ()) -> list[StoredOrigin]:
    """``origins`` of generation ``generation`` with their parents as player ids.

    Args:
        origins: one per slot, as a breeder gave them.
        generation: the generation they belong to.
        ranked_ids: the player id of each member of the rated generation
            ``generation - 1``, in the order the breeder was handed them.
        injected_ids: the player id of each injected member, likewise.

    Raises:
        ValueError: an origin names a position outside those given.
    """
    stored = []
    for origin in origins:
        pool = injected_ids if origin.kind == REENTERED else ranked_ids
        try:
            ids = [pool[i] for i in origin.parents]
        except IndexError:
            raise ValueError(f"origin {origin} names a parent beyond the {len(pool)} given") from None
        source = None if origin.kind in (RANDOM, INITIAL) else generation - 1
        stored.append(StoredOrigin(origin.kind, ids[0] if ids else None, ids[1] if len(ids) > 1 else None, source))
    return stored
