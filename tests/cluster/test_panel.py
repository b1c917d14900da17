"""The strength panel's pure parts: its members, openings, schedule, tally
and anchors file; and the ``genethello panel`` command through a real
subprocess (a tiny panel, few games)."""

import json
import shutil
import subprocess
import sys

import pytest

from genethello.cluster.measures.panel import (
    DEFAULT_MEMBERS,
    PanelError,
    _read_anchors,
    anchors_at,
    engine_key,
    panel_members,
    panel_openings,
    panel_schedule,
    shipped_anchors,
    tally,
)

RHINO = shutil.which("gtp-rhino") or shutil.which("gtp-rhino", path="/usr/games")


def test_an_engine_is_anchored_by_its_program_name_and_arguments():
    assert engine_key("/usr/games/gtp-rhino -l 3") == "gtp-rhino -l 3"
    assert engine_key("gtp-rhino   -l 3") == "gtp-rhino -l 3"
    with pytest.raises(PanelError, match="empty"):
        engine_key("  ")


def test_members_are_named_once():
    members = panel_members(engines=["gtp-rhino -l 3"])
    assert [m.key for m in members] == [*DEFAULT_MEMBERS, "gtp-rhino -l 3"]
    assert members[-1].engine and not members[0].engine
    with pytest.raises(PanelError, match="twice"):
        panel_members(["p_1_10"], ["gtp-rhino -l 3", "/usr/games/gtp-rhino -l 3"])


def test_openings_are_distinct_and_their_own_series():
    openings = panel_openings("distinct-6", 1, 40)
    assert len(openings) == 20 == len(set(openings))
    assert panel_openings("distinct-6", 1, 40) == openings
    assert panel_openings("distinct-6", 2, 40) != openings
    from genethello.cluster.measures.compare import compare_openings

    assert compare_openings("distinct-6", 1, 40) != openings   # not the compare command's
    for games in (0, 3):
        with pytest.raises(PanelError, match="even"):
            panel_openings("distinct-6", 1, games)
    with pytest.raises(PanelError, match="distinct openings"):
        panel_openings("distinct-1", 1, 20)


def test_every_member_plays_every_opening_with_both_colours():
    openings = panel_openings("distinct-6", 1, 6)
    schedule = panel_schedule(2, openings)
    assert [g.index for g in schedule] == list(range(12))
    assert {(g.member, g.opening, g.candidate_black) for g in schedule} == \
        {(m, o, b) for m in range(2) for o in openings for b in (True, False)}
    margins = [10, -4, 0, 2, 6, 8, -1, -1, -1, -1, -1, -1]
    first, second = tally(2, schedule, margins)
    assert (first.wins, first.draws, first.losses) == (4, 1, 1)
    assert (second.wins, second.draws, second.losses) == (0, 0, 6)
    with pytest.raises(ValueError, match="results"):
        tally(2, schedule, margins[:-1])


def test_the_anchors_file_is_read_and_checked():
    good = {"tables": [{"depth": 4, "exact": 8, "model": "BT", "games_per_pair": 400, "openings": "distinct-6",
                        "seed": 1000, "command": "python -m ...",
                        "ratings": {"p_1_10": {"rating": 0, "stderr": 0}, "x": {"rating": 55.5, "stderr": 20}}}]}
    tables = _read_anchors(json.dumps(good), "f")
    assert anchors_at(4, 8, tables).ratings["x"].rating == 55.5
    assert anchors_at(2, 8, tables) is None and anchors_at(4, 6, tables) is None
    del good["tables"][0]["ratings"]["x"]["stderr"]
    with pytest.raises(PanelError, match="f: not a panel anchors file"):
        _read_anchors(json.dumps(good), "f")
    with pytest.raises(PanelError, match="not a panel anchors file"):
        _read_anchors("{", "f")


def test_the_shipped_anchors_rate_the_default_panel_at_depth_4():
    table = anchors_at(4, 8)
    assert table is not None, [(t.depth, t.exact) for t in shipped_anchors()]
    assert table.ratings["p_1_10"].rating == 0 and table.ratings["p_1_10"].stderr == 0
    for name in DEFAULT_MEMBERS:
        assert table.ratings[name].stderr < 40, name
    assert "panel_anchors" in table.provenance


# -- the command ------------------------------------------------------------------------------------------------

def genethello(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def test_panel_prints_each_score_and_one_rating():
    proc = genethello("panel", "all-2-league", "--member", "p_1_10", "--member", "pbt-td-searcher",
                      "--depth", 2, "--games", 6, "--quiet")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("all-2-league (all-2_0_94851f467912) at depth 2, exact 8: 3 openings of distinct-6")
    assert lines[1].split()[:3] == ["opponent", "anchored", "games"]
    rows = {line.split()[0]: line for line in lines[2:4]}
    assert set(rows) == {"p_1_10", "pbt-td-searcher"}
    assert rows["p_1_10"].split()[1:3] == ["+0", "6"]
    assert lines[4].startswith(("rating ", "rating <", "rating >")) and "12 games" in lines[4]
    assert lines[5].startswith("played in")
    assert proc.stderr == ""
    again = genethello("panel", "all-2-league", "--member", "p_1_10", "--member", "pbt-td-searcher",
                       "--depth", 2, "--games", 6, "--quiet")
    assert again.stdout.splitlines()[:5] == lines[:5]      # a function of the inputs and the seed


def test_the_player_itself_is_left_out_and_unanchored_depths_say_so():
    proc = genethello("panel", "p_1_10", "--member", "p_1_10", "--member", "fdmxcp_52_2:0:6:9:4:5",
                      "--depth", 1, "--games", 2, "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "p_1_10: the player itself, left out" in proc.stdout
    assert "rating: none, no anchored ratings for these players at depth 1, exact 8" in proc.stdout


def test_a_player_by_database_id(tmp_path):
    import shutil as files
    from pathlib import Path

    db = tmp_path / "run.sqlite"
    files.copy(Path(__file__).parent / "data" / "run-0003.sqlite", db)
    proc = genethello("panel", 1, "--db", db, "--member", "p_1_10", "--depth", 2, "--games", 2, "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("1 (oe_fmc_1_7:45:2:10:9:10:2:6:8:8:10) at depth 2, exact 8: 1 opening of ")
    assert "rating " in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["p_1_10", "--games", 3], "--games 3: must be even"),
    (["p_1_10", "--exact", 70], "--exact must be in 0..60"),
    (["not_a_player"], "not_a_player"),
    (["p_1_10", "--engine", "no-such-engine-here -l 3"], "no-such-engine-here"),
    (["p_1_10", "--member", "p_1_10"], "the only panel member"),
    (["p_1_10", "--member", "p_1_10", "--member", "p_1_10"], "named twice"),
])
def test_bad_input_is_one_line(args, message):
    proc = genethello("panel", *args, "--depth", 1, "--games" if "--games" not in args else "--seed",
                      2 if "--games" not in args else 1)
    assert proc.returncode == 2, proc.stdout
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("genethello panel: error:") and message in lines[0], lines


@pytest.mark.skipif(RHINO is None, reason="gtp-rhino is not installed (Debian's grhino)")
def test_a_named_engine_joins_the_panel():
    proc = genethello("panel", "p_1_10", "--member", "fdmxcp_52_2:0:6:9:4:5", "--engine", "gtp-rhino -l 1",
                      "--depth", 4, "--games", 2, "--quiet")
    assert proc.returncode == 0, proc.stderr
    row = [line for line in proc.stdout.splitlines() if line.startswith("gtp-rhino -l 1")]
    assert len(row) == 1 and " 2 " in row[0]
