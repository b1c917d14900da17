"""`genethello export`: a small database built by hand (real games played by
the engine, no Ray) exported as SGF, GGF and move lists and read back."""

from __future__ import annotations

import json
import resource
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from genethello.cluster.db import Database
from genethello.cluster.db.models import Game, Generation, PlayerRow, Run
from genethello.core.engine.game import Engine, play_game, random_opening
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.registry import evaluator_of
from genethello.core.records import read_moves, read_record, result_from_score

CHROMOSOMES = ["fmc_0_5:3:1", "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3", "dmc_0_2:6:9"]
#: (generation, pair_index, black, white, opening seed)
SCHEDULE = [(1, 0, 0, 1, 1), (1, 1, 1, 2, 2), (1, 2, 2, 0, 3), (2, 0, 1, 0, 4), (2, 1, 0, 2, 5)]
FINISHED = datetime(2024, 5, 17, 13, 45, tzinfo=UTC)
STARTED = datetime(2024, 5, 18, 9, 0, tzinfo=UTC)     # generation 2 has not finished
DROPPED = (1, 2)     # (generation, pair) of the game whose moves retention dropped


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *args],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """(db path, {game id: (row values, the moves played)}) of run 'r 1'."""
    path = tmp_path_factory.mktemp("export") / "t.db"
    db = Database.open(path, create=True)
    engines = [Engine(evaluator_of(Chromosome.parse(t)), depth=1, exact_empties=4) for t in CHROMOSOMES]
    games = {}
    try:
        with db.session() as s:
            run = Run(name="r 1", seed=1, status="finished", software_version="0", core_hash="x", generation=2,
                      max_generations=2,
                      config_json=json.dumps({"games": {"depth": 1, "exact_empties": 4, "random_plies": 2}}))
            s.add(run)
            s.flush()
            players = [PlayerRow(run_id=run.id, text=t, ctype=t.rsplit("_", 2)[0], birth=int(t.rsplit("_", 2)[1]),
                              genes=t.rsplit("_", 1)[1], elo=1500.0) for t in CHROMOSOMES]
            s.add_all(players)
            s.add(Generation(run_id=run.id, number=1, status="bred", started_at=FINISHED, finished_at=FINISHED))
            s.add(Generation(run_id=run.id, number=2, status="rated", started_at=STARTED))
            s.flush()
            for gen, pair, b, w, seed in SCHEDULE:
                result = play_game(engines[b], engines[w], random_opening(2, seed))
                row = Game(run_id=run.id, generation=gen, pair_index=pair, black_id=players[b].id,
                           white_id=players[w].id, score=result.score, black_discs=result.black_discs,
                           white_discs=result.white_discs, moves=None if (gen, pair) == DROPPED else result.move_list(),
                           nodes=result.nodes)
                s.add(row)
                s.flush()
                games[row.id] = (gen, pair, CHROMOSOMES[b], CHROMOSOMES[w], result.score, result.move_list())
    finally:
        db.dispose()
    return path, games


def exported(folder: Path) -> list:
    """Every record in every file under folder, in file-name order."""
    return [rec for f in sorted(folder.iterdir()) for rec in read_record(f)]


def check_record(rec, game, fmt: str) -> None:
    gen, pair, black, white, score, moves = game
    assert rec.moves == read_moves(moves)[0].moves
    assert rec.result_text() == result_from_score(score)
    if fmt != "moves":
        assert rec.result == result_from_score(score)
        assert (rec.black_chromosome, rec.white_chromosome) == (black, white)
        assert (rec.black_name, rec.white_name) == (black, white)
        assert rec.event == f"r 1 generation {gen}"
        assert rec.time_settings == "depth 1, exact 4"
        assert rec.date == ("2024-05-17" if gen == 1 else "2024-05-18")


@pytest.mark.parametrize("fmt, names", [
    ("sgf", ["r_1-g1-p0.sgf", "r_1-g1-p1.sgf", "r_1-g2-p0.sgf", "r_1-g2-p1.sgf"]),
    ("ggf", ["r_1-g1.ggf", "r_1-g2.ggf"]),
    ("moves", ["r_1-g1.txt", "r_1-g2.txt"]),
])
def test_export_every_game_and_read_it_back(database, tmp_path, fmt, names):
    path, games = database
    out = tmp_path / "out" / "deeper"
    proc = cli("export", "--db", str(path), "--format", fmt, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "wrote 4 games" in proc.stdout
    assert "skipped 1 whose moves were dropped by retention" in proc.stdout
    assert sorted(p.name for p in out.iterdir()) == names
    kept = [g for g in games.values() if g[:2] != DROPPED]
    records = exported(out)
    assert len(records) == len(kept) == 4
    for rec, game in zip(records, sorted(kept)):
        check_record(rec, game, fmt)


def test_sgf_holds_players_date_result_chromosomes_and_time(database, tmp_path):
    path, games = database
    proc = cli("export", "--db", str(path), "--run", "r 1", "--generation", "1", "--format", "sgf",
               "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "r_1-g1-p0.sgf").read_text()
    gen, pair, black, white, score, moves = next(g for g in games.values() if g[:2] == (1, 0))
    for prop in (f"PB[{black}]", f"PW[{white}]", "DT[2024-05-17]", f"RE[{result_from_score(score) if score else 0}]",
                 "OT[depth 1, exact 4]", f"black chromosome: {black}", f"white chromosome: {white}"):
        assert prop in text


def test_generation_filter(database, tmp_path):
    path, games = database
    proc = cli("export", "--db", str(path), "--generation", "2", "--format", "ggf", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "wrote 2 games" in proc.stdout and "skipped" not in proc.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["r_1-g2.ggf"]
    records = read_record(tmp_path / "r_1-g2.ggf")
    for rec, game in zip(records, sorted(g for g in games.values() if g[0] == 2)):
        check_record(rec, game, "ggf")


def test_game_filter(database, tmp_path):
    path, games = database
    game_id, game = next((i, g) for i, g in games.items() if g[:2] == (2, 1))
    proc = cli("export", "--db", str(path), "--game", str(game_id), "--format", "moves", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "wrote 1 game " in proc.stdout
    [rec] = read_record(tmp_path / "r_1-g2.txt")
    check_record(rec, game, "moves")


def test_retention_dropped_game_alone_is_skipped_and_reported(database, tmp_path):
    path, games = database
    game_id = next(i for i, g in games.items() if g[:2] == DROPPED)
    proc = cli("export", "--db", str(path), "--game", str(game_id), "--format", "sgf", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "wrote 0 games" in proc.stdout and "skipped 1 whose moves were dropped by retention" in proc.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, message", [
    (("--game", "999"), "holds no game with id 999"),
    (("--generation", "7"), "has no generation 7"),
    (("--run", "nope"), "no run named or numbered 'nope'"),
])
def test_bad_selection_is_one_line(database, tmp_path, args, message):
    path, _ = database
    proc = cli("export", "--db", str(path), *args, "--format", "sgf", "--out", str(tmp_path / "o"))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and message in proc.stderr, proc.stderr


# --------------------------------------------------------------------------- #
# Writing into a folder that already holds something


def test_planted_symlink_is_never_followed(database, tmp_path):
    path, games = database
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "r_1-g2.txt").symlink_to("../victim.txt")

    proc = cli("export", "--db", str(path), "--format", "moves", "--out", str(out))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "r_1-g2.txt" in lines[0] and "--force" in lines[0], proc.stderr
    assert victim.read_text() == "precious\n"
    assert sorted(p.name for p in out.iterdir()) == ["r_1-g2.txt"]     # nothing written, g1 neither
    assert (out / "r_1-g2.txt").is_symlink()

    # --force replaces the link itself; its target stays as it was.
    proc = cli("export", "--db", str(path), "--format", "moves", "--out", str(out), "--force")
    assert proc.returncode == 0, proc.stderr
    assert victim.read_text() == "precious\n"
    assert not (out / "r_1-g2.txt").is_symlink()
    assert sorted(p.name for p in out.iterdir()) == ["r_1-g1.txt", "r_1-g2.txt"]
    for rec, game in zip(read_record(out / "r_1-g2.txt"), sorted(g for g in games.values() if g[0] == 2)):
        check_record(rec, game, "moves")


def test_dangling_symlink_is_refused_and_not_created_through(database, tmp_path):
    path, _ = database
    out = tmp_path / "out"
    out.mkdir()
    (out / "r_1-g1-p0.sgf").symlink_to(tmp_path / "created-through-the-link")
    proc = cli("export", "--db", str(path), "--format", "sgf", "--out", str(out))
    assert proc.returncode == 2 and "r_1-g1-p0.sgf" in proc.stderr, proc.stderr
    assert not (tmp_path / "created-through-the-link").exists()


def test_existing_file_is_refused_unless_forced(database, tmp_path):
    path, games = database
    out = tmp_path / "out"
    out.mkdir()
    (out / "r_1-g1.ggf").write_text("old\n")
    proc = cli("export", "--db", str(path), "--format", "ggf", "--out", str(out))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "1 file already exists" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert (out / "r_1-g1.ggf").read_text() == "old\n"
    assert sorted(p.name for p in out.iterdir()) == ["r_1-g1.ggf"]

    proc = cli("export", "--db", str(path), "--format", "ggf", "--out", str(out), "--force")
    assert proc.returncode == 0, proc.stderr
    assert "wrote 4 games to 2 files" in proc.stdout
    records = read_record(out / "r_1-g1.ggf")
    kept = sorted(g for g in games.values() if g[0] == 1 and g[:2] != DROPPED)
    assert len(records) == len(kept) == 2
    for rec, game in zip(records, kept):
        check_record(rec, game, "ggf")
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_folder_in_the_way_is_refused_even_when_forced(database, tmp_path):
    path, _ = database
    out = tmp_path / "out"
    (out / "r_1-g2.ggf").mkdir(parents=True)
    proc = cli("export", "--db", str(path), "--format", "ggf", "--out", str(out), "--force")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "is a folder" in proc.stderr, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["r_1-g2.ggf"]


def _small_file_limit() -> None:
    """In the child: files may not grow past 200 bytes (a write beyond fails
    with EFBIG instead of killing the process)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))


def test_a_failed_write_leaves_no_half_file(database, tmp_path):
    path, _ = database
    out = tmp_path / "out"
    out.mkdir()
    (out / "r_1-g1.ggf").write_text("old\n")
    # Keep the database's shared-memory files open at their full size: the
    # child's limit must hit the export, not SQLite growing its -shm file.
    keep = sqlite3.connect(path)
    try:
        keep.execute("SELECT count(*) FROM games").fetchall()
        proc = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "export", "--db", str(path),
                               "--format", "ggf", "--out", str(out), "--force"],
                              capture_output=True, text=True, timeout=60, preexec_fn=_small_file_limit)
    finally:
        keep.close()
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "too large" in proc.stderr, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["r_1-g1.ggf"]     # no half file, no temporary left
    assert (out / "r_1-g1.ggf").read_text() == "old\n"
