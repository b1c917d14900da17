"""``genethello patterns label``: the plan, the file, and the labels themselves.

The committed sample (tests/data/labels/labels-sample.txt, the first 2,000
positions the labelling of the full games file wrote) is the reference: the
games slice holds the same first games, so labelling it with the same seed
must write the same lines, through real Ray workers and real subprocesses."""

import os
from pathlib import Path

import numpy as np
import pytest

from genethello.cluster.run.labelling import (
    LabelSettings,
    OrderedWriter,
    label_plan,
    plan_size,
    training_lines,
)
from genethello.core import pattern_learning as pl
from genethello.core.engine.board import Board
from genethello.core.engine.search import Searcher
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.evaluation.pattern_table import shared_table
from genethello.core.pattern_learning.label_file import LabelFileError, format_line, parse_line, read_labels
from genethello.core.pattern_learning.position_labels import Labeller
from tests.cluster.conftest import run_cli
from tests.conftest import TEST_DATA

SAMPLE = TEST_DATA / "labels" / "labels-sample.txt"


def sample_lines() -> list[str]:
    return SAMPLE.read_text().splitlines(keepends=True)


def without_effort(lines: list[str]) -> list[str]:
    """Label lines less their last field, the node count: the search's
    effort, which the core's speed work changes (the sample was made by an
    earlier core) while every position and label stays the same."""
    return [line.rsplit(" ", 1)[0] for line in lines]


def slice_settings(games: pl.GameSet, **changes) -> LabelSettings:
    stored = read_labels(SAMPLE).settings
    base = dict(vars(stored), games=games.name, games_sha256=games.sha256)
    base.update(changes)
    return LabelSettings(**base)


@pytest.fixture(scope="module")
def slice_games(games_slice) -> pl.GameSet:
    return pl.read_games(games_slice)


# ------------------------------------------------------------------ plan
def test_the_plan_is_a_pure_function_and_a_longer_plan_extends_a_shorter(slice_games):
    settings = slice_settings(slice_games)
    short = list(label_plan(slice_games, settings, 7))
    long = list(label_plan(slice_games, settings, 14))
    assert long[:len(short)] == short and len(long) > len(short)
    assert list(label_plan(slice_games, settings, 14)) == long
    assert [p.index for p in long] == list(range(len(long)))
    assert plan_size(slice_games, settings, 14) == len(long)
    other_seed = list(label_plan(slice_games, slice_settings(slice_games, seed=2), 14))
    assert [p.mover for p in other_seed] != [p.mover for p in long]


def test_the_plan_never_uses_a_validation_game(slice_games):
    settings = slice_settings(slice_games, selfplay_every=0)
    lines = {int(p.source[1:]) for p in label_plan(slice_games, settings, 60)}
    assert lines and all(line % 10 for line in lines)
    assert set(training_lines(slice_games, 10)[:60].tolist()) == lines


def test_the_plan_draws_the_quota_on_each_side_of_the_exact_limit(slice_games):
    settings = slice_settings(slice_games, selfplay_every=0)
    by_game: dict[str, list[int]] = {}
    for p in label_plan(slice_games, settings, 40):
        by_game.setdefault(p.source, []).append(64 - bin(p.mover | p.other).count("1"))
    for empties in by_game.values():
        assert sum(e <= 20 for e in empties) == 2 and sum(e > 20 for e in empties) == 1


def test_the_writer_keeps_plan_order_whatever_order_results_arrive_in(slice_games):
    import io

    from genethello.cluster.run.labelling import LabelOutcome

    plan = list(label_plan(slice_games, slice_settings(slice_games), 4))
    outcomes = [LabelOutcome(p.index, 64 - bin(p.mover | p.other).count("1"), True, p.index % 7, 1)
                for p in plan]
    forward, backward = io.StringIO(), io.StringIO()
    w = OrderedWriter(forward, 0)
    for p, o in zip(plan, outcomes):
        w.add(p, o)
    w = OrderedWriter(backward, 0)
    for p, o in reversed(list(zip(plan, outcomes))):
        assert w.add(p, o) == (len(plan) if p.index == 0 else 0)
    assert forward.getvalue() == backward.getvalue()


# ------------------------------------------------------------------ file
def test_the_sample_parses_and_every_line_round_trips():
    labels = read_labels(SAMPLE)
    assert labels.values.size == 2000
    assert labels.exact.sum() > 1000 and (~labels.exact).sum() > 500
    assert ((labels.empties <= 20) == labels.exact).all()
    for text in sample_lines()[1:50]:
        row = parse_line(text, "x")
        assert format_line(row.source, row.index, row.empties, row.exact, row.value, row.mover, row.other,
                           row.nodes) == text


@pytest.mark.parametrize("line, problem", [
    ("h1 0 51 search 8 000020302c040000 0000480810280000", "expected 8 fields"),
    ("h1 0 51 search 8 000020302c040000 0000480810280000 x", "not a number"),
    ("h1 0 51 guess 8 000020302c040000 0000480810280000 1", "unknown kind"),
    ("h1 0 50 search 8 000020302c040000 0000480810280000 1", "empties 50 do not match"),
    ("h1 0 51 search 99 000020302c040000 0000480810280000 1", "out of range"),
    ("h1 0 51 search 8 000020302c040000 000020302c040000 1", "not a position"),
])
def test_a_damaged_line_is_named(line, problem):
    with pytest.raises(LabelFileError, match=problem):
        parse_line(line, "f:3")


# ------------------------------------------------------------ the labels
def test_exact_labels_are_perfect_play_for_the_mover():
    labels = read_labels(SAMPLE)
    solver = Searcher(Evaluator(), tt_bits=18)
    picked = np.nonzero(labels.exact & (labels.empties >= 8) & (labels.empties <= 16))[0][:12]
    assert picked.size == 12
    for i in picked:
        board = Board.from_bitboards(int(labels.others[i]), int(labels.movers[i]), "black")
        assert -solver.solve(board).value == labels.values[i]


def test_exact_labels_agree_with_the_solve_command(tmp_path):
    labels = read_labels(SAMPLE)
    picked = np.nonzero(labels.exact & (labels.empties >= 10) & (labels.empties <= 14))[0][:5]
    obf = tmp_path / "labelled.obf"
    obf.write_text("".join(Board.from_bitboards(int(labels.others[i]), int(labels.movers[i]), "black").to_obf()
                           + "\n" for i in picked))
    result = run_cli("solve", str(obf), home=tmp_path, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert [-int(row[3]) for row in rows] == [int(labels.values[i]) for i in picked]


def test_search_labels_are_reproduced_by_a_fresh_labeller():
    labels = read_labels(SAMPLE)
    assert labels.settings.patterns == shared_table("patterns-v1").version
    labeller = Labeller(labels.settings.exact_empties, labels.settings.search_depth, labels.settings.patterns)
    picked = np.nonzero(~labels.exact & (labels.empties >= 40))[0][:3]
    # in reverse order: a label never depends on what was labelled before
    for i in picked[::-1]:
        got = labeller.label(int(labels.movers[i]), int(labels.others[i]))
        assert (got.value, got.exact, got.empties) == (labels.values[i], False, labels.empties[i])


# ------------------------------------------------------------------ command
UNITS = "6"


def label_cmd(games: Path, out: Path, *extra: str) -> tuple[str, ...]:
    """The command that made the sample (its searches ran on patterns-v1), for ``games``."""
    return ("patterns", "label", "--games", str(games), "--out", str(out), "--quiet", "--patterns", "v1", *extra)


def test_a_file_of_other_settings_is_refused_and_left_alone(tmp_path, games_slice):
    out = tmp_path / "labels.txt"
    out.write_text(SAMPLE.read_text())
    before = out.read_bytes()
    result = run_cli(*label_cmd(games_slice, out, "--units", "1"), home=tmp_path, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "other settings (games, games_sha256 differ)" in result.stderr
    assert out.read_bytes() == before


@pytest.mark.parametrize("args, message", [
    (("--exact-empties", "30"), "--exact-empties must be at most 24"),
    (("--patterns", "v9"), "unknown pattern table version"),
])
def test_bad_options_get_one_line(tmp_path, games_slice, args, message):
    result = run_cli(*label_cmd(games_slice, tmp_path / "o.txt", *args), home=tmp_path, cwd=tmp_path)
    assert result.returncode == 2 and message in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "o.txt").exists()


def test_a_foreign_file_is_refused(tmp_path, games_slice):
    out = tmp_path / "notes.txt"
    out.write_text("my notes\nkeep them\n")
    result = run_cli(*label_cmd(games_slice, out), home=tmp_path, cwd=tmp_path)
    assert result.returncode == 2 and "not a labels file" in result.stderr
    assert out.read_text() == "my notes\nkeep them\n"


@pytest.mark.timeout(60)
def test_a_fifo_as_the_labels_file_is_refused_in_the_bounded_readers_words(tmp_path, games_slice):
    """The labels file is a file the user names: it is read through the one
    bounded reader, in the same words as every other (and within a size
    bound: it was read whole, however large)."""
    out = tmp_path / "labels.fifo"
    os.mkfifo(out)
    result = run_cli(*label_cmd(games_slice, out), home=tmp_path, cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "a FIFO, not a regular file" in result.stderr and "labels file" in result.stderr


def test_labelling_writes_the_samples_lines_and_a_stopped_file_continues_to_the_same_bytes(tmp_path,
                                                                                      games_slice):
    """Two workers write the sample's lines; one worker stopped by Ctrl-C (at
    a line boundary, exit 130), with a torn line appended as a crash would
    leave it, then continued on two workers, ends with the same bytes."""
    import signal
    import subprocess
    import time

    from tests.cluster.conftest import cli_env, genethello_argv, kill_session, reap_session
    from tests.signals import default_sigint

    whole = tmp_path / "whole.txt"
    done = run_cli(*label_cmd(games_slice, whole, "--units", UNITS, "--workers", "2"), home=tmp_path,
                   cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    body = whole.read_text().splitlines(keepends=True)[1:]
    assert body and without_effort(body) == without_effort(sample_lines()[1:1 + len(body)])

    out = tmp_path / "stopped.txt"
    argv = genethello_argv(*label_cmd(games_slice, out, "--units", UNITS, "--workers", "1"))
    proc = subprocess.Popen(argv, cwd=tmp_path, env=cli_env(tmp_path), text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=default_sigint)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 3):
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        kill_session(proc)
        raise
    finally:
        reap_session(proc.pid)
    assert proc.returncode == 130 and "the same command continues it" in err, err
    stopped = out.read_text()
    assert stopped.endswith("\n") and whole.read_text().startswith(stopped) and stopped != whole.read_text()
    with open(out, "a") as f:
        f.write("h9 7 3")                       # a line torn by a crash
    rest = run_cli(*label_cmd(games_slice, out, "--units", UNITS, "--workers", "2"), home=tmp_path,
                   cwd=tmp_path, timeout=300)
    assert rest.returncode == 0, rest.stderr
    assert out.read_bytes() == whole.read_bytes()
    again = run_cli(*label_cmd(games_slice, out, "--units", UNITS), home=tmp_path, cwd=tmp_path)
    assert again.returncode == 0 and "already" in again.stdout
