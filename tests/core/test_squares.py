"""The board's vocabulary in genethello.core.engine.squares: the colours and their
names (the square names are exercised by the record and protocol tests)."""

from __future__ import annotations

from typing import get_args

import pytest

from genethello.core.engine.board import Board
from genethello.core.engine.squares import BLACK, COLORS, WHITE, BadColorError, Colour, opponent, parse_color


@pytest.mark.parametrize("text, color", [("b", "black"), ("Black", "black"), ("BLACK", "black"),
                                         ("w", "white"), ("White", "white"), ("wHiTe", "white")])
def test_colour_names_in_any_case(text, color):
    assert parse_color(text) == color


@pytest.mark.parametrize("text", ["", "x", "bl", "blacks", "red", " b", "white "])
def test_other_words_are_refused_naming_the_text(text):
    with pytest.raises(BadColorError, match=repr(text)):
        parse_color(text)


def test_every_name_maps_to_one_of_the_two_colours():
    assert set(COLORS.values()) == {"black", "white"}
    assert all(parse_color(name) == color for name, color in COLORS.items())


def test_the_colour_type_holds_the_boards_own_words():
    # The values are the strings the web API and the records carry: a rename
    # of the constants must not change them.
    assert (BLACK, WHITE) == ("black", "white") == get_args(Colour)
    board = Board()
    assert board.side_to_move == BLACK
    board.play("f5")
    assert board.side_to_move == WHITE


def test_opponent_swaps_the_colours():
    assert opponent(BLACK) == WHITE and opponent(WHITE) == BLACK
