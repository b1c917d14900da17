"""The coordinator's bookkeeping: every read and write of one run's rows.

The coordinator decides (what to play, how to rate, whom to breed) with pure
functions and calls a :class:`RunStore` to read their inputs and store their
results; all SQL of a run in progress lives here. Each writing method is one
transaction (BEGIN IMMEDIATE), and each leaves the run in a state that
``resume`` continues from.

The best so far is the top of the hall of fame (:mod:`hall`) once the run
has one; without a hall (``hall.games_per_member = 0``, runs from before
0003) it is the top by Elo, then the older birth, then the chromosome text
(:func:`~genethello.cluster.population.rank_key`), done in SQL on the stored
columns (``ORDER BY elo DESC, birth, text``): SQLite compares the ASCII texts
as Python does, and no chromosome is parsed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update

from genethello.cluster.config import RunConfig, config_from_mapping
from genethello.cluster.db import Database, RunNotFoundError
from genethello.cluster.db.models import (
    Game,
    Generation,
    HallGame,
    HallMember,
    HallRating,
    Player,
    PopulationSlot,
    RatingRecord,
    Run,
    YardstickResult,
    utcnow,
)
from genethello.cluster.hall import HallGameResult
from genethello.cluster.rating_step import GenerationRating, Member, PlayedGame
from genethello.cluster.tournament_rating import RatingEstimate
from genethello.core.chromosome import Chromosome

#: A stored game's columns, in the order of the rows commit_games inserts.
GAME_COLUMNS = ("run_id", "generation", "pair_index", "black_id", "white_id", "score", "black_discs",
                "white_discs", "moves", "nodes")
_INSERT_GAME = (f"INSERT INTO {Game.__tablename__} ({', '.join(GAME_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})")

#: Best first: Elo, older birth, text (see the module docstring).
_BEST_FIRST = (Player.elo.desc(), Player.birth, Player.text)


@dataclass(frozen=True)
class RunState:
    """What the coordinator needs to know of its run at start."""

    config: RunConfig          # as created; never rewritten (the stop rule's state: limits())
    dropped_engines: tuple[str, ...]   # external engines the user went on without
    core_hash: str                     # the core that plays the run's games
    pattern_version: str = ""          # the pattern table its players weigh ('' when none)


@dataclass(frozen=True)
class RankedPlayer:
    """A player as ranking reads it."""

    player_id: int
    text: str
    elo: float
    birth: int

    def chromosome(self) -> Chromosome:
        return Chromosome.parse(self.text)


@dataclass(frozen=True)
class HallEntry:
    """A hall member, with its latest rating (None before the first fit)."""

    player_id: int
    text: str
    entered: int
    rating: float | None = None
    stderr: float | None = None
    games: int = 0

    def chromosome(self) -> Chromosome:
        return Chromosome.parse(self.text)


class RunStore:
    """Reads and writes one run's rows (the coordinator is its only user)."""

    def __init__(self, db: Database, run_id: int) -> None:
        self.db = db
        self.run_id = run_id

    # ----------------------------------------------------------------- run
    def state(self) -> RunState:
        """The run's config and run state.

        Raises:
            RunNotFoundError: no such run.
        """
        with self.db.session() as s:
            run = s.get(Run, self.run_id)
            if run is None:
                raise RunNotFoundError(f"no run with id {self.run_id} in {self.db.path}")
            config = config_from_mapping(json.loads(run.config_json), source="stored run config")
            return RunState(config, tuple(json.loads(run.dropped_engines)), run.core_hash,
                            run.pattern_version or "")

    def limits(self) -> tuple[int, int]:
        """(max_generations, converge_baseline): the run state the stop rule
        reads each generation, without parsing the stored config."""
        with self.db.session() as s:
            return tuple(s.execute(select(Run.max_generations, Run.converge_baseline)
                                   .where(Run.id == self.run_id)).one())

    def extend(self, max_generations: int) -> None:
        """Set the run's last generation; a converged run counts convergence
        afresh from where it stands (else it would stop at once)."""
        with self.db.session(immediate=True) as s:
            run = s.get(Run, self.run_id)
            run.max_generations = max_generations
            if run.status == "converged":
                run.converge_baseline = run.generation
            run.updated_at = utcnow()

    def drop_engines(self, engines: Iterable[str]) -> None:
        """Record that the run goes on without these external engines."""
        with self.db.session(immediate=True) as s:
            run = s.get(Run, self.run_id)
            dropped = json.loads(run.dropped_engines)
            run.dropped_engines = json.dumps(dropped + [e for e in engines if e not in dropped])
            run.updated_at = utcnow()

    def change_core(self, new_hash: str) -> None:
        """Record that the run goes on with another core from its current
        generation (the user accepted it: games may differ from then on)."""
        with self.db.session(immediate=True) as s:
            run = s.get(Run, self.run_id)
            if run.core_hash == new_hash:
                return
            changes = json.loads(run.core_changes)
            changes.append({"generation": run.generation, "from": run.core_hash, "to": new_hash})
            run.core_changes = json.dumps(changes)
            run.core_hash = new_hash
            run.updated_at = utcnow()

    def set_status(self, status: str) -> None:
        with self.db.session() as s:
            s.execute(update(Run).where(Run.id == self.run_id).values(status=status, updated_at=utcnow()))

    def current_generation(self) -> tuple[int, str | None]:
        """(the last generation started, its status); (0, None) before the first."""
        with self.db.session() as s:
            g = s.get(Run, self.run_id).generation
            gen = s.get(Generation, (self.run_id, g)) if g else None
            return g, (gen.status if gen else None)

    # ---------------------------------------------------------- population
    def population(self, g: int) -> list[tuple[int, str]]:
        """(player id, chromosome text) of generation g, in slot order."""
        with self.db.session() as s:
            return [tuple(row) for row in s.execute(
                select(Player.id, Player.text).join(PopulationSlot, PopulationSlot.player_id == Player.id)
                .where(PopulationSlot.run_id == self.run_id, PopulationSlot.generation == g)
                .order_by(PopulationSlot.slot)).all()]

    def start_generation(self, g: int, members: Sequence[Chromosome], start_elo: float) -> None:
        """Write generation g's population and start it (one transaction);
        the previous generation, if any, is marked bred in the same one."""
        with self.db.session(immediate=True) as s:
            if g > 1:
                s.get(Generation, (self.run_id, g - 1)).status = "bred"
            texts = [str(c) for c in members]
            existing = dict(s.execute(select(Player.text, Player.id)
                                      .where(Player.run_id == self.run_id, Player.text.in_(texts))).all())
            for c, text in zip(members, texts):
                if text not in existing:
                    player = Player(run_id=self.run_id, text=text, ctype=c.type.name, birth=c.birth,
                                    genes=":".join(map(str, c.genes)), elo=start_elo)
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

    # ------------------------------------------------------------- games
    def played_pairs(self, g: int) -> set[int]:
        """Pair indices of generation g that have a stored game."""
        with self.db.session() as s:
            return set(s.scalars(select(Game.pair_index)
                                 .where(Game.run_id == self.run_id, Game.generation == g)).all())

    def commit_games(self, g: int, rows: list[tuple]) -> int:
        """Insert a batch of results (tuples in GAME_COLUMNS order) in one
        transaction; returns how many were new. A pair already stored (a
        batch retried after a lost worker) is skipped, never counted twice.

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

    # ------------------------------------------------------------ rating
    def rating_inputs(self, g: int) -> tuple[list[Member], list[PlayedGame]]:
        """Generation g's members (slot order, Elo carried in) and its games
        in schedule order: the inputs of :func:`rate_generation`."""
        with self.db.session() as s:
            members = [Member(*row) for row in s.execute(
                select(Player.id, Player.elo, Player.birth, Player.text)
                .join(PopulationSlot, PopulationSlot.player_id == Player.id)
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
                s.execute(update(Player).where(Player.id == r.player_id).values(
                    elo=r.elo, wins=Player.wins + r.wins, losses=Player.losses + r.losses,
                    draws=Player.draws + r.draws, death=g))
            s.execute(insert(RatingRecord), [
                {"run_id": self.run_id, "generation": g, "player_id": r.player_id, "elo": r.elo,
                 "bt_rating": r.bt_rating, "bt_stderr": r.bt_stderr, "wins": r.wins, "losses": r.losses,
                 "draws": r.draws} for r in rating.players])
            best = hall_best if has_hall else s.scalars(select(Player.id).where(Player.run_id == self.run_id)
                                                        .order_by(*_BEST_FIRST).limit(1)).one()
            gen = s.get(Generation, (self.run_id, g))
            gen.status = "rated"
            gen.finished_at = utcnow()
            gen.best_player_id = best
            gen.mean_elo = rating.mean_elo
            gen.stats_json = json.dumps(rating.stats, sort_keys=True)
            self._apply_retention(s, g, keep_moves_generations)

    def _apply_retention(self, s, g: int, keep: int) -> None:
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
        """The best ``limit`` players, best first: of the whole run (the
        default), of one generation's population, or of every other run whose
        players have the given chromosome type."""
        query = select(Player.id, Player.text, Player.elo, Player.birth)
        if generation is not None:
            query = query.join(PopulationSlot, PopulationSlot.player_id == Player.id).where(
                PopulationSlot.run_id == self.run_id, PopulationSlot.generation == generation)
        elif other_runs_of_type is not None:
            query = query.where(Player.run_id != self.run_id, Player.ctype == other_runs_of_type)
        else:
            query = query.where(Player.run_id == self.run_id)
        with self.db.session() as s:
            return [RankedPlayer(*row) for row in s.execute(query.order_by(*_BEST_FIRST).limit(limit)).all()]

    def ranked_by_score(self, g: int) -> list[RankedPlayer]:
        """Generation g's members by their points in its own round robin
        (wins + draws / 2; in a complete round robin the Bradley–Terry
        order), then the older birth, then the text. Elo plays no part."""
        points = (RatingRecord.wins + 0.5 * RatingRecord.draws).label("points")
        query = (select(Player.id, Player.text, Player.elo, Player.birth)
                 .join(RatingRecord, RatingRecord.player_id == Player.id)
                 .where(RatingRecord.run_id == self.run_id, RatingRecord.generation == g)
                 .order_by(points.desc(), Player.birth, Player.text))
        with self.db.session() as s:
            return [RankedPlayer(*row) for row in s.execute(query).all()]

    def best(self) -> RankedPlayer | None:
        """The run's best so far: the hall's top once it is rated, else the
        top by Elo (None before any player exists)."""
        hall = self.hall_ranked(1)
        if hall:
            with self.db.session() as s:
                return RankedPlayer(*s.execute(select(Player.id, Player.text, Player.elo, Player.birth)
                                               .where(Player.id == hall[0].player_id)).one())
        found = self.ranked(1)
        return found[0] if found else None

    # -------------------------------------------------------------- hall
    def hall_members(self) -> list[HallEntry]:
        """The hall in entry order (the first is the rating anchor)."""
        with self.db.session() as s:
            return [HallEntry(*row) for row in s.execute(
                select(HallMember.player_id, Player.text, HallMember.entered)
                .join(Player, Player.id == HallMember.player_id)
                .where(HallMember.run_id == self.run_id)
                .order_by(HallMember.entered, Player.birth, Player.text)).all()]

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
            return s.scalar(select(func.count()).select_from(HallRating).where(
                HallRating.run_id == self.run_id, HallRating.generation == g)) > 0

    def played_hall_games(self, g: int) -> set[int]:
        with self.db.session() as s:
            return set(s.scalars(select(HallGame.game_index).where(
                HallGame.run_id == self.run_id, HallGame.generation == g)).all())

    def commit_hall_games(self, g: int, rows: Sequence[tuple[int, int, int, int, int]]) -> int:
        """Store (game_index, black_id, white_id, score, nodes) rows of
        generation g's entry in one transaction, skipping any stored."""
        if not rows:
            return 0
        with self.db.session(immediate=True) as s:
            stored = set(s.scalars(select(HallGame.game_index).where(
                HallGame.run_id == self.run_id, HallGame.generation == g)).all())
            # a batch played again after a lost worker may repeat a game
            fresh = list({r[0]: r for r in rows if r[0] not in stored}.values())
            if fresh:
                s.execute(insert(HallGame), [
                    {"run_id": self.run_id, "generation": g, "game_index": i, "black_id": b, "white_id": w,
                     "score": score, "nodes": nodes} for i, b, w, score, nodes in fresh])
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
        the top (``order[0]``) the generation's best so far: one transaction."""
        with self.db.session(immediate=True) as s:
            s.execute(delete(HallRating).where(HallRating.run_id == self.run_id, HallRating.generation == g))
            s.execute(insert(HallRating), [
                {"run_id": self.run_id, "generation": g, "player_id": pid, "rating": r.rating,
                 "stderr": r.stderr, "games": r.games, "points": r.score} for pid, r in ratings.items()])
            s.get(Generation, (self.run_id, g)).best_player_id = order[0]

    def hall_ranked(self, limit: int | None = None, generation: int | None = None) -> list[HallEntry]:
        """The hall best first by its latest ratings (or those after
        ``generation``): rating, earlier entry, text. [] before any fit."""
        with self.db.session() as s:
            if generation is None:
                generation = s.scalar(select(func.max(HallRating.generation))
                                      .where(HallRating.run_id == self.run_id))
                if generation is None:
                    return []
            query = (select(HallRating.player_id, Player.text, HallMember.entered, HallRating.rating,
                            HallRating.stderr, HallRating.games)
                     .join(Player, Player.id == HallRating.player_id)
                     .join(HallMember, (HallMember.run_id == HallRating.run_id)
                           & (HallMember.player_id == HallRating.player_id))
                     .where(HallRating.run_id == self.run_id, HallRating.generation == generation)
                     .order_by(func.round(HallRating.rating, 9).desc(), HallMember.entered, Player.text))
            if limit is not None:
                query = query.limit(limit)
            return [HallEntry(*row) for row in s.execute(query).all()]

    def other_halls(self, ctype: str, per_run: int) -> list[Chromosome]:
        """The top ``per_run`` of each other run's hall whose players have
        this type, by run id (ratings of different halls share no scale)."""
        with self.db.session() as s:
            run_ids = s.scalars(select(Run.id).where(Run.id != self.run_id).order_by(Run.id)).all()
        found: list[Chromosome] = []
        for run_id in run_ids:
            for entry in RunStore(self.db, run_id).hall_ranked(per_run):
                if entry.text.startswith(ctype + "_"):
                    found.append(entry.chromosome())
        return found

    # --------------------------------------------------------- yardstick
    def yardstick_measured(self, g: int) -> bool:
        with self.db.session() as s:
            return s.scalar(select(func.count()).select_from(YardstickResult).where(
                YardstickResult.run_id == self.run_id, YardstickResult.generation == g)) > 0

    def store_yardstick(self, g: int, player_id: int, scores: Iterable) -> None:
        """Store a yardstick measurement of ``player_id`` at generation g
        (each score has opponent, games, points, score and its W/D/L
        ``result``) and its overall score on the player."""
        scores = list(scores)
        with self.db.session(immediate=True) as s:
            s.execute(delete(YardstickResult).where(YardstickResult.run_id == self.run_id,
                                                    YardstickResult.generation == g))
            for sc in scores:
                s.add(YardstickResult(run_id=self.run_id, generation=g, player_id=player_id,
                                      opponent=sc.opponent, games=sc.games, points=sc.points, score=sc.score,
                                      wins=sc.result.wins, draws=sc.result.draws, losses=sc.result.losses))
            if scores:
                s.get(Player, player_id).yardstick = (sum(sc.points for sc in scores)
                                                      / sum(sc.games for sc in scores))
