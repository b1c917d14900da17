"""Where the workers' tasks run: in this process, or on Ray workers.

An executor (:class:`~genethello.cluster.work.Executor`) takes a
:class:`~genethello.cluster.work.Task` and batches of its items, and yields
the outcomes as batches finish, in completion order; the coordinator sorts
out the canonical order. It never knows what kind of
work a task is.
The Ray executor keeps a bounded number of tasks in flight, handles results
with ``ray.wait`` as they come, plays the batch of a dead worker or node
again elsewhere, and refuses a worker whose compiled core differs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from genethello.cluster.work import BatchSource, Executor, Task, batches_of
from genethello.core.engine.build_info import core_fingerprint

if TYPE_CHECKING:
    from ray import ObjectRef

ItemT = TypeVar("ItemT")
OutcomeT = TypeVar("OutcomeT")

log = logging.getLogger(__name__)

__all__ = ["BatchSource", "Executor", "batches_of", "BatchSizer", "SerialExecutor", "RayExecutor", "start_ray",
           "CoreMismatchError", "WorkerLostError", "RayStartError"]


class CoreMismatchError(RuntimeError):
    """A worker runs a different genethello core than the coordinator."""


class WorkerLostError(RuntimeError):
    """Games could not be played after several retries on lost workers."""


class BatchSizer:
    """Sizes batches so that a task runs for about ``target_seconds``: Ray
    costs about a millisecond per task, so tasks must be much longer."""

    def __init__(self, target_seconds: float, first: int = 2, limit: int = 4096) -> None:
        self.target = target_seconds
        self.size = first
        self.limit = limit
        self._seconds_per_game: float | None = None

    def observe(self, games: int, seconds: float) -> None:
        if games <= 0 or seconds <= 0:
            return
        rate = seconds / games
        self._seconds_per_game = rate if self._seconds_per_game is None else 0.7 * self._seconds_per_game + 0.3 * rate
        self.size = max(1, min(self.limit, round(self.target / self._seconds_per_game)))


class BatchSizers:
    """A :class:`BatchSizer` for each kind of task an executor runs: a
    fitness chunk, one hall game and a learning slice take very different
    times, and a size learned on one would put a whole phase of another in
    one batch, on one worker (pbt-td's slices, after the hall's games of a
    few milliseconds each, all went to one worker)."""

    def __init__(self, target_seconds: float) -> None:
        self.target = target_seconds
        self._by_task: dict[type, BatchSizer] = {}

    def for_task(self, task: object) -> BatchSizer:
        """The sizer of ``task``'s kind (its class)."""
        return self._by_task.setdefault(type(task), BatchSizer(self.target))


class SerialExecutor:
    """Plays every batch in this process (benchmark baselines, debugging)."""

    workers = 1

    def __init__(self, task_seconds: float = 0.2) -> None:
        self.sizers = BatchSizers(task_seconds)

    def run(self, task: Task[ItemT, OutcomeT], next_batch: BatchSource,
            should_stop: Callable[[], bool]) -> Iterator[list[OutcomeT]]:
        sizer = self.sizers.for_task(task)
        while not should_stop():
            batch = next_batch(sizer.size)
            if not batch:
                return
            t0 = time.perf_counter()
            outcomes = task.run(batch)
            sizer.observe(len(batch), time.perf_counter() - t0)
            yield outcomes

    def close(self) -> None:
        pass


def _run_remote(fingerprint: str, task: Task[ItemT, OutcomeT], items: list[ItemT]) -> tuple[list[OutcomeT], float]:
    """The Ray task: check the core, run the batch, report the outcomes and the time."""
    local = core_fingerprint()
    if local != fingerprint:
        raise CoreMismatchError(
            f"worker {socket.gethostname()} (pid {os.getpid()}) runs genethello core {local}, "
            f"but this run needs {fingerprint}: install the same version on every node")
    t0 = time.perf_counter()
    outcomes = task.run(items)
    return outcomes, time.perf_counter() - t0


class RayStartError(RuntimeError):
    """Ray could not be started here or the cluster could not be joined."""


def _check_reachable(address: str, timeout: float) -> None:
    """Fail fast, naming the address, when nothing accepts connections at
    ``host:port`` (ray.init itself would retry for minutes)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise RayStartError(f"--address {address!r} is not HOST:PORT")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise RayStartError(f"the Ray cluster at {address} cannot be reached: {exc.strerror or exc}") from None


def start_ray(address: str | None = None, workers: int | None = None, *, private: bool = False,
              connect_timeout: float = 10.0) -> int:
    """Start Ray on this machine (all its cores, or ``workers``) or join the
    cluster at ``address``; returns the number of CPUs available for games.

    Args:
        private: for a local run (no ``address``): start an instance of our
            own even where a Ray node already runs (or RAY_ADDRESS names
            one), inside a private network namespace so that it listens on
            loopback only (:mod:`private_network`), with a fresh token in the
            environment (no token file written) and metrics collection off.
            Ray and its workers inherit all of it.
        connect_timeout: seconds to wait for the cluster at ``address`` to
            accept a connection before giving up.

    Raises:
        RayStartError: one line: why Ray could not start or be joined.
    """
    already = sys.modules.get("ray")
    if already is not None and already.is_initialized():
        return _available_cpus(already, workers)
    kwargs: dict[str, Any] = dict(include_dashboard=False, logging_level=logging.WARNING, configure_logging=True,
                        log_to_driver=False)
    if address:
        _check_reachable(address, connect_timeout)
        kwargs["address"] = address
    else:
        kwargs["num_cpus"] = workers or os.cpu_count()
        if private:
            # Before ray is imported: it reads its token settings at import.
            _private_instance_settings(kwargs)
    import ray

    try:
        with _quiet_stderr():
            ray.init(**kwargs)
    except Exception as exc:  # Ray raises many types; the user needs one line
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        first = " ".join(str(exc).split())[:300]
        raise RayStartError(f"could not start or join {where}: {type(exc).__name__}: {first}") from exc
    return _available_cpus(ray, workers)


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Keep Ray's start-up chatter (its C++ parts write to file descriptor 2:
    "no external route", "token authentication is enabled") off the user's
    terminal; failures still come back as exceptions, reported in one line,
    and Ray's own logs keep everything."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _private_instance_settings(kwargs: dict[str, Any]) -> None:
    """Settings of a private local instance (see start_ray)."""
    import secrets

    from genethello.cluster.run.private_network import PrivateNetworkError, enter_private_network, start_reaper

    try:
        original = os.readlink("/proc/self/ns/net")
        enter_private_network()
    except (PrivateNetworkError, OSError) as exc:
        log.warning("Ray listens on every interface: %s", exc)
        print(f"genethello: warning: Ray will listen on every interface: {exc}", flush=True)
    else:
        try:
            start_reaper(original)      # nothing of the run outlives it, however it ends
        except (PrivateNetworkError, OSError) as exc:
            log.warning("no reaper for Ray's processes: %s", exc)
    os.environ["RAY_AUTH_MODE"] = "token"
    if not os.environ.get("RAY_AUTH_TOKEN"):
        os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
    os.environ.pop("RAY_ADDRESS", None)
    kwargs["address"] = "local"
    kwargs["_system_config"] = {"enable_metrics_collection": False}


def _available_cpus(ray: ModuleType, workers: int | None) -> int:
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(1, min(cpus, workers) if workers else cpus)


_Attempt = tuple[list[Any], int]
"""A batch of items and how often it was lost with its worker."""

_InFlight = dict["ObjectRef[tuple[list[Any], float]]", _Attempt]
"""The Ray tasks not yet handled: the reference to each one's result -> its attempt."""


class _RemoteBatch(Protocol):
    """``_run_remote`` as a Ray remote function: ``remote`` submits a batch
    and returns the reference to its outcomes and seconds at once."""

    def remote(self, fingerprint: str, task: ObjectRef[Task[Any, Any]], items: list[Any], /
               ) -> ObjectRef[tuple[list[Any], float]]: ...


class RayExecutor:
    """Runs batches as Ray tasks on the cluster that ``start_ray`` joined."""

    # Lost-worker errors after which a batch is played again elsewhere.
    MAX_RETRIES = 5

    def __init__(self, workers: int, task_seconds: float = 0.2, in_flight_per_worker: int = 2,
                 ray_retries: int = 3) -> None:
        """``ray_retries``: how often Ray itself re-runs a task lost with its
        worker before the error reaches us (and we re-queue the batch)."""
        import ray

        self._ray = ray
        self.workers = workers
        self.sizers = BatchSizers(task_seconds)
        self.max_in_flight = max(1, workers * in_flight_per_worker)
        self.fingerprint = core_fingerprint()
        # Ray retries tasks lost with their worker by itself (max_retries);
        # on top of that we re-queue batches whose result is lost for good.
        self._remote: _RemoteBatch = ray.remote(num_cpus=1, max_retries=ray_retries)(_run_remote)
        self.retried_batches = 0

    def _lost_worker_errors(self) -> tuple[type[BaseException], ...]:
        exc = self._ray.exceptions
        names = ("WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OwnerDiedError",
                 "ActorDiedError", "LocalRayletDiedError", "RaySystemError", "ObjectFetchTimedOutError")
        return tuple(getattr(exc, n) for n in names if hasattr(exc, n))

    def run(self, task: Task[ItemT, OutcomeT], next_batch: BatchSource,
            should_stop: Callable[[], bool]) -> Iterator[list[OutcomeT]]:
        ray = self._ray
        lost_errors = self._lost_worker_errors()
        sizer = self.sizers.for_task(task)
        task_ref = ray.put(task)       # pickled once; each batch travels alone
        in_flight: _InFlight = {}      # object ref -> (batch, attempts)
        retry: deque[_Attempt] = deque()
        exhausted = False
        while True:
            while not should_stop() and len(in_flight) < self.max_in_flight:
                if retry:
                    batch, attempts = retry.popleft()
                elif not exhausted:
                    batch, attempts = next_batch(sizer.size), 0
                    if not batch:
                        exhausted = True
                        continue
                else:
                    break
                ref = self._remote.remote(self.fingerprint, task_ref, batch)
                in_flight[ref] = (batch, attempts)
            if not in_flight:
                return
            done, _ = ray.wait(list(in_flight), num_returns=1, timeout=0.5)
            for ref in done:
                batch, attempts = in_flight.pop(ref)
                try:
                    outcomes, seconds = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = exc.cause if hasattr(exc, "cause") else None
                    if isinstance(cause, CoreMismatchError):
                        self._cancel(in_flight)
                        raise CoreMismatchError(str(cause)) from None
                    if isinstance(cause, lost_errors) and attempts < self.MAX_RETRIES:
                        self._requeue(retry, batch, attempts, cause)
                        continue
                    self._cancel(in_flight)
                    raise
                except lost_errors as exc:
                    if attempts >= self.MAX_RETRIES:
                        self._cancel(in_flight)
                        raise WorkerLostError(f"a batch of {len(batch)} games was lost {attempts + 1} times; "
                                              f"last error: {exc}") from exc
                    self._requeue(retry, batch, attempts, exc)
                    continue
                sizer.observe(len(batch), seconds)
                yield outcomes

    def _requeue(self, retry: deque[_Attempt], batch: list[Any], attempts: int, exc: BaseException) -> None:
        self.retried_batches += 1
        log.warning("a worker was lost (%s); playing its %d games again", type(exc).__name__, len(batch))
        retry.append((batch, attempts + 1))

    def _cancel(self, in_flight: _InFlight) -> None:
        for ref in in_flight:
            # a finished or lost task cannot be cancelled; nothing to do
            with contextlib.suppress(Exception):
                self._ray.cancel(ref, force=True)
        in_flight.clear()

    def close(self) -> None:
        pass
