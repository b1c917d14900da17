"""``genethello lineage``: a chromosome's family tree, or (``--operators``)
which operators pay in a run.

It only formats: the tree comes from :func:`genethello.cluster.reads.lineage`,
the table from :func:`genethello.cluster.reads.operator_stats`.
"""

from __future__ import annotations

import argparse
import json
import sys

from genethello.cluster.cli.run_commands import add_db_options, open_existing
from genethello.cluster.reads import (
    LineageNode,
    OperatorStats,
    best,
    find_player,
    find_run,
    lineage,
    operator_stats,
)
from genethello.core.cli.arguments import number_type
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.wording import printable

#: Generations of ancestry shown unless ``--generations`` says otherwise.
DEFAULT_DEPTH = 4
#: The deepest tree drawn: its lines and its JSON nest one level a
#: generation, and Python's recursion (the JSON encoder's too) ends near
#: 1,000 levels; 300 generations of ancestry is more than any page shows.
MAX_DEPTH = 300


class OldDepth(argparse.Action):
    """``--depth K``, the old name of ``--generations K``: taken, with one
    line on stderr saying it counts generations of ancestors, not plies."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        print(f"genethello lineage: --depth {values} is read as --generations {values} (generations of "
              "ancestors, not search plies)", file=sys.stderr)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("lineage", help="the family tree of a chromosome: how it and its ancestors were bred")
    p.add_argument("player", metavar="ID|TEXT", nargs="?",
                   help="a chromosome's id or text as 'genethello best' prints it (a text needs --run when "
                        "several runs hold it); default: the run's best so far")
    add_db_options(p)
    p.add_argument("--generations", dest="depth", type=number_type(int, 0, high=MAX_DEPTH), default=DEFAULT_DEPTH,
                   metavar="K", help=f"generations of ancestors shown (default: {DEFAULT_DEPTH}, at most {MAX_DEPTH})")
    # its name before: --depth is a search's plies on every other command, so
    # it still works but says what it means (OldDepth)
    p.add_argument("--depth", dest="depth", type=number_type(int, 0, high=MAX_DEPTH), action=OldDepth,
                   help=argparse.SUPPRESS)
    p.add_argument("--operators", action="store_true",
                   help="instead of a tree: the run's members per generation by origin, and how many of each "
                        "reached the top quarter of their round robin")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=run_lineage)


def node_line(node: LineageNode) -> str:
    """One node of the tree: id, text, birth, how it got there, its hall
    rating and its round-robin result in its first generation."""
    names = {p.player_id: f"#{p.player_id}" for p in node.parents}
    parts = [f"#{node.player_id} {node.text}", f"born {node.birth}", node.describe(names)]
    if node.hall_rating is not None:
        parts.append(f"hall {node.hall_rating:+.0f} ± {node.hall_stderr or 0:.0f}")
    if node.games and node.points is not None:
        parts.append(f"round robin {node.points:g}/{node.games} in generation {node.generation}")
    elif node.rating is not None:
        parts.append(f"rating {node.rating:.0f} in generation {node.generation}")
    if node.origin == "reentered" and node.source_run and node.source_run != node.run_name:
        parts.append(f"run {printable(node.run_name)}")
    return " · ".join(parts)


def tree_lines(node: LineageNode, prefix: str = "", last: bool = True, root: bool = True,
               shown: set[int] | None = None) -> list[str]:
    """The tree under ``node``, one line a node, drawn with box characters;
    an ancestor already drawn with its own ancestors (lines share parents
    within a few generations) is named again, not drawn again."""
    shown = set() if shown is None else shown
    branch = "" if root else f"{prefix}{'└─ ' if last else '├─ '}"
    if node.cycle:
        return [f"{branch}#{node.player_id} {node.text} (its own ancestor: a cycle, which no run breeds; the "
                "database's lineage was altered)"]
    if node.repeated or (node.player_id in shown and (node.parents or node.unexpanded)):
        return [f"{branch}#{node.player_id} {node.text} (drawn above, with its ancestors)"]
    lines = [branch + node_line(node)]
    if node.parents or node.unexpanded:
        shown.add(node.player_id)
    below = prefix if root else prefix + ("   " if last else "│  ")
    for i, parent in enumerate(node.parents):
        lines += tree_lines(parent, below, i == len(node.parents) - 1, False, shown)
    if node.unexpanded:
        lines.append(f"{below}└─ … (older ancestors: a larger --generations shows them)")
    return lines


def node_json(node: LineageNode) -> dict[str, object]:
    """The tree under ``node`` as JSON."""
    return {
        "id": node.player_id, "chromosome": node.text, "run": node.run_name, "birth": node.birth,
        "generation": node.generation, "origin": node.origin, "parent_ids": list(node.parent_ids),
        "source_generation": node.source_generation, "source_run": node.source_run,
        "how": node.describe(), "hall_rating": node.hall_rating, "hall_stderr": node.hall_stderr,
        "points": node.points, "games": node.games, "rating": node.rating,
        "repeated": node.repeated, "cycle": node.cycle,
        "parents": [node_json(p) for p in node.parents],
    }


def operator_lines(stats: OperatorStats) -> list[str]:
    """The operators' table: a row a generation, a column an origin, each
    cell members / members that reached the top; the run's totals last."""
    kinds = [c.origin for c in stats.totals]
    width = max([len(k) for k in kinds] + [13])

    def cell(counts: dict[str, tuple[int, int]], kind: str) -> str:
        return f"{counts[kind][0]}/{counts[kind][1]}" if kind in counts else "-"

    lines = [f"{'gen':>4} {'top':>4}  " + " ".join(f"{k:>{width}}" for k in kinds)]
    for g in stats.generations:
        counts = {c.origin: (c.produced, c.top) for c in g.counts}
        lines.append(f"{g.generation:>4} {g.top_size:>4}  " + " ".join(f"{cell(counts, k):>{width}}" for k in kinds))
    lines.append(f"{'all':>4} {'':>4}  " + " ".join(
        f"{f'{c.produced}/{c.top} ({c.top / c.produced:.0%})':>{width}}" for c in stats.totals))
    return lines


def run_operators(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    try:
        run = find_run(db, args.run)
        stats = operator_stats(db, run.id)
    finally:
        db.dispose()
    if args.json:
        print(json.dumps({"run": run.name, "top_fraction": stats.top_fraction,
                          "generations": [{"generation": g.generation, "size": g.size, "top_size": g.top_size,
                                           "counts": {c.origin: [c.produced, c.top] for c in g.counts}}
                                          for g in stats.generations],
                          "totals": {c.origin: [c.produced, c.top] for c in stats.totals}}, indent=2))
        return 0
    print(f"run {printable(run.name)}: members per generation by origin / how many reached the top "
          f"{stats.top_fraction:.0%} of their generation's round robin (by points; 'top': how many that is; "
          "a generation in play has none)")
    print("\n".join(operator_lines(stats)))
    return 0


def run_lineage(args: argparse.Namespace) -> int:
    if args.operators:
        if args.player is not None:
            raise UserError("give a chromosome (its tree) or --operators (the run's table), not both")
        return run_operators(args)
    db = open_existing(args.db)
    try:
        if args.player is None:
            run = find_run(db, args.run)
            top = best(db, run.id)
            if top is None:
                raise UserError(f"run {printable(run.name)} has no player yet: no lineage to show")
            player_id = top.player_id
        else:
            run_id = find_run(db, args.run).id if args.run is not None else None
            player_id = find_player(db, args.player, run_id)
        tree = lineage(db, player_id, args.depth)
    finally:
        db.dispose()
    if args.json:
        print(json.dumps(node_json(tree), indent=2))
        return 0
    print(f"lineage of #{tree.player_id} (run {tree.run_name}), {args.depth} generations of ancestors; each: "
          "id, text, birth, how it got there, hall rating, round-robin points in its first generation")
    print("\n".join(tree_lines(tree)))
    return 0
