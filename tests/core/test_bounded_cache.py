"""The one bounded cache of the worker processes (core/frontend/bounded_cache.py)
and the caches that use it."""

from __future__ import annotations

import pytest

from genethello.cluster.fitness import matches, network_fitness
from genethello.cluster.run import labelling
from genethello.core.families.individual_names import resolve_individual
from genethello.core.families.registry import evaluator_of
from genethello.core.frontend.bounded_cache import BoundedCache


def test_the_cache_holds_at_most_its_limit_dropping_the_least_recently_used():
    cache: BoundedCache[int, str] = BoundedCache(3)
    for key in range(3):
        assert cache.put(key, str(key)) == str(key)
    assert cache.get(0) == "0"                  # 0 is now the most recently used
    cache.put(3, "3")                           # beyond the limit: 1 goes
    assert len(cache) == 3
    assert 1 not in cache and cache.get(1) is None
    assert [cache.get(k) for k in (0, 2, 3)] == ["0", "2", "3"]
    for key in range(100, 200):
        cache.put(key, str(key))
        assert len(cache) <= 3
    assert [k in cache for k in (197, 198, 199)] == [True, True, True]


def test_putting_a_kept_key_replaces_its_value_without_growing():
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 3)                           # replaced, and now the most recent
    cache.put("c", 4)                           # so b goes, not a
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (3, None, 4, 2)
    cache.clear()
    assert len(cache) == 0


def test_a_cache_holds_at_least_one_value():
    with pytest.raises(ValueError, match="at least one"):
        BoundedCache(0)


def test_a_byte_budget_drops_the_least_recently_used_until_the_rest_fit():
    cache: BoundedCache[str, bytes] = BoundedCache(100, max_bytes=10, size_of=len)
    cache.put("a", b"xxxx")
    cache.put("b", b"yyyy")
    cache.get("a")                              # a is now the most recent
    cache.put("c", b"zzzz")                     # 12 bytes: b goes
    assert ("a" in cache, "b" in cache, "c" in cache, cache.nbytes) == (True, False, True, 8)
    cache.put("a", b"w")                        # replaced: its old bytes are no longer counted
    assert cache.nbytes == 5
    cache.put("huge", b"h" * 50)                # the newest is kept whatever it weighs, alone
    assert (len(cache), cache.nbytes, cache.get("huge")) == (1, 50, b"h" * 50)
    cache.clear()
    assert (len(cache), cache.nbytes) == (0, 0)
    with pytest.raises(ValueError, match="byte budget"):
        BoundedCache(4, max_bytes=10)
    with pytest.raises(ValueError, match="byte budget"):
        BoundedCache(4, max_bytes=0, size_of=len)


def test_a_workers_table_sized_evaluators_are_bounded_by_bytes():
    """An evaluator of the 5-million-weight table weighs about 115 MB (its
    LUTs, integers and real weights): the payload cache keeps a
    generation's worth of them, not 256 (which outgrew a 24 GB machine)."""
    evaluator = evaluator_of(resolve_individual("patterns-v2-net"))
    size = evaluator.nbytes
    assert 80 << 20 < size < 200 << 20
    assert 10 <= matches.PAYLOAD_EVALUATOR_BYTES // size <= 25
    small = evaluator_of(resolve_individual("all-2-league"))
    assert small.nbytes < 1 << 20 and evaluator_of(resolve_individual("p_1_10")).nbytes < 1 << 20


def test_the_worker_caches_are_bounded_caches_with_their_limits():
    assert matches._EVALUATORS.limit == 4096
    assert matches._PAYLOAD_EVALUATORS.limit == 256
    assert matches._PAYLOAD_EVALUATORS.max_bytes == matches.PAYLOAD_EVALUATOR_BYTES
    assert network_fitness._EVALUATORS.max_bytes == 2 << 30
    assert matches._SEATS.limit == 64        # two seats a play setting
    assert network_fitness._EVALUATORS.limit == 1024
    assert labelling._LABELLERS.limit == 1    # a labeller for another task replaces the one kept
    assert labelling._SELFPLAY.limit == 8
    assert matches._PLAYERS.limit == 64       # the players' own loop (the yardstick's built-in games)
