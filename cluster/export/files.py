"""Writing export files into a folder someone else may have prepared.

A folder of exported games is often shared (a web server's, a team's), so
what already lies in it may be a trap: a file planted as a symbolic link
``tiny-g2.txt -> ../victim.txt`` would make a plain ``open(..., "w")``
overwrite the link's target. Three rules therefore hold:

* an existing entry of a target name is refused unless the caller forces
  the replacement, and that check covers every file before any is written,
  so a refused export writes nothing;
* a symbolic link is never followed, not even when forced: the new file
  replaces the link itself (a rename replaces a folder entry, whatever it
  points to), so the link's target is left alone. Replacing the link rather
  than refusing keeps ``--force`` meaning "these names are mine to
  overwrite" while nothing outside the folder can be reached through it;
* each file is written to a temporary name in the same folder and renamed
  into place, so a failure (a full disk, a size limit, a kill) leaves either
  the old entry or the whole new file, never half of one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

from genethello.core.frontend.errors import UserError

__all__ = ["ExistingFileError", "check_targets", "write_file_atomically"]

_LISTED = 5       # names quoted in a refusal; the rest are counted


class ExistingFileError(UserError):
    """A target name is taken and may not (or cannot) be replaced."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device or special file"


def check_targets(paths: Iterable[Path], force: bool) -> None:
    """Refuse to write ``paths`` if any of their names is already taken.

    Without ``force`` any existing entry is refused: a file, a symbolic link
    (dangling ones too) or anything else. With ``force`` files and links
    may be replaced; folders, FIFOs, sockets and devices never are.

    Raises:
        ExistingFileError: naming the entries in the way and how to proceed.
    """
    taken: list[Path] = []
    for path in paths:
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            raise ExistingFileError(f"{path} is {_kind(mode)}, not a file an export may replace")
        taken.append(path)
    if taken and not force:
        names = ", ".join(p.name for p in taken[:_LISTED])
        more = f" and {len(taken) - _LISTED} more" if len(taken) > _LISTED else ""
        folder = taken[0].parent
        raise ExistingFileError(
            f"{len(taken)} file{'s' * (len(taken) != 1)} already exist{'s' * (len(taken) == 1)} in "
            f"{folder}: {names}{more}; nothing was written (--force replaces them; a symbolic link "
            f"is replaced itself, its target never written)")


def write_file_atomically(path: Path, text: str, replace: bool) -> None:
    """Write ``text`` (UTF-8) as the file ``path``, whole or not at all.

    The bytes go to a new temporary file beside ``path`` (created
    exclusively, never through a link), are flushed to disk, then take
    ``path``'s name: by a rename if ``replace`` (an existing file or link
    of that name is replaced, a link's target untouched), else by a hard
    link, which fails if anything took the name since the check. On any
    failure the temporary file is removed and ``path`` is as it was.

    Raises:
        ExistingFileError: if ``replace`` is false and ``path`` exists.
        OSError: if the file cannot be written (no space, no permission...).
    """
    data = text.encode("utf-8")
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(temporary, flags, 0o666)       # the umask applies, as for any new file
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            _link_new(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _link_new(temporary: Path, path: Path) -> None:
    """Give ``temporary``'s file the name ``path`` only if that name is free."""
    try:
        os.link(temporary, path, follow_symlinks=False)
    except FileExistsError:
        raise ExistingFileError(f"{path} appeared while exporting; it was left as it is") from None
    except OSError as exc:
        # Some file systems (FAT, a few network ones) have no hard links:
        # fall back to a check and a rename (a narrow race, but no link is
        # ever followed: the rename replaces the entry itself).
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if os.path.lexists(path):
            raise ExistingFileError(f"{path} appeared while exporting; it was left as it is") from None
        os.replace(temporary, path)
        return
    os.unlink(temporary)
