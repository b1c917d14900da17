"""Pattern table files: their format, loading, and the one table a process shares.

Kept apart from the learner (:mod:`pattern_learning`) so that the evaluator
loads its table without importing the learner, which imports the evaluator
and the search back. A table file is ``MAGIC``, a little-endian u32 header
length, a JSON header (format, version, sha256 of the raw values, the
geometry this build compiled in, training notes) and the zlib-compressed
int16 values of shape (N_STAGES, STAGE_SIZE). ``shared_table()`` loads the
shipped one once per process; every evaluator shares its read-only array.
"""

from __future__ import annotations

import hashlib
import json
import struct
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from genethello.core import patterns as pt
from genethello.core.squares import square_name

MAGIC = b"GTPATTN\n"
FORMAT = 1
VERSION = "patterns-v1"
DEFAULT_TABLE_PATH = Path(__file__).resolve().parent / "data" / "patterns-v1.bin"


class PatternFileError(ValueError):
    """A pattern table file that is missing, damaged or does not match this build."""


@dataclass(frozen=True)
class PatternTable:
    """A loaded table: ``array`` (read-only int16, shape (N_STAGES,
    STAGE_SIZE)), ``version`` ('patterns-v1+SHA12') and the file header."""
    array: np.ndarray
    version: str
    header: dict


def geometry() -> dict:
    return {
        "n_stages": pt.N_STAGES_,
        "stage_size": pt.STAGE_SIZE_,
        "stage_width": pt.STAGE_WIDTH_,
        "stage_moves": [list(pt.stage_moves(s)) for s in range(pt.N_STAGES_)],
        "table_scale": pt.TABLE_SCALE_,
        "pattern_shift": pt.PATTERN_SHIFT_,
        "shapes": [{"name": name, "squares": [square_name(s) for s in squares],
                    "instances": list(transforms), "offset": offset, "size": size}
                   for name, squares, transforms, offset, size in pt.SHAPES],
    }


def table_bytes(table: np.ndarray, training: dict | None = None, version: str = VERSION) -> bytes:
    """The file bytes of a table (deterministic for equal inputs)."""
    table = np.asarray(table)
    if table.shape != (pt.N_STAGES_, pt.STAGE_SIZE_) or table.dtype != np.int16:
        raise ValueError(f"table must be int16 of shape ({pt.N_STAGES_}, {pt.STAGE_SIZE_})")
    raw = table.astype("<i2").tobytes()
    header = {"format": FORMAT, "version": version, "sha256": hashlib.sha256(raw).hexdigest(),
              "training": training or {}, **geometry()}
    head = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    return MAGIC + struct.pack("<I", len(head)) + head + zlib.compress(raw, 9)


def write_table(path: str | Path, table: np.ndarray, training: dict | None = None) -> str:
    """Write a table file; returns its version string."""
    data = table_bytes(table, training)
    Path(path).write_bytes(data)
    return _parse(data, str(path)).version


def _parse(data: bytes, source: str) -> PatternTable:
    if data[:len(MAGIC)] != MAGIC:
        raise PatternFileError(f"{source}: not a pattern table file (bad magic)")
    try:
        (n,) = struct.unpack_from("<I", data, len(MAGIC))
        start = len(MAGIC) + 4
        header = json.loads(data[start:start + n].decode())
        raw = zlib.decompress(data[start + n:])
    except (struct.error, ValueError, zlib.error) as exc:
        raise PatternFileError(f"{source}: damaged pattern table file ({exc})") from None
    if header.get("format") != FORMAT:
        raise PatternFileError(f"{source}: format {header.get('format')!r}, this build reads {FORMAT}")
    expected = geometry()
    for key, value in expected.items():
        if header.get(key) != value:
            raise PatternFileError(f"{source}: {key} is {header.get(key)!r}, this build needs {value!r}")
    digest = hashlib.sha256(raw).hexdigest()
    if digest != header.get("sha256"):
        raise PatternFileError(f"{source}: table checksum mismatch (file damaged)")
    array = np.frombuffer(raw, dtype="<i2").astype(np.int16).reshape(pt.N_STAGES_, pt.STAGE_SIZE_)
    array.setflags(write=False)
    return PatternTable(array, f"{header['version']}+{digest[:12]}", header)


def load_table(path: str | Path) -> PatternTable:
    """Read and check a table file (not cached; see ``shared_table``).

    Raises:
        PatternFileError: if the file is missing, damaged or of another geometry.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PatternFileError(f"pattern table file {path.name} does not exist") from None
    return _parse(data, path.name)


_SHARED: PatternTable | None = None
_SHARED_LOCK = threading.Lock()


def shared_table() -> PatternTable:
    """The shipped table, loaded on first use and then shared by every
    evaluator of the process (one read-only array, never copied)."""
    global _SHARED
    if _SHARED is None:
        with _SHARED_LOCK:
            if _SHARED is None:
                _SHARED = load_table(DEFAULT_TABLE_PATH)
    return _SHARED
