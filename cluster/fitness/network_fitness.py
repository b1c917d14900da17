"""The fitness of a generation of n-tuple networks: which games it plays,
cut into tasks a worker plays in one call of the fast game loop.

A network generation's fitness is tens of thousands of 1-ply games, so it
is never a Python object per game: :func:`fitness_tasks` lays out every game
of the generation in one canonical order and cuts that list into
:class:`NetworkFitnessTask` chunks of at most ``batch_games`` games; a task
carries the quantized (int32) weights of the networks its games need and
plays them with :func:`genethello.core.play.ntuple_games.play_games` in one call,
returning :class:`FitnessPoints` (each member slot's points over the task's
games). :func:`total_points` sums the tasks' points in task order.

Which games a generation plays is its fitness kind's
(:mod:`~genethello.cluster.fitness.fitness_kinds`: ``coevolution``, the
generation's round robin; ``fixed``, every member against each named
built-in opponent, ``"wpc"`` the League's WPC heuristic or ``"random"``;
``hall``, every member against each hall member, the hall's points not
counted); this module plays them.

A *double game* is one start position played twice, each side playing
Black once. Its start is the position after ``start_plies`` uniformly random
moves (0: the standard start), the random game being the fast loop's
``random`` player against itself with the starts' seed and the double game's
index as game id, so a start is a function of (seed, generation, kind,
pair, k) alone. Games ``2d`` and ``2d + 1`` of the canonical list are double
game ``d``; a game's id in the fast loop is its index in that list.

So every game is a pure function of the inputs of :func:`fitness_tasks` and
its index: the points do not depend on how the games are cut into tasks,
which worker plays a task, or in what order tasks finish (and points are
multiples of ½, so sums are exact in any order).

Each member's points are its game points (win 1, draw ½, loss 0) over all
its games; a generation ranks its members by points, then by slot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from genethello.cluster.config import FitnessConfig
from genethello.cluster.fitness.fitness_kinds import FITNESS_KINDS, played_kind
from genethello.core.engine.board import Board
from genethello.core.engine.squares import PASS
from genethello.core.evaluation.ntuple import NTupleEvaluator
from genethello.core.evaluation.ntuple_shapes import Architecture
from genethello.core.families.registry import Individual, family_of
from genethello.core.frontend.bounded_cache import BoundedCache
from genethello.core.play.ntuple_games import play_games, points_from_margins
from genethello.core.play.seeds import derive_seed

__all__ = ["FITNESS_KINDS", "FitnessConfig", "FitnessPoints", "FitnessChunk", "FitnessGames", "NetworkFitnessTask",
           "NetworkWeights", "GameBatch", "fitness_games", "game_batches", "fitness_seed", "fitness_tasks",
           "rank_members", "start_openings", "total_points"]

#: Games per task when the caller names no other size: about a tenth of a
#: second of the fast loop on one core for all-2.
DEFAULT_BATCH_GAMES = 4096



@dataclass(frozen=True, eq=False)
class NetworkWeights:
    """A network as a task carries it to a worker: its architecture and its
    quantized weights (what the games play; a few KB to pickle)."""

    architecture: Architecture
    int_weights: np.ndarray


#: A task's contestant: a network's weights or a built-in opponent's name.
Contestant = NetworkWeights | str


@dataclass(frozen=True, eq=False)
class FitnessPoints:
    """A task's result: each member slot's points over the task's games.

    Attributes:
        task_index: the task's place in the generation's task list.
        points: float64 [members]: the points each member slot won in this task.
        games: the games the task played.
        game_points: float64 [games]: Black's points in each game, in
            order, when the task was asked to keep them (a ranking by each
            opponent's score, :mod:`~genethello.cluster.fitness.fitness_ranking`);
            else None.
    """

    task_index: int
    points: np.ndarray
    games: int
    game_points: np.ndarray | None = None


# Evaluators a worker built, kept between tasks of a generation (each task
# is unpickled afresh): keyed by architecture and weights bytes, bounded by
# count and by bytes (the LUTs and the key's copy of the weights).
_EVALUATORS: BoundedCache[tuple[Architecture, bytes], NTupleEvaluator] = BoundedCache(
    1024, max_bytes=2 << 30, size_of=lambda e: e.nbytes + e.int_weights.nbytes)


def _evaluator(weights: NetworkWeights) -> NTupleEvaluator:
    w = np.ascontiguousarray(weights.int_weights, dtype=np.int32)
    key = (weights.architecture, w.tobytes())
    found = _EVALUATORS.get(key)
    if found is None:
        found = _EVALUATORS.put(key, NTupleEvaluator(weights.architecture, w))
    return found


def start_openings(start_seed: int, start_ids: npt.ArrayLike, plies: int) -> list[tuple[int, ...]]:
    """The move lists (passes written as PASS) of the random starts
    ``start_ids``: the first ``plies`` moves of the fast loop's random player
    against itself, seeded ``start_seed``, game id = start id (fewer where
    that game ended sooner)."""
    ids = np.ascontiguousarray(start_ids, dtype=np.uint64)
    if plies == 0 or ids.size == 0:
        return [() for _ in range(ids.size)]
    zeros = np.zeros(ids.size, dtype=np.int64)
    _, played = play_games(("random",), zeros, zeros, ids, start_seed, epsilon=0.0, record=True)
    openings = []
    for row in played[:, :plies].tolist():
        board = Board()
        moves: list[int] = []
        for sq in row:
            if sq < 0:
                break
            if board.must_pass():
                board.play(PASS)
                moves.append(PASS)
            board.play(sq)
            moves.append(sq)
        openings.append(tuple(moves))
    return openings


@dataclass(frozen=True, eq=False)
class NetworkFitnessTask:
    """A chunk of a generation's fitness games, played in one call of the
    fast loop. ``black``/``white`` index ``contestants``; ``slots`` gives each
    contestant's member slot (-1: not a member, its points are not counted);
    the games are the generation's games ``first_game ..`` in order."""

    task_index: int
    members: int
    contestants: tuple[Contestant, ...]
    slots: np.ndarray
    black: np.ndarray
    white: np.ndarray
    first_game: int
    game_seed: int
    start_seed: int
    start_plies: int
    epsilon: float
    keep_games: bool = False

    @property
    def games(self) -> int:
        return int(self.black.shape[0])

    def run(self) -> FitnessPoints:
        """Play the task's games; the member slots' points."""
        n = self.games
        game_ids = np.arange(self.first_game, self.first_game + n, dtype=np.uint64)
        players = [c if isinstance(c, str) else _evaluator(c) for c in self.contestants]
        if self.start_plies:
            first_start = self.first_game // 2
            start_ids = np.arange(first_start, (self.first_game + n - 1) // 2 + 1, dtype=np.uint64)
            openings = start_openings(self.start_seed, start_ids, self.start_plies)
            margins = play_games(players, self.black, self.white, game_ids, self.game_seed, self.epsilon,
                                 openings=openings, opening_index=(game_ids // 2 - first_start).astype(np.int64))
        else:
            margins = play_games(players, self.black, self.white, game_ids, self.game_seed, self.epsilon)
        black_points = points_from_margins(margins)
        points = np.zeros(self.members, dtype=np.float64)
        for side, pts in ((self.black, black_points), (self.white, 1.0 - black_points)):
            slot = self.slots[side]
            counted = slot >= 0
            np.add.at(points, slot[counted], pts[counted])
        return FitnessPoints(self.task_index, points, n, black_points if self.keep_games else None)


class FitnessChunk(Protocol):
    """A chunk of a generation's fitness games that plays itself: on the
    fast loop (:class:`NetworkFitnessTask`) or searched
    (:class:`~genethello.cluster.fitness.network_depth_fitness.DepthFitnessTask`)."""

    def run(self) -> FitnessPoints: ...


@dataclass(frozen=True)
class FitnessGames:
    """The executors' task of a generation's fitness (cluster/work.py), at
    either setting: the items are whole chunks (thousands of games each,
    which return their members' points rather than one outcome a game),
    the outcomes their :class:`FitnessPoints`, one a chunk, in order."""

    def run(self, items: Sequence[FitnessChunk]) -> list[FitnessPoints]:
        return [item.run() for item in items]


def fitness_seed(seed: int, generation: int, kind: str, purpose: str) -> int:
    """A 64-bit key of (seed, generation, kind, purpose): BLAKE2b, the same
    in every process."""
    return derive_seed(seed, "network-fitness", generation, kind, purpose)


def _weights(individual: Individual) -> NetworkWeights:
    """``individual`` as the fast loop plays it: its family's network.

    Raises:
        ValueError: for an individual that is no network.
    """
    network = family_of(individual).network(individual)
    if network is None:
        raise ValueError(f"{individual} is not a network: the fast 1-ply loop plays networks (fitness.depth 0)")
    return NetworkWeights(network.architecture, network.int_weights)


@dataclass(frozen=True, eq=False)
class GameBatch:
    """One task's share of a generation's games: its index, the first game's
    place in the canonical order, the contestants it uses (indices into the
    generation's contestants), their member slots (-1 for an opponent or a
    hall member) and Black and White of each game as indices into ``used``."""

    task_index: int
    first_game: int
    used: list[int]
    slots: np.ndarray
    black: np.ndarray
    white: np.ndarray


def game_batches(black: np.ndarray, white: np.ndarray, members: int, contestants: int,
                 batch_games: int) -> list[GameBatch]:
    """The games in canonical order cut into chunks of ``batch_games``, each
    carrying only the contestants it plays (what both fitness loops hand
    their tasks)."""
    all_slots = np.array([i if i < members else -1 for i in range(contestants)], dtype=np.int64)
    batches = []
    for index, start in enumerate(range(0, black.size, batch_games)):
        b = black[start:start + batch_games]
        w = white[start:start + batch_games]
        used, local = np.unique(np.concatenate([b, w]), return_inverse=True)
        batches.append(GameBatch(index, start, used.tolist(), all_slots[used], local[:b.size].astype(np.int32),
                                 local[b.size:].astype(np.int32)))
    return batches


def fitness_games(config: FitnessConfig, members: int, hall: int) -> tuple[str, np.ndarray, np.ndarray, int]:
    """The layout of a generation's games: the name of the kind played
    (``hall`` with an empty hall plays as ``fixed``), Black and White of
    every game in canonical order (indices: the members, then the opponents
    or the hall members) and the double games per pairing.

    Raises:
        ValueError: for fewer than 2 members in coevolution.
    """
    kind = played_kind(config.kind, hall)
    black, white, per_pairing = kind.pairings(config, members, len(kind.others(config.opponents, range(hall))))
    return kind.name, black, white, per_pairing


def fitness_tasks(config: FitnessConfig, generation: int, seed: int, members: Sequence[Individual],
                  hall: Sequence[Individual] = (),
                  batch_games: int = DEFAULT_BATCH_GAMES, keep_games: bool = False) -> list[NetworkFitnessTask]:
    """The tasks of a generation's fitness, in task_index order (a pure
    function of the arguments; module docstring); ``keep_games``: each
    task also returns each game's points (:attr:`FitnessPoints.game_points`).

    Raises:
        ValueError: for fewer than 2 members in coevolution, a batch size
            below 1, or a member or hall member that is no network.
    """
    if batch_games < 1:
        raise ValueError(f"batch_games must be >= 1, got {batch_games}")
    n = len(members)
    contestants: list[Contestant] = [_weights(m) for m in members]
    kind, black, white, _ = fitness_games(config, n, len(hall))
    contestants += played_kind(config.kind, len(hall)).others(config.opponents, [_weights(h) for h in hall])
    game_seed = fitness_seed(seed, generation, kind, "games")
    start_seed = fitness_seed(seed, generation, kind, "starts")
    return [NetworkFitnessTask(
        task_index=batch.task_index, members=n, contestants=tuple(contestants[i] for i in batch.used),
        slots=batch.slots, black=batch.black, white=batch.white, first_game=batch.first_game, game_seed=game_seed,
        start_seed=start_seed, start_plies=config.start_plies, epsilon=float(config.epsilon), keep_games=keep_games)
        for batch in game_batches(black, white, n, len(contestants), batch_games)]


def total_points(results: Iterable[FitnessPoints], members: int) -> np.ndarray:
    """Each member slot's points over all the results, summed in task_index order."""
    total = np.zeros(members, dtype=np.float64)
    for result in sorted(results, key=lambda r: r.task_index):
        if result.points.shape != (members,):
            raise ValueError(f"task {result.task_index} has points for {result.points.shape} members, "
                             f"expected {members}")
        total += result.points
    return total


def rank_members(points: npt.ArrayLike) -> list[int]:
    """Member slots best first: points descending, then slot ascending."""
    p = np.asarray(points, dtype=np.float64)
    return sorted(range(p.size), key=lambda i: (-p[i], i))
