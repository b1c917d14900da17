"""One rating across runs: the decisions of ``genethello compare``.

The champions of several runs (the top of each run's hall of fame, or its
best by Elo where it has no hall), possibly of different databases and
chromosome families, play a round robin and are rated by one Bradley–Terry
fit, anchored at one of them. This module decides, as pure functions with
no Ray and no database:

* how each player searches (:func:`player_settings`): with its own run's
  ``[games]`` settings and pattern table, so a game between runs of
  different depths is played at both depths, one per side (the rule for
  every family: a network run's ``[games]`` section says how its networks
  search here, although its own fitness and hall games are 1-ply);
* who plays whom and from which opening (:func:`compare_schedule`,
  :func:`compare_openings`, :func:`compare_specs`): every pair of players
  plays the same ``games_per_pair / 2`` openings, drawn without replacement
  from an opening set by the seed, each with both colours;
* the players' labels (:func:`run_tags`) and the ratings and the table's
  rows (:func:`compare_rows`).

A game is keyed by (pair, opening, colour), its place in the schedule, and
the results are reduced in schedule order, so the result is a function of
the inputs and the seed alone, whatever the number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from genethello.cluster.config import RunConfig
from genethello.cluster.fitness.matches import Pairing, PlaySetting
from genethello.cluster.fitness.tournament_rating import fit_bradley_terry
from genethello.core.frontend.errors import UserError
from genethello.core.play.openings import TooFewOpeningsError, opening_set
from genethello.core.play.scoring import points_from_margin
from genethello.core.play.seeds import series_name


class CompareInputError(UserError):
    """A comparison that cannot be played as asked (its message names why)."""


def player_settings(config: RunConfig, patterns: str, depth: int | None = None,
                    exact_empties: int | None = None) -> PlaySetting:
    """How a player of a run with ``config`` searches: the run's ``[games]``
    depth, exact endgame, algorithm and table size, and its pattern table
    (``patterns``, the run's recorded version resolved; '' for none).
    ``depth`` / ``exact_empties``, when given, replace the run's for every
    player (a comparison at common settings)."""
    g = config.games
    return PlaySetting(g.depth if depth is None else depth,
                       g.exact_empties if exact_empties is None else exact_empties,
                       g.algorithm, g.tt_bits, patterns)


def run_tags(runs: Sequence[tuple[str, str]]) -> list[str]:
    """A short unique name for each run given as (database, run name), the
    prefix of its players' labels (``TAG#PLAYER_ID``): the run's name;
    ``FILE:NAME`` for a name that several databases hold; ``PATH:NAME``
    (the database as given) where their file names are alike too."""
    names = [name for _, name in runs]
    tags = [name if names.count(name) == 1 else f"{PurePath(target).name}:{name}" for target, name in runs]
    return [tag if tags.count(tag) == 1 else f"{target}:{name}" for tag, (target, name) in zip(tags, runs, strict=True)]


@dataclass(frozen=True)
class ComparePairing:
    """One game of the schedule: players ``first`` < ``second`` (places in
    the field) of pair ``pair``, from opening ``opening``, ``first`` Black
    or White."""

    game_index: int
    pair: int
    first: int
    second: int
    opening: int
    first_black: bool

    @property
    def black(self) -> int:
        return self.first if self.first_black else self.second

    @property
    def white(self) -> int:
        return self.second if self.first_black else self.first


def check_games_per_pair(games_per_pair: int) -> None:
    """Refuse a number of games per pair that is not even and positive."""
    if games_per_pair < 2 or games_per_pair % 2:
        raise CompareInputError(f"--games {games_per_pair}: must be even and at least 2 "
                                "(each opening is played with both colours)")


def compare_schedule(players: int, games_per_pair: int) -> list[ComparePairing]:
    """The round robin of ``players`` players, ``games_per_pair`` games a
    pair: pairs in order (0,1), (0,2), ..., (1,2), ...; within a pair,
    opening by opening, the first player Black first.

    Raises:
        CompareInputError: fewer than 2 players, or games_per_pair not even
            and positive.
    """
    check_games_per_pair(games_per_pair)
    if players < 2:
        raise CompareInputError(f"a comparison needs at least 2 players, got {players}")
    schedule: list[ComparePairing] = []
    pair = 0
    for first in range(players):
        for second in range(first + 1, players):
            for opening in range(games_per_pair // 2):
                for first_black in (True, False):
                    schedule.append(ComparePairing(len(schedule), pair, first, second, opening, first_black))
            pair += 1
    return schedule


def compare_openings(set_name: str, seed: int, games_per_pair: int) -> list[tuple[int, ...]]:
    """The ``games_per_pair / 2`` openings every pair plays: the first of
    the set ``set_name`` shuffled by ``seed`` (distinct, none a mirror
    image of another).

    Raises:
        BadOpeningSetError: an unknown set name.
        TooFewOpeningsError: the set holds fewer openings than asked for.
    """
    check_games_per_pair(games_per_pair)
    openings = opening_set(set_name)
    try:
        series = openings.series(series_name(seed, "compare"), games_per_pair // 2)
    except TooFewOpeningsError as exc:
        raise CompareInputError(f"--games {games_per_pair}: each pair plays {games_per_pair // 2} distinct "
                                f"openings, more than {openings.name} offers ({exc}); ask for fewer games or "
                                "a deeper --openings set") from None
    return [tuple(moves) for moves in series]


def compare_specs(schedule: Sequence[ComparePairing], openings: Sequence[tuple[int, ...]]) -> list[Pairing]:
    """The games of ``schedule`` as the workers play them."""
    return [Pairing(p.game_index, p.black, p.white, openings[p.opening]) for p in schedule]


@dataclass(frozen=True)
class CompareRow:
    """One player's line of the result, best first."""

    rank: int
    player: int           # its place in the field
    rating: float         # Elo relative to the anchor
    stderr: float         # of the difference to the anchor (0 for the anchor)
    games: int
    wins: int
    draws: int
    losses: int


def compare_rows(players: int, schedule: Sequence[ComparePairing], margins: Sequence[int],
                 anchor: int = 0) -> list[CompareRow]:
    """Every player's rating from the games of ``schedule`` (``margins``:
    Black's final margin of each game, in schedule order): one
    Bradley–Terry fit (:func:`~genethello.cluster.fitness.tournament_rating.fit_bradley_terry`,
    the hall's), Elo relative to player ``anchor`` (0 ± 0), each error
    that of the difference to the anchor. Rows best first: rating, then the
    earlier place in the field.

    Raises:
        ValueError: margins and schedule of different lengths, or an anchor
            outside the field.
    """
    if len(margins) != len(schedule):
        raise ValueError(f"{len(margins)} results for a schedule of {len(schedule)} games")
    if not 0 <= anchor < players:
        raise ValueError(f"anchor {anchor} is not one of the {players} players")
    record = [[0, 0, 0] for _ in range(players)]      # wins, draws, losses
    games = []
    for p, margin in zip(schedule, margins, strict=True):
        score = points_from_margin(margin)
        games.append((p.black, p.white, score))
        for player, points in ((p.black, score), (p.white, 1.0 - score)):
            record[player][0 if points == 1.0 else 1 if points == 0.5 else 2] += 1
    ratings = fit_bradley_terry(range(players), games, anchor=anchor)
    order = sorted(range(players), key=lambda i: (-round(ratings[i].rating, 9), i))
    return [CompareRow(rank, i, ratings[i].rating, ratings[i].stderr, ratings[i].games, *record[i])
            for rank, i in enumerate(order, start=1)]
