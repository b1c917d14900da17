"""The yardstick gauntlet: built-in players, a real GTP peer (gtp-rhino),
passes kept implicit, and a broken peer left out instead of ending the run."""

import gzip
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from genethello.cluster.yardstick import (
    ChromosomePlayer, GreedyPlayer, GtpPlayer, RandomPlayer, SquareWeightsPlayer, gauntlet, play,
)
from genethello.core import PASS, Board, split_move_list
from genethello.core.chromosome import Chromosome

BEST = Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3")


def rhino() -> str | None:
    return shutil.which("gtp-rhino") or shutil.which("gtp-rhino", path="/usr/games")


def opening_through_a_pass(games: Path) -> list[int]:
    """The moves of a real game up to just after its first (forced) pass."""
    with gzip.open(games, "rt") as f:
        for line in f:
            board = Board()
            moves = []
            for sq in split_move_list(line.strip()):
                if board.must_pass():
                    moves.append(PASS)
                    board.play(PASS)
                    if not board.must_pass() and len(moves) < 58:
                        return moves
                moves.append(sq)
                board.play(sq)
    raise AssertionError("no game with a pass")


def test_built_in_players_score_between_zero_and_one():
    scores = gauntlet(ChromosomePlayer(BEST, 2), [RandomPlayer(1), GreedyPlayer(), SquareWeightsPlayer()],
                      games_per_opponent=4, random_plies=2, run_seed=5)
    assert [s.opponent for s in scores] == ["random", "greedy", "square-weights"]
    for s in scores:
        assert s.games == 4 and 0.0 <= s.points <= 4.0


def test_the_same_gauntlet_twice_gives_the_same_scores():
    def run():
        return gauntlet(ChromosomePlayer(BEST, 2), [RandomPlayer(3), SquareWeightsPlayer()],
                        games_per_opponent=4, random_plies=3, run_seed=9)
    assert run() == run()


@pytest.mark.skipif(rhino() is None, reason="gtp-rhino is not installed (tests/install_system_packages.sh)")
def test_gtp_rhino_plays_through_a_pass(games_slice):
    opening = opening_through_a_pass(games_slice)
    peer = GtpPlayer("gtp-rhino -l 1")
    try:
        for black, white in ((ChromosomePlayer(BEST, 2), peer), (peer, ChromosomePlayer(BEST, 2))):
            margin = play(black, white, opening)
            assert -64 <= margin <= 64
    finally:
        peer.close()


def test_a_broken_gtp_peer_is_left_out_and_reported(tmp_path, monkeypatch):
    # A real subprocess that speaks enough GTP to start, then dies on genmove.
    script = tmp_path / "dying-engine"
    script.write_text("#!" + sys.executable + "\n" + textwrap.dedent("""
        import sys
        for line in sys.stdin:
            parts = line.split()
            if not parts:
                continue
            cid, cmd = parts[0], parts[1]
            if cmd in ("genmove", "reg_genmove"):
                sys.exit(3)
            sys.stdout.write(f"={cid}\\n\\n")
            sys.stdout.flush()
    """))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{__import__('os').environ['PATH']}")
    peer = GtpPlayer("dying-engine")
    failures = []
    try:
        scores = gauntlet(ChromosomePlayer(BEST, 1), [GreedyPlayer(), peer], games_per_opponent=2,
                          random_plies=2, run_seed=1, on_failure=lambda name, exc: failures.append((name, exc)))
    finally:
        peer.close()
    assert [s.opponent for s in scores] == ["greedy"]
    assert failures and failures[0][0] == "dying-engine"
