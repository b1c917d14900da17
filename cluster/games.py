"""Playing a batch of tournament games: no Ray, no database.

A worker process calls ``play_batch`` for each task. It keeps two engines (a
black and a white seat, each with its transposition table) and the evaluators
of the players it has met, so a batch costs only its games. A game's opening
depends only on the run's seed, the generation and the pair, never on which
worker plays it: the result is a pure function of the spec.
"""

from __future__ import annotations

from dataclasses import dataclass

from genethello.cluster.pairing import opening_seed
from genethello.core.chromosome import Chromosome
from genethello.core.evaluation import Evaluator
from genethello.core.game import Engine, play_game, random_opening


@dataclass(frozen=True)
class GameSettings:
    """How every game of a run is played (from the run's config)."""

    run_seed: int
    depth: int
    exact_empties: int
    random_plies: int
    algorithm: str = "negascout-soft"
    tt_bits: int = 16


@dataclass(frozen=True)
class GameSpec:
    """One scheduled game: its place in the generation's schedule and the
    players (chromosome text and population slot, which seeds the opening)."""

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
        self._evaluators: dict[str, Evaluator] = {}
        self._seats: tuple[Engine, Engine] | None = None

    def _evaluator(self, text: str) -> Evaluator:
        ev = self._evaluators.get(text)
        if ev is None:
            if len(self._evaluators) > 4096:
                self._evaluators.clear()
            ev = Evaluator.from_chromosome(Chromosome.parse(text))
            self._evaluators[text] = ev
        return ev

    def play(self, spec: GameSpec) -> GameOutcome:
        s = self.settings
        black_ev, white_ev = self._evaluator(spec.black), self._evaluator(spec.white)
        if self._seats is None:
            self._seats = tuple(
                Engine(ev, depth=s.depth, exact_empties=s.exact_empties, algorithm=s.algorithm, tt_bits=s.tt_bits)
                for ev in (black_ev, white_ev))
        black, white = self._seats
        black.use_evaluator(black_ev)
        white.use_evaluator(white_ev)
        seed = opening_seed(s.run_seed, spec.generation, spec.black_slot, spec.white_slot)
        result = play_game(black, white, random_opening(s.random_plies, seed))
        return GameOutcome(spec.generation, spec.pair_index, result.score,
                           result.black_discs, result.white_discs, result.move_list(), result.nodes)


_RUNNERS: dict[GameSettings, GameRunner] = {}


def play_batch(settings: GameSettings, specs: list[GameSpec]) -> list[GameOutcome]:
    """Play specs in order with this process's runner for these settings."""
    runner = _RUNNERS.get(settings)
    if runner is None:
        if len(_RUNNERS) > 8:
            _RUNNERS.clear()
        runner = _RUNNERS[settings] = GameRunner(settings)
    return [runner.play(spec) for spec in specs]
