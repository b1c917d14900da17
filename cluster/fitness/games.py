"""Playing a batch of games: no Ray, no database.

Three kinds of game travel to the workers, each with its task (a
:class:`~genethello.cluster.work.Task`: a small picklable value sent once
per run of an executor, which plays batches of its specs in a worker):

* :class:`RoundRobinGames` plays :class:`GameSpec` s, two chromosomes of a
  generation, and returns :class:`GameOutcome` s;
* :class:`HallGames` plays :class:`HallGameSpec` s, an entrant of the hall of
  fame against a member, and returns :class:`HallGameOutcome` s;
* :class:`GauntletGames` plays :class:`GauntletSpec` s, a chromosome against
  one of the yardstick's fixed opponents (built by name on the worker, never
  from a command), and returns :class:`GauntletOutcome` s;
* :class:`CompareGames` plays :class:`CompareGameSpec` s, two champions of
  possibly different runs and families, each searching with its own run's
  :class:`PlayerSettings`, and returns :class:`CompareGameOutcome` s
  (``genethello compare``).

A worker process keeps, per game settings, two engines (a black and a white
seat, each with its transposition table) and the evaluators of the players
it has met, so a batch costs only its games. A game's opening depends only
on the seed and the spec's opening keys, never on which worker plays it:
the result is a pure function of the spec.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from genethello.cluster.config import GamesConfig
from genethello.cluster.fitness.pairing import opening_seed
from genethello.core.engine.game import Engine, GameResult, play_game, random_opening
from genethello.core.evaluation.evaluation import BaseEvaluator
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.registry import evaluator_of, parse_individual
from genethello.core.frontend.bounded_cache import BoundedCache
from genethello.core.play.players import (
    ChromosomePlayer,
    GreedyPlayer,
    Player,
    RandomPlayer,
    SquareWeightsPlayer,
    play,
)


@dataclass(frozen=True)
class GameSettings:
    """How every game of a run is played (from the run's config)."""

    run_seed: int
    depth: int
    exact_empties: int
    random_plies: int
    algorithm: str = "negascout-soft"
    tt_bits: int = 16
    patterns: str = ""        # pattern table version of the run ('' : the newest installed)

    @classmethod
    def for_run(cls, seed: int, games: GamesConfig, patterns: str = "") -> GameSettings:
        """The settings of a run's games: its seed, its config's ``[games]``
        by name, and the version of the pattern table the run keeps."""
        return cls(run_seed=seed, depth=games.depth, exact_empties=games.exact_empties,
                   random_plies=games.random_plies, algorithm=games.algorithm, tt_bits=games.tt_bits,
                   patterns=patterns)


@dataclass(frozen=True)
class GameSpec:
    """One round-robin game: its place in the generation's schedule and the
    players (chromosome text and population slot; the slots seed the
    opening)."""

    generation: int
    pair_index: int
    black: str
    white: str
    black_slot: int
    white_slot: int


@dataclass(frozen=True)
class GameOutcome:
    """What the coordinator stores for a game, keyed by its place in the
    schedule (the coordinator knows which players that pair seats)."""

    generation: int
    pair_index: int
    score: int            # Black's final margin, empties to the winner
    black_discs: int
    white_discs: int
    moves: str            # 'f5d6...' (passes implicit)
    nodes: int


class GameRunner:
    """Plays game specs under fixed settings, reusing engines and evaluators."""

    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self._evaluators: BoundedCache[str, BaseEvaluator] = BoundedCache(4096)
        self._seats: tuple[Engine, Engine] | None = None

    def _evaluator(self, text: str) -> BaseEvaluator:
        ev = self._evaluators.get(text)
        if ev is None:
            ev = self._evaluators.put(text, evaluator_of(parse_individual(text), self.settings.patterns or None))
        return ev

    def play(self, black_text: str, white_text: str, opening: Sequence[int]) -> GameResult:
        """One game of these chromosomes after the ``opening`` moves."""
        s = self.settings
        black_ev, white_ev = self._evaluator(black_text), self._evaluator(white_text)
        if self._seats is None:
            black_seat, white_seat = (
                Engine(ev, depth=s.depth, exact_empties=s.exact_empties, algorithm=s.algorithm, tt_bits=s.tt_bits)
                for ev in (black_ev, white_ev))
            self._seats = (black_seat, white_seat)
        black, white = self._seats
        black.use_evaluator(black_ev)
        white.use_evaluator(white_ev)
        return play_game(black, white, opening)


_RUNNERS: BoundedCache[GameSettings, GameRunner] = BoundedCache(8)


def runner_for(settings: GameSettings) -> GameRunner:
    """This process's runner for ``settings`` (kept between batches)."""
    runner = _RUNNERS.get(settings)
    if runner is None:
        runner = _RUNNERS.put(settings, GameRunner(settings))
    return runner


@dataclass(frozen=True)
class RoundRobinGames:
    """The task of a generation's round robin under the run's settings."""

    settings: GameSettings

    def run(self, specs: Sequence[GameSpec]) -> list[GameOutcome]:
        runner = runner_for(self.settings)
        out = []
        for spec in specs:
            seed = opening_seed(self.settings.run_seed, spec.generation, spec.black_slot, spec.white_slot)
            result = runner.play(spec.black, spec.white, random_opening(self.settings.random_plies, seed))
            out.append(GameOutcome(spec.generation, spec.pair_index, result.score, result.black_discs,
                                   result.white_discs, result.move_list(), result.nodes))
        return out


@dataclass(frozen=True)
class HallGameSpec:
    """One game of a hall-of-fame entry: the entrant against the member at
    ``member`` (its position in entry order), from ``opening`` (pair
    ``pair`` of that member's series; both colours of a pair share it:
    :func:`~genethello.cluster.measures.hall.entry_openings`)."""

    generation: int
    game_index: int
    black: str
    white: str
    member: int
    pair: int
    opening: tuple[int, ...]


@dataclass(frozen=True)
class ScheduledGameOutcome:
    """A game's result keyed by its place in its schedule (the spec knows
    the players): what the store keeps of a hall game, and what a
    comparison game reports."""

    game_index: int
    score: int            # Black's final margin, empties to the winner
    nodes: int


#: A hall game's result (:class:`ScheduledGameOutcome`).
HallGameOutcome = ScheduledGameOutcome


@dataclass(frozen=True)
class HallGames:
    """The task of a hall entry's games (each spec carries its opening)."""

    settings: GameSettings

    def run(self, specs: Sequence[HallGameSpec]) -> list[HallGameOutcome]:
        runner = runner_for(self.settings)
        out = []
        for spec in specs:
            result = runner.play(spec.black, spec.white, spec.opening)
            out.append(HallGameOutcome(spec.game_index, result.score, result.nodes))
        return out


#: The yardstick's built-in opponents, by the name a GauntletSpec carries;
#: "chromosome:TEXT" (an evolved player) and "league" are the other names.
BUILT_IN_OPPONENTS = ("random", "greedy", "square-weights")


@dataclass(frozen=True)
class GauntletSpec:
    """One yardstick game: ``candidate`` (chromosome text) against the
    opponent named ``opponent``, after the ``opening`` moves, ``opening_seed``
    seeding the random players' moves (for ``league``: the start position,
    ε-random moves seeded by ``opening_seed``). ``index`` is its place in
    the measurement's schedule."""

    index: int
    candidate: str
    opponent: str
    candidate_black: bool
    opening_seed: int
    opening: tuple[int, ...]
    depth: int
    exact_empties: int
    patterns: str = ""        # the run's pattern table version ('': the newest installed)


@dataclass(frozen=True)
class GauntletOutcome:
    """A yardstick game's result: the candidate's final margin."""

    index: int
    margin: int


class GauntletRunner:
    """Plays GauntletSpecs, keeping the players it has built."""

    def __init__(self) -> None:
        self._players: BoundedCache[tuple[str, int, int, str], Player] = BoundedCache(64)

    def _player(self, name: str, depth: int, exact: int, patterns: str = "") -> Player:
        key = (name, depth, exact, patterns)
        player = self._players.get(key)
        if player is None:
            if name.startswith("chromosome:"):
                player = ChromosomePlayer(Chromosome.parse(name.split(":", 1)[1]), depth, exact,
                                          patterns=patterns or None)
            elif name == "random":
                player = RandomPlayer()
            elif name == "greedy":
                player = GreedyPlayer()
            elif name == "square-weights":
                player = SquareWeightsPlayer()
            else:
                raise ValueError(f"unknown yardstick opponent {name!r}")
            self._players.put(key, player)
        return player

    def play(self, spec: GauntletSpec) -> GauntletOutcome:
        if spec.opponent == "league":
            from genethello.core.play.league import league_game

            evolved = self._player("chromosome:" + spec.candidate, 1, 0, spec.patterns)
            return GauntletOutcome(spec.index, league_game(evolved, spec.opening_seed, spec.candidate_black))
        me = self._player("chromosome:" + spec.candidate, spec.depth, spec.exact_empties, spec.patterns)
        other = self._player(spec.opponent, spec.depth, spec.exact_empties, spec.patterns)
        opening = list(spec.opening)
        if spec.candidate_black:
            margin = play(me, other, opening, seed=spec.opening_seed)
        else:
            margin = -play(other, me, opening, seed=spec.opening_seed)
        return GauntletOutcome(spec.index, margin)


_GAUNTLET = GauntletRunner()


@dataclass(frozen=True)
class GauntletGames:
    """The task of a yardstick measurement's built-in games (each spec
    carries its own search limits)."""

    def run(self, specs: Sequence[GauntletSpec]) -> list[GauntletOutcome]:
        return [_GAUNTLET.play(spec) for spec in specs]


@dataclass(frozen=True)
class PlayerSettings:
    """How one player searches in a comparison: its own run's games
    settings (``games.depth``, ``games.exact_empties``, ``games.algorithm``,
    ``games.tt_bits``) and the pattern table its run recorded."""

    depth: int
    exact_empties: int
    algorithm: str = "negascout-soft"
    tt_bits: int = 16
    patterns: str = ""        # pattern table version ('' : the newest installed)


@dataclass(frozen=True)
class Entrant:
    """A player of a comparison as it travels to the workers: its text, its
    stored payload (a network's weights; None for a chromosome) and how it
    searches."""

    text: str
    payload: bytes | None
    settings: PlayerSettings


@dataclass(frozen=True)
class CompareGameSpec:
    """One comparison game: its place in the schedule, Black's and White's
    places among the task's entrants, and the opening's moves."""

    game_index: int
    black: int
    white: int
    opening: tuple[int, ...]


#: A comparison game's result (:class:`ScheduledGameOutcome`).
CompareGameOutcome = ScheduledGameOutcome


#: This process's engines of comparison players, by (text, settings).
_COMPARE_ENGINES: BoundedCache[tuple[str, PlayerSettings], Engine] = BoundedCache(256)


def _compare_engine(entrant: Entrant) -> Engine:
    """This process's engine of ``entrant`` (one per player and settings:
    a player never meets itself, so a game never needs two)."""
    key = (entrant.text, entrant.settings)
    engine = _COMPARE_ENGINES.get(key)
    if engine is None:
        s = entrant.settings
        evaluator = evaluator_of(parse_individual(entrant.text, entrant.payload), s.patterns or None)
        engine = _COMPARE_ENGINES.put(key, Engine(evaluator, depth=s.depth, exact_empties=s.exact_empties,
                                                  algorithm=s.algorithm, tt_bits=s.tt_bits))
    return engine


@dataclass(frozen=True)
class CompareGames:
    """The task of a comparison: its entrants (pickled once per executor
    run); each spec names two of them by place. Each engine searches with
    its own settings, so a game between runs of different depths is played
    at both depths, one per side. The tables are cleared before every game,
    so a game is a function of its spec alone."""

    entrants: tuple[Entrant, ...]

    def run(self, specs: Sequence[CompareGameSpec]) -> list[CompareGameOutcome]:
        out = []
        for spec in specs:
            black, white = _compare_engine(self.entrants[spec.black]), _compare_engine(self.entrants[spec.white])
            result = play_game(black, white, list(spec.opening))
            out.append(CompareGameOutcome(spec.game_index, result.score, result.nodes))
        return out
