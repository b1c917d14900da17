"""The real ``genethello`` command (run as ``python -m
genethello.cluster.cli.main`` in a child process): perft, solve, selfplay, and
user errors that end as a short message on stderr, never a traceback."""

import re
import subprocess
import sys

import pytest

from genethello.core import Board
from genethello.core.play.openings import canonical_key

PLAYER_A = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
PLAYER_B = "oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4"
PERFT = [4, 12, 56, 244, 1396, 8200]


def genethello(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def stderr_lines(proc):
    return [line for line in proc.stderr.splitlines() if line.strip()]


def assert_user_error(proc):
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    return stderr_lines(proc)


@pytest.fixture(scope="module")
def ffo_1_19(data_dir):
    return data_dir / "ffo" / "fforum-1-19.obf"


def test_perft_counts():
    proc = genethello("perft", 6)
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines()[1:]]
    assert [(int(r[0]), int(r[1])) for r in rows] == list(enumerate(PERFT, start=1))


def test_solve_prints_the_right_scores(ffo_1_19):
    proc = genethello("solve", ffo_1_19, "--first", 3)
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines() if re.match(r"\s*\d+ ", line)]
    assert [(r[0], r[3], r[4]) for r in rows] == [("1", "+18", "+18"), ("2", "+10", "+10"),
                                                  ("3", "+2", "+2")]
    assert "WRONG" not in proc.stdout
    assert "0 wrong" in proc.stdout.splitlines()[-1]


def test_solve_marks_a_wrong_score(ffo_1_19, tmp_path):
    line = ffo_1_19.read_text().splitlines()[0]
    assert "G8:+18;" in line
    bad = tmp_path / "wrong.obf"
    bad.write_text(line.replace("G8:+18;", "G8:+20;") + "\n")
    proc = genethello("solve", bad)
    assert proc.returncode == 1
    assert "WRONG" in proc.stdout
    assert "1 wrong" in proc.stdout.splitlines()[-1]


def test_selfplay_prints_legal_games():
    proc = genethello("selfplay", "--black", PLAYER_A, "--white", PLAYER_B, "--depth", 2,
                      "--games", 2, "--random-plies", 4)
    assert proc.returncode == 0, proc.stderr
    games = [re.fullmatch(r"game (\d+): ([a-h1-8]+) (\d+)-(\d+) \((.*)\)", line)
             for line in proc.stdout.splitlines() if line.startswith("game ")]
    assert len(games) == 2 and all(games)
    for number, match in enumerate(games, start=1):
        assert int(match.group(1)) == number
        board = Board.from_moves(match.group(2))
        assert board.is_game_over()
        assert board.disc_count() == (int(match.group(3)), int(match.group(4)))
    assert re.search(r"^2 games in [\d.]+ s \([\d.]+ games/s\)", proc.stdout, re.M)


def test_malformed_chromosome():
    proc = genethello("selfplay", "--black", "oe_fmc_1_14:49", "--white", PLAYER_B, "--depth", 2)
    lines = assert_user_error(proc)
    assert len(lines) == 1 and "genes" in lines[0]


def test_unknown_option():
    proc = genethello("perft", 3, "--bogus")
    lines = assert_user_error(proc)
    # argparse prints its usage line and the error line.
    assert len(lines) <= 2 and lines[-1].endswith("unrecognized arguments: --bogus")


def test_malformed_obf_line(tmp_path):
    bad = tmp_path / "bad.obf"
    bad.write_text("this is not a position X;\n")
    lines = assert_user_error(genethello("solve", bad))
    assert len(lines) == 1 and "bad.obf:1" in lines[0]


def test_missing_file(tmp_path):
    lines = assert_user_error(genethello("solve", tmp_path / "missing.obf"))
    assert len(lines) == 1 and "missing.obf" in lines[0]


@pytest.mark.parametrize("args, message", [
    (("solve", "{ffo}", "--tt-bits", "1099511627776"), "--tt-bits must be in 0..28, got 1099511627776"),
    (("solve", "{ffo}", "--tt-bits", "-1"), "--tt-bits must be in 0..28, got -1"),
    (("perft", "100000000000000000000"), "depth must be in 1..60, got 100000000000000000000"),
    (("perft", "61"), "depth must be in 1..60, got 61"),
    (("selfplay", "--black", PLAYER_A, "--white", PLAYER_B, "--depth", "99999999999999999999"),
     "--depth must be in 1..60"),
    (("selfplay", "--black", PLAYER_A, "--white", PLAYER_B, "--depth", "1", "--random-plies", "1" + "0" * 20),
     "--random-plies must be in 0..60"),
    (("selfplay", "--black", PLAYER_A, "--white", PLAYER_B, "--depth", "1", "--exact", "-1"),
     "--exact must be in 0..60, got -1"),
], ids=["tt-bits-huge", "tt-bits-negative", "perft-huge", "perft-61", "selfplay-depth",
        "selfplay-random-plies", "selfplay-exact"])
# (an endless --time is refused by the option's own type, with argparse's
# usage line: tests/cluster/core/test_hostile_files.py's test_an_endless_clock_is_refused)
def test_numeric_options_out_of_range_are_one_line(args, message, ffo_1_19):
    proc = genethello(*(str(ffo_1_19) if a == "{ffo}" else a for a in args), timeout=30)
    lines = assert_user_error(proc)
    assert proc.returncode == 2
    assert len(lines) == 1 and message in lines[0], proc.stderr


GAME_LINE = re.compile(r"game (\d+) \(A (black|white)\): ([a-h1-8]+) (\d+)-(\d+) "
                       r"\((draw|black wins by \d+|white wins by \d+)\)")


def test_match_defaults_to_distinct_openings_with_both_colours():
    proc = genethello("match", PLAYER_A, PLAYER_B, "--depth", 1, "--verbose", timeout=120)
    assert proc.returncode == 0, proc.stderr
    games = [GAME_LINE.fullmatch(line) for line in proc.stdout.splitlines() if line.startswith("game ")]
    assert len(games) == 200 and all(games), proc.stdout[:2000]
    openings = []
    for number, game in enumerate(games, start=1):
        assert int(game[1]) == number and game[2] == ("black" if number % 2 else "white")
        board = Board.from_moves(game[3])
        assert board.is_game_over() and board.disc_count() == (int(game[4]), int(game[5]))
        margin = board.final_score()
        assert game[6] == ("draw" if margin == 0 else f"{'black' if margin > 0 else 'white'} wins by {abs(margin)}")
        openings.append(game[3][:12])         # the 6 random plies: 2 characters a move
    # A pair shares its opening; no two pairs do, nor are two mirror images of each other.
    assert openings[0::2] == openings[1::2]
    assert len({canonical_key(Board.from_moves(o)) for o in openings[0::2]}) == 100
    assert re.search(r"^A [\d.]+ - [\d.]+ B \(200 games in [\d.]+ s\)$", proc.stdout, re.M)
    assert "; openings drawn without replacement from distinct-6 (seed 0)\n" in proc.stdout
    assert re.search(r"^A scores [\d.]+% \[[\d.]+%, [\d.]+%\] 95% \(W/D/L \d+/\d+/\d+\), 100 openings with both "
                     r"colours$", proc.stdout, re.M), proc.stdout[-500:]


def test_match_prints_the_result_alone_and_the_games_on_request(tmp_path):
    """By default a match prints its result (no game lines: 200 of them
    buried the verdict); --verbose prints the games as selfplay does, --out
    writes the same lines to a file and refuses to replace one."""
    quiet = genethello("match", PLAYER_A, PLAYER_B, "--depth", 1, "--games", 4)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    assert [line.split(" ")[0] for line in quiet.stdout.splitlines()] == ["A", "B", "both:", "A", "A", "verdict:"]
    verbose = genethello("match", PLAYER_A, PLAYER_B, "--depth", 1, "--games", 4, "--verbose")
    games = [line for line in verbose.stdout.splitlines() if line.startswith("game ")]
    assert len(games) == 4 and all(GAME_LINE.fullmatch(g) for g in games)
    assert verbose.stdout.splitlines()[4:] == quiet.stdout.splitlines()[:3] + verbose.stdout.splitlines()[7:]
    out = tmp_path / "games.txt"
    written = genethello("match", PLAYER_A, PLAYER_B, "--depth", 1, "--games", 4, "--out", out)
    assert written.returncode == 0 and "game " not in written.stdout
    assert out.read_text().splitlines() == games
    again = genethello("match", PLAYER_A, PLAYER_B, "--depth", 1, "--games", 4, "--out", out)
    assert again.returncode == 2 and stderr_lines(again) == [
        f"genethello match: error: {out} exists: give --force to replace it"]
    assert genethello("match", PLAYER_A, PLAYER_B, "--depth", 1, "--games", 2, "--out", out, "--force").returncode == 0
    assert len(out.read_text().splitlines()) == 2
    refused = tmp_path / "refused.txt"
    assert genethello("match", PLAYER_A, "oe_fmc_bad", "--depth", 1, "--out", refused).returncode == 2
    assert not refused.exists()                 # a player refused leaves no file behind


def test_match_shows_its_progress_on_a_terminal():
    """On a terminal, one line on stderr that rewrites itself after each game
    and is erased before the result."""
    import os
    import pty

    main, child = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "match", PLAYER_A, PLAYER_B,
                               "--depth", "1", "--games", "4"], stdout=subprocess.PIPE, stderr=child, text=True,
                              timeout=60)
    finally:
        os.close(child)
    try:
        shown = os.read(main, 65536).decode()
    finally:
        os.close(main)
    assert proc.returncode == 0 and "game " not in proc.stdout
    assert re.fullmatch(r"(\r\x1b\[Kgame [1-4]/4: A [\d.]+ - [\d.]+ B){4}\r\x1b\[K", shown), repr(shown)


@pytest.mark.parametrize("command", [("match", PLAYER_A, PLAYER_B), ("selfplay", "--black", PLAYER_A, "--white",
                                                                      PLAYER_B)], ids=["match", "selfplay"])
def test_games_that_would_repeat_each_other_are_refused_in_one_line(command):
    proc = genethello(*command, "--depth", 1, "--random-plies", 0, "--games", 400)
    lines = assert_user_error(proc)
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert "--random-plies 0" in lines[0] and "repeat" in lines[0]


def test_one_game_is_one_game():
    proc = genethello("selfplay", "--black", PLAYER_A, "--white", PLAYER_B, "--depth", 1, "--games", 1)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^1 game in [\d.]+ s \([\d.]+ games/s\); black scored [\d.]+/1$", proc.stdout, re.M), proc.stdout


def test_a_missing_gtp_rhino_says_how_to_get_it(monkeypatch, capsys):
    """The README's `--gtp "gtp-rhino -l 3"` on a machine without it: the
    one line names the package and the script that installs it."""
    import shutil

    from genethello.cluster.cli.main import main

    monkeypatch.setattr(shutil, "which", lambda *args, **kwargs: None)
    assert main(["match", PLAYER_A, "--gtp", "gtp-rhino -l 3", "--depth", "1", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'gtp-rhino' is not installed" in err
    assert "sudo apt install grhino" in err and "tests/install_system_packages.sh" in err
