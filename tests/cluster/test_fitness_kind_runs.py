"""A fitness kind for every family where it makes sense (issue 35): a
GeneThello run against fixed opponents (or the hall) keeps each member's points, as a
network run does, played by search at ``fitness.depth``; its hall and its
breeder are GeneThello's. What it stores is a function of its config and
seed: 1 and 2 Ray workers store what a serial run stores. (A network run's
round robin is ``fitness.kind = "coevolution"``: test_network_runs and the
determinism snapshots.)"""

from __future__ import annotations

import pytest

from genethello.cluster.cli.main import main as cli_main
from genethello.cluster.config import ConfigError
from genethello.cluster.db import Database
from genethello.cluster.family_traits import traits_of
from genethello.cluster.fitness.fitness_kinds import FITNESS_KINDS
from genethello.cluster.reads import find_run, keeps_game_records, rating_name
from genethello.cluster.run.run_check import config_from_mapping
from genethello.core.families.registry import parse_kind

from .conftest import SMALL_RUN
from .test_network_runs import assert_workers_store, serial_reference

#: Six chromosomes against two fixed opponents (the WPC heuristic searched,
#: a chromosome), two double games each: 48 games a generation in 12 tasks.
GT_FIXED = dict(name="fixed", fitness__kind="fixed", fitness__opponents=["wpc", "p_1_10"],
                fitness__games_per_opponent=2, fitness__depth=1, fitness__start_plies=2, fitness__batch_games=4,
                hall__games_per_member=4, stop__max_generations=3)


def test_a_genethello_run_against_fixed_opponents_keeps_points_on_any_number_of_workers(ray_cluster, tmp_path):
    folder = tmp_path / "reference"
    folder.mkdir()
    reference = serial_reference(folder, "fixed", **GT_FIXED)
    assert reference["run"][2] == "finished"
    assert not reference["games"]                                   # no game kept one by one
    assert len(reference["fitness"]) == 3 * 12                      # every generation's points, task by task
    assert {n for _, _, _, n in reference["fitness"]} == {4}
    assert [g[2] for g in reference["generations"]] == [48, 48, 48]  # each generation's games total
    entered = sorted(e for _, e in reference["hall_members"])   # the champion of each generation, once
    assert entered[0] == 1 and set(entered) <= {1, 2, 3} and reference["hall_games"]
    assert all(text.startswith(SMALL_RUN["population.type"]) for text, _ in reference["hall_members"])
    assert_workers_store(tmp_path, "fixed", reference, **GT_FIXED)


def test_a_genethello_run_with_hall_fitness_plays_the_members_that_entered_before(tmp_path, capsys):
    """Generation 1 plays the fixed opponents (the hall is empty), each
    later one every member entered before it: 2 double games against each.
    Its reports say what a run kept as points holds: a performance rating,
    no W/D/L, no moves to export (the fitness kind's word, not the family's)."""
    snap = serial_reference(tmp_path, "fixed", **{**GT_FIXED, "fitness__kind": "hall", "stop__max_generations": 4})
    assert snap["run"][2] == "finished" and not snap["games"]
    entered = sorted(e for _, e in snap["hall_members"])
    assert entered == [1, 2, 3]
    assert [g[2] for g in snap["generations"]] == [6 * 8, 6 * 4, 6 * 8, 6 * 12]

    db = str(tmp_path / "ref.db")
    assert cli_main(["best", "--db", db]) == 0
    best = capsys.readouterr().out
    rows = best.splitlines()[next(i for i, ln in enumerate(best.splitlines()) if ln.lstrip().startswith("id")) + 1:]
    assert rows and not any("0/0/0" in row for row in rows) and "round robins" not in best, best
    assert "performance rating" in best and "league" not in best.lower(), best
    assert cli_main(["export", "--db", db, "--format", "sgf", "--out", str(tmp_path / "games")]) == 0
    exported = capsys.readouterr().out
    assert "stores no game moves" in exported and "genethello best --db" in exported, exported
    assert not (tmp_path / "games").exists()
    db_handle = Database.open(tmp_path / "ref.db", create=False)
    try:
        run = find_run(db_handle, None)
        assert not keeps_game_records(run) and rating_name(run) == "rating"
    finally:
        db_handle.dispose()


def test_a_genethello_run_against_fixed_opponents_on_the_fast_loop_is_refused_in_one_line():
    data = {"population": {"type": "oe_fmc", "size": 4}, "fitness": {"kind": "fixed", "opponents": ["wpc"]}}
    with pytest.raises(ConfigError, match=r"^fitness\.depth: population\.type 'oe_fmc' plays fitness\.kind "
                                          r"'fixed' by search: set fitness\.depth >= 1"):
        config_from_mapping(data)


@pytest.mark.parametrize("family", ["oe_fmc", "all-2"])
def test_the_kind_says_how_a_generation_keeps_its_fitness(family):
    """GeneThello keeps its round robin game by game and points for every
    other kind; a network run keeps points for every kind."""
    keeps_records = traits_of(parse_kind(family)).keeps_game_records
    kept = {name: kind.kept_as_points(keeps_records) for name, kind in FITNESS_KINDS.items()}
    assert kept == {"coevolution": not keeps_records, "fixed": True, "hall": True, "mixed": True}
    assert keeps_records == (family == "oe_fmc")
