"""A fuzz pass over every stored field a read command parses (issue 30):
a run's config JSON, a network's payload, a CMA-ES breeder state and the
population's origins, each set to values hypothesis draws (derandomized
by the profile in tests/conftest.py) in a copy of a real run database.

Every command that reads the field answers with one line on stderr (exit
2) or a correct answer (exit 0): never a traceback (an exception other
than a user error escapes ``main`` and fails the example), and in bounded
time (no unbounded read: each command finishes within seconds)."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genethello.cluster.cli.main import main as cli_main

from .hostile_db import NETWORK_RUN, new_run

#: Examples per stored field: enough to reach the parsers' branches, few
#: enough for the suite (each example runs a few commands in-process).
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])

#: What a command may take on a crafted database of a small run (seconds).
BOUNDED = 20.0

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                                  max_size=4),
                    max_leaves=20)
SQL_VALUES = (st.none() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.floats(allow_nan=False)
              | st.text(max_size=200) | st.binary(max_size=400))


def run_command(*argv: str) -> tuple[int, str, str]:
    """``genethello ARGV`` through the real entry point, in this process."""
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli_main(list(argv))
    assert time.monotonic() - started < BOUNDED, argv
    return status, out.getvalue(), err.getvalue()


def one_line_or_answer(argv: tuple[str, ...]) -> None:
    status, out, err = run_command(*argv)
    assert "Traceback" not in err and "Traceback" not in out, err
    if status == 0:
        return
    assert status == 2, (argv, status, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"genethello {argv[0]}: error: "), (argv, err)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("fuzz")
    return {"ga": new_run(folder), "net": new_run(folder, filename="net.db", **NETWORK_RUN)}


_COPIES = itertools.count()


def crafted(runs: dict[str, Path], kind: str, sql: str, *params: object) -> Path:
    """A fresh copy of run ``kind``'s database with one UPDATE applied (a
    new file each time: the commands run in this process keep theirs open)."""
    source = runs[kind]
    path = source.with_name(f"crafted-{kind}-{next(_COPIES)}.db")
    shutil.copy(source, path)
    conn = sqlite3.connect(path)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()
    return path


def config_texts() -> st.SearchStrategy[object]:
    """Stored configs: any SQL value, any JSON, and the real config with one
    key's value replaced by any JSON."""
    def mutated(key_value: tuple[str, str, object]) -> str:
        section, key, value = key_value
        config = json.loads(REAL_CONFIG[0])
        if section in config and isinstance(config[section], dict):
            config[section][key] = value
        else:
            config[section] = value
        return json.dumps(config)

    keys = st.sampled_from([("population", "type"), ("population", "size"), ("population", "members"),
                            ("population", "initial"), ("games", "depth"), ("yardstick", "sprt"),
                            ("openings", "series"), ("seed", ""), ("hall", "games_per_member"),
                            ("stop", "max_generations"), ("breeding", "method")])
    replaced = st.tuples(keys, JSON).map(lambda pair: mutated((pair[0][0], pair[0][1], pair[1])))
    return SQL_VALUES.filter(lambda v: v is not None) | JSON.map(json.dumps) | replaced


#: The real stored config of the GA run (read once the fixture has made it).
REAL_CONFIG: list[str] = []


@FUZZ
@given(data=st.data())
def test_any_stored_config_is_one_line_or_an_answer(runs, data):
    if not REAL_CONFIG:
        REAL_CONFIG.append(sqlite3.connect(runs["ga"]).execute("SELECT config_json FROM runs").fetchone()[0])
    path = crafted(runs, "ga", "UPDATE runs SET config_json = ?", data.draw(config_texts()))
    for command in ("runs", "status", "history", "best", "lineage"):
        one_line_or_answer((command, "--db", str(path)))


@FUZZ
@given(payload=SQL_VALUES)
def test_any_stored_payload_is_one_line_or_an_answer(runs, payload, tmp_path_factory):
    path = crafted(runs, "net", "UPDATE chromosomes SET payload = ? WHERE id = 1", payload)
    out = tmp_path_factory.mktemp("net-out") / "n.json"
    for argv in (("network", "show", "1"), ("network", "export", "1", "--out", str(out)),
                 ("best",), ("lineage", "1"), ("status",)):
        one_line_or_answer((*argv, "--db", str(path)))


@FUZZ
@given(state=SQL_VALUES | st.binary(max_size=64).map(lambda b: b"PK\x03\x04" + b))
def test_any_stored_breeder_state_is_one_line_or_an_answer(runs, state):
    from genethello.cluster.breeding.cma_es import load_state

    path = crafted(runs, "net", "UPDATE generations SET breeder_state = ?", state)
    (stored,), = sqlite3.connect(path).execute("SELECT breeder_state FROM generations LIMIT 1").fetchall()
    if isinstance(stored, str):
        stored = stored.encode()
    try:
        load_state(stored if isinstance(stored, bytes) else str(stored).encode())
    except ValueError as exc:          # CmaStateError: one line
        assert "\n" not in str(exc).strip()
    for command in ("history", "best", "status"):
        one_line_or_answer((command, "--db", str(path)))
    # The coordinator breeds from it (resume, without Ray: the serial executor).
    from genethello.cluster.cli.main import one_line
    from genethello.cluster.db import Database
    from genethello.cluster.run.coordinator import Coordinator
    from genethello.cluster.run.executors import SerialExecutor
    from genethello.cluster.run.progress import Progress

    conn = sqlite3.connect(path)
    conn.execute("UPDATE runs SET max_generations = 3")
    conn.commit()
    conn.close()
    db = Database.open(path, create=False)
    try:
        Coordinator(db, 1, SerialExecutor(0.001), Progress(enabled=False)).run()
    except ValueError as exc:
        assert one_line(exc).startswith(("generation 2: the stored CMA-ES state ",
                                         "generation 2 has no stored CMA-ES state")), one_line(exc)
    finally:
        db.dispose()


@FUZZ
@given(origin=SQL_VALUES, parent=st.none() | st.integers(min_value=-5, max_value=60) | st.text(max_size=5),
       source_generation=SQL_VALUES, source_run=st.none() | st.integers(min_value=-2, max_value=5))
def test_any_stored_origin_is_one_line_or_an_answer(runs, origin, parent, source_generation, source_run):
    path = crafted(runs, "ga", "UPDATE population SET origin = ?, parent_a = ?, parent_b = ?, "
                               "source_generation = ?, source_run = ? WHERE generation = 3",
                   origin, parent, parent, source_generation, source_run)
    (best,), = sqlite3.connect(path).execute(
        "SELECT player_id FROM population WHERE generation = 3 ORDER BY slot LIMIT 1").fetchall()
    for argv in (("lineage", str(best), "--depth", "8"), ("lineage", "--operators"), ("lineage", "--json"),
                 ("best", "--parents")):
        one_line_or_answer((*argv, "--db", str(path)))
