"""One search per core: pondering gives way first, then requests get a 429."""

from __future__ import annotations

import pytest

from genethello.cluster.web.errors import BusyError
from genethello.cluster.web.search_pool import HINT, MOVE, PONDER, SearchPool


def test_a_move_takes_the_oldest_pondering_slot():
    pool = SearchPool(2)
    dropped = []
    first = pool.acquire(PONDER, "a", preempt=lambda: dropped.append("a"))
    pool.acquire(PONDER, "b", preempt=lambda: dropped.append("b"))
    move = pool.acquire(MOVE, "c")
    assert dropped == ["a"] and pool.busy == 2
    assert first not in pool.held() and move in pool.held()
    pool.shutdown()


def test_full_of_searches_means_busy():
    pool = SearchPool(1)
    slot = pool.acquire(MOVE, "a")
    with pytest.raises(BusyError, match="busy"):
        pool.acquire(HINT, "b")
    with pytest.raises(BusyError):
        pool.acquire(PONDER, "b")
    pool.release(slot)
    pool.release(slot)                        # twice is harmless
    assert pool.acquire(HINT, "b") in pool.held()
    pool.shutdown()


def test_pondering_becomes_the_moves_search_unless_dropped():
    pool = SearchPool(1)
    ponder = pool.acquire(PONDER, "a", preempt=lambda: None)
    assert pool.promote(ponder, MOVE) and ponder.kind == MOVE and ponder.preempt is None
    with pytest.raises(BusyError):            # a move is never preempted
        pool.acquire(MOVE, "b")
    pool.release(ponder)
    ponder = pool.acquire(PONDER, "a", preempt=lambda: None)
    pool.acquire(MOVE, "b")
    assert not pool.promote(ponder, MOVE)
    pool.shutdown()
