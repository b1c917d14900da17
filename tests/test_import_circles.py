"""No import circles, and no family branches outside the family modules.

The import graph is read from the source (tests/import_graph.py): every
import counts, at the top, inside a function, under ``TYPE_CHECKING`` or as a
Cython ``cimport``, so a circle cannot hide behind a lazy import. And outside
the modules that belong to one family, nothing in ``cluster/`` asks which
family it holds: a family's differences are behind its family (its steps,
its breeding, its traits), and a new family adds entries, not branches.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from .import_graph import circles, floors, import_graph

REPO = Path(__file__).resolve().parents[1]


def test_no_module_of_core_or_cluster_is_in_an_import_circle():
    assert circles(import_graph(REPO)) == []


def test_the_graph_sees_lazy_typed_and_cython_imports(tmp_path):
    # The check holds because there is no circle, not because the reader
    # misses imports: a circle made of a lazy import, a TYPE_CHECKING import
    # and a cimport is found.
    core = tmp_path / "core"
    (tmp_path / "cluster").mkdir()
    core.mkdir()
    (core / "a.py").write_text("def f():\n    from genethello.core.b import g\n")
    (core / "b.py").write_text("from typing import TYPE_CHECKING\n"
                               "if TYPE_CHECKING:\n    from genethello.core import c\n")
    (core / "c.pxd").write_text("from genethello.core.a cimport h\n")
    assert circles(import_graph(tmp_path)) == [["genethello.core.a", "genethello.core.b", "genethello.core.c"]]


def test_config_is_on_the_ground_floor():
    graph = import_graph(REPO)
    config = "genethello.cluster.config"
    assert not {m for m in graph[config] if m.startswith("genethello.cluster")}
    assert floors(graph)[config] <= min(floors(graph)[m] for m in graph
                                        if m.startswith("genethello.cluster.") and graph[m] >= {config})


#: Modules that belong to one family (named for it) or hold the one table
#: from a family's name to its parts: they may ask which family they hold.
FAMILY_MODULE = re.compile(r"(^|/)(network_\w+|genethello_\w+|family_\w+)\.py$")
FAMILY_TEST = re.compile(r"\bfamily\s*(==|!=)|(==|!=)\s*\w*FAMILY\w*\b")
#: A socket's address family (AF_INET) is no chromosome family.
NOT_A_FAMILY_TEST = re.compile(r"socket\.AF_")


def _individual_isinstance(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"):
        return False
    names = ast.unparse(node.args[1]) if len(node.args) > 1 else ""
    return bool(re.search(r"\b(NetworkIndividual|Chromosome|ChromosomeType|NetworkKind)\b", names))


def family_branches(root: Path, base: Path = REPO) -> list[str]:
    """'FILE:LINE: code' for every family test outside the family modules
    under ``root`` (paths relative to ``base``)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(base).as_posix()
        if FAMILY_MODULE.search(relative):
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for number, line in enumerate(lines, 1):
            code = line.split("#", 1)[0]
            if FAMILY_TEST.search(code) and not NOT_A_FAMILY_TEST.search(code):
                found.append(f"{relative}:{number}: {line.strip()}")
        for node in ast.walk(ast.parse(text)):
            if _individual_isinstance(node):
                found.append(f"{relative}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    return found


def test_nothing_in_the_cluster_asks_which_family_it_holds_outside_the_family_modules():
    assert family_branches(REPO / "cluster") == []


def test_the_family_check_sees_branches(tmp_path):
    # A branch on the family, or on an individual's class, is found; a
    # family module may branch.
    code = "def f(kind, x):\n    if kind.family == NETWORK_FAMILY:\n        return isinstance(x, NetworkIndividual)\n"
    (tmp_path / "reads").mkdir()
    (tmp_path / "reads" / "chart.py").write_text(code)
    (tmp_path / "reads" / "network_chart.py").write_text(code)
    assert [line.split(":")[0] for line in family_branches(tmp_path, tmp_path)] == ["reads/chart.py"] * 2
