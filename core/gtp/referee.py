"""A referee for GTP Othello engines: it runs two engines as subprocesses,
asks each for its moves in turn, checks every answer against its own Board
and tells the other engine, and keeps the clocks. The engines are
:class:`~genethello.core.gtp.client.GtpProcess` clients (their own module).

    with GtpProcess(["gtp-rhino", "-l", "1"]) as a, GtpProcess(cmd_b) as b:
        game = Referee(black=a, white=b).play()
        assert not game.errors

Like Quarry it never sends passes (engines must handle implicit passes)
unless ``send_passes`` is set. Anything an engine gets wrong ends the game
and is listed in :attr:`RefereeGame.errors`: a failed or malformed answer,
an answer with the wrong id, an illegal or unparseable move, a pass with a
legal move, a wrong ``final_score``, a crash or a timeout. Running out of
time is not a protocol error; it is :attr:`RefereeGame.time_loss`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

from genethello.core.board import Board
from genethello.core.squares import PASS, square_name
from genethello.core.gtp.engine import parse_vertex, score_text
from genethello.core.gtp.client import GtpProcess, ProtocolError
from genethello.core.gtp.protocol import GtpError


@dataclass
class RefereeGame:
    """One refereed game.

    Attributes:
        black, white: the engines' names.
        moves: squares played, passes included.
        board: the final position.
        errors: protocol errors (the game stopped at the first).
        time_loss: 'black'/'white' if that clock ran out, else None.
        seconds: wall time each side spent answering genmove.
    """

    black: str
    white: str
    moves: list = field(default_factory=list)
    board: Board = field(default_factory=Board)
    errors: list = field(default_factory=list)
    time_loss: Optional[str] = None
    seconds: dict = field(default_factory=lambda: {"black": 0.0, "white": 0.0})

    @property
    def finished(self) -> bool:
        """The game was played to its end without protocol errors or a time loss."""
        return not self.errors and self.time_loss is None and self.board.is_game_over()

    @property
    def score(self) -> Optional[int]:
        """Black's final margin (WOF) of a finished game; +-64 for a time
        loss; None after a protocol error."""
        if self.time_loss is not None:
            return -64 if self.time_loss == "black" else 64
        return self.board.final_score() if self.finished else None

    def move_list(self) -> str:
        return "".join(square_name(m) for m in self.moves if m != PASS)


class Referee:
    """Plays games between two GtpProcess engines.

    Args:
        black, white: the engines.
        time_per_side: seconds on each clock for the whole game (absolute
            time, sent as ``time_settings``), or None for no clock.
        send_time_left: send ``time_left`` before every genmove.
        send_passes: tell the engines about passes (``play c pass``); off,
            like Quarry, which relies on implicit passes.
        check_final_score: at the end ask both engines for ``final_score``
            and check it (WOF rule).
        move_timeout: seconds to wait for a genmove without a clock.
    """

    def __init__(self, black: GtpProcess, white: GtpProcess, time_per_side: float | None = None,
                 send_time_left: bool = True, send_passes: bool = False, check_final_score: bool = True,
                 move_timeout: float = 120.0):
        self.engines = {"black": black, "white": white}
        self.time_per_side = time_per_side
        self.send_time_left = send_time_left
        self.send_passes = send_passes
        self.check_final_score = check_final_score
        self.move_timeout = move_timeout

    def _expect_ok(self, color: str, command: str, game: RefereeGame, timeout: float | None = None) -> bool:
        engine = self.engines[color]
        try:
            r = engine.send(command, timeout=timeout)
        except ProtocolError as exc:
            game.errors.append(str(exc))
            return False
        if not r.ok:
            game.errors.append(f"{engine.name} ({color}): {command!r} failed: {r.text}")
            return False
        return True

    def _both(self, command: str, game: RefereeGame) -> bool:
        return all(self._expect_ok(c, command, game) for c in ("black", "white"))

    def play(self, opening: Sequence[int] = ()) -> RefereeGame:
        """Play one game from the start (after the opening moves, which are
        sent to both engines) to the end, or to the first protocol error."""
        game = RefereeGame(self.engines["black"].name, self.engines["white"].name)
        board = game.board
        clock = {"black": self.time_per_side, "white": self.time_per_side}
        setup = ["boardsize 8", "clear_board"]
        if self.time_per_side is not None:
            setup.append(f"time_settings {int(self.time_per_side)} 0 0")
        for command in setup:
            if not self._both(command, game):
                return game
        for move in opening:
            if not self._pass_if_needed(game):
                return game
            color = board.side_to_move
            if move == PASS or not board.is_legal(move):
                raise ValueError(f"opening move {square_name(move)} is illegal after {game.move_list()!r}")
            board.play(move)
            game.moves.append(move)
            if not self._both(f"play {color} {square_name(move)}", game):
                return game
        while not board.is_game_over():
            if not self._pass_if_needed(game):
                return game
            if board.is_game_over():
                break
            color = board.side_to_move
            other = "white" if color == "black" else "black"
            engine = self.engines[color]
            timeout = self.move_timeout
            if clock[color] is not None:
                if self.send_time_left and not self._expect_ok(
                        color, f"time_left {color} {max(0, int(clock[color]))} 0", game):
                    return game
                timeout = max(0.0, clock[color]) + 10.0
            t0 = time.monotonic()
            try:
                r = engine.send(f"genmove {color}", timeout=timeout)
            except ProtocolError as exc:
                game.errors.append(str(exc))
                return game
            used = time.monotonic() - t0
            game.seconds[color] += used
            if clock[color] is not None:
                clock[color] -= used
                if clock[color] < 0:
                    game.time_loss = color
                    return game
            if not r.ok:
                game.errors.append(f"{engine.name} ({color}): genmove failed: {r.text}")
                return game
            try:
                move = parse_vertex(r.text.strip())
            except GtpError:
                game.errors.append(f"{engine.name} ({color}): genmove answered {r.text!r}, not a vertex")
                return game
            if move == PASS or not board.is_legal(move):
                game.errors.append(f"{engine.name} ({color}): illegal move {r.text.strip()!r} after "
                                   f"{game.move_list()!r}")
                return game
            board.play(move)
            game.moves.append(move)
            if not self._expect_ok(other, f"play {color} {square_name(move)}", game):
                return game
        if self.check_final_score:
            expected = score_text(board.final_score())
            for color, engine in self.engines.items():
                try:
                    r = engine.send("final_score")
                except ProtocolError as exc:
                    game.errors.append(str(exc))
                    continue
                if not r.ok or r.text.strip() != expected:
                    game.errors.append(f"{engine.name} ({color}): final_score {r.text.strip()!r}, "
                                       f"expected {expected!r}")
        return game

    def _pass_if_needed(self, game: RefereeGame) -> bool:
        board = game.board
        if board.must_pass():
            color = board.side_to_move
            board.play(PASS)
            game.moves.append(PASS)
            if self.send_passes:
                return self._both(f"play {color} pass", game)
        return True
