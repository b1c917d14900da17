"""Starting Ray so that stopping a run stays quiet.

``systemctl stop``, a container runtime or ``kill -TERM -- -PGID`` send
SIGTERM to every process of the run's process group. Two things made that
loud:

* ``ray.init`` puts its own handlers on SIGTERM in the driver: abseil's
  failure signal handler (which prints a C++ "*** SIGTERM received ***"
  stack dump and arms a 3-second abort alarm) chained to a Python handler
  that exits at once. The coordinator's handler (stop after the games in
  flight) was installed before and never ran.
* Ray's own processes (GCS, raylet, the autoscaler monitor, the agents and,
  through the raylet, the workers) were in the driver's process group, so
  they died under the running games, and the monitor's "Terminated with
  signal 15" traceback was relayed to the driver's output.

:func:`ray_started_quietly` starts Ray's processes in sessions of their own
(Ray already blocks SIGINT in them, which is why Ctrl-C was quiet) and puts
the driver's Python handlers back once Ray is up. The driver then stops as
it does on Ctrl-C and shuts Ray down itself; the processes still die with
the driver if it is killed (Ray sets their parent-death signal).
"""

from __future__ import annotations

import contextlib
import functools
import signal
import subprocess
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from genethello.cluster.work import Executor

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def own_sessions_for_started_processes() -> Iterator[None]:
    """While inside, every process this one starts through :mod:`subprocess`
    (Ray's ``ConsolePopen`` is a subclass) starts in a session, and so a
    process group, of its own.

    The patch is on :class:`subprocess.Popen` rather than on Ray's module:
    Ray must not be imported before :func:`start_ray` has set the private
    instance's token settings, which Ray reads at import.
    """
    original = subprocess.Popen.__init__

    @functools.wraps(original)
    def in_own_session(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
        # Any: the arguments pass through untouched to Popen's own (overloaded) signature.
        kwargs.setdefault("start_new_session", True)
        original(self, *args, **kwargs)

    subprocess.Popen.__init__ = in_own_session  # type: ignore[method-assign]
    try:
        yield
    finally:
        subprocess.Popen.__init__ = original  # type: ignore[method-assign]


@contextlib.contextmanager
def ray_started_quietly() -> Iterator[None]:
    """Start Ray inside this block: its processes get sessions of their own,
    and the driver's SIGINT/SIGTERM handlers are the ones it had before."""
    in_main = threading.current_thread() is threading.main_thread()
    saved = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS} if in_main else {}
    try:
        with own_sessions_for_started_processes():
            yield
    finally:
        # signal.signal sets the process's handler again, replacing the C++
        # one Ray installed over Python's.
        for sig, handler in saved.items():
            if handler is not None:
                signal.signal(sig, handler)


def shut_ray_down() -> None:
    """Shut this driver's Ray down (if it started or joined one) while a
    SIGINT or SIGTERM ends the process at once: Ray's own shutdown waits
    for processes that ignore SIGTERM, and a second Ctrl-C there printed
    a traceback from Ray's exit handler. A local run's reaper ends what is
    left (:func:`genethello.cluster.run.private_network.start_reaper`)."""
    import os
    import sys

    ray = sys.modules.get("ray")
    if ray is None or not ray.is_initialized():
        return
    in_main = threading.current_thread() is threading.main_thread()

    def now(signum: int, _frame: Any) -> None:
        os._exit(128 + signum)

    saved = {sig: signal.signal(sig, now) for sig in STOP_SIGNALS} if in_main else {}
    try:
        ray.shutdown()
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def executor_for(workers: int, address: str | None) -> Executor:
    """Where a command plays its games: this process (one worker and no
    address: no Ray at all), else Ray workers started here (``workers``,
    quietly) or those of the cluster at ``address``."""
    from genethello.cluster.run.executors import RayExecutor, SerialExecutor, start_ray

    if workers == 1 and not address:
        return SerialExecutor(task_seconds=0.5)
    with ray_started_quietly():
        started = start_ray(address, workers, private=address is None)
    return RayExecutor(started, task_seconds=0.5)
