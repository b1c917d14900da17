"""A bounded line reader for the engines' command streams (GTP, NBoard).

Commands arrive one line at a time on a byte stream that anybody may write
to; :func:`read_lines` never holds more than :data:`MAX_LINE_BYTES` of one
line in memory, and reports a longer line as cut so that the engine can
answer it with :data:`LINE_TOO_LONG` and go on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

MAX_LINE_BYTES = 64 * 1024
"""The longest command line an engine reads, in bytes (line feed included).
GTP commands are a few dozen bytes; the longest real lines are NBoard's
``set game <GGF>`` (about 2 KB for a game with evals and times). Anything
longer is answered ``line too long`` instead of being read into memory."""

LINE_TOO_LONG = "line too long"
"""The failure text of a line over :data:`MAX_LINE_BYTES`."""

_READ_CHUNK = 8192


def read_lines(instream: BinaryIO, max_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[bytes, bool]]:
    """The lines of a byte stream until its end, as ``(line, cut)``.

    A line of at most ``max_bytes`` bytes (its line feed included) comes
    whole, ``cut`` False. A longer line comes as its first ``max_bytes``
    bytes with ``cut`` True; the rest of it is read in bounded chunks and
    dropped, so memory stays bounded whatever the input.

    Raises:
        ValueError: if ``max_bytes`` is less than 1.
    """
    if max_bytes < 1:
        raise ValueError(f"max_bytes must be >= 1, got {max_bytes}")
    while True:
        line = instream.readline(max_bytes)
        if not line:
            return
        if line.endswith(b"\n") or len(line) < max_bytes:
            yield line, False
            continue
        # Over the limit: skip to the end of the line, one bounded chunk at a time.
        while True:
            rest = instream.readline(_READ_CHUNK)
            if not rest or rest.endswith(b"\n"):
                break
        yield line, True


def decode_line(raw: bytes) -> str:
    """A line's bytes as text; undecodable bytes are kept (surrogate escapes)
    so that they reach the engine as an unknown name or argument instead of
    stopping the loop."""
    return raw.decode("utf-8", errors="surrogateescape")
