"""The labels file: positions with their values, as ``patterns label`` writes
them and ``patterns learn --labels`` reads them.

Line 1 is ``FILE_MAGIC`` and the settings the file depends on as JSON
(``LabelSettings``); then one line a position, in plan order:

    SOURCE INDEX EMPTIES KIND VALUE MOVER OTHER NODES

SOURCE is 'h' + the game's line number in the games file or 's' + a
self-play game's number; INDEX the position's place in the plan (0, 1, ...);
KIND 'exact' (the solved margin) or 'search' (a search value); VALUE the
final disc difference for the mover, in discs; MOVER and OTHER the discs of
the player who just moved and of the player to move, 16 hex digits each;
NODES what the measurement cost.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from genethello.core.frontend.errors import UserError

FILE_MAGIC = "# genethello position labels 1 "


class LabelFileError(UserError):
    """A labels file that is damaged or was made with other settings."""


@dataclass(frozen=True)
class LabelSettings:
    """Everything a labels file depends on (its header)."""

    games: str                 # the games file's name (for people)
    games_sha256: str          # and its content (what matters)
    holdout: int
    seed: int
    exact_empties: int
    search_depth: int
    patterns: str              # table version of the search labels ('patterns-v1+SHA12')
    exact_per_game: int
    search_per_game: int
    selfplay_every: int        # one self-play game after this many training games (0: none)

    def header(self) -> str:
        return FILE_MAGIC + json.dumps(asdict(self), sort_keys=True, separators=(",", ":")) + "\n"

    @classmethod
    def from_header(cls, line: str, source: str) -> LabelSettings:
        if not line.startswith(FILE_MAGIC):
            raise LabelFileError(f"{source}: not a labels file (its first line is not a labels header)")
        try:
            return cls(**json.loads(line[len(FILE_MAGIC):]))
        except (ValueError, TypeError) as exc:
            raise LabelFileError(f"{source}: damaged labels header ({exc})") from None


def format_line(source: str, index: int, empties: int, exact: bool, value: int, mover: int, other: int,
                nodes: int) -> str:
    """One labels line (see the module's docstring)."""
    kind = "exact" if exact else "search"
    return f"{source} {index} {empties} {kind} {value} {mover:016x} {other:016x} {nodes}\n"


@dataclass(frozen=True)
class LabelRow:
    source: str
    index: int
    empties: int
    exact: bool
    value: int
    mover: int
    other: int
    nodes: int


def parse_line(text: str, where: str) -> LabelRow:
    """A labels line, checked.

    Raises:
        LabelFileError: naming ``where`` (file:line) and what is wrong.
    """
    parts = text.split()
    if len(parts) != 8:
        raise LabelFileError(f"{where}: expected 8 fields, got {len(parts)}")
    source, index, empties, kind, value, mover, other, nodes = parts
    try:
        row = LabelRow(source, int(index), int(empties), kind == "exact", int(value),
                       int(mover, 16), int(other, 16), int(nodes))
    except ValueError:
        raise LabelFileError(f"{where}: a number field is not a number") from None
    if kind not in ("exact", "search") or source[:1] not in ("h", "s"):
        raise LabelFileError(f"{where}: unknown kind {kind!r} or source {source!r}")
    if (row.mover | row.other) >> 64 or row.mover & row.other or not -64 <= row.value <= 64:
        raise LabelFileError(f"{where}: not a position or value out of range")
    if 64 - bin(row.mover | row.other).count("1") != row.empties:
        raise LabelFileError(f"{where}: empties {row.empties} do not match the discs")
    return row




@dataclass
class Labels:
    """The positions of a labels file as arrays (rows in file order)."""

    settings: LabelSettings
    movers: np.ndarray        # uint64
    others: np.ndarray        # uint64
    empties: np.ndarray       # int64
    exact: np.ndarray         # bool
    values: np.ndarray        # int64, discs for the mover
    sources: list[str]


def read_labels(path: str | Path) -> Labels:
    """Read and check a whole labels file (a torn last line is ignored).

    Raises:
        LabelFileError: for a missing, foreign or damaged file (file:line).
    """
    path = Path(path)
    try:
        if not path.is_file():
            raise LabelFileError(f"labels file {path} does not exist or is not a regular file")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise LabelFileError(f"{path}: not a labels file (not UTF-8 text)") from None
    head, sep, body = text.partition("\n")
    settings = LabelSettings.from_header(head + sep, str(path))
    lines = body.split("\n")
    if lines and not body.endswith("\n"):
        lines = lines[:-1]                  # torn or empty last piece
    rows = [parse_line(line, f"{path}:{n}") for n, line in enumerate(lines, start=2) if line]
    return Labels(settings,
                  np.array([r.mover for r in rows], dtype=np.uint64),
                  np.array([r.other for r in rows], dtype=np.uint64),
                  np.array([r.empties for r in rows], dtype=np.int64),
                  np.array([r.exact for r in rows], dtype=bool),
                  np.array([r.value for r in rows], dtype=np.int64),
                  [r.source for r in rows])
