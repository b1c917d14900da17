"""How a generation's fitness is played, kept and rated: the part of a
generation's steps (:mod:`~genethello.cluster.run.generation`) that differs
with how it is kept, which the fitness kind says for the run's family
(:meth:`~genethello.cluster.fitness.fitness_kinds.FitnessKind.kept_as_points`).

Two ways, one class each, with the same four answers — which games a
generation plays (:meth:`games`: a task, its missing items, the rows they
store), how they become ratings (:meth:`rating`), the generation's champion
for the hall (:meth:`champion`) and the generation as its breeder sees it
(:meth:`ranking`):

* :class:`RoundRobinFitness`, kept game by game (GeneThello's round robin,
  ``fitness.kind = "coevolution"``, the default): every pair of
  members plays one game, stored with its moves; Elo in the schedule's
  canonical order, W/L/D and the Bradley-Terry fit; the champion is the
  top by score; the hall enters every generation.
* :class:`PointsFitness`, kept as points (networks, every kind; GeneThello
  against fixed opponents or the hall): the fitness kind's games
  (:mod:`~genethello.cluster.fitness.fitness_kinds`) in tasks that return
  each member's points (``fitness_results``; the games themselves are not
  stored), on the fast 1-ply loop (networks) or, with
  ``fitness.depth >= 1``, searched for any family
  (:mod:`~genethello.cluster.fitness.network_depth_fitness`);
  the points become performance ratings; the champion is the breeder's
  (CMA-ES: the distribution mean); the hall enters every ``hall.every``.

Both are pure functions of the config, the seed and the stored results;
the order of the steps, the hall's games and the measures are the
generation's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from genethello.cluster.breeding.protocols import Breeder, RatedGeneration
from genethello.cluster.config import RunConfig
from genethello.cluster.fitness.fitness_kinds import fitness_kind
from genethello.cluster.fitness.fitness_ranking import fitness_ranking, scores_by_opponent
from genethello.cluster.fitness.games import GameSettings
from genethello.cluster.fitness.matches import Matches, MatchOutcome, Pairing, SeededOpenings, Side
from genethello.cluster.fitness.network_depth_fitness import (
    DepthContestant,
    DepthFitnessTask,
    depth_fitness_tasks,
    resolve_opponent,
)
from genethello.cluster.fitness.network_fitness import (
    FitnessGames,
    FitnessPoints,
    NetworkFitnessTask,
    fitness_games,
    fitness_tasks,
)
from genethello.cluster.fitness.network_rating import fitness_games_per_member, rate_fitness
from genethello.cluster.fitness.pairing import RoundRobin
from genethello.cluster.fitness.rating_step import GenerationRating, rate_generation
from genethello.cluster.reads import HallEntry, RankedPlayer
from genethello.cluster.run.frozen_opponents import database_lookup
from genethello.cluster.run.run_store import FitnessRow, GameRow, RunStore
from genethello.cluster.work import BatchSource, Task, batches_of
from genethello.core.families.registry import Individual, Kind, parse_individual
from genethello.core.frontend.wording import counted

__all__ = ["GenerationFitness", "GenerationGames", "PointsFitness", "Ranking", "RoundRobinFitness", "fitness_of"]

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")
Row = TypeVar("Row")


@dataclass(frozen=True)
class GenerationGames(Generic[Item, Outcome, Row]):
    """What a generation plays: ``task`` on the ``missing`` items, each
    batch of outcomes stored as ``rows`` by ``commit``; the generation is
    in once ``items`` results are stored (``stored`` of them already), and
    the progress line counts ``games`` (``games_stored`` already, an
    outcome's games by ``games_of``)."""

    task: Task[Item, Outcome]
    missing: BatchSource
    rows: Callable[[list[Outcome]], list[Row]]
    commit: Callable[[list[Row]], int]
    items: int
    stored: int
    games: int
    games_stored: int
    games_of: Callable[[list[Outcome]], int]


@dataclass(frozen=True)
class Ranking:
    """A generation as its breeder sees it, with the player ids of its
    ranked and its injected members (whom the breeder's origins name)."""

    rated: RatedGeneration
    ranked_ids: list[int]
    injected_ids: list[int]


class GenerationFitness(Protocol):
    """How a generation's fitness is played, kept and rated (module docstring)."""

    #: The games total a new generation starts with (None: counted as its games are stored).
    games_total_at_start: int | None

    def hall_every(self) -> int:
        """The champion enters the hall every this many generations (and at 1)."""
        ...

    def games(self, g: int) -> GenerationGames[Any, Any, Any]:
        """Generation g's games still to play."""
        ...

    def rating(self, g: int) -> tuple[GenerationRating, str]:
        """Generation g's ratings from its stored results, and what the log
        says of them ('': nothing beyond their being rated)."""
        ...

    def champion(self, g: int, breeder: Breeder) -> tuple[int, Individual]:
        """Generation g's champion for the hall, with its player id (stored if it is no member)."""
        ...

    def ranking(self, g: int) -> Ranking:
        """Generation g as its breeder sees it."""
        ...


def fitness_of(store: RunStore, config: RunConfig, kind: Kind, settings: GameSettings,
               keeps_game_records: bool) -> GenerationFitness:
    """The fitness of a run whose family keeps game records (or not), as
    its fitness kind keeps it."""
    if fitness_kind(config.fitness.kind).kept_as_points(keeps_game_records):
        return PointsFitness(store, config, kind)
    return RoundRobinFitness(store, config, kind, settings)


# ------------------------------------------------------------ game by game
class RoundRobinFitness:
    """A generation's round robin, stored game by game (module docstring)."""

    games_total_at_start: int | None = None

    def __init__(self, store: RunStore, config: RunConfig, kind: Kind, settings: GameSettings) -> None:
        self.store = store
        self.config = config
        self.kind = kind
        self.settings = settings

    def hall_every(self) -> int:
        """1: every generation's champion enters (``hall.every`` is the points' key)."""
        return 1

    def games(self, g: int) -> GenerationGames[Pairing, MatchOutcome, GameRow]:
        """Generation g's missing games of its round robin: workers return
        outcomes keyed by pair index, and the pair's slots give the player ids."""
        members = self.store.population(g)
        pairs = RoundRobin(len(members))   # computed per index: nothing of size P² is built
        played = self.store.played_pairs(g)

        def missing() -> Iterator[Pairing]:
            for i in range(len(pairs)):
                if i not in played:
                    b, w = pairs[i]   # a formula: computed once a game
                    yield Pairing(i, b, w)     # its opening drawn by the worker (SeededOpenings)

        def rows(outcomes: list[MatchOutcome]) -> list[GameRow]:
            found = []
            for o in outcomes:
                b, w = pairs[o.index]
                found.append(GameRow(o.index, members[b][0], members[w][0], o.score, o.black_discs,
                                     o.white_discs, o.moves, o.nodes))
            return found

        s = self.settings
        task = Matches(tuple(Side(text, None, s.play_setting()) for _, text in members),
                       openings=SeededOpenings(s.seed, g, s.random_plies))
        return GenerationGames(task, batches_of(missing()), rows, lambda batch: self.store.commit_games(g, batch),
                               items=len(pairs), stored=len(played), games=len(pairs), games_stored=len(played),
                               games_of=len)

    def rating(self, g: int) -> tuple[GenerationRating, str]:
        """Elo, W/L/D and the Bradley-Terry fit of generation g's games."""
        members, games = self.store.rating_inputs(g)
        return rate_generation(members, games, start_rating=self.config.rating.start, k=self.config.rating.k), ""

    def champion(self, g: int, breeder: Breeder) -> tuple[int, Individual]:
        """The top of generation g's own round robin by score (whatever
        ``rating.selection`` ranks the breeder's parents by)."""
        top = self.store.ranked_by_score(g)[0]
        return top.player_id, top.chromosome()

    def ranking(self, g: int) -> Ranking:
        """The members best first (by ``rating.selection``), and the best of
        history to inject: from the hall when the run has one, else by Elo
        (and, with ``breeding.inject_other_runs``, of other runs of the type)."""
        cfg = self.config
        ranked: list[RankedPlayer] = (self.store.ranked_by_score(g) if cfg.rating.selection == "score"
                                      else self.store.ranked(cfg.population_size, generation=g))
        sources: list[HallEntry | RankedPlayer] = []
        top = cfg.breeding.inject_top
        if top:
            hall = self.store.hall_ranked(top) if cfg.hall.games_per_member else []
            sources = list(hall or self.store.ranked(top))
            if cfg.breeding.inject_other_runs:
                others = self.store.other_halls(self.kind.name, top)
                sources += others or self.store.ranked(top, other_runs_of_type=self.kind.name)
        rated = RatedGeneration(g, self.kind, [p.chromosome() for p in ranked], [p.chromosome() for p in sources],
                                self.store.breeder_state(g))
        return Ranking(rated, [p.player_id for p in ranked], [p.player_id for p in sources])


# ---------------------------------------------------------------- as points
class PointsFitness:
    """A generation's fitness kept as each member's points (module docstring)."""

    #: The fitness tasks' total is known only once the generation plays.
    games_total_at_start: int | None = 0

    def __init__(self, store: RunStore, config: RunConfig, kind: Kind) -> None:
        self.store = store
        self.config = config
        self.kind = kind
        # Generation g's ranking and stored breeder state, read once: the hall
        # step asks the breeder for its champion and the breed step for its
        # next population from them. (The hall's best to inject are read
        # each time: the hall step between the two changes them.)
        self._ranked: dict[int, tuple[list[Individual], list[float], list[int], list[int], bytes | None]] = {}
        self._opponents: list[DepthContestant] | None = None

    def hall_every(self) -> int:
        return self.config.hall.every

    def members(self, g: int) -> list[tuple[int, Individual]]:
        """(player id, individual) of generation g in slot order."""
        return [(pid, parse_individual(text, payload)) for pid, text, payload in self.store.population_individuals(g)]

    def _hall_entries(self, g: int) -> list[HallEntry]:
        """The hall members generation g's fitness plays, in entry order:
        those entered before g (g's own champion enters after g's games, in
        its hall step), the ``fitness.hall_opponents`` entered last where
        that is set (a hall of a long run grows by a member every
        ``hall.every`` generations, and so would each generation's games);
        none unless the fitness kind plays the hall. The rating and the
        breeder count the same members as the games did, whether they ask
        before or after the hall step."""
        if not fitness_kind(self.config.fitness.kind).plays_hall:
            return []
        entered = [entry for entry in self.store.hall_members() if entry.entered < g]
        latest = self.config.fitness.hall_opponents
        return entered[-latest:] if latest else entered

    def _hall(self, g: int) -> list[Individual]:
        """The individuals of :meth:`_hall_entries` (hall fitness plays them)."""
        return [entry.chromosome() for entry in self._hall_entries(g)]

    def _opponents_at_depth(self) -> list[DepthContestant]:
        """``fitness.opponents`` as depth tasks carry them (resolved once)."""
        if self._opponents is None:
            players = database_lookup(self.store.db)
            self._opponents = [resolve_opponent(spec, players) for spec in self.config.fitness.opponents]
        return self._opponents

    def tasks(self, g: int, members: list[Individual]) -> list[NetworkFitnessTask] | list[DepthFitnessTask]:
        """Generation g's fitness tasks, in task order: with ``fitness.depth
        >= 1`` on the core's engine (any family), else on the fast 1-ply
        loop (networks only: the run check refuses the others)."""
        f = self.config.fitness
        keep = fitness_ranking(f.ranking).needs_games
        if f.depth:
            return depth_fitness_tasks(f, g, self.config.seed, members, self._hall(g), self._opponents_at_depth(),
                                       batch_games=f.batch_games, keep_games=keep)
        return fitness_tasks(f, g, self.config.seed, members, self._hall(g),
                             batch_games=f.batch_games, keep_games=keep)

    def points(self, g: int, members: int) -> np.ndarray:
        """Each member slot's points over generation g's stored tasks, summed in task order."""
        return _total_points(self.store.fitness_results(g), members)

    def order(self, g: int, rows: list[FitnessRow], points: np.ndarray) -> list[int]:
        """Generation g's member slots best first, as ``fitness.ranking``
        orders them: by ``points``, or from each game's points stored in
        ``rows`` (generation g's, in task order: each member's score against
        each opponent)."""
        ranking = fitness_ranking(self.config.fitness.ranking)
        if not ranking.needs_games:
            return ranking.order(points, None, None)
        members = points.size
        kept = [_game_points_of(row, members) for row in rows]
        game_points = np.concatenate(kept) if kept else np.zeros(0)
        hall = len(self._hall_entries(g))
        _, black, white, _ = fitness_games(self.config.fitness, members, hall)
        if game_points.size != black.size:
            raise ValueError(f"generation {g}'s stored fitness holds {game_points.size} games' points, "
                             f"its games are {black.size} (fitness.ranking {ranking.name!r} needs each)")
        contestants = int(max(black.max(initial=-1), white.max(initial=-1))) + 1
        by_points, by_games = scores_by_opponent(black, white, game_points, members, contestants)
        return ranking.order(points, by_points, by_games)

    def games(self, g: int) -> GenerationGames[NetworkFitnessTask | DepthFitnessTask, FitnessPoints, FitnessRow]:
        """Generation g's fitness tasks without a stored row (the total
        recorded with the generation, now that it is known)."""
        tasks = self.tasks(g, [m for _, m in self.members(g)])
        done = self.store.fitness_done(g)
        total = sum(t.games for t in tasks)
        self.store.set_games_total(g, total)

        def rows(outcomes: list[FitnessPoints]) -> list[FitnessRow]:
            return [FitnessRow(o.task_index, _row_bytes(o), o.games) for o in outcomes]

        return GenerationGames(FitnessGames(), batches_of(t for t in tasks if t.task_index not in done), rows,
                               lambda batch: self.store.commit_fitness(g, batch), items=len(tasks),
                               stored=len(done), games=total,
                               games_stored=sum(t.games for t in tasks if t.task_index in done),
                               games_of=lambda outcomes: sum(o.games for o in outcomes))

    def rating(self, g: int) -> tuple[GenerationRating, str]:
        """Each member's points over its games as its performance rating."""
        rows, _ = self.store.rating_inputs(g)
        f = self.config.fitness
        per_member = fitness_games_per_member(f, len(rows), len(self._hall_entries(g)))
        rating = rate_fitness(rows, self.points(g, len(rows)), per_member, self.config.rating.start, f.kind)
        stats = rating.stats
        return rating, (f"best member {stats['best_score']:.1%} of {counted(per_member, 'game')} ({f.kind}), "
                        f"mean {stats['mean_score']:.1%}")

    def champion(self, g: int, breeder: Breeder) -> tuple[int, Individual]:
        """The breeder's champion of generation g (CMA-ES: the distribution
        mean; the GA and random search: the top of the ranking), stored as
        a player of the run if it is none yet."""
        champion = breeder.champion(self.ranking(g).rated)
        return self.store.add_player(champion, self.config.rating.start), champion

    def ranking(self, g: int) -> Ranking:
        """The members best first (points, then slot) with their points and
        slots, the hall's best to inject (GA, random search) and the state
        the breeder stored with the generation."""
        cfg = self.config
        if g not in self._ranked:
            found = self.members(g)
            rows = self.store.fitness_results(g)
            totals = _total_points(rows, len(found))
            order = self.order(g, rows, totals)
            points = totals.tolist()
            self._ranked = {g: ([found[i][1] for i in order], [points[i] for i in order],
                                [found[i][0] for i in order], [int(i) for i in order], self.store.breeder_state(g))}
        ranked, points, ids, slots, state = self._ranked[g]
        hall = []
        if cfg.breeding.inject_top and cfg.hall.games_per_member:
            hall = self.store.hall_ranked(cfg.breeding.inject_top)
        injected: list[Individual] = [e.chromosome() for e in hall]
        games = fitness_games_per_member(cfg.fitness, len(ranked), len(self._hall_entries(g)))
        rated = RatedGeneration(g, self.kind, ranked, injected, state, points, slots, games,
                                ranked_by_points=fitness_ranking(cfg.fitness.ranking).by_points)
        return Ranking(rated, ids, [e.player_id for e in hall])


def _row_bytes(outcome: FitnessPoints) -> bytes:
    """A task's stored points: each member slot's points (float64
    little-endian), then, where the task kept them, Black's points in each
    game as halves (one byte a game: 0 lost, 1 drawn, 2 won). A run ranked
    by points stores the first part alone, as before rankings existed
    (:func:`_total_points` and :func:`_game_points_of` read them back)."""
    row = np.ascontiguousarray(outcome.points, dtype="<f8").tobytes()
    if outcome.game_points is None:
        return row
    return row + np.rint(np.asarray(outcome.game_points) * 2.0).astype(np.uint8).tobytes()


def _total_points(rows: list[FitnessRow], members: int) -> np.ndarray:
    """Each member slot's points over ``rows`` (:func:`_row_bytes`), summed in order."""
    total = np.zeros(members, dtype=np.float64)
    for row in rows:
        total += np.frombuffer(row.points[:8 * members], dtype="<f8")
    return total


def _game_points_of(row: FitnessRow, members: int) -> np.ndarray:
    """Black's points in each game of ``row`` (:func:`_row_bytes`; empty
    where the task kept none)."""
    return np.frombuffer(row.points[8 * members:], dtype=np.uint8).astype(np.float64) / 2.0
