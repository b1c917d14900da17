"""n-tuple networks as a chromosome family (:mod:`genethello.core.families.registry`).

A network's *kind* is its architecture (``all-2``, ``all-4+2x2``, ... — the
names of :data:`genethello.core.evaluation.ntuple_shapes.ARCHITECTURES`); an
*individual* is one network of that architecture with its real weights
(:class:`~genethello.core.families.networks.Network`) and its birth generation.

A staged network's kind (valued in discs for the side to move, S > 1 sets
of weights by game stage, :mod:`genethello.core.families.networks`) is
written ``ARCH-sS``, ``ARCH-sS-wK`` for a whole-disc network of weight
K, or ``ARCH-sS-m`` for one that also weighs the side to move's mobility:
``all-2-s8``, ``patterns-v2-s30-w10``, ``patterns-v2-s30-m``. ``ARCH``
alone is S = 1, today's networks, whose names, files and values are
unchanged.

Its text is ``ARCH_BIRTH_DIGEST``: the architecture, the birth, and the
12-hex-digit digest of its *quantized* weights with the architecture and
scale (:func:`~genethello.core.families.networks.weights_digest`), e.g.
``all-2_17_3f09c2a1b4de``. The weights are not in the text: a run stores
them beside it as the individual's payload, and a user names a network by
its text in a database, by a file, or by the name of a shipped network.

The payload is the real weights, float64 little-endian, ``n_weights * 8``
bytes and nothing else (a network of more than 100,000 weights, such as a
pattern-table network's 5 million, stores them packed: ``GTNWZ1`` and a
newline, then the same bytes through zlib; a learning run writes one a
member a generation, 40 MB unpacked, a few MB packed; unpacking is bounded by
the kind's size): the games play the integers quantized from them
(deterministically, so every machine plays the same values), and keeping
the reals lets a breeder go on from exactly where the optimizer was. Parsing
a text with its payload checks that the payload quantizes to the digest the
text names, so a text can never be paired with another network's weights.

A staged network that no step will learn or breed from again (a learning
run's member two generations after its last, :func:`played_payload`) may be
stored *played*: ``GTNWQ1`` and a newline, the width W (2 or 4) as one
byte, then through raw LZMA2 its integer weights (1/64 disc, what games
play), each stage as its difference from the one before, zigzag-coded in W
bytes each and stored byte plane by byte plane (the high bytes, mostly
zero, pack together). It reads back as the same network,
text and games (its real weights are the integers / 64), in about 8 kB
where the real weights take 160 kB: a day of learning fits on a disk.
"""

from __future__ import annotations

import lzma
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from genethello.core.evaluation.ntuple import MAX_STAGES
from genethello.core.evaluation.ntuple_shapes import ARCHITECTURES, PATTERN_ARCHITECTURES, Architecture, architecture
from genethello.core.families.interface import MAX_TEXT_CHARS, Individual, StoredIndividual, quoted
from genethello.core.families.networks import DISC_UNITS, Network, weight_count
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.user_files import LZMA_FILTERS, UserFileError, inflate_bounded

if TYPE_CHECKING:
    from genethello.core.evaluation.evaluation import BaseEvaluator
    from genethello.core.evaluation.ntuple import NTupleEvaluator

__all__ = ["FAMILY_NAME", "NETWORKS", "NetworkError", "NetworkFamily", "NetworkIndividual", "NetworkKind",
           "MAX_WHOLE_DISC_WEIGHT", "PACK_PAYLOAD_ABOVE", "PACKED_PAYLOAD_MAGIC", "PLAYED_PAYLOAD_MAGIC",
           "integers_from_packed", "network_payload", "packed_integers", "played_payload",
           "played_payload_from_integers", "weights_from_payload"]

FAMILY_NAME = "ntuple"

#: The population a network run breeds when its config gives none: CMA-ES's
#: default λ = 4 + ⌊3 ln n⌋ is 20 for all-2's 288 weights.
DEFAULT_POPULATION = 20

#: The spread of a random network's real weights (their scale is free: the
#: quantization pins it, see :mod:`genethello.core.families.networks`).
RANDOM_SIGMA = 1.0

_DIGEST = re.compile(r"^[0-9a-f]{12}$")
#: A staged kind's name, its numbers as written (checked by :func:`staged_numbers`).
_STAGED = re.compile(r"^(?P<arch>.+?)-s(?P<stages>[^-]*)(?:-w(?P<weight>.*?))?(?P<mobility>-m)?$")
#: The largest whole-disc weight K of ``ARCH-sS-wK``: the evaluator's value is
#: K times the whole discs of an int32 sum, which must stay far inside int32.
MAX_WHOLE_DISC_WEIGHT = 64
_NUMBER = re.compile(r"^[1-9][0-9]{0,5}$")


class NetworkError(UserError):
    """A network's text, payload or kind is not valid (the message names it)."""


@dataclass(frozen=True)
class NetworkKind:
    """A network architecture, with its stages, as a kind of individual."""

    architecture: Architecture
    stages: int = 1
    whole_disc_weight: int = 0
    mobility: bool = False

    @property
    def name(self) -> str:
        """The kind's name, as configs and texts write it: the architecture's
        (S = 1), else ``ARCH-sS``, ``ARCH-sS-wK`` or ``ARCH-sS-m`` (with
        mobility entries, networks.py)."""
        if self.stages == 1:
            return self.architecture.name
        weight = f"-w{self.whole_disc_weight}" if self.whole_disc_weight else ""
        return f"{self.architecture.name}-s{self.stages}{weight}{'-m' if self.mobility else ''}"

    @property
    def family(self) -> str:
        return FAMILY_NAME

    @property
    def default_population_size(self) -> int:
        return DEFAULT_POPULATION

    @property
    def uses_pattern_table(self) -> bool:
        """Networks weigh their own tuples, never the shared pattern table."""
        return False

    @property
    def n_weights(self) -> int:
        """How many real weights an individual of this kind has (every stage's)."""
        return weight_count(self.architecture, self.stages, self.mobility)

    def network(self, weights: object) -> Network:
        """The network of this kind on real ``weights`` (its architecture,
        stages, whole-disc weight and mobility: the one place a kind's
        network is made, so none of them is left behind)."""
        return Network(self.architecture, np.asarray(weights, dtype=np.float64), self.stages, self.whole_disc_weight,
                       self.mobility)

    @classmethod
    def of(cls, network: Network) -> NetworkKind:
        """The kind ``network`` is of (its architecture, stages, whole-disc
        weight and mobility)."""
        return cls(network.architecture, network.stages, network.whole_disc_weight, network.mobility)


@dataclass(frozen=True, eq=False)
class NetworkIndividual:
    """One network of a run: its kind, birth generation and weights.

    Equal (and hashing equal) when the texts are equal: the text names the
    quantized weights, which are what a game plays.
    """

    type: NetworkKind
    birth: int
    network: Network

    def __post_init__(self) -> None:
        given = NetworkKind.of(self.network)
        if given != self.type:
            raise NetworkError(f"a {self.type.name} individual needs a {self.type.name} network, "
                               f"not {given.name}")
        if not isinstance(self.birth, int) or isinstance(self.birth, bool) or self.birth < 0:
            raise NetworkError(f"birth must be an int >= 0, got {self.birth!r}")

    @property
    def digest(self) -> str:
        """The quantized weights' 12-hex-digit digest."""
        return self.network.digest()

    def fast_evaluator(self) -> NTupleEvaluator:
        """The typed evaluator that the fast 1-ply game loop plays."""
        return self.network.evaluator()

    def __str__(self) -> str:
        return f"{self.type.name}_{self.birth}_{self.digest}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NetworkIndividual) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


#: Payloads of more weights than this are stored packed (module docstring).
PACK_PAYLOAD_ABOVE = 100_000
#: What a packed payload starts with: the version, then zlib's stream.
PACKED_PAYLOAD_MAGIC = b"GTNWZ1\n"
_PACK_LEVEL = 1


def network_payload(network: Network) -> bytes:
    """The payload stored beside a network's text: its real weights as
    float64 little-endian bytes, packed (zlib, after
    :data:`PACKED_PAYLOAD_MAGIC`) for networks of more than
    :data:`PACK_PAYLOAD_ABOVE` weights.

    Packed at zlib's fastest level with its run-length strategy: a
    pattern-table network's weights are mostly zeros and repeated bytes,
    which it packs about 1.7 times as fast as the default strategy and a
    little smaller (``benchmarks/bench_pbt_slices.py``: a learning slice of
    ``patterns-v2-net`` hands back such a payload). Any zlib stream reads
    back the same, so payloads packed before read as they did."""
    raw = np.ascontiguousarray(network.weights, dtype="<f8").tobytes()
    if network.weights.size <= PACK_PAYLOAD_ABOVE:
        return raw
    packer = zlib.compressobj(_PACK_LEVEL, zlib.DEFLATED, zlib.MAX_WBITS, 8, zlib.Z_RLE)
    return PACKED_PAYLOAD_MAGIC + packer.compress(raw) + packer.flush()


#: What a played payload starts with (module docstring): the version, the width, then zlib's stream.
PLAYED_PAYLOAD_MAGIC = b"GTNWQ1\n"


def played_payload(network: Network) -> bytes:
    """The compact payload of a staged network (module docstring): the
    integers it plays, not its real weights; parsing it gives the same
    network, text and games, its real weights rounded to 1/64 disc.

    Raises:
        ValueError: for a network that is not staged (its integers are
            scaled by its bound, not in discs).
    """
    if not network.staged:
        raise ValueError("only a staged network's payload can be stored as the integers it plays")
    return played_payload_from_integers(network.int_weights, network.stages)


def played_payload_from_integers(int_weights: np.ndarray, stages: int) -> bytes:
    """The played payload of a staged network whose integer weights (1/64
    disc, stage after stage) are ``int_weights``: each stage as its
    difference from the one before, through :func:`packed_integers`."""
    q = np.asarray(int_weights, dtype=np.int64).reshape(stages, -1).copy()
    q[1:] = q[1:] - q[:-1].copy()                   # each stage as its difference from the one before
    return PLAYED_PAYLOAD_MAGIC + packed_integers(q.ravel())


def packed_integers(values: np.ndarray) -> bytes:
    """Signed integers packed small: the width W (2 or 4) as one byte, then
    through raw LZMA2 the values zigzag-coded in W bytes each, byte plane by
    byte plane (the high bytes, mostly zero, pack together). Values must fit
    in 31 bits signed."""
    flat = np.asarray(values, dtype=np.int64).ravel()
    zigzag = ((flat << 1) ^ (flat >> 63)).astype(np.uint64)
    width = 2 if zigzag.size == 0 or int(zigzag.max()) < 1 << 16 else 4
    planes = np.ascontiguousarray(zigzag.astype(f"<u{width}")).view(np.uint8).reshape(-1, width).T
    return bytes([width]) + lzma.compress(planes.tobytes(), format=lzma.FORMAT_RAW, filters=LZMA_FILTERS)


def integers_from_packed(data: bytes, n: int, what: str) -> np.ndarray:
    """The ``n`` integers of :func:`packed_integers`'s ``data`` (int64),
    never unpacking more than the expected bytes + 1.

    Raises:
        NetworkError: a width other than 2 or 4, a stream of another size,
            or bytes after the stream's end (``what`` names the payload).
    """
    width = data[0] if data else 0
    if width not in (2, 4):
        raise NetworkError(f"{what} are played integers of width {width}, not 2 or 4")
    try:
        raw = inflate_bounded(data[1:], width * n, what, codec="lzma")
    except UserFileError as exc:
        raise NetworkError(str(exc)) from None
    zigzag = np.frombuffer(raw, dtype=np.uint8).reshape(width, n).T.copy().view(f"<u{width}").ravel()
    z = zigzag.astype(np.int64)
    values: np.ndarray = (z >> 1) ^ -(z & 1)
    return values


def _played_weights(kind: NetworkKind, payload: bytes, text: str) -> np.ndarray:
    """The real weights (integers / 64) of a played payload for ``kind``."""
    if kind.stages == 1:
        raise NetworkError(f"{text!r}: a played payload belongs to a staged network, not a {kind.name}")
    deltas = integers_from_packed(payload[len(PLAYED_PAYLOAD_MAGIC):], kind.n_weights, f"{text!r}: the stored weights")
    q = deltas.reshape(kind.stages, -1).cumsum(axis=0)
    weights: np.ndarray = q.ravel().astype(np.float64) / DISC_UNITS
    return weights


def _unpacked(payload: bytes, expected: int, text: str) -> bytes:
    """A packed payload's float64 bytes, never more than ``expected`` + 1
    unpacked (a crafted stream cannot fill the memory), nothing after the
    stream's end."""
    try:
        return inflate_bounded(payload[len(PACKED_PAYLOAD_MAGIC):], expected, f"{text!r}: the stored weights")
    except UserFileError as exc:
        raise NetworkError(str(exc)) from None


def weights_from_payload(kind: NetworkKind, payload: bytes, text: str) -> np.ndarray:
    """The real weights of ``payload`` for ``kind``.

    Raises:
        NetworkError: a payload of the wrong size or with values that are not finite.
    """
    expected = kind.n_weights * 8
    if isinstance(payload, bytes | bytearray | memoryview) and bytes(payload[:len(PLAYED_PAYLOAD_MAGIC)]) == \
            PLAYED_PAYLOAD_MAGIC and len(payload) != expected:
        return _played_weights(kind, bytes(payload), text)
    if isinstance(payload, bytes | bytearray | memoryview) and bytes(payload[:len(PACKED_PAYLOAD_MAGIC)]) == \
            PACKED_PAYLOAD_MAGIC and len(payload) != expected:
        payload = _unpacked(bytes(payload), expected, text)
    if not isinstance(payload, bytes | bytearray | memoryview) or len(payload) != expected:
        size = len(payload) if isinstance(payload, bytes | bytearray | memoryview) else type(payload).__name__
        raise NetworkError(f"{text!r}: a {kind.name} network's weights are {expected} bytes "
                           f"({kind.n_weights} float64), got {size}")
    weights = np.frombuffer(bytes(payload), dtype="<f8").astype(np.float64)
    if not np.all(np.isfinite(weights)):
        raise NetworkError(f"{text!r}: the stored weights hold a value that is not a finite number")
    return weights


class NetworkFamily:
    """n-tuple networks as a family: kinds are architectures, individuals
    :class:`NetworkIndividual`, the payload the real weights."""

    name = FAMILY_NAME
    noun = "network"

    def owns_kind(self, name: str) -> bool:
        """Whether ``name`` is a named architecture, or a staged kind of one
        (``ARCH-sS[-wK]``; :meth:`parse_kind` checks S and K and says what is wrong)."""
        if not isinstance(name, str):
            return False
        if name in ARCHITECTURES:
            return True
        m = _STAGED.match(name)
        return m is not None and m["arch"] in ARCHITECTURES + PATTERN_ARCHITECTURES

    def parse_kind(self, name: str) -> NetworkKind:
        """The architecture ``name`` (or its staged kind) as a kind.

        Raises:
            NetworkError: naming ``name`` and the architectures there are.
        """
        if not self.owns_kind(name):
            raise NetworkError(f"{name!r} is not a network architecture (known: {', '.join(ARCHITECTURES)}; "
                               f"staged: ARCH-sS, ARCH-sS-wK or ARCH-sS-m, S 2..{MAX_STAGES}, ARCH also "
                               f"{', '.join(PATTERN_ARCHITECTURES)})")
        m = _STAGED.match(name)
        if name in ARCHITECTURES or m is None:
            return NetworkKind(architecture(name))
        stages, weight = m["stages"], m["weight"]
        if not _NUMBER.match(stages) or not 2 <= int(stages) <= MAX_STAGES:
            raise NetworkError(f"{name[:80]!r}: a staged network has 2..{MAX_STAGES} stages (-sS, S written "
                               f"without leading zeros), not {stages[:20]!r}")
        if weight is not None and (not _NUMBER.match(weight) or int(weight) > MAX_WHOLE_DISC_WEIGHT):
            raise NetworkError(f"{name[:80]!r}: a staged network's whole-disc weight (-wK) is "
                               f"1..{MAX_WHOLE_DISC_WEIGHT} "
                               f"(without -w: 0), not {weight[:20]!r}")
        if weight is not None and m["mobility"]:
            raise NetworkError(f"{name[:80]!r}: a network with mobility entries (-m) has no whole-disc weight (-wK)")
        return NetworkKind(architecture(m["arch"]), int(stages), int(weight or 0), m["mobility"] is not None)

    def parse(self, text: str, payload: bytes | None = None) -> NetworkIndividual:
        """The network written as ``text`` with its stored weights ``payload``.

        Raises:
            NetworkError: naming what is wrong: the text's form, a missing
                payload (a network's weights are not in its text), a payload
                of the wrong size, or weights that do not match the digest.
        """
        if not isinstance(text, str):
            raise NetworkError(f"a network text must be str, not {type(text).__name__}")
        if len(text) > MAX_TEXT_CHARS:
            raise NetworkError(f"network: a text of {len(text):,} characters, more than the {MAX_TEXT_CHARS:,} "
                               f"one takes: {quoted(text)}")
        parts = text.rsplit("_", 2)
        if len(parts) != 3:
            raise NetworkError(f"{text!r} is not a network text (ARCH_BIRTH_DIGEST, e.g. all-2_17_3f09c2a1b4de)")
        arch, birth_text, digest = parts
        kind = self.parse_kind(arch)
        if not birth_text.isdigit():
            raise NetworkError(f"{text!r}: birth {birth_text!r} is not a whole number >= 0")
        if not _DIGEST.match(digest):
            raise NetworkError(f"{text!r}: digest {digest!r} is not 12 lower-case hex digits")
        if payload is None:
            raise NetworkError(f"{text!r} names a network whose weights are not in its text: give the run's "
                               "database (--db), an exported network file, or a shipped network's name")
        weights = weights_from_payload(kind, payload, text)
        individual = NetworkIndividual(kind, int(birth_text), kind.network(weights))
        if individual.digest != digest:
            raise NetworkError(f"{text!r}: the stored weights quantize to digest {individual.digest}, "
                               f"not {digest}: they belong to another network")
        return individual

    def text(self, individual: NetworkIndividual) -> str:
        """``ARCH_BIRTH_DIGEST``."""
        return str(individual)

    def random_individual(self, kind: NetworkKind, birth: int, rng: np.random.Generator) -> NetworkIndividual:
        """A network with weights drawn N(0, 1) from ``rng`` (a staged one's in discs)."""
        return NetworkIndividual(kind, birth, kind.network(rng.normal(0.0, RANDOM_SIGMA, kind.n_weights)))

    def evaluator(self, individual: NetworkIndividual, patterns: str | None = None) -> BaseEvaluator:
        """The evaluator the searches use to play ``individual`` (networks use
        no pattern table: ``patterns`` is ignored)."""
        from genethello.core.evaluation.network_evaluator import NetworkEvaluator

        return NetworkEvaluator(individual.network, individual)

    def named_genes(self, individual: NetworkIndividual) -> dict[str, int]:
        """{}: a network's weights are no named genes."""
        return {}

    def storage(self, individual: NetworkIndividual) -> StoredIndividual:
        """The architecture, birth and digest as columns; the real weights as payload."""
        return StoredIndividual(individual.type.name, individual.birth, individual.digest,
                                network_payload(individual.network))

    def network(self, individual: NetworkIndividual) -> Network:
        """The individual's network itself."""
        return individual.network

    def played_payload(self, individual: NetworkIndividual) -> bytes | None:
        """A staged network's :func:`played_payload` (the integers it plays,
        about a sixteenth of its real weights); None for today's networks,
        whose integers are scaled by their bound."""
        return played_payload(individual.network) if individual.network.staged else None

    def played_difference(self, individual: NetworkIndividual, parent: Individual) -> bytes | None:
        """A staged network's integers minus ``parent``'s, through
        :func:`packed_integers`; None unless both are staged networks of
        one kind."""
        if not individual.network.staged or not isinstance(parent, NetworkIndividual) \
                or parent.type != individual.type:
            return None
        return packed_integers(individual.network.int_weights.astype(np.int64)
                               - parent.network.int_weights.astype(np.int64))

    def played_from_differences(self, base: NetworkIndividual, differences: Sequence[bytes],
                                what: str) -> bytes | None:
        """``base``'s integers plus each difference, as a played payload;
        None for a network that is not staged."""
        if not base.network.staged:
            return None
        q = base.network.int_weights.astype(np.int64)
        for difference in reversed(differences):
            q = q + integers_from_packed(difference, q.size, what)
        return played_payload_from_integers(q, base.network.stages)

    def __repr__(self) -> str:
        return "NETWORKS"


NETWORKS = NetworkFamily()
"""The n-tuple network family (registered in :data:`genethello.core.families.registry.FAMILIES`)."""
