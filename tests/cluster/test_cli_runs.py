"""The run commands as a user types them: `genethello` subprocesses, each
with its own Ray and an isolated HOME, on real database files. Each start
of Ray costs seconds, so the scenarios are few and small."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from genethello.cluster.db import Database
from genethello.cluster.reads import find_run
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import RayExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

from .conftest import (
    cli_env,
    db_snapshot,
    genethello_argv,
    kill_session,
    query,
    reap_session,
    run_cli,
    session_pids,
    snapshot_diff,
    write_config,
)

# Slower games (exact solving from 14 empties, ~20 ms a game) so that a
# generation of 56 lasts about a second: long enough to interrupt.
SLOW = dict(name="slow", population__size=8, games__depth=2, games__exact_empties=14,
            cluster__task_seconds=0.05)
SLOW_GAMES = 8 * 7


def wait_for(predicate, timeout: float, what: str, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the process ended (rc {proc.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def start_cli(*args: str, home: Path, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(genethello_argv(*args), cwd=cwd, env=cli_env(home), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def finish(proc: subprocess.Popen, timeout: float = 120) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_session(proc)
        out, err = proc.communicate()
        raise AssertionError(f"{proc.args} timed out\nstdout:\n{out}\nstderr:\n{err}") from None
    finally:
        reap_session(proc.pid)


@pytest.fixture
def home(tmp_path):
    path = tmp_path / "home"
    path.mkdir()
    return path


def games_in(db_path: Path, generation: int) -> int:
    rows = query(db_path, "SELECT count(*) FROM games WHERE generation = ?", generation)
    return rows[0][0] if rows else 0


# --------------------------------------------------------------------------- #


def test_evolve_then_every_report(tmp_path, home):
    config = write_config(tmp_path, name="tiny", yardstick__every=2, yardstick__games_per_opponent=2,
                          yardstick__depth=1)
    db = tmp_path / "tiny.db"
    r = run_cli("evolve", "--config", str(config), "--db", str(db), "--workers", "2", home=home, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "run tiny: finished at generation 3; best " in r.stdout
    assert "yardstick at generation 2" in r.stdout + r.stderr

    # The report commands only read: run them side by side.
    commands = {
        "runs": ["runs", "--db", str(db)],
        "status": ["status", "--db", str(db)],
        "best": ["best", "--db", str(db), "--top", "3"],
        "json": ["best", "--db", str(db), "--json", "--by", "elo"],
        "hall": ["best", "--db", str(db), "--json"],
        "history": ["history", "--db", str(db), "--run", "tiny"],
        "plot": ["plot", "--db", str(db), "--out", str(tmp_path / "x.png")],
    }
    procs = {k: start_cli(*argv, home=home, cwd=tmp_path) for k, argv in commands.items()}
    out = {}
    for key, proc in procs.items():
        stdout, stderr = finish(proc, 60)
        assert proc.returncode == 0, (key, stderr)
        out[key] = stdout

    # The best so far by the hall, as best and status give it (not the top Elo, a newborn's luck).
    listed = re.search(r"^\s*1 tiny\s+finished\s+3 oe_fmc\s+6  \S+ \S+  (\S+) \(hall [+-]\d+ ± \d+\)$",
                       out["runs"], re.M)
    assert listed and f"best so far: {listed[1]} hall " in out["status"], (out["runs"], out["status"])
    assert "run 1 tiny: finished, generation 3 of 3 (type oe_fmc, seed 11)" in out["status"]
    assert "generation 3: rated, 30/30 games" in out["status"]
    assert "driven by" not in out["status"]  # the lease was released

    best = json.loads(out["json"])
    players = query(db, "SELECT text, elo, wins, losses, draws FROM chromosomes")
    assert len(best) == min(10, len(players))
    assert [p["elo"] for p in best] == sorted((p["elo"] for p in best), reverse=True)
    assert best[0]["elo"] == max(e for _, e, *_ in players)
    assert {p["chromosome"]: (p["elo"], p["wins"], p["losses"], p["draws"]) for p in best} == {
        t: (e, w, lost, d) for t, e, w, lost, d in players if t in {p["chromosome"] for p in best}}
    # By default best ranks the hall of fame: its members, by their latest
    # hall rating (relative to generation 1's champion), with errors.
    hall = json.loads(out["hall"])
    stored = query(db, "SELECT c.text, h.rating, h.stderr FROM hall_ratings h JOIN chromosomes c "
                       "ON c.id = h.player_id WHERE h.generation = 3 ORDER BY h.rating DESC")
    assert [(p["chromosome"], p["hall_rating"], p["hall_stderr"]) for p in hall] == [tuple(r) for r in stored]
    first_champion = query(db, "SELECT c.text FROM hall_members h JOIN chromosomes c ON c.id = h.player_id "
                               "WHERE h.entered = 1")[0][0]
    assert {p["chromosome"]: p["hall_rating"] for p in hall}[first_champion] == 0.0
    # The yardstick measured the best so far at generations 1 and 2 (every 2, and the first).
    assert query(db, "SELECT DISTINCT generation FROM yardstick_results ORDER BY 1") == [(1,), (2,)]
    measured = query(db, "SELECT c.text, c.yardstick FROM chromosomes c JOIN yardstick_results y "
                         "ON y.player_id = c.id WHERE y.generation = 2")
    assert measured and all(ys is not None for _, ys in measured)
    assert f"best so far: {hall[0]['chromosome']}" in out["status"]

    table = [ln for ln in out["best"].splitlines() if ln.strip() and ln.split()[0].isdigit()]
    assert "ranked by hall" in out["best"] and "Bradley-Terry" in out["best"]
    assert "Elo, W/D/L: the player's round robins, on the population's own Elo scale" in out["best"]  # two scales
    assert [ln.split()[-1] for ln in table] == [p["chromosome"] for p in hall[:3]]

    rows = [ln.split() for ln in out["history"].splitlines() if ln.split() and ln.split()[0].isdigit()][:3]
    assert "hall (Elo): the best so far's hall rating ± one standard error, Elo vs generation 1's champion at " \
           "depth 1 (generation 1's champion = 0)" in out["history"]
    assert [(r[0], r[1], r[2]) for r in rows] == [("1", "bred", "30/30"), ("2", "bred", "30/30"),
                                                  ("3", "rated", "30/30")]
    # the best so far's hall rating with its error; the yardstick with its interval
    assert all("±" in " ".join(r) for r in rows)
    assert re.search(r"^\s*2\s.*\d+% \[\d+%,\d+%\]", out["history"], re.M), out["history"]
    assert "per opponent" in out["history"] and "othello-league" in out["history"]
    assert (tmp_path / "x.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # match: two of the run's chromosomes at depth 2, both colours; A given
    # by its database id (looked up through the command's context).
    a, b = best[0]["chromosome"], best[1]["chromosome"]
    r = run_cli("match", str(best[0]["id"]), b, "--depth", "2", "--db", str(db), "--games", "2", "--verbose",
                home=home, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("game ") == 2 and f"A = {best[0]['id']} ({a})" in r.stdout and f"B = {b}\n" in r.stdout
    score = re.search(r"^A ([\d.]+) - ([\d.]+) B \(2 games", r.stdout, re.M)
    assert score and float(score[1]) + float(score[2]) == 2


def test_runs_lists_a_run_that_has_no_players_yet(tmp_path, home):
    db_path = tmp_path / "empty.db"
    db = Database.open(db_path, create=True)
    try:
        create_run(db, load_config(write_config(tmp_path, name="fresh")))
    finally:
        db.dispose()
    r = run_cli("runs", "--db", str(db_path), home=home, cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r.stderr
    assert re.search(r"^\s*1 fresh\s+running\s+0 oe_fmc\s+6  \d{4}-\d\d-\d\d \d\d:\d\d  -$", r.stdout, re.M), r.stdout


# --------------------------------------------------------------------------- #
# SIGKILL at chosen points, observed from outside
#
# The killer polls the database read-only and the kernel's lock table. When
# the run is at the wanted point it freezes the coordinator (SIGSTOP), checks
# again on the frozen process (whose state can no longer move), and only then
# kills its whole session; otherwise it lets it go on (SIGCONT) and keeps
# watching. No hook in the product: the points are what an outside observer
# sees. SQLite's WAL write lock is byte 120 of the -shm file (UNIX_SHM_BASE;
# WAL_WRITE_LOCK is lock 0): the coordinator holds it exactly while a write
# transaction is open (the stores begin IMMEDIATE).

#: Depth-1 games (SMALL_RUN's), a population of 8 (56 games a generation)
#: and several generations, so that every point comes round more than once.
KILLS = dict(name="kills", population__size=8, stop__max_generations=7)
KILL_GAMES = 8 * 7
KILL_SEED = 20261130
_WAL_WRITE_LOCK_BYTE = 120


def holds_write_lock(pid: int, shm: Path) -> bool:
    """Whether process ``pid`` holds SQLite's WAL write lock of the database
    whose shared-memory file is ``shm`` (read from /proc/locks)."""
    try:
        inode = os.stat(shm).st_ino
        table = Path("/proc/locks").read_text()
    except OSError:
        return False
    for line in table.splitlines():
        fields = line.split()
        if "->" in fields:      # a waiter, not a holder
            continue
        # N: POSIX ADVISORY WRITE PID MAJ:MIN:INODE START END
        if len(fields) < 8 or fields[1] != "POSIX" or fields[3] != "WRITE" or int(fields[4]) != pid:
            continue
        end = int(fields[7]) if fields[7] != "EOF" else float("inf")
        if int(fields[5].rsplit(":", 1)[1]) == inode and int(fields[6]) <= _WAL_WRITE_LOCK_BYTE <= end:
            return True
    return False


class Watcher:
    """Read-only views of a run driven by process ``pid`` (one connection,
    reused: each SELECT outside a transaction reads the newest commit)."""

    def __init__(self, db_path: Path, pid: int) -> None:
        self.db_path, self.pid = db_path, pid
        self.conn: sqlite3.Connection | None = None
        self.last: tuple | None = None
        self.changed_at = time.monotonic()

    def state(self) -> tuple[int, str, int, int] | None:
        """(generation, status, games done, games total) of the newest
        generation, once ``pid`` holds the run's lease (what an earlier,
        killed process left does not count); None before."""
        if self.conn is None:
            if not Path(f"{self.db_path}-shm").exists():
                return None
            self.conn = sqlite3.connect(f"{self.db_path.absolute().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            state = self.conn.execute(
                "SELECT g.number, g.status, g.games_done, g.games_total FROM generations g JOIN runs r "
                "ON r.id = g.run_id WHERE r.lease_pid = ? ORDER BY g.number DESC LIMIT 1", (self.pid,)).fetchone()
        except sqlite3.OperationalError:      # the tables are not there yet
            return None
        if state != self.last:
            self.last, self.changed_at = state, time.monotonic()
        return state

    def pause(self) -> None:
        """Sleep until the next look: briefly while the run moves (the
        rating and breeding windows last milliseconds), longer while it
        stands still (Ray starting), leaving the two cores to the run."""
        time.sleep(0.0005 if time.monotonic() - self.changed_at < 0.5 else 0.01)

    def writing(self) -> bool:
        return holds_write_lock(self.pid, Path(f"{self.db_path}-shm"))

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def kill_point(name: str, rng: random.Random, first: int) -> Callable[[Watcher], bool]:
    """The predicate of a kill point, from generation ``first`` on (seeded
    choices drawn from ``rng``):

    * between commits: generation playing, at least a seeded number of its
      games stored (1..half), not all, and no write transaction open;
    * inside a commit: generation playing, not all games stored, a write
      transaction open (a batch of games being committed: the lease renewal,
      the only other write while playing, comes every 10 s);
    * during rating: every game stored, the generation not yet rated;
    * during breeding: the generation rated, the next not yet started, and
      it is not the last.
    """
    threshold = rng.randint(1, KILL_GAMES // 2)
    last = int(KILLS["stop__max_generations"])

    def reached(w: Watcher) -> bool:
        state = w.state()
        if state is None or state[0] < first:
            return False
        g, status, done, total = state
        if name == "between commits":
            return status == "playing" and threshold <= done < total and not w.writing()
        if name == "inside a commit":
            return status == "playing" and done < total and w.writing()
        if name == "during rating":
            return status == "playing" and done == total
        if name == "during breeding":
            return status == "rated" and g < last
        raise ValueError(name)

    return reached


class RayDidNotStart(AssertionError):
    """The run ended before the kill because its Ray could not start."""


def kill_when(proc: subprocess.Popen, watcher: Watcher, reached: Callable[[Watcher], bool], what: str,
              timeout: float = 120) -> tuple:
    """SIGKILL ``proc``'s session once ``reached`` holds on the frozen
    coordinator; returns the state it was killed in.

    Raises:
        RayDidNotStart: if the run ended saying its Ray could not start.
        AssertionError: if it ended otherwise, or ``timeout`` passed.
    """
    deadline = time.monotonic() + timeout
    try:
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read()
                ended = RayDidNotStart if "could not start or join a local Ray instance" in err else AssertionError
                raise ended(f"the run ended (rc {proc.returncode}) before {what}: {err}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            if reached(watcher):
                os.kill(proc.pid, signal.SIGSTOP)
                if reached(watcher):
                    state = watcher.state()
                    kill_session(proc)
                    proc.communicate()
                    return state
                os.kill(proc.pid, signal.SIGCONT)
            watcher.pause()
    finally:
        watcher.close()
        running = proc.poll() is None
        kill_session(proc)      # also what a failed start may have left of its Ray
        if running:
            proc.communicate()


def start_and_kill(argv: list[str], db: Path, reached: Callable[[Watcher], bool], what: str, home: Path,
                   cwd: Path, attempts: int = 3) -> tuple[subprocess.Popen, tuple]:
    """Start `genethello ARGV` and kill it at ``reached`` (see kill_when);
    returns the process and the state it was killed in. On a loaded machine
    Ray's own start may time out (its raylet waits 30 s for its agents): that
    start is tried again, as `resume` once the run exists, since what is
    tested here is the kill, not Ray's start-up."""
    for attempt in range(1, attempts + 1):
        proc = start_cli(*argv, home=home, cwd=cwd)
        try:
            return proc, kill_when(proc, Watcher(db, proc.pid), reached, what)
        except RayDidNotStart:
            if attempt == attempts:
                raise
            if query(db, "SELECT id FROM runs"):
                argv = ["resume", "--db", str(db), "--workers", "1", "--quiet"]
    raise AssertionError("unreachable")


def check_prefix(killed: dict, reference: dict, what: str) -> None:
    """What a killed run stored is what the uninterrupted run stored: every
    game, rating and population slot, and every rated generation's summary."""
    for key in ("games", "ratings", "population"):
        extra = [row for row in killed[key] if row not in set(reference[key])]
        assert not extra, f"after a kill {what}: {key} not in the uninterrupted run: {extra[:3]}"
    finished = {row[0]: row[2:] for row in reference["generations"]}
    for number, status, *rest in killed["generations"]:
        if status != "playing":
            assert tuple(rest) == finished[number], f"after a kill {what}: generation {number} differs"


def test_killed_evolve_resumes_to_the_same_content(tmp_path, home, ray_cluster):
    """SIGKILL at seeded points across one small run, resuming after each:
    between commits (the evolve), inside a commit, during rating, during
    breeding (each a `genethello` process with one worker); a last resume
    finishes. After every kill the database holds a prefix of the
    uninterrupted run; the finished one equals it."""
    config = write_config(tmp_path, **KILLS)

    # The uninterrupted run (this process's Ray).
    ref_db = Database.open(tmp_path / "ref.db", create=True)
    cfg = load_config(config)
    run_id = create_run(ref_db, cfg)
    executor = RayExecutor(2, cfg.cluster.task_seconds, cfg.cluster.max_in_flight_per_worker)
    assert Coordinator(ref_db, run_id, executor, Progress(enabled=False)).run() == "finished"
    ref_db.dispose()
    reference = db_snapshot(tmp_path / "ref.db", "kills")

    db = tmp_path / "killed.db"
    rng = random.Random(KILL_SEED)
    first = rng.randint(1, 2)
    proc, (g, status, done, total) = start_and_kill(
        ["evolve", "--config", str(config), "--db", str(db), "--workers", "1", "--quiet"], db,
        kill_point("between commits", rng, first), "a kill between commits", home, tmp_path)
    assert proc.returncode == -signal.SIGKILL
    assert session_pids(proc.pid) == []
    assert status == "playing" and 0 < done < total == KILL_GAMES
    assert games_in(db, g) == done
    (run_status, generation, pid, expires), = query(
        db, "SELECT status, generation, lease_pid, lease_expires FROM runs")
    assert (run_status, generation, pid) == ("running", g, proc.pid)  # died holding the lease
    assert expires > time.time() + 5  # still valid: only the dead pid lets resume take it
    check_prefix(db_snapshot(db, "kills"), reference, "between commits")

    # Each resume takes over the lease of the dead process on this host at
    # once (its 30 s have not run out: a live holder would be refused).
    for point in ("inside a commit", "during rating", "during breeding"):
        first = query(db, "SELECT max(number) FROM generations")[0][0] + rng.randint(0, 1)
        proc, (g, status, done, total) = start_and_kill(
            ["resume", "--db", str(db), "--workers", "1", "--quiet"], db, kill_point(point, rng, first),
            f"a kill {point}", home, tmp_path)
        assert proc.returncode == -signal.SIGKILL and session_pids(proc.pid) == [], point
        # The transaction the kill cut is wholly there or wholly absent: its
        # commit record may have reached the WAL just before the kill, ahead
        # of what readers were shown.
        (after,), = query(db, "SELECT games_done FROM generations WHERE number = ?", g)
        assert after == games_in(db, g) >= done, (point, after, done)
        check_prefix(db_snapshot(db, "kills"), reference, point)

    # The last resume runs here, on this process's Ray (a fifth Ray of its
    # own would add seconds and prove nothing more).
    last = Database.open(db, create=False, writable=True)
    try:
        coordinator = Coordinator(last, find_run(last, "kills").id, executor, Progress(enabled=False))
        assert coordinator.run() == "finished"
    finally:
        last.dispose()
    a = db_snapshot(db, "kills")
    assert a == reference, snapshot_diff(a, reference)


def test_stop_from_another_process_then_resume(tmp_path, home):
    config = write_config(tmp_path, **{**SLOW, "stop__max_generations": 6})
    db = tmp_path / "stop.db"
    proc = start_cli("evolve", "--config", str(config), "--db", str(db), "--quiet", home=home, cwd=tmp_path)
    try:
        wait_for(lambda: games_in(db, 1) > 0, 120, "games of generation 1", proc)
        r = run_cli("stop", "--db", str(db), home=home, cwd=tmp_path)
        assert r.returncode == 0 and "asked run slow to stop" in r.stdout, (r.stdout, r.stderr)
        out, err = finish(proc, 120)
    finally:
        if proc.poll() is None:
            kill_session(proc)
    assert proc.returncode == 0, err
    stopped = re.search(r"run slow: stopped at generation (\d+)", out)
    assert stopped, out
    assert query(db, "SELECT status, generation, lease_owner FROM runs") == [("stopped", int(stopped[1]), None)]
    assert int(stopped[1]) < 6

    r = run_cli("resume", "--db", str(db), "--quiet", home=home, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "run slow: finished at generation 6" in r.stdout
    assert not list(tmp_path.glob("stop.db.stop-*"))  # the old request was cleared at the start
    assert query(db, "SELECT count(*), sum(games_done), sum(games_total) FROM generations") == [
        (6, 6 * SLOW_GAMES, 6 * SLOW_GAMES)]
    assert query(db, "SELECT count(DISTINCT generation || '/' || pair_index) FROM games") == [(6 * SLOW_GAMES,)]


def test_locked_database_is_one_clear_line(tmp_path, home):
    db = tmp_path / "locked.db"
    Database.open(db, create=True).dispose()
    config = write_config(tmp_path)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        procs = [start_cli(*argv, home=home, cwd=tmp_path) for argv in (
            ["evolve", "--config", str(config), "--db", str(db)],
            ["status", "--db", str(db)])]
        results = [(p, *finish(p, 60)) for p in procs]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    (evolve, _, evolve_err), (status, _, status_err) = results
    assert evolve.returncode == 2, evolve_err
    lines = evolve_err.strip().splitlines()
    assert len(lines) == 1, evolve_err
    assert lines[0].startswith("genethello evolve: error: database ") and "is locked" in lines[0]
    # A reader is not refused: in WAL mode it reads the last committed state
    # while a writer holds the lock (a running run's long write transactions).
    assert (status.returncode, status_err.strip()) == (2, f"genethello status: error: {db} holds no runs yet")
    assert not (home / ".ray").exists()  # refused before Ray started
    assert query(db, "SELECT count(*) FROM runs") == [(0,)]  # nothing written


@pytest.mark.skipif(__import__("shutil").which("gtp-rhino", path=os.environ.get("PATH", "") + ":/usr/games")
                    is None, reason="gtp-rhino is not installed (tests/install_system_packages.sh)")
def test_match_against_a_gtp_engine_prints_the_score_with_its_interval(tmp_path, home):
    r = run_cli("match", "p_1_10", "--gtp", "gtp-rhino -l 1", "--depth", "1", "--games", "2",
                "--random-plies", "2", "--verbose", home=home, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("game ") == 2 and "B = gtp-rhino -l 1" in r.stdout
    # each game as plain match --verbose prints it: A's colour, moves, discs, the result
    assert len(re.findall(r"^game \d \(A (black|white)\): [a-h1-8]+ \d+-\d+ \((draw|(black|white) wins by \d+)\)$",
                          r.stdout, re.M)) == 2, r.stdout
    assert re.search(r"^A scores [\d.]+% \[[\d.]+%, [\d.]+%\] 95% \(W/D/L \d+/\d+/\d+\)", r.stdout, re.M), r.stdout
    r = run_cli("match", "p_1_10", "--gtp", "no-such-engine", "--depth", "1", home=home, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "no-such-engine" in r.stderr


def test_resume_of_a_finished_run_says_so_before_starting_ray(tmp_path, home):
    """A finished run needs --max-generations to go on: resume says so at
    once (it used to start Ray first, 10 s, and not name the option)."""
    db = tmp_path / "done.db"
    db.write_bytes((Path(__file__).parent / "data" / "run-0003.sqlite").read_bytes())
    Database.open(db, create=False, writable=True).dispose()          # upgraded to the newest schema
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET status = 'finished'")
    started = time.monotonic()
    r = run_cli("resume", "--db", str(db), home=home, cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout == "run t: finished at generation 2, its last; 'genethello resume --max-generations 12' " \
                       "extends it by 10\n"
    assert time.monotonic() - started < 8, "it started Ray"


def test_a_stored_run_name_is_shown_with_its_control_characters_escaped(tmp_path, home):
    """Issue 37 §9: escape codes and newlines in a stored name were printed
    raw by ``runs`` and ``export`` (a name could recolour the terminal or
    forge a line). ``status`` says the database's size (§1)."""
    db_path = tmp_path / "named.db"
    db = Database.open(db_path, create=True)
    try:
        create_run(db, load_config(write_config(tmp_path, name="fresh")))
    finally:
        db.dispose()
    with sqlite3.connect(db_path) as connection:
        connection.execute("UPDATE runs SET name = ?", ("evil\x1b[31m\nrun 2: finished\u202e",))
    for argv in (("runs",), ("status",), ("export", "--format", "sgf", "--out", str(tmp_path / "out"))):
        r = run_cli(*argv, "--db", str(db_path), home=home, cwd=tmp_path, timeout=60)
        shown = r.stdout + r.stderr
        assert "\x1b" not in shown and "\u202e" not in shown and "\nrun 2: finished" not in shown, shown
        assert "evil\\x1b[31m\\nrun 2: finished\\u202e" in shown, shown
        if argv == ("status",):
            assert re.search(r"^database: [\d.]+ (kB|MB) \(", r.stdout, re.M), r.stdout
