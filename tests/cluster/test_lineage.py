"""Every chromosome's ancestry (issue 25 §2): the breeders say why each slot's
member is there, the run stores it on the population slot, old runs read as
"unknown", and ``genethello lineage`` prints the family tree.

The breeders' origins are checked against what the members are: with no
mutation a crossover child holds only its two parents' genes and a mutant
differs from its parent in exactly one gene, so the recorded parents must be
the ones the child came from. Recording origins changes no draw (the members
equal those of the plain functions; the run snapshots of test_evolution and
test_network_runs are unchanged)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.cluster.breeding.breeders import RatedGeneration, breeder_for
from genethello.cluster.breeding.operators import breed_with_origins, parent_count
from genethello.cluster.breeding.origins import ORIGIN_KINDS, Origin, StoredOrigin, resolve
from genethello.cluster.breeding.population import (
    generation_rng,
    next_population_with_origins,
    random_search_with_origins,
)
from genethello.cluster.cli.main import main as cli_main
from genethello.cluster.config import BreedingConfig
from genethello.cluster.db import Database
from genethello.cluster.reads import find_player, find_run, lineage, operator_stats
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config
from genethello.core.families.chromosome import Chromosome, ChromosomeType

from .conftest import query, write_config

FDMXCP = ChromosomeType.parse("fdmxcp")
FIXTURE_0003 = Path(__file__).parent / "data" / "run-0003.sqlite"


def first(size: int, seed: int = 3) -> list[Chromosome]:
    return list(breeder_for(BreedingConfig()).first_population(FDMXCP, size, (), generation_rng(seed, 1)).members)


def differing(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum(x != y for x, y in zip(a, b))


# --------------------------------------------------------------------------- #
# The breeders' origins


def test_generation_1_is_the_initial_file_then_random():
    initial = [Chromosome.parse("fdmxcp_1_0:0:10:0:0:10"), Chromosome.parse("fdmxcp_1_1:1:1:1:1:1"),
               Chromosome.parse("fdmxcp_1_0:0:10:0:0:10")]     # a repeated line counts once
    for method in ("ga", "random-search"):
        bred = breeder_for(BreedingConfig(method=method)).first_population(FDMXCP, 5, initial, generation_rng(3, 1))
        assert [o.kind for o in bred.origins] == ["initial", "initial", "random", "random", "random"]
        assert all(o.parents == () for o in bred.origins)
    assert [o.kind for o in breeder_for(BreedingConfig()).first_population(
        FDMXCP, 4, (), generation_rng(3, 1)).origins] == ["random"] * 4


def test_the_ga_records_elites_crossovers_mutants_and_a_reentered_member():
    ranked = first(6)
    star = Chromosome.parse("fdmxcp_1_0:0:10:0:0:10")
    config = BreedingConfig(elites=2, mutation_rate=0.0)   # no mutation: a child shows its parents
    rated = RatedGeneration(4, FDMXCP, ranked, [star])
    bred = breeder_for(config).next_population(rated, 6, np.random.default_rng(1))
    # P=6: 1 mutant (10 %), 3 crossover children; the injected member takes the last bred slot
    assert [o.kind for o in bred.origins] == ["elite", "elite", "crossover", "crossover", "crossover", "reentered"]
    assert bred.origins[:2] == [Origin("elite", (0,)), Origin("elite", (1,))]
    assert bred.origins[5] == Origin("reentered", (0,)) and bred.members[5] == star
    assert list(bred.members) == next_population_with_origins(ranked, 6, 5, config, np.random.default_rng(1),
                                                              [star])[0]
    n_parents = parent_count(6)
    for member, origin in zip(bred.members[2:5], bred.origins[2:5]):
        a, b = (ranked[i].genes for i in origin.parents)
        assert all(i < n_parents for i in origin.parents) and origin.parents[0] != origin.parents[1]
        assert all(g in (x, y) for g, x, y in zip(member.genes, a, b)), (member, origin)
    without = breeder_for(config).next_population(RatedGeneration(4, FDMXCP, ranked), 6, np.random.default_rng(1))
    assert without.origins[5].kind == "mutant"
    (k,) = without.origins[5].parents
    assert differing(without.members[5].genes, ranked[k].genes) == 1


def test_a_newborn_that_duplicates_a_member_is_recorded_as_mutated_again():
    # every ranked member holds the same genes: with no mutation each
    # crossover child first comes out as a copy of the elite, and is mutated
    # until unique; a mutant differs from its parent by construction
    same = [Chromosome.from_genes(FDMXCP, birth, (5, 5, 5, 5, 5, 5)) for birth in range(1, 7)]
    bred = breeder_for(BreedingConfig(elites=1, mutation_rate=0.0)).next_population(
        RatedGeneration(6, FDMXCP, same), 6, np.random.default_rng(2))
    assert bred.origins[0] == Origin("elite", (0,))
    assert [(o.kind, o.detail) for o in bred.origins[1:]] == [("duplicate-mutated", "crossover")] * 4 + [
        ("mutant", None)]
    assert len({m.genes for m in bred.members}) == 6


def test_random_search_records_elites_reentered_and_random():
    ranked = first(6)
    star = Chromosome.parse("fdmxcp_1_0:0:10:0:0:10")
    config = BreedingConfig(elites=2, method="random-search")
    bred = breeder_for(config).next_population(RatedGeneration(1, FDMXCP, ranked, [ranked[0], star]), 6,
                                               np.random.default_rng(5))
    assert [o.kind for o in bred.origins] == ["elite", "elite", "reentered", "random", "random", "random"]
    assert bred.origins[2] == Origin("reentered", (1,))      # ranked[0] is an elite already: star is injected[1]
    assert list(bred.members) == random_search_with_origins(ranked, 6, 2, config, np.random.default_rng(5),
                                                            [ranked[0], star])[0]


@settings(max_examples=40, deadline=None)
@given(P=st.integers(2, 14), elites=st.integers(0, 3), parent_fraction=st.floats(0.1, 1.0),
       mutant_fraction=st.floats(0.0, 0.5), seed=st.integers(0, 2**32 - 1))
def test_every_slot_names_parents_of_the_ranking_and_the_draws_are_unchanged(P, elites, parent_fraction,
                                                                            mutant_fraction, seed):
    elites = min(elites, P)
    ranked = [c.genes for c in first(P, seed % 1000)]
    ranges = FDMXCP.gene_ranges()
    kwargs = dict(parent_fraction=parent_fraction, mutant_fraction=mutant_fraction)
    genes, origins = breed_with_origins(ranked, P, elites, ranges, np.random.default_rng(seed), **kwargs)
    # The draws are the seed's alone; that recording origins left them as they
    # were before is shown by the 0001 and 0003 fixtures resuming to a fresh
    # run's content (test_migrations, test_network_runs).
    assert genes == breed_with_origins(ranked, P, elites, ranges, np.random.default_rng(seed), **kwargs)[0]
    assert len(origins) == P
    assert origins[:elites] == [Origin("elite", (k,)) for k in range(elites)]
    n_parents = parent_count(P, parent_fraction)
    for origin in origins[elites:]:
        assert origin.kind in ("crossover", "mutant")
        assert len(origin.parents) == (2 if origin.kind == "crossover" else 1)
        assert all(0 <= i < n_parents for i in origin.parents)


def test_resolving_names_player_ids_and_the_source_generation():
    origins = [Origin("elite", (1,)), Origin("crossover", (0, 2)), Origin("mutant", (2,)),
               Origin("reentered", (0,)), Origin("random")]
    assert resolve(origins, 5, [11, 12, 13], [40]) == [
        StoredOrigin("elite", 12, None, 4), StoredOrigin("crossover", 11, 13, 4), StoredOrigin("mutant", 13, None, 4),
        StoredOrigin("reentered", 40, None, 4), StoredOrigin("random", None, None, None)]
    with pytest.raises(ValueError, match="beyond the 3 given"):
        resolve([Origin("mutant", (3,))], 2, [1, 2, 3])
    with pytest.raises(ValueError, match="is not one of"):
        Origin("cloned")


# --------------------------------------------------------------------------- #
# A run stores them


def run_small(folder: Path, name: str = "t", **overrides) -> Path:
    db_path = folder / "runs.db"
    db = Database.open(db_path, create=True)
    try:
        run_id = create_run(db, load_config(write_config(folder, f"{name}.toml", name=name, **overrides)))
        assert Coordinator(db, run_id, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
    finally:
        db.dispose()
    return db_path


def slots(db_path: Path, run: str = "t") -> list[tuple]:
    return query(db_path, "SELECT p.generation, p.slot, p.player_id, p.origin, p.parent_a, p.parent_b, "
                          "p.source_generation, p.source_run FROM population p JOIN runs r ON r.id = p.run_id "
                          "WHERE r.name = ? ORDER BY p.generation, p.slot", run)


def check_parents_existed(rows: list[tuple], hall: set[int], other_runs: set[int] = frozenset()) -> None:
    """Every slot of generation g > 1 names parents that were members of
    generation g - 1 (a re-entered member: of the hall, or another run)."""
    members: dict[int, set[int]] = {}
    for g, _, pid, *_ in rows:
        members.setdefault(g, set()).add(pid)
    for g, slot, pid, origin, a, b, source, _ in rows:
        assert origin in ORIGIN_KINDS, (g, slot, origin)
        if g == 1:
            assert origin in ("random", "initial") and a is None and b is None and source is None
            continue
        assert source == g - 1
        if origin == "elite":
            assert a == pid and pid in members[g - 1] and b is None
        elif origin == "reentered":
            assert a in hall | other_runs
        elif origin in ("crossover", "mutant", "duplicate-mutated"):
            assert {a, b} - {None} <= members[g - 1] and a is not None
            assert (b is not None) == (origin == "crossover") or origin == "duplicate-mutated"
        else:
            assert origin == "random" and a is None


def test_a_ga_run_stores_every_slots_origin_and_the_tree_reads_it(tmp_path):
    db_path = run_small(tmp_path, stop__max_generations=4)
    rows = slots(db_path)
    assert len(rows) == 4 * 6
    hall = {pid for (pid,) in query(db_path, "SELECT player_id FROM hall_members")}
    check_parents_existed(rows, hall)
    # small config: 2 elites, 3 crossover children, 1 mutant (the injected
    # hall's best replaces it when absent); a child that duplicates a member
    # is mutated again
    for g in (2, 3, 4):
        kinds = [r[3] for r in rows if r[0] == g]
        assert kinds[:2] == ["elite", "elite"]
        assert all(k in ("crossover", "duplicate-mutated") for k in kinds[2:5]), kinds
        assert kinds[5] in ("mutant", "reentered", "duplicate-mutated")
    db = Database.open(db_path, create=False)
    try:
        child = next(r for r in rows if r[3] == "crossover" and r[0] == 3)
        tree = lineage(db, child[2], depth=2)
        assert tree.origin == "crossover" and tree.parent_ids == (child[4], child[5]) and tree.generation == 3
        assert {p.player_id for p in tree.parents} == {child[4], child[5]}
        assert all(p.generation is not None and p.generation <= 2 for p in tree.parents)
        assert tree.describe() == f"crossover of #{child[4]} and #{child[5]}, then mutation"
        assert tree.points is not None and tree.games == 10      # 6 members: 10 games each
        leaf = lineage(db, rows[0][2], depth=3)
        assert leaf.origin == "random" and leaf.parents == () and not leaf.unexpanded
        assert lineage(db, child[2], depth=0).unexpanded
        assert find_player(db, str(child[2])) == child[2]
        text = query(db_path, "SELECT text FROM chromosomes WHERE id = ?", child[2])[0][0]
        assert find_player(db, text) == child[2]

        stats = operator_stats(db, find_run(db, "t").id)
        assert [g.generation for g in stats.generations] == [1, 2, 3, 4]
        assert all(g.top_size == 2 for g in stats.generations)          # ceil(6 / 4)
        assert all(sum(c.top for c in g.counts) == 2 for g in stats.generations)
        first_gen = stats.generations[0]
        assert [(c.origin, c.produced) for c in first_gen.counts] == [("random", 6)]
        totals = {c.origin: c.produced for c in stats.totals}
        assert sum(totals.values()) == 24 and totals["elite"] == 6 and totals["random"] == 6
    finally:
        db.dispose()


def test_a_text_held_by_two_runs_needs_the_run(tmp_path):
    db_path = run_small(tmp_path, stop__max_generations=2)
    run_small(tmp_path, name="u", stop__max_generations=2)    # the same seed: the same generation 1
    text = query(db_path, "SELECT text FROM chromosomes WHERE id = 1")[0][0]
    db = Database.open(db_path, create=False)
    try:
        with pytest.raises(ValueError, match=r"is in 2 runs \(t, u\).*pass --run"):
            find_player(db, text)
        assert find_player(db, text, find_run(db, "u").id) != 1
        with pytest.raises(ValueError, match="another run"):
            find_player(db, "1", find_run(db, "u").id)
    finally:
        db.dispose()


def test_reentered_from_another_run_names_that_run(tmp_path):
    run_small(tmp_path, name="a", stop__max_generations=2)
    db_path = run_small(tmp_path, name="b", seed=12, stop__max_generations=3, breeding__inject_top=2,
                        breeding__inject_other_runs=True, breeding__elites=1)
    rows = slots(db_path, "b")
    a_players = {pid for (pid,) in query(db_path, "SELECT c.id FROM chromosomes c JOIN runs r ON r.id = c.run_id "
                                                  "WHERE r.name = 'a'")}
    hall = {pid for (pid,) in query(db_path, "SELECT h.player_id FROM hall_members h JOIN runs r "
                                             "ON r.id = h.run_id WHERE r.name = 'b'")}
    check_parents_existed(rows, hall, a_players)
    (a_id,), = query(db_path, "SELECT id FROM runs WHERE name = 'a'")
    from_a = [r for r in rows if r[3] == "reentered" and r[4] in a_players]
    assert from_a and all(r[7] == a_id for r in from_a)
    db = Database.open(db_path, create=False)
    try:
        node = lineage(db, from_a[0][2], depth=1)
        assert node.source_run == "a" and node.describe().startswith("re-entered from run a")
        assert [p.run_name for p in node.parents] == ["a"]
    finally:
        db.dispose()


def test_an_old_database_upgrades_and_its_lineage_reads_unknown(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE_0003, path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0003",)]
    db = Database.open(path, create=False)
    try:
        assert query(path, "SELECT count(*), count(origin) FROM population") == [(12, 0)]
        node = lineage(db, query(path, "SELECT player_id FROM population WHERE generation = 2")[0][0])
        assert node.origin == "unknown" and node.parents == ()
        assert node.describe() == "origin unknown (stored before lineage was recorded)"
        stats = operator_stats(db, 1)
        assert [(c.origin, c.produced) for c in stats.totals] == [("unknown", 12)]
        # resumed, it records the origins of what it breeds from now on
        assert Coordinator(db, 1, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
        assert query(path, "SELECT DISTINCT generation FROM population WHERE origin IS NOT NULL") == [(3,)]
    finally:
        db.dispose()


def test_the_lineage_command(tmp_path, capsys):
    db_path = run_small(tmp_path, stop__max_generations=3)
    child = next(r for r in slots(db_path) if r[3] == "crossover" and r[0] == 3)
    assert cli_main(["lineage", str(child[2]), "--db", str(db_path), "--generations", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"lineage of #{child[2]} (run t), 1 generations of ancestors")
    assert f"crossover of #{child[4]} and #{child[5]}, then mutation" in out[1] and "born 3" in out[1]
    assert out[2].startswith("├─ #") and any(line.startswith("└─ #") for line in out[3:])
    assert cli_main(["lineage", str(child[2]), "--db", str(db_path), "--json"]) == 0
    tree = json.loads(capsys.readouterr().out)
    assert tree["origin"] == "crossover" and tree["parent_ids"] == [child[4], child[5]]
    assert {p["id"] for p in tree["parents"]} == {child[4], child[5]}
    for argv, message in ((["999"], "no chromosome with id 999"), (["nonsense"], "no chromosome 'nonsense'"),
                          (["1", "--run", "zz"], "no run named or numbered 'zz'")):
        assert cli_main(["lineage", *argv, "--db", str(db_path)]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and message in err, err
    assert cli_main(["lineage", "1", "--db", str(tmp_path / "none.db")]) == 2
    assert "no database at" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli_main(["lineage", "1", "--db", str(db_path), "--depth", "-1"])      # its old name, still checked


# --------------------------------------------------------------------------- #
# Networks

#: A tiny network run: 6 all-2 networks against the WPC heuristic, 16 games each.
TINY_NET = dict(population__type="all-2", population__size=6, fitness__kind="fixed", fitness__opponents=["wpc"],
                fitness__games_per_opponent=16, fitness__start_plies=2, fitness__batch_games=32,
                hall__games_per_member=4, hall__every=2, stop__max_generations=3)


def test_a_cma_es_run_records_samples_of_the_previous_generations_distribution(tmp_path):
    db_path = run_small(tmp_path, name="cma", breeding__method="cma-es", **TINY_NET)
    rows = slots(db_path, "cma")
    assert [(g, origin, a, b, source) for g, _, _, origin, a, b, source, _ in rows] == [
        (g, "cma-sample", None, None, g - 1) for g in (1, 2, 3) for _ in range(6)]
    db = Database.open(db_path, create=False)
    try:
        node = lineage(db, rows[-1][2])
        assert node.describe() == "a sample of generation 2's CMA-ES distribution" and node.parents == ()
        assert lineage(db, rows[0][2]).describe() == "a sample of CMA-ES's starting distribution"
        # the best so far is a distribution mean (the hall's champion), never a member
        best = query(db_path, "SELECT c.id FROM chromosomes c LEFT JOIN population p ON p.player_id = c.id "
                              "WHERE p.player_id IS NULL")
        assert best
        mean = lineage(db, best[0][0])
        assert mean.origin == "cma-mean" and mean.generation is None and mean.hall_rating is not None
        stats = operator_stats(db, find_run(db, "cma").id)
        assert [(c.origin, c.produced, c.top) for c in stats.totals] == [("cma-sample", 18, 6)]
    finally:
        db.dispose()


def test_a_network_ga_run_records_its_operators(tmp_path):
    db_path = run_small(tmp_path, name="nga", breeding__method="ga", breeding__elites=1, **TINY_NET)
    rows = slots(db_path, "nga")
    hall = {pid for (pid,) in query(db_path, "SELECT player_id FROM hall_members")}
    check_parents_existed(rows, hall)
    for g in (2, 3):
        kinds = [r[3] for r in rows if r[0] == g]
        # P=6, 1 elite: 4 crossover children, 1 mutant (or the hall's best re-entered in its place)
        assert kinds[:5] == ["elite", "crossover", "crossover", "crossover", "crossover"], kinds
        assert kinds[5] in ("mutant", "reentered")


def test_best_shows_parents_on_request_only(tmp_path, capsys):
    db_path = run_small(tmp_path, stop__max_generations=3)
    assert cli_main(["best", "--db", str(db_path), "--top", "3"]) == 0
    plain = capsys.readouterr().out
    assert "from:" not in plain
    assert cli_main(["best", "--db", str(db_path), "--top", "3", "--parents"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln for ln in lines if "from:" not in ln] == plain.splitlines()      # the same lines, and one more each
    rows = [i for i, ln in enumerate(lines) if ln.split() and ln.split()[0].isdigit()]
    assert len(rows) == 3 and all(lines[i + 1].lstrip().startswith("from: ") for i in rows)
    db = Database.open(db_path, create=False)
    try:
        pid = int(lines[rows[0]].split()[0])
        assert lines[rows[0] + 1].strip() == f"from: {lineage(db, pid, 0).describe()}"
    finally:
        db.dispose()
    assert cli_main(["best", "--db", str(db_path), "--top", "2", "--parents", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert all(r["origin"] in ORIGIN_KINDS and isinstance(r["parent_ids"], list) and r["how"] for r in found)


def test_the_operators_table(tmp_path, capsys):
    db_path = run_small(tmp_path, stop__max_generations=3)
    assert cli_main(["lineage", "--operators", "--db", str(db_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "top 25%" in lines[0]
    header, *rows, total = lines[1:]
    kinds = header.split()[2:]
    assert header.split()[:2] == ["gen", "top"] and "random" in kinds and "elite" in kinds
    assert [r.split()[:2] for r in rows] == [["1", "2"], ["2", "2"], ["3", "2"]]     # ceil(6 / 4) = 2
    assert rows[0].split()[2 + kinds.index("random")] == "6/2"
    for row in rows:     # 6 members a generation, 2 of them at the top
        cells = [c for c in row.split()[2:] if c != "-"]
        assert sum(int(c.split("/")[0]) for c in cells) == 6 and sum(int(c.split("/")[1]) for c in cells) == 2
    assert total.split()[0] == "all"
    assert cli_main(["lineage", "--operators", "--db", str(db_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["run"] == "t" and sum(c[0] for c in data["totals"].values()) == 18
    assert cli_main(["lineage", "1", "--operators", "--db", str(db_path)]) == 2
    assert "not both" in capsys.readouterr().err
    # Without a chromosome: the best so far's tree.
    assert cli_main(["lineage", "--db", str(db_path), "--json"]) == 0
    (best_id,), = query(db_path, "SELECT best_player_id FROM generations ORDER BY number DESC LIMIT 1")
    assert json.loads(capsys.readouterr().out)["id"] == best_id


def natural_lineage(db_path: Path, run: str) -> list[tuple]:
    """A run's stored lineage with players named by text (ids depend on what else the database holds)."""
    return query(db_path, "SELECT p.generation, p.slot, c.text, p.origin, a.text, b.text, p.source_generation "
                          "FROM population p JOIN runs r ON r.id = p.run_id JOIN chromosomes c ON c.id = p.player_id "
                          "LEFT JOIN chromosomes a ON a.id = p.parent_a LEFT JOIN chromosomes b ON b.id = p.parent_b "
                          "WHERE r.name = ? ORDER BY p.generation, p.slot", run)


def test_the_lineage_is_a_function_of_the_config_and_seed(tmp_path):
    (tmp_path / "alone").mkdir()
    (tmp_path / "shared").mkdir()
    alone = run_small(tmp_path / "alone", stop__max_generations=3)
    run_small(tmp_path / "shared", name="other", seed=99, stop__max_generations=2)    # shifts every id
    shared = run_small(tmp_path / "shared", stop__max_generations=3)
    a, b = natural_lineage(alone, "t"), natural_lineage(shared, "t")
    assert len(a) == 18 and a == b
    assert slots(alone) != slots(shared)      # the ids do differ


def test_a_shared_ancestor_is_drawn_once_then_named():
    from genethello.cluster.cli.lineage_command import tree_lines
    from genethello.cluster.reads import LineageNode

    def node(pid: int, *parents: LineageNode) -> LineageNode:
        origin = "crossover" if parents else "random"
        return LineageNode(pid, 1, "t", f"x_{pid}", 1, 1, origin, None, None,
                           tuple(p.player_id for p in parents), parents)

    grand = node(1, node(8), node(9))
    tree = node(4, node(2, grand, node(7)), node(3, grand, node(6)))
    lines = tree_lines(tree)
    assert [line.split(" x_")[0] for line in lines] == [
        "#4", "├─ #2", "│  ├─ #1", "│  │  ├─ #8", "│  │  └─ #9", "│  └─ #7", "└─ #3", "   ├─ #1", "   └─ #6"]
    assert lines[7] == "   ├─ #1 x_1 (drawn above, with its ancestors)"


def test_lineage_depth_says_it_counts_generations_not_plies(capsys):
    from genethello.cluster.cli.main import build_parser

    args = build_parser("lineage").parse_args(["lineage", "--depth", "2"])
    assert args.depth == 2
    assert capsys.readouterr().err == ("genethello lineage: --depth 2 is read as --generations 2 (generations of "
                                       "ancestors, not search plies)\n")
    build_parser("lineage").parse_args(["lineage", "--generations", "2"])
    assert capsys.readouterr().err == ""
