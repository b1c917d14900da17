"""The import graph of genethello's own modules, read from the source.

Nodes are modules (``genethello.core.engine.search``); an edge A -> B says
that A imports B somewhere in its file: at the top, inside a function, under
``TYPE_CHECKING`` or as a Cython ``cimport`` (each of these can hide a
circle). ``from P import N`` is an edge to ``P.N`` when that is a module, else
to ``P``. Used by tests/test_import_circles.py, and as a script it prints the
floors of the graph (a module's floor is one above the highest floor it
imports), every circle and the deepest import chain from the entry point:

    python tests/import_graph.py [REPO]
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable
from pathlib import Path

PACKAGES = {"core": "genethello.core", "cluster": "genethello.cluster"}
SUFFIXES = (".py", ".pyx", ".pxd")
CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import\s+(.+)|c?import\s+([\w.]+))")


def module_files(repo: Path) -> dict[str, list[Path]]:
    """Each module's name and its files (a .pyx and its .pxd are one module)."""
    files: dict[str, list[Path]] = {}
    for folder, package in PACKAGES.items():
        for path in sorted((repo / folder).rglob("*")):
            if path.suffix not in SUFFIXES or "__pycache__" in path.parts:
                continue
            parts = path.relative_to(repo / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if any(not re.fullmatch(r"[a-z_][a-z0-9_]*", p) for p in parts):
                continue                         # migration scripts (0001_initial) are no importable modules
            files.setdefault(".".join((package, *parts)), []).append(path)
    return files


def _imports_of_python(text: str, module: str, is_package: bool) -> Iterable[tuple[str, list[str]]]:
    """(module, names) for each import statement of a Python file."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            yield base, [a.name for a in node.names]


def _imports_of_cython(text: str) -> Iterable[tuple[str, list[str]]]:
    for line in text.splitlines():
        match = CYTHON_IMPORT.match(line)
        if not match:
            continue
        if match.group(1):
            names = [n.strip().split()[0] for n in match.group(2).strip("() \\").split(",") if n.strip()]
            yield match.group(1), names
        else:
            yield match.group(3), []


def import_graph(repo: Path) -> dict[str, set[str]]:
    """Module -> the genethello modules it imports (itself left out)."""
    files = module_files(repo)
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, paths in files.items():
        for path in paths:
            text = path.read_text(encoding="utf-8")
            found = (_imports_of_python(text, name, path.stem == "__init__") if path.suffix == ".py"
                     else _imports_of_cython(text))
            for target, names in found:
                if not target.startswith("genethello."):
                    continue
                hits = [f"{target}.{n}" for n in names if f"{target}.{n}" in files]
                if len(hits) < len(names) or not names:
                    hits.append(target)
                graph[name] |= {h for h in hits if h in files and h != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan),
    each sorted, the list sorted: every import circle, once."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def floors(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each module's floor: 0 for a module importing none of genethello,
    else one above the highest it imports (a circle counts as one floor)."""
    component_of: dict[str, str] = {}
    for group in circles(graph):
        for member in group:
            component_of[member] = group[0]
    memo: dict[str, int] = {}

    def floor(node: str, seen: frozenset[str]) -> int:
        key = component_of.get(node, node)
        if key in memo:
            return memo[key]
        members = [m for m, c in component_of.items() if c == key] or [node]
        below = {t for m in members for t in graph[m]} - set(members)
        value = 1 + max((floor(t, seen | {key}) for t in below if component_of.get(t, t) not in seen), default=-1)
        memo[key] = value
        return value

    return {node: floor(node, frozenset()) for node in graph}


def deepest_chain(graph: dict[str, set[str]], start: str) -> list[str]:
    """The longest import chain from ``start`` (the graph has no circle):
    how many modules deep one import of ``start`` goes."""
    memo: dict[str, list[str]] = {}

    def chain(node: str) -> list[str]:
        if node not in memo:
            below = [chain(t) for t in sorted(graph.get(node, ())) if t in graph]
            memo[node] = [node, *max(below, key=len, default=[])]
        return memo[node]

    return chain(start)


def reachable(graph: dict[str, set[str]], start: str, skip: frozenset[tuple[str, str]] = frozenset()) -> set[str]:
    """Every module ``start`` imports, directly or not, leaving out the
    edges in ``skip``."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen and not any(target == b and a in seen | {start} for a, b in skip):
                seen.add(target)
                todo.append(target)
    return seen


def main(argv: list[str]) -> int:
    repo = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1]
    graph = import_graph(repo)
    levels = floors(graph)
    print(f"{len(graph)} modules, {sum(len(v) for v in graph.values())} imports, "
          f"{max(levels.values()) + 1} floors")
    for level in range(max(levels.values()) + 1):
        members = sorted(m.removeprefix("genethello.") for m, f in levels.items() if f == level)
        print(f"floor {level:2} ({len(members):2}): {' '.join(members)}")
    for group in circles(graph):
        print("circle:", " <-> ".join(m.removeprefix("genethello.") for m in group))
    chain = deepest_chain(graph, "genethello.cluster.cli.main")
    print(f"deepest chain ({len(chain)} modules):", " -> ".join(m.removeprefix("genethello.") for m in chain))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
