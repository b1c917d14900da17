"""Where players came from: a player's family tree, and which operators pay.

Every population slot stored from migration 0006 on says why its member is
there (``population.origin`` and its parents, see
:mod:`genethello.cluster.breeding.origins`); slots stored before say nothing, and
read as :data:`UNKNOWN`. A player's own origin is that of the first
generation it was a member of in its run (later slots of an elite say only
that it survived); a player that was never a member (CMA-ES's distribution
mean, measured as its generation's champion) reads as :data:`CMA_MEAN`.

Each function answers in one short read-only transaction and returns frozen
values.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from sqlalchemy import select, tuple_
from sqlalchemy.orm import Session

from genethello.cluster.breeding.lineage_words import slot_words
from genethello.cluster.breeding.origins import ORIGIN_KINDS
from genethello.cluster.db import Database, row_id
from genethello.cluster.db.models import Generation, HallRating, PlayerRow, PopulationSlot, RatingRecord, Run
from genethello.core.frontend.errors import UserError

__all__ = ["UNKNOWN", "CMA_MEAN", "TOP_FRACTION", "LineageNode", "OperatorCount", "GenerationOperators",
           "OperatorStats", "lineage", "origins_of", "find_player", "operator_stats"]

#: The origin of a slot stored before lineage was recorded (migration 0006).
UNKNOWN = "unknown"
#: The origin of a champion that was never a member: CMA-ES's distribution
#: mean after a generation's ranking.
CMA_MEAN = "cma-mean"
#: Share of a generation's round robin counted as its top (the best
#: ``ceil(TOP_FRACTION * P)`` members by points).
TOP_FRACTION = 0.25


@dataclass(frozen=True)
class LineageNode:
    """A player in a family tree.

    Attributes:
        player_id, run_id, run_name, text, birth: the player's row.
        generation: the first generation it was a member of in its run
            (None: never a member).
        origin: how it got there: one of
            :data:`~genethello.cluster.breeding.origins.ORIGIN_KINDS`, :data:`UNKNOWN`
            or :data:`CMA_MEAN`.
        source_generation: the generation whose ranking, hall or CMA-ES
            distribution it came from (None where there is none).
        source_run: the name of the run a re-entered member came from.
        parent_ids: its parents' player ids (an empty tuple for random,
            initial and CMA-ES members).
        parents: the parents' nodes, as deep as was asked (else ()).
        hall_rating, hall_stderr: its latest hall rating (members of its
            run's hall only).
        points, games: its round-robin points (wins + draws / 2) and games
            in its first generation (a network run stores no W/D/L: 0, 0).
        rating: its rating after its first generation (Elo; a network's
            performance rating).
        repeated: it stands in the tree already, with its ancestors (lines
            share ancestors within a few generations): here it is named
            only, which keeps a tree's size linear in the ancestors shown.
        cycle: it is its own ancestor (a cycle, which no run breeds: only
            an altered database holds one): named here, not expanded.
        learning: what its breeding method says of its slot
            (:func:`~genethello.cluster.breeding.lineage_words.slot_words`:
            in a learning run, pbt-td, the hyperparameters it learned with
            and, copied, what was perturbed); None elsewhere.
    """

    player_id: int
    run_id: int
    run_name: str
    text: str
    birth: int
    generation: int | None
    origin: str
    source_generation: int | None
    source_run: str | None
    parent_ids: tuple[int, ...]
    parents: tuple[LineageNode, ...] = ()
    hall_rating: float | None = None
    hall_stderr: float | None = None
    points: float | None = None
    games: int = 0
    rating: float | None = None
    repeated: bool = False
    cycle: bool = False
    learning: str | None = None

    @property
    def unexpanded(self) -> bool:
        """It has parents that the tree stops before (its depth ran out)."""
        return bool(self.parent_ids) and not self.parents and not self.repeated and not self.cycle

    def describe(self, names: dict[int, str] | None = None) -> str:
        """How it got there, in words: the origin with its parents (named by
        ``names`` where given, else by id)."""
        def name(pid: int | None) -> str:
            return "?" if pid is None else (names or {}).get(pid, f"#{pid}")

        a = self.parent_ids[0] if self.parent_ids else None
        b = self.parent_ids[1] if len(self.parent_ids) > 1 else None
        kind = self.origin
        if kind == UNKNOWN:
            return "origin unknown (stored before lineage was recorded)"
        if kind == CMA_MEAN:
            return f"CMA-ES distribution mean after generation {self.birth} (not a member)"
        if kind == "initial":
            return f"the run's start network ({self.learning})" if self.learning else "from the initial file"
        if kind == "learned":
            return f"{name(a)} after learning from its own games ({self.learning or 'hyperparameters not stored'})"
        if kind == "copied":
            return (f"the weights of {name(a)}, copied into a bottom slot, then learned "
                    f"({self.learning or 'hyperparameters not stored'})")
        if kind == "random":
            return "drawn at random"
        if kind == "cma-sample":
            start = self.source_generation == 0
            return ("a sample of CMA-ES's starting distribution" if start
                    else f"a sample of generation {self.source_generation}'s CMA-ES distribution")
        if kind == "elite":
            return f"elite of generation {self.source_generation}"
        if kind == "reentered":
            where = f"run {self.source_run}" if self.source_run and self.source_run != self.run_name else "this run"
            return f"re-entered from {where} ({name(a) if a is not None else '?'})"
        if kind == "crossover":
            return f"crossover of {name(a)} and {name(b)}, then mutation" if a is not None else "crossover"
        if kind == "mutant":
            return f"mutant of {name(a)}" if a is not None else "mutant"
        if kind == "duplicate-mutated":
            first = (f"crossover of {name(a)} and {name(b)}" if b is not None
                     else f"mutant of {name(a)}" if a is not None else "newborn")
            return f"{first}, a duplicate mutated again"
        return kind


@dataclass(frozen=True)
class OperatorCount:
    """How many members of one origin a generation (or a run) had, and how
    many of them reached the top of their round robin."""

    origin: str
    produced: int
    top: int


@dataclass(frozen=True)
class GenerationOperators:
    """One generation's members by origin."""

    generation: int
    size: int
    top_size: int          # how many count as its top (0 while it is unrated)
    counts: tuple[OperatorCount, ...]


@dataclass(frozen=True)
class OperatorStats:
    """Which operators pay: per generation and over the run, how many
    members each origin gave and how many reached the top ``top_fraction``
    of their generation's round robin (by points, then rating, then the
    older birth, then the text)."""

    top_fraction: float
    generations: tuple[GenerationOperators, ...]
    totals: tuple[OperatorCount, ...]


# ------------------------------------------------------------ in a session
_Slot = tuple[int, str | None, int | None, int | None, int | None, int | None, int]


def _first_slots(s: Session, ids: Iterable[int]) -> dict[int, _Slot]:
    """player id -> (generation, origin, parent_a, parent_b, source_generation,
    source_run, slot) of the first slot each player held in its run."""
    found: dict[int, _Slot] = {}
    ids = list(ids)
    if not ids:
        return found
    for row in s.execute(select(PopulationSlot.player_id, PopulationSlot.generation, PopulationSlot.origin,
                                PopulationSlot.parent_a, PopulationSlot.parent_b,
                                PopulationSlot.source_generation, PopulationSlot.source_run, PopulationSlot.slot)
                         .join(PlayerRow, PlayerRow.id == PopulationSlot.player_id)
                         .where(PopulationSlot.player_id.in_(ids), PopulationSlot.run_id == PlayerRow.run_id)
                         .order_by(PopulationSlot.generation)).all():
        found.setdefault(row[0], (row[1], row[2], row[3], row[4], row[5], row[6], row[7]))
    return found


def _nodes(s: Session, ids: list[int]) -> dict[int, LineageNode]:
    """The nodes (without parents) of the players ``ids`` that exist."""
    players = {row[0]: row for row in s.execute(
        select(PlayerRow.id, PlayerRow.run_id, Run.name, PlayerRow.text, PlayerRow.birth)
        .join(Run, Run.id == PlayerRow.run_id).where(PlayerRow.id.in_(ids))).all()}
    slots = _first_slots(s, players)
    run_names = dict(s.execute(select(Run.id, Run.name)).all())
    halls: dict[int, tuple[float, float]] = {}
    for pid, rating, stderr in s.execute(
            select(HallRating.player_id, HallRating.rating, HallRating.stderr)
            .where(HallRating.player_id.in_(list(players))).order_by(HallRating.generation)).all():
        halls[pid] = (rating, stderr)       # the latest generation's wins
    records: dict[tuple[int, int], tuple[int, int, int, float]] = {}
    wanted = {(pid, slot[0]) for pid, slot in slots.items()}
    if wanted:
        for pid, g, wins, draws, losses, elo in s.execute(
                select(RatingRecord.player_id, RatingRecord.generation, RatingRecord.wins, RatingRecord.draws,
                       RatingRecord.losses, RatingRecord.elo)
                .where(RatingRecord.player_id.in_([p for p, _ in wanted]))).all():
            if (pid, g) in wanted:
                records[(pid, g)] = (wins, draws, losses, elo)
    # A learning run (pbt-td) keeps every slot's hyperparameters, and a
    # copied slot's perturbation, in the breeder state of each generation.
    states = {(run_id, g): state for run_id, g, state in s.execute(
        select(Generation.run_id, Generation.number, Generation.breeder_state)
        .where(tuple_(Generation.run_id, Generation.number).in_(
            sorted({(players[pid][1], slot[0]) for pid, slot in slots.items()})))).all()} if slots else {}
    nodes = {}
    for pid, (_, run_id, run_name, text, birth) in players.items():
        slot = slots.get(pid)
        generation: int | None
        source_generation: int | None
        parents: tuple[int, ...]
        learning = None
        if slot is None:
            generation, origin, parents, source_generation, source_run = None, CMA_MEAN, (), birth, None
        else:
            generation, kind, a, b, source_generation, source, index = slot
            learning = slot_words(states.get((run_id, generation)), index)
            origin = kind if kind in ORIGIN_KINDS else UNKNOWN
            parents = tuple(p for p in (a, b) if p is not None)
            source_run = run_names.get(source) if source is not None else None
        hall = halls.get(pid)
        record = records.get((pid, generation)) if generation is not None else None
        wins, draws, losses, elo = record if record else (0, 0, 0, 0.0)
        nodes[pid] = LineageNode(pid, run_id, run_name, text, birth, generation, origin, source_generation,
                                 source_run, parents, (), hall[0] if hall else None, hall[1] if hall else None,
                                 wins + draws / 2 if record else None, wins + draws + losses,
                                 elo if record else None, learning=learning)
    return nodes


def _tree(root: int, nodes: dict[int, LineageNode], depth: int) -> LineageNode:
    """The tree of ``root`` ``depth`` generations deep, from the loaded
    ``nodes``. Each ancestor is expanded once, where a depth-first walk
    (parents in order) first meets it with depth to spare; a later meeting
    names it (``repeated``), and an ancestor on its own line of descent is
    named as a ``cycle``: the work and the tree are linear in the ancestors
    shown, where expanding every path to a shared ancestor is exponential
    in the depth. Iterative: a line of descent may be longer than Python's
    recursion allows."""
    expanded: set[int] = set()
    on_path: set[int] = set()

    def start(pid: int, remaining: int) -> tuple[int, list[int], list[LineageNode]]:
        node = nodes[pid]
        # an elite's or a re-entered member's parent may be itself: not a cycle
        parents = [p for p in dict.fromkeys(node.parent_ids) if p in nodes and p != pid] if remaining > 0 else []
        if remaining > 0:
            expanded.add(pid)
        on_path.add(pid)
        return pid, parents, []

    depths = {root: depth}
    stack = [start(root, depth)]
    while True:
        pid, todo, built = stack[-1]
        if len(built) < len(todo):
            p = todo[len(built)]
            if p in on_path:
                built.append(replace(nodes[p], cycle=True))
            elif p in expanded and nodes[p].parent_ids:
                built.append(replace(nodes[p], repeated=True))
            else:
                depths[p] = depths[pid] - 1
                stack.append(start(p, depths[p]))
            continue
        stack.pop()
        on_path.discard(pid)
        done = replace(nodes[pid], parents=tuple(built))
        if not stack:
            return done
        stack[-1][2].append(done)


# ------------------------------------------------------------------ public
def lineage(db: Database, player_id: int, depth: int = 4) -> LineageNode:
    """The family tree of player ``player_id`` (of any run), its parents
    ``depth`` generations of ancestry deep (0: the player alone).

    Raises:
        ValueError: no player has that id, or ``depth`` is negative.
    """
    if depth < 0:
        raise UserError(f"depth {depth} must be >= 0")
    with db.session() as s:
        nodes = _nodes(s, [player_id])
        if player_id not in nodes:
            raise UserError(f"no chromosome with id {player_id} in {db.path}")
        # Breadth first, each player read once: a generation's frontier holds
        # only the players first met there (their parents are all that is new).
        frontier = [player_id]
        for _ in range(depth):
            wanted = list(dict.fromkeys(p for pid in frontier for p in nodes[pid].parent_ids if p not in nodes))
            if not wanted:
                break
            found = _nodes(s, wanted)
            nodes.update(found)
            frontier = list(found)
    return _tree(player_id, nodes, depth)


def origins_of(db: Database, player_ids: Iterable[int]) -> dict[int, LineageNode]:
    """Each player's node without its ancestors (how it got there, with its
    parents' ids), by id; ids of no player are left out."""
    with db.session() as s:
        return _nodes(s, list(dict.fromkeys(player_ids)))


def find_player(db: Database, key: str, run_id: int | None = None) -> int:
    """The player id that ``key`` names: an id (digits), or a chromosome
    text, which is unique only within a run: of run ``run_id`` when given,
    else of the one run that holds it.

    Raises:
        ValueError: in one line, naming what was not found, or the runs
            that hold the text when several do (pass the run).
    """
    with db.session() as s:
        if key.isascii() and key.isdigit():
            number = row_id(key)      # None beyond SQLite's integers: no such row
            row = None if number is None else s.execute(
                select(PlayerRow.id, PlayerRow.run_id).where(PlayerRow.id == number)).first()
            if row is None:
                raise UserError(f"no chromosome with id {key} in {db.path}")
            if run_id is not None and row[1] != run_id:
                raise UserError(f"chromosome {key} belongs to another run than the one given (--run)")
            return int(row[0])
        query = select(PlayerRow.id, Run.name).join(Run, Run.id == PlayerRow.run_id).where(PlayerRow.text == key)
        if run_id is not None:
            query = query.where(PlayerRow.run_id == run_id)
        rows = s.execute(query.order_by(PlayerRow.run_id)).all()
    if not rows:
        where = "that run" if run_id is not None else str(db.path)
        raise UserError(f"no chromosome {key!r} in {where} (give an id or a text as 'genethello best' prints it)")
    if len(rows) > 1:
        raise UserError(f"chromosome {key!r} is in {len(rows)} runs ({', '.join(r[1] for r in rows)}): a text "
                         "is unique only within a run, so pass --run or give its id")
    return int(rows[0][0])


def operator_stats(db: Database, run_id: int, top_fraction: float = TOP_FRACTION) -> OperatorStats:
    """Run ``run_id``'s members by origin, per generation and in all, with
    how many reached the top ``top_fraction`` of their generation's round
    robin (a generation still playing counts its members, none at the top).

    Raises:
        ValueError: ``top_fraction`` outside (0, 1].
    """
    if not 0 < top_fraction <= 1:
        raise UserError(f"top fraction {top_fraction!r} must lie in (0, 1]")
    points = (RatingRecord.wins + 0.5 * RatingRecord.draws)
    with db.session() as s:
        slots = s.execute(select(PopulationSlot.generation, PopulationSlot.player_id, PopulationSlot.origin)
                          .where(PopulationSlot.run_id == run_id)
                          .order_by(PopulationSlot.generation, PopulationSlot.slot)).all()
        ranked = s.execute(select(RatingRecord.generation, RatingRecord.player_id)
                           .join(PlayerRow, PlayerRow.id == RatingRecord.player_id)
                           .where(RatingRecord.run_id == run_id)
                           .order_by(RatingRecord.generation, points.desc(), RatingRecord.elo.desc(),
                                     PlayerRow.birth, PlayerRow.text)).all()
    order: dict[int, list[int]] = {}
    for g, pid in ranked:
        order.setdefault(g, []).append(pid)
    members: dict[int, list[tuple[int, str]]] = {}
    for g, pid, origin in slots:
        members.setdefault(g, []).append((pid, origin if origin in ORIGIN_KINDS else UNKNOWN))
    kinds = (*ORIGIN_KINDS, UNKNOWN)
    totals = {k: [0, 0] for k in kinds}
    generations = []
    for g, found in members.items():
        rated = order.get(g, [])
        top_size = math.ceil(top_fraction * len(found)) if rated else 0
        top = set(rated[:top_size])
        counts = {k: [0, 0] for k in kinds}
        for pid, origin in found:
            counts[origin][0] += 1
            counts[origin][1] += pid in top
        for k, (made, won) in counts.items():
            totals[k][0] += made
            totals[k][1] += won
        generations.append(GenerationOperators(g, len(found), top_size, tuple(
            OperatorCount(k, made, won) for k, (made, won) in counts.items() if made)))
    return OperatorStats(top_fraction, tuple(generations),
                         tuple(OperatorCount(k, made, won) for k, (made, won) in totals.items() if made))

