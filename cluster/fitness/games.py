"""Playing a batch of games: no Ray, no database.

A run's games settings (:class:`GameSettings`: its seed and ``[games]``,
played as a :class:`~genethello.cluster.fitness.matches.PlaySetting` by the
one match task, :mod:`~genethello.cluster.fitness.matches`, which plays a
generation's round robin, a hall entry's games and a comparison's), and the
yardstick's games against its built-in opponents (:class:`GauntletGames`:
:class:`GauntletSpec` s, a chromosome against an opponent built by name on
the worker, never from a command, played by the players' own loop with
seeded random moves, and the League game), which return
:class:`GauntletOutcome` s. A game's opening depends only on the seed and
the spec's opening keys, never on which worker plays it: the result is a
pure function of the spec.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from genethello.cluster.config import GamesConfig
from genethello.cluster.fitness.matches import PlaySetting
from genethello.core.families.chromosome import Chromosome
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

    seed: int                 # its openings derive from it: the run's seed, or the hall's (hall_settings)
    depth: int
    exact_empties: int
    random_plies: int
    algorithm: str = "negascout-soft"
    tt_bits: int = 16
    patterns: str = ""        # pattern table version of the run ('' : the newest installed)

    def play_setting(self) -> PlaySetting:
        """How every player of the run searches (the one match task's setting)."""
        return PlaySetting(self.depth, self.exact_empties, algorithm=self.algorithm, tt_bits=self.tt_bits,
                           patterns=self.patterns)

    @classmethod
    def for_run(cls, seed: int, games: GamesConfig, patterns: str = "") -> GameSettings:
        """The settings of a run's games: its seed, its config's ``[games]``
        by name, and the version of the pattern table the run keeps."""
        return cls(seed=seed, depth=games.depth, exact_empties=games.exact_empties,
                   random_plies=games.random_plies, algorithm=games.algorithm, tt_bits=games.tt_bits,
                   patterns=patterns)


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
