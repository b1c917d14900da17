"""The strength panel as a run's measure (``yardstick.panel_games``).

A learning run ranked against two fixed players learns those two (issue 36).
Its measure is instead the strength panel (:mod:`genethello.cluster.measures.panel`):
every ``yardstick.every`` generations (and at 1) the best so far plays each
member ``yardstick.panel_games`` games at ``yardstick.depth`` (the measure's
depth, 4 by default), exact at ``games.exact_empties``, both colours from
openings of ``yardstick.panel_openings`` — a set of another ply depth than
the fitness's and the hall's (``fitness.openings``, ``openings.series``),
so no panel game starts where a fitness or hall game did. The scores are
stored as yardstick results named ``panel NAME`` (W/D/L, games, points),
which ``best``, ``history`` and the web page read; :func:`panel_rating`
turns them into the one anchored rating.

A run's fitness and hall never play the panel's players: :func:`check_panel_config`
refuses a fitness opponent that is a member, unless the config names the
panel itself (``yardstick.panel_members``), which says the overlap is meant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from genethello.cluster.config import RunConfig
from genethello.cluster.measures.anchored_rating import AnchoredRating, AnchoredResult, anchored_rating
from genethello.cluster.measures.panel import (
    PREFIX,
    anchors_at,
    identity,
    members_of,
    panel_openings,
    panel_schedule,
    tally,
)
from genethello.cluster.measures.panel_games import entrant, play_players
from genethello.cluster.measures.yardstick_score import YardstickScore
from genethello.cluster.work import Executor
from genethello.core.families.individual_names import resolve_individual
from genethello.core.families.registry import Individual


def measure_panel(config: RunConfig, candidate: Individual, executor: Executor,
                  should_stop: Callable[[], bool]) -> list[YardstickScore] | None:
    """The candidate against every panel member it is not (see the module
    docstring), on ``executor``; [] when ``yardstick.panel_games`` is 0,
    None when stopped before every game was played."""
    ys = config.yardstick
    if ys.panel_games == 0:
        return []
    me = identity(candidate)
    members = [(name, resolve_individual(name)) for name in members_of(config)]
    members = [(name, player) for name, player in members if identity(player) != me]
    if not members:
        return []
    names = [name for name, _ in members]
    exact = config.games.exact_empties
    openings = panel_openings(ys.panel_openings, config.seed, ys.panel_games)
    schedule = panel_schedule(len(members), openings)
    margins = play_players(executor, entrant(candidate, ys.depth, exact),
                           [entrant(player, ys.depth, exact) for _, player in members], schedule, should_stop)
    if margins is None:
        return None
    return [YardstickScore(PREFIX + name, score)
            for name, score in zip(names, tally(len(names), schedule, margins), strict=True)]


def panel_rating(scores: Sequence[YardstickScore], depth: int, exact: int) -> AnchoredRating | None:
    """The one anchored rating of a measurement's panel rows (those named
    ``panel NAME`` with an anchor at ``depth`` and ``exact``); None when
    none has one."""
    table = anchors_at(depth, exact)
    if table is None:
        return None
    results = []
    for score in scores:
        if not score.opponent.startswith(PREFIX) or score.games == 0:
            continue
        anchor = table.ratings.get(score.opponent.removeprefix(PREFIX))
        if anchor is not None:
            results.append(AnchoredResult(anchor.rating, score.games, score.points, anchor.stderr))
    return anchored_rating(results) if results else None


def panel_line(scores: Sequence[YardstickScore], depth: int, exact: int) -> str:
    """The log's words for a measurement: 'panel p_1_10 55.0% [44.1%, 65.4%]
    (W/D/L 20/4/16), ...; rating +35 [-40, +110]'."""
    from genethello.cluster.measures.anchored_rating import format_rating

    rows = [s for s in scores if s.opponent.startswith(PREFIX)]
    said = ", ".join(f"{s.opponent} {s.result.text()}" for s in rows)
    rating = panel_rating(rows, depth, exact)
    return said + (f"; rating {format_rating(rating)}" if rating is not None else "")
