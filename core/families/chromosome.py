"""Chromosomes: the genes of an evolved Othello player, and their text form.

A chromosome's *type* names the evaluation features it weighs, one letter each
in the canonical order ``FEATURES`` ("fdmxcpr"), each at most once, with an
optional ``oe_`` prefix::

    fmc  dmc  dmp  fdmxcp  fdmxcpr  p  oe_fmc  oe_fdmxcp

Genes are integers in this order:

* ``o`` (1..20) and ``e`` (41..60) when the type has ``oe_``; they split the
  game into three phases: opening (move number <= o), midgame
  (o < move <= e) and endgame (move > e);
* then, for each phase (three with ``oe_``, one without), one weight (0..10)
  per letter of the type, in the type's order.

The text form is ``TYPE_BIRTH_GENES`` with the genes joined by ``:``, e.g.
``oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3`` (type oe_fmc, born in generation 1,
o=14, e=49, then wf, wm, wc for each phase) or ``fdmxcp_3_1:2:3:4:5:6``.
Parsing and printing round-trip byte-exact, so only canonical spellings are
accepted: plain ASCII digits, no sign, no leading zeros, no spaces.

Every malformed chromosome raises ``ChromosomeError`` (a ``ValueError``)
whose message names the field, the bad value, what is allowed and the whole
input. Gene indices in messages are 0-based, matching ``gene_names()``.
"""

from __future__ import annotations

import operator
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from genethello.core.families.interface import MAX_TEXT_CHARS, Individual, StoredIndividual, quoted
from genethello.core.frontend.errors import UserError

if TYPE_CHECKING:
    from genethello.core.evaluation.evaluation import Evaluator

__all__ = [
    "FEATURES",
    "FEATURE_NAMES",
    "PHASES",
    "OPENING_RANGE",
    "ENDGAME_RANGE",
    "WEIGHT_RANGE",
    "BITS_PER_GENE",
    "ChromosomeError",
    "ChromosomeType",
    "Chromosome",
    "random_chromosome",
    "GeneThelloFamily",
    "GENETHELLO",
]

FEATURES = "fdmxcpr"
"""The feature letters, in canonical order."""

FEATURE_NAMES = {
    "f": "flips",
    "d": "discs",
    "m": "mobility",
    "x": "xsquares",
    "c": "corners",
    "p": "pattern",
    "r": "parity",
}

PHASES = ("opening", "midgame", "endgame")
OE_PREFIX = "oe_"
OPENING_RANGE = (1, 20)
"""Allowed values of gene ``o`` (last move number of the opening)."""
ENDGAME_RANGE = (41, 60)
"""Allowed values of gene ``e`` (last move number of the midgame)."""
WEIGHT_RANGE = (0, 10)
"""Allowed values of every feature weight."""
BITS_PER_GENE = 32
LAST_MOVE = 60
FAMILY_NAME = "genethello"
"""The name of GeneThello's chromosome family."""
"""Moves in a game without passes; the phase bounds of un-phased types."""

T = TypeVar("T")

_CANONICAL_INT = re.compile(r"0|[1-9][0-9]*")
_TYPE_RULE = (
    f"one or more distinct letters of {FEATURES!r} in that order, "
    f"optionally prefixed {OE_PREFIX!r}"
)


class ChromosomeError(UserError):
    """A chromosome or chromosome type that is malformed or out of range."""


def _parse_canonical_int(text: str) -> int | None:
    """The value of ``text`` if it is a canonical non-negative integer, else None."""
    if _CANONICAL_INT.fullmatch(text) is None:
        return None
    return int(text)


def _as_int(value: object) -> int | None:
    """``value`` as a plain int if it is an integer (bools excluded), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


@dataclass(frozen=True)
class ChromosomeType:
    """The kind of a chromosome: which features it weighs and whether it is phased.

    Build one with ``ChromosomeType.parse("oe_fmc")``; direct construction is
    validated too (``name`` must equal ``"oe_" * phased + letters``).
    """

    name: str
    letters: str
    phased: bool

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not isinstance(self.letters, str):
            raise ChromosomeError(f"type: {self.name!r} is not text (expected {_TYPE_RULE})")
        if not isinstance(self.phased, bool):
            raise ChromosomeError(f"type {self.name!r}: phased must be a bool, not {self.phased!r}")
        problem = _letters_problem(self.letters)
        if problem is not None:
            raise ChromosomeError(f"type {self.name!r}: {problem} (expected {_TYPE_RULE})")
        expected = (OE_PREFIX if self.phased else "") + self.letters
        if self.name != expected:
            raise ChromosomeError(
                f"type {self.name!r}: name does not match letters={self.letters!r}, "
                f"phased={self.phased!r} (expected {expected!r})"
            )

    @classmethod
    def parse(cls, text: str) -> ChromosomeType:
        """The type named by ``text``, e.g. ``"fmc"`` or ``"oe_fdmxcp"``.

        Raises:
            ChromosomeError: naming the text, if it is not a valid type name.
        """
        if not isinstance(text, str):
            raise TypeError(f"chromosome type must be text, not {type(text).__name__}")
        phased = text.startswith(OE_PREFIX)
        letters = text[len(OE_PREFIX):] if phased else text
        problem = _letters_problem(letters)
        if problem is not None:
            raise ChromosomeError(f"type {quoted(text)}: {problem} (expected {_TYPE_RULE})")
        return cls(text, letters, phased)

    @property
    def phase_count(self) -> int:
        """3 for ``oe_`` types, 1 otherwise."""
        return len(PHASES) if self.phased else 1

    @property
    def gene_count(self) -> int:
        """How many genes a chromosome of this type has."""
        return (2 if self.phased else 0) + self.phase_count * len(self.letters)

    @property
    def bit_length(self) -> int:
        """``gene_count * 32``; GeneThello used it as the population size."""
        return self.gene_count * BITS_PER_GENE

    def gene_names(self) -> list[str]:
        """Names of the genes in order, e.g. ``["o", "e", "opening wf", ...]`` or ``["wf", ...]``."""
        if not self.phased:
            return [f"w{letter}" for letter in self.letters]
        return ["o", "e"] + [f"{phase} w{letter}" for phase in PHASES for letter in self.letters]

    def gene_ranges(self) -> list[tuple[int, int]]:
        """Inclusive ``(low, high)`` for each gene, in gene order."""
        head = [OPENING_RANGE, ENDGAME_RANGE] if self.phased else []
        return head + [WEIGHT_RANGE] * (self.phase_count * len(self.letters))

    @property
    def family(self) -> str:
        """``"genethello"``: the chromosome family of every type (see :mod:`genethello.core.families.registry`)."""
        return FAMILY_NAME

    @property
    def default_population_size(self) -> int:
        """The bit length, GeneThello's population size when a run gives none."""
        return self.bit_length

    @property
    def uses_pattern_table(self) -> bool:
        """Whether the type weighs the pattern feature ``p`` (its evaluators read the shared table)."""
        return "p" in self.letters

    def uses(self, letter: str) -> bool:
        """Whether this type weighs the feature ``letter`` (one of ``FEATURES``)."""
        if not isinstance(letter, str) or len(letter) != 1 or letter not in FEATURES:
            raise ValueError(f"{letter!r} is not a feature letter (one of {FEATURES!r})")
        return letter in self.letters

    def __str__(self) -> str:
        return self.name


def _letters_problem(letters: str) -> str | None:
    """What is wrong with a type's letters, or None if they are canonical
    (one pass over them: a text of a million letters costs a million steps)."""
    if not letters:
        return "no feature letters"
    counts = Counter(letters)
    unknown = sorted(set(counts) - set(FEATURES))
    if unknown:
        return "unknown letter(s) " + ", ".join(repr(ch) for ch in unknown[:20])
    repeated = sorted((ch for ch, n in counts.items() if n > 1), key=FEATURES.index)
    if repeated:
        return "repeated letter(s) " + ", ".join(repr(ch) for ch in repeated)
    canonical = "".join(ch for ch in FEATURES if ch in counts)
    if letters != canonical:
        return f"letters {letters!r} are out of canonical order (should be {canonical!r})"
    return None




@dataclass(frozen=True)
class Chromosome:
    """One player's genes: its type, the generation it was born in, and the genes.

    Validated on construction; hashable, picklable and compared by value.
    ``type`` may be given as a type name, and ``genes`` as any sequence of
    integers; they are stored as a ``ChromosomeType`` and a tuple of plain ``int``.
    """

    type: ChromosomeType
    birth: int
    genes: tuple[int, ...]

    def __post_init__(self) -> None:
        ctype = self.type
        if isinstance(ctype, str):
            ctype = ChromosomeType.parse(ctype)
            object.__setattr__(self, "type", ctype)
        if not isinstance(ctype, ChromosomeType):
            raise TypeError(f"chromosome type must be a ChromosomeType, not {type(ctype).__name__}")
        try:
            raw_genes = tuple(self.genes)
        except TypeError:
            raise TypeError(f"genes must be a sequence of integers, not {type(self.genes).__name__}") from None
        source = _describe(ctype, self.birth, raw_genes)
        birth = _as_int(self.birth)
        if birth is None or birth < 0:
            raise ChromosomeError(f"birth: {self.birth!r} is not an integer >= 0 in {source}")
        genes = _checked_genes(ctype, raw_genes, source, _as_int, "an integer (")
        object.__setattr__(self, "birth", birth)
        object.__setattr__(self, "genes", genes)

    @classmethod
    def from_genes(
        cls, ctype: ChromosomeType | str, birth: int, genes: Iterable[int]
    ) -> Chromosome:
        """A validated chromosome; ``ctype`` may be a type or its name."""
        if isinstance(ctype, str):
            ctype = ChromosomeType.parse(ctype)
        return cls(ctype, birth, tuple(genes))

    @classmethod
    def parse(cls, text: str) -> Chromosome:
        """The chromosome written as ``TYPE_BIRTH_GENES``, e.g. ``fmc_3_1:2:3``.

        Only the canonical spelling (the one ``str()`` prints) is accepted.

        Raises:
            ChromosomeError: naming the field, the bad value, what is allowed
                and the whole input.
        """
        if not isinstance(text, str):
            raise TypeError(f"chromosome text must be str, not {type(text).__name__}")
        if len(text) > MAX_TEXT_CHARS:
            raise ChromosomeError(f"chromosome: a text of {len(text):,} characters, more than the "
                                  f"{MAX_TEXT_CHARS:,} a chromosome's text takes: {quoted(text)}")
        parts = text.rsplit("_", 2)
        if len(parts) != 3:
            raise ChromosomeError(
                f"chromosome: expected TYPE_BIRTH_GENES (e.g. 'fmc_3_1:2:3'), "
                f"got {len(parts)} part(s) in {quoted(text)}"
            )
        type_text, birth_text, genes_text = parts
        try:
            ctype = ChromosomeType.parse(type_text)
        except ChromosomeError as exc:
            raise ChromosomeError(f"{exc} in {quoted(text)}") from None
        birth = _parse_canonical_int(birth_text)
        if birth is None:
            raise ChromosomeError(
                f"birth: {birth_text!r} is not an integer >= 0 written canonically "
                f"(ASCII digits, no sign, spaces or leading zeros) in {quoted(text)}"
            )
        gene_texts = genes_text.split(":") if genes_text else []
        genes = _checked_genes(ctype, gene_texts, quoted(text), _parse_canonical_int,
                               "an integer written canonically (ASCII digits, no sign, spaces or leading zeros; ")
        return cls(ctype, birth, genes)

    def __str__(self) -> str:
        return f"{self.type.name}_{self.birth}_" + ":".join(str(g) for g in self.genes)

    @property
    def bit_length(self) -> int:
        """``len(genes) * 32``."""
        return self.type.bit_length

    def phase_bounds(self) -> tuple[int, int]:
        """``(o, e)``: the opening is moves <= o, the midgame o < move <= e, the endgame move > e.

        Un-phased types give ``(60, 60)``, so every move is in the opening.
        """
        if self.type.phased:
            return self.genes[0], self.genes[1]
        return LAST_MOVE, LAST_MOVE

    def phase_weights(self) -> tuple[tuple[int, ...], ...]:
        """Weights per phase (opening, midgame, endgame), each 7 ints in ``FEATURES`` order.

        Letters the type lacks weigh 0; un-phased types repeat their one phase three times.
        """
        letters = self.type.letters
        offset = 2 if self.type.phased else 0
        rows = []
        for phase in range(self.type.phase_count):
            start = offset + phase * len(letters)
            by_letter = dict(zip(letters, self.genes[start:start + len(letters)]))
            rows.append(tuple(by_letter.get(letter, 0) for letter in FEATURES))
        if len(rows) == 1:
            rows *= len(PHASES)
        return tuple(rows)

    def with_birth(self, birth: int) -> Chromosome:
        """The same genes with another birth generation."""
        return Chromosome(self.type, birth, self.genes)


def _describe(ctype: ChromosomeType, birth: object, genes: tuple[object, ...]) -> str:
    """The would-be text of a chromosome, for error messages."""
    return repr(f"{ctype.name}_{birth}_" + ":".join(str(g) for g in genes))


def _checked_genes(ctype: ChromosomeType, values: Sequence[T], source: str,
                   read: Callable[[T], int | None], expected: str) -> tuple[int, ...]:
    """The genes of a chromosome of ``ctype`` as plain ints: the one place the
    gene rules (their count, each an integer inside its range) are written,
    for construction and parsing alike.

    Args:
        values: the genes as given (numbers to the constructor, texts to ``parse``).
        source: the whole would-be text, quoted, for messages.
        read: a gene's value as an int, or None if it is not one acceptable there.
        expected: how a message describes an acceptable value, up to "allowed".

    Raises:
        ChromosomeError: naming the first bad gene (0-based, with its name),
            its value, what is allowed and ``source``.
    """
    if len(values) != ctype.gene_count:
        raise ChromosomeError(
            f"genes: type {ctype.name} needs {ctype.gene_count} genes "
            f"({', '.join(ctype.gene_names())}), got {len(values)} in {source}"
        )
    genes = []
    for index, (value, name, (low, high)) in enumerate(zip(values, ctype.gene_names(), ctype.gene_ranges())):
        number = read(value)
        if number is None:
            raise ChromosomeError(
                f"gene {index} ({name}): {value!r} is not {expected}allowed {low}..{high}) in {source}"
            )
        if not low <= number <= high:
            raise ChromosomeError(f"gene {index} ({name}): {number} is outside {low}..{high} in {source}")
        genes.append(number)
    return tuple(genes)


def random_chromosome(ctype: ChromosomeType, birth: int, rng: np.random.Generator) -> Chromosome:
    """A chromosome of ``ctype`` with each gene uniform in its range.

    Uses only ``rng`` (no global random state), so equal seeds give equal chromosomes.
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, not {type(rng).__name__}")
    ranges = ctype.gene_ranges()
    lows = np.array([low for low, _ in ranges], dtype=np.int64)
    highs = np.array([high for _, high in ranges], dtype=np.int64)
    values = rng.integers(lows, highs, endpoint=True)
    return Chromosome(ctype, birth, tuple(int(v) for v in values))


class GeneThelloFamily:
    """GeneThello's chromosomes as a family of :mod:`genethello.core.families.registry`:
    its kinds are ``ChromosomeType``, its individuals ``Chromosome``; the text
    holds every gene, so nothing is stored beside it."""

    name = FAMILY_NAME
    noun = "chromosome"

    def owns_kind(self, name: str) -> bool:
        """Whether ``name`` is a valid chromosome type name."""
        try:
            ChromosomeType.parse(name)
        except (ChromosomeError, TypeError):
            return False
        return True

    def parse_kind(self, name: str) -> ChromosomeType:
        """``ChromosomeType.parse(name)``."""
        return ChromosomeType.parse(name)

    def parse(self, text: str, payload: bytes | None = None) -> Chromosome:
        """``Chromosome.parse(text)``; GeneThello stores no payload.

        Raises:
            ChromosomeError: as ``Chromosome.parse``, or for a payload.
        """
        if payload is not None:
            raise ChromosomeError(f"a GeneThello chromosome has no stored payload (got {len(payload)} bytes "
                                  f"for {quoted(text)})")
        return Chromosome.parse(text)

    def text(self, individual: Chromosome) -> str:
        """``TYPE_BIRTH_GENES``."""
        return str(individual)

    def random_individual(self, kind: ChromosomeType, birth: int, rng: np.random.Generator) -> Chromosome:
        """:func:`random_chromosome`: each gene uniform in its range."""
        return random_chromosome(kind, birth, rng)

    def evaluator(self, individual: Chromosome, patterns: str | None = None) -> Evaluator:
        """The feature-weight evaluator of the chromosome's phases."""
        from genethello.core.evaluation.evaluation import Evaluator

        return Evaluator.from_chromosome(individual, patterns)

    def named_genes(self, individual: Chromosome) -> dict[str, int]:
        """Each gene by its feature's name, in the type's order."""
        return dict(zip(individual.type.gene_names(), individual.genes))

    def storage(self, individual: Chromosome) -> StoredIndividual:
        """The type, birth and genes (``g:g:...``) as columns; no payload."""
        return StoredIndividual(individual.type.name, individual.birth, ":".join(map(str, individual.genes)))

    def played_payload(self, individual: Chromosome) -> bytes | None:
        """None: a chromosome's text is all of it."""
        return None

    def network(self, individual: Chromosome) -> None:
        """None: a chromosome weighs features, it is no n-tuple network."""
        return None

    def played_difference(self, individual: Chromosome, parent: Individual) -> bytes | None:
        """None: a chromosome has no played form."""
        return None

    def played_from_differences(self, base: Chromosome, differences: Sequence[bytes], what: str) -> bytes | None:
        """None: a chromosome has no played form."""
        return None

    def __repr__(self) -> str:
        return "GENETHELLO"


GENETHELLO = GeneThelloFamily()
"""GeneThello's chromosome family (registered in :data:`genethello.core.families.registry.FAMILIES`)."""
