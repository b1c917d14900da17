"""Chromosome types, text form, validation and random generation."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core.families.chromosome import (
    FEATURE_NAMES,
    FEATURES,
    Chromosome,
    ChromosomeError,
    ChromosomeType,
    random_chromosome,
)

GENETHELLO_STRINGS = [
    "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3",
    "oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4",
]
KNOWN_TYPES = ["fmc", "dmc", "dmp", "fdmxcp", "fdmxcpr", "oe_fmc", "oe_fdmxcp", "p"]


# --- strategies -------------------------------------------------------------

@st.composite
def chromosome_types(draw) -> ChromosomeType:
    chosen = draw(st.sets(st.sampled_from(FEATURES), min_size=1))
    letters = "".join(ch for ch in FEATURES if ch in chosen)
    phased = draw(st.booleans())
    return ChromosomeType.parse(("oe_" if phased else "") + letters)


@st.composite
def chromosomes(draw) -> Chromosome:
    ctype = draw(chromosome_types())
    birth = draw(st.integers(min_value=0, max_value=10**6))
    genes = tuple(draw(st.integers(low, high)) for low, high in ctype.gene_ranges())
    return Chromosome.from_genes(ctype, birth, genes)


# --- types ------------------------------------------------------------------

def test_feature_tables_agree() -> None:
    assert FEATURES == "fdmxcpr"
    assert "".join(FEATURE_NAMES) == FEATURES


@pytest.mark.parametrize("name", KNOWN_TYPES)
def test_known_types_parse(name: str) -> None:
    ctype = ChromosomeType.parse(name)
    assert str(ctype) == ctype.name == name
    assert ctype.phased == name.startswith("oe_")
    assert ctype.letters == name.removeprefix("oe_")


def test_type_details_phased() -> None:
    ctype = ChromosomeType.parse("oe_fmc")
    assert ctype.gene_count == 11
    assert ctype.bit_length == 352
    assert ctype.gene_names() == [
        "o", "e",
        "opening wf", "opening wm", "opening wc",
        "midgame wf", "midgame wm", "midgame wc",
        "endgame wf", "endgame wm", "endgame wc",
    ]
    assert ctype.gene_ranges() == [(1, 20), (41, 60)] + [(0, 10)] * 9
    assert ctype.uses("m") and not ctype.uses("d")


def test_type_details_unphased() -> None:
    ctype = ChromosomeType.parse("fmc")
    assert ctype.gene_count == 3
    assert ctype.bit_length == 96
    assert ctype.gene_names() == ["wf", "wm", "wc"]
    assert ctype.gene_ranges() == [(0, 10)] * 3
    assert ChromosomeType.parse("fdmxcpr").bit_length == 7 * 32
    assert ChromosomeType.parse("oe_fdmxcp").bit_length == (2 + 18) * 32


def test_uses_rejects_non_letters() -> None:
    with pytest.raises(ValueError):
        ChromosomeType.parse("fmc").uses("z")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("cmf", "out of canonical order"),
        ("mf", "out of canonical order"),
        ("oe_cf", "out of canonical order"),
        ("ffm", "repeated"),
        ("oe_mm", "repeated"),
        ("fmz", "unknown"),
        ("FMC", "unknown"),
        ("oe", "unknown"),
        ("OE_fmc", "unknown"),
        ("oe_oe_fmc", "unknown"),
        ("", "no feature letters"),
        ("oe_", "no feature letters"),
    ],
)
def test_bad_type_names(text: str, fragment: str) -> None:
    with pytest.raises(ChromosomeError) as info:
        ChromosomeType.parse(text)
    message = str(info.value)
    assert message.startswith("type ")
    assert repr(text) in message
    assert fragment in message
    assert "fdmxcpr" in message  # says what is allowed


def test_type_direct_construction_is_checked() -> None:
    assert ChromosomeType("oe_fmc", "fmc", True) == ChromosomeType.parse("oe_fmc")
    with pytest.raises(ChromosomeError):
        ChromosomeType("fmc", "fmc", True)
    with pytest.raises(ChromosomeError):
        ChromosomeType("cm", "cm", False)


# --- text form ---------------------------------------------------------------

@pytest.mark.parametrize("text", GENETHELLO_STRINGS)
def test_genethello_strings_round_trip(text: str) -> None:
    chrom = Chromosome.parse(text)
    assert str(chrom) == text
    assert chrom.type.name == "oe_fmc"
    assert chrom.bit_length == 352
    assert Chromosome.parse(str(chrom)) == chrom


def test_parse_fields() -> None:
    chrom = Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3")
    assert chrom.birth == 1
    assert chrom.genes == (14, 49, 3, 2, 2, 3, 3, 9, 1, 10, 3)
    assert chrom.phase_bounds() == (14, 49)
    chrom = Chromosome.parse("fdmxcp_3_1:2:3:4:5:6")
    assert chrom.birth == 3
    assert chrom.genes == (1, 2, 3, 4, 5, 6)
    assert chrom.bit_length == 192
    assert str(Chromosome.parse("p_0_0")) == "p_0_0"


@settings(derandomize=True, max_examples=200)
@given(chromosomes())
def test_any_valid_chromosome_round_trips(chrom: Chromosome) -> None:
    text = str(chrom)
    again = Chromosome.parse(text)
    assert again == chrom
    assert hash(again) == hash(chrom)
    assert str(again) == text
    assert chrom.bit_length == 32 * len(chrom.genes)


@settings(derandomize=True, max_examples=200)
@given(chromosome_types())
def test_any_valid_type_round_trips(ctype: ChromosomeType) -> None:
    assert ChromosomeType.parse(str(ctype)) == ctype
    assert len(ctype.gene_names()) == len(ctype.gene_ranges()) == ctype.gene_count


# --- bad input ---------------------------------------------------------------

@pytest.mark.parametrize(
    "text, fields",
    [
        # wrong gene count
        ("fmc_1_1:2", ["genes", "3", "got 2"]),
        ("fmc_1_1:2:3:4", ["genes", "3", "got 4"]),
        ("oe_fmc_1_14:49:3:2:2:3:3:9:1:10", ["genes", "11", "got 10"]),
        ("fmc_1_", ["genes", "got 0"]),
        # out of range at both ends
        ("oe_fmc_1_0:49:3:2:2:3:3:9:1:10:3", ["gene 0 (o)", "0", "1..20"]),
        ("oe_fmc_1_21:49:3:2:2:3:3:9:1:10:3", ["gene 0 (o)", "21", "1..20"]),
        ("oe_fmc_1_14:40:3:2:2:3:3:9:1:10:3", ["gene 1 (e)", "40", "41..60"]),
        ("oe_fmc_1_14:61:3:2:2:3:3:9:1:10:3", ["gene 1 (e)", "61", "41..60"]),
        ("oe_fmc_1_14:49:3:2:2:3:11:9:1:10:3", ["gene 6 (midgame wm)", "11", "0..10"]),
        ("fmc_1_1:2:11", ["gene 2 (wc)", "11", "0..10"]),
        ("fmc_1_-1:2:3", ["gene 0 (wf)", "'-1'", "0..10"]),
        # non-integer genes and non-canonical spellings
        ("fmc_1_1:x:3", ["gene 1 (wm)", "'x'", "0..10"]),
        ("fmc_1_1:2.0:3", ["gene 1 (wm)", "'2.0'"]),
        ("fmc_1_1::3", ["gene 1 (wm)", "''"]),
        ("fmc_1_1:02:3", ["gene 1 (wm)", "'02'", "leading zeros"]),
        ("fmc_1_1:+2:3", ["gene 1 (wm)", "'+2'", "sign"]),
        ("fmc_1_1: 2:3", ["gene 1 (wm)", "' 2'", "spaces"]),
        ("fmc_1_1:2:3 ", ["gene 2 (wc)", "'3 '"]),
        ("fmc_1_1:\u0662:3", ["gene 1 (wm)"]),  # Arabic-Indic digit two
        # bad birth
        ("fmc_-1_1:2:3", ["birth", "'-1'", ">= 0"]),
        ("fmc_x_1:2:3", ["birth", "'x'"]),
        ("fmc__1:2:3", ["birth", "''"]),
        ("fmc_01_1:2:3", ["birth", "'01'", "leading zeros"]),
        ("fmc_+1_1:2:3", ["birth", "'+1'"]),
        # bad types
        ("cmf_1_1:2:3", ["type 'cmf'", "canonical order"]),
        ("ffc_1_1:2:3", ["type 'ffc'", "repeated"]),
        ("fmq_1_1:2:3", ["type 'fmq'", "unknown"]),
        ("_1_1:2:3", ["type ''", "no feature letters"]),
        ("oe__1_1:2:3", ["type 'oe_'", "no feature letters"]),
        ("xx_fmc_1_1:2:3", ["type 'xx_fmc'"]),
        # missing parts
        ("fmc_1:2:3", ["TYPE_BIRTH_GENES"]),
        ("fmc", ["TYPE_BIRTH_GENES"]),
        ("", ["TYPE_BIRTH_GENES"]),
    ],
)
def test_bad_text_names_the_field(text: str, fields: list[str]) -> None:
    with pytest.raises(ChromosomeError) as info:
        Chromosome.parse(text)
    message = str(info.value)
    for fragment in fields:
        assert fragment in message, message
    assert repr(text) in message, message  # the whole input


def test_chromosome_error_is_value_error() -> None:
    assert issubclass(ChromosomeError, ValueError)
    with pytest.raises(ValueError):
        Chromosome.parse("nonsense")


def test_non_text_is_type_error() -> None:
    with pytest.raises(TypeError):
        Chromosome.parse(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ChromosomeType.parse(None)  # type: ignore[arg-type]


FMC = ChromosomeType.parse("fmc")


@pytest.mark.parametrize(
    "birth, genes, fields",
    [
        (1, (1, 2), ["genes", "got 2"]),
        (1, (1, 2, 3, 4), ["genes", "got 4"]),
        (1, (1, 2, 11), ["gene 2 (wc)", "11", "0..10"]),
        (1, (-1, 2, 3), ["gene 0 (wf)", "-1", "0..10"]),
        (1, (1, 2.0, 3), ["gene 1 (wm)", "2.0", "not an integer"]),
        (1, (1, "2", 3), ["gene 1 (wm)", "'2'", "not an integer"]),
        (1, (1, True, 3), ["gene 1 (wm)", "True", "not an integer"]),
        (-1, (1, 2, 3), ["birth", "-1", ">= 0"]),
        (1.0, (1, 2, 3), ["birth", "1.0"]),
        (True, (1, 2, 3), ["birth", "True"]),
        ("1", (1, 2, 3), ["birth", "'1'"]),
    ],
)
def test_bad_construction_names_the_field(birth, genes, fields: list[str]) -> None:
    for make in (Chromosome.from_genes, Chromosome):
        with pytest.raises(ChromosomeError) as info:
            make(FMC, birth, genes)
        message = str(info.value)
        for fragment in fields:
            assert fragment in message, message
        assert "fmc_" in message, message  # the would-be text


def test_construction_normalises() -> None:
    chrom = Chromosome.from_genes("fmc", np.int64(2), [np.int64(1), 2, np.int8(3)])
    assert chrom == Chromosome.parse("fmc_2_1:2:3")
    assert type(chrom.genes) is tuple
    assert all(type(g) is int for g in chrom.genes)
    assert type(chrom.birth) is int


# --- value semantics --------------------------------------------------------

def test_hashable_picklable_comparable() -> None:
    a = Chromosome.parse(GENETHELLO_STRINGS[0])
    b = Chromosome.parse(GENETHELLO_STRINGS[0])
    c = Chromosome.parse(GENETHELLO_STRINGS[1])
    assert a == b and a != c
    assert len({a, b, c}) == 2
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(a, protocol=proto))
        assert again == a and hash(again) == hash(a) and str(again) == str(a)
    assert copy.deepcopy(a) == a
    with pytest.raises(AttributeError):
        a.birth = 5  # type: ignore[misc]


def test_with_birth() -> None:
    a = Chromosome.parse("oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4")
    b = a.with_birth(0)
    assert str(b) == "oe_fmc_0_18:45:5:2:8:8:4:9:1:2:4"
    assert b.genes == a.genes and b.type == a.type and a.birth == 436
    with pytest.raises(ChromosomeError, match="birth"):
        a.with_birth(-3)


# --- phases -----------------------------------------------------------------

def test_phase_weights_phased() -> None:
    chrom = Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3")
    #                      f  d  m  x  c  p  r
    assert chrom.phase_weights() == (
        (3, 0, 2, 0, 2, 0, 0),
        (3, 0, 3, 0, 9, 0, 0),
        (1, 0, 10, 0, 3, 0, 0),
    )
    assert chrom.phase_bounds() == (14, 49)


def test_phase_weights_unphased() -> None:
    chrom = Chromosome.parse("dmp_5_4:7:9")
    row = (0, 4, 7, 0, 0, 9, 0)
    assert chrom.phase_weights() == (row, row, row)
    assert chrom.phase_bounds() == (60, 60)
    full = Chromosome.parse("fdmxcpr_0_1:2:3:4:5:6:7")
    assert full.phase_weights()[0] == (1, 2, 3, 4, 5, 6, 7)


@settings(derandomize=True, max_examples=200)
@given(chromosomes())
def test_phase_weights_layout(chrom: Chromosome) -> None:
    weights = chrom.phase_weights()
    assert len(weights) == 3
    assert all(len(row) == len(FEATURES) for row in weights)
    for row in weights:
        for letter, w in zip(FEATURES, row):
            if not chrom.type.uses(letter):
                assert w == 0
            assert 0 <= w <= 10
    # the used weights, phase by phase, are exactly the weight genes in order
    idx = [FEATURES.index(ch) for ch in chrom.type.letters]
    phases = weights if chrom.type.phased else weights[:1]
    flat = tuple(row[i] for row in phases for i in idx)
    assert flat == chrom.genes[2 if chrom.type.phased else 0:]
    o, e = chrom.phase_bounds()
    assert (1 <= o <= 20 and 41 <= e <= 60) if chrom.type.phased else (o, e) == (60, 60)


# --- random chromosomes -----------------------------------------------------

@pytest.mark.parametrize("name", KNOWN_TYPES)
def test_random_chromosome_deterministic_and_in_range(name: str) -> None:
    ctype = ChromosomeType.parse(name)
    first = [random_chromosome(ctype, 7, np.random.default_rng(1234)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    rng_a, rng_b = np.random.default_rng(99), np.random.default_rng(99)
    seq_a = [random_chromosome(ctype, 0, rng_a) for _ in range(50)]
    seq_b = [random_chromosome(ctype, 0, rng_b) for _ in range(50)]
    assert seq_a == seq_b
    assert len(set(seq_a)) > 1
    for chrom in seq_a + first:
        assert chrom.type == ctype
        assert len(chrom.genes) == ctype.gene_count
        for gene, (low, high) in zip(chrom.genes, ctype.gene_ranges()):
            assert low <= gene <= high
    assert first[0].birth == 7


def test_random_chromosome_reaches_range_ends() -> None:
    ctype = ChromosomeType.parse("oe_fmc")
    rng = np.random.default_rng(5)
    seen = [set() for _ in range(ctype.gene_count)]
    for _ in range(2000):
        for i, g in enumerate(random_chromosome(ctype, 0, rng).genes):
            seen[i].add(g)
    for values, (low, high) in zip(seen, ctype.gene_ranges()):
        assert values == set(range(low, high + 1))


def test_random_chromosome_ignores_global_state() -> None:
    ctype = ChromosomeType.parse("fdmxcpr")
    np.random.seed(1)
    a = random_chromosome(ctype, 0, np.random.default_rng(3))
    np.random.seed(2)
    b = random_chromosome(ctype, 0, np.random.default_rng(3))
    assert a == b


def test_random_chromosome_needs_a_generator() -> None:
    with pytest.raises(TypeError):
        random_chromosome(FMC, 0, 42)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["fdmxcp" * 20_000 + "_1_1", "oe_fmc_1_" + "1:" * 5_000_000,
                                  "all-2_" + "1" * 100_000 + "_3f09c2a1b4de"])
def test_a_long_text_is_refused_at_once_in_a_readable_line(text):
    """Issue 37 §6: a 120 kB text of repeated letters cost 4.2 s (each
    letter counted again) and its error line echoed the whole text."""
    import time

    from genethello.core.families.registry import parse_individual

    start = time.perf_counter()
    with pytest.raises(ValueError) as caught:
        parse_individual(text)
    assert time.perf_counter() - start < 0.5
    message = str(caught.value)
    assert len(message) < 300 and f"a text of {len(text):,} characters" in message, message


def test_the_letters_are_checked_in_one_pass():
    import time

    from genethello.core.families.chromosome import ChromosomeType

    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"\(600,000 characters\): repeated letter\(s\) 'f', 'd', 'm', 'x', 'c', 'p'"):
        ChromosomeType.parse("fdmxcp" * 100_000)
    assert time.perf_counter() - start < 0.5
