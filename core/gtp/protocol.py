"""GTP version 2 framing (Farnebäck, draft 2, §2): lines in, answers out.

Pure functions, no engine state:

* :func:`clean_line` does the preprocessing of §2.2-2.9: control characters
  other than HT and LF are dropped (CR included), everything from ``#`` on
  is a comment, HT becomes a space.
* :func:`parse_line` turns one input line into a :class:`Command` ``(id,
  name, args)``, or ``None`` for a line that gets no answer (empty, only
  whitespace, only a comment).
* :func:`format_success` / :func:`format_failure` build the answers: ``=``
  or ``?``, the id if the command had one, a space and the text, and the
  empty line that ends every answer.
* Lines are read by :func:`genethello.core.frontend.lines.read_lines`
  (shared with the NBoard engine): a line longer than
  :data:`MAX_LINE_BYTES` is skipped as it arrives and reported as cut.
* :func:`read_commands` and :func:`write_response` are the two ends of an
  engine's read-answer loop over byte input and text output; a line that is
  too long becomes a :class:`Command` carrying ``error`` ("line too long"),
  which the engine answers as a failure before going on.

An id is a run of ASCII digits worth at most 2^31-1 (``007`` is id 7). A
first token that is not such an id (``-1``, ``1.5``, ``2147483648``) is the
command name, so such a line is answered without an id. Command names are
case-sensitive; the engine decides what they mean.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from genethello.core.frontend.lines import LINE_TOO_LONG, MAX_LINE_BYTES, decode_line, read_lines

MAX_ID = 2 ** 31 - 1
"""The largest id a command may carry."""

_DROPPED = {chr(c) for c in range(32) if chr(c) not in "\t\n"} | {chr(127)}
_DROP_TABLE = str.maketrans({c: None for c in _DROPPED} | {"\t": " "})


class GtpError(Exception):
    """A command that fails: its message becomes the ``? message`` answer."""

    def __init__(self, message: str = "syntax error"):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Command:
    """One parsed command line.

    Attributes:
        id: the command's id, or None when it had none.
        name: the command name as sent (case kept); empty when the line held
            an id only.
        args: the remaining whitespace-separated tokens.
        error: why the line could not be read as a command (``"line too
            long"``), None for a command; the engine answers it with this
            failure text.
    """

    id: int | None
    name: str
    args: tuple[str, ...] = ()
    error: str | None = None


def clean_line(line: str) -> str:
    """The line after GTP preprocessing: control characters other than HT
    and LF removed, the comment from ``#`` on cut off, HT turned into a
    space. Line feeds are kept (a caller splits lines on them)."""
    line = line.translate(_DROP_TABLE)
    hash_at = line.find("#")
    if hash_at >= 0:
        line = line[:hash_at]
    return line


def tokens(line: str) -> list[str]:
    """Whitespace-separated tokens of a cleaned line (GTP whitespace: space,
    HT, and the line feed ending it)."""
    return line.replace("\n", " ").split(" ") if line else []


def parse_id(token: str) -> int | None:
    """The value of ``token`` if it is a GTP id (ASCII digits, at most
    2^31-1), else None."""
    if not token or not token.isascii() or not token.isdigit():
        return None
    # 2^31-1 has 10 digits; the length test also keeps int() away from
    # thousands of digits (Python refuses more than 4300).
    significant = token.lstrip("0")
    if len(significant) > 10:
        return None
    value = int(significant or "0")
    return value if value <= MAX_ID else None


def parse_line(line: str) -> Command | None:
    """The command on one input line, or None when the line gets no answer.

    Never raises: any text is either skipped or a command (possibly one with
    an unknown name).
    """
    parts = [t for t in tokens(clean_line(line)) if t]
    if not parts:
        return None
    cid = parse_id(parts[0])
    if cid is not None:
        parts = parts[1:]
    if not parts:
        return Command(cid, "", ())
    return Command(cid, parts[0], tuple(parts[1:]))


def _result_lines(text: str) -> str:
    """Result text safe inside an answer: no trailing newlines and no empty
    lines after the first (an empty line would end the answer early)."""
    lines = text.replace("\r", "").rstrip("\n").split("\n")
    kept = lines[:1] + [ln for ln in lines[1:] if ln.strip()]
    return "\n".join(kept)


def _encodable(text: str) -> str:
    """``text`` with anything UTF-8 cannot encode (lone surrogates from
    undecodable input echoed back) replaced by ``?``: an answer must never
    fail to be written."""
    return text.encode("utf-8", errors="replace").decode("utf-8")


def format_success(cid: int | None, result: str = "") -> str:
    """``=id result`` and the empty line that ends it (``=id`` alone for an
    empty result). A multi-line result keeps its lines, minus empty ones."""
    head = "=" if cid is None else f"={cid}"
    body = _encodable(_result_lines(result))
    return (f"{head} {body}" if body else head) + "\n\n"


def format_failure(cid: int | None, message: str) -> str:
    """``?id message`` and the empty line; the message is made one non-empty
    line."""
    head = "?" if cid is None else f"?{cid}"
    text = _encodable(" ".join(message.replace("\r", " ").split("\n")).strip()) or "failed"
    return f"{head} {text}\n\n"


def format_response(cid: int | None, ok: bool, text: str) -> str:
    """:func:`format_success` or :func:`format_failure`."""
    return format_success(cid, text) if ok else format_failure(cid, text)


def read_commands(instream: BinaryIO, max_bytes: int = MAX_LINE_BYTES) -> Iterator[Command]:
    """The commands of a byte stream, one line at a time, until its end;
    lines that get no answer are skipped. A line over ``max_bytes`` becomes a
    Command with ``error`` :data:`LINE_TOO_LONG` (and the id its start
    carried, if any), unless a ``#`` within its first ``max_bytes`` makes
    the rest a comment: then the part read is the whole command."""
    for raw, cut in read_lines(instream, max_bytes):
        if cut and b"#" not in raw:
            head = parse_line(decode_line(raw[:64]).rsplit(" ", 1)[0])
            yield Command(head.id if head is not None else None, "", (), error=LINE_TOO_LONG)
            continue
        cmd = parse_line(decode_line(raw))
        if cmd is not None:
            yield cmd


def write_response(outstream: TextIO, cid: int | None, ok: bool, text: str) -> None:
    """Write one answer (:func:`format_response`) and flush it: the
    controller waits for it before sending more."""
    outstream.write(format_response(cid, ok, text))
    outstream.flush()


def parse_response(text: str) -> tuple[bool, int | None, str]:
    """(success, id, result text) of one answer as an engine wrote it
    (``=12 d3\\n\\n``); the inverse of :func:`format_response` for a
    controller.

    Raises:
        ValueError: if the text does not start with ``=`` or ``?``.
    """
    body = text.rstrip("\n")
    if not body or body[0] not in "=?":
        raise ValueError(f"a GTP answer starts with '=' or '?', got {text[:40]!r}")
    ok = body[0] == "="
    first, _, rest = body[1:].partition("\n")
    digits = ""
    while len(digits) < len(first) and first[len(digits)].isdigit():
        digits += first[len(digits)]
    cid = int(digits) if digits else None
    first = first[len(digits):]
    if first.startswith(" "):
        first = first[1:]
    result = first + ("\n" + rest if rest else "")
    return ok, cid, result
