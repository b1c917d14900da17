"""Openings for measured series: distinct positions drawn without
replacement, so that no game of a series is another game played again.

At a fixed depth the engine is deterministic: two games from the same
position with the same colours are one game counted twice, and an interval
computed as if they were independent claims more than the games show. The
same holds for positions that are mirror images of each other: every
evaluator here is symmetric, so the games from them are mirror images too.
A series (a match, a yardstick opponent, a hall entrant against one member)
therefore plays each of its openings once with each colour, and draws its
openings from an *opening set*:

``distinct-N``
    every position reachable in N plies from the start, one per class of
    the board's 8 symmetries (1,773 classes at 6 plies, 10,649 at 7; only
    60 at 4 plies, where 193 draws with replacement, a yardstick series,
    reach about 55 of them). A series is the prefix of a seeded shuffle of the set, so
    its first openings do not depend on its length and it never repeats a
    position. Above :data:`ENUMERATED_PLIES` the set is too large to list;
    its openings are seeded random walks, each kept only if its position's
    class is new to the series.

Runs made before these sets record ``random`` (each game's opening a seeded
random walk, drawn with replacement) and keep it, so that they resume to the
same games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from genethello.core.engine.board import Board
from genethello.core.engine.game import random_opening
from genethello.core.engine.squares import PASS
from genethello.core.frontend.errors import UserError
from genethello.core.play.seeds import derive_seed

__all__ = ["DEFAULT_SET", "ENUMERATED_PLIES", "RANDOM_WITH_REPLACEMENT", "BadOpeningSetError", "OpeningSet",
           "TooFewOpeningsError", "canonical_key", "distinct_openings", "opening_set"]

ENUMERATED_PLIES = 7
"""The deepest set that is listed whole (10,649 classes, a tenth of a
second to list once per process)."""

DEFAULT_SET = "distinct-6"
"""The set new runs measure with: 1,773 openings, enough for the hall's 270
pairs and the yardstick's 193 with room to spare, and shallow enough that the
openings stay close to real play."""

RANDOM_WITH_REPLACEMENT = "random"
"""The name runs made before opening sets record: every game's opening drawn
on its own, with replacement."""

ATTEMPTS_PER_OPENING = 50
"""Random walks allowed per opening wanted, above :data:`ENUMERATED_PLIES`,
before giving up."""

_PREFIX = "distinct-"


class TooFewOpeningsError(UserError):
    """More distinct openings were asked for than a set holds."""


class BadOpeningSetError(UserError):
    """An opening set name that is not ``distinct-N`` (or ``random``)."""


def _flip_vertical(x: int) -> int:
    return int.from_bytes(x.to_bytes(8, "little"), "big")


def _mirror_horizontal(x: int) -> int:
    k1, k2, k4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F
    x = ((x >> 1) & k1) | ((x & k1) << 1)
    x = ((x >> 2) & k2) | ((x & k2) << 2)
    return ((x >> 4) & k4) | ((x & k4) << 4)


def _flip_diagonal(x: int) -> int:
    """Transpose about the a1-h8 diagonal (rows <-> columns)."""
    mask = 0xFFFFFFFFFFFFFFFF
    k1, k2, k4 = 0x5500550055005500, 0x3333000033330000, 0x0F0F0F0F00000000
    t = k4 & (x ^ (x << 28))
    x ^= t ^ (t >> 28)
    t = k2 & (x ^ (x << 14))
    x ^= t ^ (t >> 14)
    t = k1 & (x ^ (x << 7))
    x ^= t ^ (t >> 7)
    return x & mask


def _images(x: int) -> list[int]:
    """``x`` under the 8 symmetries, in a fixed order (the same order for
    every bitboard, so images of two bitboards pair up)."""
    out = []
    for diagonal in (x, _flip_diagonal(x)):
        for vertical in (diagonal, _flip_vertical(diagonal)):
            out.append(vertical)
            out.append(_mirror_horizontal(vertical))
    return out


def canonical_key(board: Board) -> tuple[int, int, str]:
    """The same for a position and its 7 mirror images (and nothing else):
    the least (black, white) bitboard pair over the 8 symmetries, and the
    side to move."""
    pairs = zip(_images(board.black), _images(board.white), strict=True)
    black, white = min(pairs)
    return black, white, board.side_to_move


def _play(board: Board, move: int) -> Board:
    child = board.copy()
    child.play(move)
    return child


@cache
def _enumerated(plies: int) -> tuple[tuple[int, ...], ...]:
    """One move sequence per symmetry class of the positions ``plies`` plies
    from the start (passes count as plies), in the order of the classes'
    canonical keys; each class's sequence is the first found breadth-first
    with moves in square order."""
    level: dict[tuple[int, int, str], tuple[tuple[int, ...], Board]] = {canonical_key(Board()): ((), Board())}
    for _ in range(plies):
        following: dict[tuple[int, int, str], tuple[tuple[int, ...], Board]] = {}
        for moves, board in level.values():
            if board.is_game_over():
                continue
            for move in ([PASS] if board.must_pass() else board.legal_moves()):
                child = _play(board, move)
                following.setdefault(canonical_key(child), (moves + (move,), child))
        level = following
    return tuple(level[key][0] for key in sorted(level))


@dataclass(frozen=True)
class OpeningSet:
    """``distinct-N``: the positions N plies from the start, one per
    symmetry class."""

    plies: int

    @property
    def name(self) -> str:
        return f"{_PREFIX}{self.plies}"

    @property
    def size(self) -> int | None:
        """How many openings the set holds, or None above
        :data:`ENUMERATED_PLIES` (where it is not listed)."""
        return len(_enumerated(self.plies)) if self.plies <= ENUMERATED_PLIES else None

    def series(self, seed: int | str, count: int) -> list[list[int]]:
        """``count`` openings of a series, no two in the same symmetry class:
        the first ``count`` of the set shuffled by ``seed`` (Python's
        Mersenne Twister, the same on every machine). Its first openings do
        not depend on ``count``.

        Raises:
            TooFewOpeningsError: if the set holds fewer than ``count``.
        """
        if self.plies > ENUMERATED_PLIES:
            return _sampled_series(self.plies, seed, count)
        listed = _enumerated(self.plies)
        if count > len(listed):
            raise TooFewOpeningsError(f"{count} openings were asked of {self.name}, which holds {len(listed)}")
        order = list(range(len(listed)))
        random.Random(derive_seed(seed, "openings")).shuffle(order)
        return [list(listed[i]) for i in order[:count]]


def _sampled_series(plies: int, seed: int | str, count: int) -> list[list[int]]:
    """A series from a set too large to list: opening *i* is the first walk
    seeded ``{seed}/{i}``, ``{seed}/{i}/1``, ... whose position is of a
    class new to the series."""
    seen: set[tuple[int, int, str]] = set()
    openings: list[list[int]] = []
    for i in range(count):
        for attempt in range(ATTEMPTS_PER_OPENING):
            moves = random_opening(plies, derive_seed(seed, "sampled-opening", i, *([attempt] if attempt else [])))
            key = canonical_key(Board.from_moves(moves))
            if key not in seen:
                seen.add(key)
                openings.append(moves)
                break
        else:
            raise TooFewOpeningsError(f"{count} openings were asked of {_PREFIX}{plies}; "
                                      f"only {len(openings)} distinct ones were found")
    return openings


MAX_PLIES = 20
"""The deepest opening set a name may ask for."""


def opening_set(name: str) -> OpeningSet:
    """The set ``distinct-N`` names (0 <= N <= :data:`MAX_PLIES`).

    Raises:
        BadOpeningSetError: for any other name, in one line.
    """
    number = name[len(_PREFIX):] if name.startswith(_PREFIX) else ""
    # isascii: isdigit alone takes '²', which int() refuses; len: a stored
    # name of 5,000 digits is beyond what int() reads.
    if not (number.isascii() and number.isdigit()) or len(number) > 2 or not 0 <= int(number) <= MAX_PLIES:
        raise BadOpeningSetError(f"unknown opening set {name!r}: use distinct-N, N in 0..{MAX_PLIES} "
                                 f"(positions N plies deep, one per symmetry class; e.g. {DEFAULT_SET})")
    return OpeningSet(int(number))


def distinct_openings(count: int, plies: int, seed: int | str) -> list[list[int]]:
    """``count`` openings of ``distinct-{plies}`` for the series ``seed``
    (:meth:`OpeningSet.series`): what ``match``, ``selfplay`` and the SPRT
    draw with ``--random-plies``.

    Raises:
        TooFewOpeningsError: if the set holds fewer than ``count``.
    """
    return OpeningSet(plies).series(seed, count)
