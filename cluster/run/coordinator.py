"""The coordinator: drives one run generation by generation.

It is the only writer of the run's data, through its :class:`RunStore`, and
the only process that drives it: it holds the run's lease, answers signals
and ``genethello stop``, starts the executor, and runs the breeder's work
for the workers. What a generation does, step by step and in order (start,
play, rate, hall, measure, breed), is
:mod:`~genethello.cluster.run.generation`'s, which reaches the run through
this module's :class:`Coordinator` (its
:class:`~genethello.cluster.run.generation.RunHandle`). Each step is one
transaction (or batched ones, for games) and leaves the run in a state
that ``resume`` continues from.

Every decision (population, openings, ratings, breeding) is a pure function
of the config, the seed and the stored results, so the database content
does not depend on the number of workers, their speed, or interruptions.
:mod:`run_store` holds the SQL that writes, and rankings come from the read
side (:mod:`reads`) that the reports use too. Work goes to the executor as
typed tasks (:mod:`genethello.cluster.work`) and comes back as named
records.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import TypeVar

from genethello.cluster.breeding.breeders import Breeder, breeder_for
from genethello.cluster.breeding.numerics import numeric_versions_json, pin_blas_threads
from genethello.cluster.breeding.population import generation_rng
from genethello.cluster.breeding.protocols import Bred, RatedGeneration
from genethello.cluster.config import ClusterConfig, RunConfig, initial_members
from genethello.cluster.db import Database, RunNotFoundError
from genethello.cluster.db.lease import LeaseError, acquire_lease, release_lease, renew_lease
from genethello.cluster.fitness.games import GameSettings
from genethello.cluster.reads.anchor import rating_anchor
from genethello.cluster.run.generation import Generation, Yardstick
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_store import RunExistsError, RunStore, insert_run
from genethello.cluster.work import BatchSource, Executor, Task, run_all
from genethello.core.engine.build_info import core_hash, package_version
from genethello.core.families.registry import Individual, Kind, parse_individual

log = logging.getLogger(__name__)

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")
Row = TypeVar("Row")

LEASE_TTL = 30.0

__all__ = ["Coordinator", "RunExistsError", "RunNotFoundError", "Yardstick", "create_run", "stop_file"]


def stop_file(db: Database, run_id: int) -> Path:
    """The file whose presence asks the run's coordinator to stop (written by
    ``genethello stop``: the coordinator stays the only database writer)."""
    return db.path.with_name(f"{db.path.name}.stop-{run_id}")


def pattern_version_for(config: RunConfig) -> str | None:
    """The version of the pattern tables a new run's players evaluate with
    (the newest installed), or None when its type does not use the pattern
    feature."""
    if not config.chromosome_type.uses_pattern_table:
        return None
    from genethello.core.evaluation.pattern_table import shared_table

    return shared_table().version


def read_chromosome_file(path: Path) -> list[Individual]:
    """The chromosomes of a file of chromosome texts, one a line (an initial
    population such as config/strong-best.txt, TYPE_BIRTH_GENES lines):
    blank lines and text after '#' are ignored. A run stores the texts when
    its config is loaded (:func:`~genethello.cluster.config.initial_members`);
    this reads a file the user names.

    Raises:
        ValueError: naming the file and line of a chromosome that does not
            parse, or a file that cannot be read.
    """
    return [parse_individual(text) for text in initial_members(path)]


def create_run(db: Database, config: RunConfig, name: str | None = None) -> int:
    """Insert a new run; returns its id.

    Raises:
        RunExistsError: if a run of that name exists.
    """
    return insert_run(db, config, name or config.name or "run", software_version=package_version(),
                      core_hash=core_hash(), pattern_version=pattern_version_for(config),
                      numeric_versions=numeric_versions_json())


class StopSignal:
    """Why the coordinator should stop at the next batch boundary."""

    def __init__(self) -> None:
        self.reason: str | None = None

    def set(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason


class Coordinator:
    """Drives one run until it converges, reaches its last generation, or is
    asked to stop.

    A generation's steps and their order are
    :class:`~genethello.cluster.run.generation.Generation`'s, which reaches
    the run through this object's public face (a
    :class:`~genethello.cluster.run.generation.RunHandle`).

    Args:
        db: the run database.
        run_id: the run to drive.
        executor: where games are played; or None with ``make_executor``.
        progress: progress reporting.
        yardstick: measures the best so far when a yardstick is due (None:
            no yardstick); the coordinator stores what it returns.
        make_executor: builds the executor from the run's cluster settings
            once the lease is held (so a refused coordinator starts no
            workers).
        engines: the external GTP engines the yardstick may start: only
            what the invoking user named (see :mod:`engine_consent`), never
            what the database says.
    """

    def __init__(self, db: Database, run_id: int, executor: Executor | None, progress: Progress | None = None,
                 yardstick: Yardstick | None = None,
                 make_executor: Callable[[ClusterConfig], Executor] | None = None,
                 engines: Sequence[str] = ()) -> None:
        self.db = db
        self.run_id = run_id
        self.store = RunStore(db, run_id)
        self.executor = executor
        self.make_executor = make_executor
        self.progress = progress or Progress(enabled=False)
        self.yardstick = yardstick
        self.engines = tuple(engines)
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.stop = StopSignal()
        self._last_renew = 0.0
        state = self.store.state()
        self.config = state.config
        self.kind: Kind = self.config.chromosome_type
        self.population_size = self.config.population_size
        self.breeder: Breeder = breeder_for(self.config.breeding)
        # A run keeps the pattern table it was created with (runs.pattern_version):
        # resolving it here refuses a table file that changed under the run.
        patterns = ""
        if state.pattern_version:
            from genethello.core.evaluation.pattern_table import resolve_version

            patterns = resolve_version(state.pattern_version)
        self.settings = GameSettings.for_run(self.config.seed, self.config.games, patterns)

    # ------------------------------------------------------------ lifecycle
    def run(self, extend_to: int | None = None, drop_engines: Sequence[str] = (),
            accept_core: str | None = None, accept_numerics: str | None = None) -> str:
        """Drive the run; returns its status at the end ('stopped',
        'converged' or 'finished').

        Args:
            extend_to: make this the run's last generation first (``resume
                --max-generations``); written only once the lease is held.
            drop_engines: external engines the user chose to go on without
                (``resume --drop-engine``), recorded once the lease is held.
            accept_core: the installed core's hash, when the user accepted
                that it differs from the run's (``resume
                --allow-core-change``); recorded once the lease is held.
            accept_numerics: the installed numpy/cmaes versions (JSON), when
                the user accepted that they differ from the run's (``resume
                --allow-numeric-change``); recorded once the lease is held.

        Raises:
            LeaseHeldError: if another coordinator drives this run (nothing
                was written then).
        """
        acquire_lease(self.db, self.run_id, self.owner, ttl=LEASE_TTL)
        pin_blas_threads()   # the breeders' numerics round the same on every machine
        self._last_renew = time.monotonic()
        restore = self._install_signal_handlers()
        try:
            if extend_to is not None:
                self.store.extend(extend_to)
            if drop_engines:
                self.store.drop_engines(drop_engines)
            if accept_core is not None:
                self.store.change_core(accept_core)
            if accept_numerics is not None:
                self.store.change_numerics(accept_numerics)
            stop_path = stop_file(self.db, self.run_id)
            stop_path.unlink(missing_ok=True)
            self.store.set_status("running")
            try:
                self.executor_now()
                status = self._loop()
            except KeyboardInterrupt:
                self.store.set_status("stopped")     # a second signal: what is committed resumes
                raise
            except Exception as exc:
                self._mark_failed(exc)
                raise
            self.store.set_status(status)
            return status
        finally:
            restore()
            self.progress.close()
            try:
                release_lease(self.db, self.run_id, self.owner)
            except Exception as exc:  # releasing is best effort: the lease expires anyway
                log.warning("could not release the lease: %s", exc)

    def executor_now(self) -> Executor:
        """The run's executor, built from its cluster settings on first use
        (once the lease is held: a refused coordinator starts no workers)."""
        if self.executor is None:
            if self.make_executor is None:
                raise RuntimeError("the coordinator has neither an executor nor a way to make one")
            self.executor = self.make_executor(self.config.cluster)
        return self.executor

    def _mark_failed(self, exc: Exception) -> None:
        """Record that the run ended with an error (best effort), unless the
        lease was lost: then another coordinator drives the run."""
        if isinstance(exc, LeaseError):
            return
        try:
            self.store.set_status("failed")
        except Exception as inner:
            log.warning("could not mark the run failed: %s", inner)

    def _install_signal_handlers(self) -> Callable[[], None]:
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous = {}
        received: list[str] = []

        def handler(signum: int, _frame: FrameType | None) -> None:
            name = signal.Signals(signum).name
            received.append(name)
            if len(received) > 1:
                # The second signal stops at once, as Ctrl-C twice does: a deep
                # game in flight may take hours. What is committed stays.
                self.progress.message(f"{name} again: stopping now; the games in flight are dropped "
                                      "(resume plays them again)")
                raise KeyboardInterrupt(name)
            self.stop.set(name)
            self.progress.message(f"{name}: stopping after the games in flight (resume continues from there; "
                                  "a second signal stops at once)")

        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, handler)

        def restore() -> None:
            for sig, old in previous.items():
                signal.signal(sig, old)
        return restore

    def should_stop(self) -> bool:
        """Whether the run was asked to stop (a signal or ``genethello
        stop``'s file); renews the lease when a third of it has passed."""
        if self.stop.reason is None and stop_file(self.db, self.run_id).exists():
            self.stop.set("stop requested")
            self.progress.message("stop requested: stopping after the games in flight")
        if time.monotonic() - self._last_renew > LEASE_TTL / 3:
            renew_lease(self.db, self.run_id, self.owner, ttl=LEASE_TTL)
            self._last_renew = time.monotonic()
        return self.stop.reason is not None

    @property
    def stopped(self) -> bool:
        """Whether a stop was asked for already (without looking again)."""
        return self.stop.reason is not None

    # ----------------------------------------------------------------- loop
    def _loop(self) -> str:
        """One generation step after another, from wherever the run stands
        (:class:`~genethello.cluster.run.generation.Generation` says which
        and in what order), until the run ends."""
        generation = Generation(self)
        while True:
            g, status = self.store.current_generation()
            ending = generation.advance(g, status)
            if ending:
                return ending

    def population(self, g: int) -> list[tuple[int, str]]:
        """(player id, chromosome text) of generation g, in slot order."""
        return self.store.population(g)

    # ------------------------------------------------------ the shared steps
    def play_and_commit(self, task: Task[Item, Outcome], next_batch: BatchSource,
                        rows: Callable[[list[Outcome]], list[Row]], commit: Callable[[list[Row]], int]) -> int:
        """Run ``task`` on what ``next_batch`` hands out on the executor and
        commit the ``rows`` of the outcomes in batched transactions (at most
        one every ``cluster.commit_every_seconds``, and the rest at the end,
        stopped or not). Returns how many new results ``commit`` stored."""
        buffer: list[Row] = []
        done = 0
        last_commit = time.monotonic()
        for outcomes in self.executor_now().run(task, next_batch, self.should_stop):
            buffer.extend(rows(outcomes))
            if time.monotonic() - last_commit >= self.config.cluster.commit_every_seconds:
                done += commit(buffer)
                buffer = []
                last_commit = time.monotonic()
        return done + commit(buffer)

    def next_generation(self, rated: RatedGeneration) -> Bred | None:
        """The breeder's generation ``rated.number + 1``: its plan made here
        (from the generation's Generator), the plan's work, if any, run on
        the executor, and the outcomes handed back to the breeder. None
        when stopped before the work was all in (nothing is stored: the
        step is redone on resume, to the same members)."""
        plan = self.breeder.next_plan(rated, self.population_size, generation_rng(self.config.seed, rated.number + 1))
        if plan.task is None or not plan.items:
            return plan.finish([])
        if plan.says:
            self.progress.message(plan.says)
        outcomes = run_all(self.executor_now(), plan.task, plan.items, self.should_stop)
        return None if outcomes is None else plan.finish(outcomes)

    def best_text(self) -> str:
        """The best so far as the progress line names it: the hall's top
        with its rating, else the top Elo."""
        if self.config.hall.games_per_member:
            hall = self.store.hall_ranked(1)
            if not hall:
                return "- (the hall of fame has no member yet)"
            return (f"{hall[0].text} (hall {hall[0].rating:+.0f} ± {hall[0].stderr:.0f}, "
                    f"{rating_anchor(self.config).text()})")
        best = self.store.best()
        return "-" if best is None else f"{best.text} (Elo {best.elo:.0f})"
