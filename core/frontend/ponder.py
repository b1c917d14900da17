"""Pondering: thinking on the opponent's time.

After the engine answers ``genmove`` it predicts the opponent's reply (the
second move of its principal variation) and searches the position after
that reply on a background thread; the Searcher releases the GIL, so the
GTP reader keeps answering commands meanwhile.

* The opponent's ``play`` decides: if it leads to the predicted position it
  is a *hit* and the search keeps running until our ``genmove``; any other
  position is a *miss* and the search is stopped and dropped.
* At ``genmove`` on a hit, a midgame ponder search simply goes on as the
  move's search: it gets the move's time budget on top of what it already
  searched, then it is stopped and its deepest complete iteration is
  played. An endgame ponder search (an exact solve, which cannot be stopped
  and still give an answer) is stopped at once; what it solved stays in the
  engine's transposition table (exact entries are reused at any depth), so
  the move's own timed solve that follows is faster, and a solve that had
  already finished is played as it is. The pondering time of a hit (from
  the start of pondering to genmove) is counted as time saved.
* Anything else that needs the Searcher (``reg_genmove``, ``top_moves``,
  ``estimate_score``) or replaces the position (``undo``, ``clear_board``,
  ``loadsgf``) cancels the pondering first.

Counts are kept in :class:`PonderStats` and logged to stderr.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Protocol

from genethello.core.engine.board import Board
from genethello.core.engine.search import Searcher, SearchResult
from genethello.core.engine.squares import square_name


@dataclass
class PonderStats:
    """What pondering achieved so far (cumulative over the session).

    Attributes:
        started: ponder searches started.
        hits: the opponent played the predicted move.
        misses: the opponent played another move (the search was dropped).
        cancelled: pondering ended by another command before the opponent
            moved (undo, clear_board, an oracle command, quit).
        ponder_seconds: search time spent on the opponent's clock, all
            outcomes (time after our genmove arrived not included).
        saved_seconds: pondering time on hits: search time the engine got
            on the opponent's clock for positions it then had to play.
    """

    started: int = 0
    hits: int = 0
    misses: int = 0
    cancelled: int = 0
    ponder_seconds: float = 0.0
    saved_seconds: float = 0.0

    def line(self) -> str:
        """One line: ``hits H misses M cancelled C saved S ponder P started N``."""
        return (f"hits {self.hits} misses {self.misses} cancelled {self.cancelled} "
                f"saved {self.saved_seconds:.3f} ponder {self.ponder_seconds:.3f} started {self.started}")


class LogStream(Protocol):
    """Where the ponderer's lines go: a text stream (stderr by default)."""

    def write(self, text: str, /) -> int: ...
    def flush(self) -> None: ...


@dataclass
class PonderOutcome:
    """A hit handed to ``genmove``: the pondered search's result (None if it
    was stopped before completing one iteration) and its seconds."""

    result: SearchResult | None
    seconds: float


@dataclass
class _Job:
    board: Board
    predicted: int
    depth: int
    exact_empties: int
    started_at: float
    origin: Board | None = None
    thread: threading.Thread | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    result: SearchResult | None = None
    error: BaseException | None = None
    ended_at: float | None = None
    hit: bool = False


class Ponderer:
    """Runs ponder searches with an engine's Searcher on a background thread.

    The owner must call :meth:`cancel` (or :meth:`claim`) before using the
    Searcher itself: one Searcher cannot run two searches at once.
    """

    def __init__(self, searcher: Searcher, log: LogStream | None = None) -> None:
        self.searcher = searcher
        self.log: LogStream = log if log is not None else sys.stderr
        self.stats = PonderStats()
        self._job: _Job | None = None

    @property
    def active(self) -> bool:
        """A ponder job exists (running, or finished and waiting for the
        opponent's move or our genmove)."""
        return self._job is not None

    @property
    def predicted_board(self) -> Board | None:
        """The position being pondered (None when idle)."""
        return None if self._job is None else self._job.board

    @property
    def predicted_move(self) -> int | None:
        """The opponent's reply that pondering assumes (None when idle)."""
        return None if self._job is None else self._job.predicted

    def _say(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            print(f"genethello gtp: ponder {text}", file=self.log, flush=True)

    # ------------------------------------------------------------ lifecycle
    def start(self, board: Board, predicted: int, depth: int, exact_empties: int,
              origin: Board | None = None) -> None:
        """Ponder ``board`` (the position after the predicted reply
        ``predicted`` to ``origin``, our side to move), searching to
        ``depth`` plies."""
        self.cancel()
        job = _Job(board.copy(), predicted, depth, exact_empties, time.monotonic(),
                   origin.copy() if origin is not None else None)
        job.thread = threading.Thread(target=self._run, args=(job,), name="genethello-ponder", daemon=True)
        self._job = job
        self.stats.started += 1
        job.thread.start()

    def _run(self, job: _Job) -> None:
        if job.cancel.is_set():
            job.ended_at = time.monotonic()
            return
        try:
            job.result = self.searcher.search(job.board, depth=job.depth, exact_empties=job.exact_empties)
        except BaseException as exc:  # reported by the owner, never lost on the thread
            job.error = exc
        job.ended_at = time.monotonic()

    def _stop(self, job: _Job) -> float:
        """Stop the job's search and wait for its thread; its search seconds."""
        job.cancel.set()
        thread = job.thread
        while thread is not None and thread.is_alive():
            # stop() before the search has begun would be reset by it: repeat.
            self.searcher.stop()
            thread.join(0.005)
        end = job.ended_at if job.ended_at is not None else time.monotonic()
        seconds = max(0.0, end - job.started_at)
        self.stats.ponder_seconds += seconds
        return seconds

    # ------------------------------------------------------------- outcomes
    def position_changed(self, board: Board) -> None:
        """The opponent moved: a hit if ``board`` is the pondered position
        (the search keeps going), else a miss (the search is dropped)."""
        job = self._job
        if job is None or job.hit:
            if job is not None and board != job.board:
                self.cancel()
            return
        if board == job.board:
            job.hit = True
            self.stats.hits += 1
            self._say(f"hit on {square_name(job.predicted)} after "
                      f"{time.monotonic() - job.started_at:.3f} s")
        else:
            self._job = None
            seconds = self._stop(job)
            self.stats.misses += 1
            self._say(f"miss: predicted {square_name(job.predicted)}, "
                      f"dropped {seconds:.3f} s of pondering")

    def claim(self, board: Board, keep_searching: bool = False,
              budget: float | None = None) -> PonderOutcome | None:
        """For genmove on ``board``: end pondering. If it was pondering this
        very position (a hit; counted now if the reply came with the
        genmove as an implicit pass), return the pondered result.

        Args:
            keep_searching: let the ponder search go on as the move's search
                (up to ``budget`` seconds more, None for until it ends)
                before stopping it; else stop it at once.
        """
        job = self._job
        if job is None:
            return None
        self._job = None
        if board != job.board:
            seconds = self._stop(job)
            if job.hit or (job.origin is not None and board == job.origin):
                self.stats.cancelled += 1       # the opponent has not moved
            else:
                self.stats.misses += 1
                self._say(f"miss: predicted {square_name(job.predicted)}, "
                          f"dropped {seconds:.3f} s of pondering")
            return None
        if not job.hit:
            job.hit = True
            self.stats.hits += 1
            self._say(f"hit on {square_name(job.predicted)} (implicit pass)")
        claimed_at = time.monotonic()
        saved = claimed_at - job.started_at if job.ended_at is None else job.ended_at - job.started_at
        if keep_searching and job.thread is not None:
            job.thread.join(budget)
        self._stop(job)
        self.stats.ponder_seconds -= max(0.0, (job.ended_at or claimed_at) - max(claimed_at, job.started_at))
        self.stats.saved_seconds += saved
        if job.error is not None:
            self._say(f"search failed: {job.error!r}")
            return PonderOutcome(None, saved)
        depth = getattr(job.result, "depth", 0)
        self._say(f"saved {saved:.3f} s (search {'continued' if keep_searching else 'stopped'}, "
                  f"depth {depth}{' exact' if getattr(job.result, 'exact', False) else ''})")
        return PonderOutcome(job.result, saved)

    def cancel(self) -> None:
        """End pondering without using it (undo, new game, oracle commands,
        quit). Safe to call when idle."""
        job = self._job
        if job is None:
            return
        self._job = None
        self._stop(job)
        self.stats.cancelled += 1
