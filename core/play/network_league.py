"""The Othello League measure of an n-tuple network on the fast game loop
(measure version ``league-fast-1``).

The protocol is that of :mod:`genethello.core.play.league`: the network at one
ply against the standard WPC heuristic (``"wpc"`` of the fast loop, on the
same weights in exact hundredths, the same tie rule), both sides ε-greedy
with ε = 0.1, from the standard start, in double games (the network plays
Black in game ``2k`` and White in game ``2k + 1``); a win counts 1, a draw
½. The games are played by :func:`genethello.core.play.ntuple_games.play_games`,
a whole match in one call, tens of thousands of games a second.

**Version ``league-fast-1``.** The fast loop draws its ε-moves from a
counter-based generator (see :mod:`genethello.core.play.ntuple_games`), not from
the Mersenne Twister per player that :func:`genethello.core.play.league.league_score`
uses: from the same seed the two measures play different games (with the
same distribution, so the same expected score). A figure of this measure is
therefore named with :data:`LEAGUE_FAST_VERSION`: the match seeded ``s`` plays
its games with the batch seed ``league_fast_seed(s)`` and game ids
``0 .. 2 * double_games - 1``, so any part of a match played elsewhere with
the same ids gives the same games.

**One name.** A run's yardstick plays this measure (the same protocol and
draws) and stores it as the opponent :data:`LEAGUE_FAST_OPPONENT`,
``othello-league-fast``, the name reports print with the version
(:func:`league_fast_label`: ``othello-league-fast (league-fast-1)``). The
run derives the batch seed from its own seed (its yardstick key), not with
:func:`league_fast_seed`: a run's figure and a ``league_score`` call are
the same measure on different games.
"""

from __future__ import annotations

import numpy as np

from genethello.core.evaluation.ntuple import NTupleEvaluator
from genethello.core.families.networks import Network
from genethello.core.play.league import LEAGUE_EPSILON
from genethello.core.play.ntuple_games import play_games
from genethello.core.play.scoring import MatchScore
from genethello.core.play.seeds import derive_seed

__all__ = ["LEAGUE_FAST_OPPONENT", "LEAGUE_FAST_VERSION", "league_fast_label", "league_fast_seed", "league_score"]

LEAGUE_FAST_VERSION = "league-fast-1"
"""The name of this measure's protocol and random draws (module docstring)."""

LEAGUE_FAST_OPPONENT = "othello-league-fast"
"""The yardstick opponent's name under which a run stores this measure."""


def league_fast_label() -> str:
    """The measure as reports name it: the opponent with the version."""
    return f"{LEAGUE_FAST_OPPONENT} ({LEAGUE_FAST_VERSION})"


def league_fast_seed(seed: int) -> int:
    """The fast loop's batch seed of the match seeded ``seed`` (BLAKE2b, 64 bits)."""
    return derive_seed(seed, LEAGUE_FAST_VERSION)


def league_score(network: Network | NTupleEvaluator, double_games: int, seed: int,
                 epsilon: float = LEAGUE_EPSILON, opponent: str = "wpc") -> MatchScore:
    """The League measure (``league-fast-1``) of ``network``: ``double_games``
    double games against the WPC heuristic (or the built-in ``opponent``),
    both sides ε-greedy; the network's W/D/L, score and 95% interval.

    Raises:
        ValueError: for a negative number of double games.
    """
    if double_games < 0:
        raise ValueError(f"double_games={double_games!r} must be >= 0")
    evaluator = network.evaluator() if isinstance(network, Network) else network
    n = 2 * double_games
    ids = np.arange(n, dtype=np.uint64)
    network_black = ids % 2 == 0
    black = np.where(network_black, 0, 1)
    margins = play_games((evaluator, opponent), black, 1 - black, ids, league_fast_seed(seed), epsilon)
    mine = np.where(network_black, margins, -margins)
    return MatchScore(int(np.count_nonzero(mine > 0)), int(np.count_nonzero(mine == 0)),
                      int(np.count_nonzero(mine < 0)))
