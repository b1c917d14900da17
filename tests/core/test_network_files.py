"""Network files and the one way players are named: exact round trips,
one-line refusals, a name that does not match its weights, and the
resolver's order (database id, typed path, shipped name, chromosome text)."""

import json

import numpy as np
import pytest

from genethello.core.families.chromosome import Chromosome
from genethello.core.families.individual_names import resolve_individual, shipped_networks
from genethello.core.families.network_family import NETWORKS, network_payload
from genethello.core.families.network_files import (
    MAX_FILE_BYTES,
    NetworkFileError,
    network_document,
    network_file_text,
    parse_network_file,
    read_network_file,
    write_network_file,
)


def random_individual(arch: str = "all-2", seed: int = 1, birth: int = 4):
    return NETWORKS.random_individual(NETWORKS.parse_kind(arch), birth, np.random.default_rng(seed))


@pytest.mark.parametrize("arch", ["all-1", "all-2", "all-2x2"])
def test_a_file_reads_back_the_same_float64_weights(tmp_path, arch):
    individual = random_individual(arch)
    path = tmp_path / "n.json"
    write_network_file(individual, path)
    back = read_network_file(path)
    assert back == individual and str(back) == str(individual)
    assert network_payload(back.network) == network_payload(individual.network)   # bit for bit
    doc = json.loads(path.read_text())
    assert (doc["format"], doc["version"], doc["architecture"]) == ("genethello-network", 1, arch)


def bad(individual, **changes):
    doc = network_document(individual)
    doc.update(changes)
    return json.dumps(doc)


@pytest.mark.parametrize("change, message", [
    (lambda ind: "{", "not JSON"),
    (lambda ind: "[1, 2]", "not a network file"),
    (lambda ind: bad(ind, version=2), "version 2"),
    (lambda ind: bad(ind, weights=[0.0] * 3), "288 weights, the file 3"),
    (lambda ind: bad(ind, weights=[0.5] * 287 + ["x"]), "weight 287"),
    (lambda ind: bad(ind, tuples="a1 b1\n"), "tuples"),
    (lambda ind: bad(ind, architecture="all-9"), "not a network architecture"),
    (lambda ind: bad(ind, name=None), '"name"'),
    (lambda ind: bad(ind, name="p_1_10"), "not the name of a network of architecture all-2"),
])
def test_bad_files_are_refused_in_one_line(change, message):
    with pytest.raises(NetworkFileError, match=message) as info:
        parse_network_file(change(random_individual()), "net.json")
    assert "\n" not in str(info.value) and str(info.value).startswith("net.json: ")


def test_a_file_cannot_claim_another_networks_name():
    one, other = random_individual(seed=1), random_individual(seed=2)
    claimed = bad(other, name=str(one))
    with pytest.raises(NetworkFileError, match="belong to another network"):
        parse_network_file(claimed, "net.json")
    # scaling all weights keeps the quantized network, so keeps its name
    scaled = bad(one, weights=[2.0 * w for w in one.network.weights])
    assert str(parse_network_file(scaled, "net.json")) == str(one)


def test_read_limits_and_unreadable_files(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(NetworkFileError, match="more than the 16.0 MiB it may hold"):
        read_network_file(big)
    with pytest.raises(NetworkFileError, match="cannot read network file"):
        read_network_file(tmp_path / "missing.json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe")
    with pytest.raises(NetworkFileError, match="not UTF-8"):
        read_network_file(binary)


def test_the_resolver_order(tmp_path):
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    league = random_individual(seed=3)
    write_network_file(league, shipped / "league-best.json")
    assert list(shipped_networks(shipped)) == ["league-best"]
    # a shipped network by its file's stem or by its text
    assert resolve_individual("league-best", shipped=shipped) == league
    assert resolve_individual(str(league), shipped=shipped) == league
    # a typed path (holding a / or ending in .json)
    other = random_individual(seed=4)
    write_network_file(other, tmp_path / "mine.json")
    assert resolve_individual(str(tmp_path / "mine.json"), shipped=shipped) == other
    # a chromosome text
    assert resolve_individual("p_1_10", shipped=shipped) == Chromosome.parse("p_1_10")
    # a network text nobody ships needs its weights
    with pytest.raises(ValueError, match="weights are not in its text"):
        resolve_individual(str(other), shipped=shipped)
    # database ids and network texts go to the lookup, with --db only
    asked = []

    def lookup(db, key):
        asked.append((db, key))
        return str(other), network_payload(other.network)

    with pytest.raises(ValueError, match="give --db"):
        resolve_individual("12", shipped=shipped, lookup=lookup)
    assert resolve_individual("12", db="runs.db", lookup=lookup, shipped=shipped) == other
    assert resolve_individual(str(other), db="runs.db", lookup=lookup, shipped=shipped) == other
    assert asked == [("runs.db", 12), ("runs.db", str(other))]
    with pytest.raises(ValueError, match="cluster part"):
        resolve_individual("12", db="runs.db", shipped=shipped)


def test_a_lookup_cannot_pair_a_text_with_other_weights(tmp_path):
    one, other = random_individual(seed=1), random_individual(seed=2)
    with pytest.raises(ValueError, match="belong to another network"):
        resolve_individual("7", db="runs.db", lookup=lambda db, key: (str(one), network_payload(other.network)),
                           shipped=tmp_path)


def test_the_package_ships_only_readable_networks():
    for name, path in shipped_networks().items():
        assert str(read_network_file(path)) and name == path.stem


def test_file_text_is_json_with_one_weight_a_line():
    text = network_file_text(random_individual())
    assert json.loads(text)["name"] == str(random_individual())
    assert len(text.splitlines()) > 288
