"""Stored 1-ply games of networks: the hall of fame's and the League measure's.

A network run's fitness games are never stored one by one
(:mod:`genethello.cluster.fitness.network_fitness`); the few games that measure its
champions are: a hall entry's games (``hall_games``) and the League measure
against the WPC heuristic (``yardstick_results``). Both are played by the
core's fast loop (:func:`genethello.core.play.ntuple_games.play_games`) at one
ply with ε-random moves from the standard start, in batches on the workers
like any other task (:class:`NetworkGames`): the items are game indices
with the contestants' places, the outcomes Black's final margins. A game is
a function of its contestants, the task's seed and its index alone, so
workers, batches and interruptions never change one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from genethello.core.evaluation.ntuple import NTupleEvaluator
from genethello.core.families.network_family import NetworkIndividual
from genethello.core.families.registry import parse_individual
from genethello.core.play.ntuple_games import play_games

__all__ = ["NetworkContestant", "NetworkGameOutcome", "NetworkGameSpec", "NetworkGames", "contestant"]

#: A contestant as a task carries it: a network's (text, payload), or a
#: built-in opponent's name ("wpc", "random").
NetworkContestant = tuple[str, bytes] | str


def contestant(network: NetworkIndividual) -> NetworkContestant:
    """A network as :class:`NetworkGames` carries it to a worker."""
    from genethello.core.families.network_family import network_payload

    return (str(network), network_payload(network.network))


@dataclass(frozen=True)
class NetworkGameSpec:
    """One game: its index (the key of its random draws) and the places of
    Black and White among the task's contestants."""

    game_index: int
    black: int
    white: int


@dataclass(frozen=True)
class NetworkGameOutcome:
    """A game's result: Black's final margin (empties to the winner)."""

    game_index: int
    score: int


@dataclass(frozen=True)
class NetworkGames:
    """The task of stored network games: the contestants, the seed and ε
    every game of the measurement shares."""

    contestants: tuple[NetworkContestant, ...]
    seed: int
    epsilon: float

    def run(self, items: Sequence[NetworkGameSpec]) -> list[NetworkGameOutcome]:
        players: list[NTupleEvaluator | str] = []
        for c in self.contestants:
            if isinstance(c, str):
                players.append(c)
            else:
                network = parse_individual(c[0], c[1])
                if not isinstance(network, NetworkIndividual):
                    raise ValueError(f"{c[0]} is not a network")
                players.append(network.fast_evaluator())
        black = np.array([s.black for s in items], dtype=np.int64)
        white = np.array([s.white for s in items], dtype=np.int64)
        ids = np.array([s.game_index for s in items], dtype=np.uint64)
        margins = play_games(players, black, white, ids, self.seed, self.epsilon)
        return [NetworkGameOutcome(s.game_index, int(m)) for s, m in zip(items, margins.tolist())]
