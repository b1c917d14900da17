"""What a finished game is worth to a player.

A game ends with a disc margin (winner takes the empty squares); ratings,
tournaments and the yardstick all count it the same way, so they share this
one function.
"""

from __future__ import annotations


def points_from_margin(margin: int) -> float:
    """Game points for the side whose final disc margin is ``margin``:
    1 for a win (margin > 0), 0.5 for a draw, 0 for a loss."""
    return 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)
