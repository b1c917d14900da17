"""SIGINT as the tests' children must see it.

A suite started with SIGINT ignored (``pytest &`` from a script, ``nohup``
under some shells, CI runners) passes that disposition on to every process
it starts: an ignored signal stays ignored across ``exec``. A test that sends
SIGINT to a command it started must therefore start it with SIGINT at its
default, or it tests the parent's disposition instead of the command.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


def default_sigint() -> None:
    """A ``preexec_fn`` for ``subprocess.Popen``: the child starts with
    SIGINT at its default, whatever this process inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def ignore_sigint() -> None:
    """A ``preexec_fn`` that starts the child with SIGINT ignored, as
    ``cmd &`` in a script does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def sigint_not_ignored() -> Iterator[None]:
    """While active, the processes this one starts (through code that takes
    no ``preexec_fn``) inherit SIGINT at its default: a handled signal is
    reset to the default by ``exec``, an ignored one is not."""
    previous = signal.getsignal(signal.SIGINT)
    if previous == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if previous == signal.SIG_IGN:
            signal.signal(signal.SIGINT, previous)
