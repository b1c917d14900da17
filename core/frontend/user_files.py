"""One bounded reader for every file a user names: configs, positions to
solve, records, network files, initial populations.

A path given on a command line (or in a config) may name anything: a FIFO
(whose ``open`` waits for a writer forever), ``/dev/zero`` (endless bytes),
a directory, a file of gigabytes, a zlib stream that inflates a
thousandfold, a document nested 100,000 deep. The functions here read only
what is meant to be read and refuse the rest in one line, with the same
words wherever a file comes in:

* :func:`read_user_file`: the bytes of a regular file of at most a limit;
* :func:`user_text`: those bytes as UTF-8 text, or a line naming the byte;
* :func:`inflate_bounded`: a zlib stream unpacked to exactly an expected
  size (never more than that + 1 byte is produced), nothing after its end;
* :func:`loads_json` / :func:`loads_toml`: a document whose nesting is
  bounded (a line, not ``RecursionError``) and whose numbers are readable.

Every refusal is a :class:`UserFileError` (a ``ValueError``): callers with
their own error type wrap its message unchanged.
"""

from __future__ import annotations

import contextlib
import json
import lzma
import os
import stat
import tomllib
import zlib
from collections.abc import Callable
from typing import Any, TextIO

from genethello.core.frontend.errors import UserError
from genethello.core.frontend.wording import printable

__all__ = ["UserFileError", "check_user_output", "file_kind", "inflate_bounded", "loads_json", "loads_toml",
           "open_user_output", "read_user_file", "size_text", "user_text", "write_user_file"]

_CHUNK = 1 << 20


class UserFileError(UserError):
    """A user's file cannot be read as asked (one line naming the file)."""


def size_text(count: int) -> str:
    """``'812 bytes'``, ``'16.0 MiB'``."""
    return f"{count:,} bytes" if count < 1024 * 1024 else f"{count / (1024 * 1024):.1f} MiB"


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words (``'a FIFO'``, ``'a directory'``)."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    if isinstance(exc, ValueError) and "null" in str(exc):
        return "the name holds a null character"
    return str(exc)


def read_user_file(path: str | os.PathLike[str], what: str, max_bytes: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes``.

    The file is opened without blocking (a FIFO swapped in after a check
    cannot hang the open), checked through its descriptor, and read in
    chunks to at most ``max_bytes`` + 1 bytes (a file that grows is refused).

    Raises:
        UserFileError: ``cannot read WHAT PATH: REASON`` when it cannot be
            opened, is not a regular file (FIFO, device, directory, socket)
            or holds more than ``max_bytes`` bytes.
    """
    where = os.fspath(path)
    shown = printable(where)                    # a name may hold a newline or a null character
    head = f"cannot read {what} {shown}" if what else f"cannot read {shown}"
    try:
        fd = os.open(where, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        raise UserFileError(f"{head}: {_reason(exc)}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UserFileError(f"{head}: {file_kind(info.st_mode)}, not a regular file")
        if info.st_size > max_bytes:
            raise UserFileError(f"{head}: {size_text(info.st_size)}, more than the {size_text(max_bytes)} "
                                "it may hold")
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise UserFileError(f"{head}: {_reason(exc)}") from None
    finally:
        os.close(fd)
    if total > max_bytes:       # it grew after the check
        raise UserFileError(f"{head}: more than the {size_text(max_bytes)} it may hold")
    return b"".join(chunks)


def user_text(data: bytes, where: str) -> str:
    """``data`` decoded as UTF-8.

    Raises:
        UserFileError: ``WHERE: not UTF-8 text (invalid start byte 0xff at byte 12)``.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start:exc.start + 1].hex()
        raise UserFileError(f"{where}: not UTF-8 text ({exc.reason} 0x{bad} at byte {exc.start})") from None


#: The raw LZMA2 stream :func:`inflate_bounded` reads with ``codec="lzma"``
#: (no container: a stored payload carries its own version).
LZMA_FILTERS = ({"id": lzma.FILTER_LZMA2, "preset": 6},)


def inflate_bounded(packed: bytes, expected: int, where: str, codec: str = "zlib") -> bytes:
    """The zlib (or raw LZMA2, :data:`LZMA_FILTERS`) stream ``packed``
    unpacked, which must be exactly ``expected`` bytes: unpacking stops at
    ``expected`` + 1 bytes (a crafted stream cannot fill the memory) and
    bytes after the stream's end are refused (a stream is one thing, not a
    carrier).

    Raises:
        UserFileError: ``WHERE: ...`` naming what is wrong.
    """
    unpacker: Any = (zlib.decompressobj() if codec == "zlib"
                     else lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=LZMA_FILTERS))
    try:
        raw: bytes = unpacker.decompress(packed, expected + 1)
    except (zlib.error, lzma.LZMAError) as exc:
        raise UserFileError(f"{where}: the packed data is not a {codec} stream ({exc})") from None
    if len(raw) > expected:
        raise UserFileError(f"{where}: the packed data unpacks to more than the {expected:,} bytes expected")
    if not unpacker.eof:
        raise UserFileError(f"{where}: the packed data ends early: {len(raw):,} bytes unpacked, "
                            f"{expected:,} expected")
    if unpacker.unused_data:
        raise UserFileError(f"{where}: {len(unpacker.unused_data):,} bytes follow the end of the packed data")
    if len(raw) != expected:
        raise UserFileError(f"{where}: the packed data unpacks to {len(raw):,} bytes, not the {expected:,} expected")
    return raw


def _parsed(parse: Callable[[str], Any], text: str, where: str, what: str,
            syntax_error: type[ValueError], detail: Callable[[Any], str]) -> Any:
    """``parse(text)``, each way it fails one line naming ``where``: bad
    syntax (``WHERE: WHAT<detail>``), a document nested too deep, or a
    number too long for Python to read (a ValueError past 4,300 digits)."""
    try:
        return parse(text)
    except syntax_error as exc:
        raise UserFileError(f"{where}: {what}{detail(exc)}") from None
    except RecursionError:
        raise UserFileError(f"{where}: {what} genethello reads (nested too deep)") from None
    except ValueError:          # Python reads no integer of more than 4,300 digits
        raise UserFileError(f"{where}: {what} genethello reads (a number of more than 4,300 digits)") from None


def loads_json(text: str | bytes, where: str) -> Any:
    """The JSON document ``text`` (its nesting bounded by the interpreter's
    recursion limit, answered in one line).

    Raises:
        UserFileError: ``WHERE: not JSON (...)`` for bad JSON, a document
            nested too deep, or a number too long to read.
    """
    if isinstance(text, bytes | bytearray):
        text = user_text(bytes(text), where)
    return _parsed(json.loads, text, where, "not JSON", json.JSONDecodeError,
                   lambda exc: f" ({exc.msg} at line {exc.lineno} column {exc.colno})")


def loads_toml(text: str, where: str) -> dict[str, Any]:
    """The TOML document ``text``.

    Raises:
        UserFileError: ``WHERE: not valid TOML (...)`` for bad TOML, a
            document nested too deep, or a number too long to read.
    """
    parsed: dict[str, Any] = _parsed(tomllib.loads, text, where, "not valid TOML", tomllib.TOMLDecodeError,
                                     lambda exc: f": {exc}")
    return parsed


def _replaceable(path: str, what: str, force: bool) -> bool:
    """Whether ``path`` names something that ``--force`` would replace
    (False: nothing there).

    Raises:
        UserFileError: it exists and ``force`` is false, or it is neither a
            regular file nor a symbolic link (a directory, a FIFO...).
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as exc:
        raise UserFileError(f"cannot write {what} {printable(path)}: {_reason(exc)}") from None
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise UserFileError(f"cannot write {what} {printable(path)}: {file_kind(mode)}, not a file --out may "
                            "replace")
    if not force:
        raise UserFileError(f"{printable(path)} exists: give --force to replace it")
    return True


def write_user_file(path: str | os.PathLike[str], text: str, what: str, force: bool) -> None:
    """Write ``text`` (UTF-8) as the file ``path``, whole or not at all: to
    a new temporary file beside it (created exclusively, never through a
    link), then renamed over ``path``. An existing file or symbolic link is
    replaced only with ``force``, a link itself and never its target.

    Raises:
        UserFileError: ``cannot write WHAT PATH: REASON``, or the file exists
            without ``force``.
    """
    where = os.fspath(path)
    _replaceable(where, what, force)
    folder, name = os.path.split(where)
    temporary = os.path.join(folder, f".{name}.{os.getpid()}.{id(text):x}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(temporary, flags, 0o666)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(text.encode("utf-8"))
            os.replace(temporary, where)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except (OSError, ValueError) as exc:
        raise UserFileError(f"cannot write {what} {printable(where)}: {_reason(exc)}") from None


def open_user_output(path: str | os.PathLike[str], what: str, force: bool) -> TextIO:
    """``path`` opened for writing text (a file written line by line, such
    as a match's games): an existing file or symbolic link is replaced only
    with ``force``, a link itself (removed first) and never its target.

    Raises:
        UserFileError: ``cannot write WHAT PATH: REASON``, or the file exists
            without ``force``.
    """
    where = os.fspath(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        if _replaceable(where, what, force) and os.path.islink(where):
            os.unlink(where)
        return open(os.open(where, flags, 0o666), "w", encoding="utf-8")   # noqa: SIM115 (the caller closes it)
    except (OSError, ValueError) as exc:
        raise UserFileError(f"cannot write {what} {printable(where)}: {_reason(exc)}") from None


def check_user_output(path: str | os.PathLike[str], what: str, force: bool) -> None:
    """Refuse now an ``--out`` that writing would refuse later (it exists
    without ``force``, or it is a directory, a FIFO...)."""
    _replaceable(os.fspath(path), what, force)
