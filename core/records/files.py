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
import zlib
from pathlib import Path

from genethello.core.frontend.user_files import UserFileError, read_user_file, size_text
from genethello.core.records.game import RecordError

MAX_RECORD_FILE_BYTES = 64 * 1024 * 1024
"""Default size limit of a record file (and of its gunzipped text): a GGS
monthly archive of some ten thousand games is a few tens of MB."""


def read_regular_file(path: str | os.PathLike[str], max_bytes: int = MAX_RECORD_FILE_BYTES) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes``
    (:func:`genethello.core.frontend.user_files.read_user_file`).

    Raises:
        RecordError: naming the path, if it cannot be opened, is not a regular
            file (FIFO, device, directory, socket), or holds more than
            ``max_bytes`` bytes.
    """
    try:
        return read_user_file(path, "", max_bytes)
    except UserFileError as exc:
        raise RecordError(str(exc)) from None


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
        raise RecordError(f"{where}: inflates to more than the {size_text(max_bytes)} "
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


def suffix_format(path: str | os.PathLike[str]) -> tuple[bool, str | None]:
    """(gzipped, the lower-case suffix before any ``.gz``) of a path."""
    suffixes = [s.lower() for s in Path(path).suffixes]
    gzipped = bool(suffixes) and suffixes[-1] == ".gz"
    if gzipped:
        suffixes = suffixes[:-1]
    return gzipped, (suffixes[-1] if suffixes else None)
