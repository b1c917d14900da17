"""The Othello League measure: the published WPC weights, the heuristic
player's evaluation and choices on hand-made positions, per-game seeding
that makes every game independent of the others, and sanity bounds."""

import pytest

from genethello.core.engine.board import Board
from genethello.core.engine.squares import parse_square
from genethello.core.families.chromosome import Chromosome
from genethello.core.play.league import (
    LEAGUE_EPSILON,
    LEAGUE_WPC_HUNDREDTHS,
    LEAGUE_WPC_WEIGHTS,
    PUBLISHED_LEAGUE_SCORES,
    LeagueScore,
    league_game,
    league_game_seed,
    league_opponent,
    league_player,
    league_schedule,
    league_score,
    wpc_hundredths,
)
from genethello.core.play.players import RandomPlayer

OE_FMC = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"


def bits(*names: str) -> int:
    return sum(1 << parse_square(n) for n in names)


# ------------------------------------------------------------------ weights

def test_weights_are_64_and_match_the_published_matrix_row_major():
    assert len(LEAGUE_WPC_WEIGHTS) == 64
    # First two rows of the source matrix, a1..h1 then a2..h2.
    assert LEAGUE_WPC_WEIGHTS[:8] == (1.00, -0.25, 0.10, 0.05, 0.05, 0.10, -0.25, 1.00)
    assert LEAGUE_WPC_WEIGHTS[8:16] == (-0.25, -0.25, 0.01, 0.01, 0.01, 0.01, -0.25, -0.25)
    assert LEAGUE_WPC_HUNDREDTHS == tuple(round(100 * w) for w in LEAGUE_WPC_WEIGHTS)
    assert all(abs(h / 100 - w) < 1e-12 for h, w in zip(LEAGUE_WPC_HUNDREDTHS, LEAGUE_WPC_WEIGHTS))
    # Corners, X-squares, C-squares, centre.
    for sq, w in (("a1", 100), ("h8", 100), ("b2", -25), ("g7", -25), ("b1", -25), ("a2", -25),
                  ("c3", 5), ("d4", 1), ("d3", 2), ("c1", 10)):
        assert LEAGUE_WPC_HUNDREDTHS[parse_square(sq)] == w
    assert sum(LEAGUE_WPC_HUNDREDTHS) == 4 * 100 + 12 * -25 + 8 * 10 + 8 * 5 + 4 * 5 + 8 * 2 + 4 * 1 + 16 * 1


SYMMETRIES = [
    lambda r, c: (r, c),
    lambda r, c: (r, 7 - c),
    lambda r, c: (7 - r, c),
    lambda r, c: (7 - r, 7 - c),
    lambda r, c: (c, r),
    lambda r, c: (c, 7 - r),
    lambda r, c: (7 - c, r),
    lambda r, c: (7 - c, 7 - r),
]


@pytest.mark.parametrize("k", range(8))
def test_weights_have_the_eight_symmetries_of_the_square(k):
    f = SYMMETRIES[k]
    for r in range(8):
        for c in range(8):
            r2, c2 = f(r, c)
            assert LEAGUE_WPC_WEIGHTS[r * 8 + c] == LEAGUE_WPC_WEIGHTS[r2 * 8 + c2]


def test_published_scores_are_probabilities_with_sources():
    assert PUBLISHED_LEAGUE_SCORES
    for player, score, source in PUBLISHED_LEAGUE_SCORES:
        assert player and source and 0.0 <= score <= 1.0


# --------------------------------------------------------------- evaluation

def test_wpc_value_of_a_hand_made_position():
    # Mine: a1 (100), b2 (-25), c3 (5), d3 (2) = 82.
    # Theirs: h8 (100), g1 (-25), d4 (1), e5 (1) = 77.  Value 82 - 77 = 5.
    mine = bits("a1", "b2", "c3", "d3")
    theirs = bits("h8", "g1", "d4", "e5")
    assert wpc_hundredths(mine, theirs) == 5
    assert wpc_hundredths(theirs, mine) == -5
    assert wpc_hundredths(bits("d4", "e5"), bits("d5", "e4")) == 0  # the start: four centre squares
    assert wpc_hundredths(0, 0) == 0


def test_heuristic_first_move_is_d3():
    # From the start every opening move adds a 0.02 square and flips one
    # 0.01 centre disc: Black then has 2 + 1 + 1 + 1 (four discs) against
    # White's one 0.01 disc, 4 hundredths for all four moves, so the tie
    # goes to the first square in a1..h8 order, d3.
    board = Board()
    player = league_opponent()
    values = {}
    for m in board.legal_moves():
        board.play(m)
        values[m] = wpc_hundredths(board.opponent, board.player)
        board.undo()
    assert set(values.values()) == {2 + 1 + 1 + 1 - 1}
    assert player.choose(board) == parse_square("d3")


def test_heuristic_prefers_the_corner_even_when_it_comes_later():
    # Black a3, f3; White b2, g2; Black to move. Legal: c1 (a3-b2-c1, flips
    # b2) and h1 (f3-g2-h1, flips g2).
    #   h1: mine h1 100 + g2 -25 + f3 5 + a3 10 = 90, theirs b2 -25 -> 115
    #   c1: mine c1 10 + b2 -25 + f3 5 + a3 10 = 0,  theirs g2 -25 -> 25
    # h1 (index 7) wins although c1 (index 2) comes first.
    board = Board.from_bitboards(bits("a3", "f3"), bits("b2", "g2"), "black")
    assert sorted(board.legal_moves()) == [parse_square("c1"), parse_square("h1")]
    values = {}
    for m in board.legal_moves():
        board.play(m)
        values[m] = wpc_hundredths(board.opponent, board.player)
        board.undo()
    assert values == {parse_square("h1"): 115, parse_square("c1"): 25}
    assert league_opponent().choose(board) == parse_square("h1")


def test_heuristic_breaks_exact_ties_by_the_first_square():
    # Black c3, f6; White b2, g7: a1 and h8 each take a corner and flip an
    # X-square, 100 - 25 + 5 + 5 = 85 against the other X-square's -25: 110
    # both; a1 comes first.
    board = Board.from_bitboards(bits("c3", "f6"), bits("b2", "g7"), "black")
    assert sorted(board.legal_moves()) == [parse_square("a1"), parse_square("h8")]
    for m in board.legal_moves():
        board.play(m)
        assert wpc_hundredths(board.opponent, board.player) == 110
        board.undo()
    assert league_opponent().choose(board) == parse_square("a1")


# ------------------------------------------------------------ determinism

def test_game_seeds_depend_on_seed_and_index_only():
    assert league_game_seed(7, 3) == league_game_seed(7, 3)
    seeds = {league_game_seed(7, i) for i in range(200)}
    assert len(seeds) == 200
    assert league_game_seed(7, 3) != league_game_seed(8, 3)
    assert all(0 <= s < 2 ** 63 for s in seeds)
    schedule = league_schedule(3, 7)
    assert [g.index for g in schedule] == list(range(6))
    assert [g.evolved_is_black for g in schedule] == [True, False] * 3
    assert [g.seed for g in schedule] == [league_game_seed(7, i) for i in range(6)]
    with pytest.raises(ValueError):
        league_schedule(-1, 0)


def test_a_games_result_does_not_depend_on_the_games_before_it():
    chromosome = Chromosome.parse(OE_FMC)
    schedule = league_schedule(4, 11)
    shared = league_player(chromosome)
    in_order = [league_game(shared, g.seed, g.evolved_is_black) for g in schedule]
    backwards = [league_game(shared, g.seed, g.evolved_is_black) for g in reversed(schedule)]
    assert backwards == in_order[::-1]
    g = schedule[5]
    alone = league_game(league_player(chromosome), g.seed, g.evolved_is_black)
    assert alone == in_order[5]
    # ε makes games differ: 8 games are not all the same margin.
    assert len(set(in_order)) > 1


def test_league_score_is_reproducible_and_splits_add_up():
    chromosome = Chromosome.parse(OE_FMC)
    a = league_score(chromosome, 5, seed=3)
    assert a == league_score(chromosome, 5, seed=3)
    assert a.games == 10
    player = league_player(chromosome)
    margins = [league_game(player, g.seed, g.evolved_is_black) for g in league_schedule(5, 3)]
    first, second = LeagueScore.from_margins(margins[:4]), LeagueScore.from_margins(margins[4:])
    assert first + second == a


def test_wpc_against_itself_at_epsilon_zero_is_deterministic():
    margins = {league_game(league_opponent(), seed, True, epsilon=0.0) for seed in (0, 1, 12345)}
    assert len(margins) == 1
    # Colour-swapped, the evolved seat now plays White: the same game, negated.
    (m,) = margins
    assert league_game(league_opponent(), 99, False, epsilon=0.0) == -m


# ------------------------------------------------------------------- scores

def test_league_score_counts():
    s = LeagueScore.from_margins([10, 0, -2, 64, -64])
    assert (s.wins, s.draws, s.losses, s.games) == (2, 1, 2, 5)
    assert s.score == pytest.approx(2.5 / 5)
    assert LeagueScore().score == 0.0


def test_chromosome_score_is_a_probability():
    s = league_score(Chromosome.parse(OE_FMC), 10, seed=1)
    assert s.games == 20
    assert 0.0 <= s.score <= 1.0


def test_heuristic_beats_a_random_player_clearly():
    # The random player sits in the evolved seat; ε changes nothing for it.
    schedule = league_schedule(50, 2024)
    s = LeagueScore.from_margins([league_game(RandomPlayer(), g.seed, g.evolved_is_black) for g in schedule])
    assert s.games == 100
    assert s.score < 0.35
    assert LEAGUE_EPSILON == 0.1
