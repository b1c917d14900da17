"""Playing the strength panel's games: the players' games on an executor
(in this process, or Ray workers), an external engine's here.

A game between two of genethello's players is a
:class:`~genethello.cluster.fitness.matches.Pairing` of the one match task
(each side a :class:`~genethello.cluster.fitness.matches.Side` with its
text, stored weights and search limits), so a panel plays on the same
workers, with the same per-game determinism, as ``genethello compare``. An
external GTP engine runs where the command is given, one game at a time, as
the yardstick plays it (the workers need not have the program).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from genethello.cluster.fitness.matches import Matches, Pairing, PlaySetting, Side
from genethello.cluster.measures.panel import PanelGame
from genethello.cluster.work import Executor, batches_of
from genethello.core.families.registry import Individual, family_of
from genethello.core.gtp.gtp_player import GtpPlayer
from genethello.core.play.players import ChromosomePlayer, play


def entrant(individual: Individual, depth: int, exact: int) -> Side:
    """``individual`` as it travels to the workers, searching to ``depth``
    (exact at ``exact`` empties)."""
    payload = family_of(individual).storage(individual).payload
    return Side(str(individual), payload, PlaySetting(depth, exact))


def play_specs(executor: Executor, entrants: Sequence[Side], specs: Sequence[Pairing],
               should_stop: Callable[[], bool] = lambda: False) -> list[int] | None:
    """Black's final margin of every game of ``specs`` (each naming two
    ``entrants`` by place), in their order; None when stopped first."""
    margins: dict[int, int] = {}
    for outcomes in executor.run(Matches(tuple(entrants)), batches_of(specs), should_stop):
        for outcome in outcomes:
            margins[outcome.index] = outcome.score
    if len(margins) < len(specs):
        return None
    return [margins[spec.index] for spec in specs]


def play_players(executor: Executor, candidate: Side, members: Sequence[Side], schedule: Sequence[PanelGame],
                 should_stop: Callable[[], bool] = lambda: False) -> list[int] | None:
    """The candidate's final margin in every game of ``schedule`` against
    ``members`` (a game's member is its place in ``members``), in schedule
    order; None when stopped first."""
    specs = [Pairing(g.index, 0 if g.candidate_black else g.member + 1,
                             g.member + 1 if g.candidate_black else 0, g.opening) for g in schedule]
    margins = play_specs(executor, (candidate, *members), specs, should_stop)
    if margins is None:
        return None
    return [m if g.candidate_black else -m for g, m in zip(schedule, margins, strict=True)]


def play_engine(candidate: Individual, command: str, depth: int, exact: int, schedule: Sequence[PanelGame],
                progress: Callable[[], None] = lambda: None) -> list[int]:
    """The candidate's final margin in every game of ``schedule`` against
    the GTP engine ``command`` (started here, closed after), the candidate
    searching to ``depth``."""
    me = ChromosomePlayer(candidate, depth, exact)
    engine = GtpPlayer(command)
    margins = []
    try:
        for game in schedule:
            opening = list(game.opening)
            if game.candidate_black:
                margins.append(play(me, engine, opening, game.index))
            else:
                margins.append(-play(engine, me, opening, game.index))
            progress()
    finally:
        engine.close()
    return margins
