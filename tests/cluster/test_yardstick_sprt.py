"""Sequential yardstick tests (``yardstick.sprt_opponents``): decided on
pairs in schedule order, so that any batching and any number of workers
reach the same decision after the same games; stored beside the fixed
series, left out of the pooled score, shown by ``history``."""

from __future__ import annotations

import json

import pytest

from genethello.cluster.db import Database
from genethello.cluster.db.sprt_record import SprtRecord
from genethello.cluster.measures.yardstick import measure
from genethello.cluster.measures.yardstick_sprt import WAVE_PAIRS, decide, measure_sprt, sprt_specs
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import RayExecutor, SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import config_from_mapping
from genethello.core.engine.board import Board
from genethello.core.play.openings import canonical_key
from genethello.core.play.scoring import MatchScore
from genethello.core.play.sprt import Sprt, run_sprt

from .conftest import cli_env, genethello_argv, query, write_config

CANDIDATE = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
REFERENCE = "p_1_10"


def config(**yardstick):
    values = {"every": 1, "games_per_opponent": 2, "depth": 1, "league_double_games": 0,
              "sprt_opponents": [REFERENCE], "sprt": [-100, 100], "sprt_max_games": 96}
    values.update(yardstick)
    return config_from_mapping({"seed": 3, "games": {"exact_empties": 4}, "yardstick": values})


def test_the_decision_is_the_core_tests_on_the_pairs_in_order_and_later_pairs_do_not_count():
    sprt = Sprt(0, 20)
    # A pair of wins (2 points), then a pair split (1 point), over and over.
    margins = [8, 8, 8, -8] * 40
    pair_points = [2.0, 1.0] * 40
    core = run_sprt(sprt, pair_points, 80)
    assert core.decision == "H1"
    record, score = decide(sprt, margins, 2000)
    assert record.decision == "H1" and record.llr == core.llr and record.pairs == core.counts.counts
    assert score.games == 2 * core.counts.pairs == 2 * sum(record.pairs)
    assert score == MatchScore.from_margins(margins[:score.games])
    # Pairs played past the decision (the rest of a wave) change nothing.
    assert decide(sprt, margins + [-8] * 64, 2000) == (record, score)


def test_undecided_it_waits_and_at_the_cap_it_says_neither():
    sprt = Sprt(-10, 10)
    draws = [0] * 40          # every pair 1 point: the LLR stays at 0
    assert decide(sprt, draws, 42) is None
    record, score = decide(sprt, draws + [0, 0], 42)
    assert record.decision is None and record.pairs == (0, 0, 21, 0, 0) and score.games == 42
    assert record.text().startswith("SPRT: neither after 42 games, the cap (LLR +0.00 within [-2.94, +2.94]")


def test_a_record_survives_its_json():
    record = SprtRecord(0.0, 20.0, 0.05, 0.1, 2000, "H0", -2.95, (3, 1, 4, 1, 5))
    assert SprtRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert record.text() == ("SPRT: H0 accepted after 28 games (LLR -2.95 <= -2.25; H0 0, H1 20 logistic Elo, "
                             "alpha 0.05, beta 0.1)")


def test_its_pairs_have_their_own_openings_without_replacement():
    specs = sprt_specs(config(sprt_max_games=400), CANDIDATE, REFERENCE, 0)
    assert len(specs) == 400 and [s.candidate_black for s in specs[:4]] == [True, False, True, False]
    assert all(a.opening == b.opening for a, b in zip(specs[::2], specs[1::2]))
    assert len({canonical_key(Board.from_moves(list(s.opening))) for s in specs[::2]}) == 200
    assert all(s.opponent == "chromosome:" + REFERENCE for s in specs)


# Measured: H1 after 66 games (in the second wave), and no decision by the
# cap of 96 games (a wave and a half).
@pytest.mark.parametrize("sprt, cap, decision", [([-450, -350], 400, "H1"), ([-420, -380], 96, None)])
def test_any_batching_and_ray_reach_the_same_decision_after_the_same_games(ray_cluster, sprt, cap, decision):
    cfg = config(sprt=sprt, sprt_max_games=cap)
    one_by_one = measure_sprt(cfg, CANDIDATE, SerialExecutor(1e-9), lambda: False)
    whole_waves = measure_sprt(cfg, CANDIDATE, SerialExecutor(60.0), lambda: False)
    on_ray = measure_sprt(cfg, CANDIDATE, RayExecutor(2, task_seconds=0.001), lambda: False)
    assert one_by_one == whole_waves == on_ray
    (opponent, score, record), = one_by_one
    assert opponent == REFERENCE and record.decision == decision
    assert 2 * WAVE_PAIRS < score.games == 2 * sum(record.pairs) <= cap
    assert Sprt(*sprt).decision(record.llr) == decision


def test_a_stopped_test_is_not_a_result():
    calls = []

    def stop_in_the_second_wave() -> bool:
        calls.append(1)
        return len(calls) > 2 * WAVE_PAIRS + 1

    assert measure_sprt(config(sprt=[-10, 10]), CANDIDATE, SerialExecutor(1e-9), stop_in_the_second_wave) is None


def test_a_run_stores_the_test_beside_the_fixed_series_and_history_shows_its_decision(tmp_path):
    import subprocess

    path = write_config(tmp_path, stop__max_generations=1, yardstick__every=1, yardstick__games_per_opponent=2,
                        yardstick__league_double_games=0, yardstick__depth=1,
                        yardstick__sprt_opponents=[REFERENCE], yardstick__sprt=[-100, 100],
                        yardstick__sprt_max_games=64)
    from genethello.cluster.run.run_check import load_config

    db_path = tmp_path / "run.db"
    db = Database.open(db_path, create=True)
    try:
        run_id = create_run(db, load_config(path))
        coordinator = Coordinator(db, run_id, SerialExecutor(0.001), Progress(enabled=False), yardstick=measure)
        assert coordinator.run() == "finished"
    finally:
        db.dispose()
    rows = query(db_path, "SELECT opponent, games, points, sprt FROM yardstick_results ORDER BY opponent")
    fixed = [r for r in rows if r[3] is None]
    (name, games, _, stored), = [r for r in rows if r[3] is not None]
    record = SprtRecord.from_json(json.loads(stored))
    assert name == f"{REFERENCE} (SPRT)" and games == 2 * sum(record.pairs)
    # The player's pooled yardstick is the fixed series' alone.
    (pooled,), = query(db_path, "SELECT yardstick FROM chromosomes WHERE yardstick IS NOT NULL")
    assert pooled == pytest.approx(sum(r[2] for r in fixed) / sum(r[1] for r in fixed))
    out = subprocess.run(genethello_argv("history", "--db", str(db_path)), env=cli_env(tmp_path), text=True,
                         capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert f"{REFERENCE} (SPRT) " in out.stdout and record.text() in out.stdout
    assert "openings from distinct-6, without replacement" in out.stdout
