"""Pattern table files: their format, versions, loading, and the tables a process shares.

Kept apart from the learner (:mod:`pattern_learning`) so that the evaluator
loads its table without importing the learner, which imports the evaluator
and the search back. A table file is ``MAGIC``, a little-endian u32 header
length, a JSON header (format, version, sha256 of the raw values, the
geometry it is laid out in, training notes) and the zlib-compressed int16
values of shape (n_stages, stage_size) of that geometry.

Versions: every shipped table is named by ``VERSIONS`` (name -> file and
geometry); one build carries every geometry, so a run evolved with
patterns-v1 keeps playing with it after v2 ships. ``shared_table(version)``
loads a version once per process; every evaluator of that version shares
its read-only array.
"""

from __future__ import annotations

import hashlib
import json
import struct
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from genethello.core.engine.squares import square_name
from genethello.core.evaluation import patterns as pt
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.user_files import UserFileError, inflate_bounded, read_user_file

MAGIC = b"GTPATTN\n"
FORMAT = 1
DATA_DIR = Path(__file__).resolve().parents[1] / "data"  # core/data

#: Shipped table versions, oldest first: name -> (file in data/, geometry id).
VERSIONS: dict[str, tuple[str, int]] = {
    "patterns-v1": ("patterns-v1.bin", pt.V1),
    "patterns-v2": ("patterns-v2.bin", pt.V2),
}
VERSION = "patterns-v1"          # the version ``learn`` writes (geometry v1)
DEFAULT_TABLE_PATH = DATA_DIR / "patterns-v1.bin"


class PatternFileError(UserError):
    """A pattern table file that is missing, damaged or does not match this build."""


@dataclass(frozen=True)
class PatternTable:
    """A loaded table: ``array`` (read-only int16, shape (N_STAGES,
    STAGE_SIZE)), ``version`` ('patterns-v1+SHA12') and the file header."""
    array: np.ndarray
    version: str
    header: dict[str, Any]

    @property
    def name(self) -> str:
        """The version name without its checksum ('patterns-v1')."""
        return self.version.split("+", 1)[0]

    @property
    def geometry_id(self) -> int:
        return pt.geometry_of_table(self.array)


def geometry(geometry_id: int = pt.V1) -> dict[str, Any]:
    """The layout of a geometry as a table file's header states it."""
    g = pt.GEOMETRIES[geometry_id]
    out = {
        "n_stages": g["n_stages"],
        "stage_size": g["stage_size"],
        "stage_width": g["stage_width"],
        "stage_moves": [list(pt.stage_moves(s, geometry_id)) for s in range(g["n_stages"])],
        "table_scale": pt.TABLE_SCALE_,
        "pattern_shift": pt.PATTERN_SHIFT_,
        "shapes": [{"name": name, "squares": [square_name(s) for s in squares],
                    "instances": list(transforms), "offset": offset, "size": size}
                   for name, squares, transforms, offset, size in g["shapes"]],
    }
    if geometry_id != pt.V1:
        out["geometry"] = geometry_id      # v1 files predate the key
    return out


def table_bytes(table: np.ndarray, training: dict[str, Any] | None = None, version: str = VERSION) -> bytes:
    """The file bytes of a table of either geometry (deterministic for equal inputs)."""
    table = np.asarray(table)
    gid = pt.geometry_of_table(table)
    if table.dtype != np.int16:
        raise ValueError("a pattern table must be int16")
    raw = table.astype("<i2").tobytes()
    header = {"format": FORMAT, "version": version, "sha256": hashlib.sha256(raw).hexdigest(),
              "training": training or {}, **geometry(gid)}
    head = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    return MAGIC + struct.pack("<I", len(head)) + head + zlib.compress(raw, 9)


def write_table(path: str | Path, table: np.ndarray, training: dict[str, Any] | None = None,
                version: str = VERSION, overwrite: bool = True) -> str:
    """Write a table file; returns its version string.

    Raises:
        FileExistsError: if ``overwrite`` is False and the file exists.
    """
    data = table_bytes(table, training, version)
    path = Path(path)
    if not overwrite and path.exists():
        raise FileExistsError(f"{path} exists; choose another --out or remove it first")
    path.write_bytes(data)
    return _parse(data, str(path)).version


#: The largest pattern table file read (the shipped ones are under 2 MB).
MAX_TABLE_FILE_BYTES = 64 * 1024 * 1024


def _parse(data: bytes, source: str) -> PatternTable:
    if data[:len(MAGIC)] != MAGIC:
        raise PatternFileError(f"{source}: not a pattern table file (bad magic)")
    try:
        (n,) = struct.unpack_from("<I", data, len(MAGIC))
        start = len(MAGIC) + 4
        header = json.loads(data[start:start + n].decode())
        if not isinstance(header, dict):
            raise ValueError("its header is not a JSON object")
    except (struct.error, ValueError, RecursionError) as exc:
        raise PatternFileError(f"{source}: damaged pattern table file ({str(exc)[:200]})") from None
    if header.get("format") != FORMAT:
        raise PatternFileError(f"{source}: format {header.get('format')!r}, this build reads {FORMAT}")
    gid = header.get("geometry", pt.V1)
    if gid not in pt.GEOMETRIES:
        raise PatternFileError(f"{source}: geometry {gid!r}, this build has {sorted(pt.GEOMETRIES)}")
    expected = geometry(gid)
    for key, value in expected.items():
        if header.get(key) != value:
            raise PatternFileError(f"{source}: {key} is {header.get(key)!r}, this build needs {value!r}")
    try:        # unpacked to the geometry's size and no further (a crafted stream cannot fill the memory)
        raw = inflate_bounded(data[start + n:], 2 * expected["n_stages"] * expected["stage_size"], source)
    except UserFileError as exc:
        raise PatternFileError(f"damaged pattern table file: {exc}") from None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != header.get("sha256"):
        raise PatternFileError(f"{source}: table checksum mismatch (file damaged)")
    if len(raw) != 2 * expected["n_stages"] * expected["stage_size"]:
        raise PatternFileError(f"{source}: damaged pattern table file (wrong size)")
    array = np.frombuffer(raw, dtype="<i2").astype(np.int16).reshape(expected["n_stages"], expected["stage_size"])
    array.setflags(write=False)
    return PatternTable(array, f"{header['version']}+{digest[:12]}", header)


def load_table(path: str | Path) -> PatternTable:
    """Read and check a table file (not cached; see ``shared_table``).

    Raises:
        PatternFileError: if the file is missing, damaged or of another geometry.
    """
    path = Path(path)
    if not path.exists():
        raise PatternFileError(f"pattern table file {path.name} does not exist")
    try:
        data = read_user_file(path, "pattern table file", MAX_TABLE_FILE_BYTES)
    except UserFileError as exc:
        raise PatternFileError(str(exc)) from None
    return _parse(data, path.name)


def shipped_versions() -> list[str]:
    """The version names whose table file is installed, oldest first."""
    return [name for name, (file, _) in VERSIONS.items() if (DATA_DIR / file).is_file()]


def newest_version() -> str:
    """The newest installed version: what every command plays with by default."""
    names = shipped_versions()
    if not names:
        looked_for = ", ".join(f for f, _ in VERSIONS.values())
        raise PatternFileError(f"no pattern table is installed (looked for {looked_for})")
    return names[-1]


def resolve_version(text: str | None) -> str:
    """The version name meant by ``text``: None or '' (the newest), a name
    ('patterns-v1'), a short form ('v1', '1') or a run's recorded version
    ('patterns-v1+SHA12', whose checksum must match the installed file).

    Raises:
        PatternFileError: for an unknown version, one not installed, or a
            recorded checksum that differs from the installed table's.
    """
    if not text:
        return newest_version()
    name, _, digest = str(text).strip().partition("+")
    if name.isdigit():
        name = "v" + name
    if not name.startswith("patterns-"):
        name = "patterns-" + name
    if name not in VERSIONS:
        raise PatternFileError(f"unknown pattern table version {text!r}; this build knows "
                               f"{', '.join(VERSIONS)}")
    if name not in shipped_versions():
        raise PatternFileError(f"pattern table {name} is not installed ({VERSIONS[name][0]} is missing)")
    if digest:
        installed = shared_table(name).version
        if installed.partition("+")[2] != digest:
            raise PatternFileError(f"pattern table {text} was recorded, but the installed {name} is "
                                   f"{installed}: the table file changed")
    return name


_SHARED: dict[str, PatternTable] = {}
_SHARED_LOCK = threading.Lock()


def shared_table(version: str | None = None) -> PatternTable:
    """The installed table of ``version`` (see ``resolve_version``; None:
    the newest), loaded on first use and then shared by every evaluator of
    the process (one read-only array a version, never copied)."""
    name = version if version in VERSIONS else resolve_version(version)
    table = _SHARED.get(name)
    if table is None:
        with _SHARED_LOCK:
            table = _SHARED.get(name)
            if table is None:
                table = _SHARED[name] = load_table(DATA_DIR / VERSIONS[name][0])
    return table
