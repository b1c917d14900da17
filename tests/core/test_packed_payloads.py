"""A large network's weights are stored packed (a pattern-table network:
40 MB of float64, a few MB packed), read back exactly, and a payload that
is not what it says is refused in one line, without unpacking more than
the network holds."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from genethello.core.families.individual_names import resolve_individual
from genethello.core.families.network_family import (
    NETWORKS,
    PACK_PAYLOAD_ABOVE,
    PACKED_PAYLOAD_MAGIC,
    NetworkError,
    network_payload,
    weights_from_payload,
)
from genethello.core.families.networks import Network, pattern_table_network
from genethello.core.families.registry import family_of, parse_individual


def test_a_large_network_is_stored_packed_and_reads_back_exactly():
    net = pattern_table_network()
    payload = network_payload(net)
    assert payload.startswith(PACKED_PAYLOAD_MAGIC) and len(payload) < net.weights.size * 8 / 10
    kind = NETWORKS.parse_kind("patterns-v2-s30-w10")
    assert np.array_equal(weights_from_payload(kind, payload, "x"), net.weights)
    individual = resolve_individual("patterns-v2-net")
    stored = family_of(individual).storage(individual)
    assert parse_individual(str(individual), stored.payload) == individual


def test_a_payload_packed_as_before_run_length_packing_reads_the_same():
    """Payloads stored before packing used zlib's run-length strategy (the
    default strategy at level 1) read back to the same network."""
    individual = resolve_individual("patterns-v2-net")
    raw = np.ascontiguousarray(individual.network.weights, dtype="<f8").tobytes()
    earlier = PACKED_PAYLOAD_MAGIC + zlib.compress(raw, 1)
    assert earlier != family_of(individual).storage(individual).payload
    assert parse_individual(str(individual), earlier) == individual


def test_a_small_network_and_an_unpacked_large_one_read_as_before():
    kind = NETWORKS.parse_kind("all-2-s8")
    net = Network.random(kind.architecture, np.random.default_rng(1), stages=8)
    assert net.weights.size <= PACK_PAYLOAD_ABOVE and network_payload(net) == net.weights.astype("<f8").tobytes()
    large = pattern_table_network()        # a database written before packing holds the raw bytes
    raw = large.weights.astype("<f8").tobytes()
    assert np.array_equal(weights_from_payload(NETWORKS.parse_kind("patterns-v2-s30-w10"), raw, "x"), large.weights)


@pytest.mark.parametrize("body, said", [
    (b"not zlib at all", "is not a zlib stream"),
    (zlib.compress(b"\0" * 800), "unpacks to 800 bytes"),
    (zlib.compress(b"\0" * (8 * 167_265 * 30 + 8)), "more than"),        # one weight too many
    (zlib.compress(b"\0" * 10_000)[:-8], "ends early"),                    # cut short
])
def test_a_bad_packed_payload_is_one_line(body, said):
    kind = NETWORKS.parse_kind("patterns-v2-s30-w10")
    with pytest.raises(NetworkError) as caught:
        weights_from_payload(kind, PACKED_PAYLOAD_MAGIC + body, "patterns-v2-s30-w10_1_000000000000")
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_packed_bomb_unpacks_no_more_than_the_network_holds():
    kind = NETWORKS.parse_kind("patterns-v2-s30-w10")
    bomb = zlib.compress(b"\0" * (1 << 30), 9)        # 1 GiB of zeros in about a MB
    with pytest.raises(NetworkError, match="more than"):
        weights_from_payload(kind, PACKED_PAYLOAD_MAGIC + bomb, "x")
