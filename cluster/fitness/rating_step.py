"""Rating one generation: a pure function of its players and its games.

The coordinator gathers a generation's members (with their Elo carried in
from earlier generations) and its games in schedule order, calls
:func:`rate_generation`, and stores what comes back; nothing here touches the
database or Ray, so the step is tested on hand-made inputs.

Elo is applied game by game in the schedule's canonical order (pair index),
so it never depends on which worker finished first. The Bradley–Terry fit
covers the generation's tournament alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from genethello.cluster.fitness.elo import EloTable
from genethello.cluster.fitness.tournament_rating import fit_bradley_terry
from genethello.core.play.scoring import points_from_margin


@dataclass(frozen=True)
class Member:
    """A player of the generation as the rating step needs it."""

    player_id: int
    elo: float      # carried in from earlier generations (the start rating when new)
    birth: int      # generation of birth: the older player wins a tie
    text: str       # TYPE_BIRTH_GENES


@dataclass(frozen=True)
class PlayedGame:
    """A stored game's result: Black's final disc margin."""

    black_id: int
    white_id: int
    margin: int


@dataclass(frozen=True)
class PlayerRating:
    """A member after the generation: new Elo, this generation's record and
    its Bradley–Terry rating with standard error (Elo points)."""

    player_id: int
    elo: float
    wins: int
    losses: int
    draws: int
    bt_rating: float
    bt_stderr: float


@dataclass(frozen=True)
class GenerationRating:
    """Everything the coordinator stores after rating a generation."""

    players: tuple[PlayerRating, ...]   # in the members' order
    mean_elo: float
    stats: dict[str, Any]                # the generation's summary, stored as JSON


def rate_generation(members: Sequence[Member], games: Sequence[PlayedGame], *, start_rating: float,
                    k: float) -> GenerationRating:
    """Elo, W/L/D and Bradley–Terry ratings of one generation.

    Args:
        members: the generation's players, in slot order.
        games: its games in schedule (pair index) order; every player in
            them is a member.
        start_rating: Elo of a player the table has not seen (unused for
            members, which bring their own).
        k: the Elo K factor.

    Returns:
        The members' new ratings in the members' order, the mean Elo and
        the summary statistics (max/min Elo, the generation's best by Elo
        with the older birth winning ties, games, Black wins, draws).
    """
    table = EloTable(start_rating=start_rating, k=k)
    record = {m.player_id: [0, 0, 0] for m in members}   # wins, losses, draws
    for m in members:
        table.add(m.player_id, m.elo)
    results = []
    for game in games:
        points = points_from_margin(game.margin)
        table.update(game.black_id, game.white_id, points)
        results.append((game.black_id, game.white_id, points))
        for pid, own in ((game.black_id, points), (game.white_id, 1.0 - points)):
            record[pid][0 if own == 1.0 else (2 if own == 0.5 else 1)] += 1
    fit = fit_bradley_terry([m.player_id for m in members], results)
    rated = tuple(PlayerRating(m.player_id, table.rating(m.player_id), record[m.player_id][0], record[m.player_id][1],
                               record[m.player_id][2], fit[m.player_id].rating, fit[m.player_id].stderr)
                  for m in members)
    elos = [r.elo for r in rated]
    best_index = max(range(len(members)), key=lambda i: (rated[i].elo, -members[i].birth))
    stats = {
        "max_elo": max(elos), "min_elo": min(elos),
        "generation_best": members[best_index].text, "generation_best_elo": rated[best_index].elo,
        "games": len(results),
        "black_wins": sum(1 for r in results if r[2] == 1.0),
        "draws": sum(1 for r in results if r[2] == 0.5),
    }
    return GenerationRating(rated, sum(elos) / len(elos), stats)
