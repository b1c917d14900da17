"""The user's errors and ours, told apart.

A :class:`UserError` is caused by what the user gave (a config, a file, a
chromosome's text, a database, an option): the command prints its message as
one line and exits with :data:`USER_ERROR_STATUS` (2). Every other
exception is a bug of genethello's: the command prints one line naming a log
file that holds the traceback (:func:`write_internal_error_log`) and exits
with :data:`INTERNAL_ERROR_STATUS` (70, ``EX_SOFTWARE`` of sysexits.h), so a
bug is never mistaken for bad input and always leaves a trace to report.

UserError is a ValueError, so code that checks input by catching ValueError
keeps working; the error classes of each kind of input (``ConfigError``,
``ChromosomeError``, ``NetworkFileError``, ``RecordError``...) derive from it.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

__all__ = ["UserError", "USER_ERROR_STATUS", "INTERNAL_ERROR_STATUS", "LOG_DIR_VARIABLE", "error_log_dir",
           "write_internal_error_log"]

USER_ERROR_STATUS = 2
INTERNAL_ERROR_STATUS = 70

#: Names the folder of the internal-error logs (else the user's cache dir).
LOG_DIR_VARIABLE = "GENETHELLO_ERROR_LOGS"


class UserError(ValueError):
    """A failure caused by the user's input, files or databases (not a bug):
    one line on stderr, exit status 2."""


def error_log_dir() -> Path:
    """Where internal-error logs go: ``$GENETHELLO_ERROR_LOGS``, else
    ``$XDG_CACHE_HOME/genethello/errors``, else ``~/.cache/genethello/errors``
    (the user's own cache, never the working folder or a database's)."""
    named = os.environ.get(LOG_DIR_VARIABLE)
    if named:
        return Path(named)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "genethello" / "errors"


def _open_new_log(folder: Path, stamp: str) -> tuple[int, Path]:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for attempt in range(100):
        path = folder / f"internal-error-{stamp}-{os.getpid()}{f'-{attempt}' if attempt else ''}.log"
        try:
            # O_EXCL|O_NOFOLLOW: a new file of our own, never one planted there.
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no new log file name in {folder}")


def write_internal_error_log(exc: BaseException, argv: list[str]) -> Path | None:
    """A new log file holding ``exc``'s traceback and the command line, in
    :func:`error_log_dir` (the system's temporary folder when that cannot be
    written); None when no log could be written at all."""
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    text = (f"genethello {' '.join(argv)}\npython {sys.version.split()[0]}, {when}\n\n"
            + "".join(traceback.format_exception(exc)))
    for folder in (error_log_dir(), Path(tempfile.gettempdir()) / f"genethello-errors-{os.getuid()}"):
        try:
            fd, path = _open_new_log(folder, stamp)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            return path
        except OSError:
            continue
    return None
