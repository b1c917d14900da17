"""n-tuple networks as a chromosome family: texts, payloads, lookup."""

from __future__ import annotations

import numpy as np
import pytest

from genethello.core.evaluation.ntuple_shapes import ARCHITECTURES
from genethello.core.families.network_family import NETWORKS, NetworkError, NetworkIndividual
from genethello.core.families.registry import family_of_text, parse_individual, parse_kind


def individual(seed: int = 0, arch: str = "all-2", birth: int = 3) -> NetworkIndividual:
    return NETWORKS.random_individual(NETWORKS.parse_kind(arch), birth, np.random.default_rng(seed))


def test_a_network_round_trips_through_its_text_and_payload():
    for arch in ("all-2", "all-3"):
        net = individual(arch=arch)
        stored = NETWORKS.storage(net)
        back = parse_individual(str(net), stored.payload)
        assert back == net and str(back) == str(net)
        assert np.array_equal(back.network.weights, net.network.weights)
        assert stored.kind == arch and stored.birth == 3 and stored.genes == net.digest
        assert str(net).startswith(f"{arch}_3_") and len(net.digest) == 12


def test_texts_and_kinds_find_their_family():
    net = individual()
    assert family_of_text(str(net)) is NETWORKS
    assert family_of_text("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3").name == "genethello"
    assert parse_kind("all-2").family == "ntuple" and parse_kind("oe_fmc").family == "genethello"
    assert all("_" not in name for name in ARCHITECTURES)


def test_the_same_seed_gives_the_same_network_and_another_seed_another():
    assert individual(1) == individual(1) and individual(1) != individual(2)


def test_bad_network_texts_and_payloads_are_one_line_errors():
    net = individual()
    payload = NETWORKS.storage(net).payload
    other = NETWORKS.storage(individual(5)).payload
    cases = {
        str(net): (None, "weights are not in its text"),
        str(net) + "x": (payload, "digest"),
        "all-2_x_0123456789ab": (payload, "birth"),
        "all-9_1_0123456789ab": (payload, "not a network architecture"),
    }
    for text, (data, words) in cases.items():
        with pytest.raises(NetworkError, match=words):
            NETWORKS.parse(text, data)
    with pytest.raises(NetworkError, match="belong to another network"):
        NETWORKS.parse(str(net), other)
    with pytest.raises(NetworkError, match="bytes"):
        NETWORKS.parse(str(net), payload[:-8])
    nan = np.frombuffer(payload, "<f8").copy()
    nan[0] = np.nan
    with pytest.raises(NetworkError, match="finite"):
        NETWORKS.parse(str(net), nan.tobytes())
