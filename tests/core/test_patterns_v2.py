"""Pattern geometry v2 beside v1 in one build: indices against a slow
reference, symmetry, stages, table files of both geometries, versions by
name, and learning from labelled positions."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import Board
from genethello.core import pattern_learning as pl
from genethello.core.engine.game import random_opening
from genethello.core.evaluation import pattern_table as ptab
from genethello.core.evaluation import patterns as pt
from genethello.core.evaluation.evaluation import Evaluator
from tests.core.test_patterns import _transform, symmetric_images

MASK = (1 << 64) - 1
positions = st.tuples(st.integers(0, MASK), st.integers(0, MASK)).map(lambda ab: (ab[0], ab[1] & ~ab[0]))


def reference_indices(mover: int, other: int, shapes) -> list:
    """Read every instance square by square from the transformed boards."""
    out = []
    for _, squares, transforms, offset, _ in shapes:
        for name in transforms:
            m, o = _transform(mover, name), _transform(other, name)
            out.append(offset + sum(((m >> s & 1) + 2 * (o >> s & 1)) * 3 ** i for i, s in enumerate(squares)))
    return out


def test_v2_layout_is_v1_then_the_lines_back_to_back():
    g = pt.GEOMETRIES[pt.V2]
    end = 0
    for _, squares, _transforms, offset, size in g["shapes"]:
        assert offset == end and size == 3 ** len(squares)
        end += size
    assert end == g["stage_size"] == 167_265
    assert sum(len(t) for _, _, t, _, _ in g["shapes"]) == g["n_instances"] == 46
    assert g["shapes"][:3] == pt.SHAPES
    # the table stays far below the 30 MB limit
    assert 2 * g["n_stages"] * g["stage_size"] < 11_000_000


@settings(derandomize=True, max_examples=200, deadline=None)
@given(positions)
def test_v2_indices_match_the_slow_reference(pos):
    mover, other = pos
    fast = pt.indices(np.array([mover], np.uint64), np.array([other], np.uint64), pt.V2)[0].tolist()
    assert fast == reference_indices(mover, other, pt.SHAPES_V2)
    assert fast[:16] == pt.indices(np.array([mover], np.uint64), np.array([other], np.uint64))[0].tolist()


@settings(derandomize=True, max_examples=60, deadline=None)
@given(positions)
def test_v2_symmetric_images_use_the_same_table_entries(pos):
    mover, other = pos
    canon = pl.canonical_map(pt.V2)
    images = list(zip(symmetric_images(mover), symmetric_images(other)))
    idx = canon[pt.indices(np.array([m for m, _ in images], np.uint64),
                           np.array([o for _, o in images], np.uint64), pt.V2)]
    expected = sorted(idx[0].tolist())
    for row in idx[1:]:
        assert sorted(row.tolist()) == expected


def test_v2_stages_cover_every_move_once():
    seen = []
    for stage in range(pt.GEOMETRIES[pt.V2]["n_stages"]):
        first, last = pt.stage_moves(stage, pt.V2)
        seen += list(range(first, last + 1))
        assert all(pt.stage_of_move(n, pt.V2) == stage for n in range(first, last + 1))
    assert seen == list(range(61))


def symmetric_table(seed: int) -> np.ndarray:
    """A random v2 table whose tied entries are equal (as learning makes them)."""
    g = pt.GEOMETRIES[pt.V2]
    canon = pl.canonical_map(pt.V2)
    raw = np.random.default_rng(seed).integers(-300, 300, size=(g["n_stages"], g["stage_size"]))
    return raw[:, canon].astype(np.int16)


def test_v2_scores_are_the_sum_of_the_stage_entries_and_symmetric():
    table = symmetric_table(3)
    for seed in range(10):
        board = Board.from_moves(random_opening(6 + 5 * seed, seed))
        mover, other = board.opponent, board.player
        idx = pt.indices(np.array([mover], np.uint64), np.array([other], np.uint64), pt.V2)[0]
        stage = pt.stage_of_move(bin(mover | other).count("1") - 4, pt.V2)
        expected = int(table[stage, idx].astype(np.int64).sum())
        images = list(zip(symmetric_images(mover), symmetric_images(other)))
        got = pt.scores(table, [m for m, _ in images], [o for _, o in images])
        assert got.tolist() == [expected] * 8


def test_a_table_of_either_geometry_round_trips(tmp_path):
    v2 = symmetric_table(5)
    path = tmp_path / "t2.bin"
    version = ptab.write_table(path, v2, {"note": "test"}, version="patterns-v2")
    loaded = ptab.load_table(path)
    assert np.array_equal(loaded.array, v2) and loaded.geometry_id == pt.V2
    assert version == loaded.version and version.startswith("patterns-v2+")
    assert loaded.header["geometry"] == pt.V2 and loaded.header["n_stages"] == 30
    v1 = ptab.shared_table("patterns-v1")
    again = tmp_path / "t1.bin"
    ptab.write_table(again, v1.array, v1.header["training"])
    assert np.array_equal(ptab.load_table(again).array, v1.array)
    assert ptab.load_table(again).version == v1.version      # v1 files keep their bytes
    with pytest.raises(FileExistsError):
        ptab.write_table(path, v2, overwrite=False)


def test_a_file_claiming_another_geometry_is_refused(tmp_path):
    data = ptab.table_bytes(symmetric_table(1), version="patterns-v2")
    bad = data.replace(b'"geometry":2', b'"geometry":9')
    path = tmp_path / "bad.bin"
    path.write_bytes(bad)
    with pytest.raises(ptab.PatternFileError, match="geometry 9"):
        ptab.load_table(path)


def test_versions_resolve_by_name_short_form_and_recorded_checksum():
    v1 = ptab.shared_table("patterns-v1").version
    for text in ("patterns-v1", "v1", "1", v1):
        assert ptab.resolve_version(text) == "patterns-v1"
    assert ptab.resolve_version(None) == ptab.newest_version() == ptab.shipped_versions()[-1]
    with pytest.raises(ptab.PatternFileError, match="the table file changed"):
        ptab.resolve_version("patterns-v1+000000000000")
    with pytest.raises(ptab.PatternFileError, match="unknown pattern table version 'v9'"):
        ptab.resolve_version("v9")


def test_an_evaluator_keeps_its_version_across_pickling():
    ev = Evaluator(weights=((0, 0, 0, 0, 0, 1, 0),) * 3, patterns="v1")
    assert ev.pattern_version == ptab.shared_table("patterns-v1").version
    back = pickle.loads(pickle.dumps(ev))
    assert back.pattern_version == ev.pattern_version and back.pattern_array is ev.pattern_array
    with pytest.raises(ValueError, match="unknown pattern table version"):
        Evaluator(weights=((0, 0, 0, 0, 0, 1, 0),) * 3, patterns="v9")


def test_learning_from_labels_recovers_a_table_and_keeps_the_prior_where_unseen(games_slice):
    games = pl.read_games(games_slice, limit=1000).slice("training")
    truth = symmetric_table(11)
    truth[:, :pt.GEOMETRIES[pt.V2]["shapes"][6][3]] = 0   # only the short lines (well covered) matter
    truth[:] = truth[0]             # the same in every stage (stages learn from their neighbours' moves)
    values = pt.scores(truth, games.movers, games.others).astype(np.float64) / pt.TABLE_SCALE_
    rng = np.random.default_rng(0)
    held = rng.random(values.size) < 0.1
    table, report = pl.learn_labels(games.movers[~held], games.others[~held], values[~held], pt.V2,
                                    prior=None, ridge=1.0, iterations=80)
    assert len(report.rmse) == 30
    pred = pt.scores(table, games.movers[held], games.others[held]) / pt.TABLE_SCALE_
    zero_error = np.abs(values[held]).mean()
    assert np.abs(pred - values[held]).mean() < 0.1 * zero_error
    # no labels at all: every stage is the prior's (v1's shapes carried, lines at 0)
    v1 = ptab.shared_table("patterns-v1").array
    empty = np.zeros(0, np.uint64)
    only_prior, _ = pl.learn_labels(empty, empty, np.zeros(0), pt.V2, prior=v1)
    first_moves = [pt.stage_moves(s, pt.V2)[0] for s in range(30)]
    expected = np.stack([v1[pt.stage_of_move(n)] for n in first_moves])
    assert np.array_equal(only_prior[:, :pt.STAGE_SIZE_], expected)
    assert not only_prior[:, pt.STAGE_SIZE_:].any()


def test_cli_learns_a_v2_table_from_labels_and_never_overwrites(tmp_path, capsys):
    from genethello.cluster.cli.main import main
    from tests.conftest import TEST_DATA

    labels = TEST_DATA / "labels" / "labels-sample.txt"
    out = tmp_path / "v2.bin"
    assert main(["patterns", "learn", "--labels", str(labels), "--out", str(out), "--holdout-every", "7",
                 "--ridge", "64", "--iterations", "20"]) == 0
    text = capsys.readouterr().out
    assert "held-out labels, prior patterns-v1+" in text and "held-out labels, new table" in text
    table = ptab.load_table(out)
    assert table.geometry_id == pt.V2 and table.name == "patterns-v2"
    assert table.header["training"]["prior"] == ptab.shared_table("patterns-v1").version
    again = out.read_bytes()
    assert main(["patterns", "learn", "--labels", str(labels), "--out", str(out)]) == 2
    assert "exists" in capsys.readouterr().err and out.read_bytes() == again
    assert main(["patterns", "show", "--table", str(out), "--stage", "29", "--count", "1"]) == 0
    assert "moves 58-60" in capsys.readouterr().out


def test_commands_take_a_table_version_and_show_the_one_they_played_with(capsys):
    from genethello.cluster.cli.main import main

    v1 = ptab.shared_table("patterns-v1").version
    assert main(["match", "p_1_10", "fdmxcp_0_2:1:8:6:10:4", "--depth", "1", "--games", "2",
                 "--patterns", "v1"]) == 0
    out = capsys.readouterr().out
    assert f"A = p_1_10, patterns {v1}" in out and f"B = fdmxcp_0_2:1:8:6:10:4, patterns {v1}" in out
    assert main(["selfplay", "--black", "p_1_10", "--white", "m_0_1", "--depth", "1"]) == 0
    newest = ptab.shared_table().version
    out = capsys.readouterr().out
    assert f"black: p_1_10, patterns {newest}" in out and "white:" not in out
    assert main(["match", "p_1_10", "p_1_9", "--depth", "1", "--patterns", "v9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown pattern table version 'v9'" in err


def test_gtp_names_its_table_on_stderr(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "gtp", "--player", "p_1_10",
                           "--depth", "1", "--patterns", "patterns-v1"], input="genmove b\nquit\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("= ")
    assert f"patterns {ptab.shared_table('patterns-v1').version}" in proc.stderr


def test_cli_learns_geometry_2_from_games_as_the_library_does(tmp_path, games_slice, capsys):
    from genethello.cluster.cli.main import main

    out = tmp_path / "human-v2.bin"
    assert main(["patterns", "learn", "--games", str(games_slice), "--limit", "300", "--geometry", "2",
                 "--version", "patterns-v2-human", "--iterations", "10", "--out", str(out)]) == 0
    capsys.readouterr()
    games = pl.read_games(games_slice, limit=300).slice("training")
    expected, _ = pl.learn(games, iterations=10, geometry=pt.V2)
    table = ptab.load_table(out)
    assert table.name == "patterns-v2-human" and np.array_equal(table.array, expected)
    # and it can be the prior of a label fit, given as a file
    from tests.conftest import TEST_DATA

    labels = tmp_path / "l.txt"
    labels.write_text("".join((TEST_DATA / "labels" / "labels-sample.txt").read_text().splitlines(True)[:200]))
    fitted = tmp_path / "v2.bin"
    assert main(["patterns", "learn", "--labels", str(labels), "--prior", str(out), "--large-ridge", "100",
                 "--overlap", "4", "--iterations", "5", "--out", str(fitted)]) == 0
    header = ptab.load_table(fitted).header["training"]
    assert header["prior"] == table.version and header["overlap"] == 4 and header["large_ridge"] == 100


@settings(max_examples=20, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ridge=st.sampled_from((0.5, 4.0, 64.0)))
def test_ridge_least_squares_is_the_normal_equations_solution(seed, ridge):
    """The fit an experiment uses toward a start network: rows naming an
    index twice count it twice, and the result solves (A^T A + ridge I) w =
    A^T y over the indices seen, as a dense solve does."""
    rng = np.random.default_rng(seed)
    cols = rng.integers(100, 112, size=(40, 3))
    y = rng.normal(0.0, 5.0, 40)
    indices, values = pl.fit.ridge_least_squares(cols, y, ridge, iterations=200)
    assert indices.tolist() == sorted(set(cols.ravel().tolist()))
    column = {j: k for k, j in enumerate(indices.tolist())}
    design = np.zeros((40, indices.size))
    for i, row in enumerate(cols):
        for j in row:
            design[i, column[int(j)]] += 1
    want = np.linalg.solve(design.T @ design + ridge * np.eye(indices.size), design.T @ y)
    assert values == pytest.approx(want, abs=1e-6)
