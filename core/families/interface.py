"""The interface of a chromosome family: what every family and its kinds and
individuals provide (:class:`Kind`, :class:`Individual`,
:class:`StoredIndividual`, :class:`ChromosomeFamily`).

A leaf of :mod:`genethello.core.families`: the families implement it
(:mod:`~genethello.core.families.chromosome`,
:mod:`~genethello.core.families.network_family`) and
:mod:`~genethello.core.families.registry` lists them, so each imports this
module and none imports the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from genethello.core.evaluation.evaluation import BaseEvaluator
    from genethello.core.families.networks import Network

__all__ = ["MAX_TEXT_CHARS", "quoted", "Kind", "Individual", "StoredIndividual", "ChromosomeFamily", "KindT",
           "IndividualT"]



#: The longest individual's text read (a GeneThello chromosome's is under
#: 150 characters, a network's under 60).
MAX_TEXT_CHARS = 1000
#: How much of a bad text an error line quotes.
QUOTED_CHARS = 100


def quoted(text: str, limit: int = QUOTED_CHARS) -> str:
    """``repr(text)``, cut to ``limit`` characters and its length said when
    longer (an error line stays readable whatever it was given)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


@runtime_checkable
class Kind(Protocol):
    """One kind of individual of a family: what a run's ``population.type`` names."""

    @property
    def name(self) -> str:
        """The kind's name, as configs and texts write it (e.g. ``"oe_fmc"``)."""
        ...

    @property
    def family(self) -> str:
        """The name of the family the kind belongs to (e.g. ``"genethello"``)."""
        ...

    @property
    def default_population_size(self) -> int:
        """The population a run of this kind breeds when its config gives none."""
        ...

    @property
    def uses_pattern_table(self) -> bool:
        """Whether its individuals' evaluators weigh the shared pattern table (a run
        then records the table's version and keeps it)."""
        ...


@runtime_checkable
class Individual(Protocol):
    """One chromosome of some family (``Individual`` rather than "member" or
    "player": those name a population slot and a database row). Hashable,
    picklable, compared by value; ``str()`` is its text."""

    @property
    def type(self) -> Kind:
        """The individual's kind."""
        ...

    @property
    def birth(self) -> int:
        """The generation the individual was born in."""
        ...


@dataclass(frozen=True)
class StoredIndividual:
    """What the run store writes for an individual beside its text.

    Attributes:
        kind: the kind's name (``chromosomes.ctype``).
        birth: the birth generation (``chromosomes.birth``).
        genes: a short readable form of what the individual evolves
            (``chromosomes.genes``; GeneThello: the genes joined by ``:``).
        payload: what the text cannot hold, or None (GeneThello: None;
            networks: their weights). No column holds a payload before
            migration 0004, so the store refuses one until then.
    """

    kind: str
    birth: int
    genes: str
    payload: bytes | None = None


KindT = TypeVar("KindT", bound=Kind)
IndividualT = TypeVar("IndividualT", bound=Individual)


class ChromosomeFamily(Protocol[KindT, IndividualT]):
    """The interface every chromosome family implements (GeneThello's:
    ``GENETHELLO``, a ``ChromosomeFamily[ChromosomeType, Chromosome]``).

    Each method is pure: equal inputs give equal results on every machine,
    and randomness comes only from the Generator passed in.
    """

    @property
    def name(self) -> str:
        """The family's name (e.g. ``"genethello"``)."""
        ...

    @property
    def noun(self) -> str:
        """What a person calls one of its individuals (``"chromosome"``, ``"network"``)."""
        ...

    def owns_kind(self, name: str) -> bool:
        """Whether ``name`` names one of this family's kinds."""
        ...

    def parse_kind(self, name: str) -> KindT:
        """The kind named ``name``.

        Raises:
            ValueError: naming ``name`` and what the family allows.
        """
        ...

    def parse(self, text: str, payload: bytes | None = None) -> IndividualT:
        """The individual written as ``text`` (with its stored ``payload``, for
        families that keep one beside the text).

        Raises:
            ValueError: naming the field, the bad value and the whole text.
        """
        ...

    def text(self, individual: IndividualT) -> str:
        """The individual's canonical text; ``parse(text(m), storage(m).payload) == m``."""
        ...

    def random_individual(self, kind: KindT, birth: int, rng: np.random.Generator) -> IndividualT:
        """An individual of ``kind`` drawn from ``rng`` only (no global random state)."""
        ...

    def evaluator(self, individual: IndividualT, patterns: str | None = None) -> BaseEvaluator:
        """The evaluator the searches use to play ``individual`` (``patterns``:
        the pattern table's version, None for the newest)."""
        ...

    def named_genes(self, individual: IndividualT) -> dict[str, int]:
        """The individual's genes by name, for a page that shows them ({} for
        a family whose individuals have no named genes)."""
        ...

    def storage(self, individual: IndividualT) -> StoredIndividual:
        """What the run store keeps of ``individual`` beside its text."""
        ...

    def network(self, individual: IndividualT) -> Network | None:
        """The n-tuple network ``individual`` is, for what plays or shows
        networks alone (the fast 1-ply game loop, a chart of a network's
        weights); None for a family whose individuals are not networks."""
        ...

    def played_payload(self, individual: IndividualT) -> bytes | None:
        """A smaller payload that plays, shows and exports as ``individual``
        does, for a past member no step will breed from again; None when
        the family has none (its payload is already all it needs)."""
        ...

    def played_difference(self, individual: IndividualT, parent: Individual) -> bytes | None:
        """What ``individual`` plays minus what ``parent`` plays, packed (a
        past member stored against its parent); None when the family has no
        played form or ``parent`` is not of ``individual``'s kind."""
        ...

    def played_from_differences(self, base: IndividualT, differences: Sequence[bytes],
                                what: str) -> bytes | None:
        """The played payload of ``base`` with ``differences`` (of
        :meth:`played_difference`, the first applied last) added; None when
        the family has no played form for ``base``.

        Raises:
            ValueError: a difference that does not unpack to ``base``'s size
                (``what`` names the stored weights).
        """
        ...
