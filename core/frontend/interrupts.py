"""Ctrl-C stops a command even when its parent told it to ignore SIGINT.

A process started in the background by a non-interactive shell (``cmd &``
in a script), by some CI runners or by another program may inherit SIGINT
*ignored*; Python then installs no handler of its own, no
``KeyboardInterrupt`` is ever raised, and a command that stops cleanly on
Ctrl-C (writing what it has, closing its helpers, exit 130) would ignore an
explicit ``kill -INT`` too. ``evolve`` and ``resume`` install their own
handler for the same reason (the coordinator's); the metamachine and
``patterns label`` enter :func:`interruptible` around their work.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def interruptible() -> Iterator[None]:
    """While active, SIGINT raises ``KeyboardInterrupt`` in the main thread,
    whatever disposition the process inherited; the previous one is restored
    on leaving. Off the main thread (where Python allows no handler) it
    changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
