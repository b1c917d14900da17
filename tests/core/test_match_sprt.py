"""``genethello match ... --sprt ELO0 ELO1`` run as a real command: it stops at
the pair whose LLR crosses a bound, prints what it claims, plays the same
distinct openings as a fixed match, decides the obvious cases the obvious
way (with chromosomes and a GTP engine), and refuses bad options in one line."""

import re
import subprocess
import sys

import pytest

from genethello.core.play.sprt import Pentanomial, Sprt, elo_estimate

STRONG = "fdmxcp_52_2:0:6:9:4:5"     # the best config/strong.toml bred
WEAK = "fdmxcp_1_9:1:6:2:5:5"        # that run's generation-1 champion
PAIR_LINE = re.compile(r"pair (\d+) \((\d+) games\): A ([\d.]+) of 2, LLR ([+-]\d+\.\d\d) \[([+-]\d+\.\d\d), "
                       r"([+-]\d+\.\d\d)\], Elo (\S+ \[\S+, \S+\]), pairs (\d+)/(\d+)/(\d+)/(\d+)/(\d+)")
GAME_LINE = re.compile(r"game (\d+) \(A (black|white)\): \S+ \d+-\d+ \((draw|black wins by \d+|white wins by \d+)\)")


def genethello(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def pair_lines(proc):
    """The pair lines a match prints with --verbose."""
    lines = [line for line in proc.stdout.splitlines() if line.startswith("pair ")]
    matches = [PAIR_LINE.fullmatch(line) for line in lines]
    assert lines and all(matches), proc.stdout[:2000]
    return matches


def check_the_run(proc, sprt):
    """Every pair line tells the truth about its counts, no pair is played
    after a bound is crossed, and the verdict names the crossing; returns
    (decision, points of each pair)."""
    assert proc.returncode == 0, proc.stderr
    counts, points = Pentanomial(), []
    pairs = pair_lines(proc)
    for number, line in enumerate(pairs, start=1):
        counts = counts.add(float(line[3]))
        points.append(float(line[3]))
        assert (int(line[1]), int(line[2])) == (number, 2 * number)
        assert tuple(int(line[k]) for k in range(8, 13)) == counts.counts
        llr = sprt.llr(counts)
        assert float(line[4]) == pytest.approx(llr, abs=0.006)
        assert (float(line[5]), float(line[6])) == (round(sprt.lower, 2), round(sprt.upper, 2))
        assert line[7] == str(elo_estimate(counts))
        if number < len(pairs):
            assert sprt.lower < llr < sprt.upper, f"pair {number} crossed a bound and play went on"
    decision = sprt.decision(sprt.llr(counts))
    games = 2 * len(pairs)
    if decision is None:
        assert f"neither at --max-games {games}" in proc.stdout
    else:
        assert f"{decision} accepted after {games} games ({len(pairs)} pairs)" in proc.stdout
    assert f"({games} games in " in proc.stdout
    assert f"A's Elo advantage {elo_estimate(counts)} 95% (logistic" in proc.stdout
    return decision, points


def test_a_clearly_stronger_player_is_accepted_as_h1_on_the_fixed_match_openings():
    sprt_run = genethello("match", "--verbose", STRONG, WEAK, "--depth", 2, "--sprt", 0, 20, "--random-plies", 8,
                          "--max-games", 1000)
    decision, points = check_the_run(sprt_run, Sprt(0.0, 20.0))
    assert decision == "H1" and len(points) < 200
    assert "logistic Elo: H0 Elo 0, H1 Elo 20, alpha 0.05, beta 0.05: LLR bounds [-2.94, +2.94], " \
           "at most 1000 games" in sprt_run.stdout
    # The same pairs, game for game, as the fixed match on those openings
    # (whose own test checks that no two openings are alike).
    fixed = genethello("match", "--verbose", STRONG, WEAK, "--depth", 2, "--random-plies", 8,
                       "--games", 2 * len(points))
    assert fixed.returncode == 0, fixed.stderr
    games = [GAME_LINE.fullmatch(line) for line in fixed.stdout.splitlines() if line.startswith("game ")]
    assert len(games) == 2 * len(points) and all(games)
    won = [0.5 if g[3] == "draw" else 1.0 if g[3].startswith(g[2]) else 0.0 for g in games]
    assert [won[2 * i] + won[2 * i + 1] for i in range(len(points))] == points


def test_a_player_against_itself_is_h0_with_every_pair_one_point():
    # At a fixed depth the pair's second game is its first with the players'
    # names swapped: each pair scores exactly 1, the estimate is exactly 0
    # and the LLR falls by about log(2 (1 - L(20))) = -0.059 a pair.
    proc = genethello("match", "--verbose", STRONG, STRONG, "--depth", 2, "--sprt", 0, 20)
    decision, points = check_the_run(proc, Sprt(0.0, 20.0))
    assert decision == "H0" and set(points) == {1.0}
    first = next(n for n in range(1, 200) if Sprt(0.0, 20.0).llr(Pentanomial((0, 0, n, 0, 0))) <= Sprt(0, 20).lower)
    assert len(points) == first == 50
    assert "A's Elo advantage +0.0 [+0.0, +0.0] 95%" in proc.stdout


def test_a_self_match_between_symmetric_bounds_decides_nothing():
    # Elo 0 lies halfway between -10 and +10: pairs of 1 point favour neither.
    proc = genethello("match", "--verbose", STRONG, STRONG, "--depth", 1, "--sprt", -10, 10, "--max-games", 20)
    decision, points = check_the_run(proc, Sprt(-10.0, 10.0))
    assert decision is None and len(points) == 10
    assert "neither at --max-games 20: LLR +0.00 within [-2.94, +2.94] after 20 games (10 pairs)" in proc.stdout


def test_a_gtp_engine_is_tested_the_same_way():
    engine = f"{sys.executable} -m genethello.cluster.cli.main gtp --player {WEAK} --depth 1"
    proc = genethello("match", "--verbose", STRONG, "--gtp", engine, "--depth", 2, "--sprt", 0, 20, "--random-plies", 8,
                      "--max-games", 600, "--alpha", 0.05, "--beta", 0.1)
    decision, points = check_the_run(proc, Sprt(0.0, 20.0, 0.05, 0.1))
    assert decision == "H1" and len(points) < 300


@pytest.mark.parametrize("options, message", [
    (["--sprt", 20, 0], "--sprt ELO0 ELO1 needs ELO0 < ELO1, got 20 0"),
    (["--sprt", 5, 5], "needs ELO0 < ELO1"),
    (["--sprt", 0, "inf"], "argument --sprt: must be a finite number, got inf"),
    (["--sprt", 0], "argument --sprt: expected 2 arguments"),
    (["--sprt", 0, 20, "--alpha", 0.5], "--alpha must be between 0 and 0.5 (exclusive), got 0.5"),
    (["--sprt", 0, 20, "--alpha", 0], "--alpha must be between 0 and 0.5"),
    (["--sprt", 0, 20, "--beta", -0.1], "--beta must be between 0 and 0.5"),
    (["--sprt", 0, 20, "--max-games", 7], "--max-games must be even"),
    (["--sprt", 0, 20, "--max-games", 0], "argument --max-games: must be an integer >= 2"),
    (["--sprt", 0, 20, "--max-games", 4000], "--max-games 4000 needs 2000 different openings and --random-plies 6"),
    (["--sprt", 0, 20, "--games", 10], "--games does not apply to --sprt"),
    (["--max-games", 100], "--max-games goes with --sprt ELO0 ELO1"),
    (["--beta", 0.1], "--beta goes with --sprt"),
])
def test_bad_sprt_options_are_one_line(options, message):
    proc = genethello("match", STRONG, WEAK, "--depth", 1, *options, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and not proc.stdout
    error = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert len(error) == 1 and message in error[0], proc.stderr
