"""Chromosome families: the kinds of evolved evaluation a run can breed, behind one interface.

A *family* is one way of writing an engine's evaluation as a chromosome:
GeneThello's integer feature weights today (:mod:`genethello.core.families.chromosome`),
n-tuple networks next. A family has *kinds* (GeneThello: a
:class:`~genethello.core.families.chromosome.ChromosomeType` such as ``oe_fmc``;
networks: an architecture) and *individuals* (one chromosome each: a
population's members). Everything above the core — the coordinator, its
breeders, the run store, the workers — reaches an individual's text,
evaluator, random individuals and stored payload through its family, found
here and only here: by a kind's name (a run's ``population.type``), by an
individual's text, or by the individual itself.

Every family writes an individual's text as ``KIND_BIRTH_REST``: the kind's
name, ``_``, the birth generation, ``_``, then whatever identifies the
individual in that family (GeneThello: the genes; networks: a hash of the
weights, which are kept beside the text as the individual's payload). So a
text names its family through its kind, and kind names of different
families never overlap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from genethello.core.families.chromosome import GENETHELLO
from genethello.core.families.interface import ChromosomeFamily, Individual, Kind, StoredIndividual
from genethello.core.families.network_family import NETWORKS
from genethello.core.frontend.errors import UserError

if TYPE_CHECKING:
    from genethello.core.evaluation.evaluation import BaseEvaluator

__all__ = [
    "Kind", "Individual", "StoredIndividual", "ChromosomeFamily", "FAMILIES", "DEFAULT_FAMILY",
    "family_named", "family_of_kind", "family_of_text", "family_of", "parse_kind", "parse_individual",
    "evaluator_of",
]


#: Every family, in the order texts and kind names are matched against them.
FAMILIES: tuple[ChromosomeFamily[Any, Any], ...] = (GENETHELLO, NETWORKS)

#: The family of a kind that no family owns: GeneThello, the family of every
#: run stored before families existed. Its parser then says what is wrong
#: with the name, as it always has.
DEFAULT_FAMILY: ChromosomeFamily[Any, Any] = GENETHELLO


def family_named(name: str) -> ChromosomeFamily[Any, Any]:
    """The family called ``name``.

    Raises:
        ValueError: naming ``name`` and the families there are.
    """
    for family in FAMILIES:
        if family.name == name:
            return family
    raise UserError(f"no chromosome family named {name!r} (known: {', '.join(f.name for f in FAMILIES)})")


def family_of_kind(name: str) -> ChromosomeFamily[Any, Any]:
    """The family owning the kind ``name`` (``DEFAULT_FAMILY`` if none does)."""
    for family in FAMILIES:
        if family.owns_kind(name):
            return family
    return DEFAULT_FAMILY


def family_of_text(text: str) -> ChromosomeFamily[Any, Any]:
    """The family of the individual written as ``text`` (``KIND_BIRTH_REST``)."""
    if not isinstance(text, str):
        raise TypeError(f"chromosome text must be str, not {type(text).__name__}")
    return family_of_kind(text.rsplit("_", 2)[0])


def family_of(individual: Individual) -> ChromosomeFamily[Any, Any]:
    """The family of ``individual`` (from its kind)."""
    return family_named(individual.type.family)


def parse_kind(name: str) -> Kind:
    """The kind called ``name``, of whichever family owns it.

    Raises:
        ValueError: naming ``name`` and what is wrong with it.
    """
    kind: Kind = family_of_kind(name).parse_kind(name)
    return kind


def parse_individual(text: str, payload: bytes | None = None) -> Individual:
    """The individual written as ``text``, of whichever family owns its kind.

    Raises:
        ValueError: naming the field, the bad value and the whole text.
    """
    individual: Individual = family_of_text(text).parse(text, payload)
    return individual


def evaluator_of(individual: Individual, patterns: str | None = None) -> BaseEvaluator:
    """The evaluator the searches use to play ``individual``."""
    return family_of(individual).evaluator(individual, patterns)

