"""Game records: SGF, GGF, move lists and transcripts, one common value type.

    from genethello.core.records import read_record, write_record
    games = read_record("game.sgf")            # or text; -> list[GameRecord]
    text = write_record(games[0], "ggf")

Formats: ``'sgf'``, ``'ggf'``, ``'moves'`` (plain move list),
``'transcript'`` (``1. f5 - d6`` ...); ``write_record`` also knows
``'grid'`` (the 8x8 move-number diagram, write only). Every reading problem
raises :class:`RecordError` (a ``ValueError``) with its place in the text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from genethello.core.records.files import (
    MAX_RECORD_FILE_BYTES,
    gunzip_bounded,
    read_maybe_gzipped,
    read_regular_file,
    suffix_format,
)
from genethello.core.records.game import (
    START_BLACK,
    START_WHITE,
    GameRecord,
    RecordError,
    result_from_score,
    score_from_result,
)
from genethello.core.records.ggf import parse_ggf_move, read_ggf, write_ggf
from genethello.core.records.sgf import parse_sgf_point, read_sgf, write_sgf
from genethello.core.records.transcript import (
    move_grid,
    parse_move_line,
    read_moves,
    read_transcript,
    write_moves,
    write_transcript,
)

__all__ = [
    "GameRecord", "RecordError", "START_BLACK", "START_WHITE", "result_from_score", "score_from_result",
    "read_sgf", "write_sgf", "parse_sgf_point", "read_ggf", "write_ggf", "parse_ggf_move",
    "read_moves", "parse_move_line", "write_moves", "read_transcript", "write_transcript", "move_grid",
    "read_record", "write_record", "detect_format", "FORMATS", "read_regular_file", "read_maybe_gzipped",
    "MAX_RECORD_FILE_BYTES",
]

_READERS = {"sgf": read_sgf, "ggf": read_ggf, "moves": read_moves, "transcript": read_transcript}
_WRITERS: dict[str, Callable[[GameRecord], str]] = {
    "sgf": write_sgf, "ggf": write_ggf, "moves": write_moves, "transcript": write_transcript, "grid": move_grid}
FORMATS = tuple(_WRITERS)
_EXTENSIONS = {".sgf": "sgf", ".ggf": "ggf"}


def detect_format(text: str) -> str:
    """'sgf', 'ggf', 'transcript' or 'moves' from the text: a game tree
    ``(;`` with ``GM[2]`` is SGF, with ``GM[Othello]`` (or a ``BO[`` board and no
    GM) GGF; ``1.`` at the start is a transcript; anything else a move list."""
    body = text.lstrip("\ufeff \t\r\n")
    body = re.sub(r"^\d+\s*(?=\()", "", body)       # GGS archive game count
    if body.startswith("(") and re.match(r"\(\s*;", body):
        head = body[:4000]
        gm = re.search(r"\bG\s*M\s*\[\s*([^\]]*)\]", head)
        if gm:
            return "ggf" if gm.group(1).strip().lower() == "othello" else "sgf"
        if "BO[" in head and not re.search(r"\bA[BWE]\s*\[|\bSZ\s*\[", head):
            return "ggf"
        return "sgf"
    if re.match(r"\d+\.", body):
        return "transcript"
    return "moves"


def _load(source: str | os.PathLike[str] | bytes, max_bytes: int) -> tuple[str, str | None]:
    """(text, format from the extension or None); a path must name a
    regular file of at most ``max_bytes`` (gunzipped too)."""
    path = None
    if isinstance(source, os.PathLike):
        path = Path(source)
    elif isinstance(source, str):
        if "\n" not in source and len(source) < 4096 and not source.lstrip().startswith("("):
            try:
                if Path(source).is_file():
                    path = Path(source)
            except (OSError, ValueError):
                path = None
    elif isinstance(source, bytes):
        return _decode(source), None
    else:
        raise RecordError(f"read_record needs a path or text, not {type(source).__name__}")
    if path is None:
        assert isinstance(source, str)      # a path-like became a path above
        return source, None
    data = read_regular_file(path, max_bytes)
    gzipped, suffix = suffix_format(path)
    if gzipped:
        data = gunzip_bounded(data, str(path), max_bytes)
    return _decode(data), (_EXTENSIONS.get(suffix) if suffix else None)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_record(path_or_text: str | os.PathLike[str] | bytes, format: str | None = None,
                max_bytes: int = MAX_RECORD_FILE_BYTES) -> list[GameRecord]:
    """All games in a file (path) or text, as a list of :class:`GameRecord`.

    The format is ``format`` if given, else the file extension (``.sgf``,
    ``.ggf``, also under ``.gz``), else :func:`detect_format` on the text.
    A path must name a regular file of at most ``max_bytes`` bytes (and
    gunzip to at most that): FIFOs, devices and huge files are refused.

    Raises:
        RecordError: for unreadable or refused files and any problem in the
            text; no other exception.
    """
    text, by_extension = _load(path_or_text, max_bytes)
    fmt = format or by_extension or detect_format(text)
    if fmt not in _READERS:
        raise RecordError(f"unknown record format {fmt!r}; known: {', '.join(_READERS)}")
    return _READERS[fmt](text)


def write_record(record: GameRecord, format: str) -> str:
    """The text of ``record`` in ``format`` ('sgf', 'ggf', 'moves',
    'transcript' or 'grid')."""
    if format not in _WRITERS:
        raise RecordError(f"unknown record format {format!r}; known: {', '.join(_WRITERS)}")
    return _WRITERS[format](record)
