"""Game records: the real samples, round trips on generated games, malformed input."""

from __future__ import annotations

import gzip
import itertools
import random

import pytest

from genethello.core import PASS, Board, parse_square
from genethello.core.records import (
    GameRecord,
    RecordError,
    detect_format,
    move_grid,
    read_ggf,
    read_moves,
    read_record,
    read_sgf,
    read_transcript,
    score_from_result,
    write_ggf,
    write_moves,
    write_record,
    write_sgf,
    write_transcript,
)
from tests.core.test_records_helpers import games_with_passes, random_game

SGF_SAMPLES = [
    "converted_woc2007-final-game1_letterdigit.sgf",
    "converted_ggs-2003-12-15_saio_quarry-layout.sgf",
    "edax-4.5.5_manual_example.sgf",
    "converted_ggs-2003-12-15_saio_letterdigit.sgf",
]
GGF_SAMPLES = [
    "edax-4.5.5_manual_example.ggf",
    "nboard_protocol_doc_example.ggf",
    "nboard_2014_game_with_passes.ggf",
    "novello_TestGames.ggf",
    "ggs_synchro_s8r18_edax-vs-roxane.ggf",
]


@pytest.fixture(scope="module")
def formats_dir(data_dir):
    return data_dir / "formats"


@pytest.fixture(scope="module")
def wthor_games(games_slice):
    """A handful of WTHOR human games that contain passes, as move strings."""
    picked = []
    with gzip.open(games_slice, "rt") as f:
        for line in itertools.islice(f, 3000):
            game = line.strip()
            board = Board.from_moves(game)
            if PASS in board.history:
                picked.append(game)
            if len(picked) == 8:
                break
    assert len(picked) == 8
    return picked


def _check_sample(record: GameRecord) -> None:
    board = record.replay()                      # legal, else RecordError
    assert board.history == record.moves          # passes are explicit
    if board.is_game_over():
        assert not board.must_pass()
    stated = score_from_result(record.result)
    if stated is not None:
        assert board.is_game_over()
        assert board.final_score() == stated
        assert record.result_text() == ("Draw" if stated == 0 else record.result)


# ------------------------------------------------------------------ samples
@pytest.mark.parametrize("name", SGF_SAMPLES)
def test_sgf_samples_read_and_replay(formats_dir, name):
    records = read_record(formats_dir / "sgf" / name)
    assert len(records) == 1
    _check_sample(records[0])


@pytest.mark.parametrize("name", GGF_SAMPLES)
def test_ggf_samples_read_and_replay(formats_dir, name):
    records = read_record(formats_dir / "ggf" / name)
    assert records
    for record in records:
        _check_sample(record)


def test_sample_details(formats_dir):
    sgf = formats_dir / "sgf"
    woc = read_record(sgf / "converted_woc2007-final-game1_letterdigit.sgf")[0]
    assert (woc.black_name, woc.white_name, woc.result) == ("Stephane Nicolet", "Kenta Tominaga", "B+6")
    assert woc.event.startswith("31st World Othello Championship")
    assert woc.properties["RO"] == "final, game 1"
    assert len(woc.moves) == 60 and PASS not in woc.moves
    assert woc.replay().disc_count() == (35, 29)

    digit = read_record(sgf / "converted_ggs-2003-12-15_saio_letterdigit.sgf")[0]
    quarry = read_record(sgf / "converted_ggs-2003-12-15_saio_quarry-layout.sgf")[0]
    ggf = read_record(formats_dir / "ggf" / "novello_TestGames.ggf")[2]
    assert digit.moves == quarry.moves == ggf.moves       # Quarry's left-out pass is inserted
    assert digit.moves[58] == PASS and digit.moves.count(PASS) == 1
    assert (digit.result, digit.time_settings, digit.black_rating) == ("Draw", "300", "2197.01")

    edax = read_record(sgf / "edax-4.5.5_manual_example.sgf")[0]
    assert edax.moves == [parse_square(s) for s in ("f5", "d6", "c3", "d3", "c4")]
    assert edax.result is None and edax.properties["RE"] == "Void"
    assert edax.replay().side_to_move == "white"

    games = read_record(formats_dir / "ggf" / "novello_TestGames.ggf")
    assert len(games) == 12
    assert [g.result for g in games].count("B+2") == 1
    assert games[0].move_annotations[0] == "/0.01"

    synchro = read_record(formats_dir / "ggf" / "ggs_synchro_s8r18_edax-vs-roxane.ggf")
    assert len(synchro) == 2
    assert synchro[0].black == synchro[1].black and not synchro[0].is_standard_start()
    assert synchro[0].properties["TY"] == "s8r18"
    assert [g.result for g in synchro] == ["W+10", "W+10"]

    nboard = read_record(formats_dir / "ggf" / "nboard_2014_game_with_passes.ggf")[0]
    assert nboard.moves.count(PASS) == 2 and nboard.result is None
    assert nboard.time_settings == "1:00"

    edax_ggf = read_record(formats_dir / "ggf" / "edax-4.5.5_manual_example.ggf")[0]
    assert edax_ggf.moves == edax.moves
    assert edax_ggf.result is None and edax_ggf.properties["RE"] == "-127.000"


@pytest.mark.parametrize("name", SGF_SAMPLES)
def test_sgf_samples_rewrite(formats_dir, name):
    record = read_record(formats_dir / "sgf" / name)[0]
    assert read_sgf(write_sgf(record)) == [record]
    assert read_sgf(write_sgf(record, explicit_passes=True)) == [record]


@pytest.mark.parametrize("name", GGF_SAMPLES)
def test_ggf_samples_rewrite(formats_dir, name):
    records = read_record(formats_dir / "ggf" / name)
    assert read_ggf(write_ggf(records)) == records


# ------------------------------------------------------------------ round trips
def _with_info(rng: random.Random, record: GameRecord) -> GameRecord:
    record.black_name = rng.choice([None, "Saio1200", "Ann [the] \\great\\", "Ó Rourke"])
    record.white_name = rng.choice([None, "edax", "genethello-gen3"])
    record.date = rng.choice([None, "2026-01-02", "2003.12.15_12:33:18.MST"])
    record.result = rng.choice([None, "B+12", "W+4", "Draw", "B+R", "W+T"])
    record.time_settings = rng.choice([None, "300", "05:00//02:00", "1:00", "15:00", "no clock"])
    record.event = rng.choice([None, "GeneThello league, round 3"])
    record.comment = rng.choice([None, "a comment\nover two lines", "x"])
    record.black_chromosome = rng.choice([None, "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"])
    record.white_chromosome = rng.choice([None, "fdmxcp_3_1:2:3:4:5:6"])
    return record


def _ggf_safe(record: GameRecord) -> GameRecord:
    if record.black_name and "]" in record.black_name:
        record.black_name = "Ann"
    return record


@pytest.mark.parametrize("start", ["standard", "midgame", "random"])
def test_round_trip_random_games(start):
    rng = random.Random(20260101 + len(start))
    for _ in range(60):
        record = _with_info(rng, random_game(rng, start))
        assert read_sgf(write_sgf(record)) == [record]
        assert read_sgf(write_sgf(record, explicit_passes=True)) == [record]
        ggf_record = _ggf_safe(record)
        assert read_ggf(write_ggf(ggf_record)) == [ggf_record]
        if start == "standard":
            plain = GameRecord(moves=record.moves)
            assert read_moves(write_moves(record)) == [plain]
            assert read_transcript(write_transcript(record)) == [plain]
            assert read_record(write_record(record, "moves")) == [plain]
            assert read_record(write_record(record, "transcript")) == [plain]


def test_round_trip_games_with_passes():
    games = games_with_passes(10)
    for game in games:
        assert PASS in game.moves
        for fmt in ("sgf", "ggf", "moves", "transcript"):
            text = write_record(game, fmt)
            assert read_record(text, fmt) == [game], fmt
            assert read_record(text) == [game], fmt          # detected
        assert "--" in write_transcript(game)
        # SGF leaves forced passes out (README recommendation)...
        assert "B[]" not in write_sgf(game) and "W[]" not in write_sgf(game)
        # ...GGF writes every pass
        assert write_ggf(game).count("[PA]") == game.moves.count(PASS)
    # several games in one file
    assert read_sgf(write_sgf(games)) == games
    assert read_ggf(write_ggf(games)) == games
    assert read_transcript("\n".join(write_transcript(g) for g in games)) == games


def test_wthor_games_with_passes(wthor_games):
    for line in wthor_games:
        [record] = read_moves(line)
        board = Board.from_moves(line)
        assert record.moves == board.history and PASS in record.moves
        assert record.replay().is_game_over()
        record.result = record.result_text()
        for fmt in ("sgf", "ggf"):
            assert read_record(write_record(record, fmt)) == [record]
        assert write_moves(record) == line


def test_pass_forms_in_sgf():
    base = "(;GM[2]FF[4]SZ[8]"
    digit = read_sgf(base + ";B[d3];W[c5];B[e6])")[0]
    for form in ("[fe]", "[F5]", "[f5]"):
        rec = read_sgf(f"(;GM[2];B{form})")[0]
        assert rec.moves == [parse_square("f5")]
    assert digit.moves == [parse_square(s) for s in ("d3", "c5", "e6")]
    # a pass that is forced: white has no move after these
    game = games_with_passes(1)[0]
    i = game.moves.index(PASS)
    prefix = GameRecord(moves=game.moves[:i + 2])
    text = write_sgf(prefix)
    for form in ("[]", "[tt]", "[PA]", "[pa]", "[pass]"):
        color = "B" if i % 2 == 0 else "W"
        explicit = write_sgf(prefix, explicit_passes=True).replace(f"{color}[]", f"{color}{form}")
        assert read_sgf(explicit) == read_sgf(text) == [prefix], form


def test_setup_properties():
    rec = read_sgf("(;GM[2]SZ[8]AB[d5][e4]AW[d4][e5]PL[W])")[0]
    assert rec.side_to_move == "white" and rec.black == Board().black
    # compressed point list, AE and a setup node before the first move
    rec = read_sgf("(;GM[2]AB[a1:b2]AW[c1:c2];AE[a1];B[d1])")[0]
    assert rec.black == sum(1 << parse_square(s) for s in ("b1", "a2", "b2"))
    assert rec.white == sum(1 << parse_square(s) for s in ("c1", "c2"))
    assert rec.moves[0] == parse_square("d1")
    assert rec.replay().black == sum(1 << parse_square(s) for s in ("b1", "a2", "b2", "c1", "d1"))
    # no AB/AW: the standard start
    assert read_sgf("(;GM[2];B[f5])")[0].black == Board().black
    # PL absent and White moves first: White is to move
    rec = read_sgf("(;GM[2];W[d6])")[0]
    assert rec.side_to_move == "white"


def test_sgf_syntax_features():
    text = """  (;GM[2]FF[4]
        C[a \\] bracket, a \\\\ backslash and a soft\\
break]  PB [Ann]
        ; B [f5] C[first move]
        (;W[d6];B[c3])
        (;W[f6];B[e6])
    )"""
    rec = read_sgf(text)[0]
    assert rec.comment == "a ] bracket, a \\ backslash and a softbreak"
    assert rec.black_name == "Ann"
    assert rec.moves == [parse_square(s) for s in ("f5", "d6", "c3")]       # the main line
    assert rec.move_comments == {0: "first move"}
    two = read_sgf("(;GM[2];B[f5])\n(;GM[2];B[d3])")
    assert [r.moves[0] for r in two] == [parse_square("f5"), parse_square("d3")]
    # FF[3] lower-case letters in names are ignored
    assert read_sgf("(;GaMe[2]PlayerBlack[x];B[f5])")[0].black_name == "x"


def test_transcript_and_grid():
    text = "1. f5 - d6\n2. c3 - d3\n3. c4\n"
    [rec] = read_transcript(text)
    assert write_transcript(rec) == text
    assert read_transcript("1. F5 D6 2. C3 D3 3. C4") == [rec]
    assert write_moves(rec) == "f5d6c3d3c4"
    grid = move_grid(rec)
    lines = grid.splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[5].split() == ["5", ".", ".", ".", ".", ".", "1", ".", "."]   # f5 = 1
    assert lines[3].split() == ["3", ".", ".", "3", "4", ".", ".", ".", "."]
    assert sum(tok.isdigit() for line in lines[1:] for tok in line.split()[1:]) == 5
    full = games_with_passes(1)[0]
    numbers = sorted(int(t) for line in move_grid(full).splitlines()[1:] for t in line.split()[1:] if t != ".")
    assert numbers == list(range(1, len(full.squares_played()) + 1))


def test_record_methods():
    rec = GameRecord(moves=[parse_square(s) for s in "f5 d6 c3 d3 c4".split()])
    assert rec.result_text() is None            # not finished
    assert rec.replay().move_list() == "f5d6c3d3c4"
    # a finished game: result from replay, WOF rule (empties to the winner)
    board = random_game(random.Random(5), max_moves=30).replay()
    rec = GameRecord.from_board(board)
    assert rec.moves == board.history and rec.final_score() == board.final_score()
    game = games_with_passes(1)[0]
    assert game.result_text() == {1: "B+", -1: "W+", 0: "Draw"}[
        (game.final_score() > 0) - (game.final_score() < 0)] + (
        str(abs(game.final_score())) if game.final_score() else "")
    # missing forced passes are inserted by normalized() / replay()
    no_pass = GameRecord(moves=[m for m in game.moves if m != PASS])
    assert no_pass.normalized().moves == game.moves
    assert no_pass.replay().history == game.moves
    # an empty board: the game is over, a draw
    empty = GameRecord(black=0, white=0)
    assert empty.result_text() == "Draw" and read_sgf(write_sgf(empty)) == [empty]


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("text, fragments", [
    ("(;GM[2]FF[4];B[f5];W[d6]", ["file ends inside a game tree", "line 1"]),
    ("(;GM[2];B[f5]))", ["unbalanced ')'", "line 1, column 15"]),
    ("(;GM[2]\n;B[f5", ["unterminated", "line 2, column 3"]),
    ("(;GM[2]\n;B[f5\n;W[d6])", ["line 2, column 4", "is not a point"]),
    ("(;GM[2]\n;B[f5];W[i9])", ["line 2, column 10", "W[i9]", "not a point"]),
    ("(;GM[2]\n;B[f5];W[c3])", ["line 2, column 8", "move 2", "illegal move", "flips no disc"]),
    ("(;GM[2]\n;B[f5];W[e4])", ["line 2, column 8", "move 2", "not empty"]),
    ("(;GM[2];B[f5];B[d6])", ["move 2", "black moves but white is to move"]),
    ("(;GM[2];B[])", ["move 1", "illegal pass", "black has a legal move"]),
    ("(;GM[1]SZ[19];B[pd])", ["GM[1] is not Othello", "line 1, column 6"]),
    ("(;GM[2]SZ[9];B[f5])", ["SZ[9]", "8x8"]),
    ("(;GM[2];B[f5]W[d6])", ["both a B and a W"]),
    ("(;GM[2];B[f5];AB[a1])", ["setup property AB after the first move"]),
    ("(;GM[2]PL[X])", ["PL[X]", "B or W"]),
    ("(GM[2])", ["expected ';' after '('"]),
    ("hello", ["outside a game tree", "line 1, column 1"]),
    ("", ["no game tree found"]),
    ("(;GM[2];B[f5]C)", ["property C has no value"]),
    ("(;GM[2]AB[a1:zz])", ["AB", "'zz'"]),
])
def test_sgf_errors(text, fragments):
    with pytest.raises(RecordError) as info:
        read_sgf(text)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_sgf_error_attributes():
    with pytest.raises(RecordError) as info:
        read_sgf("(;GM[2]\n;B[f5]\n;W[c3])")
    err = info.value
    assert (err.line, err.column, err.move_number) == (3, 2, 2)
    assert err.offset == len("(;GM[2]\n;B[f5]\n;")
    assert isinstance(err, ValueError)
    with pytest.raises(RecordError) as info:
        read_sgf("(;GM[2];B[f5])(;GM[2];W[f5])")
    assert info.value.game == 2 and "game 2" in str(info.value)


@pytest.mark.parametrize("text, fragments", [
    ("(;GM[Chess]BO[8 " + "-" * 64 + " *];)", ["GM[Chess] is not Othello"]),
    ("(;GM[Othello]BO[8 ---];)", ["BO", "64 squares"]),
    ("(;GM[Othello]BO[10 " + "-" * 100 + " *];)", ["size 8"]),
    ("(;GM[Othello]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " Q];)", ["side to move 'Q'"]),
    ("(;GM[Othello]B[f5]W[c3];)", ["move 2", "illegal move", "line 1, column 19"]),
    ("(;GM[Othello]B[z9];)", ["B[z9]", "not a move"]),
    ("(;GM[Othello]B[f5]", ["game not closed"]),
    ("(;GM[Othello]B[f5;)", ["not closed"]),
    ("(;GM[Othello]PB;)", ["tag PB has no value"]),
    ("(;GM[Othello]TY[10];)", ["TY[10]"]),
    ("x(;GM[Othello];)", ["a GGF game starts with '(;'", "line 1, column 1"]),
    ("(;GM[Othello];)\n(;GM[Othello]W[f5];)", ["game 2", "line 2", "white moves but black is to move"]),
])
def test_ggf_errors(text, fragments):
    with pytest.raises(RecordError) as info:
        read_ggf(text)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


@pytest.mark.parametrize("reader, text, fragments", [
    (read_moves, "f5d6c3\nf5d6x9", ["line 2, column 5", "not a move"]),
    (read_moves, "f5c3", ["move 2", "illegal", "line 1, column 3"]),
    (read_moves, "f5d6c", ["line 1, column 5"]),
    (read_transcript, "1. f5 - d6\n3. c3", ["line 2, column 1", "expected 2."]),
    (read_transcript, "1. f5 - d6\n2. c3 - h8", ["move 4", "illegal", "line 2, column 9"]),
    (read_transcript, "1. f5 - d6 c3", ["without a move number"]),
    (read_transcript, "1. f5 ! d6", ["unexpected '!'", "line 1, column 7"]),
])
def test_text_errors(reader, text, fragments):
    with pytest.raises(RecordError) as info:
        reader(text)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_writer_refusals():
    rec = GameRecord(black_name="a]b")
    with pytest.raises(RecordError, match="GGF cannot hold"):
        write_ggf(rec)
    assert read_sgf(write_sgf(rec)) == [rec]          # SGF escapes it
    custom = random_game(random.Random(3), "random")
    with pytest.raises(RecordError, match="standard"):
        write_moves(custom)
    with pytest.raises(RecordError, match="move 1"):
        write_sgf(GameRecord(moves=[parse_square("a1")]))


def test_detect_format_and_read_record(formats_dir, tmp_path):
    assert detect_format("(;GM[2]FF[4];B[f5])") == "sgf"
    assert detect_format("1 (;GM[Othello]PB[x];)") == "ggf"
    assert detect_format("(;GM[othello];)") == "ggf"
    assert detect_format("1. f5 - d6") == "transcript"
    assert detect_format("F5D6C3") == "moves"
    text = (formats_dir / "ggf" / "nboard_protocol_doc_example.ggf").read_text()
    assert read_record(text) == read_record(formats_dir / "ggf" / "nboard_protocol_doc_example.ggf")
    path = tmp_path / "g.sgf.gz"
    rec = games_with_passes(1)[0]
    path.write_bytes(gzip.compress(write_sgf(rec).encode()))
    assert read_record(path) == [rec] == read_record(str(path))
    with pytest.raises(RecordError, match="unknown record format"):
        read_record("f5", format="pgn")
    assert write_record(rec, "grid") == move_grid(rec)


def test_numbers_of_hundreds_of_digits_are_record_errors():
    """A GGF RE[+<400 digits>] escaped as OverflowError (float inf to int),
    a transcript move number of 5,000 digits as a bare ValueError (int()
    refuses over 4,300 digits) without line or column."""
    rec = read_ggf("(;GM[Othello]RE[+" + "9" * 400 + "];)")[0]
    assert rec.result is None and rec.properties["RE"] == "+" + "9" * 400
    with pytest.raises(RecordError, match=r"line 2, column 1: move pair number 7777"):
        read_transcript("1. f5 - d6\n" + "7" * 5000 + ". c3 - d3\n")
    with pytest.raises(RecordError, match="line 1, column 12"):
        read_transcript("1. f5 - d6 ٢. c3")      # a non-ASCII digit is no move number
