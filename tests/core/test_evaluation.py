"""The evaluation: the seven features on hand-checked positions, the weighted
score per game phase, and the constructor's validation.

Features are measured right after a move, from the mover's point of view:
flips, discs (mover - other), mobility (the other side's legal moves),
xsquares (mover - other, counting only X-squares whose corner is empty),
corners (mover - other), pattern (the shared learned table's value, checked
against patterns.scores, whose indices tests/core/test_patterns.py checks) and parity (even minus
odd 8-connected empty regions).
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import PASS, Board, parse_square
from genethello.core.evaluation.evaluation import EVAL_LIMIT, EVAL_WIN, Evaluator
from genethello.core.evaluation.pattern_table import shared_table
from genethello.core.evaluation.patterns import scores
from genethello.core.families.chromosome import Chromosome
from tests.strategies import positions

FEATURE_ORDER = ("flips", "discs", "mobility", "xsquares", "corners", "pattern", "parity")   # "fdmxcpr"

# Boards written row by row (row 1 first), then the side to move.
# P1: black b2 (a1 empty: exposed), white b7 with white a8 (corner taken: not
# exposed), the start square; black plays f5 flipping e5.
P1 = ("--------" "-X------" "--------" "---OX---" "---XO---" "--------" "-O------" "O-------" " X")
# P2: as P1 but b2 empty and a white g2 (h1 empty: exposed).
P2 = ("--------" "------O-" "--------" "---OX---" "---XO---" "--------" "-O------" "O-------" " X")
# P3: black takes a1 flipping b1; white b2 stops counting (its corner is now
# taken), white g7 still counts (h8 empty).
P3 = ("-OX-----" "-O------" "--------" "---OX---" "---XO---" "--------" "------O-" "--------" " X")
# P4: nearly full; black d1 flips d2. Empties afterwards: {a1} odd, {g1,h1},
# {g7,h7,g8,h8} and the diagonal pair {e4,d5} even (8-connected) -> 3 - 1 = 2.
P4 = ("-XX-XX--" "OXXOXXXX" "XXXXXXXX" "XXXX-XXX" "XXX-XXXX" "XXXXXXXX" "XXXXXX--" "XXXXXX--" " X")
# P5: black d4 flips one white disc in each of the eight directions.
P5 = ("--------" "-X-X-X--" "--OOO---" "-XO-OX--" "--OOO---" "-X-X-X--" "--------" "--------" " X")

HAND_CHECKED = {
    # name: (position, move, {feature: value}, move number after the move)
    # P1 after f5: black b2 d5 e4 e5 f5 (5), white d4 b7 a8 (3); white may
    # answer d6, f4, f6; exposed X-squares b2 (black) only; white owns a8;
    # 56 empties in one region.
    "p1": (P1, "f5", dict(flips=1, discs=2, mobility=3, xsquares=1, corners=-1, parity=1), 4),
    # P2 after f5: 4 discs each; exposed g2 is white's.
    "p2": (P2, "f5", dict(flips=1, discs=0, mobility=3, xsquares=-1, corners=-1, parity=1), 4),
    # P3 after a1: black a1 b1 c1 e4 d5 (5), white b2 d4 e5 g7 (4); white has
    # e3, f4, c5, d6; 55 empties in one region.
    "p3": (P3, "a1", dict(flips=1, discs=1, mobility=4, xsquares=-1, corners=1, parity=-1), 5),
    # P4 after d1: black 54, white a2 only, whose one move is d5 (over c4, b3);
    # black owns a8 and the exposed b2 and g2.
    "p4": (P4, "d1", dict(flips=1, discs=53, mobility=1, xsquares=2, corners=1, parity=2), 51),
    # P5 after d4: black 17, white none (so no moves); black b2 exposed;
    # 47 empties in one region.
    "p5": (P5, "d4", dict(flips=8, discs=17, mobility=0, xsquares=1, corners=0, parity=-1), 13),
}


def pattern_value(board: Board, move: int) -> int:
    """The pattern feature of playing ``move``: the shared table's score for
    the mover, in whole discs (table units of 1/32 disc)."""
    after = board.copy()
    after.play(move)
    mover, other = after.opponent, after.player
    return int(scores(shared_table().array, [mover], [other], [after.move_number])[0]) >> 5


def swap_colours(obf: str) -> str:
    """The same position with the colours (and the side to move) exchanged."""
    return obf.translate(str.maketrans("XO", "OX"))


def flat(weights_by_letter: str) -> tuple[int, ...]:
    """'f=2 d=3' -> 7 weights in fdmxcpr order, others 0."""
    values = dict(item.split("=") for item in weights_by_letter.split())
    return tuple(int(values.get(letter, 0)) for letter in "fdmxcpr")


def formula(features: dict, w: tuple[int, ...]) -> int:
    wf, wd, wm, wx, wc, wp, wr = w
    score = (wf * features["flips"] + wd * features["discs"] - wm * features["mobility"]
             + wc * features["corners"] - wx * features["xsquares"] + wr * features["parity"]
             + wp * features["pattern"])
    return max(-EVAL_LIMIT, min(EVAL_LIMIT, score))


def phase_of(move_number: int, o: int, e: int) -> int:
    return 0 if move_number <= o else (1 if move_number <= e else 2)


# -------------------------------------------------------------- features
@pytest.mark.parametrize("name", sorted(HAND_CHECKED))
@pytest.mark.parametrize("colours", ["as drawn", "swapped"])
def test_hand_checked_features(name, colours):
    obf, move, expected, move_number = HAND_CHECKED[name]
    board = Board.from_obf(obf if colours == "as drawn" else swap_colours(obf))
    sq = parse_square(move)
    assert board.is_legal(sq)
    features = Evaluator().features(board, sq)
    assert features == {**expected, "pattern": pattern_value(board, sq)}
    assert tuple(features) == FEATURE_ORDER
    after = board.copy()
    after.play(sq)
    assert after.move_number == move_number


def test_hand_checked_features_do_not_depend_on_the_weights():
    board = Board.from_obf(P4)
    other = Evaluator((3, 9), [(1, 2, 3, 4, 5, 6, 7)] * 3)
    assert other.features(board, parse_square("d1")) == Evaluator().features(board, parse_square("d1"))


def test_xsquares_only_count_when_the_corner_is_empty():
    # Black to move c4 flipping d4 (start position); add a black b2 and a white g7.
    base = ("--------" "-X------" "--------" "---OX---" "---XO---" "--------" "------O-" "--------" " X")
    c4 = parse_square("c4")
    assert Evaluator().features(Board.from_obf(base), c4)["xsquares"] == 1 - 1
    # A white disc on a1 takes b2 out of the count (a1 is not flankable by c4).
    a1_taken = "O" + base[1:]
    assert Evaluator().features(Board.from_obf(a1_taken), c4)["xsquares"] == 0 - 1
    # A black disc on h8 takes g7 out of the count.
    h8_taken = base[:63] + "X" + base[64:]
    assert Evaluator().features(Board.from_obf(h8_taken), c4)["xsquares"] == 1 - 0


def test_parity_counts_8_connected_regions():
    # Start position, black f5: one region of 59 empties -> odd.
    assert Evaluator().features(Board(), parse_square("f5"))["parity"] == -1
    # P4: the diagonal pair {e4, d5} is one even region (two odd ones if the
    # regions were 4-connected, which would give 2 - 3 = -1).
    assert Evaluator().features(Board.from_obf(P4), parse_square("d1"))["parity"] == 2


def test_illegal_moves_are_rejected():
    ev = Evaluator()
    board = Board()
    for bad in (parse_square("a1"), parse_square("d4"), -1, 64, PASS, 100):
        with pytest.raises(ValueError):
            ev.features(board, bad)
        with pytest.raises(ValueError):
            ev.evaluate_move(board, bad)


# --------------------------------------------------------- weighted score
def test_hand_computed_score():
    board = Board.from_obf(P1)
    f5 = parse_square("f5")
    # f=1 d=2 m=3 x=1 c=-1 p=0 r=1 (p: the patterns-v1 table's value, 0 here):
    # 2*1 + 3*2 - 5*3 + 11*(-1) - 7*1 + 17*1 + 13*0 = -8
    weights = (2, 3, 5, 7, 11, 13, 17)        # wf wd wm wx wc wp wr
    assert Evaluator((60, 60), [weights] * 3, patterns="v1").evaluate_move(board, f5) == -8
    # P4 d1: f=1 d=53 m=1 x=2 c=1 r=2 -> 1 + 53 - 1 + 1 - 2 + 2 = 54, plus the pattern
    p4 = Board.from_obf(P4)
    d1 = parse_square("d1")
    assert Evaluator((60, 60), [(1,) * 7] * 3).evaluate_move(p4, d1) == 54 + pattern_value(p4, d1)


@pytest.mark.parametrize("letter, weight, expected", [
    ("f", 7, 7 * 1), ("d", 7, 7 * 2), ("m", 7, -7 * 3), ("x", 7, -7 * 1),
    ("c", 7, 7 * -1), ("p", 7, 0), ("r", 7, 7 * 1),
])
def test_each_weight_alone(letter, weight, expected):
    # P1 f5: f=1 d=2 m=3 x=1 c=-1 p=0 (patterns-v1) r=1; mobility and xsquares count against the mover.
    w = flat(f"{letter}={weight}")
    assert Evaluator((60, 60), [w] * 3, patterns="v1").evaluate_move(Board.from_obf(P1), parse_square("f5")) == expected


OPENING, MIDGAME, ENDGAME = flat("f=1"), flat("d=1"), flat("m=1")   # P1 f5: 1, 2, -3


@pytest.mark.parametrize("bounds, expected", [
    ((4, 4), 1), ((4, 60), 1), ((60, 60), 1),      # move 4 <= o: opening
    ((3, 4), 2), ((0, 60), 2), ((3, 59), 2),       # o < 4 <= e: midgame
    ((3, 3), -3), ((0, 0), -3), ((0, 3), -3),      # 4 > e: endgame
])
def test_phase_of_the_move_after_it_is_played(bounds, expected):
    # P1 has 7 discs; after f5 there are 8: move number 4.
    ev = Evaluator(bounds, [OPENING, MIDGAME, ENDGAME])
    assert ev.evaluate_move(Board.from_obf(P1), parse_square("f5")) == expected


@pytest.mark.parametrize("o, e, expected", [
    (20, 51, 53),    # move 51 <= e: midgame weights (d=1 -> 53)
    (20, 50, -1),    # move 51 > e: endgame weights (m=1 -> -1)
])
def test_phase_of_an_oe_chromosome(o, e, expected):
    # oe_fdm: opening f, midgame d, endgame m. P4 d1 is move 51.
    chrom = Chromosome.parse(f"oe_fdm_0_{o}:{e}:1:0:0:0:1:0:0:0:1")
    ev = Evaluator.from_chromosome(chrom)
    assert ev.phase_bounds == (o, e) and ev.chromosome == chrom
    assert ev.weights == ((1, 0, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0, 0))
    assert ev.evaluate_move(Board.from_obf(P4), parse_square("d1")) == expected
    # P1 f5 is move 4: opening for o >= 4, midgame for o = 3.
    assert Evaluator.from_chromosome(Chromosome.parse("oe_fdm_0_4:41:1:0:0:0:1:0:0:0:1")).evaluate_move(
        Board.from_obf(P1), parse_square("f5")) == 1
    assert Evaluator.from_chromosome(Chromosome.parse("oe_fdm_0_3:41:1:0:0:0:1:0:0:0:1")).evaluate_move(
        Board.from_obf(P1), parse_square("f5")) == 2


def test_chromosome_weights_and_unphased_bounds():
    ev = Evaluator.from_chromosome(Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"))
    assert ev.phase_bounds == (14, 49)
    assert ev.weights == ((3, 0, 2, 0, 2, 0, 0), (3, 0, 3, 0, 9, 0, 0), (1, 0, 10, 0, 3, 0, 0))
    plain = Evaluator.from_chromosome(Chromosome.parse("fdmxcp_3_1:2:3:4:5:6"))
    assert plain.phase_bounds == (60, 60)
    assert plain.weights == ((1, 2, 3, 4, 5, 6, 0),) * 3


def test_default_evaluator_counts_discs():
    ev = Evaluator()
    assert ev.phase_bounds == (60, 60) and ev.weights == ((0, 1, 0, 0, 0, 0, 0),) * 3
    assert ev.chromosome is None
    assert ev.evaluate_move(Board(), parse_square("f5")) == 3


def test_the_value_scale_is_exported_once():
    """The protocols read the scale from the evaluation module; a decided game
    (EVAL_WIN per disc of its margin) must outrank every evaluation."""
    assert (EVAL_LIMIT, EVAL_WIN) == (4000, 4096)
    assert EVAL_WIN > EVAL_LIMIT


def test_score_is_clamped():
    p4, d1 = Board.from_obf(P4), parse_square("d1")
    assert Evaluator((60, 60), [flat("d=100")] * 3).evaluate_move(p4, d1) == EVAL_LIMIT        # 5300
    assert Evaluator((60, 60), [flat("x=3000")] * 3).evaluate_move(p4, d1) == -EVAL_LIMIT      # -6000
    assert Evaluator((60, 60), [flat("d=75")] * 3).evaluate_move(p4, d1) == 3975


# ----------------------------------------------- random positions (formula)
@st.composite
def position_and_move(draw):
    board = draw(positions(0, 58))
    moves = board.legal_moves()
    if not moves:
        return board, None
    return board, moves[draw(st.integers(0, len(moves) - 1))]


def reference_features(board: Board, move: int) -> dict:
    """The features in plain Python (the board's own rules for flips/moves)."""
    flipped = bin(board.flips(move)).count("1")
    after = board.copy()
    after.play(move)
    mover, other = after.opponent, after.player
    occupied = mover | other
    empty = [sq for sq in range(64) if not occupied >> sq & 1]
    corners_x = {0: 9, 7: 14, 56: 49, 63: 54}
    exposed = [x for corner, x in corners_x.items() if not occupied >> corner & 1]
    seen, balance = set(), 0
    for start in empty:
        if start in seen:
            continue
        stack, size = [start], 0
        seen.add(start)
        while stack:
            sq = stack.pop()
            size += 1
            r, c = divmod(sq, 8)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    n = rr * 8 + cc
                    if 0 <= rr < 8 and 0 <= cc < 8 and n not in seen and not occupied >> n & 1:
                        seen.add(n)
                        stack.append(n)
        balance += 1 if size % 2 == 0 else -1
    return {
        "flips": flipped,
        "discs": bin(mover).count("1") - bin(other).count("1"),
        "mobility": len(after.legal_moves()),
        "xsquares": sum(mover >> x & 1 for x in exposed) - sum(other >> x & 1 for x in exposed),
        "corners": sum(mover >> c & 1 for c in corners_x) - sum(other >> c & 1 for c in corners_x),
        "pattern": pattern_value(board, move),
        "parity": balance,
    }


@settings(derandomize=True, max_examples=200, deadline=None)
@given(case=position_and_move(),
       bounds=st.tuples(st.integers(0, 60), st.integers(0, 60)).map(sorted),
       weights=st.lists(st.lists(st.integers(0, 10), min_size=7, max_size=7), min_size=3, max_size=3))
def test_score_is_the_weighted_sum_for_the_phase(case, bounds, weights):
    board, move = case
    if move is None:
        return
    o, e = bounds
    ev = Evaluator((o, e), weights)
    features = ev.features(board, move)
    assert features == reference_features(board, move), board.to_obf()
    move_number = board.move_number + 1
    assert ev.evaluate_move(board, move) == formula(features, tuple(weights[phase_of(move_number, o, e)]))
    # Colour-blind: the same position with the colours swapped scores the same.
    swapped = Board.from_obf(swap_colours(board.to_obf()))
    assert ev.features(swapped, move) == features
    assert ev.evaluate_move(swapped, move) == ev.evaluate_move(board, move)


# -------------------------------------------------------------- validation
@pytest.mark.parametrize("bounds", [(5, 4), (-1, 10), (0, 61), (61, 61), (60, 0)])
def test_bad_phase_bounds(bounds):
    with pytest.raises(ValueError, match="phase bounds"):
        Evaluator(bounds, [(0,) * 7] * 3)


@pytest.mark.parametrize("bounds", [(1,), (1, 2, 3), ("a", 5)])
def test_malformed_phase_bounds(bounds):
    with pytest.raises(ValueError):
        Evaluator(bounds, [(0,) * 7] * 3)


@pytest.mark.parametrize("weights", [
    [(0,) * 7] * 2, [(0,) * 7] * 4, [(0,) * 7, (0,) * 7, (0,) * 6], [(0,) * 8] * 3, [],
])
def test_bad_weight_shapes(weights):
    with pytest.raises(ValueError, match="3 phases x 7 features"):
        Evaluator((10, 50), weights)


def test_non_integer_weights():
    with pytest.raises(ValueError):
        Evaluator((10, 50), [("a",) * 7] * 3)


def test_bounds_at_the_limits_are_fine():
    for bounds in [(0, 0), (0, 60), (60, 60), (30, 30)]:
        assert Evaluator(bounds, [(0,) * 7] * 3).phase_bounds == bounds


def test_pickle_and_repr():
    chrom = Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3")
    for ev in (Evaluator.from_chromosome(chrom), Evaluator((3, 44), [(1, 2, 3, 4, 5, 6, 7)] * 3)):
        back = pickle.loads(pickle.dumps(ev))
        assert (back.phase_bounds, back.weights, back.chromosome) == (ev.phase_bounds, ev.weights, ev.chromosome)
        assert repr(back) == repr(ev)
        board = Board.from_obf(P3)
        assert back.evaluate_move(board, parse_square("a1")) == ev.evaluate_move(board, parse_square("a1"))
    assert repr(Evaluator.from_chromosome(chrom)) == f"Evaluator.from_chromosome({str(chrom)!r})"
