"""The strength panel: fixed players a candidate is measured against, and
their anchored ratings.

A bred player ranked against two fixed players learns those two (issue 36).
The panel is a set of players a run's fitness never plays: the strongest
bred chromosome, the pattern table alone, earlier shipped champions and,
when the user names them, external GTP engines. Each was rated once, at a
depth and an exact-endgame limit, by one Bradley–Terry fit of a round robin
among them (``python -m genethello.cluster.cli.panel_anchors`` plays it
and writes ``data/panel-anchors.json``, with its games, openings and seed);
a candidate's rating against them is then
:func:`~genethello.cluster.measures.anchored_rating.anchored_rating`.

This module decides, as pure functions: who is on the panel, which games a
measurement plays (every member the same openings, each with both colours,
from an opening series of its own) and how its games add up per member.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePath
from typing import Any

from genethello.cluster.config import ConfigError, RunConfig
from genethello.cluster.fitness.database_players import (
    PlayerLookup,
    database_individual,
    database_player,
    names_database_player,
)
from genethello.cluster.fitness.epsilon_players import split_epsilon
from genethello.cluster.fitness.fitness_kinds import fitness_kind
from genethello.core.families.individual_names import resolve_individual
from genethello.core.families.registry import Individual, family_of
from genethello.core.frontend.errors import UserError
from genethello.core.play.openings import BadOpeningSetError, TooFewOpeningsError, opening_set
from genethello.core.play.scoring import MatchScore

#: The panel's built-in players, by the names ``match`` takes: the strongest
#: bred chromosome (config/strong.toml), the pattern table alone, and the
#: strongest shipped network (config/search-player.toml). A GTP engine joins
#: only when named. ``patterns-v2-net`` is left out: it plays move for move
#: as ``p_1_10`` (docs/networks.md) and would count that player twice; the
#: 1-ply networks (``all-2-league``, ``all-2-coevolved``) score 0-4% against
#: ``p_1_10`` at depth 4, too weak to place anyone.
DEFAULT_MEMBERS = ("fdmxcp_52_2:0:6:9:4:5", "p_1_10", "pbt-td-searcher")

#: The anchors' file, shipped with the package.
ANCHORS_FILE = Path(__file__).with_name("data") / "panel-anchors.json"

#: The key of a panel measurement's opening series (never the fitness's).
OPENINGS_KEY = "panel"


class PanelError(UserError):
    """A panel that cannot be measured as asked (its message names why)."""


def engine_key(command: str) -> str:
    """The name an engine's command line is anchored by: its program's file
    name and its arguments ('/usr/games/gtp-rhino -l 3' -> 'gtp-rhino -l 3'),
    so the same engine found on another path keeps its anchor."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise PanelError(f"engine {command!r}: {exc}") from None
    if not words:
        raise PanelError("an engine's command line is empty")
    return shlex.join([PurePath(words[0]).name, *words[1:]])


@dataclass(frozen=True)
class PanelMember:
    """One opponent of the panel: a player's name (as ``match`` takes it)
    or an external engine's command line."""

    name: str
    engine: bool = False

    @property
    def key(self) -> str:
        """The name its anchored rating is stored under."""
        return engine_key(self.name) if self.engine else self.name


def panel_members(players: Sequence[str] = DEFAULT_MEMBERS, engines: Sequence[str] = ()) -> list[PanelMember]:
    """The panel: ``players`` then ``engines``, each once.

    Raises:
        PanelError: a member named twice.
    """
    members = [PanelMember(p) for p in players] + [PanelMember(e, engine=True) for e in engines]
    keys = [m.key for m in members]
    for key in keys:
        if keys.count(key) > 1:
            raise PanelError(f"panel member {key!r} is named twice")
    return members


def panel_openings(set_name: str, seed: int, games: int) -> list[tuple[int, ...]]:
    """The ``games / 2`` openings every member plays with both colours: the
    first of set ``set_name`` shuffled by (the panel's key, ``seed``).

    Raises:
        PanelError: odd or too few games, or fewer openings in the set.
    """
    if games < 2 or games % 2:
        raise PanelError(f"--games {games}: must be even and at least 2 (each opening is played with both colours)")
    openings = opening_set(set_name)
    try:
        series = openings.series(f"{OPENINGS_KEY}/{seed}", games // 2)
    except TooFewOpeningsError as exc:
        raise PanelError(f"--games {games}: {games // 2} distinct openings are more than {openings.name} offers "
                         f"({exc}); ask for fewer games or a deeper --openings set") from None
    return [tuple(moves) for moves in series]


@dataclass(frozen=True)
class PanelGame:
    """One game of a measurement: against member ``member`` (its place on
    the panel), after ``opening``, the candidate Black or White."""

    index: int
    member: int
    opening: tuple[int, ...]
    candidate_black: bool


def panel_schedule(members: int, openings: Sequence[tuple[int, ...]]) -> list[PanelGame]:
    """Every member plays every opening with both colours, member by member."""
    return [PanelGame(len(openings) * 2 * m + 2 * i + (0 if black else 1), m, opening, black)
            for m in range(members) for i, opening in enumerate(openings) for black in (True, False)]


def tally(members: int, schedule: Sequence[PanelGame], margins: Sequence[int]) -> list[MatchScore]:
    """The candidate's W/D/L against each member (``margins``: the
    candidate's final margin of each game, in schedule order)."""
    if len(margins) != len(schedule):
        raise ValueError(f"{len(margins)} results for a schedule of {len(schedule)} games")
    scores = [MatchScore(0, 0, 0) for _ in range(members)]
    for game, margin in zip(schedule, margins, strict=True):
        scores[game.member] = scores[game.member].add(margin)
    return scores


@dataclass(frozen=True)
class Anchor:
    """A member's rating on the panel's scale, with its standard error."""

    rating: float
    stderr: float


@dataclass(frozen=True)
class AnchorTable:
    """The anchored ratings measured at one depth and exact limit, and how."""

    depth: int
    exact: int
    ratings: dict[str, Anchor]
    provenance: str


def _read_anchors(text: str, where: str) -> list[AnchorTable]:
    """The anchor tables a file holds (see :data:`ANCHORS_FILE`)."""
    try:
        document: Any = json.loads(text)
        tables = []
        for entry in document["tables"]:
            ratings = {name: Anchor(float(v["rating"]), float(v["stderr"])) for name, v in entry["ratings"].items()}
            provenance = (f"{entry['model']}; {entry['games_per_pair']} games a pair from {entry['openings']} "
                          f"seed {entry['seed']}; {entry['command']}")
            tables.append(AnchorTable(int(entry["depth"]), int(entry["exact"]), ratings, provenance))
        return tables
    except (ValueError, KeyError, TypeError) as exc:
        raise PanelError(f"{where}: not a panel anchors file ({type(exc).__name__}: {exc})") from None


@cache
def shipped_anchors() -> tuple[AnchorTable, ...]:
    """The anchors shipped with genethello (none if the file is missing)."""
    if not ANCHORS_FILE.is_file():
        return ()
    return tuple(_read_anchors(ANCHORS_FILE.read_text(encoding="utf-8"), str(ANCHORS_FILE)))


def anchors_at(depth: int, exact: int, tables: Sequence[AnchorTable] | None = None) -> AnchorTable | None:
    """The anchor table measured at ``depth`` and ``exact`` (None: none was)."""
    for table in shipped_anchors() if tables is None else tables:
        if table.depth == depth and table.exact == exact:
            return table
    return None


#: How a panel member's yardstick row is named: 'panel p_1_10'.
PREFIX = "panel "


def members_of(config: RunConfig) -> tuple[str, ...]:
    """The run's panel: ``yardstick.panel_members``, or the default panel."""
    return config.yardstick.panel_members or DEFAULT_MEMBERS


def identity(individual: Individual) -> tuple[str, bytes | None]:
    return str(individual), family_of(individual).storage(individual).payload


def _opponent_identity(name: str, players: PlayerLookup | None) -> tuple[str, bytes | None] | None:
    """The identity of the player a fitness opponent names (ε stripped);
    None for a database player without ``players``; ValueError for a name
    that is no player."""
    if not names_database_player(name):
        return identity(resolve_individual(name))
    if database_player(name) is None or players is None:
        return None
    return identity(database_individual(name, players))


def check_panel_config(config: RunConfig, players: PlayerLookup | None = None) -> None:
    """With ``yardstick.panel_games``: an even count, every member a player,
    an opening set of its own, and no fitness opponent on the default panel
    (a player of the run's database, ``player:ID``, only where ``players``
    reads the database: ``evolve`` checks those when it creates the run).

    Raises:
        ConfigError: naming the key.
    """
    ys = config.yardstick
    if ys.panel_games == 0:
        return
    if ys.panel_games % 2:
        raise ConfigError(f"yardstick.panel_games: {ys.panel_games} must be even (each opening with both colours)")
    members = []
    for name in members_of(config):
        try:
            members.append(identity(resolve_individual(name)))
        except ValueError as exc:
            raise ConfigError(f"yardstick.panel_members: {exc}") from None
    try:
        opening_set(ys.panel_openings)
    except BadOpeningSetError as exc:
        raise ConfigError(f"yardstick.panel_openings: {exc}") from None
    try:
        panel_openings(ys.panel_openings, config.seed, ys.panel_games)
    except PanelError as exc:
        raise ConfigError(f"yardstick.panel_games: {exc}") from None
    for key, used in (("fitness.openings", config.fitness.openings), ("openings.series", config.openings.series)):
        if used == ys.panel_openings:
            raise ConfigError(f"yardstick.panel_openings: {ys.panel_openings} is also {key}'s set; the panel "
                              "plays from openings the run's own games never use (a set of another depth, "
                              "e.g. distinct-7)")
    if ys.panel_members:
        return                  # named by the config: an overlap is meant
    for opponent in config.fitness.opponents if fitness_kind(config.fitness.kind).plays_opponents else ():
        try:
            who = _opponent_identity(split_epsilon(opponent)[1], players)
        except ValueError:
            continue            # 'wpc', 'random': built-in contestants, never on the panel
        if who is None:
            continue            # a database player, checked where the database is open
        if who in members:
            raise ConfigError(f"fitness.opponents: {opponent} is on the strength panel (yardstick.panel_games), "
                              "and a run's measure must be players its fitness never met; choose other "
                              "opponents, or name the panel with yardstick.panel_members to accept the overlap")
