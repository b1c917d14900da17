"""The rating step on hand-made generations: values worked out by hand."""

from __future__ import annotations

import pytest

from genethello.cluster.fitness.rating_step import Member, PlayedGame, rate_generation
from genethello.core.play.scoring import points_from_margin


def test_points_from_margin():
    assert [points_from_margin(m) for m in (64, 1, 0, -1, -64)] == [1.0, 1.0, 0.5, 0.0, 0.0]


def test_one_game_between_equals():
    members = [Member(1, 1500.0, 1, "a"), Member(2, 1500.0, 1, "b")]
    rating = rate_generation(members, [PlayedGame(1, 2, 10)], start_rating=1500.0, k=16.0)
    a, b = rating.players
    # Expected score 0.5 each: the winner gains K * 0.5 = 8.
    assert (a.player_id, a.elo, a.wins, a.losses, a.draws) == (1, 1508.0, 1, 0, 0)
    assert (b.player_id, b.elo, b.wins, b.losses, b.draws) == (2, 1492.0, 0, 1, 0)
    assert rating.mean_elo == 1500.0
    assert a.bt_rating == pytest.approx(-b.bt_rating) and a.bt_rating > 0
    assert rating.stats == {"max_elo": 1508.0, "min_elo": 1492.0, "generation_best": "a",
                            "generation_best_elo": 1508.0, "games": 1, "black_wins": 1, "draws": 0}


def test_games_apply_in_the_given_order_and_draws_count_half():
    members = [Member(1, 1600.0, 3, "a"), Member(2, 1400.0, 1, "b")]
    games = [PlayedGame(1, 2, 0), PlayedGame(2, 1, 0)]
    rating = rate_generation(members, games, start_rating=1500.0, k=32.0)
    a, b = rating.players
    # First draw: a expected 1/(1+10^(-200/400)) = 0.7597; a loses 32*0.2597.
    e = 1 / (1 + 10 ** (-200 / 400))
    a1 = 1600.0 + 32 * (0.5 - e)
    e2 = 1 / (1 + 10 ** ((1400.0 - 32 * (0.5 - e) - a1) / 400))
    assert a.elo == pytest.approx(a1 + 32 * (0.5 - e2))
    assert a.elo + b.elo == pytest.approx(3000.0)          # zero-sum
    assert (a.draws, b.draws, a.wins, b.wins) == (2, 2, 0, 0)
    assert rating.stats["draws"] == 2 and rating.stats["black_wins"] == 0


def test_generation_best_tie_goes_to_the_older_birth():
    members = [Member(1, 1500.0, 5, "young"), Member(2, 1500.0, 2, "old")]
    rating = rate_generation(members, [], start_rating=1500.0, k=16.0)
    assert rating.stats["generation_best"] == "old"


# --------------------------------------------------------------------------- #
# Selection: parents by the generation's own score, or by carried-over Elo.

from genethello.cluster.config import ConfigError  # noqa: E402
from genethello.cluster.db import Database  # noqa: E402
from genethello.cluster.run.run_check import config_from_mapping  # noqa: E402
from genethello.cluster.run.run_store import RunStore  # noqa: E402
from genethello.core.families.chromosome import Chromosome  # noqa: E402


def test_selection_is_checked():
    assert config_from_mapping({"rating": {"selection": "elo"}}).rating.selection == "elo"
    assert config_from_mapping({}).rating.selection == "score"
    with pytest.raises(ConfigError, match="rating.selection"):
        config_from_mapping({"rating": {"selection": "luck"}})


def test_ranking_by_score_ignores_carried_elo(tmp_path):
    """Three members: 'a' carries a high Elo but scored least this
    generation; 'b' and 'c' tie on points and the older birth goes first."""
    from genethello.cluster.run.coordinator import create_run

    db = Database.open(tmp_path / "r.db", create=True)
    try:
        run_id = create_run(db, config_from_mapping({"population": {"type": "oe_fmc", "size": 3}}))
        store = RunStore(db, run_id)
        texts = ["oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3", "oe_fmc_2_14:49:3:2:2:3:3:9:1:10:4",
                 "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:5"]
        store.start_generation(1, [Chromosome.parse(t) for t in texts], 1500.0)
        ids = {t: pid for pid, t in store.population(1)}
        a, b, c = (ids[t] for t in texts)
        members = [Member(a, 1900.0, 1, texts[0]), Member(b, 1400.0, 2, texts[1]), Member(c, 1400.0, 1, texts[2])]
        # b beats a twice; c beats a twice; b and c draw twice: b 3, c 3, a 0 points.
        games = [PlayedGame(b, a, 5), PlayedGame(a, b, -5), PlayedGame(c, a, 5), PlayedGame(a, c, -5),
                 PlayedGame(b, c, 0), PlayedGame(c, b, 0)]
        store.store_rating(1, rate_generation(members, games, start_rating=1500.0, k=16.0), 0)
        assert [p.text for p in store.ranked_by_score(1)] == [texts[2], texts[1], texts[0]]
        assert store.ranked(3, generation=1)[0].text == texts[0]  # still first by Elo
    finally:
        db.dispose()
