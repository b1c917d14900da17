"""The coordinator's bookkeeping: the write side of one run, and the reads
its steps need as inputs.

The coordinator decides (what to play, how to rate, whom to breed) with pure
functions and calls a :class:`RunStore` to read their inputs and store their
results; all SQL that writes a run lives here. Each writing method is one
transaction (BEGIN IMMEDIATE), and each leaves the run in a state that
``resume`` continues from. Results arrive as named records
(:class:`GameRow`, :class:`HallGameRow`), never as bare tuples.

Rankings (the best so far, the hall, the best by Elo or by score) are asked
of :mod:`genethello.cluster.reads`, the one read side that the reports and
the web page call too; the methods here that answer them only pass the
run's id along.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple, Protocol, TypeVar

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session

from genethello.cluster import reads
from genethello.cluster.breeding.origins import REENTERED, StoredOrigin
from genethello.cluster.config import RunConfig
from genethello.cluster.db import Database
from genethello.cluster.db.models import (
    FitnessResult,
    Game,
    Generation,
    HallGame,
    HallMember,
    HallRating,
    PlayerRow,
    PopulationSlot,
    RatingRecord,
    Run,
    YardstickResult,
    utcnow,
)
from genethello.cluster.db.played_chains import CHAIN_LIMIT, chain_depth, chained_payload, resolved_payload
from genethello.cluster.fitness.rating_step import GenerationRating, Member, PlayedGame
from genethello.cluster.fitness.tournament_rating import RatingEstimate
from genethello.cluster.measures.hall import HallGameResult
from genethello.cluster.reads import HallEntry, RankedPlayer, RunState
from genethello.cluster.reads.ranking import BEST_FIRST
from genethello.cluster.run.run_check import check_run_config
from genethello.core.families.registry import Individual, family_of, parse_individual
from genethello.core.frontend.errors import UserError
from genethello.core.play.scoring import MatchScore

#: Breeding methods whose past members are stored as the integers they play
#: (:meth:`RunStore.stores_played`).
PLAYED_METHODS = frozenset({"pbt-td"})
#: How many generations after its last a member is stored played: its
#: generation's hall entry and the next breeding have read it by then.
PLAYED_AFTER = 2

class GameRow(NamedTuple):
    """A round-robin game of one generation as stored: its field names are
    the ``games`` columns after the run and the generation, in the order
    the insert names them (a NamedTuple: a batch reaches the driver's
    executemany without conversion)."""

    pair_index: int
    black_id: int
    white_id: int
    score: int            # Black's final margin, empties to the winner
    black_discs: int
    white_discs: int
    moves: str | None
    nodes: int


#: Generations whose breeder state is kept (the newest ones)...
BREEDER_STATES_KEPT = 2
#: ... unless it is this small or smaller: pbt-td's hyperparameters (a few
#: hundred bytes, the lineage of its perturbations) are kept with every
#: generation; a CMA-ES state (megabytes) is not.
SMALL_BREEDER_STATE_BYTES = 64 * 1024


class FitnessRow(NamedTuple):
    """A fitness task's result as stored: the points of every member slot
    (float64 little-endian bytes) and the games the task played."""

    task_index: int
    points: bytes
    games: int


class HallGameRow(NamedTuple):
    """A hall game as stored (its generation is the entry's)."""

    game_index: int
    black_id: int
    white_id: int
    score: int
    nodes: int


class _JsonRecord(Protocol):
    def to_json(self) -> dict[str, object]: ...


class StoredScore(Protocol):
    """What :meth:`RunStore.store_yardstick` reads of a score
    (:class:`~genethello.cluster.measures.yardstick.YardstickScore`)."""

    @property
    def opponent(self) -> str: ...
    @property
    def result(self) -> MatchScore: ...
    @property
    def sprt(self) -> _JsonRecord | None: ...
    @property
    def games(self) -> int: ...
    @property
    def points(self) -> float: ...
    @property
    def score(self) -> float: ...


_Row = TypeVar("_Row")


def _get(s: Session, model: type[_Row], key: object) -> _Row:
    """The row of ``model`` with primary key ``key``, which the run's
    bookkeeping knows to exist (LookupError if it does not)."""
    row = s.get(model, key)
    if row is None:
        raise LookupError(f"no {model.__name__} row {key!r}")
    return row


#: A stored game's columns: the run, the generation, then GameRow's fields.
GAME_COLUMNS = ("run_id", "generation", *GameRow._fields)
_INSERT_GAME = (f"INSERT INTO {Game.__tablename__} ({', '.join(GAME_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})")


RowT = TypeVar("RowT")


def _not_stored(rows: Sequence[RowT], stored: set[int], key: Callable[[RowT], int]) -> list[RowT]:
    """The rows whose key is not stored yet, each key once (a batch played
    again after a lost worker may repeat a result), in the order of each
    key's first row (the last row of a key is the one kept, as a dict keeps it)."""
    fresh: dict[int, RowT] = {}
    for row in rows:
        if key(row) not in stored:
            fresh[key(row)] = row
    return list(fresh.values())


class RunExistsError(UserError):
    """A new run was asked for under a name that is taken."""


def insert_run(db: Database, config: RunConfig, name: str, *, software_version: str, core_hash: str,
               pattern_version: str | None, numeric_versions: str) -> int:
    """Insert a new run named ``name`` (its stored config carries the name)
    at generation 0; returns its id.

    Raises:
        RunExistsError: if a run of that name exists.
    """
    config = replace(config, name=name)
    with db.session() as s:
        if s.scalar(select(Run.id).where(Run.name == name)) is not None:
            raise RunExistsError(f"a run named {name!r} already exists in {db.path}; "
                                 "use 'genethello resume' or choose another --name")
        run = Run(name=name, config_json=config.to_json(), seed=config.seed, status="running",
                  software_version=software_version, core_hash=core_hash, pattern_version=pattern_version,
                  generation=0, max_generations=config.stop.max_generations, converge_baseline=0,
                  numeric_versions=numeric_versions)
        s.add(run)
        s.flush()
        return int(run.id)


class RunStore:
    """Writes one run's rows, and reads what the coordinator's steps need
    (the coordinator is its only user; reports read through :mod:`reads`)."""

    def __init__(self, db: Database, run_id: int) -> None:
        self.db = db
        self.run_id = run_id
        self._stores_played: bool | None = None

    def stores_played(self) -> bool:
        """Whether this run keeps a past member as the integers it plays
        (:func:`~genethello.core.families.network_family.played_payload`)
        once no step reads its real weights: a learning run (pbt-td), whose
        breeder reads only the current generation's weights and whose hall
        only plays. Its members then take about 10 kB each, not 160 kB: the
        database of search-player grows by tens of MB an hour, not 1.5 GB."""
        if self._stores_played is None:
            with self.db.session() as s:
                stored = s.scalar(select(Run.config_json).where(Run.id == self.run_id))
            try:
                method = json.loads(stored)["breeding"]["method"] if stored else None
            except (ValueError, TypeError, KeyError, RecursionError):
                method = None
            self._stores_played = method in PLAYED_METHODS
        return self._stores_played

    def _played_payloads(self, g: int, kept: set[str]) -> list[tuple[int, bytes]]:
        """Generation ``g``'s members that no later generation holds, and the
        payload each is to be stored as: the integers it plays (same text,
        network and games), as its difference from its parent where that
        is smaller (:mod:`genethello.cluster.db.played_chains`; never a hall
        member). Read before generation ``g`` + 2 starts and written in its
        transaction, so that the database's content is a function of the
        generations stored; members whose text is in ``kept`` (the new
        generation's: an elite or a re-entered player) keep their weights."""
        updates: list[tuple[int, bytes]] = []
        with self.db.session() as s:
            rows: list[tuple[int, str, bytes]] = [
                (pid, text, payload) for pid, text, payload in s.execute(
                    select(PlayerRow.id, PlayerRow.text, PlayerRow.payload)
                    .join(PopulationSlot, PopulationSlot.player_id == PlayerRow.id)
                    .where(PopulationSlot.run_id == self.run_id, PopulationSlot.generation == g,
                           PlayerRow.death == g)
                    .order_by(PlayerRow.id)).all()
                if text not in kept and payload is not None and chain_depth(payload) is None]
            if not rows:
                return updates                      # no weights, or stored played already
            hall = set(s.scalars(select(HallMember.player_id).where(HallMember.run_id == self.run_id)).all())
            parents: dict[int, int | None] = {}
            for pid, parent in s.execute(select(PopulationSlot.player_id, PopulationSlot.parent_a)
                                         .where(PopulationSlot.run_id == self.run_id,
                                                PopulationSlot.player_id.in_([r[0] for r in rows]))
                                         .order_by(PopulationSlot.generation.desc())).all():
                parents[pid] = parent               # the slot it was born in is the earliest, read last
            for player_id, text, payload in rows:
                individual = parse_individual(text, payload)
                played = family_of(individual).played_payload(individual)
                if played is None:
                    continue
                parent_id = parents.get(player_id)
                if player_id not in hall and parent_id is not None and parent_id != player_id:
                    chained = self._chained(s, individual, parent_id)
                    if chained is not None and len(chained) < len(played):
                        played = chained
                if played != payload:
                    updates.append((player_id, played))
        return updates

    def _chained(self, s: Session, member: Individual, parent_id: int) -> bytes | None:
        """``member`` as its difference from the row ``parent_id`` of this
        run, if that row is stored played and its chain may grow."""
        row = s.execute(select(PlayerRow.run_id, PlayerRow.text, PlayerRow.payload)
                        .where(PlayerRow.id == parent_id)).first()
        if row is None or row[0] != self.run_id:
            return None
        depth = chain_depth(row[2])
        if depth is None or depth >= CHAIN_LIMIT:
            return None
        parent = parse_individual(row[1], resolved_payload(s, row[1], row[2]))
        return chained_payload(member, parent, parent_id, depth + 1)

    # ----------------------------------------------------------------- run
    def state(self) -> RunState:
        """:func:`reads.run_state` of this run, its config checked whole (the
        run check's: what the coordinator drives must be runnable)."""
        state = reads.run_state(self.db, self.run_id)
        return replace(state, config=check_run_config(state.config, stored=True))

    def limits(self) -> tuple[int, int]:
        """(max_generations, converge_baseline): the run state the stop rule
        reads each generation, without parsing the stored config."""
        with self.db.session() as s:
            max_generations, converge_baseline = s.execute(select(Run.max_generations, Run.converge_baseline)
                                                           .where(Run.id == self.run_id)).one()
            return max_generations, converge_baseline

    def extend(self, max_generations: int) -> None:
        """Set the run's last generation; a converged run counts convergence
        afresh from where it stands (else it would stop at once)."""
        with self.db.session(immediate=True) as s:
            run = _get(s, Run, self.run_id)
            run.max_generations = max_generations
            if run.status == "converged":
                run.converge_baseline = run.generation
            run.updated_at = utcnow()

    def drop_engines(self, engines: Iterable[str]) -> None:
        """Record that the run goes on without these external engines."""
        with self.db.session(immediate=True) as s:
            run = _get(s, Run, self.run_id)
            dropped = json.loads(run.dropped_engines)
            run.dropped_engines = json.dumps(dropped + [e for e in engines if e not in dropped])
            run.updated_at = utcnow()

    def change_core(self, new_hash: str) -> None:
        """Record that the run goes on with another core from its current
        generation (the user accepted it: games may differ from then on)."""
        with self.db.session(immediate=True) as s:
            run = _get(s, Run, self.run_id)
            if run.core_hash == new_hash:
                return
            changes = json.loads(run.core_changes)
            changes.append({"generation": run.generation, "from": run.core_hash, "to": new_hash})
            run.core_changes = json.dumps(changes)
            run.core_hash = new_hash
            run.updated_at = utcnow()

    def change_numerics(self, new_versions: str) -> None:
        """Record that the run goes on with other numpy/cmaes versions from
        its current generation (the user accepted it: breeding may differ
        from then on), in ``core_changes`` beside the cores."""
        with self.db.session(immediate=True) as s:
            run = _get(s, Run, self.run_id)
            if run.numeric_versions == new_versions:
                return
            changes = json.loads(run.core_changes)
            changes.append({"generation": run.generation, "numeric_from": run.numeric_versions,
                            "numeric_to": new_versions})
            run.core_changes = json.dumps(changes)
            run.numeric_versions = new_versions
            run.updated_at = utcnow()

    def set_status(self, status: str) -> None:
        with self.db.session() as s:
            s.execute(update(Run).where(Run.id == self.run_id).values(status=status, updated_at=utcnow()))

    def current_generation(self) -> tuple[int, str | None]:
        """(the last generation started, its status); (0, None) before the first."""
        with self.db.session() as s:
            g = _get(s, Run, self.run_id).generation
            gen = s.get(Generation, (self.run_id, g)) if g else None
            return g, (gen.status if gen else None)

    # ---------------------------------------------------------- population
    def population(self, g: int) -> list[tuple[int, str]]:
        """(player id, chromosome text) of generation g, in slot order."""
        with self.db.session() as s:
            return [(pid, text) for pid, text in s.execute(
                select(PlayerRow.id, PlayerRow.text).join(PopulationSlot, PopulationSlot.player_id == PlayerRow.id)
                .where(PopulationSlot.run_id == self.run_id, PopulationSlot.generation == g)
                .order_by(PopulationSlot.slot)).all()]

    def start_generation(self, g: int, members: Sequence[Individual], start_elo: float,
                         breeder_state: bytes | None = None, games_total: int | None = None,
                         origins: Sequence[StoredOrigin] = ()) -> None:
        """Write generation g's population and start it (one transaction);
        the previous generation, if any, is marked bred in the same one.

        Each member is stored as its family says (:meth:`ChromosomeFamily.storage`),
        its payload (a network's weights) beside its text. ``breeder_state``
        is what the breeder that bred generation g keeps for it
        (:mod:`breeders`); :meth:`breeder_state` reads it back. Only the
        last :data:`BREEDER_STATES_KEPT` generations keep theirs (a resume
        needs the current one; a full CMA-ES state is about a megabyte),
        except states of at most :data:`SMALL_BREEDER_STATE_BYTES`, kept
        with every generation.
        ``origins`` (one a member, or none) say why each member is there;
        a re-entered member's ``source_run`` is its parent's run.
        """
        if origins and len(origins) != len(members):
            raise ValueError(f"{len(origins)} origins for {len(members)} members")
        stored = [family_of(c).storage(c) for c in members]
        texts = [family_of(c).text(c) for c in members]
        # Past members' played payloads are computed before the write lock
        # is taken (a table-sized network's take about a second each: held
        # inside, they kept readers and other writers waiting past their
        # timeout); the transaction only writes them.
        played = (self._played_payloads(g - PLAYED_AFTER, set(texts))
                  if g > PLAYED_AFTER and self.stores_played() else [])
        with self.db.session(immediate=True) as s:
            if g > 1:
                _get(s, Generation, (self.run_id, g - 1)).status = "bred"
            existing = dict(s.execute(select(PlayerRow.text, PlayerRow.id)
                                      .where(PlayerRow.run_id == self.run_id, PlayerRow.text.in_(texts))).all())
            for m, text in zip(stored, texts):
                if text not in existing:
                    player = PlayerRow(run_id=self.run_id, text=text, ctype=m.kind, birth=m.birth,
                                    genes=m.genes, elo=start_elo, payload=m.payload)
                    s.add(player)
                    s.flush()
                    existing[text] = player.id
            slots: list[dict[str, object]] = [
                {"run_id": self.run_id, "generation": g, "slot": i, "player_id": existing[t]}
                for i, t in enumerate(texts)]
            if origins:
                reentered = [o.parent_a for o in origins if o.kind == REENTERED and o.parent_a is not None]
                runs = dict(s.execute(select(PlayerRow.id, PlayerRow.run_id)
                                      .where(PlayerRow.id.in_(reentered))).all()) if reentered else {}
                for row, o in zip(slots, origins):
                    row.update(origin=o.kind, parent_a=o.parent_a, parent_b=o.parent_b,
                               source_generation=o.source_generation,
                               source_run=(runs.get(o.parent_a)
                                           if o.kind == REENTERED and o.parent_a is not None else None))
            s.execute(insert(PopulationSlot), slots)
            s.execute(update(PlayerRow).where(PlayerRow.id.in_(list(existing.values()))).values(death=g))
            for player_id, payload in played:
                s.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(payload=payload))
            s.add(Generation(run_id=self.run_id, number=g, started_at=utcnow(), status="playing",
                             games_total=games_total if games_total is not None else len(members) * (len(members) - 1),
                             games_done=0, breeder_state=breeder_state))
            s.execute(update(Run).where(Run.id == self.run_id).values(generation=g, updated_at=utcnow()))
            s.execute(update(Generation).where(Generation.run_id == self.run_id,
                                               Generation.number <= g - BREEDER_STATES_KEPT,
                                               Generation.breeder_state.is_not(None),
                                               func.length(Generation.breeder_state) > SMALL_BREEDER_STATE_BYTES)
                      .values(breeder_state=None))

    def add_player(self, individual: Individual, start_elo: float) -> int:
        """The id of ``individual``'s row in this run, stored (with its
        payload) if it has none: a player that is no generation's member,
        such as a network run's champion, the distribution mean."""
        family = family_of(individual)
        text = family.text(individual)
        with self.db.session(immediate=True) as s:
            found = s.scalar(select(PlayerRow.id).where(PlayerRow.run_id == self.run_id, PlayerRow.text == text))
            if found is not None:
                return int(found)
            m = family.storage(individual)
            player = PlayerRow(run_id=self.run_id, text=text, ctype=m.kind, birth=m.birth, genes=m.genes,
                               elo=start_elo, payload=m.payload)
            s.add(player)
            s.flush()
            return int(player.id)

    def breeder_state(self, g: int) -> bytes | None:
        """The state the breeder stored with generation g (see
        :mod:`breeders`; None for stateless breeders)."""
        with self.db.session() as s:
            state: bytes | None = s.scalar(select(Generation.breeder_state).where(
                Generation.run_id == self.run_id, Generation.number == g))
            return state

    def population_individuals(self, g: int) -> list[tuple[int, str, bytes | None]]:
        """(player id, text, payload) of generation g, in slot order: what
        :func:`~genethello.core.families.registry.parse_individual` takes."""
        with self.db.session() as s:
            return [(pid, text, resolved_payload(s, text, payload)) for pid, text, payload in s.execute(
                select(PlayerRow.id, PlayerRow.text, PlayerRow.payload)
                .join(PopulationSlot, PopulationSlot.player_id == PlayerRow.id)
                .where(PopulationSlot.run_id == self.run_id, PopulationSlot.generation == g)
                .order_by(PopulationSlot.slot)).all()]

    # ------------------------------------------------------------ fitness
    def fitness_done(self, g: int) -> set[int]:
        """Task indices of network generation g whose points are stored."""
        with self.db.session() as s:
            return set(s.scalars(select(FitnessResult.task_index).where(
                FitnessResult.run_id == self.run_id, FitnessResult.generation == g)).all())

    def commit_fitness(self, g: int, rows: Sequence[FitnessRow]) -> int:
        """Store a batch of generation g's fitness results in one
        transaction, skipping any stored (a task run again after a lost
        worker); returns how many were new. Each adds its games to the
        generation's ``games_done``."""
        if not rows:
            return 0
        with self.db.session(immediate=True) as s:
            stored = set(s.scalars(select(FitnessResult.task_index).where(
                FitnessResult.run_id == self.run_id, FitnessResult.generation == g)).all())
            fresh = _not_stored(rows, stored, lambda r: r.task_index)
            if fresh:
                s.execute(insert(FitnessResult), [
                    {"run_id": self.run_id, "generation": g, "task_index": r.task_index,
                     "points": r.points, "games": r.games} for r in fresh])
                s.execute(update(Generation).where(Generation.run_id == self.run_id, Generation.number == g)
                          .values(games_done=Generation.games_done + sum(r.games for r in fresh)))
        return len(fresh)

    def fitness_results(self, g: int) -> list[FitnessRow]:
        """Generation g's stored fitness results, in task order."""
        with self.db.session() as s:
            return [FitnessRow(*row) for row in s.execute(
                select(FitnessResult.task_index, FitnessResult.points, FitnessResult.games)
                .where(FitnessResult.run_id == self.run_id, FitnessResult.generation == g)
                .order_by(FitnessResult.task_index)).all()]

    def set_games_total(self, g: int, total: int) -> None:
        """Record how many games generation g plays (a network generation
        knows it once its fitness tasks are made)."""
        with self.db.session() as s:
            s.execute(update(Generation).where(Generation.run_id == self.run_id, Generation.number == g)
                      .values(games_total=total))

    # ------------------------------------------------------------- games
    def played_pairs(self, g: int) -> set[int]:
        """Pair indices of generation g that have a stored game."""
        with self.db.session() as s:
            return set(s.scalars(select(Game.pair_index)
                                 .where(Game.run_id == self.run_id, Game.generation == g)).all())

    def commit_games(self, g: int, rows: Sequence[GameRow]) -> int:
        """Insert a batch of generation g's results in one transaction;
        returns how many were new. A pair already stored (a
        batch retried after a lost worker) is skipped, never counted twice.

        The rows go to the driver's executemany as they are: the ORM's bulk
        insert costs several microseconds a row, the ingest rate of a
        generation of instant games."""
        if not rows:
            return 0
        games = Game.__table__
        with self.db.session(immediate=True) as s:
            conn = s.connection()
            indices = [r.pair_index for r in rows]
            stored = set(conn.execute(select(games.c.pair_index).where(
                games.c.run_id == self.run_id, games.c.generation == g,
                games.c.pair_index.between(min(indices), max(indices)))).scalars())
            fresh = _not_stored(rows, stored, lambda r: r.pair_index)
            if fresh:
                key = (self.run_id, g)
                conn.exec_driver_sql(_INSERT_GAME, [key + r for r in fresh])
                s.execute(update(Generation).where(Generation.run_id == self.run_id, Generation.number == g)
                          .values(games_done=Generation.games_done + len(fresh)))
        return len(fresh)

    # ------------------------------------------------------------ rating
    def rating_inputs(self, g: int) -> tuple[list[Member], list[PlayedGame]]:
        """Generation g's members (slot order, Elo carried in) and its games
        in schedule order: the inputs of :func:`rate_generation`."""
        with self.db.session() as s:
            members = [Member(*row) for row in s.execute(
                select(PlayerRow.id, PlayerRow.elo, PlayerRow.birth, PlayerRow.text)
                .join(PopulationSlot, PopulationSlot.player_id == PlayerRow.id)
                .where(PopulationSlot.run_id == self.run_id, PopulationSlot.generation == g)
                .order_by(PopulationSlot.slot)).all()]
            games = [PlayedGame(*row) for row in s.execute(
                select(Game.black_id, Game.white_id, Game.score)
                .where(Game.run_id == self.run_id, Game.generation == g).order_by(Game.pair_index)).all()]
        return members, games

    def store_rating(self, g: int, rating: GenerationRating, keep_moves_generations: int,
                     hall_best: int | None = None, has_hall: bool = False) -> None:
        """Store generation g's ratings, its summary and best so far, mark it
        rated and apply move retention: one transaction. In a run with a
        hall the best so far stays the hall's top (``hall_best``, None before
        the first entry) until the hall step rates the new entrant; else it
        is the top by Elo."""
        with self.db.session(immediate=True) as s:
            for r in rating.players:
                s.execute(update(PlayerRow).where(PlayerRow.id == r.player_id).values(
                    elo=r.elo, wins=PlayerRow.wins + r.wins, losses=PlayerRow.losses + r.losses,
                    draws=PlayerRow.draws + r.draws, death=g))
            s.execute(insert(RatingRecord), [
                {"run_id": self.run_id, "generation": g, "player_id": r.player_id, "elo": r.elo,
                 "bt_rating": r.bt_rating, "bt_stderr": r.bt_stderr, "wins": r.wins, "losses": r.losses,
                 "draws": r.draws} for r in rating.players])
            best = hall_best if has_hall else s.scalars(select(PlayerRow.id).where(PlayerRow.run_id == self.run_id)
                                                        .order_by(*BEST_FIRST).limit(1)).one()
            gen = _get(s, Generation, (self.run_id, g))
            gen.status = "rated"
            gen.finished_at = utcnow()
            gen.best_player_id = best
            gen.mean_elo = rating.mean_elo
            gen.stats_json = json.dumps(rating.stats, sort_keys=True)
            self._apply_retention(s, g, keep_moves_generations)

    def _apply_retention(self, s: Session, g: int, keep: int) -> None:
        """Drop move lists older than ``keep`` generations, except the games
        of each generation's best player (results are always kept)."""
        if keep <= 0 or g - keep < 1:
            return
        old = g - keep
        best = s.scalar(select(Generation.best_player_id).where(Generation.run_id == self.run_id,
                                                               Generation.number == old))
        s.execute(update(Game).where(Game.run_id == self.run_id, Game.generation == old,
                                     Game.black_id != best, Game.white_id != best).values(moves=None))

    def bests(self, first: int, last: int) -> list[int | None]:
        """The best-so-far player ids of generations first..last that exist."""
        with self.db.session() as s:
            return list(s.scalars(select(Generation.best_player_id)
                                  .where(Generation.run_id == self.run_id, Generation.number >= first,
                                         Generation.number <= last)).all())

    # ----------------------------------------------------------- ranking
    def ranked(self, limit: int, *, generation: int | None = None, other_runs_of_type: str | None = None
               ) -> list[RankedPlayer]:
        """:func:`reads.ranked` of this run."""
        return reads.ranked(self.db, self.run_id, limit, generation=generation,
                            other_runs_of_type=other_runs_of_type)

    def ranked_by_score(self, g: int) -> list[RankedPlayer]:
        """:func:`reads.ranked_by_score` of this run's generation g."""
        return reads.ranked_by_score(self.db, self.run_id, g)

    def best(self) -> RankedPlayer | None:
        """:func:`reads.best` of this run."""
        return reads.best(self.db, self.run_id)

    # -------------------------------------------------------------- hall
    def hall_members(self) -> list[HallEntry]:
        """:func:`reads.hall_members` of this run."""
        return reads.hall_members(self.db, self.run_id)

    def enter_hall(self, g: int, player_id: int) -> bool:
        """Make ``player_id`` a member entered at generation g unless it is
        one already; True when it entered now (or had entered at g)."""
        with self.db.session(immediate=True) as s:
            member = s.get(HallMember, (self.run_id, player_id))
            if member is None:
                s.add(HallMember(run_id=self.run_id, player_id=player_id, entered=g))
                return True
            return member.entered == g

    def hall_rated(self, g: int) -> bool:
        """Whether generation g's hall step is complete (ratings stored)."""
        with self.db.session() as s:
            return (s.scalar(select(func.count()).select_from(HallRating).where(
                HallRating.run_id == self.run_id, HallRating.generation == g)) or 0) > 0

    def played_hall_games(self, g: int) -> set[int]:
        with self.db.session() as s:
            return set(s.scalars(select(HallGame.game_index).where(
                HallGame.run_id == self.run_id, HallGame.generation == g)).all())

    def commit_hall_games(self, g: int, rows: Sequence[HallGameRow]) -> int:
        """Store a batch of generation g's hall games in one transaction,
        skipping any stored; returns how many were new."""
        if not rows:
            return 0
        with self.db.session(immediate=True) as s:
            stored = set(s.scalars(select(HallGame.game_index).where(
                HallGame.run_id == self.run_id, HallGame.generation == g)).all())
            fresh = _not_stored(rows, stored, lambda r: r.game_index)
            if fresh:
                s.execute(insert(HallGame), [
                    {"run_id": self.run_id, "generation": g, **r._asdict()} for r in fresh])
        return len(fresh)

    def hall_games(self) -> list[HallGameResult]:
        """Every hall game of the run, in (generation, index) order."""
        with self.db.session() as s:
            return [HallGameResult(*row) for row in s.execute(
                select(HallGame.black_id, HallGame.white_id, HallGame.score)
                .where(HallGame.run_id == self.run_id)
                .order_by(HallGame.generation, HallGame.game_index)).all()]

    def store_hall_ratings(self, g: int, ratings: dict[int, RatingEstimate], order: Sequence[int]) -> None:
        """Store every member's rating after generation g's entry and make
        the top (``order[0]``) the generation's best so far: one transaction.

        Earlier hall generations keep only their best so far's row (what
        ``history`` and the web chart read; ``lineage`` reads a member's
        latest, which generation g holds): the hall's rows grow by one a
        hall step, not by the hall's size, so a run of days stays small."""
        with self.db.session(immediate=True) as s:
            s.execute(delete(HallRating).where(HallRating.run_id == self.run_id, HallRating.generation == g))
            s.execute(insert(HallRating), [
                {"run_id": self.run_id, "generation": g, "player_id": pid, "rating": r.rating,
                 "stderr": r.stderr, "games": r.games, "points": r.score} for pid, r in ratings.items()])
            _get(s, Generation, (self.run_id, g)).best_player_id = order[0]
            best_then = (select(Generation.best_player_id)
                         .where(Generation.run_id == HallRating.run_id, Generation.number == HallRating.generation)
                         .scalar_subquery())
            s.execute(delete(HallRating).where(HallRating.run_id == self.run_id, HallRating.generation < g,
                                               HallRating.player_id != func.coalesce(best_then, -1)))

    def hall_ranked(self, limit: int | None = None, generation: int | None = None) -> list[HallEntry]:
        """:func:`reads.hall_ranked` of this run."""
        return reads.hall_ranked(self.db, self.run_id, limit, generation)

    def other_halls(self, ctype: str, per_run: int) -> list[HallEntry]:
        """:func:`reads.other_hall_entries`: the best of the other runs' halls."""
        return reads.other_hall_entries(self.db, self.run_id, ctype, per_run)

    # --------------------------------------------------------- yardstick
    def yardstick_measured(self, g: int) -> bool:
        with self.db.session() as s:
            return (s.scalar(select(func.count()).select_from(YardstickResult).where(
                YardstickResult.run_id == self.run_id, YardstickResult.generation == g)) or 0) > 0

    def store_yardstick(self, g: int, player_id: int, scores: Iterable[StoredScore]) -> None:
        """Store a yardstick measurement of ``player_id`` at generation g
        (each score has opponent, games, points, score, its W/D/L
        ``result`` and, for a sequential opponent, its ``sprt`` record) and
        the overall score of its fixed series on the player."""
        scores = list(scores)
        with self.db.session(immediate=True) as s:
            s.execute(delete(YardstickResult).where(YardstickResult.run_id == self.run_id,
                                                    YardstickResult.generation == g))
            for sc in scores:
                record = sc.sprt
                s.add(YardstickResult(run_id=self.run_id, generation=g, player_id=player_id,
                                      opponent=sc.opponent, games=sc.games, points=sc.points, score=sc.score,
                                      wins=sc.result.wins, draws=sc.result.draws, losses=sc.result.losses,
                                      sprt=None if record is None else json.dumps(record.to_json(), sort_keys=True)))
            fixed = [sc for sc in scores if sc.sprt is None]
            if fixed:
                _get(s, PlayerRow, player_id).yardstick = (sum(sc.points for sc in fixed)
                                                        / sum(sc.games for sc in fixed))
