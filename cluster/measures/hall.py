"""The hall of fame: a best-so-far measured on one absolute scale.

Elo carried across generations is relative to whoever shared the population
(GeneThello saw its generation-436 best rated below generation 1's), and the
top Elo of a run is mostly a newborn's luck. So each generation's champion
(the top of its own round robin) enters a hall and plays the members already
there, each pairing with both colours from seeded openings; every member is
rated by one Bradley–Terry fit of all hall games, anchored at the first
member (generation 1's champion) = 0 Elo, each error being that of the
difference to the anchor. About 540 games per entrant bring an entrant's
error under 15 Elo (a game near 50% carries about 1/√n · 400/ln 10 · 2).

This module decides — the entry's schedule and the ratings — as pure
functions; the coordinator plays the games through its executor and the
run store keeps them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from genethello.cluster.fitness.games import GameSettings
from genethello.cluster.fitness.matches import Pairing
from genethello.cluster.fitness.pairing import opening_seed
from genethello.cluster.fitness.tournament_rating import RatingEstimate, fit_bradley_terry
from genethello.cluster.measures.measured_series import draw_series
from genethello.core.play.scoring import points_from_margin
from genethello.core.play.seeds import derive_seed, series_name


def hall_seed(run_seed: int) -> int:
    """The seed of the hall's openings: a function of the run seed alone,
    unrelated to the seeds of the round-robin openings."""
    return derive_seed(run_seed, "hall")


def hall_settings(settings: GameSettings) -> GameSettings:
    """The run's game settings (depth, exact endgame, openings' length) with
    the hall's opening seed."""
    return dataclasses.replace(settings, seed=hall_seed(settings.seed))


@dataclass(frozen=True)
class HallPairing:
    """One game of an entry: the entrant against member ``opponent`` (its
    position in entry order), opening ``pair`` of that member, entrant
    Black or White (each opening is played with both colours)."""

    game_index: int
    opponent: int
    pair: int
    entrant_black: bool


def entry_schedule(members: int, games_per_member: int) -> list[HallPairing]:
    """The games an entrant plays against a hall of ``members`` earlier
    members: ``games_per_member`` games (even) spread as evenly as pairs
    allow, the earlier members taking the remainder, at least one pair
    (two games) against each member. Game order: member by member, pair by
    pair, entrant Black first.

    Raises:
        ValueError: for an odd or negative games_per_member, or members < 0.
    """
    if members < 0 or games_per_member < 0 or games_per_member % 2:
        raise ValueError(f"members={members}, games_per_member={games_per_member}: expected >= 0 and even games")
    if members == 0 or games_per_member == 0:
        return []
    pairs = games_per_member // 2
    base, extra = divmod(pairs, members)
    schedule: list[HallPairing] = []
    for opponent in range(members):
        for pair in range(max(1, base + (opponent < extra))):
            for entrant_black in (True, False):
                schedule.append(HallPairing(len(schedule), opponent, pair, entrant_black))
    return schedule


def entry_openings(settings: GameSettings, series: str, generation: int, schedule: Sequence[HallPairing]
                   ) -> dict[tuple[int, int], tuple[int, ...]]:
    """The opening of every (member, pair) of an entry, under the hall's
    ``settings`` (:func:`hall_settings`). With an opening set
    (``openings.series``, e.g. ``distinct-6``) each member's pairs are one
    series of it, drawn without replacement and seeded by the hall seed,
    the generation and the member; with ``random`` (runs made before) each
    pair's opening is its own seeded random walk of ``random_plies``."""
    pairs: dict[int, int] = {}
    for p in schedule:
        pairs[p.opponent] = max(pairs.get(p.opponent, 0), p.pair + 1)
    openings: dict[tuple[int, int], tuple[int, ...]] = {}
    for member, count in pairs.items():
        seeds = [opening_seed(settings.seed, generation, member, pair) for pair in range(count)]
        name = series_name(settings.seed, "hall", generation, member)
        drawn = draw_series(series, settings.random_plies, seeds, name)
        openings.update(((member, pair), moves) for pair, moves in enumerate(drawn))
    return openings


def entry_specs(schedule: Sequence[HallPairing], openings: dict[tuple[int, int], tuple[int, ...]]) -> list[Pairing]:
    """The games of an entry as pairings of the match task's sides (the
    entrant at place 0, then the members in entry order), each from its
    (member, pair)'s opening in ``openings`` (:func:`entry_openings`): both
    colours of a pair share it."""
    specs = []
    for p in schedule:
        black, white = (0, 1 + p.opponent) if p.entrant_black else (1 + p.opponent, 0)
        specs.append(Pairing(p.game_index, black, white, openings[p.opponent, p.pair]))
    return specs


@dataclass(frozen=True)
class HallGameResult:
    """A stored hall game: player ids and Black's final margin."""

    black_id: int
    white_id: int
    score: int


def rate_hall(members: Sequence[int], games: Sequence[HallGameResult]) -> dict[int, RatingEstimate]:
    """Every member's rating from all hall games: Bradley–Terry, Elo points
    relative to ``members[0]`` (the anchor, 0 ± 0), keyed by player id in
    ``members`` order. A lone member is rated 0 ± 0 with no games."""
    if not members:
        return {}
    if len(members) == 1:
        return {members[0]: RatingEstimate(0.0, 0.0, 0, 0.0)}
    ratings = fit_bradley_terry(members, ((g.black_id, g.white_id, points_from_margin(g.score)) for g in games),
                                anchor=members[0])
    # Keyed by the members themselves (the fit keys any hashable player), in members order as before.
    return {member: ratings[member] for member in members}


def hall_order(ratings: dict[int, RatingEstimate], entered: dict[int, int], texts: dict[int, str]) -> list[int]:
    """Member ids best first: rating, then the earlier entry, then the text
    (a total order: the same hall always ranks the same way)."""
    return sorted(ratings, key=lambda pid: (-round(ratings[pid].rating, 9), entered[pid], texts[pid]))
