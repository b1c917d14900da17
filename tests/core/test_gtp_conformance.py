"""The GTP conformance scripts of tests/data/formats/gtp, fed to a real
``genethello gtp`` process: every answer must be the one the README there
describes."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

PLAYER = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
ENGINE = [sys.executable, "-m", "genethello.cluster.cli.main", "gtp", "--player", PLAYER, "--depth", "4"]
START = "---------------------------OX------XO---------------------------"
ROW = re.compile(r"^\s*([1-8])\s+((?:[XO.\-]\s*){8})")


def run_script(data: bytes) -> tuple[list[str], subprocess.CompletedProcess]:
    """The engine's answers to a whole script (it must exit by itself)."""
    proc = subprocess.run(ENGINE, input=data, capture_output=True, timeout=60)
    out = proc.stdout.decode()
    assert out.endswith("\n\n"), out[-200:]
    return out[:-2].split("\n\n"), proc


def diagram_position(answer: str) -> str:
    """The 64 squares a1..h8 (X, O, -) of a showboard diagram."""
    rows = {}
    for line in answer.split("\n"):
        m = ROW.match(line)
        if m:
            rows[int(m.group(1))] = m.group(2).replace(" ", "").replace(".", "-")
    assert sorted(rows) == list(range(1, 9)), answer
    return "".join(rows[r] for r in range(1, 9))


@pytest.fixture(scope="module")
def valid(data_dir):
    script = (data_dir / "formats" / "gtp" / "valid_session.gtp").read_bytes()
    answers, proc = run_script(script)
    assert proc.returncode == 0, proc.stderr.decode()
    return {int(re.match(r"[=?](\d+)", a).group(1)): a for a in answers}, answers, script


def test_valid_session_answers_every_command_in_order(valid):
    by_id, answers, script = valid
    assert len(answers) == 85
    assert [int(re.match(r"[=?](\d+)", a).group(1)) for a in answers] == list(range(1, 86))


def test_valid_session_simple_answers(valid):
    by_id, _, _ = valid
    failures = {20: "illegal move", 21: "illegal move", 23: "illegal move"}
    results = {1: "2", 4: "true", 5: "false", 82: "pass", 83: "B+24"}
    for cid, answer in by_id.items():
        if cid in failures:
            assert answer == f"?{cid} {failures[cid]}"
        elif cid in results:
            assert answer == f"={cid} {results[cid]}"
        elif cid in (7, 8, 9, 10, 14) or 15 <= cid <= 75 or 77 <= cid <= 81 or cid == 85:
            assert answer == f"={cid}", answer
    assert re.fullmatch(r"=2 \S.*", by_id[2])
    assert re.fullmatch(r"=3( .*)?", by_id[3])


def test_valid_session_list_commands_covers_the_script(valid):
    by_id, _, script = valid
    listed = by_id[6][len("=6 "):].split("\n")
    used = {line.split()[1] for line in script.decode().splitlines() if line.strip()}
    assert used <= set(listed), used - set(listed)
    assert "" not in listed


def test_valid_session_genmoves_and_boards(valid):
    by_id, _, _ = valid
    assert by_id[12][4:].lower() in {"c4", "d3", "e6", "f5"} and by_id[12][:4] == "=12 "
    assert by_id[13][4:].lower() in {"c4", "d3", "e6", "f5"} and by_id[13][:4] == "=13 "
    assert by_id[11].startswith("=11") and diagram_position(by_id[11]) == START
    assert diagram_position(by_id[76]) == "XXXOOX--OXOOOX--OOXOOXXXOXXXOXXXOOXOXXXXXXOXXOXXXXXOOOXXOXXXXXXX"
    assert "black to move" in by_id[76]
    assert diagram_position(by_id[84]) == "XXXOOXXOOXXXXXXXOOXOOOXXOXXXOXXXOOXOXXXXXXOXXOXXXXXOOOXXOXXXXXXX"


def test_malformed_session(data_dir):
    path = data_dir / "formats" / "gtp" / "malformed_session.gtp"
    script = path.read_bytes()
    lines = script.split(b"\n")
    assert b"\t" in lines[5] and lines[32].endswith(b"\r") and min(len(x) for x in lines[33:36]) > 9000
    answers, proc = run_script(script)
    assert proc.returncode == 0, proc.stderr.decode()
    expected = [
        "=1", "=2", None, "=7 2", None,
        "? unknown command", "? unknown command", "?99 unknown command",
        "?10 unknown command", "?11 unknown command",
        *[f"?{i} syntax error" for i in range(12, 23)],
        "=23", "?24 illegal move", "?25 illegal move", "?26 unacceptable size",
        *[f"?{i} syntax error" for i in range(27, 31)],
        None, None, "?33 unknown command", "?34 syntax error",
        "=35", "?36 cannot undo", "?37 cannot score", "=38",
    ]
    assert len(answers) == len(expected), answers
    for got, want in zip(answers, expected):
        if want is not None:
            assert got == want
    assert re.fullmatch(r"=3 \S.*", answers[2])
    version = answers[4][len("=2147483647"):]
    assert answers[4].startswith("=2147483647") and answers[30] == "=32" + version
    assert answers[29].startswith("=31")
    assert diagram_position(answers[29]) == "-------------------X-------XX------XO---------------------------"


# ------------------------------------------------ the profile, in process
def engine(**kw):
    from genethello.core.evaluation.evaluation import Evaluator
    from genethello.core.families.chromosome import Chromosome
    from genethello.core.gtp.gtp_server import GtpFrontend

    kw.setdefault("depth", 3)
    return GtpFrontend(Evaluator.from_chromosome(Chromosome.parse(PLAYER)), tt_bits=12, **kw)


def ask(eng, line: str) -> tuple[bool, str]:
    from genethello.core.gtp.protocol import parse_line

    return eng.handle(parse_line(line))


def opening_with_a_forced_pass():
    """A seeded random move sequence after which the side to move must pass."""
    import random

    from genethello.core import Board

    rng = random.Random(7)
    while True:
        b, seq = Board(), []
        while not b.is_game_over() and not b.must_pass():
            move = rng.choice(b.legal_moves())
            seq.append((b.side_to_move, move))
            b.play(move)
        if b.must_pass():
            return seq, b


def test_implicit_passes_and_undo():
    from genethello.core import square_name

    seq, board = opening_with_a_forced_pass()
    stuck = board.side_to_move
    mover = "white" if stuck == "black" else "black"
    eng = engine()
    for color, move in seq:
        assert ask(eng, f"play {color} {square_name(move)}") == (True, "")
    before = eng.board.copy()
    board.play(64)
    reply = board.legal_moves()[0]
    # Quarry style: the other colour moves without a pass being sent.
    assert ask(eng, f"play {mover} {square_name(reply)}") == (True, "")
    assert ask(eng, "undo") == (True, "")
    assert eng.board == before and eng.board.history == before.history
    # A pass by the wrong side, or a pass by the other side that has moves, fails and changes nothing.
    assert ask(eng, f"play {mover} pass") == (False, "illegal move")
    assert eng.board == before and eng.board.history == before.history
    # genmove for the other colour passes implicitly too.
    ok, vertex = ask(eng, f"genmove {mover}")
    assert ok and vertex != "pass"
    assert ask(eng, "undo") == (True, "")
    assert eng.board == before
    assert ask(eng, f"play {stuck} pass") == (True, "")
    assert eng.board.side_to_move == mover
    # genmove for a side that has no move answers pass.
    eng2 = engine()
    for color, move in seq:
        ask(eng2, f"play {color} {square_name(move)}")
    assert ask(eng2, f"genmove {stuck}") == (True, "pass")
    assert eng2.board.side_to_move == mover


def test_out_of_turn_genmove_is_refused():
    eng = engine()
    assert ask(eng, "genmove white") == (False, "white is not to move")
    assert ask(eng, "reg_genmove white") == (False, "white is not to move")
    assert ask(eng, "play white d3") == (False, "illegal move")
    assert eng.board.move_list() == ""


def test_oracle_commands():
    import re as _re

    eng = engine(depth=4)
    ok, text = ask(eng, "top_moves")
    pairs = text.split()
    assert ok and len(pairs) == 8                      # 4 legal moves at the start
    assert {pairs[0].lower(), pairs[2].lower()} <= {"c4", "d3", "e6", "f5"}
    scores = [float(x) for x in pairs[1::2]]
    assert scores == sorted(scores, reverse=True) and all("." in x for x in pairs[1::2])
    assert ask(eng, "top_moves 2")[1].count(" ") == 3
    assert eng.board.move_list() == ""                 # nothing played
    ok, text = ask(eng, "estimate_score")
    assert ok and _re.fullmatch(r"0|[BW]\+\d+(\.\d)?", text)


def test_oracle_scores_are_exact_discs_near_the_end():
    from genethello.core import Board
    from genethello.core.engine.search import Searcher
    from genethello.core.gtp.gtp_server import score_text

    eng = engine(depth=2, exact_empties=12)
    board = Board()
    # Play a game out with the engine to 10 empties, then ask the oracle.
    while board.empties > 10 and not board.is_game_over():
        color = board.side_to_move
        ok, vertex = ask(eng, f"genmove {color}")
        assert ok
        board = eng.board.copy()
    assert not board.is_game_over() and not board.must_pass()
    ok, text = ask(eng, "top_moves")
    pairs = text.split()
    solver = Searcher(eng.searcher.evaluator).solve(board)
    assert int(pairs[1]) == solver.value                 # integers: exact margins
    ok, est = ask(eng, "estimate_score")
    black_margin = solver.value if board.side_to_move == "black" else -solver.value
    assert est == score_text(black_margin)


def test_the_clock_is_never_exceeded():
    import time as _time

    eng = engine(depth=None, time=30)
    assert ask(eng, "time_settings 1 0 0") == (True, "")
    used = {"black": 0.0, "white": 0.0}
    while not eng.board.is_game_over():
        color = eng.board.side_to_move
        t0 = _time.monotonic()
        ok, _ = ask(eng, f"genmove {color}")
        used[color] += _time.monotonic() - t0
        assert ok
    assert used["black"] < 1.0 and used["white"] < 1.0


def test_a_staged_network_estimates_in_discs():
    """A staged network's values are 64 units a disc: estimate_score and
    top_moves say its discs (pbt-td-searcher said "B+43.0" for a value of
    43 units, 0.67 disc, and "B+64.0", the clamp, for anything past a disc)."""
    from genethello.core import Board
    from genethello.core.engine.search import Searcher
    from genethello.core.evaluation.network_evaluator import NetworkEvaluator
    from genethello.core.families.individual_names import shipped_network
    from genethello.core.gtp.gtp_server import GtpFrontend, score_text

    network = shipped_network("pbt-td-searcher").network
    eng = GtpFrontend(NetworkEvaluator(network), depth=4, tt_bits=12)
    assert eng.searcher.disc_units == 64
    assert ask(eng, "play b f5")[0]
    ok, est = ask(eng, "estimate_score")
    r = Searcher(NetworkEvaluator(network)).search(Board.from_moves("f5"), depth=4)
    assert ok and r.value != 0 and est == score_text(-r.value / 64)     # White to move: Black's is minus
    pairs = ask(eng, "top_moves")[1].split()
    assert all(abs(float(x)) < 20 for x in pairs[1::2])
