"""Tournament time management: how long to think about one move.

``--time S`` means S seconds on each player's clock for the whole game
(GeneThello's setting is 60). A move's budget is a share of what is left,
spread over the moves this player still has to make, after keeping a reserve
for the overhead around each search, so that the clock never runs out.
"""

from __future__ import annotations

# Seconds kept back per remaining move for work outside the search (move
# generation in Python, protocol I/O, process scheduling on a busy machine).
OVERHEAD_PER_MOVE = 0.004
# Fraction of the clock never handed to the search.
RESERVE_FRACTION = 0.05


def moves_left(empties: int) -> int:
    """Moves the side to move still has to make, at most: it plays every
    other empty square (passes only make it fewer)."""
    return max(1, (empties + 1) // 2)


def move_budget(remaining: float, empties: int) -> float:
    """Seconds to search for this move.

    Args:
        remaining: seconds left on this player's clock.
        empties: empty squares on the board now.
    Returns:
        A positive budget (at least 1 ms) that leaves enough for the other
        moves: the usable time split evenly over the moves left, with a little
        more early (the midgame decides games; the last moves are solved fast).
    """
    left = moves_left(empties)
    usable = remaining * (1.0 - RESERVE_FRACTION) - OVERHEAD_PER_MOVE * left
    if usable <= 0:
        return 0.001
    share = usable / left
    if left > 10:
        share *= 1.5
    return max(0.001, min(share, usable / 2))
