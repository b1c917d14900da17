"""``genethello compare``: the champions of several runs on one rating scale.

The decisions are checked on values computed by hand (the schedule of 3
players, the openings' draw, a Bradley–Terry fit of a hand-made table);
the command end to end on three tiny seeded runs of three databases (two
GeneThello runs of different depths and an n-tuple network run), through
real `genethello` subprocesses: the same result file with 1 and 2 workers,
never an overwritten result, the databases unchanged byte for byte, and
one line with exit status 2 for each kind of bad input.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pytest

from genethello.cluster.db import Database
from genethello.cluster.fitness.matches import Matches, PlaySetting, Side
from genethello.cluster.fitness.tournament_rating import ELO_PER_NAT
from genethello.cluster.measures.compare import (
    CompareInputError,
    compare_openings,
    compare_rows,
    compare_schedule,
    compare_specs,
    player_settings,
    run_tags,
)
from genethello.cluster.reads import best, find_run
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config
from genethello.core.engine.board import Board
from genethello.core.play.openings import canonical_key, opening_set

from .conftest import db_snapshot, run_cli, write_config

# --------------------------------------------------------------------------- #
# Decisions, by hand


def test_the_schedule_of_three_players_and_four_games_a_pair():
    got = [(p.game_index, p.pair, p.first, p.second, p.opening, p.first_black, p.black, p.white)
           for p in compare_schedule(3, 4)]
    assert got == [
        (0, 0, 0, 1, 0, True, 0, 1), (1, 0, 0, 1, 0, False, 1, 0),
        (2, 0, 0, 1, 1, True, 0, 1), (3, 0, 0, 1, 1, False, 1, 0),
        (4, 1, 0, 2, 0, True, 0, 2), (5, 1, 0, 2, 0, False, 2, 0),
        (6, 1, 0, 2, 1, True, 0, 2), (7, 1, 0, 2, 1, False, 2, 0),
        (8, 2, 1, 2, 0, True, 1, 2), (9, 2, 1, 2, 0, False, 2, 1),
        (10, 2, 1, 2, 1, True, 1, 2), (11, 2, 1, 2, 1, False, 2, 1),
    ]


def test_run_tags_are_names_told_apart_by_file_then_by_path_only_when_needed():
    runs = [("a.db", "q"), ("b.db", "q"), ("x/c.db", "q"), ("y/c.db", "q"), ("a.db", "r")]
    assert run_tags(runs) == ["a.db:q", "b.db:q", "x/c.db:q", "y/c.db:q", "r"]
    assert run_tags([("a.db", "q"), ("b.db", "r")]) == ["q", "r"]


@pytest.mark.parametrize("players, games", [(1, 2), (0, 2), (3, 0), (3, 3), (3, -2)])
def test_a_schedule_needs_two_players_and_even_games(players, games):
    with pytest.raises(CompareInputError):
        compare_schedule(players, games)


def test_every_pair_plays_the_same_distinct_openings_drawn_by_the_seed():
    openings = compare_openings("distinct-6", 5, 8)
    assert openings == [tuple(m) for m in opening_set("distinct-6").series("compare/5", 4)]
    assert len({canonical_key(Board.from_moves(list(m))) for m in openings}) == 4
    assert all(len(m) == 6 for m in openings)
    assert compare_openings("distinct-6", 5, 4) == openings[:2]        # a prefix: more games add openings
    assert compare_openings("distinct-6", 6, 8) != openings
    specs = compare_specs(compare_schedule(3, 8), openings)
    assert [s.opening for s in specs[:8]] == [openings[k // 2] for k in range(8)]
    assert [s.opening for s in specs[16:]] == [openings[k // 2] for k in range(8)]


def test_more_openings_than_the_set_holds_are_refused_naming_games():
    # distinct-1: the four first moves are one position up to symmetry.
    assert len(compare_openings("distinct-1", 1, 2)) == 1
    with pytest.raises(CompareInputError, match=r"--games 4: each pair plays 2 distinct openings.*distinct-1"):
        compare_openings("distinct-1", 1, 4)


def test_a_hand_made_table_of_two_players_fits_to_the_closed_form():
    """Player 0 wins 3 of 4 games against player 1. With the prior's one
    virtual draw each against an average player (theta 0), symmetry gives
    theta_0 = -theta_1 = t where 3.5 = 4 σ(2t) + σ(t) (points plus the half
    point of the virtual draw = expected points); the error of the
    difference is 1 / sqrt of its information: var = 2 / (2c + v) with
    c = 4 σ(2t) σ(-2t) (the games) and v = σ(t) σ(-t) (the prior)."""
    schedule = compare_schedule(2, 4)
    # Black: 0, 1, 0, 1. Player 0 wins as Black, as White, loses as Black, wins as White.
    margins = [10, -10, -6, -6]
    rows = compare_rows(2, schedule, margins, anchor=1)

    def sigma(x: float) -> float:
        return 1.0 / (1.0 + math.exp(-x))

    low, high = 0.0, 5.0
    for _ in range(200):
        t = (low + high) / 2
        low, high = (t, high) if 4 * sigma(2 * t) + sigma(t) < 3.5 else (low, t)
    c = 4 * sigma(2 * t) * sigma(-2 * t)
    v = sigma(t) * sigma(-t)
    best, anchor = rows
    assert (best.rank, best.player, best.wins, best.draws, best.losses, best.games) == (1, 0, 3, 0, 1, 4)
    assert (anchor.rank, anchor.player, anchor.wins, anchor.draws, anchor.losses) == (2, 1, 1, 0, 3)
    assert anchor.rating == 0.0 and anchor.stderr == 0.0
    assert best.rating == pytest.approx(ELO_PER_NAT * 2 * t, abs=1e-6)
    assert best.stderr == pytest.approx(ELO_PER_NAT * math.sqrt(2 / (2 * c + v)), abs=1e-6)


def test_an_even_table_rates_everyone_at_the_anchor_and_counts_draws():
    """Three players, every pair splits its two games (one a draw each way
    for pair 0-1): every rating is exactly 0, the anchor's error 0 and the
    others' equal."""
    schedule = compare_schedule(3, 2)
    margins = [0, 0, 8, 8, -2, -2]     # 0-1: two draws; 0-2: each wins as Black; 1-2: each wins as White
    rows = compare_rows(3, schedule, margins, anchor=2)
    by_player = {r.player: r for r in rows}
    assert [r.player for r in rows] == [0, 1, 2]             # ties: the earlier place first
    assert all(r.rating == pytest.approx(0.0, abs=1e-9) for r in rows)
    assert by_player[2].stderr == 0.0
    assert by_player[0].stderr == pytest.approx(by_player[1].stderr) and by_player[0].stderr > 0
    assert (by_player[0].wins, by_player[0].draws, by_player[0].losses) == (1, 2, 1)
    assert (by_player[2].wins, by_player[2].draws, by_player[2].losses) == (2, 0, 2)


def test_rows_refuse_a_short_result_list_and_a_foreign_anchor():
    schedule = compare_schedule(2, 2)
    with pytest.raises(ValueError, match="2 games"):
        compare_rows(2, schedule, [1])
    with pytest.raises(ValueError, match="anchor 2"):
        compare_rows(2, schedule, [1, 1], anchor=2)


def test_a_player_searches_with_its_own_runs_settings_unless_overridden(tmp_path):
    config = load_config(write_config(tmp_path, games__depth=3, games__exact_empties=6, games__tt_bits=12))
    assert player_settings(config, "") == PlaySetting(3, 6, "negascout-soft", 12, "")
    assert player_settings(config, "patterns-v1", depth=5) == PlaySetting(5, 6, "negascout-soft", 12,
                                                                         "patterns-v1")
    assert player_settings(config, "", exact_empties=0) == PlaySetting(3, 0, "negascout-soft", 12, "")


def test_each_side_searches_at_its_own_depth():
    """A deeper search of the same chromosome spends more nodes: a game
    between two settings differs from both single-setting games."""
    text = "oe_fmc_1_6:52:7:8:5:6:4:4:1:10:5"
    shallow, deep = PlaySetting(1, 0), PlaySetting(3, 0)
    task = Matches((Side(text, None, shallow), Side(text, None, deep), Side(text, None, shallow)))
    specs = compare_specs(compare_schedule(3, 2), compare_openings("distinct-6", 1, 2))
    outcomes = {o.index: o for o in task.run(specs)}
    assert len(outcomes) == 6
    assert outcomes[0].nodes != outcomes[2].nodes                    # 0-1 (one deep side) vs 0-2 (both shallow)
    assert task.run(specs) == [outcomes[i] for i in range(6)]        # replayed: the same games


# --------------------------------------------------------------------------- #
# The command, end to end

#: A tiny CMA-ES run on all-2 (as in test_network_runs): seconds.
NET = dict(name="net", population__type="all-2", population__size=6, breeding__method="cma-es",
           fitness__kind="fixed", fitness__opponents=["wpc"], fitness__games_per_opponent=40,
           fitness__start_plies=2, fitness__batch_games=32, hall__games_per_member=4, hall__every=2,
           stop__max_generations=2)


def _evolve(folder: Path, db_name: str, **overrides) -> Path:
    path = folder / db_name
    db = Database.open(path, create=True)
    try:
        run_id = create_run(db, load_config(write_config(folder, f"{db_name}.toml", **overrides)))
        assert Coordinator(db, run_id, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
    finally:
        db.dispose()
    return path


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Three databases: GeneThello at depth 1 (two runs, one with no
    finished generation), GeneThello at depth 2, n-tuple networks."""
    folder = tmp_path_factory.mktemp("compare-runs")
    dbs = folder / "dbs"
    dbs.mkdir()
    a = _evolve(dbs, "a.db", name="alpha", seed=11)
    db = Database.open(a, create=False)
    try:
        create_run(db, load_config(write_config(folder, "fresh.toml", name="fresh")))
    finally:
        db.dispose()
    b = _evolve(dbs, "b.db", name="beta", seed=12, games__depth=2)
    n = _evolve(dbs, "n.db", **NET)
    return {"a": a, "b": b, "n": n, "dbs": dbs}


@pytest.fixture
def home(tmp_path):
    path = tmp_path / "home"
    path.mkdir()
    return path


def _compare(runs, home, cwd, *extra: str, workers: str = "1"):
    return run_cli("compare", "--db", str(runs["a"]), "--db", str(runs["b"]), "--db", str(runs["n"]),
                   "--top", "2", "--games", "4", "--workers", workers, "--quiet", *extra, home=home, cwd=cwd)


def test_three_runs_of_three_databases_on_one_scale_with_one_or_two_workers(runs, home, tmp_path):
    before = _digests(runs["dbs"])
    snapshots = {name: db_snapshot(runs[key], name) for key, name in (("a", "alpha"), ("b", "beta"), ("n", "net"))}
    serial = _compare(runs, home, tmp_path, "--out", "one.json")
    assert serial.returncode == 0, serial.stderr
    assert "skipped: run 'fresh'" in serial.stderr and "no finished generation" in serial.stderr
    doc = json.loads((tmp_path / "one.json").read_text())
    labels = [p["label"] for p in doc["players"]]
    assert [p["run"] for p in doc["players"]] == ["alpha", "alpha", "beta", "beta", "net", "net"]
    assert [p["settings"]["depth"] for p in doc["players"]] == [1, 1, 2, 2, 1, 1]
    assert doc["players"][4]["chromosome"].startswith("all-2_")
    assert doc["anchor"] == labels[0]
    assert len(doc["games"]) == 15 * 4 and len(doc["opening_moves"]) == 2
    table = {row["player"]: row for row in doc["table"]}
    assert sorted(table) == sorted(labels) and [r["rank"] for r in doc["table"]] == [1, 2, 3, 4, 5, 6]
    assert (table[labels[0]]["rating"], table[labels[0]]["stderr"]) == (0.0, 0.0)
    assert all(r["games"] == 20 == r["wins"] + r["draws"] + r["losses"] for r in doc["table"])
    assert sum(r["wins"] for r in doc["table"]) == sum(r["losses"] for r in doc["table"])
    ratings = [r["rating"] for r in doc["table"]]
    assert ratings == sorted(ratings, reverse=True)
    for row in doc["table"]:                      # the printed table has the same rows
        assert f"{row['rating']:+.0f} ± {row['stderr']:.0f}" in serial.stdout
        assert f"{row['wins']}/{row['draws']}/{row['losses']}" in serial.stdout
    assert "result written to one.json" in serial.stdout

    parallel = _compare(runs, home, tmp_path, "--out", "two.json", "--json", workers="2")
    assert parallel.returncode == 0, parallel.stderr
    assert (tmp_path / "two.json").read_bytes() == (tmp_path / "one.json").read_bytes()
    assert json.loads(parallel.stdout) == doc

    assert _digests(runs["dbs"]) == before       # read only: not a byte of any database changed
    for key, name in (("a", "alpha"), ("b", "beta"), ("n", "net")):
        assert db_snapshot(runs[key], name) == snapshots[name]


def test_a_result_file_is_never_overwritten_without_force(runs, home, tmp_path):
    out = tmp_path / "result.json"
    out.write_text("mine\n")
    refused = _compare(runs, home, tmp_path, "--out", str(out))
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        f"genethello compare: error: result file {out} exists already: pass --out FILE for another, "
        "or --force to overwrite it"]
    assert out.read_text() == "mine\n"
    forced = _compare(runs, home, tmp_path, "--out", str(out), "--force", "--runs", "alpha", "net",
                      "--anchor", "net#7")
    assert forced.returncode == 0, forced.stderr
    doc = json.loads(out.read_text())
    assert {p["run"] for p in doc["players"]} == {"alpha", "net"} and doc["anchor"] == "net#7"


def test_the_default_result_file_is_named_by_the_time_in_the_current_folder(runs, home, tmp_path):
    done = run_cli("compare", "--db", str(runs["a"]), "--db", str(runs["b"]), "--games", "2", "--workers", "1",
                   home=home, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = sorted(tmp_path.glob("compare-*.json"))
    assert len(written) == 1 and f"result written to {written[0].name}" in done.stdout
    assert len(json.loads(written[0].read_text())["players"]) == 2


@pytest.mark.parametrize("case, args, message", [
    ("missing db", ["--db", "{tmp}/none.db"], "no database at ./none.db"),
    ("foreign db", ["--db", "{tmp}/notes.db"], "is not an SQLite database"),
    ("unknown run", ["--db", "{a}", "--runs", "gamma"], "--runs: no run named 'gamma'"),
    ("unfinished run", ["--db", "{a}", "--db", "{b}", "--runs", "fresh", "beta"],
     "run 'fresh' in {a} has no finished generation yet"),
    ("no finished run", ["--db", "{tmp}/fresh.db"], "{tmp}/fresh.db holds no run with a finished generation"),
    ("top 0", ["--db", "{a}", "--top", "0"], "--top 0: must be at least 1"),
    ("odd games", ["--db", "{a}", "--games", "3"], "--games 3: must be even"),
    ("foreign anchor", ["--db", "{a}", "--db", "{b}", "--anchor", "nobody"], "--anchor 'nobody' is not one of"),
    ("one player", ["--db", "{a}"], "a comparison needs at least 2 players, got 1"),
    ("too many games", ["--db", "{a}", "--db", "{b}", "--openings", "distinct-1", "--games", "4"],
     "--games 4: each pair plays 2 distinct openings"),
    ("bad opening set", ["--db", "{a}", "--db", "{b}", "--openings", "book"], "unknown opening set 'book'"),
    ("same db twice", ["--db", "{a}", "--db", "{a}"], "--db: the same database is named twice"),
])
def test_bad_input_is_one_line_and_exit_status_2(runs, home, tmp_path, case, args, message):
    (tmp_path / "notes.db").write_text("not a database\n")
    fresh = Database.open(tmp_path / "fresh.db", create=True)
    try:
        create_run(fresh, load_config(write_config(tmp_path, "fresh.toml", name="fresh")))
    finally:
        fresh.dispose()
    names = {"tmp": str(tmp_path), "a": str(runs["a"]), "b": str(runs["b"])}
    done = run_cli("compare", *(a.format(**names) for a in args), "--workers", "1", "--out", "r.json",
                   home=home, cwd=tmp_path)
    assert done.returncode == 2, (case, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("genethello compare: error: "), (case, done.stderr)
    assert message.format(**names) in lines[0], (case, lines[0])
    assert not (tmp_path / "r.json").exists()


def test_a_database_of_an_older_schema_is_refused_not_upgraded(runs, home, tmp_path):
    """Opening an older database upgrades it, a write: compare only reads,
    so it says how to upgrade instead, and the file stays as it was."""
    old = tmp_path / "old.db"
    old.write_bytes((Path(__file__).parent / "data" / "run-0003.sqlite").read_bytes())
    before = old.read_bytes()
    done = run_cli("compare", "--db", str(old), "--db", str(runs["a"]), "--workers", "1", home=home, cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "older than this genethello's" in lines[0], done.stderr
    assert f"'genethello status --db {old}' upgrades it first" in lines[0]
    assert old.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["home", "old.db"]


def test_runs_of_one_name_in_two_databases_are_told_apart_by_the_file(runs, home, tmp_path):
    """Two databases each with a run called 'alpha' (two seeds of one
    config): the labels carry the database's file name; the anchor may be
    named by its chromosome text."""
    twin = _evolve(tmp_path, "twin.db", name="alpha", seed=13)
    db = Database.open(twin, create=False)
    try:
        text = best(db, find_run(db, "alpha").id).text
    finally:
        db.dispose()
    done = run_cli("compare", "--db", str(runs["a"]), "--db", str(twin), "--runs", "alpha", "--games", "2",
                   "--anchor", text, "--workers", "1", "--out", "r.json", home=home, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    doc = json.loads((tmp_path / "r.json").read_text())
    assert [p["label"].split("#")[0] for p in doc["players"]] == ["a.db:alpha", "twin.db:alpha"]
    assert doc["anchor"] == doc["players"][1]["label"] and doc["players"][1]["chromosome"] == text
    assert {r["player"]: r["stderr"] for r in doc["table"]}[doc["anchor"]] == 0.0


def test_fixed_players_join_the_field_and_can_anchor_it(runs, home, tmp_path):
    """--player adds a fixed opponent (a chromosome text, a shipped network)
    with the first run's settings: a scale anchored outside every run."""
    out = tmp_path / "fixed.json"
    done = run_cli("compare", "--db", str(runs["b"]), "--player", "p_1_10", "--player", "all-2-league",
                   "--anchor", "p_1_10", "--games", "4", "--workers", "1", "--quiet", "--out", str(out),
                   home=home, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    fixed = {p["label"]: p for p in doc["players"] if p["run"] == "(fixed)"}
    assert sorted(fixed) == ["all-2-league", "p_1_10"] and doc["anchor"] == "p_1_10"
    assert fixed["all-2-league"]["chromosome"].startswith("all-2_") and fixed["p_1_10"]["player_id"] is None
    beta = next(p for p in doc["players"] if p["run"] == "beta")
    assert fixed["p_1_10"]["settings"] == beta["settings"] and beta["settings"]["depth"] == 2
    table = {row["player"]: row for row in doc["table"]}
    assert (table["p_1_10"]["rating"], table["p_1_10"]["stderr"]) == (0.0, 0.0)
    assert all(row["games"] == 8 for row in doc["table"])
    bad = run_cli("compare", "--db", str(runs["b"]), "--player", "nonsense", "--workers", "1",
                  "--out", str(tmp_path / "bad.json"), home=home, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.strip().splitlines() == [
        "genethello compare: error: --player 'nonsense': unknown player 'nonsense': not a shipped network "
        "(all-2-coevolved, all-2-league, patterns-v2-net, pbt-td-searcher, table-player-3, table-player-4, "
        "table-player, table-td), "
        "a network file (a path or NAME.json), "
        "a chromosome (TYPE_BIRTH_GENES, e.g. p_1_10) or a database id (with --db)"]
