"""Every report command on a real (tiny) network run, through the real CLI:
evolve, then best, history, status, runs, plot, export, ``network export``
of the best and a match of that file against a GeneThello chromosome.

A network run stores no fitness games and its CMA-ES champions (the
distribution means) play none: the reports must say what they show rather
than print a GeneThello run's words (a search depth, Elo 1500, W/D/L 0/0/0).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import run_cli

#: config/league.toml made tiny: 6 generations of 8 networks, 10 fitness
#: games each against WPC, the hall every 3 generations, the League measure
#: every 3 (a few seconds of play; Ray's start dominates).
TINY_NETWORK_RUN = """\
name = "tinynet"
seed = 2406

[population]
type = "all-2"
size = 8

[breeding]
method = "cma-es"
cma_variant = "auto"
sigma0 = 1.0

[fitness]
kind = "fixed"
opponents = ["wpc"]
games_per_opponent = 5
epsilon = 0.1
start_plies = 0
batch_games = 200

[hall]
games_per_member = 6
every = 3

[yardstick]
every = 3
league_double_games = 10

[stop]
max_generations = 6
converge_generations = 0

[storage]
keep_moves_generations = 0
"""


def write_network_config(folder: Path) -> Path:
    """The tiny network run's config in ``folder``."""
    path = Path(folder) / "tinynet.toml"
    path.write_text(TINY_NETWORK_RUN)
    return path


@pytest.fixture
def network_run(tmp_path_factory):
    """(folder, home, db) of a finished tiny network run."""
    folder = tmp_path_factory.mktemp("netrun")
    home = folder / "home"
    home.mkdir()
    db = folder / "net.db"
    done = run_cli("evolve", "--config", str(write_network_config(folder)), "--db", str(db), "--workers", "1",
                   "--quiet", home=home, cwd=folder, timeout=180)
    assert done.returncode == 0, done.stderr
    return folder, home, db


def cli(network_run, *args: str) -> str:
    folder, home, db = network_run
    done = run_cli(*args, home=home, cwd=folder, timeout=120)
    assert done.returncode == 0, f"genethello {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr
    return done.stdout


def test_reports_of_a_network_run(network_run):
    folder, _, db = network_run
    best = cli(network_run, "best", "--db", str(db))
    # the hall's games as a network hall plays them, not a search's depth
    assert "1 ply" in best and "ε = 0.1" in best and "depth" not in best, best
    assert "distribution mean" in best and "othello-league-fast (league-fast-1)" in best, best
    table = best.splitlines()[best.splitlines().index(next(ln for ln in best.splitlines() if ln.lstrip()
                                                             .startswith("id")))+1:]
    assert table and all("all-2_" in row for row in table), best
    for row in table:          # champions: no Elo, no W/D/L, born as a mean, never dead
        fields = row.split()
        assert "1500.0" not in fields and "0/0/0" not in fields and "mean" in fields, row
    as_json = json.loads(cli(network_run, "best", "--db", str(db), "--json"))
    assert as_json[0]["elo"] is None and as_json[0]["member"] is False and as_json[0]["hall_rating"] is not None
    best_text = as_json[0]["chromosome"]

    history = cli(network_run, "history", "--db", str(db))
    assert "performance ratings" in history and "othello-league-fast (league-fast-1)" in history, history
    assert len([ln for ln in history.splitlines() if ln.split()[:1] in (["1"], ["6"])]) >= 2, history

    status = cli(network_run, "status", "--db", str(db))
    assert "finished, generation 6 of 6" in status and "all-2" in status, status
    runs = cli(network_run, "runs", "--db", str(db))
    assert "tinynet" in runs and "all-2" in runs, runs

    png = folder / "net.png"
    assert "wrote" in cli(network_run, "plot", "--db", str(db), "--out", str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000

    exported = cli(network_run, "export", "--db", str(db), "--format", "sgf", "--out", str(folder / "games"))
    assert len(exported.strip().splitlines()) == 1 and "stores no game moves" in exported
    assert "genethello network export ID" in exported, exported

    network_file = folder / "best.json"
    cli(network_run, "network", "export", best_text, "--db", str(db), "--out", str(network_file))
    assert best_text in network_file.read_text()
    match = cli(network_run, "match", str(network_file), "p_1_10", "--depth", "2", "--games", "2")
    assert best_text in match, match

    check_champion_chart(db)


def check_champion_chart(db_path: Path) -> None:
    """The family's chart: tuple classes' shares of the evaluation range sum
    to 100% for every generation with a best, and the scale is positive (one
    test with the reports above: the run is made once)."""
    from genethello.cluster.db import Database
    from genethello.cluster.reads import champion_chart, find_run, generation_rows

    db = Database.open(str(db_path), create=False)
    try:
        run = find_run(db, None)
        rows = generation_rows(db, run.id)
        chart = champion_chart(db, run, rows)
    finally:
        db.dispose()
    assert chart.family == "ntuple"
    shares = [sr for sr in chart.series if sr.axis == "left"]
    assert {sr.label for sr in shares} == {"2-tuple corner share %", "2-tuple edge share %", "2-tuple inner share %"}
    for i, row in enumerate(rows):
        assert row.best is not None
        assert sum(sr.values[i] for sr in shares) == pytest.approx(100.0, abs=0.05)
        (norm,) = [sr.values[i] for sr in chart.series if sr.axis == "right"]
        assert norm > 0
