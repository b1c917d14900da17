"""Playing a batch of games: no Ray, no database.

A run's games settings (:class:`GameSettings`: its seed and ``[games]``,
played as a :class:`~genethello.cluster.fitness.matches.PlaySetting` by the
one match task, :mod:`~genethello.cluster.fitness.matches`, which plays a
generation's round robin, a hall entry's games and a comparison's), and the
yardstick's games against its built-in opponents as its callers describe
them (:class:`GauntletSpec` s, a chromosome against an opponent built by
name on the worker, never from a command, and the League game), which the
same task plays on the players' own loop with seeded random moves
(:func:`gauntlet_matches`) and which come back as the candidate's margins
(:class:`GauntletOutcome` s, :func:`candidate_margins`). A game's opening
depends only on the seed and the spec's opening keys, never on which
worker plays it: the result is a pure function of the spec.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from genethello.cluster.config import GamesConfig
from genethello.cluster.fitness.matches import BUILT_IN_PLAYERS, Matches, MatchOutcome, Pairing, PlaySetting, Side


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
BUILT_IN_OPPONENTS = tuple(BUILT_IN_PLAYERS)


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


def gauntlet_matches(specs: Sequence[GauntletSpec]) -> tuple[Matches, list[Pairing]]:
    """The specs as the one match task plays them, on the players' own
    loop: one side a distinct (player, depth, exact, patterns) of theirs
    (the League's candidate at 1 ply, and ``league``), and a
    pairing a spec, the candidate Black or White, seeded by its
    ``opening_seed``. A pairing's outcome is Black's margin:
    :func:`candidate_margins` turns them back into the candidate's."""
    places: dict[Side, int] = {}

    def place(name: str, depth: int, exact: int, patterns: str) -> int:
        side = Side(name.removeprefix("chromosome:"), None, PlaySetting(depth, exact, patterns=patterns, players=True))
        return places.setdefault(side, len(places))

    pairings = []
    for spec in specs:
        me = place(spec.candidate, spec.depth, spec.exact_empties, spec.patterns)
        other = place(spec.opponent, spec.depth, spec.exact_empties, spec.patterns)
        black, white = (me, other) if spec.candidate_black else (other, me)
        pairings.append(Pairing(spec.index, black, white, spec.opening, spec.opening_seed))
    return Matches(tuple(places)), pairings


def candidate_margins(specs: Sequence[GauntletSpec], outcomes: Sequence[MatchOutcome]) -> list[GauntletOutcome]:
    """The outcomes of :func:`gauntlet_matches`' pairings as the candidate's margins."""
    black = {spec.index: spec.candidate_black for spec in specs}
    return [GauntletOutcome(o.index, o.score if black[o.index] else -o.score) for o in outcomes]
