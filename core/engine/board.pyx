"""The Othello board: exact rules on bitboards, with a small Python face.

Rules: Black moves first from d5/e4 (black) and d4/e5 (white). A move must
flip at least one disc; a side with no legal move passes; the game ends when
neither side can move. The final score gives the empty squares to the winner
(the WOF rule).
"""

from libc.stdint cimport uint64_t
from genethello.core.engine.bitboard cimport (
    PASS, legal_moves, flips, popcount, square_bit, gt_lowest_square,
    START_BLACK as BITBOARD_START_BLACK, START_WHITE as BITBOARD_START_WHITE,
)
from genethello.core.engine.move cimport Child, make_move

from genethello.core.engine.squares import (
    BadSquareError, parse_square, square_name, split_move_list,
)
from genethello.core.frontend.errors import UserError

#: The standard start as Python ints (defined once, in bitboard.pxd).
START_BLACK = BITBOARD_START_BLACK   # d5, e4
START_WHITE = BITBOARD_START_WHITE   # d4, e5
COLOR_NAMES = ("black", "white")


class IllegalMoveError(UserError):
    """A move that the rules do not allow in the given position."""


class BadPositionError(UserError):
    """Position text (OBF, move list) that does not describe a position."""


cdef inline tuple _position_tuple(Position p):
    return (p.player, p.opponent, p.side)


cdef class Board:
    """An Othello position with its move history.

    The board is mutable (``play``/``undo``); ``copy()`` gives an independent
    one. Equality and hashing look at the position and the side to move only,
    not at the history; pickling keeps the position only.
    """

    def __cinit__(self):
        self._undo = []
        self._moves = []

    def __init__(self):
        self.pos.player = START_BLACK
        self.pos.opponent = START_WHITE
        self.pos.side = BLACK

    cdef Position c_position(self) noexcept:
        return self.pos

    # ----------------------------------------------------------- constructors
    @classmethod
    def from_bitboards(cls, black: int, white: int, side_to_move: str = "black"):
        """A position from two bitboards (bit ``row*8+col``) and the side to move.

        Raises:
            BadPositionError: if the boards overlap, are out of range, or the
                side is neither 'black' nor 'white'.
        """
        if side_to_move not in COLOR_NAMES:
            raise BadPositionError(f"side to move must be 'black' or 'white', not {side_to_move!r}")
        if not (0 <= black < 2 ** 64 and 0 <= white < 2 ** 64):
            raise BadPositionError("bitboards must be 64-bit unsigned integers")
        if black & white:
            raise BadPositionError(f"black and white discs overlap on {bin(black & white).count('1')} squares")
        cdef Board b = cls.__new__(cls)
        if side_to_move == "black":
            b.pos.player, b.pos.opponent, b.pos.side = black, white, BLACK
        else:
            b.pos.player, b.pos.opponent, b.pos.side = white, black, WHITE
        return b

    @classmethod
    def from_obf(cls, text: str):
        """A position from OBF text: 64 characters a1..h8 (``X`` black, ``O``
        white, ``-`` empty), a space and the side to move (``X``/``O``);
        anything after a ``;`` is ignored.

        Raises:
            BadPositionError: naming the offending character or field.
        """
        line = text.strip()
        if len(line) < 66:
            raise BadPositionError(f"OBF line too short ({len(line)} characters, need 64 squares, a space and a side): "
                                   f"{text!r}")
        black = white = 0
        for i, ch in enumerate(line[:64]):
            if ch in "Xx*":
                black |= 1 << i
            elif ch in "Oo":
                white |= 1 << i
            elif ch not in "-.":
                raise BadPositionError(f"OBF character {i + 1} is {ch!r}; expected X, O or -")
        if line[64] not in " \t":
            raise BadPositionError(f"OBF character 65 must be a space, found {line[64]!r}")
        side = line[65:].split(";")[0].strip().upper()
        if side not in ("X", "O"):
            raise BadPositionError(f"OBF side to move must be X or O, found {side!r}")
        return cls.from_bitboards(black, white, "black" if side == "X" else "white")

    @classmethod
    def from_moves(cls, moves):
        """The position after a move list from the start (``'f5d6c3'`` or a
        list of squares; passes implicit or explicit).

        Raises:
            IllegalMoveError: naming the move number and the move.
            BadSquareError: for text that is not a square.
        """
        squares = split_move_list(moves) if isinstance(moves, str) else list(moves)
        cdef Board b = cls()
        for number, sq in enumerate(squares, start=1):
            if sq == PASS:
                b.play(PASS)
                continue
            if b.must_pass():
                b.play(PASS)
            if not b._is_legal(sq):
                raise IllegalMoveError(
                    f"move {number} ({square_name(sq)}) is illegal for {b.side_to_move} "
                    f"after {b.move_list()!r}")
            b.play(sq)
        return b

    # ------------------------------------------------------------- accessors
    @property
    def black(self) -> int:
        """Black's discs as a bitboard."""
        return self.pos.player if self.pos.side == BLACK else self.pos.opponent

    @property
    def white(self) -> int:
        """White's discs as a bitboard."""
        return self.pos.opponent if self.pos.side == BLACK else self.pos.player

    @property
    def player(self) -> int:
        """Discs of the side to move."""
        return self.pos.player

    @property
    def opponent(self) -> int:
        """Discs of the side not to move."""
        return self.pos.opponent

    @property
    def side_to_move(self) -> str:
        """'black' or 'white'."""
        return COLOR_NAMES[self.pos.side]

    @property
    def move_number(self) -> int:
        """Discs on the board minus 4 (passes do not count)."""
        return popcount(self.pos.player | self.pos.opponent) - 4

    @property
    def empties(self) -> int:
        """Number of empty squares."""
        return 64 - popcount(self.pos.player | self.pos.opponent)

    def disc_count(self) -> tuple:
        """(black discs, white discs)."""
        return popcount(self.black), popcount(self.white)

    def legal_mask(self) -> int:
        """Legal moves of the side to move as a bitboard."""
        return legal_moves(self.pos.player, self.pos.opponent)

    def legal_moves(self) -> list:
        """Legal squares of the side to move, ascending; [] when it must pass
        or the game is over."""
        cdef uint64_t m = legal_moves(self.pos.player, self.pos.opponent)
        out = []
        while m:
            out.append(gt_lowest_square(m))
            m &= m - 1
        return out

    cdef bint _is_legal(self, int sq):
        if sq == PASS:
            return self.must_pass()
        return 0 <= sq < 64 and (legal_moves(self.pos.player, self.pos.opponent) & square_bit(sq)) != 0

    def is_legal(self, move) -> bool:
        """Whether ``move`` (square index or name, or PASS) is legal now."""
        try:
            sq = parse_square(move) if isinstance(move, str) else int(move)
        except BadSquareError:
            return False
        return self._is_legal(sq)

    def must_pass(self) -> bool:
        """True when the side to move has no move but the opponent has."""
        return (legal_moves(self.pos.player, self.pos.opponent) == 0
                and legal_moves(self.pos.opponent, self.pos.player) != 0)

    def is_game_over(self) -> bool:
        """True when neither side can move."""
        return (legal_moves(self.pos.player, self.pos.opponent) == 0
                and legal_moves(self.pos.opponent, self.pos.player) == 0)

    def final_score(self) -> int:
        """Black's discs minus White's, empties to the side ahead (WOF rule).
        Meaningful at the end of a game; on a running game it is the score if
        the game stopped now."""
        b, w = self.disc_count()
        empties = 64 - b - w
        if b > w:
            return b - w + empties
        if w > b:
            return b - w - empties
        return 0

    def flips(self, move) -> int:
        """Bitboard of the discs that ``move`` would flip (0 if illegal)."""
        sq = parse_square(move) if isinstance(move, str) else int(move)
        if not 0 <= sq < 64 or (self.pos.player | self.pos.opponent) & square_bit(sq):
            return 0
        return flips(self.pos.player, self.pos.opponent, sq)

    def move_list(self) -> str:
        """The moves played on this board since it was set up ('f5d6...',
        passes left out)."""
        return "".join(square_name(s) for s in self._moves if s != PASS)

    @property
    def history(self) -> list:
        """Squares played since set-up, PASS included."""
        return list(self._moves)

    # -------------------------------------------------------------- changing
    def play(self, move) -> int:
        """Play ``move`` (square index, name like 'f5', or PASS/'pass').

        Returns:
            The number of discs flipped (0 for a pass).
        Raises:
            IllegalMoveError: naming the move and the side, if not legal.
        """
        cdef int sq = parse_square(move) if isinstance(move, str) else int(move)
        cdef uint64_t f
        cdef Child child
        if sq == PASS:
            if not self.must_pass():
                raise IllegalMoveError(
                    f"{self.side_to_move} cannot pass: "
                    + ("the game is over" if self.is_game_over() else "it has a legal move"))
            self._undo.append(_position_tuple(self.pos))
            self._moves.append(PASS)
            self.pos.player, self.pos.opponent = self.pos.opponent, self.pos.player
            self.pos.side ^= 1
            return 0
        if not 0 <= sq < 64 or (self.pos.player | self.pos.opponent) & square_bit(sq):
            raise IllegalMoveError(f"{square_name(sq) if 0 <= sq < 64 else sq} is not an empty square"
                                   f" ({self.side_to_move} to move)")
        f = flips(self.pos.player, self.pos.opponent, sq)
        if f == 0:
            raise IllegalMoveError(f"{square_name(sq)} flips nothing for {self.side_to_move}: illegal")
        self._undo.append(_position_tuple(self.pos))
        self._moves.append(sq)
        child = make_move(self.pos.player, self.pos.opponent, sq, f)
        self.pos.player, self.pos.opponent = child.player, child.opponent
        self.pos.side ^= 1
        return popcount(f)

    def undo(self) -> int:
        """Take back the last move (or pass); returns it.

        Raises:
            IndexError: if nothing has been played on this board.
        """
        if not self._undo:
            raise IndexError("undo: no move to take back")
        p, o, s = self._undo.pop()
        self.pos.player, self.pos.opponent, self.pos.side = p, o, s
        return self._moves.pop()

    def copy(self):
        """An independent board with the same position and history."""
        cdef Board b = Board.__new__(Board)
        b.pos = self.pos
        b._undo = list(self._undo)
        b._moves = list(self._moves)
        return b

    # ------------------------------------------------------------ conversions
    def to_obf(self) -> str:
        """OBF text: 64 squares a1..h8 (X black, O white, - empty), a space,
        the side to move and ';'."""
        black, white = self.black, self.white
        cells = ["X" if black >> i & 1 else "O" if white >> i & 1 else "-" for i in range(64)]
        return "".join(cells) + " " + ("X;" if self.pos.side == BLACK else "O;")

    def __str__(self) -> str:
        black, white = self.black, self.white
        moves = legal_moves(self.pos.player, self.pos.opponent)
        lines = ["  a b c d e f g h"]
        for r in range(8):
            row = []
            for c in range(8):
                i = r * 8 + c
                row.append("X" if black >> i & 1 else "O" if white >> i & 1 else "." if moves >> i & 1 else "-")
            lines.append(f"{r + 1} " + " ".join(row))
        b, w = self.disc_count()
        lines.append(f"{self.side_to_move} to move; black {b}, white {w}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board.from_obf({self.to_obf()!r})"

    def __eq__(self, other):
        if not isinstance(other, Board):
            return NotImplemented
        cdef Board o = other
        return (self.pos.player == o.pos.player and self.pos.opponent == o.pos.opponent
                and self.pos.side == o.pos.side)

    def __hash__(self):
        return hash((self.pos.player, self.pos.opponent, self.pos.side))

    def __reduce__(self):
        return (Board.from_bitboards, (self.black, self.white, self.side_to_move))
