"""Fuzzing the record readers and the engines' protocols with mutated real
samples (``tests/data/formats``): the readers raise only RecordError, and the
GTP engine, the NBoard engine and the metamachine answer every line, never
crash, never hang, and never hit their own catch-all ("internal error", which
would mean an exception nobody planned for).

Thousands of cases run in-process through the readers and the command
handlers (hypothesis, derandomized by the profile in tests/conftest.py); a
few dozen sessions run through real subprocesses, with a timeout.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.families.chromosome import Chromosome
from genethello.core.gtp.gtp_server import GtpFrontend
from genethello.core.gtp.protocol import LINE_TOO_LONG, read_commands
from genethello.core.nboard.nboard_server import NBoardFrontend, _Job
from genethello.core.records import (
    RecordError,
    read_ggf,
    read_moves,
    read_record,
    read_sgf,
    read_transcript,
    write_moves,
    write_transcript,
)

PLAYER = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
CLI = [sys.executable, "-m", "genethello.cluster.cli.main"]
FUZZ = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SESSIONS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces that broke something once, or look like they might: huge numbers,
# non-finite floats, record syntax, control and non-ASCII characters.
NASTY = [
    "9" * 400, "1" * 5000, "0" * 30 + "7", "-" + "9" * 40, "2147483647", "2147483648", "-1", "+0",
    "1e999", "-1e999", "nan", "inf", "1.5", "0x10", "1_000", "٣", "²", "ⅷ",
    "[", "]", "(;", ";)", "(", ")", ";", "\\", "\\]", ":", "/", "//", "--", "PA", "pass", "B[", "W[",
    "RE[+" + "9" * 400 + "]", "RE[-127.000]", "BO[8 ", "GM[2]", "GM[Othello]", "SZ[19]", "AB[a1:h8]",
    "AE[", "PL[W]", "TY[8]", " 1. ", "9" * 5000 + ". ", "...", "#", "\t", "\r", "\n", "\x00", "\x07",
    "\x7f", "é", "\u202e", "\ufeff", "😀", "  ", "a1", "h8", "i9", "F5", "d3", "z", "genmove b",
    "loadsgf /dev/zero", "/dev/zero", "/", "..", "%s", "{}",
]


def pieces() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(NASTY), st.text(max_size=6))


@st.composite
def mutated(draw, seeds: list[str], steps: int = 4) -> str:
    """One seed with 1..``steps`` mutations: insert a piece, delete, repeat
    or replace a span, splice in a span of another seed, cut the end."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, steps))):
        n = len(text)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 40)))
        kind = draw(st.sampled_from(["insert", "delete", "repeat", "replace", "splice", "cut"]))
        if kind == "insert":
            text = text[:i] + draw(pieces()) + text[i:]
        elif kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "repeat":
            text = text[:j] + text[i:j] * draw(st.integers(1, 3)) + text[j:]
        elif kind == "replace":
            text = text[:i] + draw(pieces()) + text[j:]
        elif kind == "splice":
            other = draw(st.sampled_from(seeds))
            k = draw(st.integers(0, len(other)))
            text = text[:i] + other[k:k + draw(st.integers(1, 60))] + text[j:]
        else:
            text = text[:i]
    return text


# ------------------------------------------------------------------ seeds
def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


@pytest.fixture(scope="module")
def record_seeds(data_dir: Path) -> list[str]:
    """The SGF and GGF samples, and move lists and transcripts of their games."""
    formats = data_dir / "formats"
    texts = [_read(p) for p in sorted(formats.glob("sgf/*.sgf")) + sorted(formats.glob("ggf/*.ggf"))]
    assert len(texts) >= 8, f"format samples missing under {formats}"
    derived = []
    for text in texts:
        for rec in read_record(text)[:3]:
            if rec.is_standard_start():
                derived += [write_moves(rec), write_transcript(rec)]
    return texts + derived


@pytest.fixture(scope="module")
def gtp_seeds(data_dir: Path) -> list[str]:
    """Windows of up to 12 lines of the conformance scripts (the long
    comment line of the malformed script kept short)."""
    lines = []
    for name in ("valid_session.gtp", "malformed_session.gtp"):
        for line in _read(data_dir / "formats" / "gtp" / name).splitlines():
            if not line.split("#")[0].strip().endswith("quit"):
                lines.append(line[:200])
    return ["\n".join(lines[k:k + 12]) + "\n" for k in range(0, len(lines), 4)]


@pytest.fixture(scope="module")
def nboard_seeds(data_dir: Path) -> list[str]:
    """NBoard sessions around the GGF samples' games."""
    games = []
    for path in sorted((data_dir / "formats" / "ggf").glob("*.ggf")):
        for line in _read(path).splitlines():
            start = line.find("(;")
            if start >= 0 and len(line) < 4000:
                games.append(line[start:])
    assert games, "no GGF game found in the samples"
    tail = ["move F5/1.0/0.2", "hint 3", "go", "ping 1", "learn", "analyze", "set contempt 0", "F5",
            "move PA", "set depth 2", "hint 1", "ping 2"]
    return ["\n".join(["nboard 2", "set depth 1", f"set game {g}"] + tail) + "\n" for g in games[:12]]


@pytest.fixture(scope="module")
def fifo(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("fuzz") / "fifo"
    os.mkfifo(path)
    return path


def evaluator() -> Evaluator:
    return Evaluator.from_chromosome(Chromosome.parse(PLAYER))


# ---------------------------------------------------------------- readers
READERS = [read_sgf, read_ggf, read_moves, read_transcript, read_record]


@FUZZ
@given(data=st.data())
def test_record_readers_raise_only_record_errors(record_seeds, data):
    text = data.draw(mutated(record_seeds))
    for reader in READERS:
        try:
            records = reader(text)
        except RecordError:
            continue
        for rec in records:
            with contextlib.suppress(RecordError):
                rec.normalized()


# ------------------------------------------------------------------- GTP
def answers(output: str) -> list[str]:
    """The answers in an engine's output, each checked to be well formed."""
    blocks = output.split("\n\n")
    assert blocks[-1] == "", f"output does not end with an empty line: {output[-80:]!r}"
    for block in blocks[:-1]:
        assert block[:1] in ("=", "?"), f"malformed answer {block[:80]!r}"
    return blocks[:-1]


def command_count(session: bytes) -> int:
    """How many answers the session asks for (up to and including quit)."""
    count = 0
    for cmd in read_commands(io.BytesIO(session)):
        count += 1
        if cmd.name == "quit":
            break
    return count


def assert_clean_gtp_run(session: bytes) -> list[str]:
    engine = GtpFrontend(evaluator(), depth=1, exact_empties=4, tt_bits=8, log=io.StringIO())
    out = io.StringIO()
    assert engine.run(io.BytesIO(session), out) == 0
    got = answers(out.getvalue())
    assert len(got) == command_count(session)
    assert not [a for a in got if "internal error" in a], got
    return got


@SESSIONS
@given(data=st.data())
def test_gtp_engine_answers_every_mutated_line(gtp_seeds, fifo, data):
    seeds = gtp_seeds + [f"1 loadsgf {fifo}\n2 genmove b\n", "loadsgf /dev/zero\nshowboard\n"]
    session = data.draw(mutated(seeds)).encode("utf-8", errors="surrogateescape")
    if data.draw(st.booleans()):
        session += bytes(data.draw(st.binary(max_size=12)))      # undecodable bytes too
    assert_clean_gtp_run(session)


def test_the_issues_gtp_lines_are_answered_and_the_session_goes_on(fifo, tmp_path):
    session = "\n".join([
        "1 time_settings " + "4" * 400 + " 0 0",        # was an OverflowError traceback
        "2 boardsize " + "5" * 5000,                     # exited (ValueError)
        "3 " + "x" * 200_000,                            # lines had no length limit
        f"4 loadsgf {fifo}",                             # hung
        "5 loadsgf /dev/zero",                           # exhausted memory
        f"6 loadsgf {tmp_path}",
        "7 time_left black " + "9" * 30 + " 0",
        "8 komi 1e999",
        "9 genmove black",
    ]) + "\n"
    got = assert_clean_gtp_run(session.encode())
    assert got[:8] == ["?1 syntax error", "?2 syntax error", f"?3 {LINE_TOO_LONG}", "?4 cannot load file",
                       "?5 cannot load file", "?6 cannot load file", "?7 syntax error", "?8 syntax error"]
    assert got[8].startswith("=9 ")


def test_an_unexpected_error_inside_a_command_is_one_failure(monkeypatch):
    """The catch-all: a command that raises what nobody planned for (here
    an injected ZeroDivisionError) is answered with one line, and the next
    command is served."""
    engine = GtpFrontend(evaluator(), depth=1, log=io.StringIO())
    monkeypatch.setitem(engine.commands, "showboard", lambda cmd: 1 // 0)
    out = io.StringIO()
    engine.run(io.BytesIO(b"1 showboard\n2 name\n"), out)
    assert out.getvalue() == ("?1 internal error in showboard: ZeroDivisionError: integer division or modulo "
                              "by zero\n\n=2 genethello\n\n")


# ----------------------------------------------------------------- NBoard
def nboard_lines(session: str) -> list[str]:
    """The session's lines, less ``set depth`` beyond 3 (deep searches are
    slow, not wrong) and ``quit``."""
    kept = []
    for line in session.splitlines():
        words = line.split()
        if words[:2] == ["set", "depth"] and len(words) > 2 and words[2].isascii() and words[2].isdigit() \
                and len(words[2]) < 4 and int(words[2]) > 3:
            continue
        if words[:1] != ["quit"]:
            kept.append(line)
    return kept


@SESSIONS
@given(data=st.data())
def test_nboard_engine_handles_every_mutated_line(nboard_seeds, data):
    out = io.StringIO()
    engine = NBoardFrontend(evaluator(), depth=1, exact_empties=4, tt_bits=8, out=out, log=io.StringIO())
    for line in nboard_lines(data.draw(mutated(nboard_seeds))):
        assert engine.handle(_Job(line, 0)) is True
    assert "internal error" not in out.getvalue()


def test_nboard_answers_a_line_too_long_and_goes_on():
    out = io.StringIO()
    engine = NBoardFrontend(evaluator(), depth=1, out=out, log=io.StringIO())
    engine.run(io.BytesIO(b"nboard 2\nset game " + b"x" * 300_000 + b"\nping 7\n"))
    lines = out.getvalue().splitlines()
    assert lines[0] == "set myname genethello"
    assert lines[1].startswith(f"status {LINE_TOO_LONG}") and lines[2] == "pong 7"


# ------------------------------------------------------------ subprocesses
def _sessions(seeds: list[str], count: int, seed: int) -> list[str]:
    """``count`` mutated sessions drawn with a fixed seed (no hypothesis:
    each runs through a real process)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        text = rng.choice(seeds)
        for _ in range(rng.randint(1, 4)):
            i = rng.randint(0, len(text))
            j = min(len(text), i + rng.randint(0, 30))
            text = text[:i] + rng.choice(NASTY + [""]) + text[j:]
        out.append(text)
    return out


def _run(argv: list[str], stdin: bytes, timeout: float = 60) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, input=stdin, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:      # subprocess.run has killed it
        raise AssertionError(f"{argv[3]} hung on its input; stderr: {exc.stderr!r}") from None


@pytest.mark.parametrize("kind", ["gtp", "metamachine"])
def test_gtp_subprocesses_survive_mutated_sessions(kind, gtp_seeds, fifo):
    """Twelve mutated sessions, one after the other, through one real
    engine process per kind (the metamachine with its real oracle): every
    command is answered and the process ends cleanly at the end of input."""
    engine = CLI + ["gtp", "--player", PLAYER, "--depth", "1", "--exact", "4"]
    argv = engine if kind == "gtp" else CLI + ["metamachine", "--top", "2", "--"] + engine
    text = "".join(s.replace("quit", "name") + "\nclear_board\n"
                   for s in _sessions(gtp_seeds + [f"loadsgf {fifo}\n"], 12, seed=10))
    session = text.encode("utf-8", errors="surrogateescape") + b"1 " + b"7" * 3_000_000 + b"\n2 name\n"
    p = _run(argv, session)
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-2000:]
    got = answers(p.stdout.decode("utf-8"))
    assert len(got) == command_count(session)
    assert got[-2:] == [f"?1 {LINE_TOO_LONG}", "=2 genethello"]
    assert not [a for a in got if "internal error" in a]
    assert b"Traceback" not in p.stderr


def test_nboard_subprocess_survives_mutated_sessions(nboard_seeds):
    sessions = _sessions(nboard_seeds, 12, seed=11)
    lines = [line for s in sessions for line in nboard_lines(s)] + ["ping 99"]
    session = "\n".join(lines).encode("utf-8", errors="surrogateescape") + b"\n" + b"x" * 3_000_000 + b"\nping 100\n"
    p = _run(CLI + ["nboard", "--player", PLAYER, "--depth", "1", "--exact", "4", "--tt-bits", "8"], session)
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-2000:]
    out = p.stdout.decode("utf-8").splitlines()
    assert "pong 99" in out and out[-1] == "pong 100"
    assert not [line for line in out if "internal error" in line]
    assert b"Traceback" not in p.stderr
