"""What a run's hall rating is relative to, and at what depth: one answer.

A hall rating (``+115 ± 38``) means nothing without its zero. Before this
module ``evolve`` said "Elo vs p_1_10 at depth 2", ``best`` "Elo against
p_1_10 = 0" and ``status`` "vs generation 1's champion" for the same run.
Every place that names the scale (``evolve``'s progress and last line,
``best``, ``status``, ``history``, ``plot`` and the web page's titles) now
asks :func:`rating_anchor` and prints its :meth:`RatingAnchor.text`.

The zero, by family and fitness kind:

* a network run at depth with fixed opponents: the hall's games include
  the opponents, rated with the members as anchors, the first opponent = 0
  (:meth:`genethello.cluster.run.generation.Generation.hall`);
* every other run with a hall (GeneThello's round robin, network
  coevolution or hall fitness, at depth or at 1 ply): generation 1's
  champion, the hall's first entrant = 0;
* a run without a hall: no fixed zero (Elo relative to the population).

The depth is that of the games the hall plays: ``games.depth`` for
GeneThello, ``fitness.depth`` for a network run (0: the 1-ply fast loop,
each move random with probability ε).
"""

from __future__ import annotations

from dataclasses import dataclass

from genethello.cluster.breeding.lineage_words import learning_games
from genethello.cluster.config import RunConfig
from genethello.cluster.family_traits import traits_of
from genethello.cluster.fitness.epsilon_players import anchor_opponents
from genethello.cluster.fitness.fitness_kinds import fitness_kind

__all__ = ["FIRST_CHAMPION", "RatingAnchor", "has_measure", "rating_anchor", "run_line"]

#: The hall's zero where no fixed opponent anchors it.
FIRST_CHAMPION = "generation 1's champion"


@dataclass(frozen=True)
class RatingAnchor:
    """The zero of a run's hall ratings and the games that measure them."""

    relative_to: str | None     # who is 0 Elo (None: the run has no hall, so no fixed zero)
    depth: int                  # plies of the hall's games (0: 1 ply with ε-random moves)
    epsilon: float = 0.0        # depth 0: each move random with this probability

    @property
    def where(self) -> str:
        """The hall games' search: "depth 4", or "1 ply (ε = 0.1)"."""
        return f"depth {self.depth}" if self.depth else f"1 ply (ε = {self.epsilon:g})"

    def text(self) -> str:
        """The scale in the words every command uses: "Elo vs p_1_10 at depth 2"."""
        if self.relative_to is None:
            return "no hall of fame: Elo relative to the population"
        return f"Elo vs {self.relative_to} at {self.where}"

    def zero(self) -> str:
        """The scale with its zero spelled out: "Elo vs p_1_10 at depth 2 (p_1_10 = 0)"."""
        if self.relative_to is None:
            return self.text()
        return f"{self.text()} ({self.relative_to} = 0)"


def rating_anchor(config: RunConfig) -> RatingAnchor:
    """What ``config``'s hall ratings are relative to (module docstring)."""
    f = config.fitness
    at_fitness = traits_of(config.chromosome_type).plays_at_fitness_setting
    depth = f.depth if at_fitness else config.games.depth
    epsilon = f.epsilon if at_fitness and not f.depth else 0.0
    if config.hall.games_per_member == 0:
        return RatingAnchor(None, depth, epsilon)
    if at_fitness and f.depth and fitness_kind(f.kind).anchors_hall:
        return RatingAnchor(anchor_opponents(f.opponents)[0], depth)
    return RatingAnchor(FIRST_CHAMPION, depth, epsilon)


def run_line(config: RunConfig) -> str:
    """The run's settings in one line, as the web page's header shows them:
    "all-4+2x2-s8, P=8, fixed fitness at depth 2 (exact 6), pbt-td: 400
    learning games a member a generation"; "oe_fmc, P=11, depth 4"."""
    head = f"{config.population.type}, P={config.population_size}"
    if not traits_of(config.chromosome_type).plays_at_fitness_setting:
        return f"{head}, round robin at depth {config.games.depth} (exact {config.games.exact_empties})"
    f, b = config.fitness, config.breeding
    at = f"depth {f.depth} (exact {f.exact_empties})" if f.depth else f"1 ply (ε = {f.epsilon:g})"
    line = f"{head}, {f.kind} fitness at {at}"
    if learning_games(b):
        line += f", {b.method}: {learning_games(b)} learning games a member a generation"
    return line


def has_measure(config: RunConfig) -> bool:
    """Whether the run measures its best on a yardstick at all (a network
    run's yardstick is the League measure, off with
    ``yardstick.league_double_games = 0``, and the strength panel, on with
    ``yardstick.panel_games``)."""
    ys = config.yardstick
    if not traits_of(config.chromosome_type).yardstick_plays_players:
        return bool(ys.every and (ys.league_double_games or ys.panel_games))
    return bool(ys.every)
