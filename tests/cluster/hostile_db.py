"""A builder of hostile run databases: a real run database (real SQLite, a
real coordinator on the serial executor), then one stored field rewritten
as an attacker or a faulty disk would leave it.

Every read command must answer such a database with one line or a correct
answer, never a traceback, never a read without bound, and never by opening
a path or running a command the database names (issue 30)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

from genethello.cluster.db import Database
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

from .conftest import write_config

#: A traceback's first line: what no command may print.
TRACEBACK = "Traceback (most recent call last)"


def new_run(folder: Path, played: bool = True, filename: str = "hostile.db", **overrides: Any) -> Path:
    """A database in ``folder`` holding one small run ('t', 3 generations of
    6, depth 1): played to its end on the serial executor when ``played``,
    else only created (generation 0, as ``evolve`` leaves it before Ray
    starts). ``overrides`` as for :func:`conftest.write_config`."""
    path = Path(folder) / filename
    db = Database.open(path, create=True)
    try:
        run_id = create_run(db, load_config(write_config(folder, f"{path.stem}.toml", **overrides)))
        if played:
            assert Coordinator(db, run_id, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
    finally:
        db.dispose()
    return path


def copy_of(path: Path, folder: Path, name: str) -> Path:
    """A copy of the database ``path`` as ``folder/name`` (one hostile edit each)."""
    target = Path(folder) / name
    shutil.copy(path, target)
    return target


def rewrite(path: Path, sql: str, *params: Any) -> None:
    """Run one UPDATE on the database file directly, as a crafted file would
    hold it (the program's own checks are bypassed)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def set_config_json(path: Path, text: Any) -> None:
    """Every run's stored config set to ``text`` (any SQLite value)."""
    rewrite(path, "UPDATE runs SET config_json = ?", text)


def deep_lineage(folder: Path, players: int = 8, generations: int = 60, seed: int = 7) -> tuple[Path, int]:
    """A database whose run 't' holds ``generations`` generations of
    ``players``, each member of generation g > 1 a crossover of two members
    of generation g - 1 drawn with a seeded generator, as a GA run's
    lineage is (its games are left out: the lineage reads none). Returns
    the path and the id of a member of the last generation.

    Every member has ``players`` ancestors a generation back: a tree that
    expands every path to a shared ancestor has 2**depth nodes."""
    import random

    path = new_run(folder, played=False, filename="deep.db")
    draw = random.Random(seed)
    conn = sqlite3.connect(path)
    try:
        previous: list[int] = []
        next_id = 1
        for g in range(1, generations + 1):
            members = []
            for slot in range(players):
                text = f"oe_fmc_{g}_{g % 60}:{slot}:0:0:0:0:0:0:0:0:0"
                conn.execute("INSERT INTO chromosomes (id, run_id, text, ctype, birth, genes, elo) "
                             "VALUES (?, 1, ?, 'oe_fmc', ?, ?, 1500.0)", (next_id, text, g, text.split("_", 3)[3]))
                a, b = draw.sample(previous, 2) if previous else (None, None)
                conn.execute("INSERT INTO population (run_id, generation, slot, player_id, origin, parent_a, "
                             "parent_b, source_generation) VALUES (1, ?, ?, ?, ?, ?, ?, ?)",
                             (g, slot, next_id, "crossover" if previous else "random", a, b,
                              g - 1 if previous else None))
                members.append(next_id)
                next_id += 1
            previous = members
        conn.execute("UPDATE runs SET generation = ?", (generations,))
        conn.commit()
    finally:
        conn.close()
    return path, previous[0]


#: A small CMA-ES run of networks (all-1: 30 weights), 2 generations of 6.
NETWORK_RUN = dict(name="net", population__type="all-1", population__size=6, breeding__method="cma-es",
                   stop__max_generations=2, fitness__games_per_pair=2, hall__games_per_member=2)


def npy_bytes(array: Any) -> bytes:
    """A bare ``.npy`` file's bytes (not the ``.npz`` archive a state is)."""
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, np.asarray(array), allow_pickle=False)
    return buffer.getvalue()


def huge_claim_state() -> bytes:
    """An ``.npz`` archive whose one entry's header claims an 8 TiB array
    (its data: 16 bytes)."""
    import io
    import zipfile

    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776,), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    entry = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + b"\x00" * 16
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("_C.npy", entry)
    return buffer.getvalue()
