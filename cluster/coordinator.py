"""The coordinator: drives one run generation by generation.

It is the only writer of the run's data, through its :class:`RunStore`. Each
step is one transaction and leaves the run in a state that ``resume``
continues from:

  playing  games are played and committed in batches; a resumed run plays
           only the pairs that have no committed game;
  rated    all games are in: Elo (applied in the schedule's canonical
           order), W/L/D, the Bradley-Terry fit and the rating history are
           written together; then the generation's champion enters the hall
           of fame and plays its members (games committed in batches, then
           every member rated together), then the yardstick, if due;
  bred     the next generation's population is written and started.

Every decision (population, openings, ratings, breeding) is a pure function
of the config, the seed and the stored results — :mod:`breeders`,
:mod:`pairing`, :mod:`rating_step` — so the database content does not
depend on the number of workers, their speed, or interruptions. This module
sequences them; :mod:`run_store` holds the SQL that writes, and rankings
come from the read side (:mod:`reads`) that the reports use too. Work goes
to the executor as typed tasks (:mod:`tasks`) and comes back as named
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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, TypeVar

from sqlalchemy import select

from genethello.cluster.breeders import RatedGeneration, breeder_for
from genethello.cluster.config import ClusterConfig, RunConfig, initial_members, measured_openings
from genethello.cluster.db import Database, RunNotFoundError
from genethello.cluster.db.lease import LeaseError, acquire_lease, release_lease, renew_lease
from genethello.cluster.db.models import Run
from genethello.cluster.executors import BatchSource, Executor, batches_of
from genethello.cluster.games import (
    GameOutcome,
    GameSettings,
    GameSpec,
    HallGameOutcome,
    HallGames,
    HallGameSpec,
    RoundRobinGames,
)
from genethello.cluster.hall import (
    entry_openings,
    entry_schedule,
    entry_specs,
    hall_order,
    hall_settings,
    rate_hall,
)
from genethello.cluster.network_run import NetworkSteps, is_network_run
from genethello.cluster.numerics import numeric_versions_json, pin_blas_threads
from genethello.cluster.origins import resolve
from genethello.cluster.pairing import RoundRobin
from genethello.cluster.population import generation_rng
from genethello.cluster.progress import Progress
from genethello.cluster.rating_step import rate_generation
from genethello.cluster.reads import HallEntry, RankedPlayer
from genethello.cluster.run_store import GameRow, HallGameRow, RunStore
from genethello.cluster.tasks import Task
from genethello.core.build_info import core_hash, package_version
from genethello.core.families import Individual, parse_individual
from genethello.core.frontend.wording import counted

log = logging.getLogger(__name__)

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")
Row = TypeVar("Row")

LEASE_TTL = 30.0

#: Measures a run's best so far: (config, the best so far, generation 1's
#: champion, executor, game settings, should_stop, a reporter of failed GTP
#: engines) -> scores with opponent, games, points, score and W/D/L result,
#: or None when stopped. :func:`genethello.cluster.yardstick.measure` is the
#: real one.
Yardstick = Callable[..., list | None]

__all__ = ["Coordinator", "RunExistsError", "RunNotFoundError", "create_run", "stop_file"]


class RunExistsError(ValueError):
    """A new run was asked for under a name that is taken."""


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
    from genethello.core.pattern_table import shared_table

    return shared_table().version


def read_chromosome_file(path: Path) -> list[Individual]:
    """The chromosomes of a file of chromosome texts, one a line (an initial
    population such as config/strong-best.txt, TYPE_BIRTH_GENES lines):
    blank lines and text after '#' are ignored. A run stores the texts when
    it is created (:func:`~genethello.cluster.config.initial_members`); this
    reads a file the user names.

    Raises:
        ValueError: naming the file and line of a chromosome that does not
            parse, or a file that cannot be read.
    """
    return [parse_individual(text) for text in initial_members(path)]


def individuals(players: Iterable) -> list[Individual]:
    """The individuals of stored players (anything with a ``text`` and a
    ``payload``), each parsed by its family with its stored payload (a
    network's weights; None for GeneThello)."""
    return [parse_individual(p.text, getattr(p, "payload", None)) for p in players]


def create_run(db: Database, config: RunConfig, name: str | None = None) -> int:
    """Insert a new run; returns its id.

    Raises:
        RunExistsError: if a run of that name exists.
    """
    name = name or config.name or "run"
    config = replace(config, name=name)
    with db.session() as s:
        if s.scalar(select(Run.id).where(Run.name == name)) is not None:
            raise RunExistsError(f"a run named {name!r} already exists in {db.path}; "
                                 "use 'genethello resume' or choose another --name")
        run = Run(name=name, config_json=config.to_json(), seed=config.seed, status="running",
                  software_version=package_version(), core_hash=core_hash(),
                  pattern_version=pattern_version_for(config), generation=0,
                  max_generations=config.stop.max_generations, converge_baseline=0,
                  numeric_versions=numeric_versions_json())
        s.add(run)
        s.flush()
        return run.id


@dataclass
class StopSignal:
    """Why the coordinator should stop at the next batch boundary."""

    reason: str | None = None

    def set(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason


class GenerationSteps(Protocol):
    """The steps of one generation that differ between families; each
    returns False where it stopped before its work was all stored."""

    def play(self, g: int) -> bool: ...
    def rate(self, g: int) -> None: ...
    def hall_due(self, g: int) -> bool: ...
    def hall_step(self, g: int) -> bool: ...
    def yardstick_due(self, g: int) -> bool: ...
    def measure(self, g: int) -> bool: ...
    def breed(self, g: int) -> None: ...


class GeneThelloSteps:
    """GeneThello's generation steps: the round robin's games stored one by
    one, Elo and the Bradley-Terry fit, the hall entry every generation, the
    yardstick of chromosomes, the GA or random search."""

    def __init__(self, coordinator: Coordinator) -> None:
        self.c = coordinator

    def play(self, g: int) -> bool:
        return self.c._play_generation(g)

    def rate(self, g: int) -> None:
        self.c._rate_generation(g)

    def hall_due(self, g: int) -> bool:
        return bool(self.c.config.hall.games_per_member) and not self.c.store.hall_rated(g)

    def hall_step(self, g: int) -> bool:
        return self.c._hall_step(g)

    def yardstick_due(self, g: int) -> bool:
        return self.c._yardstick_due(g)

    def measure(self, g: int) -> bool:
        self.c._measure_yardstick(g)
        return self.c.stop.reason is None

    def breed(self, g: int) -> None:
        self.c._breed(g)


class Coordinator:
    """Drives one run until it converges, reaches its last generation, or is
    asked to stop.

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
        self.ctype = self.config.chromosome_type
        self.P = self.config.population_size
        g = self.config.games
        # A run keeps the pattern table it was created with (runs.pattern_version):
        # resolving it here refuses a table file that changed under the run.
        patterns = ""
        if state.pattern_version:
            from genethello.core.pattern_table import resolve_version

            patterns = resolve_version(state.pattern_version)
        self.settings = GameSettings(self.config.seed, g.depth, g.exact_empties, g.random_plies,
                                     g.algorithm, g.tt_bits, patterns)

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
                if self.executor is None:
                    self.executor = self.make_executor(self.config.cluster)
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

        def handler(signum, _frame):
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
        if self.stop.reason is None and stop_file(self.db, self.run_id).exists():
            self.stop.set("stop requested")
            self.progress.message("stop requested: stopping after the games in flight")
        if time.monotonic() - self._last_renew > LEASE_TTL / 3:
            renew_lease(self.db, self.run_id, self.owner, ttl=LEASE_TTL)
            self._last_renew = time.monotonic()
        return self.stop.reason is not None

    # ----------------------------------------------------------------- loop
    def _loop(self) -> str:
        """One generation step after another, from wherever the run stands;
        the family's steps (GeneThello's stored games, or a network run's
        fitness points: :mod:`network_run`) fill in the sequence."""
        steps: GenerationSteps = NetworkSteps(self) if is_network_run(self) else GeneThelloSteps(self)
        while True:
            g, status = self.store.current_generation()
            if g == 0:
                self._start_first_generation()
                continue
            if status == "playing":
                if not steps.play(g):
                    return "stopped"
                steps.rate(g)
                continue
            if status == "rated":
                if steps.hall_due(g) and not steps.hall_step(g):
                    return "stopped"
                if steps.yardstick_due(g) and not steps.measure(g):
                    return "stopped"
                ending = self._ending(g)
                if ending:
                    return ending
                if self.should_stop():
                    return "stopped"
                steps.breed(g)
                continue
            raise RuntimeError(f"run {self.run_id}: generation {g} is in an unexpected state {status!r}")

    def _yardstick_due(self, g: int) -> bool:
        every = self.config.yardstick.every
        return self.yardstick is not None and every > 0 and (g % every == 0 or g == 1)

    def _ending(self, g: int) -> str | None:
        """'finished' at the last generation, 'converged' when the best has
        not changed for converge_generations generations (counted from the
        run's convergence baseline), else None."""
        max_generations, baseline = self.store.limits()
        if g >= max_generations:
            return "finished"
        n = self.config.stop.converge_generations
        if n <= 0 or g - n <= baseline:
            return None
        bests = self.store.bests(g - n, g)
        return "converged" if len(bests) == n + 1 and len(set(bests)) == 1 else None

    # ------------------------------------------------------ generation start
    def _start_first_generation(self) -> None:
        """Generation 1, as the run's breeder draws it (from the initial
        population stored with the run, if any: never from a file the
        database names)."""
        cfg = self.config
        if cfg.population.initial and not cfg.population.members:
            raise ValueError(f"run {self.run_id} names the file {cfg.population.initial!r} for its initial "
                             "population and does not hold its chromosomes (it was created before runs stored "
                             "them); genethello opens no file a database names: start the run afresh with "
                             "'genethello evolve --config FILE'")
        initial = [parse_individual(text) for text in cfg.population.members]
        bred = breeder_for(cfg.breeding).first_population(self.ctype, self.P, initial, generation_rng(cfg.seed, 1))
        self.store.start_generation(1, bred.members, cfg.rating.start, breeder_state=bred.state,
                                    games_total=0 if is_network_run(self) else None,
                                    origins=resolve(bred.origins, 1, ()))

    def population(self, g: int) -> list[tuple[int, str]]:
        """(player id, chromosome text) of generation g, in slot order."""
        return self.store.population(g)

    # --------------------------------------------------------------- playing
    def _play_generation(self, g: int) -> bool:
        """Play the generation's missing games; True when all are in.

        Workers return outcomes keyed by pair index; the pair's slots give
        the player ids."""
        members = self.store.population(g)
        pairs = RoundRobin(len(members))   # computed per index: nothing of size P² is built
        played = self.store.played_pairs(g)
        self.progress.start_generation(g, len(pairs), len(played), self.best_text())

        def missing_games():
            for i in range(len(pairs)):
                if i not in played:
                    b, w = pairs[i]   # a formula: computed once a game
                    yield GameSpec(g, i, members[b][1], members[w][1], b, w)

        def rows(outcomes: list[GameOutcome]) -> list[GameRow]:
            self.progress.advance(len(outcomes))
            found = []
            for o in outcomes:
                b, w = pairs[o.pair_index]
                found.append(GameRow(o.pair_index, members[b][0], members[w][0], o.score, o.black_discs,
                                     o.white_discs, o.moves, o.nodes))
            return found

        committed = self._play_and_commit(RoundRobinGames(self.settings), batches_of(missing_games()), rows,
                                          lambda batch: self.store.commit_games(g, batch))
        return len(played) + committed == len(pairs)

    def _play_and_commit(self, task: Task[Item, Outcome], next_batch: BatchSource,
                         rows: Callable[[list[Outcome]], list[Row]], commit: Callable[[list[Row]], int]) -> int:
        """Run ``task`` on what ``next_batch`` hands out on the executor and
        commit the ``rows`` of the outcomes in batched transactions (at most
        one every ``cluster.commit_every_seconds``, and the rest at the end,
        stopped or not). Returns how many new results ``commit`` stored."""
        buffer: list[Row] = []
        done = 0
        last_commit = time.monotonic()
        for outcomes in self.executor.run(task, next_batch, self.should_stop):
            buffer.extend(rows(outcomes))
            if time.monotonic() - last_commit >= self.config.cluster.commit_every_seconds:
                done += commit(buffer)
                buffer = []
                last_commit = time.monotonic()
        return done + commit(buffer)

    # ---------------------------------------------------------------- rating
    def _rate_generation(self, g: int) -> None:
        """Rate the generation (a pure step on its stored games) and store it."""
        members, games = self.store.rating_inputs(g)
        rating = rate_generation(members, games, start_rating=self.config.rating.start, k=self.config.rating.k)
        has_hall = self.config.hall.games_per_member > 0
        hall = self.store.hall_ranked(1) if has_hall else []
        self.store.store_rating(g, rating, self.config.storage.keep_moves_generations,
                                hall_best=hall[0].player_id if hall else None, has_hall=has_hall)
        # With a hall the best so far is decided by the hall step that follows,
        # which says it; saying the previous one here would name two bests.
        self.progress.message(f"generation {g} rated" if has_hall else
                              f"generation {g} rated: best so far {self.best_text()}")

    def best_text(self) -> str:
        if self.config.hall.games_per_member:
            hall = self.store.hall_ranked(1)
            if not hall:
                return "- (the hall of fame has no member yet)"
            return f"{hall[0].text} (hall {hall[0].rating:+.0f} ± {hall[0].stderr:.0f})"
        best = self.store.best()
        return "-" if best is None else f"{best.text} (Elo {best.elo:.0f})"

    # ------------------------------------------------------------------ hall
    def _hall_step(self, g: int) -> bool:
        """Generation g's champion (the top of its own round robin) enters
        the hall and plays the members before it; then every member is
        rated from all hall games, and the top becomes the best so far.
        False when stopped before the entry's games were all in (resume
        plays only the missing ones)."""
        champion = self.store.ranked_by_score(g)[0]
        entering = self.store.enter_hall(g, champion.player_id)
        members = self.store.hall_members()
        if entering:
            others = [m for m in members if m.player_id != champion.player_id]
            schedule = entry_schedule(len(others), self.config.hall.games_per_member)
            openings = entry_openings(hall_settings(self.settings), self.config.openings.series, g, schedule)
            specs = entry_specs(g, champion.text, [m.text for m in others], schedule, openings)
            ids = {m.text: m.player_id for m in members}
            if not self._play_hall_games(g, specs, ids):
                return False
        self.rate_hall_members(g, members, ", Elo vs generation 1's champion")
        return True

    def rate_hall_members(self, g: int, members: Sequence[HallEntry], scale: str = "") -> None:
        """Rate every hall member from all hall games, store the ratings
        with generation g and report the best so far (``scale``: what the
        log says the rating is relative to, after its error)."""
        ratings = rate_hall([m.player_id for m in members], self.store.hall_games())
        texts = {m.player_id: m.text for m in members}
        order = hall_order(ratings, {m.player_id: m.entered for m in members}, texts)
        self.store.store_hall_ratings(g, ratings, order)
        top = ratings[order[0]]
        self.progress.message(f"hall of fame after generation {g}: {counted(len(members), 'member')}; best so far "
                              f"{texts[order[0]]} (hall {top.rating:+.0f} ± {top.stderr:.0f}{scale})")

    def _play_hall_games(self, g: int, specs: list[HallGameSpec], ids: dict[str, int]) -> bool:
        played = self.store.played_hall_games(g)
        next_batch = batches_of(sp for sp in specs if sp.game_index not in played)
        by_index = {sp.game_index: sp for sp in specs}

        def rows(outcomes: list[HallGameOutcome]) -> list[HallGameRow]:
            found = []
            for o in outcomes:
                spec = by_index[o.game_index]
                found.append(HallGameRow(o.game_index, ids[spec.black], ids[spec.white], o.score, o.nodes))
            return found

        committed = self._play_and_commit(HallGames(hall_settings(self.settings)), next_batch, rows,
                                          lambda batch: self.store.commit_hall_games(g, batch))
        return len(played) + committed == len(specs)

    # ------------------------------------------------------------- yardstick
    def _measure_yardstick(self, g: int) -> None:
        """Measure the best so far against the gauntlet and store the scores
        (a generation already measured is not measured again)."""
        if self.store.yardstick_measured(g):
            return
        best = self.store.best()
        hall = self.store.hall_members()
        first = hall[0] if hall else self.store.ranked(1, generation=1)[0]
        config = replace(self.config, yardstick=replace(self.config.yardstick, gtp_engines=self.engines))
        try:
            scores = self.yardstick(config, best.chromosome(), first.chromosome(), self.executor, self.settings,
                                    self.should_stop,
                                    lambda name, exc: self.progress.message(
                                        f"yardstick: GTP engine {name!r} failed and is left out: {exc}"))
        except (ArithmeticError, ValueError) as exc:
            # A measurement reports on the run and decides nothing in it: one
            # that cannot be computed (a stored config's test beyond what the
            # code computes) is left out, and the run goes on and resumes.
            self.progress.message(f"yardstick at generation {g} failed and is left out: {' '.join(str(exc).split())}")
            return
        if scores is None:
            return
        self.store.store_yardstick(g, best.player_id, scores)
        if scores:
            how = measured_openings(self.config, self.config.yardstick.random_plies)
            self.progress.message(f"yardstick at generation {g} ({how}): {best.text}: "
                                  + "; ".join(f"{sc.opponent} {sc.result.text()}" for sc in scores))

    # --------------------------------------------------------------- breeding
    def _breed(self, g: int) -> None:
        """Breed generation g + 1 from rated generation g with the run's
        breeder (it alone decides how) and start it."""
        cfg = self.config
        if cfg.rating.selection == "score":
            ranked = self.store.ranked_by_score(g)
        else:
            ranked = self.store.ranked(self.P, generation=g)
        sources: list[HallEntry | RankedPlayer] = []
        if cfg.breeding.inject_top:
            # GeneThello's injection of the best of history: from the hall
            # when the run has one, else by Elo.
            hall = self.store.hall_ranked(cfg.breeding.inject_top) if cfg.hall.games_per_member else []
            sources = list(hall or self.store.ranked(cfg.breeding.inject_top))
            if cfg.breeding.inject_other_runs:
                others = self.store.other_halls(self.ctype.name, cfg.breeding.inject_top)
                sources += others or self.store.ranked(cfg.breeding.inject_top, other_runs_of_type=self.ctype.name)
        rated = RatedGeneration(g, self.ctype, individuals(ranked), individuals(sources), self.store.breeder_state(g))
        bred = breeder_for(cfg.breeding).next_population(rated, self.P, generation_rng(cfg.seed, g + 1))
        origins = resolve(bred.origins, g + 1, [p.player_id for p in ranked], [p.player_id for p in sources])
        self.store.start_generation(g + 1, bred.members, cfg.rating.start, breeder_state=bred.state, origins=origins)
