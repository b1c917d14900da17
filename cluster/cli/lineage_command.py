"""``genethello lineage``: a chromosome's family tree.

It only formats: the tree comes from :func:`genethello.cluster.reads.lineage`.
"""

from __future__ import annotations

import argparse
import json

from genethello.cluster.cli.run_commands import add_db_options, open_existing
from genethello.cluster.reads import LineageNode, find_player, find_run, lineage
from genethello.core.cli.arguments import non_negative_int

#: Generations of ancestry shown unless ``--depth`` says otherwise.
DEFAULT_DEPTH = 4


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("lineage", help="the family tree of a chromosome: how it and its ancestors were bred")
    p.add_argument("player", metavar="ID|TEXT",
                   help="a chromosome's id or text as 'genethello best' prints it (a text needs --run when "
                        "several runs hold it)")
    add_db_options(p)
    p.add_argument("--depth", type=non_negative_int, default=DEFAULT_DEPTH, metavar="K",
                   help=f"generations of ancestors shown (default {DEFAULT_DEPTH})")
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
        parts.append(f"run {node.run_name}")
    return " · ".join(parts)


def tree_lines(node: LineageNode, prefix: str = "", last: bool = True, root: bool = True) -> list[str]:
    """The tree under ``node``, one line a node, drawn with box characters."""
    lines = [node_line(node) if root else f"{prefix}{'└─ ' if last else '├─ '}{node_line(node)}"]
    below = prefix if root else prefix + ("   " if last else "│  ")
    for i, parent in enumerate(node.parents):
        lines += tree_lines(parent, below, i == len(node.parents) - 1, False)
    if node.unexpanded:
        lines.append(f"{below}└─ … (older ancestors: a larger --depth shows them)")
    return lines


def node_json(node: LineageNode) -> dict[str, object]:
    """The tree under ``node`` as JSON."""
    return {
        "id": node.player_id, "chromosome": node.text, "run": node.run_name, "birth": node.birth,
        "generation": node.generation, "origin": node.origin, "parent_ids": list(node.parent_ids),
        "source_generation": node.source_generation, "source_run": node.source_run,
        "how": node.describe(), "hall_rating": node.hall_rating, "hall_stderr": node.hall_stderr,
        "points": node.points, "games": node.games, "rating": node.rating,
        "parents": [node_json(p) for p in node.parents],
    }


def run_lineage(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    try:
        run_id = find_run(db, args.run).id if args.run is not None else None
        tree = lineage(db, find_player(db, args.player, run_id), args.depth)
    finally:
        db.dispose()
    if args.json:
        print(json.dumps(node_json(tree), indent=2))
        return 0
    print(f"lineage of #{tree.player_id} (run {tree.run_name}), {args.depth} generations of ancestors; each: "
          "id, text, birth, how it got there, hall rating, round-robin points in its first generation")
    print("\n".join(tree_lines(tree)))
    return 0
