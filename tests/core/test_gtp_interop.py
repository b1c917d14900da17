"""Complete games between ``genethello gtp`` and GRhino's ``gtp-rhino``
(Debian package grhino) through the referee, which checks every move: no
protocol errors with either colour, with and without a clock."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from genethello.core.gtp.client import GtpProcess
from genethello.core.gtp.referee import Referee

PLAYER = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
ENGINE = [sys.executable, "-m", "genethello.cluster.cli.main", "gtp", "--player", PLAYER]


def find_rhino() -> str | None:
    found = shutil.which("gtp-rhino")
    if found:
        return found
    debian = Path("/usr/games/gtp-rhino")   # Debian installs games outside the usual PATH
    return str(debian) if debian.is_file() else None


RHINO = find_rhino()
pytestmark = pytest.mark.skipif(
    RHINO is None, reason="gtp-rhino is not installed (Debian/Ubuntu: apt-get install grhino)")


@pytest.mark.parametrize("ours", ["black", "white"])
def test_complete_games_against_gtp_rhino(ours):
    with GtpProcess(ENGINE + ["--depth", "3"], name="genethello") as g, \
            GtpProcess([RHINO, "-l", "1"], name="gtp-rhino") as r:
        for _ in range(2):
            black, white = (g, r) if ours == "black" else (r, g)
            game = Referee(black, white).play()
            assert game.errors == []
            assert game.finished and game.board.is_game_over()
            assert len([m for m in game.moves]) >= 30
        assert r.send("name").ok


def test_timed_game_with_pondering_against_gtp_rhino():
    """A clock of 3 s each, time_left before every move, our engine
    pondering: it must finish without protocol errors or losing on time."""
    with GtpProcess(ENGINE + ["--time", "3", "--ponder"], name="genethello") as g, \
            GtpProcess([RHINO, "-l", "1"], name="gtp-rhino") as r:
        game = Referee(r, g, time_per_side=3).play()
        assert game.errors == []
        assert game.time_loss is None and game.finished
        assert game.seconds["white"] < 3.0
