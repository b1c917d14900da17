"""Players from a run database on the engine commands (``--db``): by id
before networks existed (no payload column), and networks by id or text
with their weights from the ``payload`` column once it exists (added here
with SQL as migration 0004 adds it), through the real command."""

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from genethello.cluster.db import Database
from genethello.cluster.reads import player_record
from genethello.core import Board, parse_square
from genethello.core.families.network_family import NETWORKS, network_payload

FIXTURE = Path(__file__).parent / "data" / "run-0001.sqlite"


def genethello(*args, stdin="", timeout=120, cwd=None):
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, input=stdin, cwd=cwd)


@pytest.fixture
def network():
    return NETWORKS.random_individual(NETWORKS.parse_kind("all-2"), 3, np.random.default_rng(9))


@pytest.fixture
def database(tmp_path):
    path = tmp_path / "run.db"
    shutil.copy(FIXTURE, path)
    Database.open(path, create=False, writable=True).dispose()      # upgraded to the newest schema
    return path


def add_network(path: Path, network) -> int:
    """A network row beside the run's chromosomes, its weights in ``payload``."""
    with sqlite3.connect(path) as c:
        columns = [row[1] for row in c.execute("PRAGMA table_info(chromosomes)")]
        if "payload" not in columns:
            c.execute("ALTER TABLE chromosomes ADD COLUMN payload BLOB")
        c.execute("INSERT INTO chromosomes (run_id, text, ctype, birth, genes, death, elo, wins, losses, draws, "
                  "payload) SELECT run_id, ?, 'all-2', 3, ?, NULL, 1500, 0, 0, 0, ? FROM chromosomes LIMIT 1",
                  (str(network), network.digest, network_payload(network.network)))
        return int(c.execute("SELECT id FROM chromosomes WHERE text = ?", (str(network),)).fetchone()[0])


def test_records_before_and_after_the_payload_column(database, network):
    db = Database.open(database, create=False)
    try:
        text, payload = player_record(db, 3)
        assert text == "oe_fmc_1_12:57:2:10:4:0:8:0:0:9:5" and payload is None
        with pytest.raises(ValueError, match="no player with id 9999"):
            player_record(db, 9999)
    finally:
        db.dispose()
    player_id = add_network(database, network)
    db = Database.open(database, create=False)
    try:
        assert player_record(db, player_id) == (str(network), network_payload(network.network))
        assert player_record(db, str(network)) == (str(network), network_payload(network.network))
        assert player_record(db, 3)[1] is None
    finally:
        db.dispose()


def test_commands_play_database_networks_by_id_and_text(database, network):
    player_id = add_network(database, network)
    proc = genethello("match", player_id, "3", "--db", database, "--depth", 1, "--games", 2)
    assert proc.returncode == 0, proc.stderr
    assert f"A = {player_id} ({network})" in proc.stdout and "B = 3 (oe_fmc_1_12:57:2:10:4:0:8:0:0:9:5)" in proc.stdout
    selfplay = genethello("selfplay", "--black", str(network), "--white", player_id, "--db", database, "--depth", 1,
                          "--games", 1)
    assert selfplay.returncode == 0 and "black scored" in selfplay.stdout, selfplay.stderr
    shown = genethello("network", "show", str(network), "--db", database)
    assert shown.returncode == 0, shown.stderr
    assert f"name: {network}" in shown.stdout
    gtp = genethello("gtp", "--player", player_id, "--db", database, "--depth", 1, stdin="genmove b\nquit\n")
    assert gtp.returncode == 0, gtp.stderr
    assert parse_square(gtp.stdout.split()[1]) in Board().legal_moves()


def test_an_id_without_db_is_looked_up_in_the_folders_genethello_db(database, tmp_path):
    """As every run command reads ./genethello.db, so do match and selfplay
    for a player given by id (the README's `match 156 p_1_10`)."""
    folder = tmp_path / "here"
    folder.mkdir()
    proc = genethello("match", "3", "p_1_10", "--depth", 1, "--games", 2, cwd=folder)
    assert proc.returncode == 2 and proc.stderr.splitlines() == [
        "genethello match: error: player 3 looks like a database id and there is no ./genethello.db here: "
        "give --db FILE"]
    shutil.copy(database, folder / "genethello.db")
    proc = genethello("match", "3", "p_1_10", "--depth", 1, "--games", 2, cwd=folder)
    assert proc.returncode == 0, proc.stderr
    assert "A = 3 (oe_fmc_1_12:57:2:10:4:0:8:0:0:9:5)" in proc.stdout
    selfplay = genethello("selfplay", "--black", "3", "--white", "p_1_10", "--depth", 1, "--games", 1, cwd=folder)
    assert selfplay.returncode == 0 and "black scored" in selfplay.stdout, selfplay.stderr


def test_a_network_without_its_weights_is_one_line(database, network):
    proc = genethello("match", str(network), "p_1_10", "--db", database, "--depth", 1)
    assert proc.returncode != 0
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no player with text" in lines[0]
