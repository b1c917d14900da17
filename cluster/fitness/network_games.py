"""The fast 1-ply loop as the match task plays it: networks and built-in
opponents (:func:`fast_games`).

A network run's fitness games are never stored one by one
(:mod:`genethello.cluster.fitness.network_fitness`); the few games that
measure its champions are: a hall entry's games (``hall_games``) and the
League measure against the WPC heuristic (``yardstick_results``). Without
search both are played by the core's fast loop
(:func:`genethello.core.play.ntuple_games.play_games`) at one ply with
ε-random moves, in batches on the workers as the one match task
(:class:`~genethello.cluster.fitness.matches.Matches`) plays any game, which
calls :func:`fast_games` for a task whose sides play at depth 0. A game is a
function of its contestants, its opening, the task's seed and its index
alone, so workers, batches and interruptions never change one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from genethello.core.evaluation.ntuple import NTupleEvaluator
from genethello.core.families.network_family import NetworkIndividual
from genethello.core.families.registry import family_of, parse_individual
from genethello.core.play.ntuple_games import play_games

__all__ = ["NetworkContestant", "contestant", "fast_games"]

#: A contestant as a task carries it: a network's (text, payload), or a
#: built-in opponent's name ("wpc", "random").
NetworkContestant = tuple[str, bytes] | str


def contestant(network: NetworkIndividual) -> NetworkContestant:
    """A network as the fast loop's tasks carry it to a worker."""
    from genethello.core.families.network_family import network_payload

    return (str(network), network_payload(network.network))


def fast_games(contestants: Sequence[tuple[str, bytes] | str], black: Sequence[int], white: Sequence[int],
               ids: Sequence[int], seed: int, epsilon: float, openings: Sequence[Sequence[int]] = ()) -> np.ndarray:
    """Black's final margin of each game on the fast 1-ply loop: Black and
    White as places in ``contestants`` (networks by text and payload, or
    built-in names), each game's id (the key of its random draws), the
    batch's ``seed`` and ε, and each game's opening (the standard start
    where all are empty).

    Raises:
        ValueError: for a contestant that is not a network.
    """
    players: list[NTupleEvaluator | str] = []
    for c in contestants:
        if isinstance(c, str):
            players.append(c)
        else:
            individual = parse_individual(c[0], c[1])
            network = family_of(individual).network(individual)
            if network is None:
                raise ValueError(f"{c[0]} is not a network")
            players.append(network.evaluator())
    b = np.array(black, dtype=np.int64)
    w = np.array(white, dtype=np.int64)
    game_ids = np.array(ids, dtype=np.uint64)
    if any(openings):
        return play_games(players, b, w, game_ids, seed, epsilon, openings=[list(o) for o in openings],
                          opening_index=np.arange(len(openings), dtype=np.int64))
    return play_games(players, b, w, game_ids, seed, epsilon)
