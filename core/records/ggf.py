"""GGF, the Generic Game Format of the GGS server, for Othello.

A game is ``(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RB[..]RW[..]TI[..]TY[8]RE[..]
BO[8 <64 squares> <side>]B[d3//1.23]W[...];)``; a file holds any number of
games, optionally each line prefixed by the GGS archive's game count
(``1 (;...;)`` or ``2 (;...;)(;...;)`` for a synchro match).

Reading (:func:`read_ggf`):

* ``GM`` must be Othello (any case); ``BO``'s size must be 8 and ``TY``'s too;
* ``BO`` squares are ``-`` empty, ``*`` black, ``O`` white (``X``/``x``/``o``
  /``.`` accepted too), whitespace between rows optional, then the side to
  move ``*`` or ``O``;
* ``B``/``W`` values are ``move[/eval[/time]]``, the move a1..h8 in any case
  or a pass: ``PA``, ``pass``, any prefix of PASS, or ``--``. The eval/time
  tail is kept in ``move_annotations`` (``B[d3//0.01]`` -> ``'/0.01'``);
* ``RE`` is ``score[:flag]`` from Black's view: ``+0.000`` -> 'Draw',
  ``+12.000`` -> 'B+12', ``-4.000`` -> 'W+4'; flag ``r``/``t`` -> 'B+R',
  'W+T', ...; ``?``, non-integer or out-of-range scores (Edax writes
  ``-127.000`` on unfinished games) leave ``result`` None and keep the text in
  ``properties['RE']``;
* ``TI`` -> ``time_settings``, ``RB``/``RW`` -> ratings, ``C`` -> comment (with
  the chromosome lines, as in SGF), ``EV`` -> event (both GeneThello's own);
  other tags go to ``properties``. A missing pass is inserted, as everywhere.

Values have no escapes (GGF has none): a ``]`` ends a value. The writer
therefore refuses values holding ``]``. Every pass is written, as ``PA``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import partial

from genethello.core.engine.board import Board
from genethello.core.engine.squares import BLACK, PASS, WHITE, Colour, opponent, square_name
from genethello.core.frontend.errors import UserError
from genethello.core.records.game import (
    START_BLACK,
    START_WHITE,
    GameBuilder,
    GameRecord,
    RecordError,
    score_from_result,
)
from genethello.core.records.sgf import _read_comment, comment_text

__all__ = ["read_ggf", "write_ggf", "parse_ggf_move"]

# ASCII digits only, and few of them before the point: a score is at most 64
# discs, and float("1" * 400) is inf (int(inf) raises OverflowError).
_RE_RE = re.compile(r"^([+-]?)([0-9]{1,6}(?:\.[0-9]{0,12})?)(?::([a-zA-Z]))?$")
_HANDLED = {"GM", "PB", "PW", "DT", "PC", "RB", "RW", "TI", "RE", "BO", "C", "EV", "B", "W"}
_BLACK_CHARS = "*Xx#"
_WHITE_CHARS = "Oo0"
_EMPTY_CHARS = "-._"


def parse_ggf_move(move: str) -> int:
    """Square (or PASS) of a GGF move field; ValueError if it is not one."""
    m = move.strip()
    low = m.lower()
    if low == "--" or (low and "pass".startswith(low)):
        return PASS
    if len(low) == 2 and low[0] in "abcdefgh" and low[1] in "12345678":
        return "abcdefgh".index(low[0]) + 8 * (int(low[1]) - 1)
    raise UserError(f"{move!r} is not a move (expected a1..h8 or PA)")


def _skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i].isspace():
        i += 1
    return i


def read_ggf(text: str) -> list[GameRecord]:
    """All games in GGF text, as :class:`GameRecord`.

    Raises:
        RecordError: with line and column (and move number for an illegal
            move) for anything that is not a GGF Othello game.
    """
    if not isinstance(text, str):
        raise RecordError(f"read_ggf needs text (str), not {type(text).__name__}")
    n = len(text)
    i = 1 if text.startswith("\ufeff") else 0
    records: list[GameRecord] = []
    while True:
        i = _skip_ws(text, i)
        if i >= n:
            break
        if text[i].isdigit():
            while i < n and text[i].isdigit():
                i += 1
            if i < n and not text[i].isspace() and text[i] != "(":
                raise RecordError.at(text, i, f"unexpected {text[i]!r} after the game count: expected '(;'")
            continue
        if not text.startswith("(;", i):
            raise RecordError.at(text, i, f"unexpected {text[i]!r}: a GGF game starts with '(;'")
        try:
            rec, i = _read_game(text, i)
        except RecordError as exc:
            exc.game = len(records) + 1
            exc.args = (exc._text(),)
            raise
        records.append(rec)
    if not records:
        raise RecordError.at(text, i, "no game found: a GGF game starts with '(;'")
    return records


def _read_game(text: str, start: int) -> tuple[GameRecord, int]:
    n = len(text)
    i = start + 2
    tags = []        # (name, value, name offset, value offset)
    while True:
        i = _skip_ws(text, i)
        if i >= n:
            raise RecordError.at(text, start, "game not closed: the file ends before ';)'")
        if text.startswith(";)", i):
            i += 2
            break
        if not (text[i].isascii() and text[i].isalpha()):
            raise RecordError.at(text, i, f"unexpected {text[i]!r}: expected a tag like PB[...] or ';)'")
        name_at = i
        while i < n and text[i].isascii() and text[i].isalpha():
            i += 1
        name = text[name_at:i].upper()
        if i >= n or text[i] != "[":
            found = repr(text[i]) if i < n else "the end of the file"
            raise RecordError.at(text, i, f"tag {name} has no value: expected '[', found {found}")
        close = text.find("]", i + 1)
        if close < 0:
            raise RecordError.at(text, i, f"value of {name} not closed: '[' without ']'")
        tags.append((name, text[i + 1:close], name_at, i + 1))
        i = close + 1
    return _build(text, tags), i


def _parse_board(text: str, value: str, at: int) -> tuple[int, int, Colour]:
    parts = value.split(None, 1)
    if len(parts) != 2 or parts[0] != "8":
        raise RecordError.at(text, at, f"BO[{value}]: expected the size 8, then 64 squares and the side to move")
    chars = [c for c in parts[1] if not c.isspace()]
    if len(chars) != 65:
        raise RecordError.at(text, at, f"BO: expected 64 squares and the side to move, found {len(chars)} characters")
    black = white = 0
    for k, c in enumerate(chars[:64]):
        if c in _BLACK_CHARS:
            black |= 1 << k
        elif c in _WHITE_CHARS:
            white |= 1 << k
        elif c not in _EMPTY_CHARS:
            raise RecordError.at(text, at, f"BO: square {square_name(k)} is {c!r}; expected '-', '*' or 'O'")
    side = chars[64]
    if side in _BLACK_CHARS:
        return black, white, BLACK
    if side in _WHITE_CHARS:
        return black, white, WHITE
    raise RecordError.at(text, at, f"BO: side to move {side!r}; expected '*' (black) or 'O' (white)")


def _result(rec: GameRecord, value: str) -> None:
    v = value.strip()
    m = _RE_RE.match(v)
    if m:
        score = float(m.group(1) + m.group(2))
        flag = (m.group(3) or "").lower()
        if flag in ("r", "t") and score != 0:
            rec.result = ("B+" if score > 0 else "W+") + flag.upper()
            return
        if flag in ("", "s") and score == int(score) and abs(score) <= 64:
            if score == 0:
                rec.result = "Draw"
            else:
                rec.result = ("B+" if score > 0 else "W+") + str(abs(int(score)))
            return
    if v and v != "?":
        rec.properties["RE"] = v


def _build(text: str, tags: list[tuple[str, str, int, int]]) -> GameRecord:
    rec = GameRecord()
    seen = {}
    black, white, side = START_BLACK, START_WHITE, BLACK
    for name, value, name_at, value_at in tags:
        if name in ("B", "W"):
            continue
        if name in seen:
            raise RecordError.at(text, name_at, f"tag {name} given twice")
        seen[name] = value
        if name == "GM":
            if value.strip().lower() != "othello":
                raise RecordError.at(text, value_at, f"GM[{value}] is not Othello")
        elif name == "TY":
            size = re.match(r"^[a-z]*?(\d+)", value.strip())
            if not size or size.group(1) != "8":
                raise RecordError.at(text, value_at, f"TY[{value}]: only 8x8 Othello (TY[8]) is read")
            if value.strip() != "8":
                rec.properties["TY"] = value
        elif name == "BO":
            black, white, side = _parse_board(text, value, value_at)
        elif name == "PB":
            rec.black_name = None if value == "?" else value
        elif name == "PW":
            rec.white_name = None if value == "?" else value
        elif name == "DT":
            rec.date = value
        elif name == "PC":
            rec.place = value
        elif name == "RB":
            rec.black_rating = value
        elif name == "RW":
            rec.white_rating = value
        elif name == "TI":
            rec.time_settings = value
        elif name == "EV":
            rec.event = value
        elif name == "C":
            _read_comment(rec, value)
        elif name == "RE":
            _result(rec, value)
        else:
            rec.properties[name] = value
    builder = GameBuilder(Board.from_bitboards(black, white, side))
    for name, value, name_at, value_at in tags:
        if name not in ("B", "W"):
            continue
        move, slash, tail = value.partition("/")
        try:
            sq = parse_ggf_move(move)
        except ValueError as exc:
            raise RecordError.at(text, value_at, f"{name}[{value}]: {exc}") from None
        index = builder.add(sq, BLACK if name == "B" else WHITE,
                            where=partial(RecordError.at, text, name_at))
        if slash:
            rec.move_annotations[index] = tail
    builder.finish()
    rec.moves = builder.moves
    rec.black, rec.white, rec.side_to_move = black, white, side
    return rec


# ------------------------------------------------------------------ writing
def _tag(name: str, value: object) -> str:
    """``NAME[value]``."""
    value = str(value)
    if "]" in value:
        raise RecordError(f"GGF cannot hold ']' in a value (tag {name}: {value!r}); GGF has no escapes")
    return f"{name}[{value}]"


def _result_value(rec: GameRecord) -> str:
    if rec.result is None:
        return str(rec.properties.get("RE", "?"))
    score = score_from_result(rec.result)
    if score is not None:
        return f"{score:+.3f}"
    m = re.match(r"^([BW])\+([RT])", rec.result.strip(), re.IGNORECASE)
    if m:
        sign = "+" if m.group(1).upper() == "B" else "-"
        return f"{sign}64.000:{m.group(2).lower()}"
    return "?"


def write_ggf(record: GameRecord | Iterable[GameRecord]) -> str:
    """GGF text of one record (one line), or of several (one line each).

    Raises:
        RecordError: if a record does not replay legally or a value holds
            ']' (GGF has no escapes).
    """
    if isinstance(record, GameRecord):
        return _write_one(record) + "\n"
    return "".join(_write_one(r) + "\n" for r in record)


def _write_one(rec: GameRecord) -> str:
    rec = rec.normalized()
    out = ["(;", _tag("GM", "Othello")]
    if rec.place is not None:
        out.append(_tag("PC", rec.place))
    if rec.date is not None:
        out.append(_tag("DT", rec.date))
    out.append(_tag("PB", "?" if rec.black_name is None else rec.black_name))
    out.append(_tag("PW", "?" if rec.white_name is None else rec.white_name))
    if rec.black_rating is not None:
        out.append(_tag("RB", rec.black_rating))
    if rec.white_rating is not None:
        out.append(_tag("RW", rec.white_rating))
    if rec.time_settings is not None:
        out.append(_tag("TI", rec.time_settings))
    out.append(_tag("TY", rec.properties.get("TY", "8")))
    out.append(_tag("RE", _result_value(rec)))
    if rec.event is not None:
        out.append(_tag("EV", rec.event))
    comment = comment_text(rec)
    if comment is not None:
        out.append(_tag("C", comment))
    for name, value in rec.properties.items():
        if name in ("RE", "TY"):
            continue
        if not isinstance(name, str) or not re.fullmatch(r"[A-Z]+", name) or name in _HANDLED:
            raise RecordError(f"property {name!r} cannot be written to GGF (not A-Z, or kept in a field)")
        if isinstance(value, (list, tuple)):
            raise RecordError(f"property {name} has several values; GGF holds one per tag")
        out.append(_tag(name, value))
    rows = []
    for r in range(8):
        rows.append("".join("*" if rec.black >> (r * 8 + c) & 1 else "O" if rec.white >> (r * 8 + c) & 1
                            else "-" for c in range(8)))
    out.append(_tag("BO", "8 " + " ".join(rows) + " " + ("*" if rec.side_to_move == BLACK else "O")))
    side = rec.side_to_move
    for i, sq in enumerate(rec.moves):
        name = "B" if side == BLACK else "W"
        side = opponent(side)
        value = "PA" if sq == PASS else square_name(sq)
        if i in rec.move_annotations:
            value += "/" + str(rec.move_annotations[i])
        out.append(_tag(name, value))
    out.append(";)")
    return "".join(out)
