"""Which family's run takes which generation steps: the one table from a
family's name to its steps. The coordinator asks it for a run's steps and
never asks which family the run holds; a new family is an entry here."""

from __future__ import annotations

from collections.abc import Callable

from genethello.cluster.run.generation_steps import GenerationSteps, RunHandle
from genethello.cluster.run.genethello_run import GeneThelloSteps
from genethello.cluster.run.network_run import NetworkSteps
from genethello.core.families.chromosome import FAMILY_NAME as GENETHELLO_FAMILY
from genethello.core.families.network_family import FAMILY_NAME as NETWORK_FAMILY

__all__ = ["FAMILY_STEPS", "steps_for"]

#: Every family's generation steps, by the family's name.
FAMILY_STEPS: dict[str, Callable[[RunHandle], GenerationSteps]] = {
    GENETHELLO_FAMILY: GeneThelloSteps,
    NETWORK_FAMILY: NetworkSteps,
}


def steps_for(run: RunHandle) -> GenerationSteps:
    """The generation steps of ``run``'s family.

    Raises:
        ValueError: for a family that has no steps here.
    """
    try:
        make = FAMILY_STEPS[run.kind.family]
    except KeyError:
        raise ValueError(f"no generation steps for {run.kind.name!r} (a {run.kind.family} chromosome)") from None
    return make(run)
