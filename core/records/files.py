"""Reading record files safely: regular files only, of bounded size.

A path given by a user or a GTP controller may name anything: a FIFO (whose
``open`` blocks until a writer comes, hanging the engine), ``/dev/zero``
(endless bytes), a directory, or a gzip file that inflates a thousandfold.
:func:`read_regular_file`, :func:`gunzip_bounded` and
:func:`read_maybe_gzipped` read only what is
meant to be read and say in one line why they refuse the rest.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import zlib
from pathlib import Path

from genethello.core.records.game import RecordError

MAX_RECORD_FILE_BYTES = 64 * 1024 * 1024
"""Default size limit of a record file (and of its gunzipped text): a GGS
monthly archive of some ten thousand games is a few tens of MB."""

_CHUNK = 1 << 20


def _size_text(count: int) -> str:
    return f"{count} bytes" if count < 1024 * 1024 else f"{count / (1024 * 1024):.1f} MiB"


def read_regular_file(path: str | os.PathLike[str], max_bytes: int = MAX_RECORD_FILE_BYTES) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes``.

    The file is opened without blocking (a FIFO swapped in after the check
    cannot hang the open) and checked again through its descriptor.

    Raises:
        RecordError: naming the path, if it cannot be opened, is not a regular
            file (FIFO, device, directory, socket), or holds more than
            ``max_bytes`` bytes.
    """
    where = os.fspath(path)
    try:
        before = os.stat(where)
    except (OSError, ValueError) as exc:
        raise RecordError(f"cannot read {where}: {_reason(exc)}") from None
    if not stat.S_ISREG(before.st_mode):
        raise RecordError(f"cannot read {where}: {_kind(before.st_mode)}, not a regular file")
    if before.st_size > max_bytes:
        raise RecordError(f"cannot read {where}: {_size_text(before.st_size)}, more than the "
                          f"{_size_text(max_bytes)} a record file may hold")
    try:
        fd = os.open(where, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        raise RecordError(f"cannot read {where}: {_reason(exc)}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise RecordError(f"cannot read {where}: {_kind(mode)}, not a regular file")
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise RecordError(f"cannot read {where}: {_reason(exc)}") from None
    finally:
        os.close(fd)
    if total > max_bytes:       # it grew after the check
        raise RecordError(f"cannot read {where}: more than the {_size_text(max_bytes)} "
                          f"a record file may hold")
    return b"".join(chunks)


def gunzip_bounded(data: bytes, where: str, max_bytes: int = MAX_RECORD_FILE_BYTES) -> bytes:
    """The gunzipped ``data`` of the file ``where``, at most ``max_bytes``.

    Raises:
        RecordError: naming ``where``, if the data is not gzip or inflates
            beyond ``max_bytes``.
    """
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as unzipped:
            out = unzipped.read(max_bytes + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise RecordError(f"{where}: not a gzip file ({_reason(exc)})") from None
    if len(out) > max_bytes:
        raise RecordError(f"{where}: inflates to more than the {_size_text(max_bytes)} "
                          f"a record file may hold")
    return out


def read_maybe_gzipped(path: str | os.PathLike[str], max_bytes: int = MAX_RECORD_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, gunzipped when they start with
    the gzip magic (whatever the name says), each side at most ``max_bytes``.

    Raises:
        RecordError: as :func:`read_regular_file` and :func:`gunzip_bounded`.
    """
    data = read_regular_file(path, max_bytes)
    if data[:2] == b"\x1f\x8b":
        data = gunzip_bounded(data, os.fspath(path), max_bytes)
    return data


def _reason(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def suffix_format(path: str | os.PathLike[str]) -> tuple[bool, str | None]:
    """(gzipped, the lower-case suffix before any ``.gz``) of a path."""
    suffixes = [s.lower() for s in Path(path).suffixes]
    gzipped = bool(suffixes) and suffixes[-1] == ".gz"
    if gzipped:
        suffixes = suffixes[:-1]
    return gzipped, (suffixes[-1] if suffixes else None)
