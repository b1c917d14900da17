"""Fixtures of the cluster tests: one Ray instance per test session (its HOME
isolated), small run configs, and a snapshot of a run's database content by
natural keys (what must not depend on workers, interruptions or ids)."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from genethello.cluster.run.run_check import config_from_mapping

#: The small run every cluster test starts from (dotted keys of the TOML).
SMALL_RUN: dict[str, Any] = {
    "name": "t",
    "seed": 11,
    "population.type": "oe_fmc",
    "population.size": 6,
    "games.depth": 1,
    "games.exact_empties": 4,
    "games.random_plies": 2,
    "games.tt_bits": 10,
    "breeding.elites": 2,
    "breeding.inject_top": 1,
    "stop.max_generations": 3,
    "stop.converge_generations": 0,
    "yardstick.every": 0,
    "yardstick.league_double_games": 2,
    "yardstick.gtp_games": 2,
    "hall.games_per_member": 8,
    "storage.keep_moves_generations": 0,
    "cluster.task_seconds": 0.001,
    "cluster.commit_every_seconds": 0.0,
}

#: Config sections that tune speed only: they never change what is stored.
VOLATILE_CONFIG_KEYS = ("cluster",)


# --------------------------------------------------------------------------- #
# Ray: one instance for the whole session


@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory):
    """Ray on this machine with 2 worker CPUs, started once per session.
    Ray writes its auth token under $HOME: HOME points at a temporary folder
    while Ray runs and is restored afterwards."""
    home = tmp_path_factory.mktemp("ray-home")
    old_home = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    import ray

    from genethello.cluster.run.executors import start_ray

    try:
        workers = start_ray(None, 2)
        yield workers
    finally:
        ray.shutdown()
        if old_home is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = old_home


# --------------------------------------------------------------------------- #
# Configs


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def config_text(**overrides: Any) -> str:
    """The TOML of SMALL_RUN with ``overrides`` (dotted keys written with
    '__' for the dot: ``games__depth=2``; a value of None drops the key)."""
    values = dict(SMALL_RUN)
    for key, value in overrides.items():
        key = key.replace("__", ".")
        if value is None:
            values.pop(key, None)
        else:
            values[key] = value
    top = [f"{k} = {_toml_value(v)}" for k, v in values.items() if "." not in k]
    sections: dict[str, list[str]] = {}
    for key, value in values.items():
        if "." in key:
            section, name = key.split(".", 1)
            sections.setdefault(section, []).append(f"{name} = {_toml_value(value)}")
    lines = top + [""]
    for section, entries in sections.items():
        lines += [f"[{section}]", *entries, ""]
    return "\n".join(lines)


def write_config(folder: Path, filename: str = "run.toml", **overrides: Any) -> Path:
    """Write a small run config into ``folder`` (see config_text); returns its path."""
    path = Path(folder) / filename
    path.write_text(config_text(**overrides))
    return path


@pytest.fixture
def small_config(tmp_path):
    """A factory: small_config(**overrides) -> path of a config TOML in tmp_path."""
    counter = iter(range(1_000_000))

    def make(filename: str | None = None, **overrides: Any) -> Path:
        return write_config(tmp_path, filename or f"run{next(counter)}.toml", **overrides)

    return make


# --------------------------------------------------------------------------- #
# Snapshots


def _connect_ro(db_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{Path(db_path).absolute().as_uri()}?mode=ro", uri=True, timeout=30)


def _round(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {k: _round(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_round(v) for v in value]
    return value


def _digest(blob: bytes | None) -> str | None:
    return None if blob is None else hashlib.sha256(blob).hexdigest()[:16]


def db_snapshot(db_path: Path, run_name: str, effort: bool = True, lineage: bool = True) -> dict[str, Any]:
    """Run ``run_name``'s content by natural keys: no ids, timestamps, hosts,
    pids or lease columns; floats rounded to 9 decimals; the config without
    its speed-only sections; payloads, breeder states and fitness points by
    their SHA-256 (from migration 0004). Two runs of one config and seed must
    give equal snapshots whatever the workers, batches or interruptions.

    effort=False leaves out the games' node counts: what the search spent,
    which the core's speed work changes while every move stays the same (for
    runs begun by an earlier core, such as the 0001 fixture). lineage=False
    leaves out each slot's origin (from migration 0006; NULL in the
    generations of runs begun before it, such as the fixtures')."""
    conn = _connect_ro(db_path)
    try:
        row = conn.execute("SELECT id, name, seed, status, generation, max_generations, converge_baseline, "
                           "config_json FROM runs WHERE name = ?", (run_name,)).fetchone()
        assert row is not None, f"no run {run_name!r} in {db_path}"
        run_id, name, seed, status, generation, max_generations, converge_baseline, config_json = row
        # Through the config parser: a key added later reads as its default
        # in a config stored before it existed, as the coordinator reads it.
        config = dataclasses.asdict(config_from_mapping(json.loads(config_json)))
        for key in VOLATILE_CONFIG_KEYS:
            config.pop(key, None)
        # The run's last generation is run state (runs.max_generations): a
        # run extended to 4 generations equals one configured for 4.
        config["stop"].pop("max_generations")
        text = dict(conn.execute("SELECT id, text FROM chromosomes WHERE run_id = ?", (run_id,)).fetchall())
        text[None] = None

        def rows(sql: str) -> list[tuple]:
            return [tuple(r) for r in conn.execute(sql, (run_id,)).fetchall()]

        players = sorted(
            (t, birth, death, _round(elo), w, lost, d, _round(ys), _digest(payload))
            for t, birth, death, elo, w, lost, d, ys, payload in rows(
                "SELECT text, birth, death, elo, wins, losses, draws, yardstick, payload FROM chromosomes "
                "WHERE run_id = ?"))
        # Parents may be of another run (a member re-entered from it): by text and run name.
        any_text = dict(conn.execute("SELECT id, text FROM chromosomes").fetchall())
        any_text[None] = None
        run_names = dict(conn.execute("SELECT id, name FROM runs").fetchall())
        run_names[None] = None
        population = sorted(
            (g, slot, text[pid], *((origin, any_text[a], any_text[b], source_g, run_names[source_run])
                                   if lineage else ()))
            for g, slot, pid, origin, a, b, source_g, source_run in rows(
                "SELECT generation, slot, player_id, origin, parent_a, parent_b, source_generation, source_run "
                "FROM population WHERE run_id = ?"))
        generations = sorted(
            (n, st, total, done, text[best], _round(mean), _round(json.loads(stats)) if stats else None,
             _digest(state))
            for n, st, total, done, best, mean, stats, state in rows(
                "SELECT number, status, games_total, games_done, best_player_id, mean_elo, stats_json, "
                "breeder_state FROM generations WHERE run_id = ?"))
        fitness = sorted((g, i, _digest(points), n) for g, i, points, n in rows(
            "SELECT generation, task_index, points, games FROM fitness_results WHERE run_id = ?"))
        games = sorted((g, i, text[b], text[w], score, bd, wd, moves, nodes if effort else None)
                       for g, i, b, w, score, bd, wd, moves, nodes in rows(
                           "SELECT generation, pair_index, black_id, white_id, score, black_discs, white_discs, "
                           "moves, nodes FROM games WHERE run_id = ?"))
        ratings = sorted((g, text[pid], _round(elo), _round(bt), _round(se), w, lost, d)
                         for g, pid, elo, bt, se, w, lost, d in rows(
                             "SELECT generation, player_id, elo, bt_rating, bt_stderr, wins, losses, draws "
                             "FROM rating_history WHERE run_id = ?"))
        yardstick = sorted((g, text[pid], opp, games_, _round(points), w, d, lost, sprt)
                           for g, pid, opp, games_, points, w, d, lost, sprt in rows(
                               "SELECT generation, player_id, opponent, games, points, wins, draws, losses, sprt "
                               "FROM yardstick_results WHERE run_id = ?"))
        hall_members = sorted((text[pid], entered) for pid, entered in rows(
            "SELECT player_id, entered FROM hall_members WHERE run_id = ?"))
        hall_games = sorted((g, i, text[b], text[w], score, nodes if effort else None)
                            for g, i, b, w, score, nodes in rows(
            "SELECT generation, game_index, black_id, white_id, score, nodes FROM hall_games WHERE run_id = ?"))
        hall_ratings = sorted((g, text[pid], _round(r), _round(se), n, _round(pts))
                              for g, pid, r, se, n, pts in rows(
                                  "SELECT generation, player_id, rating, stderr, games, points FROM hall_ratings "
                                  "WHERE run_id = ?"))
    finally:
        conn.close()
    return {
        "run": (name, seed, status, generation, max_generations, converge_baseline,
                json.dumps(config, sort_keys=True)),
        "players": players,
        "population": population,
        "generations": generations,
        "games": games,
        "ratings": ratings,
        "yardstick": yardstick,
        "hall_members": hall_members,
        "hall_games": hall_games,
        "hall_ratings": hall_ratings,
        "fitness": fitness,
    }


def snapshot_diff(a: dict[str, Any], b: dict[str, Any]) -> str:
    """A short account of where two snapshots differ (for assertion messages)."""
    lines = []
    for key in a:
        if a[key] != b.get(key):
            if isinstance(a[key], list):
                only_a = [r for r in a[key] if r not in b[key]][:3]
                only_b = [r for r in b[key] if r not in a[key]][:3]
                lines.append(f"{key}: {len(a[key])} vs {len(b[key])} rows; first only left {only_a}; "
                             f"first only right {only_b}")
            else:
                lines.append(f"{key}: {a[key]!r} != {b[key]!r}")
    return "\n".join(lines) or "equal"


def query(db_path: Path, sql: str, *params: Any) -> list[tuple]:
    """Rows of a read-only query (a missing database reads as no rows)."""
    if not Path(db_path).exists():
        return []
    conn = _connect_ro(db_path)
    try:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]
    except sqlite3.OperationalError:  # not created yet
        return []
    finally:
        conn.close()


# --------------------------------------------------------------------------- #
# Subprocesses (each has its own Ray)


#: The environment before this process started Ray: ray.init sets variables
#: (RAY_AUTH_MODE=token, ...) that would change how a subprocess's own Ray
#: starts (a cluster started with RAY_AUTH_MODE set finds no token).
_ENV_BEFORE_RAY = dict(os.environ)


def cli_env(home: Path) -> dict[str, str]:
    """The environment of a `genethello` subprocess: this process's as it
    was before Ray started, with an isolated HOME."""
    env = dict(_ENV_BEFORE_RAY)
    env["HOME"] = str(home)
    env.pop("RAY_ADDRESS", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def genethello_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "genethello.cluster.cli.main", *args]


def run_cli(*args: str, home: Path, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `genethello ARGS` to its end in a new session; on a timeout its
    whole process group (Ray included) is killed."""
    proc = subprocess.Popen(genethello_argv(*args), cwd=cwd, env=cli_env(home), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_session(proc)
        out, err = proc.communicate()
        raise AssertionError(f"genethello {' '.join(args)} timed out\nstdout:\n{out}\nstderr:\n{err}") from None
    finally:
        reap_session(proc.pid)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _proc_stats() -> dict[int, tuple[str, int, int, int]]:
    """pid -> (state, ppid, pgrp, session) of every process, from /proc."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry.name)] = (fields[0], int(fields[1]), int(fields[2]), int(fields[3]))
    return stats


def _ray_processes_of(driver: int, stats: dict[int, tuple[str, int, int, int]]) -> set[int]:
    """The Ray processes a local run's driver started (they run in sessions
    of their own: cluster/cli/quiet_ray.py): those whose command line names
    the driver's Ray session folder (``session_<date>_<driver pid>``), and
    their descendants (the workers, named ``ray::...``)."""
    found: set[int] = set()
    marker = f"_{driver}/".encode()
    for pid in stats:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"/session_" in cmdline and marker in cmdline:
            found.add(pid)
    grown = True
    while grown:
        children = {pid for pid, (_, ppid, _, _) in stats.items() if ppid in found} - found
        found |= children
        grown = bool(children)
    return found


def session_pids(sid: int) -> list[int]:
    """Processes of session ``sid`` (started with start_new_session: the sid
    is the leader's pid) and the Ray processes its driver started, read
    from /proc."""
    stats = _proc_stats()
    mine = {pid for pid, (_, _, _, session) in stats.items() if session == sid} | _ray_processes_of(sid, stats)
    return sorted(pid for pid in mine if pid in stats and stats[pid][0] != "Z")


def kill_session(proc: subprocess.Popen) -> None:
    """SIGKILL a subprocess started with start_new_session=True and every
    process of its session (its Ray: raylet, gcs, workers)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    reap_session(proc.pid)


def reap_session(sid: int, wait: float = 10.0) -> None:
    """Wait for the processes of session ``sid`` to end (they follow their
    driver); SIGKILL whatever is left after ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while session_pids(sid) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in session_pids(sid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
