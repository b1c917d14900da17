"""CMA-ES on n-tuple networks: the breeder and its state, in one module.

**The breeder** (:class:`CmaEsBreeder`, ``breeding.method = "cma-es"``)
uses the ``cmaes`` library: full covariance (:class:`cmaes.CMA`) up to
:data:`FULL_CMA_MAX_WEIGHTS` weights, the separable variant
(:class:`cmaes.SepCMA`) above, where full covariance adapts too slowly and
its matrices grow to tens of MB (``breeding.cma_variant``). λ is the
population size; the distribution starts at mean 0 with step
``breeding.sigma0`` (with mean 0 the step sets only the real weights'
scale, which the quantization removes). Every random draw is the
optimizer's own ``RandomState``, seeded from the generation's Generator at
generation 1 and thereafter carried in its state; the whole state travels
as :attr:`Bred.state` bytes, so a resumed run breeds from exactly what an
uninterrupted one had.

*The champion of a generation is the distribution's mean* once the
optimizer has been told the generation's ranking (the point the next
generation is sampled around), not its best sample: CMA-ES's own
recommendation for the solution, because the mean is a weighted
recombination of many selected samples and so averages out their noise,
while the best sample is the maximum of λ noisy fitness estimates (a
winner's curse: with a few hundred games per member its top score is
mostly luck). The mean never plays a fitness game; the hall of fame and the
yardstick measure it. CMA-ES ignores ``breeding.inject_top``: re-entering
old individuals would tell the optimizer points it did not sample.

**Its state as bytes, and back: safely, exactly.**

A ``cmaes`` optimizer (:class:`cmaes.CMA` or :class:`cmaes.SepCMA`) is a
plain object of numpy arrays, numbers and a numpy ``RandomState``. Its state
is written as a numpy ``.npz`` archive (a zip of ``.npy`` files with a
fixed timestamp, so equal states are equal bytes; read back by ``np.load``
with ``allow_pickle=False``) of its arrays, plus one JSON document for its scalars
(with their numpy type, so a ``float64`` comes back a ``float64``), the
generator's Mersenne Twister state, the variant and the cmaes version that
wrote it. Nothing is pickled: a database is data and must never make the
program run code.

Everything is kept, the eigendecomposition ``cmaes`` caches (``_B``,
``_D``) included: recomputing it from the covariance would not give the same
bits (cmaes rebuilds the covariance from its decomposition). A full CMA of
all-2's 288 weights takes about 2 MB, so the store keeps the state of the
last generations only (resume needs the
current one; see :meth:`RunStore.start_generation`).

Restoring builds a fresh optimizer of the same variant, dimension and
population size and sets every attribute from the state; an attribute set
that differs from the installed cmaes's (another version) is refused, so a
state is either restored exactly or not at all.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, ClassVar, TypeAlias

import numpy as np
from cmaes import CMA, SepCMA

from genethello.cluster.breeding.network_breeders import MAX_REDRAWS, network_kind, networks_of, new_individual
from genethello.cluster.breeding.origins import CMA_SAMPLE, Origin
from genethello.cluster.breeding.protocols import Bred, BreedingPlan, RatedGeneration
from genethello.cluster.config import BreedingConfig, RunConfig
from genethello.core.families.network_family import NetworkIndividual, NetworkKind
from genethello.core.families.registry import Individual, Kind
from genethello.core.frontend.errors import UserError

__all__ = ["FULL_CMA_MAX_WEIGHTS", "CmaEsBreeder", "CmaStateError", "Optimizer", "VARIANTS", "cma_variant",
           "dump_state", "load_state", "new_optimizer"]

#: ``breeding.cma_variant = "auto"`` takes full covariance up to this many
#: weights (all-2's 288 and all-2x2's), the separable variant above.
FULL_CMA_MAX_WEIGHTS = 500


#: The optimizers by variant name, as ``breeding.cma_variant`` names them.
VARIANTS: dict[str, Any] = {"full": CMA, "separable": SepCMA}

#: A cmaes optimizer (``CMA`` or ``SepCMA``; cmaes has no type information).
Optimizer: TypeAlias = Any

_FORMAT = 1
#: The largest stored state read (bytes): a full CMA of all-2 takes about
#: 2 MB; all-4+2x2's separable one less. A larger value is not our state.
MAX_STATE_BYTES = 256 * 1024 * 1024
_JSON_KEY = "__state__"
_RNG_KEYS = "__rng_keys__"


class CmaStateError(UserError):
    """A stored CMA-ES state that cannot be restored (the message says why)."""


def new_optimizer(variant: str, mean: np.ndarray, sigma: float, population_size: int, seed: int) -> Optimizer:
    """A new optimizer of ``variant`` whose whole state is a function of its
    arguments: cmaes leaves its history of best and worst values
    (``_funhist_values``, read only by ``should_stop`` once filled) as
    ``np.empty`` memory, which would make equal runs store unequal states;
    it is set to NaN here."""
    optimizer = VARIANTS[variant](mean=mean, sigma=sigma, population_size=population_size, seed=seed)
    history = getattr(optimizer, "_funhist_values", None)
    if isinstance(history, np.ndarray):
        history.fill(np.nan)
    return optimizer


def _variant_of(optimizer: Optimizer) -> str:
    for name, cls in VARIANTS.items():
        if type(optimizer) is cls:
            return name
    raise CmaStateError(f"not a cmaes optimizer: {type(optimizer).__name__}")


def _scalar(name: str, value: Any) -> list[Any]:
    """[type tag, value] of one scalar attribute (JSON writes floats exactly)."""
    if value is None:
        return ["none", None]
    if isinstance(value, bool | np.bool_):
        return ["bool", bool(value)]
    if isinstance(value, np.floating):
        return ["f64", float(value)]
    if isinstance(value, np.integer):
        return ["i64", int(value)]
    if isinstance(value, float):
        return ["float", value]
    if isinstance(value, int):
        return ["int", value]
    raise CmaStateError(f"cannot store attribute {name} of type {type(value).__name__}")


def _unscalar(name: str, tagged: Any) -> Any:
    if not isinstance(tagged, list) or len(tagged) != 2:
        raise CmaStateError(f"attribute {name}: not a [type, value] pair")
    tag, value = tagged
    converters: dict[str, Any] = {"none": lambda v: None, "bool": bool, "f64": np.float64, "i64": np.int64,
                                  "float": float, "int": int}
    if tag not in converters or (tag != "none" and not isinstance(value, int | float | bool)):
        raise CmaStateError(f"attribute {name}: bad stored value {tagged!r}")
    return converters[tag](value)


def dump_state(optimizer: Optimizer) -> bytes:
    """The optimizer's whole state as bytes (an .npz archive; module docstring)."""
    arrays: dict[str, np.ndarray] = {}
    scalars: dict[str, list[Any]] = {}
    rng: dict[str, Any] | None = None
    for name, value in sorted(vars(optimizer).items()):
        if isinstance(value, np.random.RandomState):
            algorithm, keys, pos, has_gauss, cached = value.get_state(legacy=True)
            arrays[_RNG_KEYS] = np.asarray(keys, dtype=np.uint32)
            rng = {"name": name, "algorithm": algorithm, "pos": int(pos), "has_gauss": int(has_gauss),
                   "cached_gaussian": float(cached)}
        elif isinstance(value, np.ndarray):
            if value.dtype == object:
                raise CmaStateError(f"cannot store attribute {name}: an array of objects")
            arrays[name] = value
        else:
            scalars[name] = _scalar(name, value)
    header = {"format": _FORMAT, "variant": _variant_of(optimizer), "cmaes": metadata.version("cmaes"),
              "scalars": scalars, "rng": rng}
    arrays[_JSON_KEY] = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
    return _archive(arrays)


def _archive(arrays: dict[str, np.ndarray]) -> bytes:
    """An .npz archive (a zip of .npy files, stored: deflating a full
    CMA's megabytes of doubles took a quarter of a second and saved 40%) that ``np.load``
    reads, written with a fixed timestamp: the same state always gives the
    same bytes (``np.savez`` stamps each entry with the current time)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, array in sorted(arrays.items()):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            with archive.open(info, "w", force_zip64=True) as entry:
                np.lib.format.write_array(entry, np.asanyarray(array), allow_pickle=False)
    return buffer.getvalue()


def _read_archive(data: object) -> dict[str, np.ndarray]:
    """The arrays of an .npz archive of :func:`_archive`, each ``.npy``
    header checked before its array is read: an array claimed larger than
    its entry holds (a crafted 8 TiB shape) is refused without allocating
    it, as are objects, a bare ``.npy`` (not an archive), a value that is
    not bytes (a payload stored as TEXT) and a state over MAX_STATE_BYTES.

    Raises:
        CmaStateError: naming what is wrong, in one line.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise CmaStateError(f"the stored CMA-ES state is not bytes but {type(data).__name__}")
    if len(data) > MAX_STATE_BYTES:
        raise CmaStateError(f"the stored CMA-ES state is {len(data):,} bytes, more than the {MAX_STATE_BYTES:,} "
                            "a state may take")
    arrays: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                if not info.filename.endswith(".npy") or info.file_size > MAX_STATE_BYTES:
                    raise CmaStateError(f"the stored CMA-ES state holds an unexpected entry {info.filename!r}")
                with archive.open(info) as entry:
                    major, minor = np.lib.format.read_magic(entry)
                    if (major, minor) == (1, 0):
                        shape, _, dtype = np.lib.format.read_array_header_1_0(entry)
                    else:
                        shape, _, dtype = np.lib.format.read_array_header_2_0(entry)
                    claimed = math.prod(shape) * dtype.itemsize
                    if dtype.hasobject or claimed > info.file_size:
                        raise CmaStateError(f"the stored CMA-ES state's {info.filename} claims {claimed:,} bytes "
                                            f"of {dtype} in an entry of {info.file_size:,}")
                with archive.open(info) as entry:
                    arrays[info.filename[:-len(".npy")]] = np.lib.format.read_array(entry, allow_pickle=False)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
        if isinstance(exc, CmaStateError):
            raise
        raise CmaStateError(f"the stored CMA-ES state is not readable: {' '.join(str(exc).split())}") from None
    return arrays


def load_state(data: bytes) -> Optimizer:
    """The optimizer :func:`dump_state` wrote, restored exactly.

    Raises:
        CmaStateError: for bytes that are not such a state, or a state whose
            attributes differ from the installed cmaes's.
    """
    arrays = _read_archive(data)
    try:
        header = json.loads(arrays.pop(_JSON_KEY).tobytes().decode())
    except (ValueError, KeyError, UnicodeDecodeError, RecursionError) as exc:
        raise CmaStateError(f"the stored CMA-ES state is not readable: {exc}") from None
    if not isinstance(header, dict) or header.get("format") != _FORMAT or header.get("variant") not in VARIANTS:
        raise CmaStateError("the stored CMA-ES state has an unknown format")
    scalars = header["scalars"]
    rng = header["rng"]
    try:
        n_dim = int(_unscalar("_n_dim", scalars["_n_dim"]))
        popsize = int(_unscalar("_popsize", scalars["_popsize"]))
        optimizer = VARIANTS[header["variant"]](mean=np.zeros(n_dim), sigma=1.0, population_size=popsize)
    except (KeyError, TypeError, ValueError, AssertionError) as exc:
        raise CmaStateError(f"the stored CMA-ES state does not describe an optimizer: {exc}") from None
    stored = set(scalars) | {name for name in arrays if name != _RNG_KEYS} | ({rng["name"]} if rng else set())
    if stored != set(vars(optimizer)):
        raise CmaStateError(f"the stored CMA-ES state was written by cmaes {header.get('cmaes')}, whose state "
                            f"differs from the installed cmaes {metadata.version('cmaes')}'s")
    for name, tagged in scalars.items():
        setattr(optimizer, name, _unscalar(name, tagged))
    for name, array in arrays.items():
        if name != _RNG_KEYS:
            setattr(optimizer, name, array.copy())
    if rng:
        generator = np.random.RandomState()
        generator.set_state((rng["algorithm"], arrays[_RNG_KEYS], rng["pos"], rng["has_gauss"],
                             rng["cached_gaussian"]))
        setattr(optimizer, rng["name"], generator)
    return optimizer


def cma_variant(config: BreedingConfig, kind: NetworkKind) -> str:
    """The CMA-ES variant a run of ``kind`` uses: "full" or "separable"."""
    if config.cma_variant != "auto":
        return config.cma_variant
    return "full" if kind.n_weights <= FULL_CMA_MAX_WEIGHTS else "separable"


@dataclass(frozen=True)
class CmaEsBreeder:
    """CMA-ES on networks (module docstring): λ = the population size, the
    state (distribution and generator) in :attr:`Bred.state`."""

    config: BreedingConfig
    name: ClassVar[str] = "cma-es"
    #: The last generation's optimizer state once told its ranking, by what
    #: it was told: the hall step asks for the champion and the breed step
    #: for the next population of the same rated generation, and the
    #: optimizer is restored and told once (the state round-trips exactly).
    _told_states: dict[tuple[object, ...], bytes] = field(default_factory=dict, compare=False, repr=False)

    def breeds(self, kind: Kind) -> bool:
        try:
            network_kind(kind)          # CMA-ES breeds networks only
        except ValueError:
            return False
        return True

    def first_population(self, kind: Kind, size: int, initial: Sequence[Individual],
                         rng: np.random.Generator) -> Bred:
        """λ samples of the starting distribution (mean 0, step ``sigma0``);
        the optimizer's generator is seeded from ``rng``."""
        net_kind = network_kind(kind)
        if initial:
            raise ValueError("population.initial: CMA-ES starts from its own distribution (mean 0), "
                             "not from an initial population")
        optimizer = new_optimizer(cma_variant(self.config, net_kind), np.zeros(net_kind.n_weights),
                                  self.config.sigma0, size, int(rng.integers(2**32)))
        return self._sample(optimizer, net_kind, 1, size)

    def check(self, config: RunConfig) -> None:
        """Nothing beyond the config's own checks (``breeding.cma_variant``)."""

    def next_plan(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> BreedingPlan:
        """Nothing for the workers: the next population, sampled here."""
        return BreedingPlan.ready(self.next_population(rated, size, rng))

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        """Tell the optimizer generation ``rated.number``'s ranking (each
        member's real weights with minus its points, best first; the rank
        when no points are given or another ranking than points ordered
        them), then sample generation ``number + 1``."""
        optimizer = self._told(rated)
        if size != optimizer.population_size:
            raise ValueError(f"CMA-ES breeds {optimizer.population_size} members a generation, not {size}")
        return self._sample(optimizer, network_kind(rated.kind), rated.number + 1, size)

    def champion(self, rated: RatedGeneration) -> Individual:
        """Generation ``rated.number``'s champion: the distribution's mean
        once the optimizer has been told the generation's ranking (the
        mean the next generation is sampled around), born at that
        generation (module docstring)."""
        return new_individual(network_kind(rated.kind), rated.number, np.asarray(self._told(rated).mean))

    def _told(self, rated: RatedGeneration) -> Optimizer:
        """The optimizer stored with the generation, told its ranking."""
        if rated.state is None:
            raise ValueError(f"generation {rated.number} has no stored CMA-ES state to breed from")
        key = (rated.number, hashlib.sha256(rated.state).digest(), tuple(float(p) for p in rated.points),
               tuple(str(m) for m in rated.ranked), rated.ranked_by_points)
        told = self._told_states.get(key)
        if told is None:
            told = dump_state(self._tell(rated))
            self._told_states.clear()
            self._told_states[key] = told
        return load_state(told)

    @staticmethod
    def _tell(rated: RatedGeneration) -> Optimizer:
        """The optimizer stored with the generation, restored and told its ranking."""
        if rated.state is None:
            raise ValueError(f"generation {rated.number} has no stored CMA-ES state to breed from")
        try:
            optimizer = load_state(rated.state)
        except CmaStateError as exc:
            raise ValueError(f"generation {rated.number}: {exc}") from None
        members = networks_of(rated.ranked)
        if len(members) != optimizer.population_size:
            raise ValueError(f"CMA-ES was told {len(members)} members, its generations have "
                             f"{optimizer.population_size}")
        by_points = rated.points and rated.ranked_by_points
        values = [-float(p) for p in rated.points] if by_points else [float(i) for i in range(len(members))]
        optimizer.tell([(np.array(m.network.weights, dtype=np.float64), v) for m, v in zip(members, values)])
        return optimizer

    def _sample(self, optimizer: Optimizer, kind: NetworkKind, generation: int, size: int) -> Bred:
        ask = optimizer.ask
        members: list[NetworkIndividual] = []
        seen: set[str] = set()
        redraws = 0
        while len(members) < size:
            candidate = new_individual(kind, generation, ask())
            if str(candidate) in seen:
                redraws += 1
                if redraws > MAX_REDRAWS:
                    raise ValueError(f"CMA-ES cannot draw {size} distinct {kind.name} networks "
                                     "(its step size has collapsed below one quantization step)")
                continue
            seen.add(str(candidate))
            members.append(candidate)
        # every member a sample of the distribution told generation - 1's ranking
        return Bred(members, dump_state(optimizer), [Origin(CMA_SAMPLE)] * size)
