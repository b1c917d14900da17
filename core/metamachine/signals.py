"""Make a signal reach the main thread, whichever thread the kernel gives it to.

A signal sent to a process (``kill PID``) goes to any one of its threads that
does not block it. Python runs its handlers only in the main thread, and
wakes that thread only if the main thread itself was interrupted: when the
kernel picks another thread (the metamachine has an oracle-reader thread and
OpenBLAS's worker), the handler is only marked pending, and a main thread
asleep in ``read(stdin)`` or waiting for an oracle's answer sleeps on until
its next input. That was the metamachine that did not exit within 15 s of a
SIGINT (about one SIGINT in a hundred on a loaded machine; every time when
the signal is sent to another thread's id).

:class:`MainThreadWakeup` closes that gap: the C-level handler of Python
writes each signal's number to a wakeup pipe from whichever thread caught
it; a relay thread reads the pipe and interrupts the main thread with a
thread-directed poke signal whose handler does nothing. The main thread's
wait returns EINTR, and Python runs the pending handler there at once.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

POKE = signal.SIGWINCH
"""The signal that interrupts the main thread. Its default action is to
ignore it (a stray one, e.g. a terminal resize, does nothing); only while a
handler is installed does it interrupt a blocking call."""


def _ignore(signum: int, frame: object) -> None:
    """The poke's handler: interrupting the main thread is all it is for."""


class MainThreadWakeup:
    """Context manager, entered and left on the main thread: while active,
    any signal with a Python handler that lands on another thread also
    interrupts the main thread's blocking call, so its handler runs at once.

    Raises:
        ValueError: if entered from a thread other than the main thread
            (Python allows wakeup fds and handlers only there).
    """

    def __init__(self) -> None:
        self._read_fd = -1
        self._write_fd = -1
        self._previous_fd = -1
        self._previous_poke: Callable[[int, FrameType | None], Any] | int | None = None
        self._relay: threading.Thread | None = None

    def __enter__(self) -> MainThreadWakeup:
        if threading.current_thread() is not threading.main_thread():
            raise ValueError("MainThreadWakeup must be used on the main thread")
        self._read_fd, self._write_fd = os.pipe()
        os.set_blocking(self._write_fd, False)       # set_wakeup_fd needs a non-blocking fd
        self._previous_poke = signal.signal(POKE, _ignore)
        self._previous_fd = signal.set_wakeup_fd(self._write_fd, warn_on_full_buffer=False)
        main = threading.main_thread().ident
        self._relay = threading.Thread(target=self._forward, args=(self._read_fd, main),
                                       name="signal-relay", daemon=True)
        self._relay.start()
        return self

    @staticmethod
    def _forward(read_fd: int, main: int) -> None:
        """Poke the main thread for every batch of signals but the pokes
        themselves (those would poke again, for ever)."""
        while True:
            try:
                data = os.read(read_fd, 64)
            except InterruptedError:
                continue
            except OSError:
                return
            if not data:
                return                  # write end closed: the context was left
            if any(number != POKE for number in data):
                try:
                    signal.pthread_kill(main, POKE)
                except (OSError, ValueError):
                    return

    def __exit__(self, exc_type: type | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        signal.set_wakeup_fd(self._previous_fd)
        signal.signal(POKE, self._previous_poke if self._previous_poke is not None else signal.SIG_DFL)
        os.close(self._write_fd)            # the relay reads the end of the pipe and returns
        if self._relay is not None:
            self._relay.join(timeout=5.0)
        os.close(self._read_fd)
