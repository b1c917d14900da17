"""The coordinator: drives one run generation by generation.

It is the only writer of the run's data. Each step is one transaction and
leaves the run in a state that ``resume`` continues from:

  playing  games are played and committed in batches; a resumed run plays
           only the pairs that have no committed game;
  rated    all games are in: Elo (applied in the schedule's canonical
           order), W/L/D, the Bradley-Terry fit and the rating history are
           written together; then the yardstick, if due;
  bred     the next generation's population is written and started.

Every decision (population, openings, breeding) is a function of the config,
the seed and the stored results, so the database content does not depend on
the number of workers, their speed, or interruptions.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from sqlalchemy import func, insert, select, update

from genethello.cluster.config import RunConfig, config_from_mapping
from genethello.cluster.db import Database
from genethello.cluster.db.lease import LeaseError, acquire_lease, release_lease, renew_lease
from genethello.cluster.db.models import Game, Generation, Player, PopulationSlot, RatingRecord, Run, utcnow
from genethello.cluster.elo import EloTable
from genethello.cluster.executors import Executor
from genethello.cluster.games import GameSettings, GameSpec
from genethello.cluster.pairing import round_robin_pairs
from genethello.cluster.population import first_population, generation_rng, next_population, rank_key
from genethello.cluster.progress import Progress
from genethello.cluster.tournament_rating import fit_bradley_terry
from genethello.core.build_info import core_hash, package_version
from genethello.core.chromosome import Chromosome

log = logging.getLogger(__name__)

LEASE_TTL = 30.0

#: A stored game's columns, in the order of the rows _commit_games inserts.
GAME_COLUMNS = ("run_id", "generation", "pair_index", "black_id", "white_id", "score", "black_discs",
                "white_discs", "moves", "nodes")
_INSERT_GAME = (f"INSERT INTO {Game.__tablename__} ({', '.join(GAME_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})")


class RunExistsError(ValueError):
    """A new run was asked for under a name that is taken."""


class RunNotFoundError(ValueError):
    """No run matches the given name or id."""


def stop_file(db: Database, run_id: int) -> Path:
    """The file whose presence asks the run's coordinator to stop (written by
    ``genethello stop``: the coordinator stays the only database writer)."""
    return db.path.with_name(f"{db.path.name}.stop-{run_id}")


def pattern_version_for(config: RunConfig) -> str | None:
    """The version of the pattern tables a run's players evaluate with, or
    None when its type does not use the pattern feature."""
    if "p" not in config.chromosome_type.letters:
        return None
    from genethello.core.pattern_learning import shared_table

    return shared_table().version


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
                  pattern_version=pattern_version_for(config), generation=0)
        s.add(run)
        s.flush()
        return run.id


def find_run(db: Database, run: str | int | None) -> Run:
    """A run by name or id; the newest run when ``run`` is None.

    Raises:
        RunNotFoundError: naming what was looked for.
    """
    with db.session() as s:
        if run is None:
            found = s.scalars(select(Run).order_by(Run.id.desc()).limit(1)).first()
            if found is None:
                raise RunNotFoundError(f"{db.path} holds no runs yet")
        else:
            found = s.scalars(select(Run).where(Run.name == str(run))).first()
            if found is None and str(run).isdigit():
                found = s.get(Run, int(run))
            if found is None:
                raise RunNotFoundError(f"no run named or numbered {run!r} in {db.path}")
        s.expunge(found)
        return found


@dataclass
class StopSignal:
    """Why the coordinator should stop at the next batch boundary."""

    reason: str | None = None

    def set(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason


class Coordinator:
    """Drives one run until it converges, reaches its last generation, or is
    asked to stop.

    Args:
        db: the run database.
        run_id: the run to drive.
        executor: where games are played.
        progress: progress reporting.
        yardstick: called as yardstick(coordinator, generation) when one is
            due (None: no yardstick).
    """

    def __init__(self, db: Database, run_id: int, executor: Executor, progress: Progress | None = None,
                 yardstick: Callable[["Coordinator", int], None] | None = None) -> None:
        self.db = db
        self.run_id = run_id
        self.executor = executor
        self.progress = progress or Progress(enabled=False)
        self.yardstick = yardstick
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.stop = StopSignal()
        self._last_renew = 0.0
        with db.session() as s:
            data = json.loads(s.get(Run, run_id).config_json)
        # 'converge_baseline' is the coordinator's own key (written by resume
        # of a converged run, read by _convergence_baseline), not a config key.
        data.pop("converge_baseline", None)
        self.config = config_from_mapping(data, source="stored run config")
        self.ctype = self.config.chromosome_type
        self.P = self.config.population_size
        g = self.config.games
        self.settings = GameSettings(self.config.seed, g.depth, g.exact_empties, g.random_plies,
                                     g.algorithm, g.tt_bits)

    # ------------------------------------------------------------ lifecycle
    def run(self) -> str:
        """Drive the run; returns its status at the end ('stopped',
        'converged' or 'finished').

        Raises:
            LeaseHeldError: if another coordinator drives this run.
        """
        acquire_lease(self.db, self.run_id, self.owner, ttl=LEASE_TTL)
        self._last_renew = time.monotonic()
        restore = self._install_signal_handlers()
        try:
            stop_path = stop_file(self.db, self.run_id)
            stop_path.unlink(missing_ok=True)
            self._set_status("running")
            try:
                status = self._loop()
            except Exception as exc:
                self._mark_failed(exc)
                raise
            self._set_status(status)
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
            self._set_status("failed")
        except Exception as inner:
            log.warning("could not mark the run failed: %s", inner)

    def _install_signal_handlers(self) -> Callable[[], None]:
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous = {}

        def handler(signum, _frame):
            self.stop.set(signal.Signals(signum).name)
            self.progress.message(f"{signal.Signals(signum).name}: stopping after the games in flight "
                                  "(resume continues from there)")

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

    def _set_status(self, status: str) -> None:
        with self.db.session() as s:
            s.execute(update(Run).where(Run.id == self.run_id).values(status=status, updated_at=utcnow()))

    # ----------------------------------------------------------------- loop
    def _loop(self) -> str:
        while True:
            with self.db.session() as s:
                g = s.get(Run, self.run_id).generation
                gen = s.get(Generation, (self.run_id, g)) if g else None
                status = gen.status if gen else None
            if g == 0:
                self._start_first_generation()
                continue
            if status == "playing":
                if not self._play_generation(g):
                    return "stopped"
                self._rate_generation(g)
                continue
            if status == "rated":
                if self._yardstick_due(g):
                    self.yardstick(self, g)
                    if self.stop.reason:
                        return "stopped"
                ending = self._ending(g)
                if ending:
                    return ending
                if self.should_stop():
                    return "stopped"
                self._breed(g)
                continue
            raise RuntimeError(f"run {self.run_id}: generation {g} is in an unexpected state {status!r}")

    def _yardstick_due(self, g: int) -> bool:
        every = self.config.yardstick.every
        return self.yardstick is not None and every > 0 and (g % every == 0 or g == 1)

    def _ending(self, g: int) -> str | None:
        """'finished' at the last generation, 'converged' when the best has
        not changed for converge_generations generations, else None."""
        stop = self.config.stop
        if g >= stop.max_generations:
            return "finished"
        n = stop.converge_generations
        if n <= 0:
            return None
        baseline = self._convergence_baseline()
        if g - n <= baseline:
            return None
        with self.db.session() as s:
            bests = s.scalars(select(Generation.best_player_id)
                              .where(Generation.run_id == self.run_id, Generation.number > g - n - 1,
                                     Generation.number <= g)).all()
        return "converged" if len(bests) == n + 1 and len(set(bests)) == 1 else None

    def _convergence_baseline(self) -> int:
        with self.db.session() as s:
            data = json.loads(s.get(Run, self.run_id).config_json)
        return int(data.get("converge_baseline", 0))

    # ------------------------------------------------------ generation start
    def _start_first_generation(self) -> None:
        initial = []
        if self.config.population.initial:
            path = Path(self.config.population.initial)
            lines = [ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
            initial = [Chromosome.parse(ln) for ln in lines]
        members = first_population(self.ctype, self.P, self.config.seed, initial)
        with self.db.session(immediate=True) as s:
            self._write_population(s, 1, members)

    def _write_population(self, s, g: int, members: list[Chromosome]) -> None:
        """Players (new ones at the start rating), slots, the generation row,
        and the run's generation counter, in the caller's transaction."""
        texts = [str(c) for c in members]
        existing = dict(s.execute(select(Player.text, Player.id)
                                  .where(Player.run_id == self.run_id, Player.text.in_(texts))).all())
        for c, text in zip(members, texts):
            if text not in existing:
                player = Player(run_id=self.run_id, text=text, ctype=c.type.name, birth=c.birth,
                                genes=":".join(map(str, c.genes)), elo=self.config.rating.start)
                s.add(player)
                s.flush()
                existing[text] = player.id
        s.execute(insert(PopulationSlot), [
            {"run_id": self.run_id, "generation": g, "slot": i, "player_id": existing[t]}
            for i, t in enumerate(texts)])
        s.execute(update(Player).where(Player.id.in_(list(existing.values()))).values(death=g))
        s.add(Generation(run_id=self.run_id, number=g, started_at=utcnow(), status="playing",
                         games_total=len(members) * (len(members) - 1), games_done=0))
        s.execute(update(Run).where(Run.id == self.run_id).values(generation=g, updated_at=utcnow()))

    def population(self, g: int) -> list[tuple[int, str]]:
        """(player id, chromosome text) of generation g, in slot order."""
        with self.db.session() as s:
            return [tuple(row) for row in s.execute(
                select(Player.id, Player.text).join(PopulationSlot, PopulationSlot.player_id == Player.id)
                .where(PopulationSlot.run_id == self.run_id, PopulationSlot.generation == g)
                .order_by(PopulationSlot.slot)).all()]

    # --------------------------------------------------------------- playing
    def _play_generation(self, g: int) -> bool:
        """Play the generation's missing games; True when all are in."""
        members = self.population(g)
        id_of_text = {text: pid for pid, text in members}
        pairs = round_robin_pairs(list(range(len(members))))
        with self.db.session() as s:
            played = set(s.scalars(select(Game.pair_index)
                                   .where(Game.run_id == self.run_id, Game.generation == g)).all())
        pending = iter([i for i in range(len(pairs)) if i not in played])
        self.progress.start_generation(g, len(pairs), len(played), self.best_text())

        def next_batch(size: int) -> list[GameSpec]:
            batch = []
            for index in pending:
                b, w = pairs[index]
                batch.append(GameSpec(g, index, members[b][1], members[w][1], b, w))
                if len(batch) >= size:
                    break
            return batch

        buffer: list[tuple] = []
        last_commit = time.monotonic()
        done = len(played)
        run_id = self.run_id
        for outcomes in self.executor.run(self.settings, next_batch, self.should_stop):
            buffer += [(run_id, g, o.pair_index, id_of_text[o.black], id_of_text[o.white], o.score,
                        o.black_discs, o.white_discs, o.moves, o.nodes) for o in outcomes]
            self.progress.advance(len(outcomes))
            if time.monotonic() - last_commit >= self.config.cluster.commit_every_seconds:
                done += self._commit_games(g, buffer)
                buffer = []
                last_commit = time.monotonic()
        done += self._commit_games(g, buffer)
        return done == len(pairs)

    def _commit_games(self, g: int, rows: list[tuple]) -> int:
        """Insert a batch of results (tuples in GAME_COLUMNS order) in one
        transaction; a pair already stored (a batch retried after a lost
        worker) is skipped, never counted twice.

        The rows go to the driver's executemany as they are: the ORM's bulk
        insert costs several microseconds a row, the ingest rate of a
        generation of instant games."""
        if not rows:
            return 0
        games = Game.__table__
        with self.db.session(immediate=True) as s:
            conn = s.connection()
            indices = [r[2] for r in rows]
            stored = set(conn.execute(select(games.c.pair_index).where(
                games.c.run_id == self.run_id, games.c.generation == g,
                games.c.pair_index.between(min(indices), max(indices)))).scalars())
            fresh = {r[2]: r for r in rows if r[2] not in stored}
            if fresh:
                conn.exec_driver_sql(_INSERT_GAME, list(fresh.values()))
                s.execute(update(Generation).where(Generation.run_id == self.run_id, Generation.number == g)
                          .values(games_done=Generation.games_done + len(fresh)))
        return len(fresh)

    # ---------------------------------------------------------------- rating
    def _rate_generation(self, g: int) -> None:
        """Elo in canonical schedule order, W/L/D, Bradley-Terry, history."""
        cfg = self.config
        with self.db.session(immediate=True) as s:
            members = s.execute(
                select(Player).join(PopulationSlot, PopulationSlot.player_id == Player.id)
                .where(PopulationSlot.run_id == self.run_id, PopulationSlot.generation == g)
                .order_by(PopulationSlot.slot)).scalars().all()
            games = s.execute(select(Game.black_id, Game.white_id, Game.score)
                              .where(Game.run_id == self.run_id, Game.generation == g)
                              .order_by(Game.pair_index)).all()
            table = EloTable(start_rating=cfg.rating.start, k=cfg.rating.k)
            record = {p.id: [0, 0, 0] for p in members}
            for p in members:
                table.add(p.id, p.elo)
            results = []
            for black, white, score in games:
                points = 1.0 if score > 0 else (0.5 if score == 0 else 0.0)
                table.update(black, white, points)
                results.append((black, white, points))
                for pid, own in ((black, points), (white, 1.0 - points)):
                    record[pid][0 if own == 1.0 else (2 if own == 0.5 else 1)] += 1
            fit = fit_bradley_terry([p.id for p in members], results)
            for p in members:
                w, l, d = record[p.id]
                p.elo = table.rating(p.id)
                p.wins += w
                p.losses += l
                p.draws += d
                p.death = g
                s.add(RatingRecord(run_id=self.run_id, generation=g, player_id=p.id, elo=p.elo,
                                   bt_rating=fit[p.id].rating, bt_stderr=fit[p.id].stderr,
                                   wins=w, losses=l, draws=d))
            s.flush()
            best = self._best_player(s)
            elos = [p.elo for p in members]
            gen = s.get(Generation, (self.run_id, g))
            gen.status = "rated"
            gen.finished_at = utcnow()
            gen.best_player_id = best.id
            gen.mean_elo = sum(elos) / len(elos)
            gen_best = max(members, key=lambda p: (p.elo, -p.birth))
            gen.stats_json = json.dumps({
                "max_elo": max(elos), "min_elo": min(elos), "generation_best": gen_best.text,
                "generation_best_elo": gen_best.elo, "games": len(games),
                "black_wins": sum(1 for r in results if r[2] == 1.0),
                "draws": sum(1 for r in results if r[2] == 0.5),
            }, sort_keys=True)
            self._apply_retention(s, g)
        self.progress.message(f"generation {g} rated: best so far {self.best_text()}")

    def _best_player(self, s) -> Player:
        players = s.scalars(select(Player).where(Player.run_id == self.run_id)).all()
        return min(players, key=lambda p: rank_key(p.elo, Chromosome.parse(p.text)))

    def best_text(self) -> str:
        with self.db.session() as s:
            if s.scalar(select(func.count()).select_from(Player).where(Player.run_id == self.run_id)) == 0:
                return "-"
            best = self._best_player(s)
            return f"{best.text} (Elo {best.elo:.0f})"

    def _apply_retention(self, s, g: int) -> None:
        """Drop move lists older than keep_moves_generations, except the games
        of each generation's best player (results are always kept)."""
        keep = self.config.storage.keep_moves_generations
        if keep <= 0 or g - keep < 1:
            return
        old = g - keep
        best = s.scalar(select(Generation.best_player_id).where(Generation.run_id == self.run_id,
                                                               Generation.number == old))
        s.execute(update(Game).where(Game.run_id == self.run_id, Game.generation == old,
                                     Game.black_id != best, Game.white_id != best).values(moves=None))

    # --------------------------------------------------------------- breeding
    def ranked_history(self, s, limit: int) -> list[Chromosome]:
        players = s.scalars(select(Player).where(Player.run_id == self.run_id)).all()
        chosen = sorted(players, key=lambda p: rank_key(p.elo, Chromosome.parse(p.text)))[:limit]
        return [Chromosome.parse(p.text) for p in chosen]

    def _breed(self, g: int) -> None:
        cfg = self.config
        with self.db.session(immediate=True) as s:
            members = s.execute(
                select(Player.text, Player.elo).join(PopulationSlot, PopulationSlot.player_id == Player.id)
                .where(PopulationSlot.run_id == self.run_id, PopulationSlot.generation == g)).all()
            ranked = sorted((Chromosome.parse(t) for t, _ in members),
                            key=lambda c, elo={t: e for t, e in members}: rank_key(elo[str(c)], c))
            injected = self.ranked_history(s, cfg.breeding.inject_top) if cfg.breeding.inject_top else []
            if cfg.breeding.inject_other_runs and cfg.breeding.inject_top:
                injected += self._best_of_other_runs(s, cfg.breeding.inject_top)
            new = next_population(ranked, self.P, g + 1, cfg.breeding, generation_rng(cfg.seed, g + 1), injected)
            s.get(Generation, (self.run_id, g)).status = "bred"
            self._write_population(s, g + 1, new)

    def _best_of_other_runs(self, s, limit: int) -> list[Chromosome]:
        rows = s.execute(select(Player.text, Player.elo).where(Player.run_id != self.run_id,
                                                               Player.ctype == self.ctype.name)).all()
        chosen = sorted(rows, key=lambda r: rank_key(r[1], Chromosome.parse(r[0])))[:limit]
        return [Chromosome.parse(t) for t, _ in chosen]
