"""No import circles, and no family branches outside the family modules.

The import graph is read from the source (tests/import_graph.py): every
import counts, at the top, inside a function, under ``TYPE_CHECKING`` or as a
Cython ``cimport``, so a circle cannot hide behind a lazy import. And nothing in
``cluster/`` branches on which family it holds, whatever the file is
called: a family's differences are behind its family (its steps, its
breeding, its traits), and a new family adds entries, not branches. A module
that serves one family may only turn the others away (a guard that raises
or returns).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from .import_graph import circles, deepest_chain, floors, import_graph, reachable

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


#: Code that plays games: the engine's searches, the players, learning, and
#: the cluster's fitness, measures and run. The rules (board, squares, move,
#: bitboard: a stored game is replayed by them), core/play's scoring, SPRT,
#: seeds and contestant names, the Wilson intervals, the fitness kinds' table,
#: the ε-player names and the yardstick's score record are not.
GAME_PLAYING = re.compile(r"^genethello\.(core\.engine\.(?!board$|squares$|move$|bitboard$)|core\.learning\."
                          r"|core\.play\.(?!scoring$|sprt$|seeds$|contestants$)"
                          r"|cluster\.fitness\.(?!fitness_kinds$|epsilon_players$)|cluster\.run\."
                          r"|cluster\.measures\.(?!intervals$|yardstick_score$))")


def test_the_read_side_imports_no_game_playing_code():
    graph = import_graph(REPO)
    reads = [m for m in graph if m.startswith("genethello.cluster.reads")]
    playing = {m: sorted(t for t in reachable(graph, m) if GAME_PLAYING.match(t)) for m in reads}
    assert {m: t for m, t in playing.items() if t} == {}
    # The check reads the graph: the breeder that learns plays (its lineage
    # words are read through breeding.lineage_words, which has no game code).
    assert "genethello.cluster.reads.lineage" in reads
    assert any(GAME_PLAYING.match(t) for t in reachable(graph, "genethello.cluster.breeding.network_pbt"))


def test_the_deepest_chain_from_the_entry_point_is_a_chain_of_imports():
    graph = import_graph(REPO)
    chain = deepest_chain(graph, "genethello.cluster.cli.main")
    assert all(b in graph[a] for a, b in zip(chain, chain[1:]))
    # 24 before issue 35; the read side's wall took it to 22, and the one match task,
    # which chooses between the fast loop and the search, puts both beneath it again.
    assert len(chain) <= 24, " -> ".join(chain)


#: A family test: an isinstance of an individual's or a kind's class, or a
#: comparison with a family's name (``kind.family == ...``, ``... != NETWORK_FAMILY``).
FAMILY_TYPES = re.compile(r"\b(NetworkIndividual|Chromosome|ChromosomeType|NetworkKind)\b")
FAMILY_NAME = re.compile(r"(^|\.)family$|\b\w*FAMILY\w*$")
#: A socket's address family (AF_INET) is no chromosome family.
NOT_A_FAMILY = re.compile(r"socket\.AF_")
#: The statements that turn the other families away.
LEAVES = (ast.Raise, ast.Return, ast.Continue)


def _family_test(node: ast.AST) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
        return len(node.args) > 1 and bool(FAMILY_TYPES.search(ast.unparse(node.args[1])))
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        sides = [ast.unparse(node.left), ast.unparse(node.comparators[0])]
        return any(FAMILY_NAME.search(side) for side in sides) and not any(NOT_A_FAMILY.search(s) for s in sides)
    return False


def _refuses_other_families(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether the family test ``node`` is the negated condition of a guard
    (``if not isinstance(x, NetworkIndividual): raise``, ``if kind.family !=
    NAME or ...: return``): an if with no else whose body leaves. Such a
    test serves one family and turns the others away; it chooses nothing."""
    negated = node if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.NotEq) else parents.get(node)
    if not (negated is node or (isinstance(negated, ast.UnaryOp) and isinstance(negated.op, ast.Not))):
        return False
    test = parents.get(negated)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        guard = parents.get(test)
        test_node: ast.AST = test
    else:
        guard, test_node = test, negated
    return (isinstance(guard, ast.If) and guard.test is test_node and not guard.orelse
            and isinstance(guard.body[-1], LEAVES))


def family_branches(root: Path, base: Path = REPO) -> list[str]:
    """'FILE:LINE: code' for every branch on the family under ``root``
    (paths relative to ``base``): a family test anywhere, whatever the file's
    name, except as the guard of a module that serves one family and refuses
    the others (:func:`_refuses_other_families`). A family's differences
    live behind its table entries (its steps, breeding, traits, charts), so
    code that does one thing for one family and another for the next is a
    branch a new family would have to find."""
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(base).as_posix()
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if _family_test(node) and not _refuses_other_families(node, parents):
                found.append(f"{relative}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    return sorted(set(found))


def test_nothing_in_the_cluster_branches_on_the_family_it_holds():
    assert family_branches(REPO / "cluster") == []


def test_the_family_check_sees_branches_whatever_the_files_name(tmp_path):
    # A branch on the family, or on an individual's class, is found in any
    # file, one named for a family too; a guard that turns the other families
    # away is no branch.
    branch = ("def f(kind, x):\n    if kind.family == NETWORK_FAMILY:\n        return 1\n"
              "    return 2 if isinstance(x, NetworkIndividual) else 3\n")
    guard = ("def g(kind, x):\n    if not isinstance(x, NetworkIndividual):\n        raise ValueError(x)\n"
             "    if kind.family != NETWORK_FAMILY or x.type != kind:\n        return None\n    return x\n")
    (tmp_path / "reads").mkdir()
    (tmp_path / "reads" / "chart.py").write_text(branch + guard)
    (tmp_path / "reads" / "network_chart.py").write_text(branch + guard)
    assert [line.split(": ")[0] for line in family_branches(tmp_path, tmp_path)] == [
        "reads/chart.py:2", "reads/chart.py:4", "reads/network_chart.py:2", "reads/network_chart.py:4"]
