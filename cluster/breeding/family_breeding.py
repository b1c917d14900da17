"""Which family breeds how: the one table from a family's name to its
:class:`~genethello.cluster.breeding.protocols.FamilyBreeding`. The GA and
random search ask it for the members' family and never ask which family
they hold; a new family is an entry here."""

from __future__ import annotations

from genethello.cluster.breeding.genethello_breeding import GENETHELLO_BREEDING
from genethello.cluster.breeding.network_breeders import NETWORK_BREEDING
from genethello.cluster.breeding.protocols import FamilyBreeding
from genethello.core.families.chromosome import FAMILY_NAME as GENETHELLO_FAMILY
from genethello.core.families.network_family import FAMILY_NAME as NETWORK_FAMILY
from genethello.core.families.registry import Kind

__all__ = ["FAMILY_BREEDING", "breeding_for"]

#: Every family the GA and random search breed, by the family's name.
FAMILY_BREEDING: dict[str, FamilyBreeding] = {
    GENETHELLO_FAMILY: GENETHELLO_BREEDING,
    NETWORK_FAMILY: NETWORK_BREEDING,
}


def breeding_for(kind: Kind) -> FamilyBreeding:
    """How members of ``kind``'s family are bred.

    Raises:
        ValueError: for a family with no breeding here.
    """
    try:
        return FAMILY_BREEDING[kind.family]
    except KeyError:
        raise ValueError(f"no breeding for {kind.name!r} (a {kind.family} chromosome)") from None
