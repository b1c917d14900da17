"""decide_engines: a stored run's external engines run only when named now."""

import pytest

from genethello.cluster.run.engine_consent import EngineConsentError, EngineDecision, decide_engines

RHINO = "gtp-rhino -l 1"
OTHER = "other-engine --fast"


def test_a_run_without_engines_needs_nothing():
    assert decide_engines("r", [], [], [], []) == EngineDecision((), ())


def test_stored_engines_are_refused_until_named():
    with pytest.raises(EngineConsentError, match="gtp-rhino -l 1.*--gtp COMMAND.*--drop-engine COMMAND"):
        decide_engines("r", [RHINO, OTHER], [], [OTHER], [])


def test_given_and_dropped_engines():
    assert decide_engines("r", [RHINO, OTHER], [], [RHINO], [OTHER]) == EngineDecision((RHINO,), (OTHER,))


def test_an_engine_dropped_before_is_not_asked_for_again():
    assert decide_engines("r", [RHINO, OTHER], [OTHER], [RHINO], []) == EngineDecision((RHINO,), ())


@pytest.mark.parametrize("given, drop", [(["evil --cmd"], []), ([], ["evil --cmd"]), ([RHINO, "x"], [])])
def test_commands_that_are_not_the_runs_are_refused(given, drop):
    with pytest.raises(EngineConsentError, match="has no external engine"):
        decide_engines("r", [RHINO], [], given, drop)


# --------------------------------------------------------------------------- #
# Through the command line: a database never starts a program by itself.

import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from .conftest import query, run_cli, write_config  # noqa: E402


def marker_engine(folder: Path) -> tuple[str, Path]:
    """A GTP engine command that leaves a marker file each time it starts
    (then plays as genethello's own engine)."""
    marker = folder / "engine-started"
    script = folder / "marker-engine"
    script.write_text(f"#!/bin/sh\ntouch '{marker}'\nexec '{sys.executable}' -m genethello.cluster.cli.main gtp "
                      "--player oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3 --depth 1\n")
    script.chmod(0o755)
    return str(script), marker


def evolve_with_engine(tmp_path: Path) -> tuple[Path, str, Path, Path]:
    """A one-generation run whose yardstick plays a marker engine (given in
    the config file, the user's own instruction: it runs). Returns HOME,
    the engine command, its marker (removed) and the database."""
    home = tmp_path / "home"
    home.mkdir()
    engine, marker = marker_engine(tmp_path)
    config = write_config(tmp_path, stop__max_generations=1, yardstick__every=1,
                          yardstick__games_per_opponent=2, yardstick__depth=1, yardstick__gtp_engines=[engine])
    db = tmp_path / "engines.db"
    r = run_cli("evolve", "--config", str(config), "--db", str(db), "--workers", "1", "--quiet",
                home=home, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert marker.exists()
    marker.unlink()
    return home, engine, marker, db


def test_resume_runs_stored_engines_only_when_the_user_names_them(tmp_path):
    home, engine, marker, db = evolve_with_engine(tmp_path)
    before = db.read_bytes()
    files = sorted(p.name for p in tmp_path.iterdir())

    # The database alone: refused, one line naming the engine, nothing run or written.
    r = run_cli("resume", "--db", str(db), "--max-generations", "2", "--workers", "1", home=home, cwd=tmp_path)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and engine in r.stderr and "--gtp COMMAND" in r.stderr
    assert not marker.exists() and db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == files  # no -wal/-shm left behind either

    # Dropped: the run goes on without it, and remembers that.
    r = run_cli("resume", "--db", str(db), "--max-generations", "2", "--workers", "1", "--quiet",
                "--drop-engine", engine, home=home, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert not marker.exists()
    assert query(db, "SELECT dropped_engines FROM runs") == [(f'["{engine}"]',)]
    assert engine not in {o for (o,) in query(db, "SELECT opponent FROM yardstick_results WHERE generation = 2")}


def test_resume_runs_an_engine_named_again(tmp_path):
    home, engine, marker, db = evolve_with_engine(tmp_path)
    r = run_cli("resume", "--db", str(db), "--max-generations", "2", "--workers", "1", "--quiet",
                "--gtp", engine, home=home, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert marker.exists()
    assert engine in {o for (o,) in query(db, "SELECT opponent FROM yardstick_results WHERE generation = 2")}
