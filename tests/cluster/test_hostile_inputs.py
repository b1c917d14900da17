"""Hostile and faulty inputs (issue 30): a database names no file, every
config that passes its check can run, and bad input gets one line.

Each case runs the real program (a subprocess of ``genethello``, or the
real coordinator on the serial executor) on a real SQLite database built by
:mod:`tests.cluster.hostile_db`, and checks the one line it now prints."""

from __future__ import annotations

import json
import math
import sqlite3
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.cluster.cli.main import main as cli_main
from genethello.cluster.cli.main import one_line
from genethello.cluster.config import ConfigError
from genethello.cluster.db import Database
from genethello.cluster.run.coordinator import Coordinator
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config
from genethello.core.play.sprt import MAX_BOUND_ELO, Pentanomial, Sprt, SprtArgumentError

from .conftest import db_snapshot, query, run_cli, snapshot_diff, write_config
from .hostile_db import (
    NETWORK_RUN,
    TRACEBACK,
    copy_of,
    deep_lineage,
    huge_claim_state,
    new_run,
    npy_bytes,
    rewrite,
    set_config_json,
)

SHIPPED_BEST = Path(__file__).parents[2] / "config" / "strong-best.txt"


def in_process(capsys, *argv: str) -> subprocess.CompletedProcess:
    """``genethello ARGV`` through the real entry point in this process (a
    subprocess costs a second of imports each): its status and output."""
    capsys.readouterr()
    status = cli_main(list(argv))
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(list(argv), status, out, err)


def one_error_line(result, command: str) -> str:
    """The single stderr line of a refused command (exit status 2)."""
    assert TRACEBACK not in result.stderr, result.stderr
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"genethello {command}: error: "), result.stderr
    return lines[0]


# --------------------------------------------------------------------------- #
# 1. The initial population is stored with the run, never re-read from a path


def drive(path: Path, yardstick: bool = False) -> str:
    """Run 1 of ``path`` driven to its end on the serial executor (with the
    real yardstick when ``yardstick``); its final status."""
    from genethello.cluster.measures.yardstick import measure

    db = Database.open(path, create=False)
    try:
        return Coordinator(db, 1, SerialExecutor(0.001), Progress(enabled=False),
                           yardstick=measure if yardstick else None).run()
    finally:
        db.dispose()


def test_the_initial_population_is_stored_with_the_run_and_the_file_is_never_read_again(tmp_path):
    initial = tmp_path / "initial.txt"
    shipped = [line for line in SHIPPED_BEST.read_text().splitlines() if not line.startswith("#")]
    initial.write_text("# two of the shipped best\n" + "\n".join(shipped[:2]) + "\n")
    texts = tuple(line.split("#")[0].strip() for line in shipped[:2])
    kind = texts[0].split("_")[0]
    path = new_run(tmp_path, played=False, population__type=kind, population__size=5,
                   population__initial=str(initial))
    stored = json.loads(query(path, "SELECT config_json FROM runs")[0][0])
    assert tuple(stored["population"]["members"]) == texts
    initial.unlink()                 # the run needs the file no more
    assert drive(path) == "finished"
    assert query(path, "SELECT COUNT(*) FROM population WHERE generation = 1 AND origin = 'initial'") == [(2,)]

    # The same run from a file that holds the texts equals one whose texts
    # were stored: content snapshots stay equal.
    again = tmp_path / "again"
    again.mkdir()
    (again / "initial.txt").write_text("\n".join(texts) + "\n")
    other = new_run(again, played=True, population__type=kind, population__size=5,
                    population__initial=str(again / "initial.txt"))
    a, b = db_snapshot(path, "t"), db_snapshot(other, "t")
    a["run"] = b["run"] = None       # the configs name different paths
    assert a == b, snapshot_diff(a, b)


def test_a_database_that_names_a_file_for_its_initial_population_is_refused_without_opening_it(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("first line of a secret file\n")
    path = new_run(tmp_path, played=False)
    config = json.loads(query(path, "SELECT config_json FROM runs")[0][0])
    for named in (str(secret), "/dev/zero"):
        config["population"]["initial"] = named
        config["population"]["members"] = []
        set_config_json(path, json.dumps(config))
        with pytest.raises(ValueError) as caught:
            drive(path)
        line = one_line(caught.value)
        assert line == (f"run 1 names the file {named!r} for its initial population and does not hold its "
                        "chromosomes (it was created before runs stored them); genethello opens no file a "
                        "database names: start the run afresh with 'genethello evolve --config FILE'")
        assert "secret file" not in line
        assert query(path, "SELECT COUNT(*) FROM generations") == [(0,)]   # nothing was written


def test_an_old_database_that_stored_only_the_path_says_what_to_do(tmp_path):
    """A config stored before the texts were (no ``members`` key at all)."""
    path = new_run(tmp_path, played=False)
    config = json.loads(query(path, "SELECT config_json FROM runs")[0][0])
    del config["population"]["members"]
    config["population"]["initial"] = "config/strong-best.txt"
    set_config_json(path, json.dumps(config))
    with pytest.raises(ValueError, match=r"start the run afresh with 'genethello evolve --config FILE'$"):
        drive(path)


@pytest.mark.parametrize(("content", "expected"), [
    (None, "population.initial: cannot read initial population {path}: a FIFO, not a regular file"),   # a FIFO: no hang
    ("", "population.initial: {path} holds no chromosome (one TYPE_BIRTH_GENES text a line)"),
    (b"\xff\xfe", "population.initial: {path}: not UTF-8 text (invalid start byte 0xff at byte 0)"),
])
def test_the_initial_file_is_read_once_in_bounded_time_at_load(tmp_path, content, expected):
    import os

    initial = tmp_path / "initial.txt"
    if content is None:
        os.mkfifo(initial)
    elif isinstance(content, bytes):
        initial.write_bytes(content)
    else:
        initial.write_text(content)
    config = write_config(tmp_path, population__initial=str(initial))
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert one_line(caught.value) == expected.format(path=initial)


def test_a_config_file_cannot_set_the_stored_members(tmp_path):
    config = write_config(tmp_path, population__members=["oe_fmc_1_6:52:7:8:5:6:4:4:1:10:5"])
    with pytest.raises(ConfigError, match=r"^population\.members: .* cannot set it"):
        load_config(config)


# --------------------------------------------------------------------------- #
# 3. Every config that passes its check can run; a measurement never makes a
#    run unresumable


def test_sprt_bounds_the_test_cannot_compute_are_refused_by_the_config_check(tmp_path):
    config = write_config(tmp_path, yardstick__sprt=[0, 10000],
                          yardstick__sprt_opponents=["oe_fmc_1_6:52:7:8:5:6:4:4:1:10:5"])
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert one_line(caught.value) == "yardstick.sprt: bounds must lie within ±1000 Elo, got [0.0, 10000.0]"
    with pytest.raises(SprtArgumentError, match="must lie within ±1000 Elo"):
        Sprt(0, 1e4)


@settings(max_examples=300, deadline=None)
@given(elo0=st.floats(-MAX_BOUND_ELO, MAX_BOUND_ELO - 1e-6), width=st.floats(1e-6, 2 * MAX_BOUND_ELO),
       counts=st.tuples(*[st.integers(0, 10_000)] * 5))
def test_every_bound_the_check_accepts_gives_a_finite_llr(elo0, width, counts):
    """Property: any bounds within ±MAX_BOUND_ELO and any pair counts give
    a finite log likelihood ratio (10,000 Elo made it divide by zero)."""
    elo1 = min(MAX_BOUND_ELO, elo0 + width)
    if not elo0 < elo1:
        return
    llr = Sprt(elo0, elo1).llr(Pentanomial(counts))
    assert math.isfinite(llr), (elo0, elo1, counts, llr)


def test_a_match_with_sprt_bounds_beyond_the_test_gets_one_line(tmp_path):
    import subprocess

    from .conftest import cli_env, genethello_argv

    result = subprocess.run(genethello_argv("match", "oe_fmc_1_6:52:7:8:5:6:4:4:1:10:5",
                                            "oe_fmc_1_6:52:7:8:5:6:4:4:1:10:5", "--depth", "1",
                                            "--sprt", "0", "1e4"),
                            env=cli_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert one_error_line(result, "match").endswith(
        "error: --sprt ELO0 ELO1 must lie within ±1000 Elo (a score of 99.7% a game), got 0 10000")


def test_a_stored_run_whose_sprt_cannot_be_computed_leaves_the_yardstick_out_and_finishes(tmp_path, caplog):
    """A run stored before the check (its bounds written straight into the
    database): generation 1's yardstick cannot compute the test, and the run
    goes on, finishes, and resumes."""
    path = new_run(tmp_path, played=False, yardstick__every=1, yardstick__games_per_opponent=2,
                   yardstick__sprt=[0, 20], yardstick__sprt_max_games=4,
                   yardstick__sprt_opponents=["oe_fmc_1_6:52:7:8:5:6:4:4:1:10:5"])
    config = json.loads(query(path, "SELECT config_json FROM runs")[0][0])
    config["yardstick"]["sprt"] = [0, 10000]
    set_config_json(path, json.dumps(config))
    with caplog.at_level("INFO", logger="genethello"):
        assert drive(path, yardstick=True) == "finished"
    assert ("yardstick at generation 1 failed and is left out: --sprt ELO0 ELO1 must lie within ±1000 Elo (a score "
            "of 99.7% a game), got 0 10000") in caplog.messages
    assert query(path, "SELECT status, generation FROM runs") == [("finished", 3)]
    rewrite(path, "UPDATE runs SET max_generations = 4")
    assert drive(path, yardstick=True) == "finished"
    assert query(path, "SELECT status, generation FROM runs") == [("finished", 4)]


# --------------------------------------------------------------------------- #
# 5. A stored config that is not a config gets one line from every command


@pytest.fixture(scope="module")
def played_run(tmp_path_factory) -> Path:
    return new_run(tmp_path_factory.mktemp("played"))


STORED_CONFIGS = {
    "null": ("null", "expected a table of keys, got NoneType"),
    "a number": ("5", "expected a table of keys, got int"),
    "not JSON": ("{not json", "not valid JSON (Expecting property name enclosed in double quotes: line 1 "
                              "column 2 (char 1))"),
    "100k deep": ("[" * 100_000 + "]" * 100_000, "nested too deeply to be a config"),
    "an unknown section": ('{"evil": 1}', "evil: unknown key or section in the stored config of run 't' (known: "
                                          "breeding, cluster, fitness, games, hall, name, openings, population, "
                                          "rating, seed, stop, storage, yardstick)"),
}


@pytest.mark.parametrize("case", sorted(STORED_CONFIGS))
def test_a_stored_config_that_is_not_a_config_gets_one_line(tmp_path, played_run, case, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text, reason = STORED_CONFIGS[case]
    path = copy_of(played_run, tmp_path, "bad-config.db")
    set_config_json(path, text)
    for command in ("history", "best", "resume"):
        line = one_error_line(in_process(capsys, command, "--db", str(path)), command)
        assert line.endswith(f"the stored config of run 't': {reason}") or line.endswith(reason), line
    for command in ("runs", "status"):       # the display reads what it can
        result = in_process(capsys, command, "--db", str(path))
        assert result.returncode == 0 and TRACEBACK not in result.stderr, result.stderr
    assert sqlite3.connect(path).execute("SELECT config_json FROM runs").fetchone()[0] == text   # nothing lost


# --------------------------------------------------------------------------- #
# 2. Lineage is linear in the ancestors shown; a cycle is named


def tree_nodes(node) -> list:
    return [node, *(n for p in node.parents for n in tree_nodes(p))]


@pytest.mark.timeout(60)
def test_a_deep_lineage_takes_time_linear_in_its_ancestors(tmp_path):
    """60 generations of 8, each member a crossover of two of the last: at
    --depth 24 the tree of every path holds 2**25 nodes (75 s and 1.2 GB
    before); each ancestor is expanded once now."""
    import time

    from genethello.cluster.reads import lineage

    path, leaf = deep_lineage(tmp_path)
    db = Database.open(path, create=False)
    try:
        started = time.monotonic()
        tree = lineage(db, leaf, depth=24)
        elapsed = time.monotonic() - started
    finally:
        db.dispose()
    nodes = tree_nodes(tree)
    expanded = [n.player_id for n in nodes if n.parents]
    assert len(expanded) == len(set(expanded))               # each ancestor expanded once
    assert len({n.player_id for n in nodes}) <= 1 + 24 * 8 and len(nodes) <= 3 * (1 + 24 * 8)
    assert any(n.repeated for n in nodes) and not any(n.cycle for n in nodes)
    assert max(n.birth for n in nodes if n.unexpanded) == 60 - 24      # the cut is at the depth asked
    assert elapsed < 10, elapsed
    result = run_cli("lineage", str(leaf), "--db", str(path), "--depth", "24", "--json", home=tmp_path, cwd=tmp_path,
                     timeout=60)
    assert result.returncode == 0 and len(result.stdout) < 2_000_000, (result.stderr, len(result.stdout))


def test_a_cycle_in_a_crafted_lineage_is_named_as_one(tmp_path):
    path, leaf = deep_lineage(tmp_path, players=4, generations=5)
    (a,), = query(path, "SELECT parent_a FROM population WHERE player_id = ?", leaf)
    rewrite(path, "UPDATE population SET parent_a = ?, parent_b = NULL WHERE player_id = ?", leaf, a)
    result = run_cli("lineage", str(leaf), "--db", str(path), "--depth", "40", home=tmp_path, cwd=tmp_path)
    assert result.returncode == 0 and TRACEBACK not in result.stderr, result.stderr
    lines = result.stdout.splitlines()
    assert f"#{leaf} oe_fmc_5_5:0:0:0:0:0:0:0:0:0:0 (its own ancestor: a cycle, which no run breeds; the " \
           "database's lineage was altered)" in [line.split("─ ", 1)[-1] for line in lines]
    assert not any("a larger --generations shows them" in line for line in lines)


# --------------------------------------------------------------------------- #
# 5. Huge integers and superscript digits as ids: one line, no OverflowError

HUGE = "9" * 30


@pytest.mark.parametrize(("argv", "expected"), [
    (("status", "--run", HUGE), f"no run named or numbered '{HUGE}' in {{db}}"),
    (("history", "--run", HUGE), f"no run named or numbered '{HUGE}' in {{db}}"),
    (("best", "--run", HUGE), f"no run named or numbered '{HUGE}' in {{db}}"),
    (("stop", "--run", HUGE), f"no run named or numbered '{HUGE}' in {{db}}"),
    (("resume", "--run", HUGE), f"no run named or numbered '{HUGE}' in {{db}}"),
    (("status", "--run", "\u00b2"), "no run named or numbered '²' in {db}"),
    (("lineage", HUGE), f"no chromosome with id {HUGE} in {{db}}"),
    (("lineage", "--run", HUGE), f"no run named or numbered '{HUGE}' in {{db}}"),
    (("export", "--format", "sgf", "--out", "x", "--run", HUGE), f"no run named or numbered '{HUGE}' in {{db}}"),
    (("resume", "--max-generations", HUGE), f"--max-generations must be in 1..1,000,000, got {HUGE}"),
    (("network", "export", HUGE, "--out", "n.json"), f"no player with id {HUGE} in {{db}}"),
])
def test_a_huge_or_odd_id_gets_one_line(tmp_path, played_run, argv, expected, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)      # nothing may be written, and surely not into the checkout
    result = in_process(capsys, *argv, "--db", str(played_run))
    assert one_error_line(result, argv[0]) == f"genethello {argv[0]}: error: {expected.format(db=played_run)}"


@pytest.mark.parametrize("option", ["--game", "--generation"])
def test_a_huge_export_selection_is_refused_by_its_option(tmp_path, played_run, option):
    result = run_cli("export", "--format", "sgf", "--out", "x", option, HUGE, "--db", str(played_run),
                     home=tmp_path, cwd=tmp_path)
    assert result.returncode == 2 and TRACEBACK not in result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"genethello export: error: argument {option}: must be an integer in 1..9223372036854775807, got {HUGE}")


# --------------------------------------------------------------------------- #
# 7. Quietly wrong


def test_resume_refuses_a_last_generation_before_the_one_played(tmp_path, played_run):
    path = copy_of(played_run, tmp_path, "extend.db")
    result = run_cli("resume", "--max-generations", "2", "--db", str(path), home=tmp_path, cwd=tmp_path)
    assert one_error_line(result, "resume") == ("genethello resume: error: --max-generations 2: run 't' is at "
                                                "generation 3 already (give 3 or more)")
    assert query(path, "SELECT generation, max_generations FROM runs") == [(3, 3)]    # nothing stored


# --------------------------------------------------------------------------- #
# 5. A breeder state or a payload a crafted database holds: one line


@pytest.fixture(scope="module")
def network_run(tmp_path_factory) -> Path:
    return new_run(tmp_path_factory.mktemp("network"), filename="net.db", **NETWORK_RUN)


@pytest.mark.parametrize(("state", "reason"), [
    (npy_bytes([1.0, 2.0]), "the stored CMA-ES state is not readable: File is not a zip file"),
    (huge_claim_state(), "the stored CMA-ES state's _C.npy claims 8,796,093,022,208 bytes of float64 in an entry "
                         "of 144"),
    ("an npz archive, as text", "the stored CMA-ES state is not readable: File is not a zip file"),
    (12345, "the stored CMA-ES state is not readable: File is not a zip file"),
])
def test_a_crafted_breeder_state_is_one_line_and_changes_nothing(tmp_path, network_run, state, reason):
    path = copy_of(network_run, tmp_path, "state.db")
    rewrite(path, "UPDATE generations SET breeder_state = ?", state)
    rewrite(path, "UPDATE runs SET max_generations = 3")
    before = query(path, "SELECT COUNT(*) FROM chromosomes")
    with pytest.raises(ValueError) as caught:
        drive(path)
    assert one_line(caught.value) == f"generation 2: {reason}"
    assert query(path, "SELECT COUNT(*) FROM chromosomes") == before
    assert query(path, "SELECT MAX(number) FROM generations") == [(2,)]


@pytest.mark.parametrize("cast", ["CAST(payload AS TEXT)", "'weights'", "7"])
def test_a_payload_stored_as_text_or_a_number_is_one_line(tmp_path, network_run, cast, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = copy_of(network_run, tmp_path, "payload.db")
    rewrite(path, f"UPDATE chromosomes SET payload = {cast}")
    (pid, text), = query(path, "SELECT id, text FROM chromosomes ORDER BY id LIMIT 1")
    for argv in (("network", "export", str(pid), "--out", "n.json"), ("match", str(pid), str(pid), "--depth", "1")):
        line = one_error_line(in_process(capsys, *argv, "--db", str(path)), argv[0])
        assert f"'{text}': a all-1 network's weights are 240 bytes (30 float64), got " in line, line
    for command in ("runs", "status", "best", "history", "lineage"):        # reads that show no weights
        result = in_process(capsys, command, "--db", str(path))
        assert result.returncode == 0 and TRACEBACK not in result.stderr, (command, result.stderr)


def test_a_plot_that_cannot_be_written_is_one_line(tmp_path, played_run, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = in_process(capsys, "plot", "--db", str(played_run), "--out", "/dev/full")
    assert one_error_line(result, "plot") == "genethello plot: error: cannot write /dev/full: No space left on device"
    assert "wrote" not in result.stdout
    result = in_process(capsys, "plot", "--db", str(played_run), "--out", "p.png")
    assert result.returncode == 0 and (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_export_by_generation_and_pair_picks_the_same_game_whatever_the_ids(tmp_path, capsys, monkeypatch):
    """Two databases of one config and seed whose game ids differ (the
    second holds another run first, as a run on other workers commits its
    games in another order): --generation G --pair P names one game in both;
    --game ID does not."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    alone = new_run(tmp_path / "a")
    shared = new_run(tmp_path / "b", filename="hostile.db", name="other", seed=99)
    db = Database.open(shared, create=False)
    try:
        from genethello.cluster.run.coordinator import create_run

        run_id = create_run(db, load_config(write_config(tmp_path / "b", "t.toml")))
        assert Coordinator(db, run_id, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
    finally:
        db.dispose()
    key_sql = ("SELECT g.id FROM games g JOIN runs r ON r.id = g.run_id "
               "WHERE r.name = 't' AND g.generation = 2 AND g.pair_index = 3")
    assert query(alone, key_sql) != query(shared, key_sql)         # one game, two row ids
    exported = {}
    for name, path in (("a", alone), ("b", shared)):
        out = tmp_path / name
        result = in_process(capsys, "export", "--db", str(path), "--run", "t", "--format", "sgf", "--out",
                            str(out / "x"), "--generation", "2", "--pair", "3")
        assert result.returncode == 0, result.stderr
        exported[name] = {p.name: p.read_text() for p in (out / "x").iterdir()}
    assert list(exported["a"]) == ["t-g2-p3.sgf"] and exported["a"] == exported["b"]
    line = one_error_line(in_process(capsys, "export", "--db", str(alone), "--format", "sgf", "--out", "x",
                                     "--pair", "3"), "export")
    assert line == "genethello export: error: --pair needs --generation: a game's stable key is its generation and pair"
    line = one_error_line(in_process(capsys, "export", "--db", str(alone), "--format", "sgf", "--out", "x",
                                     "--generation", "2", "--pair", "999"), "export")
    assert line == "genethello export: error: run t holds no game of pair 999 in generation 2"


def test_the_deepest_lineage_drawn_fits_the_recursion_of_its_text_and_json(tmp_path, capsys, monkeypatch):
    """A chain of 400 generations: --depth 300 draws it as text and JSON
    (the tree is read iteratively; its drawing nests a level a generation);
    a deeper one is refused by the option in one line, not a RecursionError."""
    monkeypatch.chdir(tmp_path)
    path, leaf = deep_lineage(tmp_path, players=2, generations=400)
    for extra in ((), ("--json",)):
        result = in_process(capsys, "lineage", str(leaf), "--db", str(path), "--depth", "300", *extra)
        assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["id"] == leaf
    result = run_cli("lineage", str(leaf), "--db", str(path), "--depth", "301", home=tmp_path, cwd=tmp_path)
    assert result.returncode == 2 and TRACEBACK not in result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        "genethello lineage: error: argument --depth: must be an integer in 0..300, got 301")


@pytest.mark.parametrize("series", ["distinct-\u00b2", "distinct-" + "9" * 5000])
def test_an_opening_set_named_with_odd_digits_is_one_line(series):
    from genethello.cluster.run.run_check import config_from_mapping

    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"openings": {"series": series}})
    assert one_line(caught.value).startswith(f"openings.series: unknown opening set {series!r}: use distinct-N")
