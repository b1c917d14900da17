"""CMA-ES's whole state as bytes, and back: safely, exactly.

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

import io
import json
import math
import zipfile
from importlib import metadata
from typing import Any, TypeAlias

import numpy as np
from cmaes import CMA, SepCMA

__all__ = ["CmaStateError", "Optimizer", "VARIANTS", "dump_state", "load_state", "new_optimizer"]

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


class CmaStateError(ValueError):
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
