"""SGF (FF[4]) game records for Othello, ``GM[2]``.

Reading (:func:`read_sgf`) accepts what Othello programs write:

* moves as letter+digit (``B[f5]``, Edax, Cassio) or as Quarry's two letters
  (``B[fe]`` = f5): the first letter is the column a-h; a digit 1-8 second is
  the row, a letter a-h second is the row ``letter - 'a' + 1``. Either case.
* passes written ``B[]``, ``B[tt]``, ``B[PA]``/``B[pa]``, ``B[pass]``/``B[ps]``,
  or left out (the next node has the same colour); all become explicit PASS
  entries in the record;
* setup ``AB``/``AW``/``AE``/``PL`` in the root or later nodes before the first
  move, with compressed point lists (``AE[a1:h2]``, a rectangle). Without
  ``AB``/``AW`` in the root the position starts from the standard start (as
  Quarry leaves the default setup out); with them, from an empty board;
* a move in the root node with the setup and a trailing empty node (Edax);
* escapes in values (``\\]``, ``\\\\``, soft line breaks), whitespace
  between any tokens, FF[3]-style lower-case letters in property names;
* variations: the main line (first child at each branch) is read;
* several game trees in one collection: one record each.

Anything else raises :class:`RecordError` with line and column (and the
move number for an illegal move); no other exception escapes.

Writing (:func:`write_sgf`) follows the interoperable layout recommended in
``formats/sgf/README.md``: ``FF[4]GM[2]SZ[8]``, explicit ``AB``/``AW``/``PL``
(plus ``AE`` when a standard start square is empty), one move per node with
lower-case letter+digit values, and forced passes left out so the next node
carries the other colour. ``explicit_passes=True`` writes them as ``B[]``
instead (the FF[4] Go convention; for readers we control only).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import partial

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

__all__ = ["read_sgf", "write_sgf", "parse_sgf_point"]

_PASS_VALUES = {"", "tt", "pa", "pass", "ps"}
_COLUMNS = "abcdefgh"
# properties with a field in GameRecord, or handled by the reader itself
_HANDLED = {"FF", "GM", "SZ", "CA", "AB", "AW", "AE", "PL", "B", "W", "PB", "PW", "DT", "TM",
            "EV", "C", "PC", "BR", "WR"}   # RE and OT may also sit in ``properties``
_CHROMOSOME_RE = re.compile(r"^(black|white) chromosome: (\S*)$")
_NUMBER_RE = re.compile(r"[0-9]+(?:\.[0-9]+)?")


# ------------------------------------------------------------------ parsing
class _Prop:
    __slots__ = ("name", "values", "offset", "value_offsets")

    def __init__(self, name: str, offset: int):
        self.name = name
        self.values: list[str] = []
        self.offset = offset
        self.value_offsets: list[int] = []


class _Tree:
    __slots__ = ("nodes", "children", "offset")

    def __init__(self, offset: int):
        self.nodes: list[list[_Prop]] = []     # each node: list of _Prop
        self.children: list[_Tree] = []
        self.offset = offset


def _parse_collection(text: str) -> list[_Tree]:
    """The game trees of an SGF collection (iterative: no recursion limit)."""
    n = len(text)
    i = 1 if text.startswith("\ufeff") else 0
    trees: list[_Tree] = []
    stack: list[_Tree] = []
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            break
        ch = text[i]
        if ch == "(":
            tree = _Tree(i)
            (stack[-1].children if stack else trees).append(tree)
            stack.append(tree)
            i += 1
            while i < n and text[i].isspace():
                i += 1
            if i >= n:
                raise RecordError.at(text, i, "file ends after '(': expected ';' and a node")
            if text[i] != ";":
                raise RecordError.at(text, i, f"expected ';' after '(', found {text[i]!r}")
        elif ch == ";":
            if not stack:
                raise RecordError.at(text, i, "';' outside a game tree (missing '(')")
            tree = stack[-1]
            if tree.children:
                raise RecordError.at(text, i, "node after a variation: nodes must come before '(' of the variations")
            i = _parse_node(text, i + 1, tree)
        elif ch == ")":
            if not stack:
                raise RecordError.at(text, i, "unbalanced ')': no game tree is open")
            stack.pop()
            i += 1
        elif not stack:
            raise RecordError.at(text, i, f"unexpected {ch!r} outside a game tree: expected '('")
        else:
            raise RecordError.at(text, i, f"unexpected {ch!r}: expected a property, ';', '(' or ')'")
    if stack:
        raise RecordError.at(text, n, f"file ends inside a game tree: {len(stack)} '(' not closed "
                             f"(the innermost opened at line {_lc(text, stack[-1].offset)})")
    if not trees:
        raise RecordError.at(text, i, "no game tree found: an SGF collection starts with '(;'")
    return trees


def _lc(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    return f"{line}, column {offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def _parse_node(text: str, i: int, tree: _Tree) -> int:
    n = len(text)
    node: list[_Prop] = []
    tree.nodes.append(node)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n or not text[i].isascii() or not text[i].isalpha():
            return i
        start = i
        while i < n and text[i].isascii() and text[i].isalpha():
            i += 1
        raw = text[start:i]
        name = "".join(c for c in raw if c.isupper())   # FF[3]: lower-case letters are ignored
        if not name:
            raise RecordError.at(text, start, f"property name {raw!r} has no upper-case letter")
        prop = _Prop(name, start)
        while True:
            j = i
            while j < n and text[j].isspace():
                j += 1
            if j >= n or text[j] != "[":
                break
            value, i = _parse_value(text, j)
            prop.values.append(value)
            prop.value_offsets.append(j + 1)
        if not prop.values:
            where = f"found {text[i]!r}" if i < n else "the file ends"
            raise RecordError.at(text, i, f"property {name} has no value: expected '[', {where}")
        node.append(prop)


def _parse_value(text: str, i: int) -> tuple[str, int]:
    """The value starting at the '[' at ``i`` (escapes resolved), and the
    offset after its ']'."""
    n = len(text)
    start = i
    i += 1
    out = []
    while True:
        j = i
        while j < n and text[j] not in "\\]":
            j += 1
        out.append(text[i:j])
        if j >= n:
            raise RecordError.at(text, start, "unterminated property value: '[' without ']' "
                                 "(the file ends inside the value)")
        if text[j] == "]":
            return "".join(out), j + 1
        # backslash escape
        if j + 1 >= n:
            raise RecordError.at(text, start, "unterminated property value: the file ends after '\\'")
        nxt = text[j + 1]
        if nxt in "\r\n":     # soft line break: removed
            k = j + 2
            if k < n and text[k] in "\r\n" and text[k] != nxt:
                k += 1
            i = k
        else:
            out.append(nxt)
            i = j + 2


# ------------------------------------------------------------------ points
def parse_sgf_point(value: str) -> int:
    """Square of an SGF point: 'f5'/'F5' (letter+digit) or 'fe' (Quarry's
    two letters); PASS for the pass forms. Raises ValueError otherwise."""
    v = value.strip().lower()
    if v in _PASS_VALUES:
        return PASS
    if len(v) == 2 and v[0] in _COLUMNS:
        col = _COLUMNS.index(v[0])
        if v[1] in "12345678":
            return col + 8 * (int(v[1]) - 1)
        if v[1] in _COLUMNS:
            return col + 8 * _COLUMNS.index(v[1])
    raise UserError(f"{value!r} is not a point (expected letter+digit like f5, two letters like fe, "
                     "or a pass: [], [tt], [PA], [pass])")


def _point_list(text: str, prop: _Prop) -> int:
    """Bitboard of a (possibly compressed) point list."""
    mask = 0
    for value, off in zip(prop.values, prop.value_offsets):
        parts = value.split(":")
        try:
            if len(parts) == 1:
                sq = parse_sgf_point(parts[0])
                if sq == PASS:
                    raise UserError(f"{value!r} is not a square")
                mask |= 1 << sq
            elif len(parts) == 2:
                a, b = parse_sgf_point(parts[0]), parse_sgf_point(parts[1])
                if PASS in (a, b):
                    raise UserError(f"{value!r} is not a rectangle of squares")
                r0, r1 = sorted((a >> 3, b >> 3))
                c0, c1 = sorted((a & 7, b & 7))
                for r in range(r0, r1 + 1):
                    for c in range(c0, c1 + 1):
                        mask |= 1 << (r * 8 + c)
            else:
                raise UserError(f"{value!r} is not a point or a compressed point list 'a1:b2'")
        except ValueError as exc:
            raise RecordError.at(text, off, f"{prop.name}: {exc}") from None
    return mask


# ------------------------------------------------------------------ reading
def read_sgf(text: str) -> list[GameRecord]:
    """All games of an SGF collection, as :class:`GameRecord` (main lines).

    Raises:
        RecordError: with line and column, for malformed text, a game that
            is not Othello (GM other than 2, SZ other than 8), bad points or
            illegal moves (naming the move number too).
    """
    if not isinstance(text, str):
        raise RecordError(f"read_sgf needs text (str), not {type(text).__name__}")
    trees = _parse_collection(text)
    records = []
    for number, tree in enumerate(trees, start=1):
        try:
            records.append(_read_tree(text, tree))
        except RecordError as exc:
            if len(trees) > 1 and exc.game is None:
                exc.game = number
                exc.args = (exc._text(),)
            raise
    return records


def _main_line(tree: _Tree) -> list[list[_Prop]]:
    nodes: list[list[_Prop]] = []
    while True:
        nodes.extend(tree.nodes)
        if not tree.children:
            return nodes
        tree = tree.children[0]


def _single(text: str, prop: _Prop) -> str:
    if len(prop.values) != 1:
        raise RecordError.at(text, prop.offset, f"property {prop.name} takes one value, found {len(prop.values)}")
    return prop.values[0]


def _read_tree(text: str, tree: _Tree) -> GameRecord:
    from genethello.core.engine.board import Board

    rec = GameRecord()
    for prop in tree.nodes[0] if tree.nodes else ():
        if prop.name == "GM":
            v = _single(text, prop).strip()
            if v != "2":
                raise RecordError.at(text, prop.value_offsets[0],
                                     f"GM[{v}] is not Othello: an Othello record has GM[2]")
        elif prop.name == "SZ":
            v = _single(text, prop).strip()
            if v not in ("8", "8:8"):
                raise RecordError.at(text, prop.value_offsets[0], f"SZ[{v}]: an Othello board is 8x8 (SZ[8])")
    info: dict[str, _Prop] = {}
    black, white = START_BLACK, START_WHITE
    side: Colour | None = None
    start_side: Colour = BLACK
    builder: GameBuilder | None = None
    for node_index, node in enumerate(_main_line(tree)):
        seen = set()
        for prop in node:
            if prop.name in seen:
                raise RecordError.at(text, prop.offset, f"property {prop.name} appears twice in one node")
            seen.add(prop.name)
        if "B" in seen and "W" in seen:
            prop = next(p for p in node if p.name in ("B", "W"))
            raise RecordError.at(text, prop.offset, "a node holds both a B and a W move")
        if node_index == 0 and ("AB" in seen or "AW" in seen):
            black = white = 0       # a root with AB/AW sets the whole position up
        for prop in node:
            name = prop.name
            if name not in ("AB", "AW", "AE", "PL"):
                continue
            if builder is not None:
                raise RecordError.at(text, prop.offset, f"setup property {name} after the first move: "
                                     "a record holds one start position")
            if name == "PL":
                v = _single(text, prop).strip().lower()
                if v in ("b", "black", "1"):
                    side = BLACK
                elif v in ("w", "white", "2"):
                    side = WHITE
                else:
                    raise RecordError.at(text, prop.value_offsets[0],
                                         f"PL[{prop.values[0]}]: the player must be B or W")
                continue
            mask = _point_list(text, prop)
            if name == "AB":
                black, white = black | mask, white & ~mask
            elif name == "AW":
                black, white = black & ~mask, white | mask
            else:
                black, white = black & ~mask, white & ~mask
        move = next((p for p in node if p.name in ("B", "W")), None)
        info_node = node_index == 0 or builder is None
        move_comment = node_index > 0 and (move is not None or not info_node)
        for prop in node:
            if prop.name in ("AB", "AW", "AE", "PL", "B", "W"):
                continue
            if prop.name == "C" and move_comment:
                continue        # a comment on a move
            if info_node:
                info.setdefault(prop.name, prop)
        index = None
        if move is not None:
            color: Colour = BLACK if move.name == "B" else WHITE
            value = _single(text, move)
            try:
                sq = parse_sgf_point(value)
            except ValueError as exc:
                raise RecordError.at(text, move.value_offsets[0], f"{move.name}[{value}]: {exc}") from None
            if builder is None:
                start_side = side or color
                builder = GameBuilder(Board.from_bitboards(black, white, start_side))
            off = move.offset
            index = builder.add(sq, color, where=partial(RecordError.at, text, off))
        elif builder is not None and builder.moves:
            index = len(builder.moves) - 1
        if move_comment and index is not None and "C" in seen:
            rec.move_comments[index] = next(p for p in node if p.name == "C").values[0]
    if builder is None:
        start_side = side or BLACK
        builder = GameBuilder(Board.from_bitboards(black, white, start_side))
    builder.finish()
    rec.moves = builder.moves
    rec.black, rec.white, rec.side_to_move = black, white, start_side
    _apply_info(text, rec, info)
    return rec


# Game-info properties held as plain text on the record, in writing order.
_TEXT_FIELDS = {"PB": "black_name", "PW": "white_name", "BR": "black_rating", "WR": "white_rating",
                "DT": "date", "EV": "event", "PC": "place"}


def _apply_info(text: str, rec: GameRecord, info: dict[str, _Prop]) -> None:
    for name, prop in info.items():
        value = prop.values[0] if len(prop.values) == 1 else list(prop.values)
        if name in ("FF", "CA", "GM", "SZ"):
            continue
        elif name in _TEXT_FIELDS:
            setattr(rec, _TEXT_FIELDS[name], _single(text, prop))
        elif name == "RE":
            v = _single(text, prop).strip()
            if v.lower() in ("0", "draw", "jigo"):
                rec.result = "Draw"
            elif v.upper().startswith(("B+", "W+")):
                rec.result = v[0].upper() + v[1:]
            elif v:
                rec.properties["RE"] = v
        elif name == "C":
            _read_comment(rec, _single(text, prop))
        elif name in ("TM", "OT"):
            continue
        else:
            rec.properties[name] = value
    tm = info.get("TM")
    ot = info.get("OT")
    tm_text = _single(text, tm).strip() if tm is not None else None
    ot_text = _single(text, ot) if ot is not None else None
    if tm_text is not None and ot_text is not None:
        clock = parse_clock(ot_text)
        if clock is not None and _as_float(tm_text) == clock[0]:
            rec.time_settings = ot_text
        else:
            rec.time_settings = tm_text
            rec.properties["OT"] = ot_text
    elif tm_text is not None:
        rec.time_settings = tm_text
    elif ot_text is not None:
        rec.time_settings = ot_text


def _as_float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _read_comment(rec: GameRecord, value: str) -> None:
    lines = value.split("\n")
    while lines:
        m = _CHROMOSOME_RE.match(lines[-1])
        if not m:
            break
        setattr(rec, f"{m.group(1)}_chromosome", m.group(2))
        lines.pop()
    rest = "\n".join(lines)
    if rest:
        rec.comment = rest


def parse_clock(text: str) -> tuple[float, float, float] | None:
    """(main, increment, grace) seconds of a GGS-style clock
    ``main[/increment[/grace]]`` with times as ``s``, ``m:s`` or ``h:m:s``
    (empty fields 0); None if the text is not one."""
    parts = text.strip().split("/")
    if not 1 <= len(parts) <= 3 or not parts[0]:
        return None
    out = []
    for part in parts:
        if part == "":
            out.append(0.0)
            continue
        fields = part.split(":")
        if len(fields) > 3 or not all(_NUMBER_RE.fullmatch(f) for f in fields):
            return None
        secs = 0.0
        for f in fields:
            secs = secs * 60 + float(f)
        out.append(secs)
    while len(out) < 3:
        out.append(0.0)
    return out[0], out[1], out[2]


def comment_text(rec: GameRecord) -> str | None:
    """The game comment with the chromosome lines appended (the C value)."""
    lines = [rec.comment] if rec.comment else []
    for color in (BLACK, WHITE):
        chrom = getattr(rec, f"{color}_chromosome")
        if chrom is not None:
            if not chrom or any(c.isspace() for c in chrom):
                raise RecordError(f"{color} chromosome {chrom!r} must be non-empty text without spaces")
            lines.append(f"{color} chromosome: {chrom}")
    return "\n".join(lines) if lines else None


# ------------------------------------------------------------------ writing
def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _prop(name: str, value: object) -> str:
    if isinstance(value, (list, tuple)):
        if not value:
            raise RecordError(f"property {name} has an empty list of values")
        return name + "".join(f"[{_escape(str(v))}]" for v in value)
    return f"{name}[{_escape(str(value))}]"


def _points(mask: int) -> str:
    return "".join(f"[{square_name(i)}]" for i in range(64) if mask >> i & 1)


def write_sgf(record: GameRecord | Iterable[GameRecord], *, explicit_passes: bool = False) -> str:
    """SGF text of one record, or a collection of several.

    Raises:
        RecordError: if a record does not replay legally or holds a value
            that cannot be written (property names not A-Z).
    """
    if isinstance(record, GameRecord):
        return _write_one(record, explicit_passes)
    return "".join(_write_one(r, explicit_passes) for r in record)


def _write_one(rec: GameRecord, explicit_passes: bool) -> str:
    rec = rec.normalized()          # validates the moves too
    head = ["FF[4]", "GM[2]", "SZ[8]", "CA[UTF-8]"]
    for name, field in _TEXT_FIELDS.items():
        value = getattr(rec, field)
        if value is not None:
            head.append(_prop(name, value))
    ts = rec.time_settings
    wrote_ot = False
    if ts is not None:
        if _NUMBER_RE.fullmatch(ts):
            head.append(_prop("TM", ts))
        else:
            clock = parse_clock(ts)
            if clock is not None and math.isfinite(clock[0]):
                main = clock[0]
                head.append(_prop("TM", int(main) if main == int(main) else main))
            head.append(_prop("OT", ts))
            wrote_ot = True
    if rec.result is not None:
        head.append(_prop("RE", "0" if score_from_result(rec.result) == 0 else rec.result))
    elif "RE" in rec.properties:
        head.append(_prop("RE", rec.properties["RE"]))
    comment = comment_text(rec)
    if comment is not None:
        head.append(_prop("C", comment))
    for name, value in rec.properties.items():
        if name == "RE" or (name == "OT" and wrote_ot):
            continue
        if not isinstance(name, str) or not re.fullmatch(r"[A-Z]+", name) or name in _HANDLED:
            raise RecordError(f"property {name!r} cannot be written to SGF (not A-Z, or kept in a field)")
        head.append(_prop(name, value))
    setup = []
    if rec.black:
        setup.append("AB" + _points(rec.black))
    if rec.white:
        setup.append("AW" + _points(rec.white))
    if not rec.black and not rec.white:
        setup.append("AE" + _points(START_BLACK | START_WHITE))
    setup.append("PL[B]" if rec.side_to_move == BLACK else "PL[W]")
    lines = ["(;" + "".join(head), "".join(setup)]
    side = rec.side_to_move
    nodes = []
    for i, sq in enumerate(rec.moves):
        color = "B" if side == BLACK else "W"
        side = opponent(side)
        if sq == PASS and not explicit_passes and i not in rec.move_comments:
            continue
        node = f";{color}[{'' if sq == PASS else square_name(sq)}]"
        if i in rec.move_comments:
            node += _prop("C", rec.move_comments[i])
        nodes.append(node)
    for k in range(0, len(nodes), 10):
        lines.append("".join(nodes[k:k + 10]))
    return "\n".join(lines) + ")\n"
