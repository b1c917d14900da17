"""The numeric libraries a run's breeding depends on: their versions, and
BLAS pinned to one thread.

CMA-ES (:mod:`genethello.cluster.breeding.breeders`) samples and updates in floating
point through numpy and the ``cmaes`` package: another version of either may
round differently and so breed another population from the same stored
state. A run records both versions when it is created
(``runs.numeric_versions``) and ``resume`` refuses a mismatch unless the
user accepts it (``--allow-numeric-change``, recorded with the run).

BLAS. numpy's OpenBLAS may split a matrix product or an eigendecomposition
over threads, and the split changes how sums are rounded: the coordinator's
process therefore runs BLAS on one thread (:func:`pin_blas_threads`), so a
generation is bred the same on every machine whatever its cores.
"""

from __future__ import annotations

import ctypes
import json
import os
from importlib import metadata
from pathlib import Path

__all__ = ["BLAS_THREAD_VARIABLES", "numeric_versions", "numeric_versions_json", "pin_blas_threads",
           "version_mismatch"]

#: The environment variables the BLAS libraries numpy may load read at start.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                         "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")

#: Names of OpenBLAS's thread-count setter, in its builds with and without
#: a symbol suffix (numpy's wheels bundle ``scipy_openblas64_``).
_OPENBLAS_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
                     "openblas_set_num_threads64_", "openblas_set_num_threads")


def numeric_versions() -> dict[str, str]:
    """The installed numpy and cmaes versions (``"absent"`` for a package
    that is not installed)."""
    found = {}
    for package in ("numpy", "cmaes"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "absent"
    return found


def numeric_versions_json() -> str:
    """:func:`numeric_versions` as the JSON ``runs.numeric_versions`` holds."""
    return json.dumps(numeric_versions(), sort_keys=True)


def version_mismatch(stored: str | None) -> str | None:
    """What differs between a run's stored versions and the installed ones,
    in words (e.g. ``"numpy 2.4.6 -> 2.5.0"``), or None when nothing does or
    the run recorded none (runs from before migration 0004)."""
    if stored is None:
        return None
    try:
        recorded = json.loads(stored)
    except ValueError:
        return f"unreadable recorded versions {stored!r}"
    installed = numeric_versions()
    changes = [f"{name} {recorded.get(name, 'absent')} -> {version}" for name, version in installed.items()
               if recorded.get(name, "absent") != version]
    return ", ".join(changes) or None


def _loaded_openblas() -> list[Path]:
    """The OpenBLAS libraries mapped into this process (Linux: /proc/self/maps)."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    return sorted({Path(line.split()[-1]) for line in maps.splitlines()
                   if "openblas" in line.lower() and line.split()[-1].startswith("/")})


def pin_blas_threads() -> int:
    """Run BLAS on one thread in this process: the environment variables for
    libraries not loaded yet (and the processes started from here), and
    OpenBLAS's own setter for a library numpy has already loaded. Returns
    how many loaded libraries were pinned."""
    for name in BLAS_THREAD_VARIABLES:
        os.environ[name] = "1"
    pinned = 0
    for path in _loaded_openblas():
        try:
            library = ctypes.CDLL(str(path))
        except OSError:
            continue
        for setter in _OPENBLAS_SETTERS:
            function = getattr(library, setter, None)
            if function is not None:
                function.argtypes = [ctypes.c_int]
                function(1)
                pinned += 1
                break
    return pinned
