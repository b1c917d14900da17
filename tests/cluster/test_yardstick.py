"""The yardstick: built-in gauntlet games as specs played on an executor
(here in-process; Ray in test_evolution), W/D/L counts with intervals, the
League measure, a real GTP peer (gtp-rhino) through a pass, and a broken
peer left out instead of ending the run."""

import dataclasses
import gzip
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from genethello.cluster.config import OpeningsConfig
from genethello.cluster.fitness.games import GameSettings, GauntletOutcome, candidate_margins, gauntlet_matches
from genethello.cluster.fitness.pairing import opening_seed
from genethello.cluster.measures.yardstick import (
    FIRST_CHAMPION,
    LEAGUE,
    gauntlet_specs,
    measure,
    measure_gtp,
    play_specs,
    tally,
)
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.run_check import config_from_mapping
from genethello.core import PASS, Board, split_move_list
from genethello.core.engine.game import random_opening
from genethello.core.families.chromosome import Chromosome
from genethello.core.gtp.gtp_player import GtpPlayer
from genethello.core.play.openings import canonical_key
from genethello.core.play.players import ChromosomePlayer, play

BEST = Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3")
FIRST = Chromosome.parse("oe_fmc_1_12:51:4:0:0:3:7:5:4:6:0")
SETTINGS = GameSettings(5, 1, 4, 2)


def config(**yardstick):
    values = {"games_per_opponent": 4, "depth": 1, "random_plies": 2, "league_double_games": 3}
    values.update(yardstick)
    return config_from_mapping({"seed": 5, "yardstick": values})


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


def test_specs_cover_each_opponent_with_both_colours_and_the_league():
    specs, names = gauntlet_specs(config(), str(BEST), str(FIRST))
    assert names == (["random"] * 4 + ["greedy"] * 4 + ["square-weights"] * 4 + [FIRST_CHAMPION] * 4
                     + [LEAGUE] * 6)
    assert [s.index for s in specs] == list(range(len(specs)))
    first_pair = specs[:2]
    assert first_pair[0].opening_seed == first_pair[1].opening_seed
    assert first_pair[0].opening == first_pair[1].opening and len(first_pair[0].opening) == 6
    assert [s.candidate_black for s in first_pair] == [True, False]
    assert specs[12].opponent == "chromosome:" + str(FIRST)
    league = specs[16:]
    assert all(s.depth == 1 and s.exact_empties == 0 and s.opening == () for s in league)
    assert [s.candidate_black for s in league] == [True, False] * 3


def test_each_opponents_openings_are_a_series_of_the_set_without_replacement():
    # 193 pairs (the default 386 games): no position, nor a mirror image of
    # one, twice against one opponent; with "random" (runs made before) the
    # same draws with replacement as before, of yardstick.random_plies.
    cfg = config(games_per_opponent=386, league_double_games=0)
    specs, names = gauntlet_specs(cfg, str(BEST), str(FIRST))
    for opponent in dict.fromkeys(names):
        openings = [s.opening for s, name in zip(specs, names) if name == opponent][::2]
        assert len(openings) == 193
        assert len({canonical_key(Board.from_moves(list(o))) for o in openings}) == 193
    old = dataclasses.replace(cfg, openings=OpeningsConfig("random"))
    specs, _ = gauntlet_specs(old, str(BEST), str(FIRST))
    assert [s.opening for s in specs[:4:2]] == [tuple(random_opening(2, opening_seed(5, 0, 1_000, p))) for p in (0, 1)]
    assert all(len(s.opening) == 2 for s in specs)


def test_tally_counts_wins_draws_losses_by_index():
    names = ["a", "a", "b", "b"]
    outcomes = [GauntletOutcome(3, -2), GauntletOutcome(0, 10), GauntletOutcome(1, 0), GauntletOutcome(2, -64)]
    scores = tally(names, outcomes)
    assert [(s.opponent, s.result.wins, s.result.draws, s.result.losses) for s in scores] == [
        ("a", 1, 1, 0), ("b", 0, 0, 2)]
    assert scores[0].points == 1.5 and scores[0].score == 0.75


def test_measurement_is_the_same_whatever_the_batches_and_their_order():
    cfg = config()
    specs, names = gauntlet_specs(cfg, str(BEST), str(FIRST))
    whole = tally(names, play_specs(SerialExecutor(), specs, lambda: False))
    task, pairings = gauntlet_matches(specs)
    backwards = [o for p in reversed(pairings) for o in candidate_margins(specs, task.run([p]))]
    assert tally(names, backwards) == whole
    for s in whole:
        assert s.games == (6 if s.opponent == LEAGUE else 4)
        assert 0.0 <= s.score <= 1.0


def test_a_stopped_measurement_returns_none():
    cfg = config()
    calls = []

    def should_stop():
        calls.append(1)
        return len(calls) > 1
    assert measure(cfg, BEST, FIRST, SerialExecutor(task_seconds=1e-6), SETTINGS, should_stop) is None


def test_the_candidate_beats_random_and_its_interval_says_so():
    cfg = config(games_per_opponent=40, league_double_games=0)
    scores = {s.opponent: s for s in measure(cfg, BEST, FIRST, SerialExecutor(), SETTINGS, lambda: False)}
    low, high = scores["random"].result.interval
    assert low > 0.5, scores["random"].result.text()


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


@pytest.mark.skipif(rhino() is None, reason="gtp-rhino is not installed (tests/install_system_packages.sh)")
def test_gtp_engines_play_their_own_budget():
    cfg = config(gtp_engines=["gtp-rhino -l 1"], gtp_games=4)
    [score] = measure_gtp(cfg, BEST)
    assert score.opponent == "gtp-rhino -l 1" and score.games == 4


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
    failures = []
    cfg = config(gtp_engines=["dying-engine", "not-installed-engine"], gtp_games=2)
    scores = measure_gtp(cfg, BEST, on_failure=lambda name, exc: failures.append(name))
    assert scores == []
    assert failures == ["dying-engine", "not-installed-engine"]


def test_the_candidate_is_not_measured_against_itself_and_the_others_keep_their_openings():
    specs, names = gauntlet_specs(config(), str(FIRST), str(FIRST))
    assert FIRST_CHAMPION not in names
    with_first, _ = gauntlet_specs(config(), str(BEST), str(FIRST))
    assert [s.opening_seed for s in specs if s.opponent == "greedy"] == [
        s.opening_seed for s in with_first if s.opponent == "greedy"]
