"""The pattern feature: indices against a slow reference, symmetry, the
shipped table, reproducible learning, bad game files, and the search."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.cluster.cli.main import main
from genethello.core import Board
from genethello.core import pattern_learning as pl
from genethello.core.engine.game import random_opening
from genethello.core.engine.search import ALGORITHMS, Searcher, minimax
from genethello.core.engine.squares import join_move_list
from genethello.core.evaluation import pattern_table as ptab
from genethello.core.evaluation import patterns as pt
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.families.chromosome import Chromosome
from tests.reference import brute_force

MASK = (1 << 64) - 1


# ------------------------------------------------------------ slow reference
def _transform(board: int, name: str) -> int:
    """The board after the named transforms, applied in the order written
    ('tv' = transpose, then flip rows), square by square."""
    out = board
    for letter in (name if name != "id" else ""):
        moved = 0
        for sq in range(64):
            if out >> sq & 1:
                r, c = divmod(sq, 8)
                r, c = {"v": (7 - r, c), "h": (r, 7 - c), "t": (c, r)}[letter]
                moved |= 1 << (r * 8 + c)
        out = moved
    return out


def reference_indices(mover: int, other: int) -> list:
    out = []
    for _, squares, transforms, offset, _ in pt.SHAPES:
        for name in transforms:
            m, o = _transform(mover, name), _transform(other, name)
            out.append(offset + sum(((m >> s & 1) + 2 * (o >> s & 1)) * 3 ** i for i, s in enumerate(squares)))
    return out


def symmetric_images(board: int) -> list:
    return [_transform(board, name) for name in ("id", "v", "h", "hv", "t", "tv", "th", "thv")]


positions = st.tuples(st.integers(0, MASK), st.integers(0, MASK)).map(lambda ab: (ab[0], ab[1] & ~ab[0]))


@settings(derandomize=True, max_examples=200, deadline=None)
@given(positions)
def test_indices_match_the_slow_reference(pos):
    mover, other = pos
    fast = pt.indices(np.array([mover], np.uint64), np.array([other], np.uint64))[0].tolist()
    assert fast == reference_indices(mover, other)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(positions)
def test_symmetric_images_use_the_same_table_entries(pos):
    mover, other = pos
    canon = pl.canonical_map()
    images = list(zip(symmetric_images(mover), symmetric_images(other)))
    idx = canon[pt.indices(np.array([m for m, _ in images], np.uint64), np.array([o for _, o in images], np.uint64))]
    expected = sorted(idx[0].tolist())
    for row in idx[1:]:
        assert sorted(row.tolist()) == expected


def test_symmetric_images_score_the_same_with_the_shipped_table():
    table = ptab.shared_table().array
    for seed in range(12):
        board = Board.from_moves(random_opening(10 + 4 * seed, seed))
        mover, other = board.opponent, board.player
        images = list(zip(symmetric_images(mover), symmetric_images(other)))
        n = bin(mover | other).count("1") - 4
        s = pt.scores(table, [m for m, _ in images], [o for _, o in images], [n] * 8)
        assert len(set(s.tolist())) == 1, (seed, s)


def test_stages_cover_every_move_once():
    seen = []
    for stage in range(pt.N_STAGES_):
        first, last = pt.stage_moves(stage)
        seen += list(range(first, last + 1))
        assert all(pt.stage_of_move(n) == stage for n in range(first, last + 1))
    assert seen == list(range(61))


# ------------------------------------------------------------ shipped table
def test_shipped_table_loads_with_its_version_and_is_read_only():
    table = ptab.shared_table("patterns-v1")
    assert table.array.shape == (pt.N_STAGES_, pt.STAGE_SIZE_) and table.array.dtype == np.int16
    assert not table.array.flags.writeable
    assert table.version == f"{ptab.VERSION}+{table.header['sha256'][:12]}"
    assert table.header["training"]["holdout"] == pl.HOLDOUT
    assert ptab.shared_table("v1") is table
    assert ptab.DEFAULT_TABLE_PATH.stat().st_size < 2_000_000


def test_evaluators_share_one_table():
    a = Evaluator.from_chromosome(Chromosome.parse("p_0_1"))
    b = Evaluator.from_chromosome(Chromosome.parse("oe_fdmxcp_1_14:49:1:2:3:4:5:6:1:2:3:4:5:6:1:2:3:4:5:6"))
    assert a.pattern_array is b.pattern_array is ptab.shared_table().array
    assert a.pattern_array.ctypes.data == b.pattern_array.ctypes.data
    assert a.pattern_version == ptab.shared_table().version
    import pickle
    c = pickle.loads(pickle.dumps(a))
    assert c.pattern_array is a.pattern_array
    plain = Evaluator.from_chromosome(Chromosome.parse("fmc_0_1:2:3"))
    assert plain.pattern_array is None and plain.pattern_version == ""


def test_damaged_table_file_is_refused(tmp_path):
    data = bytearray(ptab.DEFAULT_TABLE_PATH.read_bytes())
    data[-5] ^= 0xFF
    path = tmp_path / "bad.bin"
    path.write_bytes(bytes(data))
    with pytest.raises(ptab.PatternFileError):
        ptab.load_table(path)


def test_feature_value_matches_the_evaluation():
    ev = Evaluator.from_chromosome(Chromosome.parse("p_0_1"))
    for seed in range(8):
        board = Board.from_moves(random_opening(8 + 5 * seed, seed))
        for move in board.legal_moves():
            assert ev.evaluate_move(board, move) == max(-4000, min(4000, ev.features(board, move)["pattern"]))


# ------------------------------------------------------------------ learning
def test_learning_is_byte_identical(games_slice):
    games = pl.read_games(games_slice, limit=500)
    train = games.slice("training")
    assert train.games == 450
    first, _ = pl.learn(train)
    second, _ = pl.learn(train)
    assert ptab.table_bytes(first) == ptab.table_bytes(second)
    assert np.count_nonzero(first) > 1000


def test_training_and_validation_slices_are_disjoint(games_slice):
    games = pl.read_games(games_slice, limit=100)
    val, train = games.slice("validation"), games.slice("training")
    assert val.games == 10 and train.games == 90
    assert set(np.unique(val.lines).tolist()) == set(range(10, 101, 10))
    assert not set(np.unique(val.lines).tolist()) & set(np.unique(train.lines).tolist())


# a finished game (seeded random play to the end; passes implicit)
GOOD = join_move_list(random_opening(100, 7))


def _write(tmp_path, lines):
    path = tmp_path / "games.txt"
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_good_line_is_a_finished_game():
    b = Board.from_moves(GOOD)
    assert b.is_game_over()


def test_illegal_move_names_line_and_move(tmp_path):
    path = _write(tmp_path, [GOOD, GOOD, "f5d6c3d3a1"])
    with pytest.raises(pl.GameFileError, match=r"line 3: move 5 \(a1\) is illegal"):
        pl.read_games(path)


def test_bad_character_names_line_and_move(tmp_path):
    path = _write(tmp_path, [GOOD, "f5d6z9"])
    with pytest.raises(pl.GameFileError, match=r"line 2: move 3 'z9' is not a square"):
        pl.read_games(path)


def test_unfinished_game_is_refused(tmp_path):
    path = _write(tmp_path, ["f5d6c3"])
    with pytest.raises(pl.GameFileError, match="line 1: the game is not finished"):
        pl.read_games(path)


def test_cli_reports_the_bad_line(tmp_path, capsys):
    path = _write(tmp_path, [GOOD, "f5d6c3d3a1"])
    assert main(["patterns", "learn", "--games", str(path), "--out", str(tmp_path / "t.bin")]) == 2
    err = capsys.readouterr().err
    assert "line 2: move 5 (a1) is illegal" in err and len(err.strip().splitlines()) == 1


def test_skip_bad_counts_the_skipped_lines(tmp_path, capsys):
    path = _write(tmp_path, [GOOD, "f5d6c3d3a1", GOOD, "f5d6x", GOOD])
    games = pl.read_games(path, skip_bad=True)
    assert (games.games, games.skipped) == (3, 2)
    assert set(games.lines.tolist()) == {1, 3, 5}
    out = tmp_path / "t.bin"
    assert main(["patterns", "learn", "--games", str(path), "--out", str(out), "--skip-bad",
                 "--holdout", "0", "--iterations", "5"]) == 0
    assert "skipped 2 bad line(s)" in capsys.readouterr().out
    assert ptab.load_table(out).header["training"]["skipped"] == 2


# -------------------------------------------------------------------- search
@pytest.mark.parametrize("text", ["p_0_1", "dmp_0_2:3:5", "oe_fdmxcp_1_14:49:1:2:3:4:5:6:0:1:2:3:4:7:9:8:7:6:5:4"])
def test_searches_with_pattern_agree_with_minimax(text):
    ev = Evaluator.from_chromosome(Chromosome.parse(text))
    for seed in range(3):
        board = Board.from_moves(random_opening(12 + 9 * seed, seed))
        for depth in (1, 2, 3):
            expected = minimax(board, ev, depth)
            for algorithm in ALGORITHMS:
                assert Searcher(ev, algorithm).search(board, depth=depth).value == expected, (seed, depth, algorithm)


def test_cli_evaluate_and_show(games_slice, capsys):
    games = games_slice
    assert main(["patterns", "evaluate", "--games", str(games), "--limit", "200", "--slice", "validation"]) == 0
    out = capsys.readouterr().out
    assert out.count("%") == 12
    assert main(["patterns", "show", "--stage", "6", "--count", "3"]) == 0
    out = capsys.readouterr().out
    assert "best:" in out and "worst:" in out and "XXXXXXXX" in out


def test_fdmxcp_config_is_accepted():
    from pathlib import Path

    from genethello.cluster.run.run_check import load_config
    config = load_config(Path(__file__).resolve().parents[2] / "config" / "fdmxcp.toml")
    assert config.population.type == "fdmxcp" and config.population_size == 192
    assert (config.games.depth, config.games.exact_empties) == (4, 8)


# ------------------------------------------------------ perfect-play ceiling
def test_exact_margins_are_perfect_play_for_the_mover(games_slice):
    games = pl.read_games(games_slice, limit=40)
    sel = games.move_numbers == 54
    movers, others = games.movers[sel], games.others[sel]
    exact = pl.exact_margins(movers, others)
    for mover, other, value in zip(movers.tolist(), others.tolist(), exact.tolist()):
        assert value == -brute_force(Board.from_bitboards(other, mover, "black"))
    assert len(set(exact.tolist())) > 5


def test_exact_margins_in_worker_processes_come_back_in_order(games_slice):
    games = pl.read_games(games_slice, limit=80)
    sel = games.move_numbers == 50
    serial = pl.exact_margins(games.movers[sel], games.others[sel])
    seen = []
    parallel = pl.exact_margins(games.movers[sel], games.others[sel], lambda d, n: seen.append((d, n)), workers=2)
    assert serial.size > 2 * pl.SOLVE_CHUNK and parallel.tolist() == serial.tolist()
    assert seen[-1] == (serial.size, serial.size)


def test_perfect_play_names_every_winner_once_the_game_is_decided(games_slice):
    games = pl.read_games(games_slice, limit=60)
    table = ptab.shared_table().array
    (last,) = pl.perfect_play_accuracy(games, table, (60,), sample=30)
    assert last["positions"] == 30 and last["perfect"] == 1.0
    assert all(share == 1.0 for _, share in last["ahead_wins"].values())
    (late,) = pl.perfect_play_accuracy(games, table, (50,), sample=25)
    assert late["positions"] == 25 and 0.5 < late["perfect"] <= 1.0
    assert sum(n for n, _ in late["ahead_wins"].values()) == 25
    with pytest.raises(ValueError, match="at most 24 empties"):
        pl.perfect_play_accuracy(games, table, (30,))


def test_cli_evaluate_prints_the_perfect_play_ceiling(games_slice, capsys):
    games = games_slice
    assert main(["patterns", "evaluate", "--games", str(games), "--limit", "100", "--moves", "20,52",
                 "--perfect", "10"]) == 0
    out = capsys.readouterr().out
    assert "perfect play" in out and "the side perfect play favours won" in out
    row = next(line for line in out.splitlines() if line.split()[:2] == ["52", "10"])
    assert row.count("%") == 5


# ------------------------------------------------------------ score errors
def test_score_errors_are_reproducible_and_consistent(games_slice):
    games = pl.read_games(games_slice, limit=200).slice("validation")
    table = ptab.shared_table().array
    first = pl.score_errors(games, table, empties=(8, 12), sample=15, seed=3)
    again = pl.score_errors(games, table, empties=(8, 12), sample=15, seed=3, workers=2)
    other = pl.score_errors(games, table, empties=(12,), sample=15, seed=4)
    for row, same in zip(first, again):
        assert row["positions"] == 15 and row["index"].tolist() == same["index"].tolist()
        assert (row["mae"], row["rmse"], row["bias"]) == (same["mae"], same["rmse"], same["bias"])
        assert row["rmse"] >= row["mae"] >= abs(row["bias"]) and row["mae"] > 0
        assert (games.move_numbers[row["index"]] == 60 - row["empties"]).all()
    assert other[0]["index"].tolist() != first[1]["index"].tolist()
    # the score is the table's, in discs; the exact margin is the solver's, both for the player who just moved
    row = first[1]
    i = row["index"]
    assert row["score"].tolist() == (pt.scores(table, games.movers[i], games.others[i], games.move_numbers[i])
                                     / pt.TABLE_SCALE_).tolist()
    for k in range(0, row["positions"], 5):
        mover, other_ = int(games.movers[i[k]]), int(games.others[i[k]])
        result = Searcher(Evaluator()).solve(Board.from_bitboards(other_, mover, "black"))
        assert result.exact and row["exact"][k] == -result.value
    err = row["score"] - row["exact"]
    assert row["mae"] == pytest.approx(np.abs(err).mean()) and row["bias"] == pytest.approx(err.mean())
    # the games' own final margins against perfect play, on the same positions
    assert row["result_mae"] == pytest.approx(np.abs(games.targets[i] - row["exact"]).mean())
    with pytest.raises(ValueError, match="0..24 empties"):
        pl.score_errors(games, table, empties=(30,))


def test_cli_evaluate_prints_the_score_errors(games_slice, capsys):
    assert main(["patterns", "evaluate", "--games", str(games_slice), "--limit", "100", "--moves", "20",
                 "--mae", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if " empties: " in line]
    assert [line.split()[:3] for line in lines] == [["16", "empties:", "3"], ["20", "empties:", "3"]]
    assert all("MAE" in line and "RMSE" in line and "bias" in line and "game result MAE" in line
               for line in lines)


def test_cli_evaluate_measures_the_score_errors_at_the_empties_asked(games_slice, capsys):
    assert main(["patterns", "evaluate", "--games", str(games_slice), "--limit", "100", "--moves", "20",
                 "--mae", "4", "--mae-empties", "2,6,2"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if " empties: " in line]
    assert [line.split()[:3] for line in lines] == [["2", "empties:", "4"], ["6", "empties:", "4"]]


@pytest.mark.parametrize("bad", ["25", "4,x", "-1", ""])
def test_cli_evaluate_refuses_bad_mae_empties_in_one_line(games_slice, capsys, bad):
    assert main(["patterns", "evaluate", "--games", str(games_slice), "--limit", "10",
                 "--mae", "2", "--mae-empties", bad]) != 0
    err = capsys.readouterr().err.strip()
    assert "--mae-empties" in err and "\n" not in err and "Traceback" not in err
