"""A best so far that never goes down (``hall.gate_pairs``; issue 36 part 5).

A run's best so far is the hall's top: whoever the hall's noisy ratings put
first after the latest entry. With ``hall.gate_pairs > 0``
the hall's new top replaces the best so far only when it beats it: the two
play game pairs (an opening with both colours) at the measure's depth
(``yardstick.depth``, exact at ``games.exact_empties``) from openings of
``yardstick.panel_openings`` drawn for the gate's generation, until
:func:`~genethello.cluster.breeding.pbt_selection.gate_best`'s SPRT
(logistic Elo, H0: 0 against H1: ``hall.gate_elo``, at the yardstick's
``sprt_alpha`` and ``sprt_beta``; a narrow test needs hundreds of pairs) accepts H1 (replace) or H0, or
``gate_pairs`` pairs leave it undecided (keep). Generations between hall
entries carry the gated best on (:func:`carried_best`), and the run's own
measure plays it (:func:`best_so_far`).

Nothing of the gate is stored but its result, the generation's best
(stored with the hall's ratings, in one transaction): a run stopped
mid-gate has not rated its hall and plays the whole gate again on resume
(the same games: every game is a pure function of its pairing and
opening), so resumed and uninterrupted runs store the same best.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from genethello.cluster.breeding.pbt_selection import gate_best
from genethello.cluster.config import RunConfig
from genethello.cluster.db import Database
from genethello.cluster.measures.hall import HallGameResult, hall_order, rate_hall
from genethello.cluster.measures.panel import panel_openings, panel_schedule
from genethello.cluster.measures.panel_games import entrant, play_players
from genethello.cluster.reads import HallEntry
from genethello.cluster.reads.ranking import RankedPlayer
from genethello.cluster.reads.runs import player_record
from genethello.cluster.work import Executor
from genethello.core.families.registry import Individual, parse_individual
from genethello.core.play.seeds import derive_seed
from genethello.core.play.sprt import Sprt

__all__ = ["CHUNK_PAIRS", "GateStore", "STOPPED", "Stopped", "best_so_far", "carried_best", "gate_sprt",
           "gated_hall_best", "play_gate"]

#: Game pairs played at a time before the test looks (its decision is that
#: of the first pair that decides it, however many were played).
CHUNK_PAIRS = 8


class Stopped:
    """The gate was stopped before it decided (the run stops; resume plays it again)."""


STOPPED = Stopped()


class GateStore(Protocol):
    """What the gate reads of a run's store (the run's RunStore)."""

    @property
    def db(self) -> Database: ...

    def bests(self, first: int, last: int) -> list[int | None]: ...

    def hall_games(self) -> list[HallGameResult]: ...

    def best(self) -> RankedPlayer | None: ...


def gate_sprt(config: RunConfig) -> Sprt:
    """The gate's test: H0 the challenger is 0 logistic Elo stronger, H1
    ``hall.gate_elo`` stronger, at the yardstick's error rates."""
    ys = config.yardstick
    return Sprt(0.0, config.hall.gate_elo, ys.sprt_alpha, ys.sprt_beta)


def play_gate(config: RunConfig, g: int, challenger: Individual, best: Individual, executor: Executor,
              should_stop: Callable[[], bool] = lambda: False) -> bool | Stopped:
    """Whether ``challenger`` replaces ``best`` (module docstring), from
    pairs played :data:`CHUNK_PAIRS` at a time on ``executor``."""
    ys, pairs = config.yardstick, config.hall.gate_pairs
    openings = panel_openings(ys.panel_openings, derive_seed(config.seed, "best-gate", g), 2 * pairs)
    sides = (entrant(challenger, ys.depth, config.games.exact_empties),
             [entrant(best, ys.depth, config.games.exact_empties)])
    sprt = gate_sprt(config)
    points: list[float] = []
    for first in range(0, pairs, CHUNK_PAIRS):
        schedule = panel_schedule(1, openings[first:min(pairs, first + CHUNK_PAIRS)])
        margins = play_players(executor, sides[0], sides[1], schedule, should_stop)
        if margins is None:
            return STOPPED
        games = [1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins]
        points += [games[i] + games[i + 1] for i in range(0, len(games), 2)]
        decision = gate_best(points, sprt, pairs)
        if decision != "play on":
            return decision == "replace"
    return False


def carried_best(config: RunConfig, store: GateStore, g: int, hall_top: int | None) -> int | None:
    """Generation ``g``'s best so far before its hall step: the hall's top
    (``hall_top``), or with the gate, generation g-1's best (the hall's top
    until there is one)."""
    if not config.hall.gate_pairs or g <= 1:
        return hall_top
    before = store.bests(g - 1, g - 1)
    return before[0] if before and before[0] is not None else hall_top


def gated_hall_best(config: RunConfig, store: GateStore, g: int, members: Sequence[HallEntry], anchors: Sequence[int],
                    executor: Executor, should_stop: Callable[[], bool]) -> int | None | Stopped:
    """Generation ``g``'s best so far after its hall entry, before the
    hall's ratings are stored: None without the gate (the hall's top, as
    the hall step stores it), else the hall's new top when it passes the
    gate against generation g-1's best, or that best."""
    if not config.hall.gate_pairs:
        return None
    fitted = rate_hall([*anchors, *(m.player_id for m in members)], store.hall_games())
    ratings = {m.player_id: fitted[m.player_id] for m in members}
    top = hall_order(ratings, {m.player_id: m.entered for m in members},
                     {m.player_id: m.text for m in members})[0]
    best = carried_best(config, store, g, None)
    if best is None or best == top or best not in ratings:
        return top
    challenger, incumbent = (parse_individual(*player_record(store.db, pid)) for pid in (top, best))
    replaced = play_gate(config, g, challenger, incumbent, executor, should_stop)
    if isinstance(replaced, Stopped):
        return replaced
    return top if replaced else best


def best_so_far(config: RunConfig, store: GateStore, g: int) -> RankedPlayer | None:
    """The best so far the run's measure plays at generation ``g``: the
    hall's top (``store.best()``), or with the gate, the gated best stored
    with generation g."""
    if not config.hall.gate_pairs:
        return store.best()
    stored = store.bests(g, g)
    if not stored or stored[0] is None:
        return store.best()
    text, payload = player_record(store.db, stored[0])
    return RankedPlayer(stored[0], text, 0.0, 0, payload)
