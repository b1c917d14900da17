"""Pondering through a real ``genethello gtp --ponder`` process: a hit, a
miss, state queries answered while pondering, and the counts of the
``genethello-ponder_stats`` extension and the stderr log."""

from __future__ import annotations

import sys
import time

from genethello.core import Board, parse_square, square_name
from genethello.core.gtp.client import GtpProcess

PLAYER = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
ENGINE = [sys.executable, "-m", "genethello.cluster.cli.main", "gtp", "--player", PLAYER]


def stats(engine: GtpProcess) -> dict:
    r = engine.send("genethello-ponder_stats")
    assert r.ok
    words = r.text.split()
    return dict(zip(words[::2], words[1::2]))


def test_ponder_hit_and_miss(tmp_path):
    log = tmp_path / "stderr.txt"
    board = Board()
    with open(log, "w") as err, GtpProcess(ENGINE + ["--time", "10", "--ponder"], stderr=err) as g:
        # Our move; then the engine ponders on its predicted reply.
        r = g.send("genmove black")
        assert r.ok
        board.play(parse_square(r.text))
        s = stats(g)
        assert s["hits"] == "0" and s["started"] == "1" and s["predicted"] != "-"
        predicted = s["predicted"]
        assert board.is_legal(parse_square(predicted))
        time.sleep(0.3)
        # State queries are answered at once and leave pondering on.
        for command in ("time_left white 9 0", "showboard", "known_command play", "name"):
            t0 = time.monotonic()
            assert g.send(command).ok
            assert time.monotonic() - t0 < 0.5
        assert stats(g)["predicted"] == predicted
        # The predicted reply: a hit; the search goes on into our genmove.
        assert g.send(f"play white {predicted}").ok
        board.play(parse_square(predicted))
        s = stats(g)
        assert (s["hits"], s["misses"]) == ("1", "0")
        r = g.send("genmove black")
        assert r.ok and board.is_legal(parse_square(r.text))
        board.play(parse_square(r.text))
        s = stats(g)
        assert float(s["saved"]) >= 0.3
        # Another reply than the predicted one: a miss.
        predicted = s["predicted"]
        other = next(m for m in board.legal_moves() if square_name(m) != predicted)
        assert g.send(f"play white {square_name(other)}").ok
        s = stats(g)
        assert (s["hits"], s["misses"], s["predicted"]) == ("1", "1", "-")
        # Undo during pondering cancels it and changes the position at once.
        r = g.send("genmove black")
        assert r.ok
        assert g.send("undo").ok
        s = stats(g)
        assert (s["hits"], s["misses"], s["cancelled"], s["predicted"]) == ("1", "1", "1", "-")
        assert g.send("reg_genmove black").ok
    text = log.read_text()
    assert "ponder hit on" in text and "ponder miss" in text
    assert "ponder stats: hits 1 misses 1" in text


def test_ponder_hit_at_fixed_depth_plays_the_searched_move(tmp_path):
    """--depth without a clock: the ponder search is the depth-N search of
    the predicted position, so on a hit genmove answers with its move."""
    with GtpProcess(ENGINE + ["--depth", "7", "--ponder"]) as g, GtpProcess(ENGINE + ["--depth", "7"]) as plain:
        first = g.send("genmove black").text
        assert plain.send(f"play black {first}").ok
        predicted = stats(g)["predicted"]
        for engine in (g, plain):
            assert engine.send(f"play white {predicted}").ok
        ours = g.send("genmove black").text
        s = stats(g)
        assert s["hits"] == "1" and float(s["saved"]) > 0
        assert ours.lower() == plain.send("genmove black").text.lower()


def test_engine_without_ponder_reports_off():
    with GtpProcess(ENGINE + ["--depth", "2"]) as g:
        assert g.send("genethello-ponder_stats").text == "off"
        assert g.send("genmove black").ok
