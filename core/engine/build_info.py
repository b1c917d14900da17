"""Identity of the compiled core, so that every node of a cluster can prove it
runs the same engine (same version, same compiled code)."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import metadata
from pathlib import Path


def package_version() -> str:
    """The installed genethello version ('unknown' when run from a bare tree)."""
    try:
        return metadata.version("genethello")
    except metadata.PackageNotFoundError:
        return "unknown"


@lru_cache(maxsize=1)
def core_hash() -> str:
    """sha256 over the Cython sources and the data of genethello.core (the
    pattern tables, the shipped networks).

    The sources, not the compiled .so files: the same sources compile to
    different bytes on different machines (compiler, paths), but they must
    play identically; what must match across nodes is the code and data."""
    folder = Path(__file__).resolve().parents[1]          # core/, above engine/
    digest = hashlib.sha256()
    patterns = ("**/*.pyx", "**/*.pxd", "data/**/*")
    files = sorted({p for pattern in patterns for p in folder.glob(pattern) if p.is_file()})
    for path in files:
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def core_fingerprint() -> str:
    """'VERSION+HASH12': what a worker must match to play a run's games."""
    return f"{package_version()}+{core_hash()[:12]}"
