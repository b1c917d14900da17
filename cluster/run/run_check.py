"""The run check: a run configuration checked whole, before anything starts.

:mod:`genethello.cluster.config` parses a config and checks every value and
what needs no other module; this step, above it, makes the checks that need
the rest of the program: the breeder that ``breeding.method`` names and
whether it breeds ``population.type``, the search algorithm, the opening
set and whether every measured series fits in it, the players the yardstick
names and those a depth fitness plays, the size of a round robin, and what
the run's family measures. Every
command that starts or resumes a run reads its config through here
(:func:`load_config`, :func:`config_from_mapping`, :func:`config_from_json`);
the reports read a stored config with :meth:`RunConfig.from_json` alone.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from genethello.cluster.breeding.breeders import BREEDERS, breeder_for
from genethello.cluster.config import (
    FITNESS_OPPONENTS,
    RANDOM_OPENINGS,
    ConfigError,
    RunConfig,
    parse_config,
    read_config,
)
from genethello.cluster.family_traits import traits_of
from genethello.cluster.fitness.database_players import champion_run, names_database_player
from genethello.cluster.fitness.epsilon_players import anchor_opponents, split_epsilon
from genethello.cluster.fitness.fitness_kinds import fitness_kind
from genethello.cluster.fitness.fitness_ranking import fitness_ranking
from genethello.cluster.fitness.network_depth_fitness import resolve_opponent
from genethello.cluster.fitness.pairing import MAX_GAMES_PER_GENERATION, round_robin_games
from genethello.cluster.measures.panel import check_panel_config
from genethello.core.engine.search import ALGORITHMS
from genethello.core.families.registry import parse_individual
from genethello.core.play.openings import BadOpeningSetError, opening_set
from genethello.core.play.sprt import MAX_BOUND_ELO

__all__ = ["BREEDING_METHODS", "check_run_config", "config_from_json", "config_from_mapping", "load_config",
           "max_players"]

#: How a generation is bred: the names of :data:`~genethello.cluster.breeding.breeders.BREEDERS` —
#: GeneThello's genetic algorithm, random search (the elites kept, every
#: other member a fresh random chromosome), the baseline that tells whether
#: the GA's operators add anything, and CMA-ES (networks only).
BREEDING_METHODS = tuple(BREEDERS)


def max_players(max_games: int) -> int:
    """The largest P whose double round robin, P·(P−1) games, fits in ``max_games``."""
    players = (1 + math.isqrt(1 + 4 * max_games)) // 2
    while round_robin_games(players) > max_games:
        players -= 1
    return players


def check_run_config(config: RunConfig, stored: bool = False) -> RunConfig:
    """``config``, once the checks that need other modules pass.

    ``stored``: the config of an existing run, as its database holds it.
    It is checked alike, but for the checks added after runs were stored
    that a run can live without (SPRT bounds beyond what the test computes:
    its yardstick leaves the test out and the run goes on).

    Raises:
        ConfigError: naming the first offending key.
    """
    kind = config.chromosome_type
    P = config.population_size
    if round_robin_games(P) > MAX_GAMES_PER_GENERATION:
        largest = max_players(MAX_GAMES_PER_GENERATION)
        raise ConfigError(f"population.size: {P} players would play {round_robin_games(P):,} games a generation, "
                          f"more than the {MAX_GAMES_PER_GENERATION:,} allowed (at most {largest} players)")
    if config.games.algorithm not in ALGORITHMS:
        raise ConfigError(f"games.algorithm: {config.games.algorithm!r} is not one of {', '.join(ALGORITHMS)}")
    if config.breeding.method not in BREEDERS:
        raise ConfigError(f"breeding.method: {config.breeding.method!r} is not one of {', '.join(BREEDERS)}")
    breeder = breeder_for(config.breeding)
    if not breeder.breeds(kind):
        raise ConfigError(f"breeding.method: {config.breeding.method!r} cannot breed population.type "
                          f"{kind.name!r} (a {kind.family} chromosome)")
    breeder.check(config)
    ys = config.yardstick
    for key, texts in (("yardstick.opponents", ys.opponents), ("yardstick.sprt_opponents", ys.sprt_opponents)):
        for text in texts:
            try:
                parse_individual(text)
            except ValueError as exc:
                raise ConfigError(f"{key}: {exc}") from None
    if ys.sprt and not stored and max(abs(bound) for bound in ys.sprt) > MAX_BOUND_ELO:
        # Beyond it the expected score rounds to 0 or 1 and the test cannot be computed.
        raise ConfigError(f"yardstick.sprt: bounds must lie within ±{MAX_BOUND_ELO:g} Elo, got {list(ys.sprt)}")
    _check_openings(config)
    _check_fitness_kind(config)
    _check_depth_fitness(config, stored)
    check_panel_config(config)
    if not traits_of(kind).yardstick_plays_players:
        for option, players in (("yardstick.opponents", ys.opponents),
                                ("yardstick.sprt_opponents", ys.sprt_opponents),
                                ("yardstick.gtp_engines", ys.gtp_engines)):
            if players:
                raise ConfigError(f"{option}: a network run's yardstick is the Othello League measure on the fast "
                                  "1-ply loop (yardstick.league_double_games); it plays no other opponent "
                                  "(genethello compare --player NAME rates a run's best against one)")
    return config


def _check_fitness_kind(config: RunConfig) -> None:
    """``fitness.kind`` names a kind, and the run has what the kind plays:
    opponents, a hall."""
    f = config.fitness
    kind = fitness_kind(f.kind)
    if kind.plays_opponents and not f.opponents:
        raise ConfigError(f"fitness.opponents: fitness.kind {f.kind!r} needs at least one of "
                          f"{', '.join(FITNESS_OPPONENTS)}")
    if kind.plays_hall and config.hall.games_per_member == 0:
        raise ConfigError(f"fitness.kind: {f.kind!r} needs a hall of fame (hall.games_per_member > 0)")
    if f.hall_opponents and not kind.plays_hall:
        raise ConfigError(f"fitness.hall_opponents: fitness.kind {f.kind!r} plays no hall member")
    traits = traits_of(config.chromosome_type)
    if not f.depth and not traits.plays_fast_loop and kind.kept_as_points(traits.keeps_game_records):
        raise ConfigError(f"fitness.depth: population.type {config.chromosome_type.name!r} plays fitness.kind "
                          f"{f.kind!r} by search: set fitness.depth >= 1 (the fast 1-ply loop plays networks)")
    if fitness_ranking(f.ranking).needs_games and not kind.kept_as_points(traits.keeps_game_records):
        raise ConfigError(f"fitness.ranking: {f.ranking!r} orders a fitness kept as points; population.type "
                          f"{config.chromosome_type.name!r} keeps fitness.kind {f.kind!r} game by game and ranks "
                          "by rating.selection")


def _check_depth_fitness(config: RunConfig, stored: bool) -> None:
    """With ``fitness.depth >= 1``: every fixed opponent names a player a
    command takes (or ``wpc``), or a player of the run's database whose
    name is well formed (``evolve`` reads it: run/frozen_opponents.py; a
    stored config's is frozen), and ``fitness.openings`` a set that holds
    a pairing's double games."""
    f = config.fitness
    if not f.depth:
        return
    kind = fitness_kind(f.kind)
    if kind.plays_opponents:
        for spec in f.opponents:
            try:
                player = split_epsilon(spec)[1]
                if not names_database_player(player):
                    resolve_opponent(spec)
                elif stored and champion_run(player) is not None:
                    raise ValueError(f"{spec!r}: a stored run plays the champion frozen when it was created "
                                     "(player:ID), not another run's best of the moment")
            except ValueError as exc:
                raise ConfigError(f"fitness.opponents: {exc}") from None
    if kind.anchors_hall and f.opponents and not anchor_opponents(f.opponents) \
            and traits_of(config.chromosome_type).plays_at_fitness_setting and config.hall.games_per_member:
        raise ConfigError("fitness.opponents: the hall's ratings are anchored on the opponents that are not "
                          "ε-players, and every one of these is; name at least one player without eps...:")
    if not f.openings:
        return
    try:
        size = opening_set(f.openings).size
    except BadOpeningSetError as exc:
        raise ConfigError(f"fitness.openings: {exc} (or \"\": random starts of fitness.start_plies)") from None
    per_pairing = kind.per_pairing(f)
    if size is not None and per_pairing > size:
        key = f"fitness.{kind.per_pairing_key}"
        raise ConfigError(f"{key}: {per_pairing} double games need {per_pairing} openings and fitness.openings "
                          f"{f.openings} holds {size} (use a deeper set or fewer games)")


def _check_openings(config: RunConfig) -> None:
    """``openings.series`` names a set, and every measured series fits in it."""
    series = config.openings.series
    if series == RANDOM_OPENINGS:
        return
    try:
        size = opening_set(series).size
    except BadOpeningSetError as exc:
        raise ConfigError(f"openings.series: {exc} (or {RANDOM_OPENINGS!r}, as runs made before)") from None
    if size is None:
        return
    for key, games in (("hall.games_per_member", config.hall.games_per_member),
                       ("yardstick.games_per_opponent", config.yardstick.games_per_opponent),
                       ("yardstick.gtp_games", config.yardstick.gtp_games),
                       ("yardstick.sprt_max_games", config.yardstick.sprt_max_games if
                        config.yardstick.sprt_opponents else 0)):
        if games // 2 > size:
            raise ConfigError(f"{key}: {games} games need {games // 2} openings and openings.series {series} "
                              f"holds {size} (use a deeper set, e.g. distinct-7, or fewer games)")


def config_from_mapping(data: dict[str, Any], source: str = "config", stored: bool = False) -> RunConfig:
    """A RunConfig from parsed TOML/JSON, checked whole (``stored``: as
    :func:`check_run_config` says).

    Raises:
        ConfigError: naming the first offending key.
    """
    return check_run_config(parse_config(data, source), stored=stored)


def config_from_json(text: str, source: str = "stored run config") -> RunConfig:
    """The config stored with a run, checked whole (what ``resume`` drives)."""
    return check_run_config(RunConfig.from_json(text, source), stored=True)


def load_config(path: str | Path) -> RunConfig:
    """Read a TOML run configuration and check it whole.

    Raises:
        ConfigError: for a missing/unreadable file, bad TOML or any bad key.
    """
    return check_run_config(read_config(path))
