"""One anchor (issue 38): what a run's hall rating is relative to, and at
what depth, is named by one function (``reads.rating_anchor``), and
``evolve``'s progress and last line, ``best``, ``status`` and ``history``
all print its words, for a network run at depth against fixed opponents
(p_1_10 = 0) and for a GeneThello run (generation 1's champion = 0).

The runs are real (serial coordinator, real SQLite); the commands are the
real CLI's handlers, in process.
"""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from genethello.cluster.cli.main import main as cli_main
from genethello.cluster.db import Database
from genethello.cluster.reads import rating_anchor, run_line
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import config_from_mapping, load_config

from .conftest import write_config

#: A tiny depth-2 network run against p_1_10 and WPC (p_1_10 first: the zero).
NETWORK_AT_DEPTH = dict(name="deep", population__type="all-2", population__size=4, breeding__method="cma-es",
                        fitness__kind="fixed", fitness__opponents=["p_1_10", "wpc"],
                        fitness__games_per_opponent=2, fitness__depth=2, fitness__exact_empties=4,
                        fitness__openings="distinct-4", fitness__batch_games=8,
                        hall__games_per_member=4, hall__every=1, stop__max_generations=2)
#: The small GeneThello run of the conftest (a hall of 8 games a member).
GENETHELLO = dict(name="gt", stop__max_generations=2)

#: Words the commands printed for the scale before the anchor was one.
OLD_WORDS = ("Elo against", "Elo relative to generation 1", "vs generation 1's champion (")


def evolve_serially(folder: Path, overrides: dict[str, object]) -> tuple[Path, str]:
    """(database, progress text) of a run driven serially to its end."""
    config = write_config(folder, **overrides)
    db_path = folder / "run.db"
    stream = io.StringIO()
    db = Database.open(db_path, create=True)
    try:
        run_id = create_run(db, load_config(config))
        assert Coordinator(db, run_id, SerialExecutor(0.001), Progress(stream=stream)).run() == "finished"
    finally:
        db.dispose()
    return db_path, stream.getvalue()


def command(capsys, *argv: str) -> str:
    assert cli_main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("overrides, anchor", [
    (NETWORK_AT_DEPTH, "Elo vs p_1_10 at depth 2"),
    (GENETHELLO, "Elo vs generation 1's champion at depth 1"),
], ids=["network-fixed-depth", "genethello"])
def test_every_report_names_the_one_anchor(tmp_path, capsys, overrides, anchor):
    db, progress = evolve_serially(tmp_path, overrides)
    assert anchor in progress, progress
    outputs = {name: command(capsys, name, "--db", str(db)) for name in ("best", "status", "history")}
    for name, out in outputs.items():
        assert anchor in out, f"{name}:\n{out}"
        assert not any(old in out for old in OLD_WORDS), f"{name}:\n{out}"
    assert f"({anchor.split(' vs ')[1].split(' at ')[0]} = 0)" in outputs["best"]


def test_the_anchor_for_every_family_and_fitness_kind():
    def anchor(**values: object) -> str:
        return rating_anchor(config_from_mapping(values, "test")).text()

    net = {"population": {"type": "all-2", "size": 4}, "breeding": {"method": "cma-es"}}
    assert anchor(**net, fitness={"kind": "fixed", "opponents": ["p_1_10", "wpc"], "depth": 2}) \
        == "Elo vs p_1_10 at depth 2"
    assert anchor(**net, fitness={"kind": "fixed", "opponents": ["wpc"]}) \
        == "Elo vs generation 1's champion at 1 ply (ε = 0.1)"
    assert anchor(**net, fitness={"kind": "coevolution", "depth": 3}) == "Elo vs generation 1's champion at depth 3"
    assert anchor(**net, fitness={"kind": "hall", "opponents": ["wpc"], "depth": 1}) \
        == "Elo vs generation 1's champion at depth 1"
    assert anchor(population={"type": "oe_fmc"}) == "Elo vs generation 1's champion at depth 4"
    assert anchor(population={"type": "oe_fmc"}, hall={"games_per_member": 0}) \
        == "no hall of fame: Elo relative to the population"
    search = load_config(Path(__file__).parents[2] / "config" / "search-player.toml")
    assert rating_anchor(search).text() == "Elo vs p_1_10 at depth 2"
    assert run_line(search) == ("all-4+2x2-s8, P=8, fixed fitness at depth 2 (exact 6), "
                                "pbt-td: 400 learning games a member a generation")


def test_status_of_a_stopped_run_does_not_say_playing(tmp_path, capsys):
    db, _ = evolve_serially(tmp_path, GENETHELLO)
    with sqlite3.connect(db) as conn:        # as a run stopped inside its last generation leaves it
        conn.execute("UPDATE runs SET status = 'stopped'")
        conn.execute("UPDATE generations SET status = 'playing', games_done = 3 WHERE number = 2")
    out = command(capsys, "status", "--db", str(db))
    assert "stopped, generation 2 of 2" in out and "playing" not in out, out
    assert "generation 2: not finished, 3/" in out and "genethello resume goes on with it" in out, out
