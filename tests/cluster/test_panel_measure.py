"""The strength panel as a run's measure: the config check that keeps the
fitness off the panel, the measurement on a real executor, its rating."""

from __future__ import annotations

import pytest

from genethello.cluster.config import ConfigError
from genethello.cluster.measures.anchored_rating import anchored_rating
from genethello.cluster.measures.panel import anchors_at
from genethello.cluster.measures.panel_measure import PREFIX, measure_panel, panel_rating
from genethello.cluster.measures.yardstick import YardstickScore
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.run_check import config_from_mapping
from genethello.core.families.individual_names import resolve_individual
from genethello.core.play.scoring import MatchScore

SEARCHER = {"name": "s", "population": {"type": "all-4+2x2-s8", "size": 4},
            "breeding": {"method": "pbt-td", "learning_games": 10},
            "fitness": {"kind": "fixed", "opponents": ["p_1_10", "fdmxcp_52_2:0:6:9:4:5"], "games_per_opponent": 2,
                        "depth": 2, "openings": "distinct-6"},
            "yardstick": {"league_double_games": 0, "panel_games": 4, "depth": 1}}


def config(**yardstick):
    data = {**SEARCHER, "yardstick": {**SEARCHER["yardstick"], **yardstick}}
    return config_from_mapping(data)


def test_a_fitness_that_plays_the_panel_is_refused_unless_the_config_names_the_panel():
    with pytest.raises(ConfigError, match="fitness.opponents: p_1_10 is on the strength panel"):
        config()
    assert config(panel_games=0).yardstick.panel_games == 0          # no panel measure: no check
    named = config(panel_members=["p_1_10", "pbt-td-searcher"])
    assert named.yardstick.panel_members == ("p_1_10", "pbt-td-searcher")
    other = {**SEARCHER, "fitness": {**SEARCHER["fitness"], "opponents": ["wpc"]}}
    assert config_from_mapping(other).yardstick.panel_games == 4


@pytest.mark.parametrize("yardstick, message", [
    ({"panel_games": 3, "panel_members": ["p_1_10"]}, "yardstick.panel_games: 3 must be even"),
    ({"panel_openings": "distinct-6", "panel_members": ["p_1_10"]}, "also fitness.openings's set"),
    ({"panel_openings": "nonsense", "panel_members": ["p_1_10"]}, "yardstick.panel_openings"),
    ({"panel_members": ["no_such_player"]}, "yardstick.panel_members"),
])
def test_bad_panel_keys_are_one_line(yardstick, message):
    with pytest.raises(ConfigError, match=message):
        config(**yardstick)


def test_the_measure_plays_every_other_member_and_stores_whole_or_not_at_all():
    c = config(panel_members=["p_1_10", "pbt-td-searcher", "fdmxcp_52_2:0:6:9:4:5"])
    candidate = resolve_individual("pbt-td-searcher")
    scores = measure_panel(c, candidate, SerialExecutor(), lambda: False)
    assert scores is not None
    assert [s.opponent for s in scores] == [PREFIX + "p_1_10", PREFIX + "fdmxcp_52_2:0:6:9:4:5"]   # not itself
    assert all(s.games == 4 for s in scores)
    assert measure_panel(c, candidate, SerialExecutor(), lambda: False) == scores
    assert measure_panel(c, candidate, SerialExecutor(), lambda: True) is None
    assert measure_panel(config(panel_games=0), candidate, SerialExecutor(), lambda: False) == []


def test_the_panel_rows_give_the_anchored_rating():
    table = anchors_at(4, 8)
    assert table is not None
    rows = [YardstickScore(PREFIX + "p_1_10", MatchScore(30, 0, 10)), YardstickScore("random", MatchScore(40, 0, 0)),
            YardstickScore(PREFIX + "fdmxcp_52_2:0:6:9:4:5", MatchScore(20, 0, 20))]
    rating = panel_rating(rows, 4, 8)
    assert rating is not None and rating.games == 80
    fdmxcp = table.ratings["fdmxcp_52_2:0:6:9:4:5"]
    from genethello.cluster.measures.anchored_rating import AnchoredResult

    assert rating == anchored_rating([AnchoredResult(0.0, 40, 30.0, 0.0), AnchoredResult(fdmxcp.rating, 40, 20.0,
                                                                                         fdmxcp.stderr)])
    assert panel_rating(rows, 3, 8) is None and panel_rating(rows[1:2], 4, 8) is None


# -- in a learning run ------------------------------------------------------------------------------------------

#: A tiny pbt-td run whose yardstick is the panel alone (two members at depth 1, 2 games each), at generations 1 and 2.
PANEL_RUN = dict(name="panel-run", population__type="all-2-s4", population__size=4, breeding__method="pbt-td",
                 breeding__learning_games=10, breeding__learning_batch=5, fitness__kind="coevolution",
                 fitness__games_per_pair=1, fitness__depth=1, fitness__openings="distinct-4", fitness__batch_games=4,
                 hall__games_per_member=0, yardstick__league_double_games=0, yardstick__every=2,
                 yardstick__depth=1, yardstick__panel_games=2,
                 yardstick__panel_members=["p_1_10", "fdmxcp_52_2:0:6:9:4:5"], stop__max_generations=2)


def _drive(db_path, config) -> dict:
    """Run the config as ``evolve`` does (with a yardstick) on ``executor``; its snapshot."""
    from genethello.cluster.db import Database
    from genethello.cluster.measures.yardstick import measure
    from genethello.cluster.run.coordinator import Coordinator, create_run
    from genethello.cluster.run.run_check import load_config

    from .conftest import db_snapshot

    def run(path, executor):
        db = Database.open(path, create=True)
        try:
            run_id = create_run(db, load_config(config))
            assert Coordinator(db, run_id, executor, yardstick=measure).run() == "finished"
        finally:
            db.dispose()
        return db_snapshot(path, "panel-run")
    return run


def test_a_learning_run_stores_its_panel_measure_the_same_on_any_workers(ray_cluster, tmp_path):
    from genethello.cluster.run.executors import RayExecutor

    from .conftest import query, snapshot_diff, write_config

    run = _drive(tmp_path, write_config(tmp_path, **PANEL_RUN))
    reference = run(tmp_path / "ref.db", SerialExecutor(0.001))
    rows = query(tmp_path / "ref.db", "SELECT generation, opponent, games FROM yardstick_results ORDER BY generation, "
                                      "opponent")
    assert rows == [(g, PREFIX + name, 2) for g in (1, 2) for name in ("fdmxcp_52_2:0:6:9:4:5", "p_1_10")]
    snap = run(tmp_path / "w2.db", RayExecutor(2, 0.001, 2))
    assert snap == reference, snapshot_diff(snap, reference)


def test_best_status_and_the_runs_last_line_say_the_panel_measure(tmp_path):
    """How good the best is on a fixed scale (issue 38): the last panel
    measurement, with its games and the anchored rating, in best and status
    and at the end of evolve."""
    from .conftest import run_cli, write_config

    config = write_config(tmp_path, **{**PANEL_RUN, "yardstick__depth": 2, "games__exact_empties": 8})
    db = tmp_path / "panel.db"
    evolve = run_cli("evolve", "--config", str(config), "--db", str(db), "--workers", "1", "--quiet",
                     home=tmp_path, cwd=tmp_path)
    assert evolve.returncode == 0, evolve.stderr
    for out in (evolve.stdout, run_cli("best", "--db", str(db), home=tmp_path, cwd=tmp_path).stdout,
                run_cli("status", "--db", str(db), home=tmp_path, cwd=tmp_path).stdout):
        line = next((x for x in out.splitlines() if x.startswith("measure at generation 2 of ")), None)
        assert line is not None, out
        assert "the strength panel at depth 2 (exact" in line and "2 games a member" in line
        assert "panel p_1_10 " in line and "; rating " in line, line
