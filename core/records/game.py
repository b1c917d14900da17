"""The common value type of all game-record formats: :class:`GameRecord`.

A record is a start position (two bitboards and the side to move; the
standard start by default), the moves played from it and the game
information (players, date, result, ...).

Moves are squares 0..63 with **explicit** ``PASS`` entries: every reader
inserts the forced passes its format leaves out (SGF as Quarry writes it,
plain move lists, WTHOR), so two records of the same game compare equal
whatever format they came from. A record also never stops in a position
where the side to move must pass: that forced pass is recorded too.

Errors in the text of a record, or illegal moves in it, raise
:class:`RecordError` (a ``ValueError``) naming where: line and column (and
the character offset) in the text, and/or the move number.
"""

from __future__ import annotations

import copy as _copy
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from genethello.core.engine.board import START_BLACK, START_WHITE, Board, IllegalMoveError
from genethello.core.engine.squares import BLACK, PASS, Colour, parse_square, square_name
from genethello.core.frontend.errors import UserError

__all__ = [
    "RecordError", "GameRecord", "START_BLACK", "START_WHITE",
    "result_from_score", "score_from_result", "line_col",
]


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of character ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


class RecordError(UserError):
    """A game record that cannot be read (or written).

    Attributes (each ``None`` where not known):
        problem: the message without the location prefix.
        line, column: 1-based position in the text.
        offset: 0-based character offset in the text.
        move_number: 1-based index into the record's moves (passes count).
        game: 1-based index of the game in a file holding several.
    """

    def __init__(self, problem: str, *, line: int | None = None, column: int | None = None,
                 offset: int | None = None, move_number: int | None = None,
                 game: int | None = None):
        self.problem = problem
        self.line = line
        self.column = column
        self.offset = offset
        self.move_number = move_number
        self.game = game
        super().__init__(self._text())

    @classmethod
    def at(cls, text: str, offset: int, problem: str, **kw: int | None) -> RecordError:
        """An error at character ``offset`` of ``text`` (line/column computed)."""
        line, column = line_col(text, offset)
        return cls(problem, line=line, column=column, offset=offset, **kw)

    def _text(self) -> str:
        where = []
        if self.game is not None:
            where.append(f"game {self.game}")
        if self.line is not None:
            where.append(f"line {self.line}, column {self.column}")
        elif self.offset is not None:
            where.append(f"character {self.offset + 1}")
        return (", ".join(where) + ": " if where else "") + self.problem

    def __reduce__(self) -> tuple[Callable[..., RecordError], tuple[Any, ...]]:
        return (_rebuild_error, (self.problem, self.line, self.column, self.offset,
                                 self.move_number, self.game))


def _rebuild_error(problem: str, line: int | None, column: int | None, offset: int | None,
                   move_number: int | None, game: int | None) -> RecordError:
    return RecordError(problem, line=line, column=column, offset=offset,
                       move_number=move_number, game=game)


# ------------------------------------------------------------------ results
_RESULT_RE = re.compile(r"^([BW])\+(\d+)$")


def result_from_score(score: int) -> str:
    """'B+12', 'W+4' or 'Draw' for a score from Black's view."""
    if score > 0:
        return f"B+{score}"
    if score < 0:
        return f"W+{-score}"
    return "Draw"


def score_from_result(result: str | None) -> int | None:
    """Black's disc margin for 'B+12' / 'W+4' / 'Draw' (also '0'); None for
    anything else (resignation, time, unknown, None)."""
    if result is None:
        return None
    r = result.strip()
    if r.lower() in ("draw", "0"):
        return 0
    m = _RESULT_RE.match(r)
    if not m:
        return None
    n = int(m.group(2))
    return n if m.group(1) == "B" else -n


# ------------------------------------------------------------------ record
@dataclass
class GameRecord:
    """One game: start position, moves (explicit passes) and game info.

    ``properties`` holds everything a reader found and has no field for,
    under the format's own property name (a ``str``, or a ``list[str]`` for an
    SGF property with several values); writers of the same format write them
    back. ``move_comments`` maps a move index (into ``moves``) to the comment
    on that move (SGF ``C`` in a move node); ``move_annotations`` maps a move
    index to GGF's ``eval/time`` tail (``B[d3//0.01]`` -> ``'/0.01'``).
    """

    moves: list[int] = field(default_factory=list)
    black: int = START_BLACK
    white: int = START_WHITE
    side_to_move: Colour = BLACK
    black_name: str | None = None
    white_name: str | None = None
    date: str | None = None
    result: str | None = None
    time_settings: str | None = None
    event: str | None = None
    place: str | None = None
    black_rating: str | None = None
    white_rating: str | None = None
    comment: str | None = None
    black_chromosome: str | None = None
    white_chromosome: str | None = None
    properties: dict[str, Any] = field(default_factory=dict)
    move_comments: dict[int, str] = field(default_factory=dict)
    move_annotations: dict[int, str] = field(default_factory=dict)

    # ----------------------------------------------------------- positions
    def start_board(self) -> Board:
        """A fresh board set up at the start position.

        Raises:
            RecordError: if the setup is not a position (overlapping discs,
                bad side to move).
        """
        try:
            return Board.from_bitboards(self.black, self.white, self.side_to_move)
        except (ValueError, TypeError, OverflowError) as exc:
            raise RecordError(f"bad start position: {exc}") from None

    def is_standard_start(self) -> bool:
        return (self.black == START_BLACK and self.white == START_WHITE
                and self.side_to_move == BLACK)

    @classmethod
    def from_board(cls, board: Board, **info: Any) -> GameRecord:
        """The record of ``board``'s game: its set-up position (all moves
        taken back) and its history; ``info`` sets the other fields."""
        start = board.copy()
        moves = []
        while True:
            try:
                moves.append(start.undo())
            except IndexError:
                break
        moves.reverse()
        rec = cls(moves=moves, black=start.black, white=start.white,
                  side_to_move=start.side_to_move, **info)
        return rec.normalized()

    # -------------------------------------------------------------- replay
    def replay(self) -> Board:
        """The board after all the moves, its history holding every move.

        A forced pass that the record leaves out is inserted (the rule all
        readers follow); ``replay().history`` is the normalized move list.

        Raises:
            RecordError: naming the move number and move, for an illegal
                move or a pass while the side to move has a legal move.
        """
        builder = GameBuilder(self.start_board())
        for sq in self.moves:
            builder.add(sq)
        builder.finish()
        return builder.board

    def normalized(self) -> GameRecord:
        """A copy whose moves hold every forced pass explicitly (also a final
        one when the side to move at the end must pass), with
        ``move_comments``/``move_annotations`` re-indexed to match."""
        builder = GameBuilder(self.start_board())
        index_map = {}
        for i, sq in enumerate(self.moves):
            index_map[i] = builder.add(sq)
        builder.finish()
        rec = _copy.deepcopy(self)
        rec.moves = builder.moves
        rec.move_comments = {index_map[i]: v for i, v in self.move_comments.items() if i in index_map}
        rec.move_annotations = {index_map[i]: v for i, v in self.move_annotations.items() if i in index_map}
        return rec

    def final_score(self) -> int:
        """Black's discs minus White's after the moves, the empties given to
        the winner (WOF rule). Meaningful for a finished game."""
        return self.replay().final_score()

    def is_finished(self) -> bool:
        return self.replay().is_game_over()

    def result_text(self) -> str | None:
        """'B+n', 'W+n' or 'Draw' from replaying the game (WOF rule: empty
        squares go to the winner); None if the game is not over."""
        board = self.replay()
        if not board.is_game_over():
            return None
        return result_from_score(board.final_score())

    def squares_played(self) -> list[int]:
        """The moves without the passes."""
        return [m for m in self.moves if m != PASS]


# ------------------------------------------------------------------ builder
#: ``where(problem)``: the RecordError that places ``problem`` in the text.
PlaceError = Callable[[str], RecordError]


class GameBuilder:
    """Replays moves as a reader meets them, inserting forced passes.

    ``add(move, color=None, where=...)``: ``color`` is the colour the file
    says moves (a :data:`~genethello.core.engine.squares.Colour`, or None where the
    format does not say).
    A move by the other colour than the side to move is accepted only when
    the side to move has no legal move: the pass is inserted. ``where`` is a
    callable ``problem -> RecordError`` that places an error in the text.
    """

    def __init__(self, board: Board):
        self.board = board
        self.moves: list[int] = []

    def _error(self, where: PlaceError | None, problem: str, number: int) -> RecordError:
        if where is None:
            return RecordError(problem, move_number=number)
        err = where(problem)
        err.move_number = number
        return err

    def add(self, move: int, color: Colour | None = None, where: PlaceError | None = None) -> int:
        """Play ``move`` (square or PASS); returns its index in ``moves``."""
        board = self.board
        number = len(self.moves) + 1
        if isinstance(move, str):
            try:
                move = parse_square(move)
            except ValueError as exc:
                raise self._error(where, f"move {number}: {exc}", number) from None
        else:
            try:
                move = operator.index(move)
            except TypeError:
                raise self._error(where, f"move {number}: {move!r} is not a square", number) from None
        side = board.side_to_move
        name = square_name(move) if 0 <= move <= PASS else str(move)
        label = f"move {number} ({color or side} {name})"
        if move == PASS:
            if color is not None and color != side:
                raise self._error(where, f"{label}: {color} passes but {side} is to move", number)
            if not board.must_pass():
                why = "the game is over" if board.is_game_over() else f"{side} has a legal move"
                raise self._error(where, f"{label}: illegal pass, {why}", number)
            board.play(PASS)
            self.moves.append(PASS)
            return len(self.moves) - 1
        if not 0 <= move < 64:
            raise self._error(where, f"{label}: not a square", number)
        if board.must_pass() and (color is None or color != side):
            board.play(PASS)
            self.moves.append(PASS)
            number += 1
            side = board.side_to_move
            label = f"move {number} ({color or side} {name})"
        if color is not None and color != side:
            raise self._error(where, f"{label}: {color} moves but {side} is to move and has a legal move",
                              number)
        try:
            board.play(move)
        except IllegalMoveError:
            if board.is_game_over():
                why = "the game is already over"
            elif (board.black | board.white) >> move & 1:
                why = "the square is not empty"
            else:
                why = "it flips no disc"
            raise self._error(where, f"{label}: illegal move, {why}", number) from None
        self.moves.append(move)
        return len(self.moves) - 1

    def finish(self) -> None:
        """Record the final forced pass, if the side to move must pass."""
        if self.board.must_pass():
            self.board.play(PASS)
            self.moves.append(PASS)
