"""Perft against the reference counts in tests/data/perft.txt, plus small
hand-checkable positions for the pass / finished-game / bad-depth rules.

Convention (perft.txt's ``nodes`` column): a forced pass is one ply with one
child; a finished game has no children.
"""

import pytest

from genethello.core import Board, perft

A1, B1, C1, H8 = 0, 1, 2, 63


@pytest.fixture(scope="session")
def perft_nodes(data_dir) -> dict[int, int]:
    """depth -> nodes, from perft.txt (columns: depth nodes passes finished_before standard)."""
    table = {}
    for line in (data_dir / "perft.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        table[int(fields[0])] = int(fields[1])
    return table


@pytest.mark.parametrize("depth", range(10))
def test_start_position_matches_perft_txt(perft_nodes, depth):
    assert perft(Board(), depth) == perft_nodes[depth]


def test_perft_txt_has_the_published_start():
    # Guards the parser: the first rows of the table are the well-known 1, 4, 12, 56.
    assert [perft(Board(), d) for d in range(4)] == [1, 4, 12, 56]


@pytest.fixture
def black_must_pass() -> Board:
    # a1 white, b1 black, black to move: black cannot flank a1 (corner), so it
    # must pass; white then has exactly one move, c1, which wipes black out.
    board = Board.from_obf("OX" + "-" * 62 + " X")
    assert board.side_to_move == "black"
    assert board.black == 1 << B1 and board.white == 1 << A1
    assert board.legal_moves() == []
    assert board.must_pass()
    assert not board.is_game_over()
    return board


def test_forced_pass_is_one_child(black_must_pass):
    assert perft(black_must_pass, 1) == 1


def test_pass_is_a_ply_then_the_game_ends(black_must_pass):
    # ply 1: black passes; ply 2: white c1 (the only move); after that black
    # has no discs, the game is over, so nothing lies at ply 3.
    assert perft(black_must_pass, 2) == 1
    assert perft(black_must_pass, 3) == 0
    after = Board.from_bitboards(0, (1 << A1) | (1 << B1) | (1 << C1), "black")
    assert after.is_game_over()
    assert perft(after, 1) == 0


def test_from_bitboards_and_from_obf_agree(black_must_pass):
    assert Board.from_bitboards(1 << B1, 1 << A1, "black") == black_must_pass


@pytest.fixture
def finished_with_empties() -> Board:
    # Black a1, white h8, everything else empty: neither side can flank anything.
    board = Board.from_bitboards(1 << A1, 1 << H8, "white")
    assert board.legal_moves() == []
    assert board.is_game_over()
    return board


def test_finished_game_has_no_children(finished_with_empties):
    assert perft(finished_with_empties, 1) == 0
    assert perft(finished_with_empties, 5) == 0


def test_finished_game_is_itself_one_node_at_depth_zero(finished_with_empties):
    assert perft(finished_with_empties, 0) == 1


def test_full_board_has_no_children():
    board = Board.from_bitboards(0xFFFFFFFF00000000, 0x00000000FFFFFFFF, "black")
    assert board.empties == 0
    assert board.is_game_over()
    assert perft(board, 1) == 0


def test_negative_depth_raises():
    with pytest.raises(ValueError):
        perft(Board(), -1)
