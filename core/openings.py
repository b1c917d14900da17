"""Openings for a match: distinct random positions, so that its games are
not the same game played again.

At a fixed depth the engine is deterministic: two games from the same
position with the same colours are one game counted twice, and an interval
computed as if they were independent claims more than the games show. A
match therefore plays each of its openings once with each colour, and its
openings are drawn so that no two reach the same position.
"""

from __future__ import annotations

from genethello.core.board import Board
from genethello.core.game import random_opening

ATTEMPTS_PER_OPENING = 50
"""Random draws allowed per opening wanted before giving up: with few
positions at a ply count (1 at 0 plies, 4 at 1, 12 at 2, 56 at 3), draws
beyond the positions there are only repeat themselves."""


class TooFewOpeningsError(ValueError):
    """More distinct openings were asked for than a ply count offers."""


def distinct_openings(count: int, plies: int, seed: int | str) -> list[list[int]]:
    """``count`` random openings of ``plies`` plies (squares, passes as
    :data:`~genethello.core.squares.PASS`), no two leading to the same
    position. Opening *i* is the first new position among the draws seeded
    ``{seed}/{i}``, ``{seed}/{i}/1``, ..., so the list is a pure function of
    its arguments and its first openings do not depend on ``count``.

    Raises:
        TooFewOpeningsError: if ``count`` distinct positions were not found
            (``plies`` too small for ``count``).
    """
    seen: set[Board] = set()
    openings: list[list[int]] = []
    for i in range(count):
        for attempt in range(ATTEMPTS_PER_OPENING):
            moves = random_opening(plies, f"{seed}/{i}" if attempt == 0 else f"{seed}/{i}/{attempt}")
            board = Board.from_moves(moves)
            if board not in seen:
                seen.add(board)
                openings.append(moves)
                break
        else:
            raise TooFewOpeningsError(
                f"{count} distinct openings of {plies} random plies were asked for, but only {len(openings)} "
                f"were found; use more random plies or fewer games")
    return openings
