"""A network generation's fitness with search in the loop (``fitness.depth >= 1``).

With ``fitness.depth = 0`` (the default) a network run plays its fitness
on the fast 1-ply loop (:mod:`genethello.cluster.fitness.network_fitness`);
with ``depth >= 1`` every game of every fitness kind (fixed opponents, the
hall, coevolution) is a game of the core's engine: each side an
:class:`~genethello.core.engine.game.Engine` searching its evaluator at
``fitness.depth`` plies, solving exactly at ``fitness.exact_empties``
empties, played by :func:`~genethello.core.engine.game.play_game` (the move
loop in C: one Python call a game, none a move). The games are the same
list, in the same canonical order, as on the fast loop (members and
opponents, pairs and double games: ``network_fitness``); what differs is
who plays them and from where:

* **contestants**: a member is carried as its stored text and payload and
  played through its family's evaluator
  (:func:`~genethello.core.families.registry.evaluator_of`: a
  ``NetworkEvaluator``); a fixed opponent is a player a command takes by
  name (:func:`resolve_opponent`: a chromosome text such as ``p_1_10`` or a
  shipped network's name such as ``patterns-v2-net``; not a file, which the
  stored config would name to every resume), or a player of the run's
  database (``player:ID``, another run's champion frozen when the run was
  created: :mod:`~genethello.cluster.fitness.database_players`), resolved once on the coordinator
  and carried as text and payload, or ``"wpc"``, the League's WPC heuristic
  searched as a network (:func:`wpc_evaluator`);
* **starts**: with ``fitness.openings`` naming a set (``distinct-N``), the
  k-th double game of every pairing starts from opening k of one series of
  that set drawn without replacement (seeded by the run seed, the
  generation and the kind), so every member meets its opponents from the
  same distinct openings; with ``""`` each double game starts from the
  fast loop's random start of ``fitness.start_plies`` plies, as at depth 0.
  The engines are deterministic at a fixed depth, so no ε is played but an
  ε-player's, whose draws are seeded by the game.

A game is then a pure function of its contestants, its opening, the depth
and the exact setting: a task's :class:`FitnessPoints` do not depend on the
batches, the worker or the order tasks finish in. Each side of a game is
its own engine (a worker keeps a black and a white seat a setting; tables
are cleared at every game's start), so a network meeting its twin still
plays two engines.

The hall's stored games at the same setting are the one match task's
(:class:`~genethello.cluster.fitness.matches.Matches`,
``generation.Generation.hall``), and every game here is played by
its :func:`~genethello.cluster.fitness.matches.search_game`: the engines of
both are the same, kept in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from genethello.cluster.config import FitnessConfig
from genethello.cluster.fitness.database_players import PlayerLookup, database_individual, names_database_player
from genethello.cluster.fitness.epsilon_players import epsilon_player, epsilon_player_name, split_epsilon
from genethello.cluster.fitness.fitness_kinds import played_kind
from genethello.cluster.fitness.matches import (
    WPC,
    WPC_ARCHITECTURE,
    PlaySetting,
    Side,
    forget_engines,
    search_game,
    side_of,
    wpc_evaluator,
)
from genethello.cluster.fitness.network_fitness import (
    FitnessPoints,
    fitness_games,
    fitness_seed,
    game_batches,
    start_openings,
)
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.individual_names import looks_like_path, resolve_individual
from genethello.core.families.network_family import NETWORKS, NetworkIndividual
from genethello.core.families.networks import Network
from genethello.core.families.registry import Individual, family_of
from genethello.core.play.openings import opening_set
from genethello.core.play.scoring import points_from_margin
from genethello.core.play.seeds import series_name

__all__ = ["WPC", "DepthContestant", "DepthFitnessTask", "depth_contestant",
           "depth_fitness_tasks", "fitness_openings", "forget_engines", "opponent_individual", "resolve_opponent",
           "wpc_evaluator"]

#: A contestant as a depth task carries it: an individual's (text, payload),
#: or :data:`WPC`.
DepthContestant = tuple[str, bytes | None] | str


def resolve_opponent(spec: str, players: PlayerLookup | None = None) -> DepthContestant:
    """A fitness opponent at depth as a task carries it: :data:`WPC`, or
    the (text, payload) of the player ``spec`` names as a command would
    (:func:`~genethello.core.families.individual_names.resolve_individual`:
    a shipped network or a chromosome text; never a file, since the stored
    config names the opponents), or ``player:ID``, a player of the run's
    database that ``players`` reads (:mod:`database_players`).

    An ε-player (``eps0.2:p_1_10``) is carried as its player with the ε
    prefix on its text.

    Raises:
        ValueError: one line naming ``spec`` (``random`` has no evaluation
            to search; ``champion:RUN`` not frozen to its player; ``player:ID``
            without ``players`` or with no such row).
    """
    epsilon, player = split_epsilon(spec)
    if epsilon:
        if epsilon_player(player):
            raise ValueError(f"{spec!r}: an ε-player of an ε-player; name one ε")
        found = resolve_opponent(player, players)
        if isinstance(found, str):
            return epsilon_player_name(epsilon, found)
        return epsilon_player_name(epsilon, found[0]), found[1]
    if spec == WPC:
        return WPC
    if spec == "random":
        raise ValueError("'random' plays only on the fast 1-ply loop (fitness.depth 0): it has no evaluation "
                         "to search")
    if names_database_player(spec):
        return depth_contestant(database_individual(spec, players))
    if looks_like_path(spec):
        # The opponents are part of the stored config, which a resumed run
        # reads: a database never makes genethello open a file it names.
        raise ValueError(f"{spec!r} names a file, which a run's stored config may not (a database never makes "
                         "genethello read a path it names): name a shipped network or a chromosome text")
    return depth_contestant(resolve_individual(spec))


def opponent_individual(spec: str, players: PlayerLookup | None = None) -> Individual:
    """The individual whose row names fitness opponent ``spec`` in a run's
    tables (a fixed-opponent run's hall plays it): the player ``spec``
    names (``players`` reads a ``player:ID``), or for :data:`WPC` the
    ``all-1`` network of its weights in hundredths (the stored form
    quantizes them: the games play the exact :func:`wpc_evaluator`).

    Raises:
        ValueError: as :func:`resolve_opponent`, and for an ε-player, whose
            games are drawn and so are not a rating's anchor.
    """
    if epsilon_player(spec):
        raise ValueError(f"{spec!r}: an ε-player plays the fitness only; it anchors no hall rating")
    if spec == WPC:
        arch = architecture(WPC_ARCHITECTURE)
        return NetworkIndividual(NETWORKS.parse_kind(arch.name), 0,
                                 Network(arch, wpc_evaluator().ntuple.int_weights.astype(np.float64)))
    if names_database_player(spec):
        return database_individual(spec, players)
    resolve_opponent(spec)
    return resolve_individual(spec)


def depth_contestant(individual: Individual) -> DepthContestant:
    """An individual as a depth task carries it: its text and its family's payload."""
    return (str(individual), family_of(individual).storage(individual).payload)


def _game_points(black: Side, white: Side, opening: Sequence[int]) -> float:
    return points_from_margin(search_game(black, white, opening).score)


def fitness_openings(config: FitnessConfig, seed: int, generation: int, kind: str, count: int
                     ) -> tuple[tuple[int, ...], ...]:
    """The ``count`` openings of generation ``generation``'s pairings
    (``fitness.openings``: one series of that set, seeded by the run seed,
    the generation and the kind); () without a set."""
    if not config.openings:
        return ()
    series = opening_set(config.openings).series(series_name(seed, "network-fitness", generation, kind), count)
    return tuple(tuple(moves) for moves in series)


@dataclass(frozen=True, eq=False)
class DepthFitnessTask:
    """A chunk of a generation's fitness games at depth: the generation's
    games ``first_game ..`` in order, ``black``/``white`` indexing
    ``contestants``, ``slots`` each contestant's member slot (-1: not a
    member). Double game d starts from ``openings[d % per_pairing]`` when
    openings are given, else from the fast loop's random start d of
    ``start_plies`` plies seeded ``start_seed``."""

    task_index: int
    members: int
    contestants: tuple[DepthContestant, ...]
    slots: np.ndarray
    black: np.ndarray
    white: np.ndarray
    first_game: int
    depth: int
    exact_empties: int
    per_pairing: int
    openings: tuple[tuple[int, ...], ...]
    start_seed: int
    start_plies: int
    keep_games: bool = False

    @property
    def games(self) -> int:
        return int(self.black.shape[0])

    def starts(self) -> list[tuple[int, ...]]:
        """Each game's opening, in order."""
        doubles = np.arange(self.first_game, self.first_game + self.games, dtype=np.int64) // 2
        if self.openings:
            return [self.openings[d % self.per_pairing] for d in doubles.tolist()]
        first = int(doubles[0]) if doubles.size else 0
        walks = start_openings(self.start_seed, np.arange(first, int(doubles[-1]) + 1 if doubles.size else first),
                               self.start_plies)
        return [walks[d - first] for d in doubles.tolist()]

    def run(self) -> FitnessPoints:
        """Play the task's games; the member slots' points."""
        points = np.zeros(self.members, dtype=np.float64)
        kept = np.zeros(self.games, dtype=np.float64) if self.keep_games else None
        setting = PlaySetting(self.depth, self.exact_empties)
        sides = [side_of(c, setting) for c in self.contestants]
        for i, (b, w, opening) in enumerate(zip(self.black.tolist(), self.white.tolist(), self.starts(), strict=True)):
            black_points = _game_points(sides[b], sides[w], opening)
            if kept is not None:
                kept[i] = black_points
            if self.slots[b] >= 0:
                points[self.slots[b]] += black_points
            if self.slots[w] >= 0:
                points[self.slots[w]] += 1.0 - black_points
        return FitnessPoints(self.task_index, points, self.games, kept)


def depth_fitness_tasks(config: FitnessConfig, generation: int, seed: int, members: Sequence[Individual],
                        hall: Sequence[Individual] = (), opponents: Sequence[DepthContestant] = (),
                        batch_games: int = 64, keep_games: bool = False) -> list[DepthFitnessTask]:
    """The tasks of a generation's fitness at depth, in task order: the
    games of :func:`~genethello.cluster.fitness.network_fitness.fitness_games`
    (the members, then the ``opponents`` — ``fitness.opponents`` resolved
    by :func:`resolve_opponent`, in their order — or the hall) cut into
    chunks of ``batch_games`` (a pure function of the arguments);
    ``keep_games``: each task also returns each game's points.

    Raises:
        ValueError: for fewer than 2 members in coevolution, a batch size
            below 1, or opponents that are not the config's.
    """
    if batch_games < 1:
        raise ValueError(f"batch_games must be >= 1, got {batch_games}")
    n = len(members)
    kind, black, white, per_pairing = fitness_games(config, n, len(hall))
    contestants: list[DepthContestant] = [depth_contestant(m) for m in members]
    played = played_kind(config.kind, len(hall))
    if len(played.others(opponents, ())) != len(played.others(config.opponents, ())):
        raise ValueError(f"{len(opponents)} resolved opponents for fitness.opponents {list(config.opponents)}")
    contestants += played.others(opponents, [depth_contestant(h) for h in hall])
    openings = fitness_openings(config, seed, generation, kind, per_pairing)
    start_seed = fitness_seed(seed, generation, kind, "starts")
    return [DepthFitnessTask(
        task_index=batch.task_index, members=n, contestants=tuple(contestants[i] for i in batch.used),
        slots=batch.slots, black=batch.black, white=batch.white, first_game=batch.first_game, depth=config.depth,
        exact_empties=config.exact_empties, per_pairing=per_pairing, openings=openings, start_seed=start_seed,
        start_plies=config.start_plies, keep_games=keep_games)
        for batch in game_batches(black, white, n, len(contestants), batch_games)]
