"""Networks in the web's Play, through a real `genethello serve`: a network
of the served database by text plays a game and appears in the machine
menu with the runs' players; a file path is refused (the web reads no
file); a network text not in the database is a 4xx with one message."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from genethello.cluster.db import Database
from genethello.core.families.network_family import NETWORKS, network_payload

from .conftest import Server
from .test_api import HUMAN, api

FIXTURE = Path(__file__).parents[1] / "cluster" / "data" / "run-0001.sqlite"


@pytest.fixture(scope="module")
def network():
    return NETWORKS.random_individual(NETWORKS.parse_kind("all-2"), 2, np.random.default_rng(21))


@pytest.fixture(scope="module")
def served(tmp_path_factory, network):
    """A server on a copy of a real run database with a network player
    (its weights in the payload column that migration 0004 adds)."""
    path = tmp_path_factory.mktemp("serve-networks") / "run.db"
    shutil.copy(FIXTURE, path)
    Database.open(path, create=False, writable=True).dispose()
    with sqlite3.connect(path) as c:
        if "payload" not in [row[1] for row in c.execute("PRAGMA table_info(chromosomes)")]:
            c.execute("ALTER TABLE chromosomes ADD COLUMN payload BLOB")
        c.execute("INSERT INTO chromosomes (run_id, text, ctype, birth, genes, death, elo, wins, losses, draws, "
                  "payload) SELECT run_id, ?, 'all-2', 2, ?, NULL, 1500, 0, 0, 0, ? FROM chromosomes LIMIT 1",
                  (str(network), network.digest, network_payload(network.network)))
    srv = Server(path, "--slots", "1")
    try:
        yield srv
    finally:
        srv.stop()


def test_a_database_network_is_checked_and_plays(served, network):
    status, answer = api(served, "POST", "/api/chromosome", {"chromosome": str(network)})
    assert status == 200, answer
    assert answer == {"chromosome": str(network), "type": "all-2", "family": "network", "genes": {}}
    status, game = api(served, "POST", "/api/games",
                       {"black": {"kind": "machine", "chromosome": str(network), "depth": 2}, "white": HUMAN,
                        "seconds": None})
    assert status == 200, game
    assert str(network) in str(game)


@pytest.mark.parametrize("text, message", [
    ("/etc/passwd", "not a file"),
    ("net.json", "not a file"),
    ("all-2_0_aaaaaaaaaaaa", "no player with text"),
])
def test_files_and_unknown_networks_are_a_4xx(served, text, message):
    status, answer = api(served, "POST", "/api/chromosome", {"chromosome": text})
    assert 400 <= status < 500 and message in str(answer), answer


def test_the_menu_lists_shipped_networks(served):
    status, menu = api(served, "GET", "/api/players")
    assert status == 200 and isinstance(menu["shipped"], list)
