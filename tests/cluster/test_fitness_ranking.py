"""Fitness that does not breed specialists (issue 36 part 2): selection's
order of a generation kept as points (``fitness.ranking``: by total
points, or so that a single opponent cannot dominate it — each opponent's
ranks averaged, the worst matchup), and the ``mixed`` fitness kind (the
members against each other, a varied pool and the hall). The rankings and
the pairings are pure functions, checked by hand here; a run ranked by
opponents keeps each game's points with its tasks and stores the same on
1 and 2 Ray workers as serially, and a run ranked by points stores what it
stored before rankings existed."""

from __future__ import annotations

import numpy as np
import pytest

from genethello.cluster.breeding.breeders import RatedGeneration, breeder_for
from genethello.cluster.config import BreedingConfig, ConfigError, RunConfig
from genethello.cluster.db import Database
from genethello.cluster.fitness.fitness_kinds import fitness_kind
from genethello.cluster.fitness.fitness_ranking import FITNESS_RANKINGS, fitness_ranking, scores_by_opponent
from genethello.cluster.reads import find_run
from genethello.cluster.run.generation_fitness import PointsFitness
from genethello.cluster.run.run_check import config_from_mapping
from genethello.cluster.run.run_store import RunStore
from genethello.core.families.registry import parse_kind

from .conftest import query
from .test_network_runs import NET, assert_workers_store, serial_reference

#: Three members against two opponents (contestants 3 and 4), 10 games
#: each: X (3) is easy and spreads the members widely, Y (4) does not.
#: A: X 10/10, Y 2/10 (12 points); B: X 5, Y 6 (11); C: X 4, Y 5 (9).
WON = {(0, 3): 10, (0, 4): 2, (1, 3): 5, (1, 4): 6, (2, 3): 4, (2, 4): 5}


def _games() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Black, White and Black's points of WON's games, each member Black in
    half of its games against each opponent."""
    black, white, points = [], [], []
    for (member, opponent), wins in WON.items():
        results = [1.0] * wins + [0.0] * (10 - wins)
        for game, result in enumerate(results):
            if game % 2 == 0:
                black.append(member), white.append(opponent), points.append(result)
            else:
                black.append(opponent), white.append(member), points.append(1.0 - result)
    return np.array(black), np.array(white), np.array(points)


def test_scores_by_opponent_count_each_members_points_and_games_against_each_contestant():
    black, white, points = _games()
    by_points, by_games = scores_by_opponent(black, white, points, members=3, contestants=5)
    expected = np.zeros((3, 5))
    for (member, opponent), wins in WON.items():
        expected[member, opponent] = wins
    assert np.array_equal(by_points, expected)
    assert np.array_equal(by_games, np.array([[0, 0, 0, 10, 10]] * 3, dtype=float))


@pytest.mark.parametrize(("name", "order"), [
    ("points", [0, 1, 2]),            # 12, 11, 9: X, the easy opponent, decides
    ("opponent-ranks", [1, 0, 2]),    # mean ranks A (1+3)/2 = 2, B (2+1)/2 = 1.5, C (3+2)/2 = 2.5
    ("worst-opponent", [1, 2, 0]),    # worst scores A 0.2, B 0.5, C 0.4
])
def test_each_ranking_orders_the_hand_computed_case(name, order):
    black, white, points = _games()
    totals = np.array([12.0, 11.0, 9.0])
    by_points, by_games = scores_by_opponent(black, white, points, 3, 5)
    assert fitness_ranking(name).order(totals, by_points, by_games) == order


def test_ties_share_their_mean_rank_and_fall_back_on_points_then_the_slot():
    # Two opponents; members 0 and 1 tie against both; member 2 leads one, trails the other.
    by_points = np.array([[0, 0, 0, 5, 5], [0, 0, 0, 5, 5], [0, 0, 0, 10, 0]], dtype=float)
    by_games = np.array([[0, 0, 0, 10, 10]] * 3, dtype=float)
    totals = by_points.sum(axis=1)
    # ranks against 3: member 2 first (1), 0 and 1 share 2.5; against 4: 0 and 1 share 1.5, 2 third.
    # means: 0 and 1: 2.0, 2: 2.0 -> all tied: points 10, 10, 10 -> the slot
    assert fitness_ranking("opponent-ranks").order(totals, by_points, by_games) == [0, 1, 2]
    assert fitness_ranking("worst-opponent").order(totals, by_points, by_games) == [0, 1, 2]


def test_a_round_robin_ranks_each_member_over_the_members_it_met():
    """In coevolution the opponents are the members: a member never meets
    itself, and its mean rank is over the others."""
    black = np.array([0, 1, 0, 2, 1, 2])
    white = np.array([1, 0, 2, 0, 2, 1])
    points = np.array([1.0, 0.0, 1.0, 0.0, 0.5, 0.5])    # 0 beats 1 and 2 twice each; 1 and 2 draw
    by_points, by_games = scores_by_opponent(black, white, points, 3, 3)
    assert by_games.diagonal().tolist() == [0, 0, 0]
    assert fitness_ranking("opponent-ranks").order(by_points.sum(axis=1), by_points, by_games)[0] == 0


def test_the_ranking_is_checked_where_it_enters():
    with pytest.raises(ConfigError, match=r"^fitness\.ranking: 'best' is not one of points, opponent-ranks, "):
        config_from_mapping({"population": {"type": "all-2", "size": 4},
                             "fitness": {"kind": "fixed", "opponents": ["wpc"], "ranking": "best"}})
    with pytest.raises(ConfigError, match=r"^fitness\.ranking: 'worst-opponent' orders a fitness kept as points"):
        config_from_mapping({"population": {"type": "oe_fmc", "size": 4}, "fitness": {"ranking": "worst-opponent"}})
    assert set(FITNESS_RANKINGS) == {"points", "opponent-ranks", "worst-opponent"}


def test_cma_es_is_told_the_ranks_when_a_ranking_by_opponents_ordered_the_members():
    """CMA-ES ranks what it is told: the points where they ordered the
    members, else each member's place (what selection chose)."""
    breeder = breeder_for(BreedingConfig(method="cma-es", sigma0=1.0))
    kind = parse_kind("all-2")
    first = breeder.first_population(kind, 6, [], np.random.default_rng(3))
    members = list(first.members)
    against = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]      # the points say the reverse of the order below

    def bred(points: list[float], by_points: bool) -> list[str]:
        rated = RatedGeneration(1, kind, members, (), first.state, points, list(range(6)), 40,
                                ranked_by_points=by_points)
        return [str(m) for m in breeder_for(BreedingConfig(method="cma-es", sigma0=1.0)).next_population(
            rated, 6, np.random.default_rng(4)).members]

    by_ranks = bred(against, by_points=False)
    assert by_ranks == bred([6.0, 5.0, 4.0, 3.0, 2.0, 1.0], by_points=True)   # the ranks: the order given
    assert by_ranks != bred(against, by_points=True)                           # the points: the reverse


#: NET against two fixed opponents, ranked by each opponent's ranks.
RANKED = {**NET, "name": "ranked", "fitness__opponents": ["wpc", "random"], "fitness__games_per_opponent": 20,
          "fitness__ranking": "opponent-ranks", "stop__max_generations": 3}


def test_a_run_ranked_by_opponents_keeps_each_games_points_on_any_number_of_workers(ray_cluster, tmp_path):
    folder = tmp_path / "reference"
    folder.mkdir()
    reference = serial_reference(folder, "ranked", **RANKED)
    assert reference["run"][2] == "finished"
    rows = query(folder / "ref.db", "SELECT length(points), games FROM fitness_results")
    assert rows and all(size == 6 * 8 + games for size, games in rows)     # 6 members' points, then a byte a game
    assert sum(games for _, games in rows) == 3 * 6 * 2 * 2 * 20
    assert_workers_store(tmp_path, "ranked", reference, **RANKED)

    # What the breeder saw of generation 1: the members in the order the
    # stored games give, each opponent's ranks averaged (computed here from
    # the bytes: member-major pairings, 20 double games against each opponent).
    stored = query(folder / "ref.db", "SELECT points FROM fitness_results WHERE generation = 1 ORDER BY task_index")
    black_points = np.concatenate([np.frombuffer(p[6 * 8:], dtype=np.uint8) for (p,) in stored]) / 2.0
    member_points = black_points.reshape(6, 2, 20, 2).copy()
    member_points[..., 1] = 1.0 - member_points[..., 1]        # the second game of a double: the member is White
    score = member_points.sum(axis=(2, 3)) / 40.0                # [member, opponent]
    ranks = np.array([[1 + np.sum(score[:, k] > score[m, k]) + (np.sum(score[:, k] == score[m, k]) - 1) / 2
                       for k in range(2)] for m in range(6)]).mean(axis=1)
    totals = member_points.sum(axis=(1, 2, 3))
    expected = sorted(range(6), key=lambda m: (ranks[m], -totals[m], m))
    db = Database.open(folder / "ref.db", create=False)
    try:
        run = find_run(db, None)
        config = RunConfig.from_json(run.config_json)
        fitness = PointsFitness(RunStore(db, run.id), config, config.chromosome_type)
        assert fitness.ranking(1).rated.slots == expected
        assert expected != sorted(range(6), key=lambda m: (-totals[m], m))     # here the rankings differ
    finally:
        db.dispose()


def test_a_run_ranked_by_points_stores_its_points_alone(tmp_path):
    serial_reference(tmp_path, "net", **{**NET, "stop__max_generations": 2})
    rows = query(tmp_path / "ref.db", "SELECT length(points) FROM fitness_results")
    assert rows and {size for (size,) in rows} == {6 * 8}


def test_a_mixed_fitness_pairs_the_members_then_each_member_with_each_other():
    config = config_from_mapping({"population": {"type": "all-2", "size": 3}, "hall": {"games_per_member": 4},
                                  "fitness": {"kind": "mixed", "opponents": ["wpc"], "games_per_opponent": 1}})
    kind = fitness_kind("mixed")
    black, white, per_pairing = kind.pairings(config.fitness, 3, 2)    # 3 members; wpc and one hall member
    pairs = list(zip(black.tolist(), white.tolist(), strict=True))
    assert pairs == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1),
                     (0, 3), (3, 0), (0, 4), (4, 0), (1, 3), (3, 1), (1, 4), (4, 1), (2, 3), (3, 2), (2, 4), (4, 2)]
    assert per_pairing == 1 and kind.games_per_member(config.fitness, 3, 2) == 2 * (2 + 2)
    assert kind.others(["wpc"], ["h1", "h2"]) == ["wpc", "h1", "h2"]
    with pytest.raises(ConfigError, match=r"^fitness\.kind: 'mixed' needs a hall of fame"):
        config_from_mapping({"population": {"type": "all-2", "size": 3}, "hall": {"games_per_member": 0},
                             "fitness": {"kind": "mixed", "opponents": ["wpc"]}})


@pytest.mark.parametrize(("latest", "others"), [(0, (1, 2, 3)), (1, (1, 2, 2))])
def test_a_mixed_run_plays_each_other_the_pool_and_the_hall_entered_before(tmp_path, latest, others):
    """6 members, 2 double games a pairing: 15 pairs of members, then each
    member against wpc and every champion entered before the generation
    (or the ``fitness.hall_opponents`` entered last)."""
    snap = serial_reference(tmp_path, "mixed", **{**NET, "name": "mixed", "fitness__kind": "mixed",
                                                  "fitness__games_per_opponent": 2, "fitness__hall_opponents": latest,
                                                  "hall__every": 1, "stop__max_generations": 3})
    assert snap["run"][2] == "finished"
    assert [g[2] for g in snap["generations"]] == [60 + 6 * 4 * count for count in others]


def test_hall_opponents_need_a_kind_that_plays_the_hall():
    with pytest.raises(ConfigError, match=r"^fitness\.hall_opponents: fitness\.kind 'fixed' plays no hall member"):
        config_from_mapping({"population": {"type": "all-2", "size": 4},
                             "fitness": {"kind": "fixed", "opponents": ["wpc"], "hall_opponents": 2}})
