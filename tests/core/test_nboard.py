"""``genethello nboard``: scripted NBoard protocol sessions through a real
subprocess, and the pure parsing helpers."""

from __future__ import annotations

import contextlib
import queue
import subprocess
import sys
import threading
import time

import pytest

from genethello.core.engine.board import Board
from genethello.core.engine.squares import PASS, parse_square
from genethello.core.nboard.nboard_server import (
    format_pv,
    format_square,
    load_ggf_board,
    parse_move_field,
    search_line,
    split_command,
)

PLAYER = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
NBOARD = [sys.executable, "-m", "genethello.cluster.cli.main", "nboard", "--player", PLAYER]


class Session:
    """An NBoard engine subprocess, read line by line with timeouts."""

    def __init__(self, *extra: str):
        self.proc = subprocess.Popen(NBOARD + list(extra), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, predicate, timeout: float = 20.0) -> list[str]:
        """Lines up to and including the first one that satisfies predicate."""
        out = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no matching line within {timeout} s; got {out}") from None
            if line is None:
                raise AssertionError(f"engine closed its output; got {out}; stderr: {self.proc.stderr.read()}")
            out.append(line)
            self.seen.append(line)
            if predicate(line):
                return out

    def close(self) -> int:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.send("quit")
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdin.close()
            self.proc.stdout.close()
            self.proc.stderr.close()


@pytest.fixture
def session():
    s = Session()
    yield s
    assert s.close() == 0


@pytest.fixture
def doc_game(data_dir) -> str:
    """The `set game` argument of the NBoard protocol page's example session."""
    return (data_dir / "formats" / "ggf" / "nboard_protocol_doc_example.ggf").read_text().strip()


def move_of(pv_field: str) -> int:
    return parse_square(pv_field.split("-")[0])


# ------------------------------------------------------------------ helpers
def test_parse_move_field():
    assert parse_move_field("F5") == (parse_square("f5"), None, None)
    assert parse_move_field("f5/1.5/0.25") == (parse_square("f5"), 1.5, 0.25)
    assert parse_move_field("PA//0.38") == (PASS, None, 0.38)
    with pytest.raises(ValueError):
        parse_move_field("z9")
    with pytest.raises(ValueError):
        parse_move_field("f5/x")


def test_formats_and_split():
    assert format_square(parse_square("f5")) == "F5" and format_square(PASS) == "PA"
    assert format_pv([parse_square("f5"), parse_square("d6"), PASS]) == "F5-D6-PA"
    assert search_line([parse_square("f5")], 1.5, 6, False) == "search F5 1.50 0 6"
    assert search_line([parse_square("f5")], -2, 12, True, "x") == "search F5 -2.00 0 100% x"
    assert split_command("  set depth 12 ") == ("set", "depth 12")
    assert split_command("") == ("", "")


def test_load_ggf_board(doc_game):
    board = load_ggf_board(doc_game)
    assert board.move_list().lower() == "f5f6d3c5e6f7e7f4"
    assert board.side_to_move == "black"


# ----------------------------------------------------------------- sessions
def test_handshake_ping_learn_and_unknown_commands(session):
    session.send("nboard 2")
    assert session.until(lambda line: line.startswith("set myname")) == ["set myname genethello"]
    session.send("set depth 3")
    session.until(lambda line: line == "set myname genethello3")
    session.send("frobnicate the widget")     # ignored, no answer
    session.send("ping 7")
    assert session.until(lambda line: line.startswith("pong")) == ["pong 7"]
    session.send("learn")
    assert session.until(lambda line: line == "learned") == ["learned"]


def test_set_game_hint_go_move(session, doc_game):
    board = load_ggf_board(doc_game)
    session.send("nboard 2")
    session.send("set depth 4")
    session.send(f"set game {doc_game}")
    session.send("ping 1")
    session.until(lambda line: line == "pong 1")

    session.send("hint 3")
    lines = session.until(lambda line: line == "status")
    searches = [line for line in lines if line.startswith("search ")]
    statuses = [line for line in lines if line.startswith("status ")]
    assert statuses and searches
    assert len(searches) == 3 * 4           # the top 3 after each of depths 1..4
    last = searches[-3:]
    for line in last:
        words = line.split()
        assert words[3] == "0" and words[4] == "4"
        float(words[2])
        assert board.is_legal(move_of(words[1]))
    assert len({move_of(line.split()[1]) for line in last}) == 3
    evals = [float(line.split()[2]) for line in last]
    assert evals == sorted(evals, reverse=True)

    session.send("go")
    lines = session.until(lambda line: line.startswith("==="))
    move_text, eval_text, time_text = lines[-1].split()[1].split("/")
    chosen = parse_square(move_text)
    assert board.is_legal(chosen)
    float(eval_text), float(time_text)
    assert any(line.startswith("search ") for line in lines)
    session.until(lambda line: line == "status")
    # go does not play the move: a hint still answers for the same position
    session.send(f"move {move_text}/{eval_text}/{time_text}")
    board.play(chosen)
    session.send("hint 1")
    last = [line for line in session.until(lambda line: line == "status") if line.startswith("search ")][-1]
    assert board.is_legal(move_of(last.split()[1]))


def test_game_with_passes_and_bare_moves(session, data_dir):
    text = (data_dir / "formats" / "ggf" / "nboard_2014_game_with_passes.ggf").read_text().strip()
    board = load_ggf_board(text)
    session.send("nboard 2")
    session.send("set depth 2")
    session.send(f"set game {text}")
    session.send("go")
    move_text = session.until(lambda line: line.startswith("==="))[-1].split()[1].split("/")[0]
    assert move_text == "PA" if board.must_pass() else board.is_legal(parse_square(move_text))
    # a fresh game and NBoard 1.1's bare moves
    session.send("set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O"
                 "--------------------------- *];)")
    session.send("F5")
    session.send("move d6")
    session.send("go")
    move_text = session.until(lambda line: line.startswith("==="))[-1].split()[1].split("/")[0]
    assert Board.from_moves([parse_square("f5"), parse_square("d6")]).is_legal(parse_square(move_text))


def test_ping_stops_a_deep_hint(session, doc_game):
    session.send("nboard 2")
    session.send("set depth 40")
    session.send(f"set game {doc_game}")
    session.send("hint 2")
    session.until(lambda line: line.startswith("search "))    # it is thinking
    t0 = time.monotonic()
    session.send("ping 3")
    lines = session.until(lambda line: line.startswith("pong"), timeout=10)
    assert lines[-1] == "pong 3"
    assert "status" in lines            # the hint ended before the pong
    assert time.monotonic() - t0 < 5


def test_analyze(session, doc_game):
    session.send("nboard 2")
    session.send("set depth 2")
    session.send(f"set game {doc_game}")
    session.send("analyze")
    lines = session.until(lambda line: line == "analysis 0" or line.startswith("analysis 0 "))
    made = [int(line.split()[1]) for line in lines if line.startswith("analysis ")]
    assert made == list(range(8, -1, -1))
