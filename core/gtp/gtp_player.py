"""An external GTP engine as a :class:`~genethello.core.play.players.Player`:
the referee's side of a match against ``gtp-rhino`` or any other Othello
GTP program. It lives with the GTP code, so that the players (and all that
plays games) never import the protocol."""

from __future__ import annotations

import shlex
import shutil

from genethello.core.engine.board import Board
from genethello.core.engine.squares import BLACK, PASS, parse_square, square_name
from genethello.core.frontend.errors import UserError
from genethello.core.gtp.client import GtpProcess
from genethello.core.play.players import BasePlayer

__all__ = ["GtpPlayer"]


class GtpPlayer(BasePlayer):
    """An external GTP engine (e.g. ``gtp-rhino -l 1``), kept in sync with
    play commands and asked with reg_genmove (the referee, not the engine,
    plays the move)."""

    def __init__(self, command: str) -> None:
        self.name = command
        argv = shlex.split(command)
        if not argv:
            raise UserError("GTP engine: an empty command")
        # Debian installs games (gtp-rhino) in /usr/games, often not on PATH.
        found = shutil.which(argv[0]) or shutil.which(argv[0], path="/usr/games")
        if found is None:
            hint = ("; it is Debian's grhino: sudo apt install grhino, or sudo bash tests/install_system_packages.sh"
                    if argv[0] == "gtp-rhino" else "")
            raise UserError(f"GTP engine {argv[0]!r} is not installed (not on PATH or in /usr/games){hint}")
        self.proc = GtpProcess([found] + argv[1:], name=command)
        for cmd in ("boardsize 8", "clear_board"):
            self._ok(cmd)

    def _ok(self, command: str) -> str:
        r = self.proc.send(command)
        if not r.ok:
            raise RuntimeError(f"GTP engine {self.name!r} refused {command!r}: {r.text}")
        return r.text

    def new_game(self, seed: int) -> None:
        self._ok("clear_board")

    def observe(self, board: Board, move: int) -> None:
        # Passes stay implicit, as the Othello profile allows: engines such as
        # gtp-rhino answer 'play b pass' with a syntax error.
        if move == PASS:
            return
        color = "b" if board.side_to_move == BLACK else "w"
        self._ok(f"play {color} {square_name(move)}")

    def choose(self, board: Board) -> int:
        color = "b" if board.side_to_move == BLACK else "w"
        return parse_square(self._ok(f"reg_genmove {color}").strip().lower())

    def close(self) -> None:
        self.proc.close()
