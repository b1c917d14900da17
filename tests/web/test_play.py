"""The game decisions of the web page (cluster/web/play.py): settings,
moves, forced passes, undo, clocks, transcript and SGF, on real games."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genethello.cluster.web import play
from genethello.cluster.web.errors import ConflictError, WebRequestError
from genethello.core.engine.board import Board
from genethello.core.engine.squares import PASS, square_name
from genethello.core.records import read_record

from .conftest import EXAMPLE_CHROMOSOME

HUMAN = {"kind": "human"}
MACHINE = {"kind": "machine", "chromosome": EXAMPLE_CHROMOSOME, "depth": 3}


def test_settings_of_a_person_against_a_machine():
    s = play.parse_settings({"black": HUMAN, "white": MACHINE, "seconds": None})
    assert not s.black.is_machine and s.white.is_machine
    assert str(s.white.chromosome) == EXAMPLE_CHROMOSOME and s.white.depth == 3 and s.seconds is None
    timed = play.parse_settings({"black": MACHINE, "white": HUMAN, "seconds": 60})
    assert timed.seconds == 60.0 and timed.black.depth is None


@pytest.mark.parametrize("data, field, words", [
    ({"black": HUMAN, "white": dict(MACHINE, chromosome="oe_fmc_1_14:49")}, "white.chromosome", "needs 11 genes"),
    ({"black": HUMAN, "white": dict(MACHINE, chromosome="")}, "white.chromosome", "TYPE_BIRTH_GENES"),
    ({"black": HUMAN, "white": dict(MACHINE, depth=16)}, "white.depth", "1..15"),
    ({"black": HUMAN, "white": dict(MACHINE, depth="six")}, "white.depth", "whole number"),
    ({"black": {"kind": "robot"}, "white": HUMAN}, "black.kind", "'human' or 'machine'"),
    ({"black": HUMAN, "white": HUMAN, "seconds": 0}, "seconds", "1..3600"),
    ({"black": HUMAN, "white": HUMAN, "seconds": True}, "seconds", "1..3600"),
])
def test_bad_settings_name_their_field(data, field, words):
    with pytest.raises(WebRequestError) as caught:
        play.parse_settings(data)
    assert caught.value.field == field and words in str(caught.value)


def test_the_parsers_own_message_is_shown():
    try:
        from genethello.core.families.chromosome import Chromosome
        Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:99")
    except ValueError as exc:
        expected = str(exc)
    with pytest.raises(WebRequestError) as caught:
        play.parse_chromosome("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:99")
    assert str(caught.value) == expected


@pytest.mark.parametrize("text, words", [("a1", "not a legal move"), ("z9", "not a square"), ("pass", "cannot pass"),
                                         (7, "square name")])
def test_bad_moves_are_refused_with_the_legal_ones(text, words):
    with pytest.raises(WebRequestError) as caught:
        play.parse_move(Board(), text)
    assert words in str(caught.value)


def test_a_forced_pass_is_played_and_announced(data_dir):
    record = read_record(data_dir / "formats" / "ggf" / "nboard_2014_game_with_passes.ggf")[0].normalized()
    first_pass = record.moves.index(PASS)
    board = record.start_board()
    for move in record.moves[:first_pass]:
        board.play(move)
    mover = board.side_to_move
    assert board.must_pass()
    said = play.play_forced_passes(board)
    assert said == [f"{mover.capitalize()} has no legal move and passes."]
    assert board.history[-1] == PASS and not board.must_pass()
    assert play.play_forced_passes(board) == []


def test_undo_goes_back_to_the_persons_last_move():
    settings = play.parse_settings({"black": HUMAN, "white": MACHINE})
    board = Board.from_moves("f5d6c3")
    assert play.plies_to_undo(board, settings) == 1          # the person (Black) just played c3
    board.play("d3")                                          # the machine replied
    assert play.plies_to_undo(board, settings) == 2
    machines = play.parse_settings({"black": MACHINE, "white": MACHINE})
    with pytest.raises(ConflictError):
        play.plies_to_undo(board, machines)
    with pytest.raises(ConflictError):
        play.plies_to_undo(Board(), settings)


@given(st.lists(st.integers(0, 63), max_size=40))
def test_undo_always_leaves_a_person_to_move(choices):
    settings = play.parse_settings({"black": HUMAN, "white": MACHINE})
    board = Board()
    for pick in choices:
        if board.is_game_over():
            break
        moves = board.legal_moves() or [PASS]
        board.play(moves[pick % len(moves)])
    try:
        count = play.plies_to_undo(board, settings)
    except ConflictError:
        assert all(m == PASS for i, m in enumerate(board.history) if i % 2 == 0) or not board.history
        return
    for _ in range(count):
        board.undo()
    assert board.side_to_move == "black" and board.legal_moves()


def test_board_view_and_transcript_of_a_real_game(data_dir):
    record = read_record(data_dir / "formats" / "sgf" / "edax-4.5.5_manual_example.sgf")[0]
    board = record.replay()
    view = play.board_view(board)
    black, white = board.disc_count()
    assert view["discs"] == {"black": black, "white": white}
    assert view["cells"].count("b") == black and view["cells"].count("w") == white
    assert view["last"] == "c4" and view["to_move"] == "white"
    assert view["legal"] == [square_name(m) for m in board.legal_moves()]
    assert play.transcript_lines(board) == ["1. f5 - d6", "2. c3 - d3", "3. c4"]


def test_the_sgf_download_replays_to_the_same_game():
    board = Board.from_moves("f5d6c3d3c4f4f6f3e6e7")
    settings = play.parse_settings({"black": HUMAN, "white": MACHINE})
    record = read_record(play.game_sgf(board, settings), "sgf")[0]
    assert record.moves == board.history
    assert record.black_name == "Human" and record.white_name == EXAMPLE_CHROMOSOME


def test_clocks_charge_the_running_side_only():
    clocks = play.Clocks(60.0)
    clocks.start("black", 100.0)
    assert clocks.left("black", 103.0) == pytest.approx(57.0) and clocks.left("white", 103.0) == 60.0
    clocks.start("white", 105.0)
    assert clocks.remaining["black"] == pytest.approx(55.0)
    assert clocks.view(106.0) == {"black": 55.0, "white": 59.0, "running": "white", "total": 60.0}
    clocks.start(None, 200.0)
    assert clocks.remaining["white"] == 0.0 and clocks.running is None
    assert play.Clocks(None).view(0.0) is None
