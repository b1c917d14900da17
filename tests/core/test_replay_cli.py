"""`genethello replay`: real SGF/GGF samples and a move list replayed to the
end, stepping with piped input, and a malformed file."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys

import pytest

from genethello.cluster.cli.main import main
from genethello.core.records import MAX_RECORD_FILE_BYTES, RecordError, read_record

#: sample file -> (game number, the result line's start): checked by hand
#: against each file's RE and final disc count (formats/*/README.md).
SAMPLES = {
    "sgf/converted_ggs-2003-12-15_saio_letterdigit.sgf": (1, "Result: Draw (black 32, white 32)"),
    "sgf/converted_ggs-2003-12-15_saio_quarry-layout.sgf": (1, "Result: Draw (black 32, white 32)"),
    "sgf/converted_woc2007-final-game1_letterdigit.sgf": (1, "Result: B+6 (black 35, white 29)"),
    "sgf/edax-4.5.5_manual_example.sgf": (1, "Result: game not finished"),
    "ggf/edax-4.5.5_manual_example.ggf": (1, "Result: game not finished"),
    "ggf/ggs_synchro_s8r18_edax-vs-roxane.ggf": (2, "Result: W+10 (black 27, white 37)"),
    "ggf/nboard_2014_game_with_passes.ggf": (1, "Result: game not finished"),
    "ggf/nboard_protocol_doc_example.ggf": (1, "Result: game not finished"),
    "ggf/novello_TestGames.ggf": (7, "Result: B+2 (black 33, white 31)"),
}

WOC2007 = ("f5d6c5f4e3c6d3f6e6d7g4g3g6h3g5h4e7f7h5h6e8f3c4c7d8c8b8b4b6b5a4a5a6e2a3d2d1c1b1c2"
           "c3b2f2f1a1b3e1a2g1g2h1h2h7g7h8b7a8a7f8g8")


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "genethello.cluster.cli.main", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def final_board_text(path, game: int = 1) -> str:
    """The final position as replay draws it: a finished game names no
    side to move ('game over; black 35, white 29')."""
    board = read_record(path)[game - 1].replay()
    text = str(board)
    if board.is_game_over():
        black, white = board.disc_count()
        text = text.rsplit("\n", 1)[0] + f"\ngame over; black {black}, white {white}"
    return text


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_delay_zero_goes_straight_to_the_end(name, data_dir, capsys):
    path = data_dir / "formats" / name
    game, result = SAMPLES[name]
    assert main(["replay", str(path), "--game", str(game), "--delay", "0"]) == 0
    out = capsys.readouterr().out
    moves = read_record(path)[game - 1].normalized().moves
    assert final_board_text(path, game) in out
    assert out.count("a b c d e f g h") == 1, "only the final position is drawn"
    if moves:
        assert f"Move {len(moves)}/{len(moves)}:" in out
    assert out.rstrip().splitlines()[-1].startswith(result)


def test_move_list_file(tmp_path, capsys):
    path = tmp_path / "woc2007.txt"
    path.write_text(WOC2007.upper() + "\n")
    assert main(["replay", str(path), "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "Move 60/60: white g8    discs: black 35, white 29" in out
    assert "game over; black 35, white 29\n" in out and "to move" not in out
    assert out.rstrip().splitlines()[-1] == "Result: B+6 (black 35, white 29)"


def test_multi_game_file_without_game_number_names_the_count(data_dir, capsys):
    path = data_dir / "formats" / "ggf" / "novello_TestGames.ggf"
    assert main(["replay", str(path), "--delay", "0"]) == 0
    assert "(game 1 of 12)" in capsys.readouterr().out
    assert main(["replay", str(path), "--game", "13", "--delay", "0"]) == 2
    assert "holds 12 games, not game 13" in capsys.readouterr().err


def test_delay_shows_every_move(data_dir, capsys):
    path = data_dir / "formats" / "ggf" / "nboard_2014_game_with_passes.ggf"
    moves = read_record(path)[0].normalized().moves
    assert main(["replay", str(path), "--delay", "0.001"]) == 0
    out = capsys.readouterr().out
    assert out.count("a b c d e f g h") == len(moves) + 1
    assert "passes" in out                    # the file's passes are shown as moves
    assert final_board_text(path) in out


def test_stepping_with_piped_input_shows_three_moves_then_quits(data_dir):
    path = data_dir / "formats" / "sgf" / "converted_woc2007-final-game1_letterdigit.sgf"
    proc = cli("replay", str(path), stdin="\n" * 3 + "q\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Start position (60 moves to replay)" in out
    for n, move in ((1, "black f5"), (2, "white d6"), (3, "black c5")):
        assert f"Move {n}/60: {move}" in out
    assert "Move 4/60" not in out and "Result:" not in out
    assert "Stopped at move 3/60" in out
    assert "[Enter]" not in out               # no prompt when stdin is not a terminal


def test_stepping_stops_at_end_of_input(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("f5d6c3\n")
    proc = cli("replay", str(path), stdin="\n\n")
    assert proc.returncode == 0, proc.stderr
    assert "Move 2/3: white d6" in proc.stdout and "Move 3/3" not in proc.stdout
    assert "Stopped at move 2/3 (end of input)" in proc.stdout


def test_malformed_sgf_is_one_line_naming_line_and_column(tmp_path):
    path = tmp_path / "bad.sgf"
    path.write_text("(;FF[4]GM[2]SZ[8]\n;B[f5];W[d6]\n;B[z9])\n")
    proc = cli("replay", str(path), "--delay", "0")
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("genethello replay: error: ")
    assert str(path) in lines[0] and "line 3, column" in lines[0]


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "too big"])
def test_only_regular_files_of_bounded_size_are_read(kind, tmp_path):
    """A FIFO used to hang replay (open() waits for a writer), /dev/zero to
    fill the memory: each is now refused in one line naming the path."""
    if kind == "fifo":
        path = tmp_path / "game.sgf"
        os.mkfifo(path)
    elif kind == "device":
        path = "/dev/zero"
    elif kind == "directory":
        path = tmp_path
    else:
        path = tmp_path / "big.txt"
        with open(path, "wb") as f:
            f.truncate(MAX_RECORD_FILE_BYTES + 1)       # sparse: no disk used
    proc = cli("replay", str(path), "--delay", "0")
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"genethello replay: error: {path}: cannot read {path}: "), \
        proc.stderr
    assert {"fifo": "a FIFO", "device": "a character device", "directory": "a directory",
            "too big": "MiB"}[kind] in lines[0]


def test_a_gzip_bomb_is_refused(tmp_path):
    """A small .gz that inflates beyond the limit is refused before it is
    all in memory."""
    path = tmp_path / "bomb.sgf.gz"
    with gzip.open(path, "wb", compresslevel=9) as f:
        for _ in range(MAX_RECORD_FILE_BYTES // (1 << 20) + 1):
            f.write(b"\0" * (1 << 20))
    assert path.stat().st_size < 1 << 20
    with pytest.raises(RecordError, match="inflates to more than"):
        read_record(path)
