"""Who plays whom, in what order, and from which opening.

A generation is a double round robin: every player meets every other once
as black and once as white. The schedule has one canonical order, which the
coordinator uses to sort results before rating them, and every game's
opening seed is a function of the run seed, the generation and the two
players' positions alone, so a game is the same game whichever worker
plays it and whenever.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import TypeVar, overload

import numpy as np

from genethello.core.play.seeds import derive_seed

ContestantT = TypeVar("ContestantT", bound=Hashable)
T = TypeVar("T")


MAX_GAMES_PER_GENERATION = 10_000_000
"""The most games one generation may hold (3162 players): at about a
millisecond a game on depth-1 settings that is hours of a large cluster, and
the per-generation bookkeeping (played pair indices, result rows) stays in the
low gigabytes. The config check refuses larger populations up front."""


def round_robin_games(players: int) -> int:
    """The number of games of a double round robin of ``players`` players."""
    return players * (players - 1) if players > 1 else 0


class RoundRobin(Sequence[tuple[int, int]]):
    """The double round robin of ``players`` slots as a lazy sequence: item
    ``k`` is the ``k``-th game ``(black slot, white slot)`` in the canonical
    order of :func:`round_robin_pairs`, computed from ``k`` alone.

    A generation of P players has P·(P−1) games; holding them as a list of
    tuples costs about 100 bytes a game, and P = 100,000 would ask for a
    terabyte. The schedule is a formula, so nothing is stored.

    Args:
        players: the number of slots P, >= 0.

    Raises:
        ValueError: if ``players`` is not a non-negative int.
    """

    __slots__ = ("players",)

    def __init__(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players < 0:
            raise ValueError(f"players={players!r} must be a non-negative int")
        self.players = int(players)

    def __len__(self) -> int:
        return round_robin_games(self.players)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
        """Game ``index`` as ``(black, white)``: row ``black = index // (P-1)``
        of the P×P table without its diagonal, column ``r = index % (P-1)``,
        shifted past the diagonal (``white = r + (r >= black)``)."""
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"pair index must be an int, not {type(index).__name__}")
        size = len(self)
        position = int(index) + size if index < 0 else int(index)
        if not 0 <= position < size:
            raise IndexError(f"pair index {index} is outside 0..{size - 1} of {self.players} players")
        black, rest = divmod(position, self.players - 1)
        return black, rest + (rest >= black)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for black in range(self.players):
            for white in range(self.players):
                if white != black:
                    yield black, white

    def __contains__(self, pair: object) -> bool:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            return False
        black, white = pair
        return bool(isinstance(black, (int, np.integer)) and isinstance(white, (int, np.integer))
                    and black != white and 0 <= black < self.players and 0 <= white < self.players)

    def pair_index(self, black: int, white: int) -> int:
        """The index of the game ``(black, white)``: ``black·(P−1) + white −
        (white > black)``.

        Raises:
            ValueError: if the slots are equal or outside 0..P−1.
        """
        if (black, white) not in self:
            raise ValueError(f"({black}, {white}) is not a game of a round robin of {self.players} players")
        return int(black) * (self.players - 1) + int(white) - (white > black)

    def __repr__(self) -> str:
        return f"RoundRobin({self.players})"


def round_robin_pairs(players: Sequence[ContestantT]) -> list[tuple[ContestantT, ContestantT]]:
    """Every ordered pair ``(black, white)`` of distinct players, once.

    Canonical order: for each player ``i`` in the given order, for each
    player ``j`` in the given order with ``j != i``, the game ``(i, j)``.
    That is row by row of the P×P table without its diagonal, so the game
    ``(players[b], players[w])`` sits at position ``b * (P - 1) + w - (w > b)``.
    The list holds every game: for a whole generation use the lazy
    :class:`RoundRobin` of the slots instead.

    Args:
        players: distinct, hashable player ids.

    Returns:
        P·(P−1) pairs; each pair of players meets twice, once per colour.

    Raises:
        ValueError: if a player appears more than once.
    """
    if len(set(players)) != len(players):
        raise ValueError("players contains duplicates; each player must appear once")
    return [(players[b], players[w]) for b, w in RoundRobin(len(players))]


def batch(items: Sequence[T], size: int) -> list[list[T]]:
    """Consecutive chunks of ``size`` items, keeping the order; the last
    chunk holds the remainder and may be shorter.

    Args:
        items: e.g. the pairs of :func:`round_robin_pairs`.
        size: items per chunk, at least 1.

    Returns:
        The chunks as new lists; none if ``items`` is empty.

    Raises:
        ValueError: if size < 1.
    """
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise ValueError(f"batch size {size!r} must be an int >= 1")
    return [list(items[start:start + size]) for start in range(0, len(items), size)]


def opening_seed(run_seed: int, generation: int, black_index: int, white_index: int) -> int:
    """The 64-bit seed of one game's opening.

    It is ``SeedSequence(entropy=run_seed, spawn_key=(generation,
    black_index, white_index)).generate_state(1, uint64)[0]``: a function of
    these four numbers alone, so a game's opening never depends on which
    worker plays it, in which batch or when. SeedSequence hashes the entropy
    and the spawn key together, so neighbouring keys give unrelated seeds.
    The indices are the players' positions in the generation's player list
    (as in :func:`round_robin_pairs`), not database ids.

    Args:
        run_seed: the run's seed, >= 0.
        generation: generation number, >= 0.
        black_index: black's position in the player list, >= 0.
        white_index: white's position in the player list, >= 0.

    Returns:
        An int in 0..2**64 - 1.

    Raises:
        ValueError: naming any argument that is not a non-negative int.
    """
    names = ("run_seed", "generation", "black_index", "white_index")
    values = (run_seed, generation, black_index, white_index)
    for name, value in zip(names, values):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"{name}={value!r} must be a non-negative int")
    return derive_seed(run_seed, "game-opening", generation, black_index, white_index)
