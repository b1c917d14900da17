"""``match`` says what its score means (issue 38): a one-line verdict (A is
stronger, B is stronger, or no difference at 95% with about the games that
would tell), depth 8 when no limit is given (as the README says), and a
match stopped by Ctrl-C or SIGTERM prints the score so far before it exits
130 or 143 (a real subprocess, a real signal)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from genethello.cluster.cli.main import build_parser
from genethello.core.cli.match_command import games_to_tell, verdict
from genethello.core.play.scoring import MatchScore


def score(wins: int, draws: int, losses: int) -> MatchScore:
    return MatchScore(wins, draws, losses)


def test_the_verdict_names_the_stronger_player_only_when_the_interval_says_so():
    assert verdict(score(70, 0, 30)).startswith("verdict: A is stronger")
    assert verdict(score(30, 0, 70)).startswith("verdict: B is stronger")
    undecided = verdict(score(11, 0, 9))
    assert undecided.startswith("verdict: no difference at 95% after 20 games")
    assert "about" in undecided and "games would tell" in undecided
    assert "a 55% score would take about 386 games" in verdict(score(5, 0, 5))


def test_the_games_to_tell_shrink_the_interval_as_one_over_the_root_of_the_games():
    s = score(56, 0, 44)                                # 56% of 100: interval about ±9.7 points
    needed = games_to_tell(s)
    assert needed is not None and 200 < needed < 300    # (9.7 / 6)^2 * 100 ≈ 262
    # at that many games, the same score's interval just reaches 50%; a few more clear it
    wins = round(0.56 * needed)
    assert abs(MatchScore(wins, 0, needed - wins).interval[0] - 0.5) < 0.005
    more = round(1.1 * needed)
    assert MatchScore(round(0.56 * more), 0, more - round(0.56 * more)).interval[0] > 0.5
    assert games_to_tell(score(5, 0, 5)) is None


def test_match_and_gtp_search_to_depth_8_when_given_no_limit():
    assert build_parser("match").parse_args(["match", "p_1_10", "p_1_10"]).depth is None   # run_match fills it
    assert build_parser("gtp").parse_args(["gtp", "--player", "p_1_10"]).depth is None
    done = subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", "match", "p_1_10",
                           "fdmxcp_52_2:0:6:9:4:5", "--games", "2", "--exact", "8"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "both: depth 8, exact 8" in done.stdout
    assert "verdict: " in done.stdout


@pytest.mark.parametrize("sig, status, said", [(signal.SIGINT, 130, "Ctrl-C"), (signal.SIGTERM, 143, "SIGTERM")])
def test_a_stopped_match_prints_its_partial_score(tmp_path, sig, status, said):
    out = tmp_path / "games.txt"
    proc = subprocess.Popen([sys.executable, "-m", "genethello.cluster.cli.main", "match", "p_1_10",
                             "fdmxcp_52_2:0:6:9:4:5", "--depth", "6", "--games", "400", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 2):
            time.sleep(0.1)
        assert out.exists(), "no game finished"
        os.kill(proc.pid, sig)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == status, stderr
    assert f"({said}): A " in stdout, stdout
    played = int(stdout.split("interrupted after ")[1].split(" game")[0])
    assert played >= 2
    assert "A scores " in stdout and "verdict: " in stdout
    assert "Traceback" not in stderr
