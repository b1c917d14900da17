"""Fitness kinds: how a generation is rated, one strategy a kind
(``fitness.kind``), all in one table (:data:`FITNESS_KINDS`).

A kind is a pair of pure functions and the facts the run needs of it:

* :attr:`FitnessKind.pairings`, which games a generation plays: Black and
  White of every game in the canonical order, as indices into the
  contestants (the members, then the ``others`` the kind plays: the fixed
  opponents or the hall's members), and the double games per pairing;
* :attr:`FitnessKind.games_per_member`, how results become ratings: each
  member's points over that many games are its performance rating
  (:func:`~genethello.cluster.fitness.network_rating.rate_fitness`);
* whom the members play besides each other (``fitness.opponents``, the
  hall), which key counts a pairing's double games, and whether the fixed
  opponents anchor a hall played at depth;
* whether a generation keeps its members' points or its games one by one
  (:meth:`FitnessKind.kept_as_points`: a family that keeps game records,
  GeneThello, keeps them for its round robin, and points for every other
  kind, which it plays at ``fitness.depth``).

The kinds today (:mod:`~genethello.cluster.fitness.network_fitness` says
how a game is played):

* ``coevolution``: the generation's own round robin (Co-CMA-ES), every pair
  of members ``games_per_pair`` double games;
* ``fixed``: every member ``games_per_opponent`` double games against each
  of ``fitness.opponents``;
* ``hall``: every member ``games_per_opponent`` double games against each
  hall member; with an empty hall the kind played is ``fixed`` (a fitness
  of zeros would rank by slot alone);
* ``mixed``: every pairing ``games_per_opponent`` double games: the
  members against each other, against each of ``fitness.opponents`` (a
  varied pool) and against each hall member entered before the generation
  (Rosin & Belew's hall of fame beside the pool): no single sparring
  partner makes the fitness; the opponents anchor a hall at depth.

Nothing else in the cluster compares a fitness kind's name: the fitness
tasks, the rating, the hall step and the run check ask the kind. A new kind
is one :class:`FitnessKind` in :data:`FITNESS_KINDS` (docs/architecture.md,
"Where to add things").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from genethello.cluster.config import FitnessConfig, table_entry

__all__ = ["FITNESS_KINDS", "FitnessKind", "Pairings", "double_games", "fitness_kind", "played_kind"]

T = TypeVar("T")

#: Black and White of every game in canonical order (indices into the
#: contestants: the members, then the others), and the double games per pairing.
Pairings = tuple[np.ndarray, np.ndarray, int]


@dataclass(frozen=True)
class FitnessKind:
    """One ``fitness.kind`` (module docstring).

    Attributes:
        name: the name ``fitness.kind`` takes (and the name the games'
            seeds are derived with: never renamed).
        pairings: (config, members, others) -> the generation's games.
        games_per_member: (config, members, others) -> the games each
            member's points are counted over.
        per_pairing_key: the ``[fitness]`` key counting a pairing's double games.
        plays_opponents: whether the members play ``fitness.opponents``
            (for ``hall``: while the hall is empty).
        plays_hall: whether the members play the hall's members.
        when_hall_empty: the kind played while the hall is empty ("": this one).
        anchors_hall: whether, at depth, the opponents play every hall
            entrant too and anchor the hall's scale.
        opponents_and_hall: whether the members play the opponents and the
            hall's members both (``mixed``), not the hall in the opponents'
            place.
    """

    name: str
    pairings: Callable[[FitnessConfig, int, int], Pairings]
    games_per_member: Callable[[FitnessConfig, int, int], int]
    per_pairing_key: str
    plays_opponents: bool = False
    plays_hall: bool = False
    when_hall_empty: str = ""
    anchors_hall: bool = False
    opponents_and_hall: bool = False

    def others(self, opponents: Sequence[T], hall: Sequence[T]) -> Sequence[T]:
        """Whom the members play besides each other: the opponents and then
        the hall's members, the hall's members, the opponents, or nobody."""
        if self.opponents_and_hall:
            return [*opponents, *hall]
        if self.plays_hall:
            return hall
        return opponents if self.plays_opponents else ()

    @property
    def round_robin(self) -> bool:
        """Whether the members play each other alone (no opponents, no hall)."""
        return not self.plays_opponents and not self.plays_hall

    def kept_as_points(self, keeps_game_records: bool) -> bool:
        """Whether a generation under this kind keeps each member's points
        (``fitness_results``) rather than its games one by one: always,
        except a round robin of a family that keeps game records
        (GeneThello's, stored game by game at ``[games]``' setting)."""
        return not (keeps_game_records and self.round_robin)

    def per_pairing(self, config: FitnessConfig) -> int:
        """The double games of one pairing under ``config``."""
        value: int = getattr(config, self.per_pairing_key)
        return value


def double_games(first: np.ndarray, second: np.ndarray, per_pair: int) -> tuple[np.ndarray, np.ndarray]:
    """Black and White of each game: for each pair in order, ``per_pair``
    double games, ``first`` playing Black in the first game of each."""
    a = np.repeat(first.astype(np.int64), per_pair)
    b = np.repeat(second.astype(np.int64), per_pair)
    black = np.empty(2 * a.size, dtype=np.int64)
    white = np.empty(2 * a.size, dtype=np.int64)
    black[0::2], white[0::2] = a, b
    black[1::2], white[1::2] = b, a
    return black, white


def _member_pairs(members: int, per_pair: int) -> tuple[np.ndarray, np.ndarray]:
    """Black and White of every pair of members, ``per_pair`` double games each."""
    first, second = np.triu_indices(members, 1)
    return double_games(first, second, per_pair)


def _members_against_others(members: int, others: int, per_pair: int) -> tuple[np.ndarray, np.ndarray]:
    """Black and White of every member against each of the others in turn
    (indices ``members ..``), ``per_pair`` double games each."""
    mem, opp = np.divmod(np.arange(members * others), others)
    return double_games(mem, opp + members, per_pair)


def _round_robin(config: FitnessConfig, members: int, others: int) -> Pairings:
    """Every pair of members, ``games_per_pair`` double games (the others play no part)."""
    if members < 2:
        raise ValueError(f"coevolution needs at least 2 members, got {members}")
    return (*_member_pairs(members, config.games_per_pair), config.games_per_pair)


def _round_robin_games(config: FitnessConfig, members: int, others: int) -> int:
    return 2 * config.games_per_pair * (members - 1)


def _against_others(config: FitnessConfig, members: int, others: int) -> Pairings:
    """Every member against each of the others in turn, ``games_per_opponent`` double games."""
    return (*_members_against_others(members, others, config.games_per_opponent), config.games_per_opponent)


def _against_others_games(config: FitnessConfig, members: int, others: int) -> int:
    return 2 * config.games_per_opponent * others


def _mixed(config: FitnessConfig, members: int, others: int) -> Pairings:
    """Every pair of members, then every member against each of the others
    in turn: ``games_per_opponent`` double games a pairing."""
    if members < 2:
        raise ValueError(f"a mixed fitness needs at least 2 members, got {members}")
    per_pair = config.games_per_opponent
    pair_black, pair_white = _member_pairs(members, per_pair)
    other_black, other_white = _members_against_others(members, others, per_pair)
    return np.concatenate([pair_black, other_black]), np.concatenate([pair_white, other_white]), per_pair


def _mixed_games(config: FitnessConfig, members: int, others: int) -> int:
    return 2 * config.games_per_opponent * (members - 1 + others)


#: Every fitness kind by its ``fitness.kind`` name: the config accepts these
#: names and no others.
FITNESS_KINDS: dict[str, FitnessKind] = {kind.name: kind for kind in (
    FitnessKind("coevolution", _round_robin, _round_robin_games, "games_per_pair"),
    FitnessKind("fixed", _against_others, _against_others_games, "games_per_opponent", plays_opponents=True,
                anchors_hall=True),
    FitnessKind("hall", _against_others, _against_others_games, "games_per_opponent", plays_opponents=True,
                plays_hall=True, when_hall_empty="fixed"),
    FitnessKind("mixed", _mixed, _mixed_games, "games_per_opponent", plays_opponents=True, plays_hall=True,
                anchors_hall=True, opponents_and_hall=True),
)}


def fitness_kind(name: str) -> FitnessKind:
    """The kind ``fitness.kind`` names.

    Raises:
        ConfigError: naming the key and the kinds there are.
    """
    return table_entry("fitness.kind", FITNESS_KINDS, name)


def played_kind(name: str, hall: int) -> FitnessKind:
    """The kind a generation plays under ``fitness.kind = name`` with a hall
    of ``hall`` members (a kind that plays the hall plays its stand-in
    while the hall is empty)."""
    kind = fitness_kind(name)
    if kind.plays_hall and not hall and kind.when_hall_empty:
        return fitness_kind(kind.when_hall_empty)
    return kind
