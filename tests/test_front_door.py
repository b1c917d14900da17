"""One `genethello` front door, loaded lazily: the engine commands never
import the database or Ray, and `--help` lists everything while importing
none of it. (Which module may import which: test_layering.)"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from genethello.cluster.cli.main import COMMANDS

HEAVY = ("sqlalchemy", "alembic", "ray")
PLAYER = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"

#: Runs main(argv) in a fresh interpreter with `stdin`, then prints the heavy
#: top-level packages it had imported as JSON on the last line of stderr.
PROBE = """
import json, sys
from genethello.cluster.cli.main import main
argv = json.loads(sys.argv[1])
try:
    status = main(argv)
except SystemExit as exc:
    status = exc.code
loaded = sorted({m.split('.')[0] for m in sys.modules} & set(json.loads(sys.argv[2])))
print(json.dumps({"status": status, "loaded": loaded}), file=sys.stderr)
"""


def probe(argv: list[str], stdin: str = "") -> tuple[dict, str]:
    r = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv), json.dumps(HEAVY)], input=stdin,
                       capture_output=True, text=True, timeout=60)
    return json.loads(r.stderr.strip().splitlines()[-1]), r.stdout


def test_help_lists_every_command_without_the_database_or_ray():
    report, out = probe(["--help"])
    assert report == {"status": 0, "loaded": []}
    for name in COMMANDS:
        assert f"    {name}" in out, name


@pytest.mark.parametrize("argv, stdin", [
    (["gtp", "--player", PLAYER, "--depth", "2"], "1 name\n2 genmove b\nquit\n"),
    (["nboard", "--player", PLAYER], "nboard 2\nping 1\n"),
    (["perft", "3"], ""),
    (["match", PLAYER, PLAYER, "--depth", "1"], ""),
])
def test_engine_commands_load_neither_the_database_nor_ray(argv, stdin):
    report, out = probe(argv, stdin)
    assert report == {"status": 0, "loaded": []}, out
    assert out  # it did its work


def test_a_run_command_still_works_through_the_same_door(tmp_path):
    report, _ = probe(["runs", "--db", str(tmp_path / "none.db")])
    assert report["status"] == 2 and "sqlalchemy" in report["loaded"]


def test_each_module_registers_exactly_its_listed_commands():
    modules = {module for module, _ in COMMANDS.values()}
    for module in modules:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module).register(sub)
        registered = {a.dest: a.help for a in sub._choices_actions}
        listed = {name: help_text for name, (m, help_text) in COMMANDS.items() if m == module}
        assert registered == listed, module


def imported_modules(path: Path) -> set[str]:
    """Modules a .py file imports, or a .pyx/.pxd file (c)imports, by name."""
    text = path.read_text()
    if path.suffix == ".py":
        names = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
        return names
    return {line.split()[1] for line in text.splitlines()
            if line.lstrip().startswith(("from ", "import ", "cimport ")) and len(line.split()) > 1}


def test_the_evaluator_loads_its_table_without_the_learner():
    code = ("import sys\n"
            "from genethello.core import Board, Chromosome, Evaluator, Searcher\n"
            "ev = Evaluator.from_chromosome(Chromosome.parse('p_1_10'))\n"
            "Searcher(ev).search(Board(), depth=2)\n"
            "print('genethello.core.pattern_learning' in sys.modules, ev.pattern_version)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    learner_loaded, version = out.stdout.split()
    from genethello.core.evaluation.pattern_table import newest_version

    assert learner_loaded == "False" and version.startswith(newest_version() + "+")
