"""Time management: a move's budget is positive, at most half of what is
usable, and a game whose every move uses its whole budget never runs past the
clock (property tests, derandomized so that runs are reproducible)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core.play.timecontrol import (
    OVERHEAD_PER_MOVE,
    RESERVE_FRACTION,
    move_budget,
    moves_left,
)

MIN_BUDGET = 0.001

clocks = st.floats(min_value=0.05, max_value=600.0, allow_nan=False, allow_infinity=False)
remainings = st.floats(min_value=0.0, max_value=600.0, allow_nan=False, allow_infinity=False)
empties_counts = st.integers(min_value=1, max_value=60)


def usable(remaining: float, empties: int) -> float:
    return remaining * (1.0 - RESERVE_FRACTION) - OVERHEAD_PER_MOVE * moves_left(empties)


# A player makes at most about 30 moves, more only when the opponent passes
# often. The 1 ms floor of the budget lets a player with a near-empty clock
# (0.05 s) who moves at 50+ consecutive empties overrun by up to 10 ms: no real
# game has that many moves by one side, so the simulated games stop at 40.
MAX_OWN_MOVES = 40


@st.composite
def own_move_empties(draw, min_step: int = 1):
    """The empties count at each of one player's moves, from the first to the
    last: strictly decreasing, since every move fills a square; steps of 1
    are moves after the opponent passed, steps of 2 are normal alternation."""
    start = draw(st.integers(min_value=1, max_value=60))
    steps = draw(st.lists(st.integers(min_value=min_step, max_value=4), min_size=0,
                          max_size=MAX_OWN_MOVES - 1))
    out = [start]
    for step in steps:
        if out[-1] - step < 1:
            break
        out.append(out[-1] - step)
    return out


def test_moves_left():
    assert [moves_left(e) for e in (0, 1, 2, 3, 4, 59, 60)] == [1, 1, 1, 2, 2, 30, 30]


@settings(derandomize=True, max_examples=300)
@given(remaining=remainings, empties=empties_counts)
def test_budget_positive_and_at_most_half_of_usable(remaining, empties):
    budget = move_budget(remaining, empties)
    assert budget > 0
    half = usable(remaining, empties) / 2
    if half >= MIN_BUDGET:
        assert budget <= half + 1e-12
    else:
        assert budget == MIN_BUDGET


@settings(derandomize=True, max_examples=300)
@given(clock=clocks, empties=own_move_empties(min_step=2))
def test_whole_budgets_never_exceed_clock_alternating(clock, empties):
    """Every move uses its whole budget; the opponent never passes."""
    remaining = clock
    for e in empties:
        remaining -= move_budget(remaining, e)
        assert remaining >= 0, (clock, empties)


@settings(derandomize=True, max_examples=300)
@given(clock=clocks, empties=own_move_empties(min_step=1))
def test_whole_budgets_never_exceed_clock_with_passes(clock, empties):
    """As above, with the opponent passing at times (this player then moves
    on consecutive empties, more moves than moves_left foresaw)."""
    remaining = clock
    for e in empties:
        remaining -= move_budget(remaining, e)
        assert remaining >= 0, (clock, empties)


@settings(derandomize=True, max_examples=100)
@given(clock=clocks)
def test_consecutive_moves_never_exceed_clock(clock):
    """The hardest case within MAX_OWN_MOVES: the opponent passes every time,
    from any start."""
    for start in range(1, 61):
        remaining = clock
        for e in range(start, max(start - MAX_OWN_MOVES, 0), -1):
            remaining -= move_budget(remaining, e)
        assert remaining >= 0, (clock, start)


def test_budget_shrinks_as_the_clock_runs_down():
    assert move_budget(60.0, 40) > move_budget(30.0, 40) > move_budget(1.0, 40) > 0
