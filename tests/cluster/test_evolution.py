"""Whole runs in this process: the Coordinator driving the session's Ray (or
the serial executor) on real SQLite files. What is stored must be a function
of the config and the seed alone: workers, batches, interruptions and
resumes never change it."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import subprocess
import threading
from collections import defaultdict
from pathlib import Path

import pytest

from genethello.cluster.cli.main import main as cli_main
from genethello.cluster.config import SECTIONS, ConfigError, RunConfig
from genethello.cluster.db import Database, LeaseHeldError
from genethello.cluster.reads import find_run
from genethello.cluster.run.coordinator import Coordinator, create_run, stop_file
from genethello.cluster.run.executors import CoreMismatchError, RayExecutor, SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import config_from_mapping, load_config
from genethello.core.families.chromosome import Chromosome

from .conftest import SMALL_RUN, cli_env, db_snapshot, genethello_argv, query, snapshot_diff, write_config

P = SMALL_RUN["population.size"]
GAMES = P * (P - 1)
START = 1500.0
HALL = SMALL_RUN["hall.games_per_member"]


# --------------------------------------------------------------------------- #
# Helpers


class Batches:
    """An executor wrapper: hands the inner executor batches of at most
    ``cap`` games (more batches, more interleaving) and calls ``hook(batch)``
    for each batch it hands out. Batch sizes never change what is stored."""

    def __init__(self, inner, cap: int = 2, hook=None) -> None:
        self.inner = inner
        self.workers = inner.workers
        self.cap = cap
        self.hook = hook

    def run(self, task, next_batch, should_stop):
        def source(size: int):
            batch = next_batch(min(size, self.cap))
            if batch and self.hook is not None:
                self.hook(batch)
            return batch
        return self.inner.run(task, source, should_stop)

    def close(self) -> None:
        self.inner.close()


def ray_executor(config_path: Path, workers: int = 2) -> RayExecutor:
    cfg = load_config(config_path).cluster
    return RayExecutor(workers, cfg.task_seconds, cfg.max_in_flight_per_worker)


def new_run(db_path: Path, config_path: Path) -> tuple[Database, int]:
    db = Database.open(db_path, create=True)
    return db, create_run(db, load_config(config_path))


def drive(db: Database, run_id: int, executor) -> str:
    return Coordinator(db, run_id, executor, Progress(enabled=False)).run()


def evolve(db_path: Path, config_path: Path, executor) -> str:
    db, run_id = new_run(db_path, config_path)
    try:
        return drive(db, run_id, executor)
    finally:
        db.dispose()


def assert_same(a: dict, b: dict) -> None:
    assert a == b, snapshot_diff(a, b)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The small run played serially in this process: the content every
    other way of playing it must reproduce."""
    folder = tmp_path_factory.mktemp("reference")
    config = write_config(folder)
    assert evolve(folder / "ref.db", config, SerialExecutor(task_seconds=0.001)) == "finished"
    return db_snapshot(folder / "ref.db", "t")


@pytest.fixture
def cli_log_handlers():
    """`genethello resume` run in-process adds a log file handler; take it off after."""
    logger = logging.getLogger("genethello")
    before = list(logger.handlers)
    level = logger.level
    yield
    for handler in logger.handlers[:]:
        if handler not in before:
            logger.removeHandler(handler)
            handler.close()
    logger.setLevel(level)


# --------------------------------------------------------------------------- #
# A whole run


def test_end_to_end_run(ray_cluster, tmp_path, reference):
    config = write_config(tmp_path)
    db_path = tmp_path / "e2e.db"
    assert evolve(db_path, config, ray_executor(config)) == "finished"
    snap = db_snapshot(db_path, "t")
    name, seed, status, generation, max_generations, converge_baseline, _ = snap["run"]
    assert (name, seed, status, generation, max_generations, converge_baseline) == ("t", 11, "finished", 3, 3, 0)
    assert query(db_path, "SELECT lease_owner FROM runs") == [(None,)]

    # Generations: 3, each with all its games, the last one rated.
    gens = snap["generations"]
    assert [(n, st, total, done) for n, st, total, done, *_ in gens] == [
        (1, "bred", GAMES, GAMES), (2, "bred", GAMES, GAMES), (3, "rated", GAMES, GAMES)]

    # Populations: P distinct players in every generation.
    population = defaultdict(list)
    for g, _slot, text, *_origin in snap["population"]:
        population[g].append(text)
    assert sorted(population) == [1, 2, 3]
    for g, members in population.items():
        assert len(members) == len(set(members)) == P, g

    # Games: each ordered pair of members once per generation, nothing else.
    by_gen = defaultdict(list)
    for g, index, black, white, score, bd, wd, moves, nodes in snap["games"]:
        by_gen[g].append((index, black, white))
        assert black != white and black in population[g] and white in population[g]
        assert score == bd - wd or (bd + wd < 64 and abs(score) > abs(bd - wd))  # empties to the winner
        assert moves and nodes > 0
    for g in (1, 2, 3):
        assert sorted(i for i, _, _ in by_gen[g]) == list(range(GAMES))
        assert {(b, w) for _, b, w in by_gen[g]} == {(b, w) for b in population[g] for w in population[g] if b != w}

    # W/L/D: each player's record is its games; in all, two results a game.
    players = {t: (birth, death, elo, w, lost, d) for t, birth, death, elo, w, lost, d, *_ in snap["players"]}
    gens_of = defaultdict(list)
    for g, members in population.items():
        for text in members:
            gens_of[text].append(g)
    assert set(players) == set(gens_of)
    for text, (birth, death, _elo, w, lost, d) in players.items():
        assert w + lost + d == 2 * (P - 1) * len(gens_of[text]), text
        assert death == max(gens_of[text]) and birth == Chromosome.parse(text).birth
    assert sum(w + lost + d for *_, w, lost, d in players.values()) == 2 * 3 * GAMES

    # Rating history: per generation, W/L/D of that generation only; Elo is
    # zero-sum, so the Elo changes of a generation's members add up to 0.
    history = defaultdict(dict)
    for g, text, elo, _bt, _se, w, lost, d in snap["ratings"]:
        history[g][text] = (elo, w, lost, d)
    last_elo: dict[str, float] = {}
    for g in (1, 2, 3):
        assert set(history[g]) == set(population[g])
        assert sum(w + lost + d for _, w, lost, d in history[g].values()) == 2 * GAMES
        changes = [elo - last_elo.get(text, START) for text, (elo, *_) in history[g].items()]
        assert abs(sum(changes)) < 1e-6, (g, sum(changes))
        mean = sum(elo for elo, *_ in history[g].values()) / P
        assert gens[g - 1][5] == pytest.approx(mean)
        last_elo.update({text: elo for text, (elo, *_) in history[g].items()})
        # Champion: the top of the generation's own round robin (points, then
        # the older birth, then the text); the elites are its top two.
        ranked = sorted(population[g], key=lambda t: (-(history[g][t][1] + history[g][t][3] / 2),
                                                      Chromosome.parse(t).birth, t))
        if g < 3:
            assert population[g + 1][:2] == ranked[:2], g
        # The champion is in the hall (entered now, unless it already was).
        assert ranked[0] in {t for t, entered in snap["hall_members"] if entered <= g}
        # Best so far: the top of the hall's ratings after this generation.
        ratings = {t: r for gg, t, r, *_ in snap["hall_ratings"] if gg == g}
        assert gens[g - 1][4] == max(ratings, key=lambda t: (ratings[t], -dict(snap["hall_members"])[t]))
    assert {t: e for t, (_, _, e, *_) in players.items()} == last_elo

    # The hall: generation 1's champion is the anchor (0 ± 0); each entrant
    # played HALL games against the members before it, half with each colour.
    members = sorted(snap["hall_members"], key=lambda m: m[1])
    first = members[0][0]
    assert all(r == 0 and se == 0 for _, t, r, se, *_ in snap["hall_ratings"] if t == first)
    for text, entered in members[1:]:
        games = [(b, w) for g, _, b, w, *_ in snap["hall_games"] if g == entered]
        assert len(games) == HALL and all(text in (b, w) for b, w in games), text
        assert sum(b == text for b, _ in games) == HALL // 2

    # And it is the very content of the serial run.
    assert_same(snap, reference)


def test_one_or_two_workers_and_serial_store_the_same(ray_cluster, tmp_path, reference):
    config = write_config(tmp_path)
    for workers, cap in ((1, 1), (2, 3)):
        db_path = tmp_path / f"w{workers}.db"
        assert evolve(db_path, config, Batches(ray_executor(config, workers), cap=cap)) == "finished"
        assert_same(db_snapshot(db_path, "t"), reference)
    # Serially, in batches of a single game.
    assert evolve(tmp_path / "serial.db", config, Batches(SerialExecutor(0.001), cap=1)) == "finished"
    assert_same(db_snapshot(tmp_path / "serial.db", "t"), reference)


class Duplicating(Batches):
    """Yields every batch twice in one list, and the previous batch again
    after it: what a batch played again after a lost worker looks like."""

    def run(self, task, next_batch, should_stop):
        previous = []
        for outcomes in super().run(task, next_batch, should_stop):
            yield outcomes + outcomes
            if previous:
                yield previous
            previous = outcomes


def test_a_result_that_comes_twice_is_stored_once(ray_cluster, tmp_path, reference):
    config = write_config(tmp_path)
    db_path = tmp_path / "twice.db"
    assert evolve(db_path, config, Duplicating(ray_executor(config), cap=3)) == "finished"
    assert query(db_path, "SELECT number, games_done FROM generations") == [(g, GAMES) for g in (1, 2, 3)]
    assert_same(db_snapshot(db_path, "t"), reference)


# --------------------------------------------------------------------------- #
# Stopping, resuming, leases


def stop_in_generation(db: Database, run_id: int, generation: int, after_batches: int):
    """A hook that asks the run to stop (the stop file, as `genethello stop`
    writes it) when the given batch of ``generation``'s round robin is handed
    out (the generation the run plays: the newest, still ``playing``)."""
    seen = []

    def hook(batch):
        newest = query(db.path, "SELECT number, status FROM generations WHERE run_id = ? ORDER BY number DESC "
                                "LIMIT 1", run_id)
        if newest == [(generation, "playing")]:
            seen.append(batch)
            if len(seen) == after_batches:
                stop_file(db, run_id).write_text("stop\n")
    return hook


def test_interrupted_run_resumes_to_the_same_content(ray_cluster, tmp_path, reference):
    config = write_config(tmp_path)
    db, run_id = new_run(tmp_path / "stopped.db", config)
    try:
        hook = stop_in_generation(db, run_id, generation=2, after_batches=3)
        assert drive(db, run_id, Batches(ray_executor(config), cap=2, hook=hook)) == "stopped"
        run = find_run(db, run_id)
        assert (run.status, run.generation, run.lease_owner) == ("stopped", 2, None)
        done = query(db.path, "SELECT count(*) FROM games WHERE generation = 2")[0][0]
        assert 0 < done <= 6  # the three batches handed out, nothing after the stop
        assert query(db.path, "SELECT status, games_done FROM generations WHERE number = 2") == [("playing", done)]
        assert query(db.path, "SELECT count(*) FROM games WHERE generation = 1")[0][0] == GAMES

        # A new coordinator (the stop file is cleared when it starts) finishes the run.
        assert drive(db, run_id, ray_executor(config)) == "finished"
        assert not stop_file(db, run_id).exists()
    finally:
        db.dispose()
    assert_same(db_snapshot(tmp_path / "stopped.db", "t"), reference)


def raw_dump(db_path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, ids, timestamps and leases included."""
    tables = [t for (t,) in query(db_path, "SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: sorted(query(db_path, f"SELECT * FROM {t}"), key=repr) for t in tables}


def test_second_coordinator_on_a_leased_run_is_refused(ray_cluster, tmp_path, reference):
    config = write_config(tmp_path)
    db, run_id = new_run(tmp_path / "leased.db", config)
    holding, release = threading.Event(), threading.Event()

    def hold(batch):
        holding.set()
        assert release.wait(60)

    first = Coordinator(db, run_id, Batches(ray_executor(config), hook=hold), Progress(enabled=False))
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("status", first.run()))
    thread.start()
    try:
        assert holding.wait(60)
        before = raw_dump(db.path)
        assert before["runs"][0][-4:-2] != (None, None)  # lease host and pid are set
        # Refused: it writes nothing (not even the extension it was asked
        # for) and starts no workers.
        def no_workers(cluster):
            raise AssertionError("a refused coordinator started workers")

        second = Coordinator(db, run_id, None, Progress(enabled=False), make_executor=no_workers)
        with pytest.raises(LeaseHeldError) as err:
            second.run(extend_to=99)
        assert first.owner in str(err.value)
        assert raw_dump(db.path) == before
    finally:
        release.set()
        thread.join(120)
    assert result == {"status": "finished"}
    db.dispose()
    assert_same(db_snapshot(tmp_path / "leased.db", "t"), reference)


def test_worker_with_another_core_is_refused(ray_cluster, tmp_path, reference):
    config = write_config(tmp_path)
    db, run_id = new_run(tmp_path / "core.db", config)
    try:
        hook = stop_in_generation(db, run_id, generation=1, after_batches=4)
        assert drive(db, run_id, Batches(ray_executor(config), cap=2, hook=hook)) == "stopped"
        committed = query(db.path, "SELECT generation, pair_index, score, nodes FROM games ORDER BY pair_index")
        assert 0 < len(committed) < GAMES

        executor = ray_executor(config)
        executor.fingerprint = "0.0.0+deadbeef"
        with pytest.raises(CoreMismatchError) as err:
            drive(db, run_id, executor)
        message = str(err.value)
        assert "0.0.0+deadbeef" in message and "core" in message and "\n" not in message
        assert query(db.path, "SELECT generation, pair_index, score, nodes FROM games ORDER BY pair_index") == committed
        run = find_run(db, run_id)
        assert run.lease_owner is None and run.status == "failed"

        # With matching workers the run goes on from what was committed.
        assert drive(db, run_id, ray_executor(config)) == "finished"
    finally:
        db.dispose()
    assert_same(db_snapshot(tmp_path / "core.db", "t"), reference)


def test_resume_extends_a_finished_run(ray_cluster, tmp_path, capsys, cli_log_handlers):
    config = write_config(tmp_path)
    db_path = tmp_path / "extend.db"
    assert evolve(db_path, config, ray_executor(config)) == "finished"
    assert cli_main(["resume", "--db", str(db_path), "--max-generations", "4", "--workers", "2", "--quiet"]) == 0
    assert "finished at generation 4" in capsys.readouterr().out

    # The same as a run configured for 4 generations from the start.
    config4 = write_config(tmp_path, "four.toml", stop__max_generations=4)
    assert evolve(tmp_path / "four.db", config4, SerialExecutor(0.001)) == "finished"
    assert_same(db_snapshot(db_path, "t"), db_snapshot(tmp_path / "four.db", "t"))


def first_repeat(bests: list, after: int) -> int | None:
    """The first generation g (1-based) whose best equals generation g-1's,
    both after generation ``after``: where converge_generations=1 stops."""
    for g in range(after + 2, len(bests) + 1):
        if bests[g - 1] == bests[g - 2]:
            return g
    return None


def test_converged_run_stops_and_can_be_extended(ray_cluster, tmp_path, capsys, cli_log_handlers):
    # Four elites of six: the best so far tends to stay, so the run converges
    # (at the first generation whose best equals the one before).
    config = write_config(tmp_path, breeding__elites=4, stop__converge_generations=1, stop__max_generations=40)
    db_path = tmp_path / "converge.db"
    assert evolve(db_path, config, ray_executor(config)) == "converged"
    bests = [b for (b,) in query(db_path, "SELECT best_player_id FROM generations ORDER BY number")]
    converged_at = len(bests)
    assert first_repeat(bests, 0) == converged_at < 40
    assert query(db_path, "SELECT status, generation FROM runs") == [("converged", converged_at)]

    # Resuming with --max-generations counts convergence afresh from there:
    # the best must stay through two new generations.
    limit = converged_at + 30
    assert cli_main(["resume", "--db", str(db_path), "--max-generations", str(limit), "--workers", "2",
                     "--quiet"]) == 0
    bests = [b for (b,) in query(db_path, "SELECT best_player_id FROM generations ORDER BY number")]
    again = first_repeat(bests, converged_at)
    status, generation = query(db_path, "SELECT status, generation FROM runs")[0]
    if again is None:
        assert (status, generation) == ("finished", limit)
    else:
        assert (status, generation) == ("converged", again) and again >= converged_at + 2
        assert f"converged at generation {again}" in capsys.readouterr().out
    assert query(db_path, "SELECT count(*), sum(games_done) FROM generations") == [(generation, generation * GAMES)]


# --------------------------------------------------------------------------- #
# Retention


def test_retention_keeps_results_and_only_the_best_players_moves(ray_cluster, tmp_path, reference):
    config = write_config(tmp_path, storage__keep_moves_generations=1)
    db_path = tmp_path / "retention.db"
    assert evolve(db_path, config, ray_executor(config)) == "finished"
    snap = db_snapshot(db_path, "t")
    best = {g: text for g, _, _, _, text, *_ in snap["generations"]}
    kept = defaultdict(int)
    for g, _, black, white, _, _, _, moves, _ in snap["games"]:
        if g == 3:
            assert moves, "the last generation keeps every move list"
        elif best[g] in (black, white):
            assert moves, (g, black, white)
            kept[g] += 1
        else:
            assert moves is None, (g, black, white)
    # The best of each old generation was in it (elites carry it): its games kept.
    assert kept == {1: 2 * (P - 1), 2: 2 * (P - 1)}
    # Results stay: the games are the reference's, move lists aside.
    strip = lambda games: [row[:7] + row[8:] for row in games]  # noqa: E731
    assert strip(snap["games"]) == strip(reference["games"])
    for key in ("players", "population", "generations", "ratings"):
        assert snap[key] == reference[key], key


# --------------------------------------------------------------------------- #
# Bad configs: refused before anything is written


BAD_CONFIGS = {
    "unknown key": ({"games__speed": 3}, "games.speed"),
    "wrong type": ({"population__size": "six"}, "population.size"),
    "out of range": ({"games__depth": 0}, "games.depth"),
    "unknown chromosome type": ({"population__type": "zz_top"}, "population.type"),
    "nan Elo K": ({"rating__k": float("nan")}, "rating.k"),
    "nan parent fraction": ({"breeding__parent_fraction": float("nan")}, "breeding.parent_fraction"),
    "infinite commit interval": ({"cluster__commit_every_seconds": float("inf")}, "cluster.commit_every_seconds"),
}


def test_bad_configs_are_refused_with_one_line(tmp_path):
    procs = {}
    for label, (overrides, _) in BAD_CONFIGS.items():
        folder = tmp_path / label.replace(" ", "-")
        folder.mkdir()
        config = write_config(folder, **overrides)
        procs[label] = (folder, subprocess.Popen(
            genethello_argv("evolve", "--config", str(config), "--db", str(folder / "bad.db")),
            cwd=folder, env=cli_env(folder), text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    for label, (folder, proc) in procs.items():
        out, err = proc.communicate(timeout=60)
        key = BAD_CONFIGS[label][1]
        assert proc.returncode == 2, (label, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("genethello evolve: error: ") and key in lines[0], (label, err)
        assert not (folder / "bad.db").exists() and not (folder / "genethello.db").exists(), label
        assert not (folder / ".ray").exists(), label  # Ray never started


FLOAT_KEYS = [f"{section}.{f.name}" for section, cls in SECTIONS.items()
              for f in dataclasses.fields(cls) if isinstance(getattr(cls(), f.name), float)]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("key", FLOAT_KEYS)
def test_every_float_key_refuses_nan_and_infinities(key, value):
    section, name = key.split(".")
    with pytest.raises(ConfigError, match=rf"^{re.escape(key)}: expected a finite number, got "):
        config_from_mapping({section: {name: value}})
    # The stored config (JSON, which writes NaN and Infinity) is checked the same way.
    with pytest.raises(ConfigError, match=re.escape(key)):
        RunConfig.from_json(json.dumps({section: {name: value}}))


def test_float_keys_cover_the_rating_and_breeding_fractions():
    assert {"rating.k", "rating.start", "breeding.parent_fraction", "breeding.mutation_rate",
            "breeding.mutant_fraction", "cluster.task_seconds", "cluster.commit_every_seconds"} <= set(FLOAT_KEYS)


@pytest.mark.parametrize("data, message", [
    ({"openings": {"series": "distinct-x"}}, "openings.series: unknown opening set 'distinct-x': use distinct-N"),
    ({"openings": {"series": "book"}}, "or 'random', as runs made before"),
    ({"openings": {"series": "distinct-4"}},
     "hall.games_per_member: 540 games need 270 openings and openings.series distinct-4 holds 60"),
    ({"openings": {"series": "distinct-5"}, "hall": {"games_per_member": 0}, "yardstick": {"games_per_opponent": 800}},
     "yardstick.games_per_opponent: 800 games need 400 openings and openings.series distinct-5 holds 322"),
])
def test_an_opening_set_that_is_unknown_or_too_small_for_a_series_is_refused(data, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        config_from_mapping(data)


def test_new_runs_measure_from_distinct_6_and_random_or_deep_sets_are_accepted():
    assert config_from_mapping({}).openings.series == "distinct-6"
    assert config_from_mapping({"openings": {"series": "random"}}).openings.series == "random"
    assert config_from_mapping({"openings": {"series": "distinct-12"}}).openings.series == "distinct-12"
