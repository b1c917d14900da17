"""Playing a batch of games: no Ray, no database.

Two kinds of game travel to the workers: a :class:`GameSpec`, two
chromosomes of the run (a round-robin or hall-of-fame game), and a
:class:`GauntletSpec`, a chromosome against one of the yardstick's fixed
opponents (built by name on the worker, never from a command).

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
from genethello.core.families import evaluator_of, parse_individual
from genethello.core.game import Engine, play_game, random_opening
from genethello.core.players import (
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


@dataclass(frozen=True)
class GameSpec:
    """One scheduled game: its place in the generation's schedule and the
    players (chromosome text and population slot, which seeds the opening;
    a hall game puts its own opening keys in the two slots)."""

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
            ev = evaluator_of(parse_individual(text), self.settings.patterns or None)
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


#: The yardstick's built-in opponents, by the name a GauntletSpec carries;
#: "chromosome:TEXT" (an evolved player) and "league" are the other names.
BUILT_IN_OPPONENTS = ("random", "greedy", "square-weights")


@dataclass(frozen=True)
class GauntletSpec:
    """One yardstick game: ``candidate`` (chromosome text) against the
    opponent named ``opponent``, from the opening of ``opening_seed`` (or,
    for ``league``, the start position with ε-random moves seeded by
    ``opening_seed``). ``index`` is its place in the measurement's schedule."""

    index: int
    candidate: str
    opponent: str
    candidate_black: bool
    opening_seed: int
    random_plies: int
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
        self._players: dict[tuple, Player] = {}

    def _player(self, name: str, depth: int, exact: int, patterns: str = "") -> Player:
        key = (name, depth, exact, patterns)
        player = self._players.get(key)
        if player is None:
            if len(self._players) > 64:
                self._players.clear()
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
            self._players[key] = player
        return player

    def play(self, spec: GauntletSpec) -> GauntletOutcome:
        if spec.opponent == "league":
            from genethello.core.league import league_game

            evolved = self._player("chromosome:" + spec.candidate, 1, 0, spec.patterns)
            return GauntletOutcome(spec.index, league_game(evolved, spec.opening_seed, spec.candidate_black))
        me = self._player("chromosome:" + spec.candidate, spec.depth, spec.exact_empties, spec.patterns)
        other = self._player(spec.opponent, spec.depth, spec.exact_empties, spec.patterns)
        opening = random_opening(spec.random_plies, spec.opening_seed)
        if spec.candidate_black:
            margin = play(me, other, opening, seed=spec.opening_seed)
        else:
            margin = -play(other, me, opening, seed=spec.opening_seed)
        return GauntletOutcome(spec.index, margin)


_RUNNERS: dict[GameSettings, GameRunner] = {}
_GAUNTLET = GauntletRunner()
_LABELLERS: dict[tuple, object] = {}


def _label(spec) -> object:
    """Measure one position of ``patterns label`` (a LabelSpec) with this
    process's labeller for its settings."""
    from genethello.cluster.labelling import LabelOutcome
    from genethello.core.position_labels import Labeller

    key = (spec.exact_empties, spec.search_depth, spec.patterns)
    labeller = _LABELLERS.get(key)
    if labeller is None:
        _LABELLERS.clear()
        labeller = _LABELLERS[key] = Labeller(spec.exact_empties, spec.search_depth, spec.patterns)
    label = labeller.label(spec.mover, spec.other)
    return LabelOutcome(spec.index, label.empties, label.exact, label.value, label.nodes)


def play_batch(settings: GameSettings, specs: list) -> list:
    """Play specs in order with this process's runner for these settings
    (GameSpecs), its gauntlet runner (GauntletSpecs) or its labeller
    (LabelSpecs of ``patterns label``)."""
    runner = _RUNNERS.get(settings)
    if runner is None:
        if len(_RUNNERS) > 8:
            _RUNNERS.clear()
        runner = _RUNNERS[settings] = GameRunner(settings)
    out = []
    for spec in specs:
        if isinstance(spec, GameSpec):
            out.append(runner.play(spec))
        elif isinstance(spec, GauntletSpec):
            out.append(_GAUNTLET.play(spec))
        else:
            out.append(_label(spec))
    return out
