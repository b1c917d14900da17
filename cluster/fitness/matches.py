"""One match noun: a pairing played at a play setting, by one worker task
for any family.

A game a worker plays is a :class:`Pairing` (Black, White, the opening) of
two :class:`Side` s of the task (a player's text and stored payload, or a
built-in opponent's name, with the :class:`PlaySetting` it plays at: a
search of some depth and exact endgame, or the fast 1-ply loop with its ε).
:class:`Matches` is the task: the sides travel once per executor run, the
pairings in batches, and each pairing comes back as a :class:`MatchOutcome`
(Black's final margin, and for a search the nodes, the discs and the
moves). What each caller asks — a generation's round robin, a hall entry, a
network hall's or League's 1-ply games, a comparison of runs — is a thin
description: its sides and its pairings.

How a game is played is chosen here, in one place (:meth:`Matches.run`):
a task whose sides play on the players' own loop (``PlaySetting.players``:
the yardstick's built-in games) is played by
:func:`~genethello.core.play.players.play`, one Python call a move, with
the players a side's text names (a chromosome's
:class:`~genethello.core.play.players.ChromosomePlayer`, or the built-in
``random``, ``greedy``, ``square-weights``, and ``league``: the Othello
League's ε-greedy WPC opponent) and random moves seeded by the pairing's
``seed``; a task whose sides play at depth 0 is played by the fast 1-ply loop
(:func:`~genethello.cluster.fitness.network_games.fast_games`, networks and
built-in opponents, one call for the whole batch: the loop lives with the
family it plays); any other by the core's
engine, one :func:`search_game` a game. A worker keeps two engines per
setting (a black and a white seat, each with its transposition table,
cleared at every game's start) and the evaluators of the players it has met,
so a batch costs only its games; a game is a pure function of its sides,
its opening and, on the fast loop, the task's seed and the game's index.

A generation's fitness games, tens of thousands of them, travel in chunks
that return points rather than one outcome a game
(:mod:`~genethello.cluster.fitness.network_fitness`,
:mod:`~genethello.cluster.fitness.network_depth_fitness`); at depth they
play each game through :func:`search_game` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from genethello.cluster.fitness.epsilon_players import epsilon_player_name, epsilon_seed, split_epsilon
from genethello.cluster.fitness.network_games import fast_games
from genethello.cluster.fitness.pairing import opening_seed
from genethello.core.engine.game import Engine, GameResult, play_game, random_opening
from genethello.core.evaluation.evaluation import BaseEvaluator
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.networks import Network
from genethello.core.families.registry import evaluator_of, parse_individual
from genethello.core.frontend.bounded_cache import BoundedCache
from genethello.core.play.league import LEAGUE_WPC_HUNDREDTHS, league_game
from genethello.core.play.players import ChromosomePlayer, GreedyPlayer, Player, RandomPlayer, SquareWeightsPlayer, play

__all__ = ["BUILT_IN_PLAYERS", "LEAGUE_SIDE", "WPC", "WPC_ARCHITECTURE", "MatchOutcome", "Matches", "Pairing",
           "PAYLOAD_EVALUATOR_BYTES", "PlaySetting", "SeededOpenings", "Side", "forget_engines",
           "search_game", "side_of", "wpc_evaluator"]

#: The League's WPC heuristic as a side: a built-in name on the fast loop,
#: searched as the ``all-1`` network of :func:`wpc_evaluator` at depth.
WPC = "wpc"

#: The architecture of the WPC heuristic searched as a network.
WPC_ARCHITECTURE = "all-1"

#: The players the players' own loop builds by name (a side of any other
#: text is a chromosome, a :class:`ChromosomePlayer` at its setting).
BUILT_IN_PLAYERS: dict[str, type[Player]] = {"random": RandomPlayer, "greedy": GreedyPlayer,
                                             "square-weights": SquareWeightsPlayer}

#: The side that plays the Othello League's game on the players' loop: the
#: other side ε-greedy at its setting against the ε-greedy WPC heuristic
#: (:func:`~genethello.core.play.league.league_game`), the pairing's seed
#: seeding both.
LEAGUE_SIDE = "league"


@dataclass(frozen=True)
class PlaySetting:
    """How a side plays: a search ``depth`` plies deep, solving exactly at
    ``exact_empties`` empties or fewer, with ``algorithm`` and a table of
    2^``tt_bits`` entries, its evaluator reading pattern table ``patterns``
    ('': the newest installed), each of its moves random with probability
    ``epsilon`` (an ε-player, :mod:`~genethello.cluster.fitness.epsilon_players`);
    or, with ``depth`` 0, the fast 1-ply loop, each move random with
    probability ``epsilon``; or, with ``players``,
    the players' own loop (module docstring), a chromosome searching
    ``depth`` plies and exactly at ``exact_empties``."""

    depth: int
    exact_empties: int = 0
    algorithm: str = "negascout-soft"
    tt_bits: int = 16
    patterns: str = ""
    epsilon: float = 0.0
    players: bool = False

    @property
    def fast(self) -> bool:
        """Whether this is the fast 1-ply loop."""
        return self.depth == 0 and not self.players


@dataclass(frozen=True)
class Side:
    """A player as a task carries it: its text and stored payload (a
    network's weights; None for a chromosome), or a built-in opponent's
    name, and the setting it plays at."""

    text: str
    payload: bytes | None
    setting: PlaySetting


@dataclass(frozen=True)
class Pairing:
    """One game: its index in the caller's schedule (on the fast loop also
    the key of its random draws), the places of Black and White among the
    task's sides, the opening's moves, and on the players' loop the seed of
    the random players' moves."""

    index: int
    black: int
    white: int
    opening: tuple[int, ...] = ()
    seed: int = 0


@dataclass(frozen=True)
class SeededOpenings:
    """Openings a worker draws itself (a round robin's: thousands of games,
    whose openings would cost the coordinator more than the workers): the
    game of sides ``b`` and ``w`` starts from the random walk of ``plies``
    plies seeded by :func:`~genethello.cluster.fitness.pairing.opening_seed`
    of (``run_seed``, ``generation``, ``b``, ``w``)."""

    run_seed: int
    generation: int
    plies: int

    def opening(self, black: int, white: int) -> tuple[int, ...]:
        """The opening of the game of sides ``black`` and ``white``."""
        return tuple(random_opening(self.plies, opening_seed(self.run_seed, self.generation, black, white)))


@dataclass(frozen=True)
class MatchOutcome:
    """A game's result: Black's final margin (empties to the winner); from
    a search also its nodes, the final discs and the moves ('f5d6...',
    passes implicit)."""

    index: int
    score: int
    nodes: int = 0
    black_discs: int = 0
    white_discs: int = 0
    moves: str = ""


def side_of(contestant: tuple[str, bytes | None] | str, setting: PlaySetting) -> Side:
    """A contestant as tasks have carried them — (text, payload), or a
    built-in name — as a side playing at ``setting``; an ε-player's name
    (``eps0.2:p_1_10``) is its player at ``setting`` with that ε.

    Raises:
        ValueError: an ε-player on the fast loop (whose ε is the loop's).
    """
    text, payload = (contestant, None) if isinstance(contestant, str) else contestant
    epsilon, player = split_epsilon(text)
    if not epsilon:
        return Side(text, payload, setting)
    if setting.fast:
        raise ValueError(f"{text!r}: an ε-player is searched (fitness.depth >= 1); the fast loop's ε is the "
                         "loop's own")
    return Side(player, payload, replace(setting, epsilon=epsilon))


def wpc_evaluator() -> NetworkEvaluator:
    """The League's WPC heuristic as the searches use it: an ``all-1``
    network whose LUT of each square class holds (0, +w, -w) with w the
    class's weight in hundredths (:data:`LEAGUE_WPC_HUNDREDTHS`; the matrix
    has the square's eight symmetries, so one weight a class is exact).
    The integer weights are the hundredths themselves, not a quantization
    of them, so the value is the WPC's exactly (at most 4 × 100 + … in
    magnitude, far inside the search's evaluation range). At one ply it
    picks the WPC's move up to ties, which the search's move order breaks
    (the fast loop's WPC breaks them by square)."""
    arch = architecture(WPC_ARCHITECTURE)
    lut = np.zeros(arch.n_weights, dtype=np.int32)
    for i, (square,) in enumerate(arch.tuples):
        w = LEAGUE_WPC_HUNDREDTHS[square]
        lut[3 * i + 1], lut[3 * i + 2] = w, -w
    lut.setflags(write=False)
    return NetworkEvaluator(Network(arch, lut.astype(np.float64), _quantized=[lut]))


#: The most bytes of payload players' evaluators a worker keeps (about 17 of
#: ``patterns-v2-net``'s, 115 MB each: a table-sized run's generation, its
#: hall and its opponents; thousands of ``all-2``'s), as each evaluator
#: weighs itself (``BaseEvaluator.nbytes``).
PAYLOAD_EVALUATOR_BYTES = 2 << 30


# A worker's evaluators (by side and pattern table) and engines (two seats a
# setting), kept between batches and tasks. The evaluators of players stored
# with a payload (networks: kilobytes to hundreds of megabytes each) are kept
# fewer than those of players their text makes (a round robin of hundreds of
# chromosomes), and by bytes as well as by count.
_EVALUATORS: BoundedCache[tuple[str, bytes | None, str], BaseEvaluator] = BoundedCache(4096)
_PAYLOAD_EVALUATORS: BoundedCache[tuple[str, bytes | None, str], BaseEvaluator] = BoundedCache(
    256, max_bytes=PAYLOAD_EVALUATOR_BYTES, size_of=lambda evaluator: evaluator.nbytes)
_SEATS: BoundedCache[tuple[PlaySetting, int], Engine] = BoundedCache(64)
_PLAYERS: BoundedCache[Side, Player] = BoundedCache(64)


def forget_engines() -> None:
    """Drop this process's kept engines and evaluators (a benchmark's cold
    start; games never depend on them)."""
    _EVALUATORS.clear()
    _PAYLOAD_EVALUATORS.clear()
    _SEATS.clear()
    _PLAYERS.clear()


def _evaluator(side: Side) -> BaseEvaluator:
    key = (side.text, side.payload, side.setting.patterns)
    cache = _EVALUATORS if side.payload is None else _PAYLOAD_EVALUATORS
    found = cache.get(key)
    if found is None:
        if side.text == WPC and side.payload is None:
            made: BaseEvaluator = wpc_evaluator()
        else:
            made = evaluator_of(parse_individual(side.text, side.payload), side.setting.patterns or None)
        found = cache.put(key, made)
    return found


def _seat(side: Side, colour: int) -> Engine:
    """This process's engine for ``side``'s setting and colour, set to play its evaluator."""
    evaluator = _evaluator(side)
    s = side.setting
    seat = _SEATS.get((s, colour))
    if seat is None:
        seat = _SEATS.put((s, colour), Engine(evaluator, depth=s.depth, exact_empties=s.exact_empties,
                                              algorithm=s.algorithm, tt_bits=s.tt_bits, epsilon=s.epsilon))
    else:
        seat.use_evaluator(evaluator)
    return seat


def search_game(black: Side, white: Side, opening: Sequence[int]) -> GameResult:
    """One game of two searching sides after the ``opening`` moves (the
    tables cleared first: a function of its arguments alone; an ε-player's
    draws seeded by the game, :func:`~genethello.cluster.fitness.epsilon_players.epsilon_seed`)."""
    drawn = black.setting.epsilon or white.setting.epsilon
    seed = epsilon_seed(_side_name(black), _side_name(white), opening) if drawn else 0
    return play_game(_seat(black, 0), _seat(white, 1), opening, seed=seed)


def _side_name(side: Side) -> str:
    """A searching side's name, its ε included (an ε-player's draws are seeded by it)."""
    return epsilon_player_name(side.setting.epsilon, side.text) if side.setting.epsilon else side.text


def _player(side: Side) -> Player:
    """This process's player of ``side`` on the players' own loop (kept)."""
    found = _PLAYERS.get(side)
    if found is None:
        s = side.setting
        built = BUILT_IN_PLAYERS.get(side.text)
        found = _PLAYERS.put(side, built() if built is not None else ChromosomePlayer(
            Chromosome.parse(side.text), s.depth, s.exact_empties, patterns=s.patterns or None))
    return found


def _players_game(black: Side, white: Side, pairing: Pairing) -> int:
    """Black's final margin of one game on the players' own loop: the
    League's game when a side is :data:`LEAGUE_SIDE` (from the standard
    start), else the two players from the pairing's opening."""
    if white.text == LEAGUE_SIDE:
        return league_game(_player(black), pairing.seed, True)
    if black.text == LEAGUE_SIDE:
        return -league_game(_player(white), pairing.seed, False)
    return play(_player(black), _player(white), list(pairing.opening), seed=pairing.seed)


@dataclass(frozen=True)
class Matches:
    """The task that plays games: its sides (pickled once per executor run),
    for the fast loop the seed of its random draws, and the openings a
    worker draws for pairings that carry none (:class:`SeededOpenings`; else
    a pairing without an opening starts from the standard position); each
    item is a :class:`Pairing` of two sides, each outcome a
    :class:`MatchOutcome`."""

    sides: tuple[Side, ...]
    seed: int = 0
    openings: SeededOpenings | None = None

    def run(self, items: Sequence[Pairing]) -> list[MatchOutcome]:
        """The pairings' outcomes, in order: on the players' own loop when
        the sides play there, on the fast loop when they play at depth 0,
        else searched (module docstring)."""
        if self.sides and self.sides[0].setting.players:
            return [MatchOutcome(p.index, _players_game(self.sides[p.black], self.sides[p.white], p)) for p in items]
        if self.sides and self.sides[0].setting.fast:
            return self._fast(items)
        out = []
        for p in items:
            opening = self.openings.opening(p.black, p.white) if self.openings and not p.opening else p.opening
            result = search_game(self.sides[p.black], self.sides[p.white], opening)
            out.append(MatchOutcome(p.index, result.score, result.nodes, result.black_discs, result.white_discs,
                                    result.move_list()))
        return out

    def _fast(self, items: Sequence[Pairing]) -> list[MatchOutcome]:
        """The pairings on the fast 1-ply loop: one call for the batch, every
        side at the same ε from the pairings' openings (the standard start
        where none is given)."""
        epsilons = {side.setting.epsilon for side in self.sides}
        if len(epsilons) != 1 or not all(side.setting.fast for side in self.sides):
            raise ValueError("a fast-loop task's sides all play at depth 0 with one epsilon")
        margins = fast_games([side.text if side.payload is None else (side.text, side.payload)
                              for side in self.sides],
                             [p.black for p in items], [p.white for p in items], [p.index for p in items],
                             self.seed, epsilons.pop(), [p.opening for p in items])
        return [MatchOutcome(p.index, int(m)) for p, m in zip(items, margins.tolist(), strict=True)]
