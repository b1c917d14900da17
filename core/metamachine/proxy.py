"""The metamachine: a GTP engine in front of another GTP engine, its oracle
(GNU Go's Metamachine idea, GNU Go manual §19.6).

Every command goes to the oracle verbatim (less the id, which the proxy
keeps) and its answer comes back, except ``genmove``: the proxy asks the
oracle for its top N moves (``top_moves_<colour> N``), tries each (``play``,
``estimate_score``, ``undo``) and plays the one with the best score for the
mover. The client sees an ordinary engine.

With the genethello oracle at depth D, ``top_moves`` scores every move with
a depth-D search and ``estimate_score`` after a candidate is a depth-D
search from the opponent's side: the metamachine searches its top N moves
one ply deeper than its oracle.

The oracle never outlives the proxy: ``quit``, the end of input, SIGTERM,
SIGINT and a crash of the oracle (answered as a GTP failure, then exit
status 1) all close it. Signals act at once whichever thread the kernel
hands them to (:mod:`genethello.core.metamachine.signals`).

Anything else goes on: a line over the length limit is answered ``? line
too long``, and an unexpected error inside one command is answered as a
one-line failure.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import BinaryIO, NoReturn, TextIO

from genethello.core.engine.squares import COLORS
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.safety import internal_error
from genethello.core.gtp.protocol import Command, read_commands, write_response
from genethello.core.metamachine.oracles import OracleError, OraclePool, Trial, parse_top_moves
from genethello.core.metamachine.signals import MainThreadWakeup

DEFAULT_TOP = 3


class Terminated(Exception):
    """SIGTERM arrived."""


def _sendable(command: str) -> str:
    """``command`` as UTF-8 can carry it to the oracle: bytes that were not
    UTF-8 on input (kept as surrogate escapes) become U+FFFD."""
    return command.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")


class MetaMachine:
    """Answers GTP commands through an :class:`OraclePool`.

    Args:
        pool: the oracles.
        top: candidates to try per genmove.
        debug: write the candidates and their scores to ``log``.
    """

    def __init__(self, pool: OraclePool, top: int = DEFAULT_TOP, debug: bool = False,
                 log: TextIO | None = None):
        if top < 1:
            raise UserError(f"--top must be >= 1, got {top}")
        self.pool = pool
        self.top = top
        self.debug = debug
        self.log = log if log is not None else sys.stderr
        self.quit_requested = False
        self.exit_status = 0

    def _say(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            print(f"genethello metamachine: {text}", file=self.log, flush=True)

    # ------------------------------------------------------------ commands
    def handle(self, cmd: Command) -> tuple[bool, str]:
        """(success, text) for one command: a line that could not be read
        (``cmd.error``) and any unexpected error are failures.

        Raises:
            OracleError: when the oracle fails (the session ends).
        """
        if cmd.error is not None:
            return False, cmd.error
        try:
            return self._answer(cmd)
        except OracleError:
            raise
        except Exception as exc:  # a bug must cost one command, not the session
            message = internal_error(cmd.name, exc)
            self._say(message)
            return False, message

    def _answer(self, cmd: Command) -> tuple[bool, str]:
        if not cmd.name:
            return False, "unknown command"
        if cmd.name == "genmove":
            return self.genmove(cmd)
        r = self.pool.send(_sendable(" ".join((cmd.name,) + cmd.args)))
        if cmd.name == "quit":
            self.quit_requested = True
        return r.ok, r.text

    def genmove(self, cmd: Command) -> tuple[bool, str]:
        if len(cmd.args) != 1 or cmd.args[0].lower() not in COLORS:
            return False, "syntax error"
        color = COLORS[cmd.args[0].lower()]
        t0 = time.monotonic()
        r = self.pool.send(self.pool.top_moves_command(color, self.top))
        t1 = time.monotonic()
        if not r.ok:
            return False, r.text
        candidates = parse_top_moves(r.text)[: self.top]
        if not candidates:
            # no move to choose from: the oracle passes (or the game is over)
            r = self.pool.send(f"genmove {color}")
            if r.ok and r.text.strip():
                self.pool.log.add(f"play {color} {r.text.strip()}")
            if self.debug:
                self._say(f"{color}: no candidates, the oracle answers {r.text.strip()!r}")
            return r.ok, r.text
        trials = [Trial(v, prior) for v, prior in candidates]
        if len(trials) > 1:
            self.pool.score(color, trials)
        t2 = time.monotonic()
        best = trials[0]
        for t in trials[1:]:
            if t.key is not None and (best.key is None or t.key > best.key):
                best = t
        if self.debug:
            by: Callable[[Trial], str] = (lambda t: f" by {t.by}") if self.pool.helpers else (lambda t: "")
            listed = ", ".join(f"{t.vertex} (top_moves {t.prior}, estimate_score "
                               f"{t.estimate.split()[0] if t.estimate else '-'}{by(t)})" for t in trials)
            self._say(f"{color} candidates: {listed}; plays {best.vertex}; "
                      f"top_moves {t1 - t0:.4f} s, scoring {t2 - t1:.4f} s")
        r = self.pool.send(f"play {color} {best.vertex}")
        if not r.ok:
            raise OracleError(f"the oracle refused its own move {best.vertex}: {r.text}")
        return True, best.vertex

    # -------------------------------------------------------------- driving
    def run(self, instream: BinaryIO, outstream: TextIO) -> int:
        """Answer commands until ``quit``, the end of input, a signal or
        the oracle's failure; always closes the oracles. Returns the exit
        status (0; 1 after an oracle failure; 130 SIGINT; 143 SIGTERM)."""
        with MainThreadWakeup():
            return self._run(instream, outstream)

    def _run(self, instream: BinaryIO, outstream: TextIO) -> int:
        def on_term(signum: int, frame: FrameType | None) -> NoReturn:
            raise Terminated()

        previous = signal.signal(signal.SIGTERM, on_term)
        force = False
        try:
            for cmd in read_commands(instream):
                try:
                    ok, text = self.handle(cmd)
                except OracleError as exc:
                    self._say(f"the oracle failed: {exc}")
                    write_response(outstream, cmd.id, False, f"oracle failed: {exc}")
                    self.exit_status = 1
                    force = True
                    break
                write_response(outstream, cmd.id, ok, text)
                if self.quit_requested:
                    break
        except KeyboardInterrupt:
            force = True
            self._say("interrupted")
            self.exit_status = 130
        except Terminated:
            force = True
            self._say("terminated")
            self.exit_status = 143
        except BrokenPipeError:
            force = True
        finally:
            # a second signal must not cut the closing short
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            old_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                self.pool.close(force=force)
            finally:
                signal.signal(signal.SIGINT, old_int)
                signal.signal(signal.SIGTERM, previous)
        return self.exit_status
