"""Freezing other runs' champions into a new run's fitness pool (issue 36
part 2; the names are :mod:`genethello.cluster.fitness.database_players`'s).

``evolve`` creates a run from a config whose ``fitness.opponents`` may
name ``champion:RUN``: the best so far of another run of the same
database. What that is changes while the other run goes on, and a run's
games must stay a pure function of its stored config (resumed or not, on
any worker), so the run stores ``player:ID`` instead, the row of that best
so far at creation; every later generation and every resume plays that
row. The frozen config is checked with the database at hand: every
database player reads back as a player, and none is on the run's strength
panel (its measure must be players the fitness never met).
"""

from __future__ import annotations

from dataclasses import replace

from genethello.cluster.config import ConfigError, RunConfig
from genethello.cluster.db import Database
from genethello.cluster.fitness.database_players import PlayerLookup, champion_run, names_database_player, player_spec
from genethello.cluster.fitness.epsilon_players import split_epsilon
from genethello.cluster.fitness.network_depth_fitness import resolve_opponent
from genethello.cluster.measures.panel import check_panel_config
from genethello.cluster.reads.ranking import best
from genethello.cluster.reads.runs import find_run, player_record

__all__ = ["database_lookup", "freeze_champions"]


def database_lookup(db: Database) -> PlayerLookup:
    """Reads a player's text and played payload by row id from ``db``."""

    def lookup(row: int) -> tuple[str, bytes | None]:
        return player_record(db, row)
    return lookup


def freeze_champions(db: Database, config: RunConfig) -> RunConfig:
    """``config`` with every ``champion:RUN`` of ``fitness.opponents`` (an
    ε prefix kept) replaced by ``player:ID``, the row of RUN's best so far
    now; checked as the module docstring says.

    Raises:
        ConfigError: one line naming ``fitness.opponents`` and the name: no
            such run, a run with no best so far yet, a row that is not a
            player, a player on the strength panel.
    """
    opponents = []
    for spec in config.fitness.opponents:
        _, player = split_epsilon(spec)
        run = champion_run(player)
        if run is not None:
            try:
                found = find_run(db, run)
            except ValueError as exc:
                raise ConfigError(f"fitness.opponents: {spec}: {exc}") from None
            champion = best(db, found.id)
            if champion is None:
                raise ConfigError(f"fitness.opponents: {spec}: run {found.name!r} has no best so far yet")
            spec = spec[:len(spec) - len(player)] + player_spec(champion.player_id)
        opponents.append(spec)
    database = [spec for spec in opponents if names_database_player(split_epsilon(spec)[1])]
    if not database:
        return config           # the config check has read every other opponent already
    frozen = replace(config, fitness=replace(config.fitness, opponents=tuple(opponents)))
    lookup = database_lookup(db)
    for spec in database:
        try:
            resolve_opponent(spec, lookup)
        except ValueError as exc:
            raise ConfigError(f"fitness.opponents: {exc}") from None
    check_panel_config(frozen, lookup)
    return frozen
