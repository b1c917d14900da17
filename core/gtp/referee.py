"""A referee for GTP Othello engines: it runs two engines as subprocesses,
asks each for its moves in turn, checks every answer against its own Board
and tells the other engine, and keeps the clocks. The engines are
:class:`~genethello.core.gtp.client.GtpProcess` clients (their own module).

    with GtpProcess(["gtp-rhino", "-l", "1"]) as a, GtpProcess(cmd_b) as b:
        game = Referee(black=a, white=b).play()
        assert not game.errors

The game itself is the one loop every Python-level game uses
(:func:`genethello.core.play.players.play`); each engine sits in it as a
:class:`RefereedEngine`. Like Quarry it never sends passes (engines must handle implicit passes)
unless ``send_passes`` is set. Anything an engine gets wrong ends the game
and is listed in :attr:`RefereeGame.errors`: a failed or malformed answer,
an answer with the wrong id, an illegal or unparseable move, a pass with a
legal move, a wrong ``final_score``, a crash or a timeout. Running out of
time is not a protocol error; it is :attr:`RefereeGame.time_loss`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from genethello.core.engine.board import Board
from genethello.core.engine.squares import BLACK, PASS, WHITE, Colour, square_name
from genethello.core.gtp.client import GtpProcess, ProtocolError
from genethello.core.gtp.gtp_server import parse_vertex, score_text
from genethello.core.gtp.protocol import GtpError
from genethello.core.play.players import BasePlayer, play


@dataclass
class RefereeGame:
    """One refereed game.

    Attributes:
        black, white: the engines' names.
        moves: squares played, passes included.
        board: the final position.
        errors: protocol errors (the game stopped at the first).
        time_loss: the colour whose clock ran out, else None.
        seconds: wall time each side spent answering genmove.
    """

    black: str
    white: str
    moves: list[int] = field(default_factory=list)
    board: Board = field(default_factory=Board)
    errors: list[str] = field(default_factory=list)
    time_loss: Colour | None = None
    seconds: dict[Colour, float] = field(default_factory=lambda: {BLACK: 0.0, WHITE: 0.0})

    @property
    def finished(self) -> bool:
        """The game was played to its end without protocol errors or a time loss."""
        return not self.errors and self.time_loss is None and self.board.is_game_over()

    @property
    def score(self) -> int | None:
        """Black's final margin (WOF) of a finished game; +-64 for a time
        loss; None after a protocol error."""
        if self.time_loss is not None:
            return -64 if self.time_loss == BLACK else 64
        return self.board.final_score() if self.finished else None

    def move_list(self) -> str:
        return "".join(square_name(m) for m in self.moves if m != PASS)


class EngineFault(Exception):
    """A refereed engine got something wrong; the message names it."""


class TimeLoss(Exception):
    """A refereed engine's clock ran out (``args[0]``: its colour)."""


class RefereedEngine(BasePlayer):
    """One GTP engine seated as a :class:`~genethello.core.play.players.Player`:
    asked with ``genmove`` (it plays its own move), told the other side's
    moves with ``play``, on a clock of its own. Every fault raises
    :class:`EngineFault` (or :class:`TimeLoss`), which ends the game."""

    def __init__(self, engine: GtpProcess, color: Colour, referee: Referee) -> None:
        self.engine = engine
        self.color = color
        self.name = engine.name
        self.referee = referee
        self.clock = referee.time_per_side
        self.seconds = 0.0
        self._own: int | None = None

    def send_ok(self, command: str, timeout: float | None = None) -> None:
        try:
            r = self.engine.send(command, timeout=timeout)
        except ProtocolError as exc:
            raise EngineFault(str(exc)) from None
        if not r.ok:
            raise EngineFault(f"{self.name} ({self.color}): {command!r} failed: {r.text}")

    def observe(self, board: Board, move: int) -> None:
        if move == PASS:
            if self.referee.send_passes:
                self.send_ok(f"play {board.side_to_move} pass")
            return
        if move == self._own:                   # genmove already played it
            self._own = None
            return
        self.send_ok(f"play {board.side_to_move} {square_name(move)}")

    def choose(self, board: Board) -> int:
        color = self.color
        timeout = self.referee.move_timeout
        if self.clock is not None:
            if self.referee.send_time_left:
                self.send_ok(f"time_left {color} {max(0, int(self.clock))} 0")
            timeout = max(0.0, self.clock) + 10.0
        t0 = time.monotonic()
        try:
            r = self.engine.send(f"genmove {color}", timeout=timeout)
        except ProtocolError as exc:
            raise EngineFault(str(exc)) from None
        used = time.monotonic() - t0
        self.seconds += used
        if self.clock is not None:
            self.clock -= used
            if self.clock < 0:
                raise TimeLoss(color)
        if not r.ok:
            raise EngineFault(f"{self.name} ({color}): genmove failed: {r.text}")
        try:
            move = parse_vertex(r.text.strip())
        except GtpError:
            raise EngineFault(f"{self.name} ({color}): genmove answered {r.text!r}, not a vertex") from None
        if move == PASS or not board.is_legal(move):
            raise EngineFault(f"{self.name} ({color}): illegal move {r.text.strip()!r} after "
                              f"{board.move_list()!r}")
        self._own = move
        return move


class Referee:
    """Plays games between two GtpProcess engines, each seated as a
    :class:`RefereedEngine` in the one game loop of
    :func:`genethello.core.play.players.play`.

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
        self.engines: dict[Colour, GtpProcess] = {BLACK: black, WHITE: white}
        self.time_per_side = time_per_side
        self.send_time_left = send_time_left
        self.send_passes = send_passes
        self.check_final_score = check_final_score
        self.move_timeout = move_timeout

    def play(self, opening: Sequence[int] = ()) -> RefereeGame:
        """Play one game from the start (after the opening moves, which are
        sent to both engines) to the end, or to the first protocol error.

        Raises:
            ValueError: an illegal opening move.
        """
        game = RefereeGame(self.engines[BLACK].name, self.engines[WHITE].name)
        seats = {color: RefereedEngine(engine, color, self) for color, engine in self.engines.items()}
        setup = ["boardsize 8", "clear_board"]
        if self.time_per_side is not None:
            setup.append(f"time_settings {int(self.time_per_side)} 0 0")
        try:
            for command in setup:
                for color in (BLACK, WHITE):
                    seats[color].send_ok(command)
            play(seats[BLACK], seats[WHITE], opening, board=game.board)
        except EngineFault as exc:
            game.errors.append(str(exc))
        except TimeLoss as exc:
            game.time_loss = exc.args[0]
        finally:
            game.moves = game.board.history
            game.seconds = {color: seat.seconds for color, seat in seats.items()}
        if game.errors or game.time_loss or not self.check_final_score:
            return game
        expected = score_text(game.board.final_score())
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
