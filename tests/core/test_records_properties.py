"""Property tests for the game records: round trips and a fuzz test.

Every reader either returns records or raises RecordError, whatever the text;
writing then reading a generated record gives it back unchanged.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genethello.core.records import (
    GameRecord,
    RecordError,
    read_ggf,
    read_moves,
    read_record,
    read_sgf,
    read_transcript,
    write_ggf,
    write_moves,
    write_sgf,
    write_transcript,
)
from tests.core.test_records_helpers import random_game

SETTINGS = settings(derandomize=True, max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
_CHROMOSOME_LINE = re.compile(r"(black|white) chromosome: ")

games = st.builds(lambda seed, start: random_game(random.Random(seed), start),
                  st.integers(0, 2 ** 32), st.sampled_from(["standard", "midgame", "random"]))
results = st.sampled_from([None, "B+12", "W+4", "Draw", "B+64", "W+1", "B+R", "W+T"])
chromosomes = st.none() | st.from_regex(r"[a-z_]{1,8}_[0-9]{1,3}_[0-9:]{1,20}", fullmatch=True)
clocks = st.sampled_from([None, "300", "05:00//02:00", "1:00", "15:00", "1:00:00/10/", "no clock"])


def _comments(text):
    return st.none() | text.filter(lambda c: c != "" and not _CHROMOSOME_LINE.search(c))


@st.composite
def records(draw, text, ggf=False):
    rec = draw(games)
    opt = st.none() | text
    names = st.none() | text.filter(lambda s: s != "?") if ggf else opt
    rec.black_name = draw(names)
    rec.white_name = draw(names)
    for name in ("date", "event", "place", "black_rating", "white_rating"):
        setattr(rec, name, draw(opt))
    rec.result = draw(results)
    rec.time_settings = draw(clocks | text)
    rec.comment = draw(_comments(text))
    rec.black_chromosome = draw(chromosomes)
    rec.white_chromosome = draw(chromosomes)
    keys = st.sampled_from(["GC", "RO", "SO", "AN", "XY"])
    values = text if ggf else text | st.lists(text, min_size=2, max_size=3)
    rec.properties = draw(st.dictionaries(keys, values, max_size=3))
    indices = st.integers(0, max(len(rec.moves) - 1, 0))
    if rec.moves:
        extra = draw(st.dictionaries(indices, text, max_size=4))
        if ggf:
            rec.move_annotations = extra
        else:
            rec.move_comments = extra
    return rec


any_text = st.text(max_size=30)
ggf_text = st.text(max_size=30).filter(lambda s: "]" not in s)


@SETTINGS
@given(records(any_text))
def test_sgf_round_trip(record):
    assert read_sgf(write_sgf(record)) == [record]
    assert read_sgf(write_sgf(record, explicit_passes=True)) == [record]
    assert read_record(write_sgf(record)) == [record]


@SETTINGS
@given(records(ggf_text, ggf=True))
def test_ggf_round_trip(record):
    assert read_ggf(write_ggf(record)) == [record]
    assert read_record(write_ggf(record)) == [record]


@SETTINGS
@given(st.lists(games, min_size=1, max_size=4))
def test_collections_round_trip(recs):
    assert read_sgf(write_sgf(recs)) == recs
    assert read_ggf(write_ggf(recs)) == recs


@SETTINGS
@given(st.builds(lambda seed: random_game(random.Random(seed), "standard", max_moves=80),
                 st.integers(0, 2 ** 32)))
def test_move_list_and_transcript_round_trip(record):
    assert read_moves(write_moves(record)) == [record]
    assert read_moves(write_moves(record, upper=True)) == [record]
    assert read_transcript(write_transcript(record)) == [record]
    assert record.replay().history == record.moves
    if record.replay().is_game_over():
        assert not record.replay().must_pass()


# ------------------------------------------------------------------ fuzz
READERS = [read_sgf, read_ggf, read_moves, read_transcript, read_record]


def _only_record_errors(reader, text):
    try:
        result = reader(text)
    except RecordError as exc:
        assert str(exc)
        return None
    assert isinstance(result, list) and all(isinstance(r, GameRecord) for r in result)
    for rec in result:
        assert rec.replay().history == rec.moves
    return result


@SETTINGS
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_record_error(text):
    for reader in READERS:
        _only_record_errors(reader, text)


_SGF_ALPHABET = "()[];\\:BWAEPLGMSZC \n12fetPAa8hO*-"


@SETTINGS
@given(st.text(alphabet=_SGF_ALPHABET, max_size=120))
def test_structured_noise_raises_only_record_error(text):
    for reader in READERS:
        _only_record_errors(reader, "(;" + text)
        _only_record_errors(reader, text)


@pytest.fixture(scope="module")
def sample_texts(data_dir):
    base = data_dir / "formats"
    return [p.read_text() for p in sorted(base.glob("sgf/*.sgf")) + sorted(base.glob("ggf/*.ggf"))]


mutations = st.lists(st.tuples(st.sampled_from(["delete", "insert", "replace", "swap"]),
                               st.floats(0, 1, exclude_max=True), st.sampled_from(list(_SGF_ALPHABET))),
                     min_size=1, max_size=6)


def _mutate(text, ops):
    chars = list(text)
    for op, where, ch in ops:
        if not chars:
            chars = [ch]
            continue
        i = int(where * len(chars))
        if op == "delete":
            del chars[i]
        elif op == "insert":
            chars.insert(i, ch)
        elif op == "replace":
            chars[i] = ch
        else:
            j = min(i + 1, len(chars) - 1)
            chars[i], chars[j] = chars[j], chars[i]
    return "".join(chars)


@settings(derandomize=True, max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.integers(0, 100), mutations, st.integers(0, 400))
def test_mutated_samples_raise_only_record_error(sample_texts, which, ops, cut):
    text = sample_texts[which % len(sample_texts)]
    mutated = _mutate(text, ops)
    for reader in (read_sgf, read_ggf, read_record):
        _only_record_errors(reader, mutated)
        _only_record_errors(reader, mutated[:len(mutated) * cut // 400])     # truncated


@SETTINGS
@given(records(any_text), mutations)
def test_mutated_written_records_raise_only_record_error(record, ops):
    for text in (write_sgf(record), write_ggf(GameRecord(moves=record.moves, black=record.black,
                                                         white=record.white,
                                                         side_to_move=record.side_to_move))):
        _only_record_errors(read_record, _mutate(text, ops))
