"""Run configuration: a TOML file, parsed and checked value by value.

Every key is known, typed and range-checked; a config with an unknown key, a
wrong type or an out-of-range value is refused with an error naming the key
(``section.key``), before a database is touched. The parsed config is stored
with the run (as JSON) so that ``resume`` continues under the same settings.

The ground floor of the cluster: this module imports nothing of
``genethello.cluster`` and of the core only the families' vocabulary (a
run's ``population.type`` is a kind) and the built-in contestants' names.
The checks that need the rest of the program — breeder names and what each
breeds, search algorithms, opening sets, the players a yardstick names, the
size of a round robin — are the run check's
(:mod:`genethello.cluster.run.run_check`), whose ``load_config`` and
``config_from_mapping`` every command uses; :func:`parse_config` and
:func:`read_config` here are their first half.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from genethello.core.families.registry import Kind, parse_individual, parse_kind
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.user_files import UserFileError, loads_toml, read_user_file, user_text
from genethello.core.play.contestants import BUILT_IN_CONTESTANTS

T = TypeVar("T")

#: ``openings.series`` of a new run (:data:`genethello.core.play.openings.DEFAULT_SET`;
#: a test keeps the two equal) and of runs made before opening sets
#: (:data:`~genethello.core.play.openings.RANDOM_WITH_REPLACEMENT`).
DEFAULT_OPENING_SET = "distinct-6"
RANDOM_OPENINGS = "random"


class ConfigError(UserError):
    """A configuration value that is missing, unknown, mistyped or out of range."""


@dataclass(frozen=True)
class PopulationConfig:
    type: str = "oe_fmc"             # the kind of member (a GeneThello chromosome type; its family follows)
    size: int = 0                     # P; 0 = the type's bit length (GeneThello's choice)
    initial: str = ""                 # optional file of TYPE_BIRTH_GENES lines for generation 1
    members: tuple[str, ...] = ()     # that file's chromosome texts, read once when the config is loaded


@dataclass(frozen=True)
class GamesConfig:
    depth: int = 4                    # plies per move (fixed: node counts decide, runs reproduce)
    exact_empties: int = 8            # solve exactly at this many empties or fewer
    random_plies: int = 4             # seeded random opening plies per game
    algorithm: str = "negascout-soft"
    tt_bits: int = 16                 # transposition table: 2**bits buckets per engine


#: How parents are ranked: "score", the generation's own round-robin points
#: (in a complete round robin, the Bradley–Terry order), or "elo", Elo carried
#: over from earlier generations as GeneThello did (mostly luck for a newborn
#: after one generation, and relative to whoever shared the population).
SELECTIONS = ("score", "elo")


@dataclass(frozen=True)
class RatingConfig:
    start: float = 1500.0             # Elo of a newborn chromosome
    k: float = 16.0                   # Elo K factor per game
    selection: str = "score"          # parents by this generation's round-robin score, or "elo" (GeneThello)


@dataclass(frozen=True)
class BreedingConfig:
    """``[breeding]`` and each method's own section.

    ``[breeding]`` holds what every method shares; a method's own keys sit
    in its section (``[breeding.ga]``, ``[breeding.cma-es]``,
    ``[breeding.pbt-td]``: :data:`BREEDING_SECTIONS`). Configs written
    before the sections, and every stored run's config, name the same keys
    flat in ``[breeding]``; they are read as they always were. In memory
    (and in the stored JSON) the keys stay flat, one field each: the stored
    bytes are those of before.
    """

    method: str = "ga"                # "ga" (GeneThello's breeding), "random-search" (a baseline), "cma-es" (networks),
                                      # "pbt-td" (staged networks: TD learning with population-based training)
    elites: int = 2                   # best parents copied unchanged (ga, random-search)
    inject_top: int = 2               # best K of the hall of fame (else by Elo) re-enter if absent
    inject_other_runs: bool = False   # also inject the best of other runs of this type
    # [breeding.ga] (random-search keeps only the elites)
    parent_fraction: float = 0.35     # crossover among the top 35% by Elo
    mutation_rate: float = 1 / 12     # per gene (8.3%, about one gene of oe_fmc's 11)
    mutant_fraction: float = 0.10     # share of P made by mutating a parent
    mutation_sigma: float = 0.5       # networks: the Gaussian mutation's standard deviation (weights start N(0, 1))
    # [breeding.cma-es]
    cma_variant: str = "auto"         # "full" covariance, "separable", or "auto" (full up to 500 weights)
    sigma0: float = 1.0               # the starting step (mean 0: it sets only the weights' scale)
    # [breeding.pbt-td] (staged networks, fitness.depth >= 1): every member learns by TD(λ) from its own
    # self-play games each generation; the bottom share then takes the weights of the top share, perturbed.
    learning_games: int = 200         # self-play games each member learns from per generation
    learning_batch: int = 25          # games played on one set of weights before learning from them
    learning_alpha: float = 0.05      # generation 1's step (the fraction of a position's error learned)
    learning_lambda: float = 0.7      # generation 1's λ of the λ-return
    learning_epsilon: float = 0.1     # generation 1's ε (random moves) in self-play
    learning_depth: int = 1           # generation 1's self-play search depth
    learning_max_depth: int = 2       # the deepest a perturbed self-play depth goes
    learning_exact: int = 0           # self-play solves exactly at this many empties (0 = never)
    learning_opening_plies: int = 0   # random plies before each self-play game
    exploit_fraction: float = 0.25    # the bottom share copies the top share (0 = TD alone, no selection)
    perturb_factor: float = 1.25      # a copied α, λ or ε is multiplied by this or its inverse
    start_sigma: float = 0.05         # generation 1's weights get N(0, σ²) discs of noise (distinct members)
    learning_start: str = ""          # generation 1's network: "" zero weights, or a shipped network's name
    # pbt-td's selection that keeps learning (breeding/pbt_selection.py); the defaults are the plain PBT above.
    ready_slices: int = 0             # copy from a member only after this many slices of its own (0 = always)
    ready_z: float = 0.0              # ... and only when it leads by z standard errors of its ranking (0 = any)
    alpha_floor: float = 0.0          # explore keeps α, λ and ε at or above these floors (0 = none)
    lambda_floor: float = 0.0
    epsilon_floor: float = 0.0
    resample_probability: float = 0.0 # explore draws each of α, λ, ε, depth afresh with this probability
    # pbt-td's targets that see further (core/learning/self_play.py); the defaults are the game's own λ-returns.
    learning_exact_targets: int = 0   # positions with at most this many empties learn their exact score (0 = none)
    learning_search_targets: int = 0  # generation 1's search depth of bootstrapped targets (0 = the static value)
    learning_max_search_targets: int = 0  # explore moves a member's target depth within 1..this (0 = never moved)
    # a staged network's learned change each slice, smoothed across stages (core/families/stage_smoothing.py)
    learning_stage_smoothing: float = 0.0  # the Gaussian's σ in stages (0 = each stage learns alone)


#: ``[breeding]``'s keys every method shares.
BREEDING_COMMON = ("method", "elites", "inject_top", "inject_other_runs")

#: Each breeding method's own section, ``[breeding.<name>]``: its keys and
#: their (low, high) inclusive bounds (None: a key checked otherwise, or
#: unbounded). A method without keys of its own (random-search) has none.
#: A key is named ``breeding.<name>.<key>`` in an error when the config
#: wrote it in the section, ``breeding.<key>`` when it wrote it flat (the
#: legacy form).
BREEDING_SECTIONS: dict[str, dict[str, tuple[Any, Any] | None]] = {
    "ga": {"parent_fraction": (0.0, 1.0), "mutation_rate": (0.0, 1.0), "mutant_fraction": (0.0, 1.0),
           "mutation_sigma": (0.0, 1e6)},
    "cma-es": {"cma_variant": None, "sigma0": (1e-6, 1e6)},
    "pbt-td": {"learning_games": (0, 10_000_000), "learning_batch": (1, 1_000_000),
               "learning_alpha": (1e-9, 1.0), "learning_lambda": (0.0, 1.0), "learning_epsilon": (0.0, 1.0),
               "learning_depth": (1, 12), "learning_max_depth": (1, 12), "learning_exact": (0, 20),
               "learning_opening_plies": (0, 20), "exploit_fraction": (0.0, 0.5), "perturb_factor": (1.0, 10.0),
               "start_sigma": (0.0, 100.0), "learning_start": None,
               "ready_slices": (0, 1_000_000), "ready_z": (0.0, 10.0), "alpha_floor": (0.0, 1.0),
               "lambda_floor": (0.0, 1.0), "epsilon_floor": (0.0, 1.0), "resample_probability": (0.0, 1.0),
               "learning_exact_targets": (0, 20), "learning_search_targets": (0, 12),
               "learning_max_search_targets": (0, 12), "learning_stage_smoothing": (0.0, 100.0)},
}

#: The section that owns each method-specific key (``"learning_alpha"`` -> ``"pbt-td"``).
BREEDING_KEY_SECTION = {key: section for section, keys in BREEDING_SECTIONS.items() for key in keys}


def breeding_key(key: str) -> str:
    """A breeding key's name as a new config writes it: ``breeding.elites``,
    ``breeding.pbt-td.learning_alpha``."""
    section = BREEDING_KEY_SECTION.get(key)
    return f"breeding.{section}.{key}" if section else f"breeding.{key}"


#: ``breeding.cma_variant``: full covariance, separable, or full up to
#: :data:`~genethello.cluster.breeding.cma_es.FULL_CMA_MAX_WEIGHTS` weights.
CMA_VARIANTS = ("auto", "full", "separable")

#: ``fitness.opponents``: the built-in opponents of the fast game loop.
FITNESS_OPPONENTS = BUILT_IN_CONTESTANTS


@dataclass(frozen=True)
class HallConfig:
    games_per_member: int = 540       # games each generation's champion plays against the hall (0 = no hall)
    every: int = 1                    # network runs: the champion enters every K generations (and at 1)
    gate_pairs: int = 0               # network runs: the hall's new top replaces the best so far only when it wins
                                      # an SPRT of at most this many game pairs at yardstick.depth (0 = no gate)
    gate_elo: float = 20.0            # the gate's SPRT: H0 the new top is 0 logistic Elo stronger, H1 this much


@dataclass(frozen=True)
class FitnessConfig:
    """``[fitness]``: how a generation's fitness is played (network runs;
    GeneThello runs play their round robin unless ``kind`` says otherwise)."""

    kind: str = "coevolution"         # a fitness kind (fitness/fitness_kinds.py): "coevolution", "fixed", "hall"
    games_per_pair: int = 2           # coevolution: double games per pair of members
    opponents: tuple[str, ...] = ("wpc",)  # fixed (and hall while it is empty): "wpc" and/or "random"
    games_per_opponent: int = 50      # fixed/hall: double games per member per opponent
    epsilon: float = 0.1              # probability of a random move, both sides
    start_plies: int = 4              # random plies before each double game (0: the standard start)
    batch_games: int = 4096           # games per fitness task (a resumed generation replays unfinished tasks)
    depth: int = 0                    # 0: the fast 1-ply loop; >= 1: every game an engine search this deep
    exact_empties: int = 0            # depth >= 1: solve exactly at this many empties or fewer (0 = never)
    openings: str = ""                # depth >= 1: "distinct-N" draws each pair's start from that set ("": start_plies)
    ranking: str = "points"           # selection order (fitness_ranking.py): points, opponent-ranks, worst-opponent
    hall_opponents: int = 0           # hall and mixed: play the K members entered last before the generation (0: all)

    def __post_init__(self) -> None:
        """Every value checked as a config file's would be: the one check of
        a fitness's values, whether it came from a file or was built in code
        (the benchmarks, the tests). The kind, and what it needs of the other
        keys, is checked by the run check against the table of fitness kinds
        (``fitness/fitness_kinds.py``), which this ground floor cannot import.

        Raises:
            ConfigError: naming the key (``fitness.kind``, ...).
        """
        for f in dataclasses.fields(self):
            _check_value(f"fitness.{f.name}", getattr(self, f.name), f.default)
        # At depth any player a command names may be an opponent: the run
        # check (run/run_check.py) resolves them; the fast loop plays only its own.
        for opponent in self.opponents if self.depth == 0 else ():
            if opponent not in FITNESS_OPPONENTS:
                raise ConfigError(f"fitness.opponents: {opponent!r} is not one of {', '.join(FITNESS_OPPONENTS)} "
                                  "(fitness.depth >= 1 plays any player a command takes)")
        if self.depth == 0 and (self.exact_empties or self.openings):
            key = "fitness.exact_empties" if self.exact_empties else "fitness.openings"
            raise ConfigError(f"{key}: needs fitness.depth >= 1 (the fast 1-ply loop searches nothing)")


@dataclass(frozen=True)
class StopConfig:
    max_generations: int = 100        # stop after this generation (resume --max-generations extends)
    converge_generations: int = 10    # stop when the best is unchanged this long (0 = never)


@dataclass(frozen=True)
class YardstickConfig:
    every: int = 5                    # measure every K generations, and generation 1 (0 = never)
    games_per_opponent: int = 386     # even; 386 games: a 95% interval of at most ±5 points
    depth: int = 4                    # search depth of the evolved player and generation 1's champion
    random_plies: int = 4
    gtp_engines: tuple[str, ...] = () # external GTP engines, e.g. "gtp-rhino -l 1"
    gtp_games: int = 40               # even: games against each external engine (slower: a wider interval)
    league_double_games: int = 500    # Othello League measure: pairs of games vs the WPC player (0 = off)
    opponents: tuple[str, ...] = ()   # fixed reference chromosomes (e.g. "p_1_10"), any type, at the same depth
    sprt_opponents: tuple[str, ...] = ()  # reference players tested sequentially (SPRT) instead of a fixed series
    sprt: tuple[float, ...] = ()      # [elo0, elo1]: the SPRT's hypotheses, logistic Elo of the best over each
    sprt_alpha: float = 0.05          # the SPRT's false-H1 rate
    sprt_beta: float = 0.05           # the SPRT's false-H0 rate
    sprt_max_games: int = 2000        # even: the SPRT gives up undecided after this many games
    panel_games: int = 0              # even: games against each strength-panel member (0 = no panel measure)
    panel_openings: str = "distinct-7"  # the panel's opening set: another depth than the fitness's and the hall's
    panel_members: tuple[str, ...] = ()  # the panel's players ((): the default panel, which the fitness may not play)


@dataclass(frozen=True)
class OpeningsConfig:
    """``[openings]``: where the measured series (the hall's, the
    yardstick's) take their openings. A round robin's games keep their own
    seeded random walks (``games.random_plies``): they are fitness, not a
    measurement with an interval."""

    series: str = DEFAULT_OPENING_SET  # "distinct-N", drawn without replacement; "random": runs made before


@dataclass(frozen=True)
class StorageConfig:
    keep_moves_generations: int = 10  # move lists kept for the last N generations (0 = all)


@dataclass(frozen=True)
class ClusterConfig:
    task_seconds: float = 0.2         # aim for tasks this long (a Ray task costs ~1 ms)
    max_in_flight_per_worker: int = 2 # tasks queued per worker
    commit_every_seconds: float = 1.0 # results are written in batched transactions


@dataclass(frozen=True)
class RunConfig:
    name: str = ""
    seed: int = 1
    population: PopulationConfig = field(default_factory=PopulationConfig)
    games: GamesConfig = field(default_factory=GamesConfig)
    rating: RatingConfig = field(default_factory=RatingConfig)
    breeding: BreedingConfig = field(default_factory=BreedingConfig)
    stop: StopConfig = field(default_factory=StopConfig)
    yardstick: YardstickConfig = field(default_factory=YardstickConfig)
    hall: HallConfig = field(default_factory=HallConfig)
    fitness: FitnessConfig = field(default_factory=FitnessConfig)
    openings: OpeningsConfig = field(default_factory=OpeningsConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    cluster: ClusterConfig = field(default_factory=ClusterConfig)

    @property
    def chromosome_type(self) -> Kind:
        """The kind of member the run evolves, of whichever family owns ``population.type``."""
        return parse_kind(self.population.type)

    @property
    def population_size(self) -> int:
        return self.population.size or self.chromosome_type.default_population_size

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str, source: str = "stored run config") -> RunConfig:
        """A config stored with a run, parsed and checked value by value as a
        config file is (a database is data, and a crafted one may hold
        anything there); what a report reads. ``resume`` checks it whole
        (:func:`genethello.cluster.run.run_check.config_from_json`).

        Raises:
            ConfigError: naming ``source`` and what is wrong, for text that
                is not JSON, is nested too deeply to read, is not a table of
                keys, or holds a bad key.
        """
        return parse_config(stored_json(text, source), source=source)


def stored_json(text: object, source: str) -> Any:
    """``text`` parsed as JSON, for a value a database stored.

    Raises:
        ConfigError: naming ``source``, for anything that does not parse
            (including nesting too deep for the parser's recursion).
    """
    if not isinstance(text, (str, bytes)):
        raise ConfigError(f"{source}: expected JSON text, got {type(text).__name__}")
    try:
        return json.loads(text)
    except RecursionError:
        raise ConfigError(f"{source}: nested too deeply to be a config") from None
    except ValueError as exc:
        raise ConfigError(f"{source}: not valid JSON ({exc})") from None


SECTIONS = {
    "population": PopulationConfig, "games": GamesConfig, "rating": RatingConfig,
    "breeding": BreedingConfig, "stop": StopConfig, "yardstick": YardstickConfig,
    "hall": HallConfig, "fitness": FitnessConfig, "openings": OpeningsConfig, "storage": StorageConfig,
    "cluster": ClusterConfig,
}

# (low, high) inclusive bounds; None = unbounded on that side.
RANGES: dict[str, tuple[Any, Any]] = {
    "seed": (0, 2**63 - 1),
    "population.size": (0, 100_000),
    "games.depth": (1, 60),
    "games.exact_empties": (0, 30),
    "games.random_plies": (0, 20),
    "games.tt_bits": (4, 26),
    "rating.start": (0.0, 10_000.0),
    "rating.k": (0.001, 400.0),
    "breeding.elites": (0, 100_000),
    "breeding.inject_top": (0, 100_000),
    "stop.max_generations": (1, 1_000_000),
    "stop.converge_generations": (0, 1_000_000),
    "yardstick.every": (0, 1_000_000),
    "yardstick.games_per_opponent": (2, 10_000),
    "yardstick.depth": (1, 20),
    "yardstick.random_plies": (0, 20),
    "yardstick.gtp_games": (2, 10_000),
    "yardstick.league_double_games": (0, 1_000_000),
    "yardstick.sprt_alpha": (1e-6, 0.499999),
    "yardstick.sprt_beta": (1e-6, 0.499999),
    "yardstick.sprt_max_games": (2, 1_000_000),
    "yardstick.panel_games": (0, 100_000),
    "hall.games_per_member": (0, 1_000_000),
    "hall.every": (1, 1_000_000),
    "hall.gate_pairs": (0, 100_000),
    "hall.gate_elo": (1.0, 400.0),
    "fitness.games_per_pair": (1, 100_000),
    "fitness.games_per_opponent": (1, 10_000_000),
    "fitness.epsilon": (0.0, 1.0),
    "fitness.start_plies": (0, 20),
    "fitness.batch_games": (1, 10_000_000),
    "fitness.depth": (0, 20),
    "fitness.exact_empties": (0, 30),
    "fitness.hall_opponents": (0, 100_000),
    "storage.keep_moves_generations": (0, 1_000_000),
    "cluster.task_seconds": (0.001, 3600.0),
    "cluster.max_in_flight_per_worker": (1, 64),
    "cluster.commit_every_seconds": (0.0, 3600.0),
}
RANGES.update({f"breeding.{key}": bounds for keys in BREEDING_SECTIONS.values()
               for key, bounds in keys.items() if bounds is not None})


#: Keys whose value is a list of numbers (every other list holds strings).
NUMBER_LISTS = {"yardstick.sprt"}


def table_entry(key: str, table: Mapping[str, T], name: str) -> T:
    """The entry ``name`` of ``table``, the strategies a config key names
    (``fitness.kind``, ``fitness.ranking``).

    Raises:
        ConfigError: naming ``key``, the value and the names there are.
    """
    try:
        return table[name]
    except KeyError:
        raise ConfigError(f"{key}: {name!r} is not one of {', '.join(table)}") from None


def _check_value(key: str, value: Any, default: Any, range_key: str = "") -> Any:
    """Type- and range-check one value against its default's type (``key``
    names it in an error; ``range_key``, if given, is its entry in :data:`RANGES`)."""
    expected = type(default)
    if key in NUMBER_LISTS:
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value):
            raise ConfigError(f"{key}: expected a list of finite numbers, got {value!r}")
        return tuple(float(v) for v in value)
    if expected is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{key}: expected true or false, got {value!r}")
    elif expected is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key}: expected an integer, got {value!r}")
    elif expected is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{key}: expected a number, got {value!r}")
        value = float(value)
        # TOML and JSON both read nan and inf; NaN compares false with both
        # bounds, so it would pass the range check and fail only once a
        # generation had been played.
        if not math.isfinite(value):
            raise ConfigError(f"{key}: expected a finite number, got {value!r}")
    elif expected is str:
        if not isinstance(value, str):
            raise ConfigError(f"{key}: expected a string, got {value!r}")
    elif expected is tuple:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ConfigError(f"{key}: expected a list of non-empty strings, got {value!r}")
        value = tuple(value)
    range_key = range_key or key
    if range_key in RANGES:
        low, high = RANGES[range_key]
        if (low is not None and value < low) or (high is not None and value > high):
            raise ConfigError(f"{key}: {value!r} is outside the allowed range {low}..{high}")
    return value


def _build_section(cls: type, data: Any, section: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"[{section}] must be a table of keys, got {data!r}")
    defaults = cls()
    known = {f.name for f in dataclasses.fields(cls)}
    values = {}
    for key, value in data.items():
        if key not in known:
            raise ConfigError(f"{section}.{key}: unknown key (known: {', '.join(sorted(known))})")
        values[key] = _check_value(f"{section}.{key}", value, getattr(defaults, key))
    return cls(**values)


def _build_breeding(data: Any) -> BreedingConfig:
    """``[breeding]``: the shared keys, each method's section
    (``[breeding.pbt-td]`` ...), and the legacy flat form, where a method's
    key stands in ``[breeding]`` itself (every config written before the
    sections, and every stored run's config): both give the same
    :class:`BreedingConfig`.

    Raises:
        ConfigError: naming the key as it was written.
    """
    if not isinstance(data, dict):
        raise ConfigError(f"[breeding] must be a table of keys, got {data!r}")
    defaults = BreedingConfig()
    values: dict[str, Any] = {}
    written: dict[str, str] = {}

    def take(key: str, name: str, value: Any) -> None:
        if key in written:
            section = BREEDING_KEY_SECTION.get(key)
            raise ConfigError(f"{name}: also set as {written[key]} (set it once, in "
                              f"[breeding{'.' + section if section else ''}])")
        written[key] = name
        values[key] = _check_value(name, value, getattr(defaults, key), f"breeding.{key}")

    for key, value in data.items():
        if key in BREEDING_SECTIONS:
            if not isinstance(value, dict):
                raise ConfigError(f"[breeding.{key}] must be a table of keys, got {value!r}")
            for name, item in value.items():
                if name not in BREEDING_SECTIONS[key]:
                    raise ConfigError(f"breeding.{key}.{name}: unknown key (known: "
                                      f"{', '.join(sorted(BREEDING_SECTIONS[key]))})")
                take(name, f"breeding.{key}.{name}", item)
        elif key in BREEDING_COMMON or key in BREEDING_KEY_SECTION:
            take(key, f"breeding.{key}", value)
        else:
            known = [*BREEDING_COMMON, *(f"[breeding.{section}]" for section in BREEDING_SECTIONS)]
            raise ConfigError(f"breeding.{key}: unknown key (known: {', '.join(known)})")
    return BreedingConfig(**values)


def parse_config(data: dict[str, Any], source: str = "config") -> RunConfig:
    """Build a RunConfig from parsed TOML/JSON, every value checked and the
    checks that need no other module made (the run check makes the rest).

    Raises:
        ConfigError: naming the first offending key.
    """
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a table of keys, got {type(data).__name__}")
    top_known = {"name", "seed"} | set(SECTIONS)
    for key in data:
        if key not in top_known:
            raise ConfigError(f"{key}: unknown key or section in {source} (known: {', '.join(sorted(top_known))})")
    sections = {name: _build_section(cls, data.get(name, {}), name) for name, cls in SECTIONS.items()
                if name != "breeding"}
    sections["breeding"] = _build_breeding(data.get("breeding", {}))
    name = data.get("name", "")
    if not isinstance(name, str):
        raise ConfigError(f"name: expected a string, got {name!r}")
    seed = _check_value("seed", data.get("seed", 1), 1)
    config = RunConfig(name=name, seed=seed, **sections)
    _check_values_together(config)
    return config


def _check_values_together(config: RunConfig) -> None:
    """The checks of values against each other that need no other module."""
    try:
        kind = config.chromosome_type
    except ValueError as exc:
        raise ConfigError(f"population.type: {exc}") from None
    P = config.population.size or kind.default_population_size
    if P < 2:
        raise ConfigError(f"population.size: {P} players cannot play a tournament (need at least 2)")
    if config.breeding.elites > P:
        raise ConfigError(f"breeding.elites: {config.breeding.elites} is more than the population size {P}")
    if config.rating.selection not in SELECTIONS:
        raise ConfigError(f"rating.selection: {config.rating.selection!r} is not one of {', '.join(SELECTIONS)}")
    if config.breeding.cma_variant not in CMA_VARIANTS:
        raise ConfigError(f"{breeding_key('cma_variant')}: {config.breeding.cma_variant!r} is not one of "
                          f"{', '.join(CMA_VARIANTS)}")
    if config.breeding.learning_depth > config.breeding.learning_max_depth:
        raise ConfigError(f"{breeding_key('learning_depth')}: {config.breeding.learning_depth} is deeper than "
                          f"learning_max_depth {config.breeding.learning_max_depth}")
    if config.hall.gate_pairs and not config.hall.games_per_member:
        raise ConfigError("hall.gate_pairs: the gate keeps a run's best so far against its hall's top "
                          "(it needs hall.games_per_member > 0)")
    b = config.breeding
    if b.learning_max_search_targets and not 1 <= b.learning_search_targets <= b.learning_max_search_targets:
        raise ConfigError(f"{breeding_key('learning_max_search_targets')}: explore moves the target depth within "
                          f"1..{b.learning_max_search_targets}, which needs learning_search_targets in that range, "
                          f"not {b.learning_search_targets}")
    for key, value in (("yardstick.gtp_games", config.yardstick.gtp_games),
                       ("hall.games_per_member", config.hall.games_per_member)):
        if value % 2:
            raise ConfigError(f"{key}: {value} must be even (each opening is played with both colours)")
    if config.yardstick.games_per_opponent % 2:
        raise ConfigError(f"yardstick.games_per_opponent: {config.yardstick.games_per_opponent} must be even "
                          "(each opening is played with both colours)")
    _check_sprt(config)
    if len(config.population.members) > P:
        raise ConfigError(f"population.initial: {len(config.population.members)} chromosomes for a population "
                          f"of {P}")
    for text in config.population.members:
        try:
            parse_individual(text)
        except ValueError as exc:
            raise ConfigError(f"population.members: {exc}") from None


def _check_sprt(config: RunConfig) -> None:
    """The sequential test is well posed."""
    ys = config.yardstick
    if ys.sprt and (len(ys.sprt) != 2 or not ys.sprt[0] < ys.sprt[1]):
        raise ConfigError(f"yardstick.sprt: expected [elo0, elo1] with elo0 < elo1, got {list(ys.sprt)}")
    if ys.sprt_opponents and not ys.sprt:
        raise ConfigError("yardstick.sprt: yardstick.sprt_opponents are tested sequentially and need the test's "
                          "bounds, e.g. sprt = [0, 20] (logistic Elo of the best so far over each)")
    if ys.sprt_max_games % 2:
        raise ConfigError(f"yardstick.sprt_max_games: {ys.sprt_max_games} must be even (the test counts pairs "
                          "of games, one opening with both colours)")


def measured_openings(config: RunConfig, random_plies: int) -> str:
    """How a measured series of the run takes its openings, for a report:
    'openings from distinct-6, without replacement' or, for runs made
    before opening sets, 'random openings of 4 plies, with replacement'."""
    series = config.openings.series
    if series == RANDOM_OPENINGS:
        return f"random openings of {random_plies} plies, with replacement"
    return f"openings from {series}, without replacement"


def read_config(path: str | Path) -> RunConfig:
    """Read a TOML run configuration, every value checked (the run check's
    :func:`~genethello.cluster.run.run_check.load_config` checks it whole).

    Raises:
        ConfigError: for a missing/unreadable file, bad TOML or any bad key.
    """
    path = Path(path)
    if not os.path.lexists(path) and "\0" not in str(path):
        raise ConfigError(f"config file {path} does not exist")
    try:
        data = loads_toml(user_text(read_user_file(path, "config file", MAX_CONFIG_BYTES), str(path)), str(path))
    except UserFileError as exc:
        raise ConfigError(str(exc)) from None
    if isinstance(data.get("population"), dict) and "members" in data["population"]:
        raise ConfigError(f"population.members: {path} cannot set it: genethello stores there the chromosomes "
                          "of population.initial's file (name the file instead)")
    config = parse_config(data, source=str(path))
    if config.population.initial:
        # Read once, here: the run stores the texts, so no later step (and no
        # database) ever names a file for genethello to open.
        members = initial_members(Path(config.population.initial))
        config = parse_config({**data, "population": {**data["population"], "members": list(members)}},
                              source=str(path))
    if not config.name:
        config = dataclasses.replace(config, name=path.stem)
    return config


#: The largest config file read (bytes): ours are a few kB.
MAX_CONFIG_BYTES = 1024 * 1024

#: The largest initial-population file read (a chromosome text is under 100
#: bytes; 100,000 players fit many times over).
MAX_INITIAL_BYTES = 16 * 1024 * 1024


def initial_members(path: Path) -> tuple[str, ...]:
    """The chromosome texts of a file of them, one a line (an initial
    population such as config/strong-best.txt, TYPE_BIRTH_GENES lines):
    blank lines and text after '#' are ignored. Only a regular file is read
    (a FIFO or a device would never end), and at most
    :data:`MAX_INITIAL_BYTES` of it.

    Raises:
        ConfigError: naming the file, and its line for a chromosome that does
            not parse; a file that cannot be read, is not a regular file, is
            too large or holds no chromosome.
    """
    key = "population.initial"
    try:
        text = user_text(read_user_file(path, "initial population", MAX_INITIAL_BYTES), str(path))
    except UserFileError as exc:
        raise ConfigError(f"{key}: {exc}") from None
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            try:
                parse_individual(line)
            except ValueError as exc:
                raise ConfigError(f"{path}:{number}: {exc}") from None
            found.append(line)
    if not found:
        raise ConfigError(f"{key}: {path} holds no chromosome (one TYPE_BIRTH_GENES text a line)")
    return tuple(found)
