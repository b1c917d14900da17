"""Square names, colour names and move-list text.

Squares are integers 0..63, ``row * 8 + column``, with a1 = 0 at the top left,
h1 = 7, a8 = 56 and h8 = 63 (standard Othello notation: columns a-h left to
right, rows 1-8 top to bottom). ``PASS`` (64) stands for a pass. A
:data:`Colour` is ``BLACK`` or ``WHITE``, the strings ``'black'`` and
``'white'``: ``Board.side_to_move``'s words, and the web API's.
"""

from __future__ import annotations

from typing import Literal

from genethello.core.frontend.errors import UserError

#: One side of the board, in the board's own words.
Colour = Literal["black", "white"]
BLACK: Colour = "black"
WHITE: Colour = "white"

PASS = 64
COLUMNS = "abcdefgh"
# The colour names the engine protocols accept (any case), to the canonical one.
COLORS: dict[str, Colour] = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}

# The classic hand-made square weights (corners good, X- and C-squares bad),
# a1..h8: the yardstick's positional player and a baseline predictor.
SQUARE_WEIGHTS = (
    100, -20, 10, 5, 5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, -1, -1, -1, -1, -2, 10,
    5, -2, -1, -1, -1, -1, -2, 5,
    5, -2, -1, -1, -1, -1, -2, 5,
    10, -2, -1, -1, -1, -1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10, 5, 5, 10, -20, 100,
)


class BadSquareError(UserError):
    """A square name that is not a1..h8 (or pass)."""


class BadColorError(UserError):
    """A colour name that is not b, black, w or white."""


def square_name(square: int) -> str:
    """'a1'..'h8' for 0..63, 'pass' for PASS."""
    if square == PASS:
        return "pass"
    if not 0 <= square < 64:
        raise BadSquareError(f"square index {square!r} is outside 0..63")
    return COLUMNS[square & 7] + str((square >> 3) + 1)


def opponent(colour: Colour) -> Colour:
    """The other colour: who moves after ``colour`` unless someone passes."""
    return WHITE if colour == BLACK else BLACK


def parse_color(text: str) -> Colour:
    """'black' or 'white' for b, black, w or white in any case.

    Raises:
        BadColorError: naming the text, if it is not a colour.
    """
    color = COLORS.get(text.lower())
    if color is None:
        raise BadColorError(f"{text!r} is not a colour (expected b, black, w or white)")
    return color


def parse_square(text: str) -> int:
    """Square index for a name like 'f5' or 'F5'; 'pass'/'PA'/'PS' give PASS.

    Raises:
        BadSquareError: naming the text, if it is not a square.
    """
    t = text.strip().lower()
    if t in ("pass", "pa", "ps", "--"):
        return PASS
    if len(t) == 2 and t[0] in COLUMNS and t[1] in "12345678":
        return COLUMNS.index(t[0]) + 8 * (int(t[1]) - 1)
    raise BadSquareError(f"{text!r} is not a square (expected a1..h8 or pass)")


def split_move_list(text: str) -> list[int]:
    """Squares of a move list such as 'f5d6C3' (either case, no separators
    needed; spaces, commas and dashes between moves are allowed).

    Raises:
        BadSquareError: naming the position in the text of the bad move.
    """
    squares: list[int] = []
    compact = "".join(ch for ch in text if ch not in " \t\r\n,-")
    if len(compact) % 2:
        raise BadSquareError(f"move list has an odd number of characters ({len(compact)}): {text!r}")
    for i in range(0, len(compact), 2):
        pair = compact[i:i + 2]
        try:
            sq = parse_square(pair)
        except BadSquareError:
            raise BadSquareError(f"move {i // 2 + 1} of the move list, {pair!r}, is not a square a1..h8") from None
        squares.append(sq)
    return squares


def join_move_list(squares: list[int]) -> str:
    """'f5d6c3...' for a list of squares, passes left out (they are implicit)."""
    return "".join(square_name(s) for s in squares if s != PASS)
