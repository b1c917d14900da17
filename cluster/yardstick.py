"""An absolute yardstick for a run's best player.

Elo inside one population says nothing across generations (GeneThello's
generation-436 best had a lower Elo than generation 1's). So every K
generations the run's best-so-far plays a fixed gauntlet — a random player,
a greedy most-flips player, a classic square-weights player, the best of
generation 1, and optionally external GTP engines — with both colours, from
openings that depend only on the run's seed: the same test every time. The
score (points / games, 0..1) is stored per opponent and per generation
by the coordinator: this module only measures.
"""

from __future__ import annotations

import random
import shlex
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from genethello.cluster.config import RunConfig
from genethello.cluster.pairing import opening_seed
from genethello.core import PASS, Board, parse_square, square_name
from genethello.core.squares import SQUARE_WEIGHTS
from genethello.core.chromosome import Chromosome
from genethello.core.evaluation import Evaluator
from genethello.core.game import random_opening
from genethello.core.gtp.client import ProtocolError
from genethello.core.scoring import points_from_margin
from genethello.core.search import Searcher



class GauntletPlayer:
    """A gauntlet player: picks a move for the side to move (never called
    when it must pass or the game is over)."""

    name = "player"

    def new_game(self) -> None:
        pass

    def observe(self, board: Board, move: int) -> None:
        """The move just played on ``board`` (before it was played)."""

    def choose(self, board: Board) -> int:
        raise NotImplementedError

    def close(self) -> None:
        pass


class RandomPlayer(GauntletPlayer):
    name = "random"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def new_game(self) -> None:
        self.rng = random.Random(self.rng.getrandbits(64))

    def choose(self, board: Board) -> int:
        moves = board.legal_moves()
        return moves[self.rng.randrange(len(moves))]


class GreedyPlayer(GauntletPlayer):
    """Most discs flipped now (ties: the first square)."""

    name = "greedy"

    def choose(self, board: Board) -> int:
        return max(board.legal_moves(), key=lambda m: (bin(board.flips(m)).count("1"), -m))


class SquareWeightsPlayer(GauntletPlayer):
    """The classic positional player: the move after which its discs stand on
    the best squares by the table above (one ply)."""

    name = "square-weights"

    def choose(self, board: Board) -> int:
        def value(move: int) -> int:
            board.play(move)
            mine, theirs = board.opponent, board.player
            board.undo()
            return sum(w for i, w in enumerate(SQUARE_WEIGHTS) if mine >> i & 1) - sum(
                w for i, w in enumerate(SQUARE_WEIGHTS) if theirs >> i & 1)
        return max(board.legal_moves(), key=lambda m: (value(m), -m))


class ChromosomePlayer(GauntletPlayer):
    def __init__(self, chromosome: Chromosome, depth: int, exact_empties: int = 8, name: str | None = None) -> None:
        self.name = name or str(chromosome)
        self.depth = depth
        self.exact = exact_empties
        self.searcher = Searcher(Evaluator.from_chromosome(chromosome), tt_bits=14)

    def new_game(self) -> None:
        self.searcher.clear()

    def choose(self, board: Board) -> int:
        return self.searcher.search(board, depth=self.depth, exact_empties=self.exact).move


class GtpPlayer(GauntletPlayer):
    """An external GTP engine (e.g. ``gtp-rhino -l 1``), kept in sync with
    play commands and asked with genmove."""

    def __init__(self, command: str) -> None:
        from genethello.core.gtp.client import GtpProcess

        self.name = command
        argv = shlex.split(command)
        if not argv:
            raise ValueError("yardstick.gtp_engines: an empty command")
        # Debian installs games (gtp-rhino) in /usr/games, often not on PATH.
        found = shutil.which(argv[0]) or shutil.which(argv[0], path="/usr/games")
        if found is None:
            raise ValueError(f"yardstick.gtp_engines: {argv[0]!r} is not installed (not on PATH or in /usr/games)")
        self.proc = GtpProcess([found] + argv[1:], name=command)
        for cmd in ("boardsize 8", "clear_board"):
            self._ok(cmd)

    def _ok(self, command: str) -> str:
        r = self.proc.send(command)
        if not r.ok:
            raise RuntimeError(f"GTP engine {self.name!r} refused {command!r}: {r.text}")
        return r.text

    def new_game(self) -> None:
        self._ok("clear_board")

    def observe(self, board: Board, move: int) -> None:
        # Passes stay implicit, as the Othello profile allows: engines such as
        # gtp-rhino answer 'play b pass' with a syntax error.
        if move == PASS:
            return
        color = "b" if board.side_to_move == "black" else "w"
        self._ok(f"play {color} {square_name(move)}")

    def choose(self, board: Board) -> int:
        color = "b" if board.side_to_move == "black" else "w"
        text = self._ok(f"reg_genmove {color}").strip().lower()
        return parse_square(text)

    def close(self) -> None:
        self.proc.close()


def play(black: GauntletPlayer, white: GauntletPlayer, opening: Sequence[int]) -> int:
    """One game; Black's final margin (WOF). Every player hears every move."""
    board = Board()
    for p in (black, white):
        p.new_game()
    moves = list(opening)
    i = 0
    while not board.is_game_over():
        if board.must_pass():
            move = PASS
        elif i < len(moves):
            move = moves[i]
        else:
            mover = black if board.side_to_move == "black" else white
            move = mover.choose(board)
        if move != PASS and not board.is_legal(move):
            raise RuntimeError(f"yardstick: {black.name if board.side_to_move == 'black' else white.name} "
                               f"chose the illegal move {square_name(move)}")
        for p in (black, white):
            p.observe(board, move)
        board.play(move)
        i += 1
    return board.final_score()


@dataclass(frozen=True)
class GauntletScore:
    opponent: str
    games: int
    points: float

    @property
    def score(self) -> float:
        return self.points / self.games


def gauntlet(candidate: GauntletPlayer, opponents: Sequence[GauntletPlayer], games_per_opponent: int,
             random_plies: int, run_seed: int,
             on_failure: Callable[[str, Exception], None] | None = None) -> list[GauntletScore]:
    """The candidate against each opponent, each opening with both colours.

    An external GTP engine that fails (dies, refuses a command, answers
    nonsense) is left out of the result and reported to ``on_failure``, so a
    broken peer does not stop the evolution; the built-in players never fail.
    """
    scores = []
    for index, opponent in enumerate(opponents):
        points = 0.0
        try:
            for pair in range(games_per_opponent // 2):
                opening = random_opening(random_plies, opening_seed(run_seed, 0, 1_000 + index, pair))
                points += points_from_margin(play(candidate, opponent, opening))
                points += points_from_margin(-play(opponent, candidate, opening))
        except (RuntimeError, ProtocolError) as exc:
            if not isinstance(opponent, GtpPlayer) or on_failure is None:
                raise
            on_failure(opponent.name, exc)
            continue
        scores.append(GauntletScore(opponent.name, games_per_opponent, points))
    return scores


def measure(config: RunConfig, candidate: Chromosome, first_best: Chromosome,
            on_failure: Callable[[str, Exception], None] | None = None) -> list[GauntletScore]:
    """The run's yardstick: ``candidate`` (the best so far) against the fixed
    gauntlet of ``config.yardstick`` — random, greedy, square weights,
    ``first_best`` (generation 1's best) and the configured GTP engines.

    Measures only: the caller stores the scores. A GTP engine that fails is
    left out and reported to ``on_failure``.
    """
    ys = config.yardstick
    opponents: list[GauntletPlayer] = [RandomPlayer(config.seed), GreedyPlayer(), SquareWeightsPlayer(),
                                       ChromosomePlayer(first_best, ys.depth, name="generation-1 best")]
    try:
        opponents += [GtpPlayer(cmd) for cmd in ys.gtp_engines]
        return gauntlet(ChromosomePlayer(candidate, ys.depth), opponents, ys.games_per_opponent,
                        ys.random_plies, config.seed, on_failure=on_failure)
    finally:
        for p in opponents:
            p.close()
