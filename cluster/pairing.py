"""Who plays whom, in what order, and from which opening.

A generation is a double round robin: every player meets every other once
as black and once as white. The schedule has one canonical order, which the
coordinator uses to sort results before rating them, and every game's
opening seed is a function of the run seed, the generation and the two
players' positions alone, so a game is the same game whichever worker
plays it and whenever.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

import numpy as np

Player = TypeVar("Player", bound=Hashable)
T = TypeVar("T")


def round_robin_pairs(players: Sequence[Player]) -> list[tuple[Player, Player]]:
    """Every ordered pair ``(black, white)`` of distinct players, once.

    Canonical order: for each player ``i`` in the given order, for each
    player ``j`` in the given order with ``j != i``, the game ``(i, j)``.
    That is row by row of the P×P table without its diagonal, so the game
    ``(players[b], players[w])`` sits at position ``b * (P - 1) + w - (w > b)``.

    Args:
        players: distinct, hashable player ids.

    Returns:
        P·(P−1) pairs; each pair of players meets twice, once per colour.

    Raises:
        ValueError: if a player appears more than once.
    """
    if len(set(players)) != len(players):
        raise ValueError("players contains duplicates; each player must appear once")
    return [(black, white) for b, black in enumerate(players) for w, white in enumerate(players) if b != w]


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
    sequence = np.random.SeedSequence(
        entropy=int(run_seed), spawn_key=(int(generation), int(black_index), int(white_index))
    )
    return int(sequence.generate_state(1, dtype=np.uint64)[0])
