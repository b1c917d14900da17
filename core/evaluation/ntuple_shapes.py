"""The geometry of n-tuple networks: which squares each n-tuple reads.

An n-tuple is an ordered sequence of distinct board squares; a network has
one lookup table (LUT) of ``3 ** n`` weights per *base* tuple, indexed by
the contents of its squares (0 empty, 1 the side whose value is computed,
2 the other side; the first square is the least significant ternary
digit). Othello's value is unchanged by the 8 symmetries of the board
(4 rotations, 4 reflections), so every base tuple is *expanded*: its 8
images (each square mapped by the same symmetry, in the same order) all
read the same LUT. Images that coincide as ordered sequences are kept once;
images that visit the same squares in another order are distinct (they read
the LUT with the digits permuted), which is what makes the value of a
position equal to that of its 8 transforms.

Named architectures (``architecture(name)``), after Jaśkowski, "Systematic
n-tuple networks for position evaluation: exceeding 90% in the Othello
League" (arXiv:1406.1509, 2014), and Jaśkowski & Szubert, "Coevolutionary
CMA-ES for knowledge-free learning of game position evaluation" (IEEE
TCIAIG 8(4), 2016):

* ``all-N`` (N = 1..4): every *straight* N-tuple, i.e. N consecutive squares
  along a row, a column or a diagonal, one base tuple per class of
  straight tuples equivalent under the symmetries. For ``all-2`` the 210
  adjacent pairs (56 horizontal, 56 vertical, 98 diagonal) fall into 32
  classes (Burnside: (210 + 2 + 8 + 8 + 14 + 14) / 8 = 256 / 8, counting the
  pairs fixed by the identity, the half turn, the two mid-line reflections
  and the two diagonal reflections; the quarter turns fix none), so 32 LUTs
  of 3 ** 2 = 9 weights: the 288 weights Jaśkowski counts.
* ``all-2x2``: every 2×2 square (49 squares, 10 classes).
* ``all-4+2x2``: the straight 4-tuples plus the 2×2 squares, the
  systematic family the Co-CMA-ES paper combines (its exact network was not
  in the material we could read; this is our reading of "straight 4-tuples
  plus 2×2 squares").

The pattern architectures (``PATTERN_ARCHITECTURES``; :func:`architecture`
knows them, ``ARCHITECTURES`` lists the systematic ones):

* ``patterns-v2``: the shapes of the patterns-v2 table (patterns.pxd's
  geometry v2), each in the table's square order: edge+2X (a1..h1 b2 g2),
  corner 3x3, corner 2x5, the rows 2, 3, 4, the long diagonal and the
  diagonals of 7, 6, 5 and 4 squares: 11 base tuples whose images are the
  table's 46 instances (physical tuples), 167,265 weights a stage. The
  patterns-v2 table converts into a staged network of it
  (``pattern_network.py``).

Anything else comes from a tuples file (:func:`parse_tuples_text`): one base
tuple per line, squares by name (``a1`` .. ``h8``) separated by spaces or
commas; ``#`` starts a comment; blank lines are skipped. For example::

    # corners and edges
    a1 b1 c1 d1
    a1 b2 c3
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from genethello.core.engine.squares import COLUMNS, square_name
from genethello.core.frontend.errors import UserError

__all__ = [
    "ARCHITECTURES",
    "MAX_TUPLE_LENGTH",
    "PATTERN_ARCHITECTURES",
    "Architecture",
    "BadTuplesError",
    "architecture",
    "expand",
    "parse_tuples_text",
    "read_tuples_file",
    "straight_tuples",
    "square_tuples",
    "symmetries",
    "transform",
]

#: The longest tuple accepted: a LUT of 3 ** 10 = 59,049 weights.
MAX_TUPLE_LENGTH = 10


class BadTuplesError(UserError):
    """A tuples file or architecture name that cannot be used (one line)."""


def _square(row: int, col: int) -> int:
    return row * 8 + col


def transform(square: int, symmetry: int) -> int:
    """The image of ``square`` under symmetry 0..7: bit 0 mirrors the
    columns (a<->h), bit 1 mirrors the rows (1<->8), bit 2 swaps rows and
    columns (the a1-h8 diagonal); 0 is the identity."""
    row, col = square >> 3, square & 7
    if symmetry & 4:
        row, col = col, row
    if symmetry & 1:
        col = 7 - col
    if symmetry & 2:
        row = 7 - row
    return _square(row, col)


def symmetries() -> range:
    """The 8 symmetries of the board, as the numbers :func:`transform` takes."""
    return range(8)


def straight_tuples(length: int) -> list[tuple[int, ...]]:
    """Every run of ``length`` consecutive squares along a row, a column or
    a diagonal (either direction of diagonal), each once, starting at its
    lowest square."""
    found = []
    for row in range(8):
        for col in range(8):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + d_row * (length - 1), col + d_col * (length - 1)
                if 0 <= end_row < 8 and 0 <= end_col < 8:
                    found.append(tuple(_square(row + d_row * k, col + d_col * k) for k in range(length)))
    if length == 1:
        found = sorted(set(found))
    return found


def square_tuples(side: int) -> list[tuple[int, ...]]:
    """Every ``side`` × ``side`` square of the board, row by row."""
    return [tuple(_square(row + r, col + c) for r in range(side) for c in range(side))
            for row in range(9 - side) for col in range(9 - side)]


def _canonical(squares: Sequence[int]) -> tuple[int, ...]:
    """The representative of a tuple's class: the smallest, in sorted-square
    order, of its 8 images taken as sets (so a tuple and its reverse share a
    class)."""
    return min(tuple(sorted(transform(s, g) for s in squares)) for g in symmetries())


def systematic(tuples: Iterable[Sequence[int]]) -> list[tuple[int, ...]]:
    """One base tuple per symmetry class of ``tuples`` (as sets of squares),
    each the class's smallest sorted image, the classes in sorted order."""
    return sorted({_canonical(t) for t in tuples})


def expand(base: Sequence[int]) -> list[tuple[int, ...]]:
    """The distinct images of ``base`` under the 8 symmetries, as ordered
    sequences, in symmetry order (the identity first)."""
    images: list[tuple[int, ...]] = []
    for g in symmetries():
        image = tuple(transform(s, g) for s in base)
        if image not in images:
            images.append(image)
    return images


@dataclass(frozen=True)
class Architecture:
    """A network's shape: its name and base tuples (the expansion over the
    symmetries follows from them).

    Attributes:
        name: the architecture's name (``all-2``, or ``file:SHA`` style for a file).
        tuples: the base tuples, each an ordered tuple of square indices.
    """

    name: str
    tuples: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if not self.tuples:
            raise BadTuplesError(f"architecture {self.name!r} has no tuples")
        for t in self.tuples:
            check_tuple(t)

    @cached_property
    def lut_sizes(self) -> tuple[int, ...]:
        """``3 ** len(t)`` for each base tuple."""
        return tuple(3 ** len(t) for t in self.tuples)

    @property
    def n_weights(self) -> int:
        """The number of weights: one per LUT entry of every base tuple."""
        return sum(self.lut_sizes)

    @cached_property
    def expanded(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(base index, ordered squares) for every expanded tuple."""
        return tuple((i, image) for i, t in enumerate(self.tuples) for image in expand(t))

    @cached_property
    def multiplicities(self) -> tuple[int, ...]:
        """How many expanded tuples read each base tuple's LUT (1..8)."""
        return tuple(len(expand(t)) for t in self.tuples)

    def text(self) -> str:
        """The base tuples in the tuples-file format (reads back equal)."""
        return "".join(" ".join(square_name(s) for s in t) + "\n" for t in self.tuples)


def check_tuple(squares: Sequence[int]) -> None:
    """Raises BadTuplesError unless ``squares`` is 1..MAX_TUPLE_LENGTH
    distinct squares 0..63."""
    if not 1 <= len(squares) <= MAX_TUPLE_LENGTH:
        raise BadTuplesError(f"a tuple has {len(squares)} squares (1..{MAX_TUPLE_LENGTH} allowed)")
    if any(not (isinstance(s, int) and 0 <= s < 64) for s in squares):
        raise BadTuplesError(f"tuple {tuple(squares)!r} has a square outside 0..63")
    if len(set(squares)) != len(squares):
        raise BadTuplesError(f"tuple {' '.join(square_name(s) for s in squares)} repeats a square")


def _named() -> dict[str, tuple[tuple[int, ...], ...]]:
    shapes = {f"all-{n}": tuple(systematic(straight_tuples(n))) for n in (1, 2, 3, 4)}
    shapes["all-2x2"] = tuple(systematic(square_tuples(2)))
    shapes["all-4+2x2"] = shapes["all-4"] + shapes["all-2x2"]
    return shapes


_NAMED = _named()

#: The systematic architecture names (module docstring).
ARCHITECTURES: tuple[str, ...] = tuple(_NAMED)


def _squares(text: str) -> tuple[int, ...]:
    return tuple(COLUMNS.index(w[0]) + 8 * (int(w[1]) - 1) for w in text.split())


_PATTERN_NAMED: dict[str, tuple[tuple[int, ...], ...]] = {
    "patterns-v2": tuple(_squares(t) for t in (
        "a1 b1 c1 d1 e1 f1 g1 h1 b2 g2",       # edge+2X
        "a1 b1 c1 a2 b2 c2 a3 b3 c3",          # corner 3x3
        "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2",       # corner 2x5
        "a2 b2 c2 d2 e2 f2 g2 h2",             # row 2
        "a3 b3 c3 d3 e3 f3 g3 h3",             # row 3
        "a4 b4 c4 d4 e4 f4 g4 h4",             # row 4
        "a1 b2 c3 d4 e5 f6 g7 h8",             # the long diagonal
        "b1 c2 d3 e4 f5 g6 h7",                # diagonal of 7
        "c1 d2 e3 f4 g5 h6",                   # of 6
        "d1 e2 f3 g4 h5",                      # of 5
        "e1 f2 g3 h4",                         # of 4
    )),
}

#: The pattern tables' shapes as architectures (module docstring).
PATTERN_ARCHITECTURES: tuple[str, ...] = tuple(_PATTERN_NAMED)


def architecture(name: str) -> Architecture:
    """The named architecture (see the module's docstring).

    Raises:
        BadTuplesError: for an unknown name, listing the known ones.
    """
    tuples = _NAMED.get(name) or _PATTERN_NAMED.get(name)
    if tuples is None:
        known = ", ".join(ARCHITECTURES + PATTERN_ARCHITECTURES)
        raise BadTuplesError(f"unknown n-tuple architecture {name!r} (known: {known})")
    return Architecture(name, tuples)


def _parse_square(word: str, where: str) -> int:
    w = word.lower()
    if len(w) == 2 and w[0] in COLUMNS and w[1] in "12345678":
        return COLUMNS.index(w[0]) + 8 * (int(w[1]) - 1)
    raise BadTuplesError(f"{where}: {word!r} is not a square (a1..h8)")


def parse_tuples_text(text: str, name: str, source: str = "tuples") -> Architecture:
    """An architecture from the tuples-file format (module docstring).

    Args:
        name: the architecture's name.
        source: what to call the text in errors (a file name).
    Raises:
        BadTuplesError: one line naming the source, the line and the fault.
    """
    tuples = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].replace(",", " ").split()
        if not words:
            continue
        where = f"{source} line {number}"
        squares = tuple(_parse_square(w, where) for w in words)
        try:
            check_tuple(squares)
        except BadTuplesError as exc:
            raise BadTuplesError(f"{where}: {exc}") from None
        tuples.append(squares)
    if not tuples:
        raise BadTuplesError(f"{source}: no tuples (one tuple a line, squares a1..h8)")
    return Architecture(name, tuple(tuples))


def read_tuples_file(path: str | Path) -> Architecture:
    """The architecture in a tuples file, named ``file:<file name>``.

    Raises:
        BadTuplesError: an unreadable file or bad content, in one line.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadTuplesError(f"cannot read tuples file {str(p)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    return parse_tuples_text(text, f"file:{p.name}", source=str(p))
