"""The board's vocabulary in genethello.core.squares: colour names (the
square names are exercised by the record and protocol tests)."""

from __future__ import annotations

import pytest

from genethello.core.squares import COLORS, BadColorError, parse_color


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
