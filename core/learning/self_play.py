"""A learning slice: a staged network learns from its own ε-greedy games.

:func:`learn` plays ``games`` self-play games of the network at
``depth`` plies (solving exactly at ``exact_empties``), ε-greedy (each move
with probability ε a uniformly drawn legal one: the exploration of
Szubert, Jaśkowski & Krawiec's CTDL), and after every batch of
``batch_games`` games learns from each game in order by the offline
λ-return (:func:`genethello.core.learning.td.td_lambda_game`). A batch's
games are played on the weights learned before it (one evaluator build a
batch: building a large network's evaluator costs more than a game), so
``batch_games = 1`` is learning after every game.

The targets are the game's own λ-returns: the member's own games at the
fitness depth are what CTDL learns from and what the run's selection
judges. Two options see further (issue 36 part 4, both off by default):
``exact_targets`` solves the game's positions within the solver's reach
and learns their exact scores, and ``search_targets`` bootstraps the
λ-return from a depth-d search of each position on the weights the game
was played on (search bootstrapping: Veness et al.'s RootStrap, the root
of TreeStrap; TDLeaf(λ)'s leaf values) — a search a position, so they
cost more a game (bench_td_learning's rows).

The slice is a pure function of the network, the settings and the seed:
game j's ε stream and random opening come from ``SeedSequence([seed, j])``,
so a worker, a machine or a resumed run learns the same weights. Weights
are kept within ±:data:`MAX_LEARNED_DISCS` (a staged network's weights
are discs; a search clamps values at ±62.5 anyway) after each batch and,
at the slice's end, on a grid of 2**-16 disc (:data:`LEARNED_GRID`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from genethello.core.engine.board import Board
from genethello.core.engine.game import Engine, play_game, random_opening
from genethello.core.engine.search import Searcher, disc_score
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.families.networks import Network
from genethello.core.learning.live import LiveNetwork
from genethello.core.learning.td import TouchedWeights, TupleReader, game_positions, td_lambda_game
from genethello.core.play.seeds import derive_seed

__all__ = ["LEARNED_GRID", "MAX_LEARNED_DISCS", "Learner", "LearningSettings", "SliceReport", "learn",
           "on_learned_grid"]

#: The largest |weight| (discs) learning leaves in a network.
MAX_LEARNED_DISCS = 256.0
#: A slice's weights are multiples of 1 / LEARNED_GRID disc.
LEARNED_GRID = 65536.0


@dataclass(frozen=True)
class LearningSettings:
    """How a member learns in one slice (the hyperparameters a learning
    breeder perturbs: ``alpha``, ``lam``, ``epsilon``, ``depth``).

    Attributes:
        alpha: the step, a fraction of each position's error (0..1].
        lam: λ of the λ-return (0: TD(0) .. 1: the outcome alone).
        epsilon: the probability of a random move (0..1).
        depth: the self-play search depth (plies, >= 1).
        exact_empties: solve exactly from this many empties (0: never).
        games: self-play games in the slice.
        batch_games: games played on one set of weights before learning
            from them (>= 1).
        opening_plies: random plies before each game (0: from the start).
        exact_targets: solve every position of a game with at most this
            many empties (the core's solver); its target is the exact
            score (0: none, today's targets).
        search_targets: bootstrap the λ-return from a search of this many
            plies of each position, on the weights the game was played
            on, instead of the static value (0: the static value, today's).
    """

    alpha: float
    lam: float
    epsilon: float
    depth: int
    exact_empties: int = 0
    games: int = 100
    batch_games: int = 10
    opening_plies: int = 0
    exact_targets: int = 0
    search_targets: int = 0

    def __post_init__(self) -> None:
        if not 0.0 < self.alpha <= 1.0:
            raise ValueError(f"alpha must be within (0, 1], not {self.alpha!r}")
        for name in ("lam", "epsilon"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be within [0, 1], not {value!r}")
        if self.depth < 1 or self.exact_empties < 0 or self.games < 0 or self.batch_games < 1 or \
                self.opening_plies < 0:
            raise ValueError("depth and batch_games must be >= 1, exact_empties, games and opening_plies >= 0")
        if not 0 <= self.exact_targets <= 60 or not 0 <= self.search_targets <= 60:
            raise ValueError(f"exact_targets and search_targets must be within 0..60, not "
                             f"{self.exact_targets!r} and {self.search_targets!r}")


@dataclass(frozen=True)
class SliceReport:
    """What a slice learned from: its games and positions, the sum of the
    squared errors (discs², before each game's update) and Black's points."""

    games: int
    positions: int
    squared_error: float
    black_points: float

    @property
    def mean_squared_error(self) -> float:
        """The mean squared error per position, discs² (0 with none)."""
        return self.squared_error / self.positions if self.positions else 0.0


def _game_seeds(seed: int, game: int) -> tuple[int, int]:
    return derive_seed(seed, "self-play-stream", game), derive_seed(seed, "self-play-opening", game)


class Learner:
    """A staged network learning slice after slice in place
    (:class:`~genethello.core.learning.live.LiveNetwork`): a batch's games
    are played on its live evaluator, and learning then settles only the
    weights the batch's games touched, so a slice costs its games, not the
    network's size (``patterns-v2-net``: 5 million weights). Building one
    costs what an evaluator build costs, once.

    Raises:
        ValueError: for a network that is not staged (its values are not
            discs).
    """

    def __init__(self, network: Network) -> None:
        if not network.staged:
            raise ValueError(f"only a staged network (valued in discs) learns by temporal differences; "
                             f"{network.architecture.name} has 1 stage")
        self.start = network
        self.live = LiveNetwork(network, MAX_LEARNED_DISCS, LEARNED_GRID)
        self.reader = TupleReader(network.architecture, network.stages, network.mobility)
        self._batch = TouchedWeights(self.live.weights.size)
        self._slice = TouchedWeights(self.live.weights.size)

    def slice(self, settings: LearningSettings, seed: int) -> SliceReport:
        """One learning slice (module docstring) on the live weights."""
        live = self.live
        positions, squared, points = 0, 0.0, 0.0
        for first in range(0, settings.games, settings.batch_games):
            engine = Engine(NetworkEvaluator(self.start, ntuple=live.evaluator), depth=settings.depth,
                            exact_empties=settings.exact_empties)
            batch = []
            for game in range(first, min(first + settings.batch_games, settings.games)):
                stream, opening_seed = _game_seeds(seed, game)
                opening = random_opening(settings.opening_plies, opening_seed) if settings.opening_plies else ()
                batch.append(play_game(engine, engine, opening, epsilon=settings.epsilon, seed=stream))
            further: list[tuple[np.ndarray | None, np.ndarray | None]] = [(None, None)] * len(batch)
            if settings.exact_targets or settings.search_targets:
                evaluator = NetworkEvaluator(self.start, ntuple=live.evaluator)
                search, solver = Searcher(evaluator, hashing=False), Searcher(evaluator)
                further = [further_targets(search, solver, result.moves, settings) for result in batch]
            for result, (bootstrap, exact) in zip(batch, further):
                learned, error = td_lambda_game(self.reader, live.weights, result.moves, settings.alpha,
                                                settings.lam, self._batch, bootstrap, exact)
                positions += learned
                squared += error
                points += result.black_points
            live.settle(self._batch)                  # clipped, requantized, patched
            self._slice.add(self._batch.indices())
            self._batch.clear()
        # The slice's weights on a grid of 2**-16 disc (far finer than the
        # 1/64 disc a search plays): few mantissa bits, so a large network's
        # stored weights pack small (network_family), exactly what the next
        # slice learns from.
        live.settle(self._slice, round_to_grid=True)
        self._slice.clear()
        return SliceReport(settings.games, positions, squared, points)

    def network(self) -> Network:
        """The network as it stands (its weights copied)."""
        network: Network = self.live.network()
        return network


def on_learned_grid(network: Network) -> Network:
    """``network`` with its weights where a slice leaves a Learner's: within
    ±MAX_LEARNED_DISCS, on the 2**-16-disc grid (so a network made from a
    slice's weights, e.g. its change smoothed across stages, packs as small
    as a slice's and the next slice starts from exactly its stored bits)."""
    grid = np.rint(network.weights * LEARNED_GRID) / LEARNED_GRID
    return network.with_weights(np.clip(grid, -MAX_LEARNED_DISCS, MAX_LEARNED_DISCS))


def further_targets(search: Searcher, solver: Searcher, moves: Sequence[int],
                    settings: LearningSettings) -> tuple[np.ndarray | None, np.ndarray | None]:
    """A game's bootstrap values and exact scores (discs for the side to
    move, NaN where none; None when the settings ask for neither) for
    :func:`~genethello.core.learning.td.td_lambda_game`: positions with at
    most ``exact_targets`` empties solved by ``solver``, the others
    searched ``search_targets`` plies by ``search`` (no transposition
    table, so a value is the depth-d value whatever was searched before;
    exact within ``exact_empties``)."""
    positions, _ = game_positions(moves)
    bootstrap = np.full(len(positions), np.nan) if settings.search_targets else None
    exact = np.full(len(positions), np.nan) if settings.exact_targets else None
    units = search.disc_units
    for t, (player, opponent, side) in enumerate(positions):
        board = Board.from_bitboards(player, opponent, "black") if side == 0 else \
            Board.from_bitboards(opponent, player, "white")
        if exact is not None and board.empties <= settings.exact_targets:
            exact[t] = solver.solve(board).value
        elif bootstrap is not None:
            r = search.search(board, depth=settings.search_targets, exact_empties=settings.exact_empties)
            bootstrap[t] = r.value if r.exact else disc_score(r.value, False, units)
    return bootstrap, exact


def learn(network: Network, settings: LearningSettings, seed: int) -> tuple[Network, SliceReport]:
    """``network`` after one learning slice (module docstring), with what it
    learned from (a :class:`Learner` for one slice: a caller that learns
    slice after slice keeps a Learner and pays the evaluator build once).

    Raises:
        ValueError: for a network that is not staged (its values are not
            discs) or bad settings.
    """
    learner = Learner(network)
    report = learner.slice(settings, seed)
    return learner.network(), report
