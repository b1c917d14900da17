"""The Othello League measure: an evaluation at 1 ply against the standard
weighted-piece-counter (WPC) heuristic player, both sides ε-greedy.

Why: the learning-to-play-Othello literature (Lucas & Runarsson 2006, the
CEC 2006 Othello competition that became the online Othello League, Szubert,
Jaśkowski & Krawiec 2009-2013, Jaśkowski 2014) compares evaluation functions
by one number: the expected score of a 1-ply player using the evaluation
against a fixed heuristic player, both making a uniformly random move with
probability ε = 0.1 so that the games differ, over double games (each seed
played with the colours swapped). Playing our evolved evaluation the same
way puts our figure beside the published ones. It measures the evaluation
alone: no search beyond one ply, no exact endgame.

The protocol here:

* the evolved side is ``ChromosomePlayer(chromosome, depth=1,
  exact_empties=0)``; the opponent is :func:`league_opponent`, the WPC
  heuristic player at one ply on :data:`LEAGUE_WPC_WEIGHTS`;
* both are wrapped in :class:`~genethello.core.play.players.EpsilonPlayer` with
  ε = :data:`LEAGUE_EPSILON` (0.1);
* every game starts from the standard initial position (no opening moves):
  the randomness comes from ε alone;
* game ``i`` of a match has its own seed :func:`league_game_seed` (seed, i),
  and the evolved side plays Black in even games and White in odd ones, so
  games ``2k`` and ``2k + 1`` make the k-th double game;
* a win counts 1, a draw ½, a loss 0 (:func:`~genethello.core.play.scoring.points_from_margin`).

A game is a pure function of (chromosome, seed, colour): the per-game seed
depends on the match seed and the game's index only, and the players forget
everything between games (``new_game``), so any subset of a match's games
can be played in any process, in any order, with the same results — the
cluster spreads them over Ray workers and sums the :class:`LeagueScore` parts.

Differences from the published implementations that we know of: the WPC
player here breaks exact ties by the first square in a1..h8 order (the cevo
framework of Jaśkowski et al. may break them at random); the evaluation is
computed in exact integer hundredths, so no floating-point rounding can
decide a tie.
"""

from __future__ import annotations

from dataclasses import dataclass

from genethello.core.families.chromosome import Chromosome
from genethello.core.play.players import ChromosomePlayer, EpsilonPlayer, Player, WeightedSquaresPlayer, play
from genethello.core.play.scoring import MatchScore
from genethello.core.play.seeds import derive_seed

__all__ = [
    "LEAGUE_EPSILON",
    "LEAGUE_WPC_WEIGHTS",
    "LEAGUE_WPC_HUNDREDTHS",
    "PUBLISHED_LEAGUE_SCORES",
    "LeagueGame",
    "LeagueScore",
    "league_opponent",
    "league_game_seed",
    "league_schedule",
    "league_game",
    "league_player",
    "league_score",
    "wpc_hundredths",
]

LEAGUE_EPSILON = 0.1
"""Probability that either side plays a uniformly random legal move."""

# The standard heuristic WPC player's 64 weights, as listed (8 rows of 8) in
# the cevo framework of Jaśkowski, Szubert et al., class
# put.ci.cevo.games.othello.players.published.OthelloStandardWPCHeuristicPlayer
# ("Standard heuristic WPC player for Othello"), repository
# github.com/wjaskowski/mastering-2048, file
# cevo-games/src/main/java/put/ci/cevo/games/othello/players/published/
# OthelloStandardWPCHeuristicPlayer.java (commit 850d9bcc), the authors' own
# code. Independent copies of the same matrix in public code cite it to
# Szubert, Jaśkowski & Krawiec (CIG 2009; Control and Cybernetics 40(3), 2011)
# and Lucas (2008); we did not read it in the papers themselves. The source
# flattens the rows in order (row-major),
# which is our a1..h8 order (a1 = 0 top left, h1 = 7, h8 = 63); the matrix has
# all eight symmetries of the square, so the orientation cannot matter.
LEAGUE_WPC_WEIGHTS: tuple[float, ...] = (
    1.00, -0.25, 0.10, 0.05, 0.05, 0.10, -0.25, 1.00,
    -0.25, -0.25, 0.01, 0.01, 0.01, 0.01, -0.25, -0.25,
    0.10, 0.01, 0.05, 0.02, 0.02, 0.05, 0.01, 0.10,
    0.05, 0.01, 0.02, 0.01, 0.01, 0.02, 0.01, 0.05,
    0.05, 0.01, 0.02, 0.01, 0.01, 0.02, 0.01, 0.05,
    0.10, 0.01, 0.05, 0.02, 0.02, 0.05, 0.01, 0.10,
    -0.25, -0.25, 0.01, 0.01, 0.01, 0.01, -0.25, -0.25,
    1.00, -0.25, 0.10, 0.05, 0.05, 0.10, -0.25, 1.00,
)
"""The published weights, a1..h8 (row-major)."""

LEAGUE_WPC_HUNDREDTHS: tuple[int, ...] = tuple(round(w * 100) for w in LEAGUE_WPC_WEIGHTS)
"""The same weights in exact integer hundredths (100 for a corner): the
player uses these, so that moves of equal published value tie exactly.
Scaling by 100 keeps every move's rank, hence every choice."""

PUBLISHED_LEAGUE_SCORES: tuple[tuple[str, float, str], ...] = (
    (
        "best systematic 2-tuple network (288 weights), Jaśkowski 2014",
        0.96,
        "W. Jaśkowski, 'Systematic n-tuple networks for position evaluation: Exceeding 90% in the "
        "Othello League', arXiv:1406.1509 (2014), abstract: 'nearly 96%' in the online Othello League "
        "(https://arxiv.org/abs/1406.1509; "
        "https://www.paperswithcode.com/paper/systematic-n-tuple-networks-for-position)",
    ),
)
"""(player, expected score against the WPC heuristic under this protocol,
source) for the figures we could read in the sources themselves. The
CTDL / TDL / CEL weighted piece counters of Lucas & Runarsson (2006) and
Szubert, Jaśkowski & Krawiec (2009, 2011) also beat this heuristic player
(Lucas & Runarsson's abstract: the evolved WPC 'was shown to significantly
outperform a set of standard heuristic weights'), but their exact figures
were not in the material we could consult, so none is listed here."""


def wpc_hundredths(mine: int, theirs: int) -> int:
    """The WPC evaluation, in hundredths, of the position with bitboards
    ``mine`` and ``theirs`` (bit ``row * 8 + column``): Σ weights over my
    discs − Σ over the opponent's."""
    total = 0
    for i, w in enumerate(LEAGUE_WPC_HUNDREDTHS):
        bit = 1 << i
        if mine & bit:
            total += w
        elif theirs & bit:
            total -= w
    return total


def league_opponent() -> WeightedSquaresPlayer:
    """The standard heuristic player, deterministic (no ε): one ply on the
    published weights, the move after which the mover's weighted discs minus
    the opponent's are largest (ties: first square in a1..h8 order)."""
    return WeightedSquaresPlayer(LEAGUE_WPC_HUNDREDTHS, "wpc-heuristic")


def league_player(chromosome: Chromosome) -> ChromosomePlayer:
    """The evolved evaluation as the League plays it: 1 ply, no exact
    endgame."""
    return ChromosomePlayer(chromosome, depth=1, exact_empties=0)


def league_game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of the match seeded ``seed``: a 63-bit hash
    of the two numbers alone (BLAKE2b, not Python's salted ``hash``), the same
    in every process."""
    return derive_seed(seed, "league-game", index)


@dataclass(frozen=True)
class LeagueGame:
    """One game of a League match: its index in the match, its seed, and the
    evolved side's colour (Black in even games)."""

    index: int
    seed: int
    evolved_is_black: bool


def league_schedule(double_games: int, seed: int) -> list[LeagueGame]:
    """The ``2 * double_games`` games of a match, in index order.

    Raises:
        ValueError: for a negative number of double games.
    """
    if double_games < 0:
        raise ValueError(f"double_games={double_games!r} must be >= 0")
    return [LeagueGame(i, league_game_seed(seed, i), i % 2 == 0) for i in range(2 * double_games)]


def league_game(evolved: Player, seed: int, evolved_is_black: bool, epsilon: float = LEAGUE_EPSILON,
                opponent: Player | None = None) -> int:
    """One League game from the initial position: ``evolved`` against the WPC
    heuristic (or ``opponent``), both ε-greedy, seeded ``seed``.

    Returns:
        The evolved side's final disc margin (WOF rule), from its viewpoint.
    """
    mine = EpsilonPlayer(evolved, epsilon)
    theirs = EpsilonPlayer(opponent if opponent is not None else league_opponent(), epsilon)
    if evolved_is_black:
        return play(mine, theirs, (), seed)
    return -play(theirs, mine, (), seed)


#: A League match's result from the evolved side (counts, score, interval).
LeagueScore = MatchScore


def league_score(chromosome: Chromosome, double_games: int, seed: int) -> LeagueScore:
    """The League measure of ``chromosome``: ``double_games`` double games
    against the WPC heuristic, both sides at ε = 0.1, played in index order
    here (any split of :func:`league_schedule` played elsewhere sums to the
    same result)."""
    player = league_player(chromosome)
    score = LeagueScore()
    try:
        for game in league_schedule(double_games, seed):
            score = score.add(league_game(player, game.seed, game.evolved_is_black))
    finally:
        player.close()
    return score

