"""The chromosome-family interface, and GeneThello's chromosomes as its first family."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given

from genethello.core.engine.board import Board
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.families.chromosome import (
    GENETHELLO,
    Chromosome,
    ChromosomeError,
    ChromosomeType,
    random_chromosome,
)
from genethello.core.families.registry import (
    DEFAULT_FAMILY,
    FAMILIES,
    Individual,
    Kind,
    StoredIndividual,
    evaluator_of,
    family_named,
    family_of,
    family_of_kind,
    family_of_text,
    parse_individual,
    parse_kind,
)

from .test_chromosome import chromosomes

BEST = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"


def test_family_names_are_unique_and_genethello_is_the_default():
    assert len({f.name for f in FAMILIES}) == len(FAMILIES)
    assert DEFAULT_FAMILY is GENETHELLO and family_named("genethello") is GENETHELLO
    with pytest.raises(ValueError, match="no chromosome family named 'networks' .known: genethello"):
        family_named("networks")


@given(chromosomes())
def test_a_genethello_chromosome_is_found_parsed_and_written_through_its_family(chrom: Chromosome):
    text = str(chrom)
    assert family_of_text(text) is family_of(chrom) is family_of_kind(chrom.type.name) is GENETHELLO
    assert isinstance(chrom, Individual) and isinstance(chrom.type, Kind)
    assert parse_individual(text) == chrom == GENETHELLO.parse(text, GENETHELLO.storage(chrom).payload)
    assert GENETHELLO.text(chrom) == text
    assert parse_kind(chrom.type.name) == chrom.type


def test_genethello_kinds_say_their_family_population_and_pattern_use():
    oe_fmc, p = parse_kind("oe_fmc"), parse_kind("p")
    assert isinstance(oe_fmc, ChromosomeType) and oe_fmc.family == p.family == "genethello"
    assert oe_fmc.default_population_size == oe_fmc.bit_length == 11 * 32
    assert not oe_fmc.uses_pattern_table and p.uses_pattern_table


def test_genethello_stores_its_columns_and_no_payload():
    chrom = Chromosome.parse(BEST)
    assert GENETHELLO.storage(chrom) == StoredIndividual("oe_fmc", 1, "14:49:3:2:2:3:3:9:1:10:3", None)
    with pytest.raises(ChromosomeError, match="no stored payload"):
        GENETHELLO.parse(BEST, b"\x00")


def test_a_random_individual_is_genethellos_random_chromosome():
    kind = parse_kind("oe_fdmxcp")
    assert GENETHELLO.random_individual(kind, 4, np.random.default_rng(7)) == random_chromosome(
        kind, 4, np.random.default_rng(7))


def test_the_familys_evaluator_is_the_chromosomes_evaluator():
    chrom = Chromosome.parse(BEST)
    ev = evaluator_of(chrom)
    assert isinstance(ev, Evaluator) and ev.chromosome == chrom
    plain = Evaluator.from_chromosome(chrom)
    board = Board()
    assert [ev.evaluate_move(board, m) for m in board.legal_moves()] == [
        plain.evaluate_move(board, m) for m in board.legal_moves()]


@pytest.mark.parametrize("text, fragment", [
    ("fmq_1_1:2:3", "type 'fmq': unknown letter(s) 'q'"),
    ("all-9_1_abc", "type 'all-9'"),
    ("fmc", "TYPE_BIRTH_GENES"),
    ("fmc_1_1:2:11", "gene 2 (wc): 11 is outside 0..10"),
])
def test_a_text_no_family_owns_gets_genethellos_message(text: str, fragment: str):
    """A kind no family owns goes to the default family, whose parser names
    what is wrong, exactly as before families existed."""
    with pytest.raises(ValueError) as info:
        parse_individual(text)
    assert fragment in str(info.value) and repr(text) in str(info.value)
    with pytest.raises(ChromosomeError) as plain:
        Chromosome.parse(text)
    assert str(info.value) == str(plain.value)


def test_non_text_is_a_type_error():
    with pytest.raises(TypeError):
        parse_individual(12)  # type: ignore[arg-type]
