"""Which module may import which: the walls between the rooms, checked on
the source (imports anywhere in a file count, lazy ones included).

* core never imports cluster (the engine stands alone);
* the web page never imports the command line: both are faces over the
  same read side;
* SQL and the ORM tables stay in the database layer, the read side
  (:mod:`genethello.cluster.reads`) and the coordinator's store: the
  commands and the web page only format what the read side returns.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from genethello.core.cli import match_command
from genethello.core.cli.context import CommandContext, call_handler

from .test_front_door import imported_modules

REPO = Path(__file__).resolve().parents[1]
CLUSTER = REPO / "cluster"

#: Modules (relative to cluster/) that may use SQLAlchemy or the ORM tables.
SQL_ROOMS = ("db/", "reads/", "run/run_store.py", "run/coordinator.py")


def offenders(folder: Path, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    """'FILE imports MODULE' for each import under ``folder`` of a module
    named by (or under) one of ``forbidden`` and not by one of ``allowed``."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd"):
            continue
        for module in sorted(imported_modules(path)):
            hit = any(module == f or module.startswith(f + ".") for f in forbidden)
            if hit and not any(module == a or module.startswith(a + ".") for a in allowed):
                found.append(f"{path.relative_to(REPO)} imports {module}")
    return found


def test_core_never_imports_cluster():
    assert offenders(REPO / "core", ("genethello.cluster",)) == []


def test_the_web_never_imports_the_command_line():
    assert offenders(CLUSTER / "web", ("genethello.cluster.cli",)) == []


def test_the_read_side_imports_neither_the_command_line_nor_the_web_nor_the_coordinator():
    assert offenders(CLUSTER / "reads", ("genethello.cluster.cli", "genethello.cluster.web",
                                         "genethello.cluster.run.coordinator",
                                         "genethello.cluster.run.run_store")) == []


def test_sql_lives_in_the_database_layer_the_read_side_and_the_store():
    found = []
    for path in sorted(CLUSTER.rglob("*.py")):
        relative = path.relative_to(CLUSTER).as_posix()
        if relative.startswith(SQL_ROOMS):
            continue
        found += [f"{relative} imports {m}" for m in sorted(imported_modules(path))
                  if (m == "sqlalchemy" or m.startswith("sqlalchemy.")) and m != "sqlalchemy.exc"
                  or m == "genethello.cluster.db.models"]
    assert found == []


def test_the_checks_see_imports():
    # The walls above hold because nothing crosses them, not because the
    # parser sees nothing: the known crossings are found.
    assert "genethello.cluster.reads" in imported_modules(CLUSTER / "web" / "run_data.py")
    assert offenders(CLUSTER / "cli", ("genethello.cluster.reads",))


def test_engine_commands_reach_the_cluster_only_through_their_context():
    parser = argparse.ArgumentParser()
    match_command.register(parser.add_subparsers())
    args = parser.parse_args(["match", "7", "p_1_10", "--depth", "1", "--db", "runs.db"])
    with pytest.raises(ValueError, match="cluster part"):
        call_handler(args.handler, args, CommandContext())
    asked = []

    def lookup(db: str, player_id: int) -> str:
        asked.append((db, player_id))
        raise ValueError("no such player")

    with pytest.raises(ValueError, match="no such player"):
        call_handler(args.handler, args, CommandContext(player_from_database=lookup))
    assert asked == [("runs.db", 7)]


def test_the_measures_describe_work_without_importing_the_run_that_drives_it():
    # measures -> run would be an arrow back up: the measures describe their
    # games as tasks (cluster/work.py) and the run hands them an executor.
    assert offenders(CLUSTER / "measures", ("genethello.cluster.run",)) == []
    assert offenders(CLUSTER / "breeding", ("genethello.cluster.run",)) == []
