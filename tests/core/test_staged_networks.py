"""Staged networks (issue 29, part 1): a set of LUTs per game stage, valued
in discs for the side to move. The typed value against a plain Python sum
of the stage's LUTs, the stage rule, the side-to-move view in the searches,
names and files; S = 1 stays today's network."""

import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import Board
from genethello.core.engine.game import Engine, play_game
from genethello.core.engine.search import minimax
from genethello.core.evaluation.evaluation import EVAL_LIMIT
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple import stage_of_move
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.network_family import NETWORKS, NetworkError, NetworkIndividual, network_payload
from genethello.core.families.network_files import (
    NetworkFileError,
    network_document,
    network_file_text,
    parse_network_file,
)
from genethello.core.families.networks import DISC_UNITS, Network, quantize, weights_digest
from genethello.core.play.openings import distinct_openings
from tests.ntuple_reference import reference_value
from tests.strategies import positions


def staged_network(name: str, stages: int, seed: int, whole: int = 0, sigma: float = 3.0) -> Network:
    """A staged network with N(0, sigma²) weights in discs."""
    arch = architecture(name)
    weights = np.random.default_rng(seed).normal(0.0, sigma, stages * arch.n_weights)
    return Network(arch, weights, stages, whole)


def python_stage(discs: int, stages: int) -> int:
    """The stage rule written out: S equal spans of move numbers 0..60."""
    n = min(60, max(0, discs - 4))
    return min(n * stages // 60, stages - 1)


def to_move_value(network: Network, to_move: int, other: int) -> int:
    """The plain sum, in 1/64 disc, of the stage's LUTs (quantized, side to
    move = digit 1) for the side owning ``to_move``."""
    arch = network.architecture
    stage = python_stage(bin(to_move | other).count("1"), network.stages)
    q = network.int_weights[stage * arch.n_weights:(stage + 1) * arch.n_weights]
    return reference_value(arch, q, to_move, other)


def mover_value(network: Network, mover: int, other: int) -> int:
    """What a search's leaf gets for the player who just moved (``mover``):
    minus the side to move's value, whole discs times the weight for a
    whole-disc network."""
    value = -to_move_value(network, other, mover)
    if network.whole_disc_weight:
        return network.whole_disc_weight * (value // DISC_UNITS)
    return value


# ---------------------------------------------------------------- the values

@settings(max_examples=60)
@given(board=positions(), name=st.sampled_from(("all-1", "all-2", "all-2x2", "all-3")),
       stages=st.sampled_from((2, 3, 8, 30, 61)), whole=st.sampled_from((0, 0, 10)),
       seed=st.integers(0, 2**32 - 1))
def test_staged_value_equals_the_plain_sum_of_its_stage(board, name, stages, whole, seed):
    network = staged_network(name, stages, seed, whole)
    typed = network.evaluator()
    for mover, other in ((board.player, board.opponent), (board.opponent, board.player)):
        assert typed.value(mover, other) == mover_value(network, mover, other)


def test_the_stage_rule_splits_the_game_into_equal_spans():
    assert list(stage_of_move(1)) == [0] * 61
    assert list(stage_of_move(30)) == [min(n // 2, 29) for n in range(61)]   # patterns-v2's stages
    assert list(stage_of_move(61)) == list(range(61))
    for s in (2, 5, 12):
        stages = list(stage_of_move(s))
        assert stages == [python_stage(n + 4, s) for n in range(61)]
        assert stages == sorted(stages) and set(stages) == set(range(s))
    with pytest.raises(ValueError, match="1..61 stages"):
        stage_of_move(62)


def test_weights_are_discs_for_the_side_to_move():
    """One tuple, one weight: a disc of mine on a1 worth +1.5 discs to the
    side to move, in every stage. The searches' leaf (the mover's view)
    is then minus that, in 1/64 disc."""
    arch = architecture("all-1")
    weights = np.zeros(2 * arch.n_weights)
    corner = arch.tuples.index((0,))
    for stage in range(2):
        weights[stage * arch.n_weights + 3 * corner + 1] = 1.5 * (stage + 1)
    network = Network(arch, weights, 2)
    typed = network.evaluator()
    to_move, other = 1 << 0, 1 << 27                    # a1 is the side to move's
    assert network.int_weights[3 * corner + 1] == 96   # 1.5 discs = 96 / 64
    assert typed.value(other, to_move) == -96           # the mover (other) loses what the side to move has
    assert typed.value(to_move, other) == 0             # digit 2 on a1 weighs 0
    late = (1 << 40) - 1, 1 << 63                       # 41 discs: stage 1 of 2, where a corner is worth 3 discs
    assert typed.value(late[1], late[0]) == -2 * 192    # the side to move holds a1 and h1


@settings(max_examples=30)
@given(board=positions(), seed=st.integers(0, 2**32 - 1))
def test_a_search_values_a_position_for_the_side_to_move(board, seed):
    """minimax at depth 1 equals the plain negamax over the side to move's
    plain sums (clamped as any evaluation)."""
    network = staged_network("all-2", 8, seed, sigma=0.3)
    if board.is_game_over() or board.must_pass():
        return
    expected = None
    for move in board.legal_moves():
        board.play(move)
        try:
            if board.is_game_over():
                value = None
            else:
                value = max(-EVAL_LIMIT, min(EVAL_LIMIT, -to_move_value(network, board.player, board.opponent)))
        finally:
            board.undo()
        if value is None:
            return                                       # a finished game: valued by its margin, not the network
        expected = value if expected is None else max(expected, value)
    assert minimax(board, NetworkEvaluator(network), 1) == expected


def test_one_stage_is_todays_network():
    arch = architecture("all-2")
    weights = np.random.default_rng(4).normal(0.0, 1.0, arch.n_weights)
    network = Network(arch, weights)
    assert network.stages == 1 and not network.staged
    assert np.array_equal(network.int_weights, quantize(arch, weights))
    assert network.digest() == weights_digest(arch, quantize(arch, weights))
    assert NETWORKS.parse_kind("all-2").name == "all-2" and NETWORKS.parse_kind("all-2").stages == 1
    with pytest.raises(ValueError, match="0 unless staged"):
        Network(arch, weights, 1, 10)


# ------------------------------------------------------------ names and files

def test_staged_kinds_are_named_by_their_stages():
    kind = NETWORKS.parse_kind("all-2-s8")
    assert (kind.architecture.name, kind.stages, kind.whole_disc_weight, kind.n_weights) == ("all-2", 8, 0, 8 * 288)
    assert NETWORKS.parse_kind("patterns-v2-s30-w10").name == "patterns-v2-s30-w10"
    for bad in ("all-9-s3", "patterns-v2"):
        assert not NETWORKS.owns_kind(bad)
    for bad in ("all-2-s1", "all-2-s62", "all-2-s8-w0"):     # the family's, refused in words about stages, weights
        assert NETWORKS.owns_kind(bad)
        with pytest.raises(NetworkError, match="a staged network"):
            NETWORKS.parse_kind(bad)
    individual = NETWORKS.random_individual(kind, 3, np.random.default_rng(1))
    assert str(individual).startswith("all-2-s8_3_")
    again = NETWORKS.parse(str(individual), network_payload(individual.network))
    assert again == individual and again.network.stages == 8
    # the stages are part of the identity: the same weights as another kind are another network
    other = NetworkIndividual(NETWORKS.parse_kind("all-2-s8-w3"), 3,
                              Network(kind.architecture, individual.network.weights, 8, 3))
    assert other.digest != individual.digest


@pytest.mark.parametrize("name, stages", [("all-2", 4), ("all-4+2x2", 61)])
def test_staged_files_read_back_equal(name, stages):
    individual = NETWORKS.random_individual(NETWORKS.parse_kind(f"{name}-s{stages}"), 2, np.random.default_rng(7))
    text = network_file_text(individual)
    doc = json.loads(text)
    assert (doc["version"], doc["stages"], doc["architecture"]) == (2, stages, name)
    assert ("packed_weights" in doc) == (individual.type.n_weights > 100_000)
    again = parse_network_file(text, "net.json")
    assert again == individual and again.network.stages == stages
    if "packed_weights" in doc:     # a packed file holds the integers played: the same network, the same name
        assert np.array_equal(again.network.weights, individual.network.int_weights / 64.0)
    else:
        assert np.array_equal(again.network.weights, individual.network.weights)


def test_packed_files_hold_the_integers_played():
    arch = architecture("all-4+2x2")
    q = np.random.default_rng(3).integers(-500, 500, 61 * arch.n_weights)
    individual = NetworkIndividual(NETWORKS.parse_kind("all-4+2x2-s61-w2"), 0, Network(arch, q / 64.0, 61, 2))
    doc = network_document(individual)
    assert doc["packed_weights"]["encoding"] == "int32-zlib-base64"
    again = parse_network_file(json.dumps(doc), "net.json")
    assert again == individual and np.array_equal(again.network.weights, q / 64.0)
    broken = dict(doc, packed_weights=dict(doc["packed_weights"], data="***"))
    with pytest.raises(NetworkFileError, match="data is not base64"):
        parse_network_file(json.dumps(broken), "net.json")
    with pytest.raises(NetworkFileError, match="valued in"):
        parse_network_file(json.dumps(dict(doc, value="centidiscs")), "net.json")


# ------------------------------------------------------------------ in games

def test_a_staged_network_plays_whole_games_and_pickles():
    one, two = staged_network("all-2", 8, 1, sigma=0.5), staged_network("all-2", 8, 2, sigma=0.5)
    a, b = NetworkEvaluator(one), NetworkEvaluator(two)
    opening = distinct_openings(1, 4, "staged")[0]
    result = play_game(Engine(a, depth=3, exact_empties=6), Engine(b, depth=3, exact_empties=6), opening)
    board = Board.from_moves(list(result.moves))
    assert board.is_game_over() and board.final_score() == result.score
    copy = pickle.loads(pickle.dumps(a))
    board = Board.from_moves("f5d6c3d3c4")
    assert copy.ntuple.value(board.player, board.opponent) == a.ntuple.value(board.player, board.opponent)
    assert copy.network.digest() == one.digest()


@pytest.mark.parametrize("name, said", [
    ("all-2-s0", "2..61 stages"), ("all-2-s62", "2..61 stages"), ("all-2-s08", "2..61 stages"),
    ("all-2-s", "2..61 stages"), ("all-2-s8-w0", "whole-disc weight (-wK) is 1..64"),
    ("all-2-s8-w-1", "whole-disc weight (-wK) is 1..64"), ("all-2-s8-w2147483648", "whole-disc weight (-wK) is 1..64"),
    ("all-4+2x2-s8-w" + "9" * 5000, "whole-disc weight (-wK) is 1..64"),
])
def test_a_staged_kind_out_of_range_is_refused_in_words_about_stages_and_weights(name, said):
    """Issue 37 §5, §9: not GeneThello's "unknown letter(s)", and no
    OverflowError from the evaluator for a weight beyond int32."""
    from genethello.core.families.registry import parse_kind

    with pytest.raises(ValueError) as caught:
        parse_kind(name)
    message = str(caught.value)
    assert said in message and "letter" not in message and len(message) < 250, message


def test_a_network_file_with_a_whole_disc_weight_beyond_int32_is_one_line():
    from genethello.core.families.networks import Network

    kind = NETWORKS.parse_kind("all-1-s2")
    doc = network_document(NetworkIndividual(kind, 1, Network(kind.architecture, np.zeros(kind.n_weights), 2, 0)))
    doc["whole_disc_weight"] = 2 ** 31
    with pytest.raises(NetworkFileError, match=r"whole-disc weight \(-wK\) is 1\.\.64"):
        parse_network_file(json.dumps(doc), "net.json")
