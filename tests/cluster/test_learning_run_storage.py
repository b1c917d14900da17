"""Issue 37 §1: a learning run's past members are stored as their
difference from their parent (:mod:`genethello.cluster.db.played_chains`),
and every reader still gets the network each member played: shown,
exported and played by its id, the same before and after it was chained."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import numpy as np
import pytest

from genethello.cluster.db import Database
from genethello.cluster.db.played_chains import CHAIN_LIMIT, CHAINED_PAYLOAD_MAGIC, chain_depth
from genethello.cluster.reads import find_run
from genethello.cluster.reads.runs import player_record
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.run_store import RunStore
from genethello.core.families.network_family import PLAYED_PAYLOAD_MAGIC
from genethello.core.families.registry import parse_individual

from .conftest import query, write_config
from .test_network_runs import drive
from .test_pbt_td import LEARNING


def _show(db_path, player_id: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "network", "show", str(player_id),
                           "--db", str(db_path)], capture_output=True, text=True, timeout=60)


def _played(db_path) -> dict[int, tuple[str, np.ndarray]]:
    """Every member's text and the integers it plays, as readers get them."""
    db = Database.open(db_path, create=False)
    try:
        played = {}
        for (pid,) in query(db_path, "SELECT id FROM chromosomes ORDER BY id"):
            text, payload = player_record(db, pid)
            played[pid] = (text, parse_individual(text, payload).network.int_weights.copy())
        return played
    finally:
        db.dispose()


@pytest.fixture(scope="module")
def chained_run(tmp_path_factory):
    """A small pbt-td run (hall every 2 generations), its members read at
    generation 3 (all but generation 1 still real weights) and again after
    it went on to generation 8."""
    folder = tmp_path_factory.mktemp("chains")
    config = write_config(folder, **{**LEARNING, "stop__max_generations": 3})
    db_path = folder / "chains.db"
    assert drive(db_path, config, SerialExecutor(0.001)) == "finished"
    early = _played(db_path)
    shown = {pid: _show(db_path, pid).stdout for pid in list(early)[-3:]}
    db = Database.open(db_path, create=False)
    try:
        RunStore(db, find_run(db, None).id).extend(8)
    finally:
        db.dispose()
    assert drive(db_path, config, SerialExecutor(0.001), create=False) == "finished"
    return db_path, early, shown


def test_past_members_are_chained_to_their_parents_except_the_hall(chained_run):
    db_path, _, _ = chained_run
    rows = query(db_path, "SELECT id, death, payload FROM chromosomes ORDER BY id")
    hall = {pid for (pid,) in query(db_path, "SELECT player_id FROM hall_members")}
    chained = [r for r in rows if r[2].startswith(CHAINED_PAYLOAD_MAGIC)]
    assert chained and hall
    assert all(r[0] not in hall for r in chained)
    assert all(r[2].startswith(PLAYED_PAYLOAD_MAGIC) for r in rows if r[0] in hall and r[1] <= 6)
    assert all(1 <= chain_depth(r[2]) <= CHAIN_LIMIT for r in chained)
    full = [r for r in rows if r[1] > 6]
    assert full and all(len(r[2]) == 8 * 4 * 288 for r in full)            # resume learns from real weights
    # a chained member takes a fraction of a played one
    played_sizes = [len(r[2]) for r in rows if r[2].startswith(PLAYED_PAYLOAD_MAGIC)]
    assert np.mean([len(r[2]) for r in chained]) < np.mean(played_sizes)


def test_every_member_reads_back_the_integers_it_played_before_it_was_chained(chained_run):
    db_path, early, shown = chained_run
    late = _played(db_path)
    assert set(early) <= set(late)
    for pid, (text, ints) in early.items():
        assert late[pid][0] == text and np.array_equal(late[pid][1], ints), pid
    for pid, before in shown.items():
        after = _show(db_path, pid)
        assert after.returncode == 0, after.stderr
        keep = [line for line in before.splitlines() if not line.startswith("real weights")]
        assert keep == [line for line in after.stdout.splitlines() if not line.startswith("real weights")]


@pytest.mark.parametrize("damage, words", [
    (lambda p: p[:len(CHAINED_PAYLOAD_MAGIC) + 3], "cut short"),
    (lambda p: p[:len(CHAINED_PAYLOAD_MAGIC)] + (10 ** 12).to_bytes(8, "little") + p[15:],
     "chained to player id 1000000000000, which has no stored weights"),
    (lambda p: p[:15] + bytes([200]) + p[16:], "a chain of depth 200"),
    (lambda p: p[:-6] + b"\x00" * 6, "the stored weights"),
])
def test_a_broken_chain_is_one_line(chained_run, tmp_path, damage, words):
    db_path, _, _ = chained_run
    copy = tmp_path / "broken.db"
    copy.write_bytes(db_path.read_bytes())
    pid, payload = query(copy, "SELECT id, payload FROM chromosomes WHERE substr(payload, 1, 7) = ? "
                               "ORDER BY id DESC LIMIT 1", CHAINED_PAYLOAD_MAGIC)[0]
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE chromosomes SET payload = ? WHERE id = ?", (damage(payload), pid))
    conn.close()
    shown = _show(copy, pid)
    assert shown.returncode == 2 and shown.stderr.count("\n") == 1 and words in shown.stderr, shown.stderr


def test_the_hall_keeps_each_generations_best_and_the_latest_ratings(chained_run):
    """Hall ratings grow by one row a hall step, not by the hall's size:
    the latest hall generation rates every member, each earlier one keeps
    its best so far (what history shows)."""
    db_path, _, _ = chained_run
    hall = query(db_path, "SELECT count(*) FROM hall_members")[0][0]
    generations = [g for (g,) in query(db_path, "SELECT DISTINCT generation FROM hall_ratings ORDER BY 1")]
    assert hall >= 3 and len(generations) >= 3
    latest = generations[-1]
    assert query(db_path, "SELECT count(*) FROM hall_ratings WHERE generation = ?", latest)[0][0] == hall
    for g in generations[:-1]:
        assert query(db_path, "SELECT h.player_id FROM hall_ratings h WHERE h.generation = ?", g) == query(
            db_path, "SELECT best_player_id FROM generations WHERE number = ?", g)
    shown = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "history", "--db", str(db_path)],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count("±") >= len(generations), shown.stdout
