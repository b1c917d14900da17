"""The hall of fame's decisions: the entry schedule, anchored ratings with
hand-worked values, and a total order."""

from __future__ import annotations

import math

import pytest

from genethello.cluster.fitness.games import GameSettings
from genethello.cluster.fitness.pairing import opening_seed
from genethello.cluster.fitness.tournament_rating import ELO_PER_NAT, RatingEstimate, fit_bradley_terry
from genethello.cluster.measures.hall import (
    HallGameResult,
    entry_openings,
    entry_schedule,
    entry_specs,
    hall_order,
    hall_seed,
    hall_settings,
    rate_hall,
)
from genethello.core.engine.board import Board
from genethello.core.engine.game import random_opening
from genethello.core.play.openings import canonical_key


def test_an_entry_spreads_its_games_over_the_members_with_both_colours():
    schedule = entry_schedule(members=4, games_per_member=540)
    assert len(schedule) == 540
    per_member = [sum(p.opponent == m for p in schedule) for m in range(4)]
    assert per_member == [136, 136, 134, 134]          # 270 pairs: 68, 68, 67, 67
    assert [p.game_index for p in schedule] == list(range(540))
    for black, white in zip(schedule[::2], schedule[1::2]):
        assert (black.opponent, black.pair) == (white.opponent, white.pair)
        assert black.entrant_black and not white.entrant_black


def test_a_large_hall_still_gives_every_member_a_pair():
    schedule = entry_schedule(members=300, games_per_member=540)
    assert len(schedule) == 600
    assert {p.opponent for p in schedule} == set(range(300))


@pytest.mark.parametrize("members, games", [(0, 540), (3, 0)])
def test_an_empty_hall_or_no_games_plays_nothing(members, games):
    assert entry_schedule(members, games) == []


@pytest.mark.parametrize("members, games", [(2, 7), (-1, 10), (2, -2)])
def test_bad_schedules_are_refused(members, games):
    with pytest.raises(ValueError):
        entry_schedule(members, games)


def test_both_colours_of_a_pair_share_the_opening():
    schedule = entry_schedule(members=2, games_per_member=4)
    openings = {(0, 0): (19, 18), (1, 0): (37, 43)}
    specs = entry_specs(schedule, openings)     # the entrant is side 0, member k side 1 + k
    assert [(s.index, s.black, s.white, s.opening) for s in specs] == [
        (0, 0, 1, (19, 18)), (1, 1, 0, (19, 18)), (2, 0, 2, (37, 43)), (3, 2, 0, (37, 43))]


def test_each_members_series_is_drawn_from_the_set_without_replacement():
    # 270 pairs against the first member (the hall's default 540 games): no
    # position, nor a mirror image of one, twice.
    hall = hall_settings(GameSettings(11, 4, 8, 4))
    schedule = entry_schedule(members=2, games_per_member=540)
    openings = entry_openings(hall, "distinct-6", 5, schedule)
    assert len(openings) == 270 and all(len(moves) == 6 for moves in openings.values())
    for member, pairs in ((0, 135), (1, 135)):
        keys = {canonical_key(Board.from_moves(list(openings[member, p]))) for p in range(pairs)}
        assert len(keys) == pairs
    # The same series again for the same seed, generation and member; another generation draws another.
    assert entry_openings(hall, "distinct-6", 5, schedule) == openings
    assert entry_openings(hall, "distinct-6", 6, schedule)[0, 0] != openings[0, 0]


def test_runs_made_before_draw_each_pairs_opening_with_replacement_as_they_did():
    hall = hall_settings(GameSettings(11, 4, 8, 4))
    openings = entry_openings(hall, "random", 5, entry_schedule(members=1, games_per_member=4))
    assert openings == {(0, p): tuple(random_opening(4, opening_seed(hall.seed, 5, 0, p))) for p in (0, 1)}


def test_hall_openings_differ_from_the_round_robins_and_depend_on_the_seed_only():
    settings = GameSettings(11, 4, 8, 4)
    hall = hall_settings(settings)
    assert hall.seed == hall_seed(11) != 11
    assert (hall.depth, hall.exact_empties, hall.random_plies) == (4, 8, 4)
    assert hall_seed(11) == hall_seed(11) != hall_seed(12)


def test_a_lone_member_is_the_anchor():
    assert rate_hall([5], []) == {5: RatingEstimate(0.0, 0.0, 0, 0.0)}


def test_ratings_are_relative_to_the_first_member_with_hand_worked_values():
    # B (entered second) scores 300 of 400 against A: the gap is
    # 400·log10(3) Elo; the error of B − A is that of the gap, twice the
    # centred error: ELO_PER_NAT / sqrt(n·p·q) (prior negligible at n = 400).
    games = ([HallGameResult(2, 1, 10)] * 150 + [HallGameResult(1, 2, -10)] * 150
             + [HallGameResult(2, 1, -4)] * 50 + [HallGameResult(1, 2, 4)] * 50)
    fit = rate_hall([1, 2], games)
    assert fit[1].rating == 0.0 and fit[1].stderr == 0.0
    assert fit[2].rating == pytest.approx(400 * math.log10(3), rel=2e-3)
    assert fit[2].stderr == pytest.approx(ELO_PER_NAT / math.sqrt(400 * 0.75 * 0.25), rel=2e-3)
    assert fit[2].games == 400 and fit[2].score == 300.0


def test_anchored_and_centred_fits_agree_on_differences():
    games = [("a", "b", 1.0), ("b", "c", 0.5), ("c", "a", 0.0), ("a", "c", 1.0), ("b", "a", 0.0)] * 20
    centred = fit_bradley_terry(["a", "b", "c"], games)
    anchored = fit_bradley_terry(["a", "b", "c"], games, anchor="b")
    for p in "abc":
        assert anchored[p].rating == pytest.approx(centred[p].rating - centred["b"].rating, abs=1e-9)
    assert anchored["b"].stderr == 0.0 and anchored["a"].stderr > 0


def test_anchor_must_be_a_player():
    with pytest.raises(ValueError, match="anchor"):
        fit_bradley_terry(["a"], [], anchor="z")


def test_hall_order_breaks_ties_by_entry_then_text():
    r = lambda x: RatingEstimate(x, 1.0, 2, 1.0)
    ratings = {10: r(5.0), 11: r(5.0), 12: r(7.0), 13: r(5.0)}
    entered = {10: 3, 11: 2, 12: 4, 13: 2}
    texts = {10: "c", 11: "b", 12: "x", 13: "a"}
    assert hall_order(ratings, entered, texts) == [12, 13, 11, 10]
