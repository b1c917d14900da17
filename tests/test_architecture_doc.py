"""docs/architecture.md names every module of core/ and cluster/ in the room
where it is: its "Which module does what" tables are compared with the tree,
so a module added, moved or removed without its row fails here, and every
folder says in its ``__init__`` what lives there."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from genethello.cluster.breeding.breeders import BREEDERS
from genethello.cluster.breeding.origins import ELITE, RANDOM, Origin
from genethello.cluster.breeding.protocols import Bred, BreedingPlan, RatedGeneration, bred_here
from genethello.cluster.config import BreedingConfig, FitnessConfig, RunConfig
from genethello.cluster.db import Database
from genethello.cluster.fitness.fitness_kinds import FITNESS_KINDS, FitnessKind, Pairings, double_games
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config
from genethello.core.families.registry import Individual, Kind, parse_individual

from .cluster.conftest import query, write_config

REPO = Path(__file__).resolve().parents[1]
ARCHITECTURE = REPO / "docs" / "architecture.md"
PACKAGES = ("core", "cluster")
SOURCE_SUFFIXES = (".py", ".pyx", ".pxd")
#: Folders that hold no modules of the program: data files, the web page's
#: static files, and Alembic's migration scripts (named in the db/ row).
NOT_ROOMS = ("core/data", "cluster/web/static", "cluster/db/migrations")


def modules_in_tree() -> set[str]:
    """Every module of core/ and cluster/ as 'folder/stem' ('core/engine/search'),
    __init__ files and the folders above aside."""
    found = set()
    for package in PACKAGES:
        for path in (REPO / package).rglob("*"):
            relative = path.relative_to(REPO).as_posix()
            if (path.suffix not in SOURCE_SUFFIXES or path.stem == "__init__"
                    or relative.startswith(NOT_ROOMS) or "__pycache__" in relative):
                continue
            found.add(relative.rsplit(".", 1)[0])
    return found


def documented_modules() -> tuple[set[str], list[str]]:
    """The modules the doc's tables name, resolved against their section's
    folders, and a line for each name that resolves to no file."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    body = text[text.index("## Which module does what"):text.index("## Decisions apart from bookkeeping")]
    tree = modules_in_tree()
    named: set[str] = set()
    unresolved: list[str] = []
    folders: list[str] = []
    for line in body.splitlines():
        heading = re.match(r"^####\s+(.*)", line)
        if heading:
            folders = [f.rstrip("/") for f in re.findall(r"`([a-z_/]+/)`", heading.group(1))]
            continue
        if not folders or not line.startswith("| `"):
            continue
        first_cell = line.split("|")[1]
        for token in re.findall(r"`([^`]+)`", first_cell):
            stem = re.sub(r"\.(pyx|pxd|py)$", "", token)
            candidates = [f"{f}/{stem}" for f in folders] + [f"{f.rsplit('/', 1)[0]}/{stem}" for f in folders]
            hit = next((c for c in candidates if c in tree), None)
            if hit is None:
                unresolved.append(f"'{token}' under {', '.join(folders)} is no module")
            else:
                named.add(hit)
    return named, unresolved


def test_every_module_is_named_in_its_room_and_every_name_is_a_module():
    named, unresolved = documented_modules()
    missing = sorted(modules_in_tree() - named)
    assert missing == [], f"docs/architecture.md does not name: {missing}"
    assert unresolved == []


def test_the_check_sees_the_tables():
    # The comparison holds because the tables are read, not because none is:
    # a known module of each package resolves.
    named, _ = documented_modules()
    assert {"core/engine/search", "cluster/run/coordinator", "cluster/config", "core/gtp/gtp_server"} <= named


def test_every_folder_says_what_lives_there():
    silent = []
    for package in PACKAGES:
        for init in sorted((REPO / package).rglob("__init__.py")):
            relative = init.parent.relative_to(REPO).as_posix()
            if relative.startswith(NOT_ROOMS):
                continue
            docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
            if not docstring or len(docstring.split()) < 12:
                silent.append(relative)
    assert silent == [], f"these folders' __init__.py say nothing of what lives there: {silent}"


# --------------------------------------------------------------------------- #
# "Where to add things", held for a breeding method and a fitness kind: a toy
# of each is added touching only what the doc lists (one class and one table
# entry), and a real run uses it.

def _where_to_add(item: str) -> str:
    """The bullet of "Where to add things" that begins with ``item``."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text[text.index("## Where to add things"):text.index("## Build switches")]
    bullets = re.split(r"\n- ", section)
    found = [b for b in bullets if b.startswith(f"**{item}**")]
    assert len(found) == 1, item
    return " ".join(found[0].split())


@dataclass(frozen=True)
class _Redraws:
    """The toy breeder's work for the workers: a fresh random member of
    ``kind`` for each (slot, seed) item, as its text."""

    kind: str
    birth: int

    def run(self, items: Sequence[tuple[int, int]]) -> list[tuple[int, str]]:
        from genethello.core.families.registry import family_of_kind, parse_kind

        kind = parse_kind(self.kind)
        family = family_of_kind(self.kind)
        return [(slot, family.text(family.random_individual(kind, self.birth, np.random.default_rng(seed))))
                for slot, seed in items]


@dataclass(frozen=True)
class _RestartBreeder:
    """A toy breeding method: the best member kept, every other slot a fresh
    random member drawn by the workers (a random restart)."""

    config: BreedingConfig
    name: ClassVar[str] = "toy-restart"
    checked: ClassVar[list[str]] = []

    def breeds(self, kind: Kind) -> bool:
        return True

    def check(self, config: RunConfig) -> None:
        self.checked.append(config.name)

    def first_population(self, kind: Kind, size: int, initial: Sequence[Individual],
                         rng: np.random.Generator) -> Bred:
        seeds = rng.integers(0, 2 ** 63, size=size)
        texts = dict(_Redraws(kind.name, 1).run([(k, int(seeds[k])) for k in range(size)]))
        return Bred([parse_individual(texts[k]) for k in range(size)], origins=[Origin(RANDOM)] * size)

    def next_plan(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> BreedingPlan:
        seeds = rng.integers(0, 2 ** 63, size=size)
        items = [(k, int(seeds[k])) for k in range(1, size)]

        def finish(outcomes: Sequence[tuple[int, str]]) -> Bred:
            texts = dict(outcomes)
            members = [rated.ranked[0], *(parse_individual(texts[k]) for k in range(1, size))]
            return Bred(members, origins=[Origin(ELITE, (0,)), *[Origin(RANDOM)] * (size - 1)])
        return BreedingPlan(finish, _Redraws(rated.kind.name, rated.number + 1), items, "toy: restarting")

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        return bred_here(self.next_plan(rated, size, rng))

    def champion(self, rated: RatedGeneration) -> Individual:
        return rated.ranked[0]


class _CountingExecutor(SerialExecutor):
    """The serial executor, counting the items of each kind of task it ran."""

    def __init__(self) -> None:
        super().__init__(0.001)
        self.items: dict[str, int] = {}

    def run(self, task, next_batch, should_stop):   # type: ignore[no-untyped-def]
        def counted(size: int) -> list:
            batch = next_batch(size)
            self.items[type(task).__name__] = self.items.get(type(task).__name__, 0) + len(batch)
            return batch
        return super().run(task, counted, should_stop)


def _drive(folder: Path, **overrides: object) -> tuple[str, _CountingExecutor, Path]:
    path = folder / "run.db"
    db = Database.open(path, create=True)
    executor = _CountingExecutor()
    try:
        run_id = create_run(db, load_config(write_config(folder, **overrides)))
        return Coordinator(db, run_id, executor, Progress(enabled=False)).run(), executor, path
    finally:
        db.dispose()


def test_a_toy_breeding_method_is_one_class_and_one_entry_in_breeders(tmp_path, monkeypatch):
    doc = _where_to_add("A breeding method")
    assert "`BREEDERS` (`cluster/breeding/breeders.py`)" in doc and "`Breeder`" in doc and "`next_plan`" in doc
    monkeypatch.setitem(BREEDERS, _RestartBreeder.name, _RestartBreeder)
    status, executor, path = _drive(tmp_path, breeding__method="toy-restart", stop__max_generations=3)
    assert status == "finished"
    assert _RestartBreeder.checked                              # the run check asked it
    assert executor.items["_Redraws"] == 2 * 5                  # its work ran on the run's executor
    origins = query(path, "SELECT generation, origin FROM population WHERE generation > 1 ORDER BY generation, slot")
    assert origins == [(g, "elite" if k == 0 else "random") for g in (2, 3) for k in range(6)]


RING_PAIRS = 2


def _ring(config: FitnessConfig, members: int, others: int) -> Pairings:
    """Member k against member k + 1 (the last against the first)."""
    first = np.arange(members)
    return (*double_games(first, (first + 1) % members, config.games_per_pair), config.games_per_pair)


def test_a_toy_fitness_kind_is_one_entry_in_fitness_kinds(tmp_path, monkeypatch):
    doc = _where_to_add("A fitness kind")
    assert "`FITNESS_KINDS` (`cluster/fitness/fitness_kinds.py`)" in doc
    ring = FitnessKind("ring", _ring, lambda config, members, others: 2 * 2 * config.games_per_pair,
                       "games_per_pair")
    monkeypatch.setitem(FITNESS_KINDS, ring.name, ring)
    status, executor, path = _drive(
        tmp_path, population__type="all-2", population__size=6, breeding__method="ga", fitness__kind="ring",
        fitness__games_per_pair=RING_PAIRS, fitness__batch_games=8, hall__games_per_member=0,
        yardstick__league_double_games=0, stop__max_generations=2)
    assert status == "finished"
    # Each generation: 6 pairings of 2 double games; every member in two pairings.
    assert query(path, "SELECT number, games_total FROM generations ORDER BY number") == [(1, 24), (2, 24)]
    stats = query(path, "SELECT stats_json FROM generations WHERE number = 1")[0][0]
    assert '"fitness": "ring"' in stats and '"games_per_member": 8' in stats
