"""Move lists, numbered transcripts and the 8x8 move-number grid.

* Plain move list (Edax ``.txt``, WTHOR-derived): ``f5d6c3...``, two
  characters a move, either case, spaces/commas/single dashes allowed between
  moves. Passes are **not written**; the reader inserts a pass whenever the
  side to move has no legal move (an explicit ``PA``/``pass``/``ps`` is read
  too). :func:`read_moves` reads one game per non-empty line;
  :func:`write_moves` writes lower case without passes.
  :func:`parse_move_line` reads the strict form of game corpora (one game a
  line, lower case, no separators, no passes) at numpy speed, for files of
  millions of moves that are replayed in bulk (``patterns.replay_games``).
* Numbered transcript, GeneThello's form of the unstandardised
  ``N. <black> [- ]<white>`` grammar (formats README)::

      1. f5 - d6
      2. c3 - d3
      ...
      30. b1 - --
      31. a1

  one line per move pair, Black then White, a pass written ``--`` (ntest's
  ``OsMove`` reads it; ``PA``/``pass`` are read too), a missing white move on
  the last line meaning the game stops there. The reader also takes the
  PGN-like ``1. F5 D6 2. C3 D3`` on one line. A pair numbered ``1.`` after
  some moves starts the next game. A pass left out is inserted when the next
  move's colour and the position require it.
* :func:`move_grid`: the 8x8 diagram with each square's move number (Rose's
  "transcript"); passes take no number, so the discs are numbered 1, 2, ...
  in the order they were placed; '.' marks start discs and empty squares.

Move lists and transcripts have no setup: they are for games from the
standard start, and the writers refuse other records.
"""

from __future__ import annotations

import re
from functools import partial

import numpy as np

from genethello.core.engine.board import Board
from genethello.core.engine.squares import BLACK, PASS, WHITE, Colour, square_name
from genethello.core.records.game import GameBuilder, GameRecord, RecordError

__all__ = ["read_moves", "parse_move_line", "write_moves", "read_transcript", "write_transcript", "move_grid"]

_SQUARE = re.compile(r"[a-hA-H][1-8]")
_PASS_WORD = re.compile(r"(?i:pass|pa|ps)(?![a-z0-9])")


def _require_standard(record: GameRecord, what: str) -> None:
    if not record.is_standard_start():
        raise RecordError(f"a {what} cannot hold a start position other than the standard one")


# ------------------------------------------------------------------ move lists
def parse_move_line(text: str) -> list[int]:
    """The squares (0 = a1 ... 63 = h8) of one strict move-list line
    (``f5d6c3...``: lower case, two characters a move, nothing between).

    Legality is not checked here: a corpus is replayed in bulk afterwards.

    Raises:
        RecordError: for an empty line, or naming the move number
            (``move_number``) and the two characters that are not a square.
    """
    if not text:
        raise RecordError("empty line (expected a move list like f5d6c3...)")
    raw = text.encode("ascii", "replace")
    codes = np.frombuffer(raw, dtype=np.uint8)
    cols, rows = codes[0::2], codes[1::2]
    if len(raw) % 2 or ((cols < 97) | (cols > 104)).any() or ((rows < 49) | (rows > 56)).any():
        for i in range(0, len(text), 2):
            pair = text[i:i + 2]
            if len(pair) < 2 or pair[0] not in "abcdefgh" or pair[1] not in "12345678":
                raise RecordError(f"move {i // 2 + 1} {pair!r} is not a square a1..h8 (bad character)",
                                  move_number=i // 2 + 1)
    squares: list[int] = ((rows.astype(np.int64) - 49) * 8 + (cols.astype(np.int64) - 97)).tolist()
    return squares


def read_moves(text: str) -> list[GameRecord]:
    """One :class:`GameRecord` per non-empty line of plain move lists (text
    with no moves at all gives one record of the start position).

    Raises:
        RecordError: with line and column, for text that is not a square, or
            an illegal move (also naming the move number).
    """
    if not isinstance(text, str):
        raise RecordError(f"read_moves needs text (str), not {type(text).__name__}")
    records = []
    pos = 0
    for line in text.splitlines(keepends=True):
        start = pos
        pos += len(line)
        if not line.strip():
            continue
        builder = GameBuilder(Board())
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if ch.isspace() or ch in ",-":
                i += 1
                continue
            at = start + i
            m = _SQUARE.match(line, i)
            if m:
                sq = "abcdefgh".index(line[i].lower()) + 8 * (int(line[i + 1]) - 1)
                i += 2
            else:
                m = _PASS_WORD.match(line, i)
                if not m:
                    raise RecordError.at(text, at, f"{line[i:i + 2]!r} is not a move: expected a square a1..h8")
                sq = PASS
                i = m.end()
            builder.add(sq, None, where=partial(RecordError.at, text, at))
        builder.finish()
        records.append(GameRecord(moves=builder.moves))
    if not records:
        records.append(GameRecord())      # no moves at all: the start position
    return records


def write_moves(record: GameRecord, *, upper: bool = False) -> str:
    """'f5d6c3...' (passes left out; Edax style upper case with ``upper``)."""
    _require_standard(record, "move list")
    text = "".join(square_name(s) for s in record.normalized().moves if s != PASS)
    return text.upper() if upper else text


# ------------------------------------------------------------------ transcript
_TOKEN = re.compile(r"""
    (?P<number>[0-9]+)\.(?:\.\.)? |
    (?P<pass>--|(?i:pass|pa|ps)(?![a-z0-9])) |
    (?P<square>[a-hA-H][1-8]) |
    (?P<sep>-) |
    (?P<space>\s+)
""", re.VERBOSE)


def read_transcript(text: str) -> list[GameRecord]:
    """Games of numbered transcripts (``1. f5 - d6`` ...), one record each.

    Raises:
        RecordError: with line and column for a wrong move number, a token
            that is not a move, or an illegal move (naming its number).
    """
    if not isinstance(text, str):
        raise RecordError(f"read_transcript needs text (str), not {type(text).__name__}")
    records = []
    builder = None
    expected = 1
    slot: Colour | None = None     # None: expecting a number, else the next move's colour
    i, n = 0, len(text)
    while i < n:
        m = _TOKEN.match(text, i)
        if not m:
            raise RecordError.at(text, i, f"unexpected {text[i]!r}: expected a move number 'N.', a square or '--'")
        kind = m.lastgroup
        at = i
        i = m.end()
        if kind in ("space", "sep"):
            continue
        if kind == "number":
            digits = m.group("number").lstrip("0")
            # a game has at most 61 pairs: compare the digits before int()
            # (Python refuses to convert more than 4300 of them)
            number = int(digits) if 0 < len(digits) <= 6 else (0 if not digits else -1)
            if number == 1 and builder is not None and builder.moves:
                builder.finish()
                records.append(GameRecord(moves=builder.moves))
                builder, expected = None, 1
            if number != expected:
                shown = number if number >= 0 else m.group("number")[:12] + "..."
                raise RecordError.at(text, at, f"move pair number {shown}: expected {expected}.")
            if builder is None:
                builder = GameBuilder(Board())
            expected += 1
            slot = BLACK
            continue
        if slot is None:
            raise RecordError.at(text, at, f"move {m.group()!r} without a move number: "
                                 f"expected '{expected}.' first (a pair holds two moves)")
        sq = PASS if kind == "pass" else "abcdefgh".index(text[at].lower()) + 8 * (int(text[at + 1]) - 1)
        assert builder is not None   # the pair number that set the slot made one
        builder.add(sq, slot, where=partial(RecordError.at, text, at))
        slot = WHITE if slot == BLACK else None
    if builder is not None and (builder.moves or not records):
        builder.finish()
        records.append(GameRecord(moves=builder.moves))
    if not records:
        records.append(GameRecord())      # no moves at all: the start position
    return records


def write_transcript(record: GameRecord) -> str:
    """The numbered transcript, one line per pair, passes as ``--``."""
    _require_standard(record, "transcript")
    moves = record.normalized().moves
    lines = []
    for k in range(0, len(moves), 2):
        pair = ["--" if s == PASS else square_name(s) for s in moves[k:k + 2]]
        lines.append(f"{k // 2 + 1}. " + " - ".join(pair))
    return "\n".join(lines) + ("\n" if lines else "")


# ------------------------------------------------------------------ grid
def move_grid(record: GameRecord) -> str:
    """The 8x8 grid of move numbers (passes take none), '.' elsewhere::

             a  b  c  d  e  f  g  h
          1  .  .  .  .  .  .  .  .
          ...
          5  .  .  .  .  .  1  .  .
    """
    record.replay()        # validates
    numbers = {}
    for count, sq in enumerate(record.squares_played(), start=1):
        numbers[sq] = count
    lines = ["    " + "  ".join("abcdefgh")]
    for r in range(8):
        cells = [f"{numbers[r * 8 + c]:>2}" if r * 8 + c in numbers else " ." for c in range(8)]
        lines.append(f"{r + 1:>2} " + " ".join(cells))
    return "\n".join(lines) + "\n"
