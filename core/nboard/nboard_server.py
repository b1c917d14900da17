"""An engine for the NBoard Othello GUI (NBoard protocol v2; see docs/engines.md
and ``tests/data/formats/README.md``).

Commands are one line each; anything unknown is ignored. A line longer
than ``MAX_LINE_BYTES`` is skipped as it arrives and answered ``status line
too long``; an unexpected error inside a command is answered with one
``status internal error ...`` line, and the session goes on. The reader (the
calling thread) only queues lines; one worker thread answers them in order,
so answers always come in command order. Thinking (``hint``, ``go``,
``analyze``) runs on that worker and prints ``status``/``search``/
``nodestats`` lines as it goes; ``ping`` (and ``quit`` or the end of input)
stops it: the reader bumps a cancel generation and stops the Searcher (it
releases the GIL, so the reader runs while it searches), every thinking
command queued before the ping ends at once, and the ping's ``pong`` follows.

Evals are from the mover's side: a final disc margin when the search saw the
game end or solved it (``100%`` depth), otherwise the chromosome's heuristic
value in its own units, clamped to -64..64 (as in the GTP oracle commands).
"""

from __future__ import annotations

import contextlib
import queue
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import BinaryIO, TextIO, TypeVarTuple

from genethello.core.engine.board import Board
from genethello.core.engine.search import Searcher, SearchResult, disc_score
from genethello.core.engine.squares import BLACK, PASS, square_name
from genethello.core.evaluation.evaluation import BaseEvaluator
from genethello.core.frontend import defaults
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.lines import LINE_TOO_LONG, MAX_LINE_BYTES, read_lines
from genethello.core.frontend.safety import internal_error, one_line

_BARE_MOVE = re.compile(r"[a-hA-H][1-8]|[pP][aA]")
ENGINE_NAME = "genethello"


# ------------------------------------------------------------------ parsing
def split_command(line: str) -> tuple[str, str]:
    """(command name, the rest of the line stripped); ('', '') for a blank line."""
    text = line.strip()
    if not text:
        return "", ""
    head, _, rest = text.partition(" ")
    return head, rest.strip()


def parse_move_field(text: str) -> tuple[int, float | None, float | None]:
    """(square or PASS, eval, seconds) of ``F5``, ``F5/1.5``, ``f5/1.5/0.2``,
    ``PA//0.38``; empty or missing eval/time are None.

    Raises:
        ValueError: if the move or a number is malformed.
    """
    from genethello.core.records.ggf import parse_ggf_move

    parts = text.strip().split("/")
    if len(parts) > 3 or not parts[0]:
        raise ValueError(f"{text!r} is not a move (expected MOVE[/EVAL[/TIME]])")
    square = parse_ggf_move(parts[0])
    numbers: list[float | None] = []
    for part in parts[1:]:
        numbers.append(float(part) if part.strip() else None)
    numbers += [None] * (2 - len(numbers))
    return square, numbers[0], numbers[1]


def format_square(square: int) -> str:
    """``F5`` (upper case) or ``PA`` for a pass."""
    return "PA" if square == PASS else square_name(square).upper()


def format_pv(squares: Iterable[int]) -> str:
    """A PV without spaces: ``F5-D6-C3`` (``PA`` for passes)."""
    return "-".join(format_square(sq) for sq in squares)


def format_eval(score: float) -> str:
    return f"{float(score):.2f}"


def depth_text(depth: int, exact: bool) -> str:
    """The depth field of a search line: plies, or ``100%`` for a solve."""
    return "100%" if exact else str(depth)


def search_line(pv: Iterable[int], score: float, depth: int, exact: bool, text: str = "") -> str:
    """``search <pv> <eval> 0 <depth> <text>``."""
    line = f"search {format_pv(pv)} {format_eval(score)} 0 {depth_text(depth, exact)}"
    return f"{line} {text}" if text else line


def mover_value(board: Board, black_margin: int) -> int:
    """A Black margin turned to the side to move's view."""
    return black_margin if board.side_to_move == BLACK else -black_margin


def load_ggf_board(text: str) -> Board:
    """The position at the end of the (first) game in GGF text, its history
    holding the moves.

    Raises:
        ValueError (RecordError): for text that is not a legal GGF game.
    """
    from genethello.core.records import read_ggf

    return read_ggf(text)[0].replay()


# ------------------------------------------------------------------- engine
#: A move's score as a hint lists it: (score, square, pv, exact).
ScoredMove = tuple[int | float, int, tuple[int, ...], bool]
_Args = TypeVarTuple("_Args")


@dataclass
class _Job:
    line: str
    gen: int
    error: str | None = None     # why the line could not be read (answered as a status line)


class Cancelled(Exception):
    """A thinking command was stopped by ping, quit or the end of input."""


class NBoardFrontend:
    """Answers NBoard protocol commands for one player: genethello's NBoard
    front end (what the GUI calls an engine).

    Args:
        evaluator: the player's Evaluator.
        depth: midgame depth until the GUI sends ``set depth``.
        exact_empties: solve exactly at this many empty squares or fewer.
        tt_bits: log2 of the transposition table's buckets.
        out: where answers go (stdout); log: diagnostics (stderr).
    """

    def __init__(self, evaluator: BaseEvaluator, depth: int = defaults.DEPTH,
                 exact_empties: int = defaults.EXACT_EMPTIES, tt_bits: int = defaults.TT_BITS,
                 out: TextIO | None = None, log: TextIO | None = None, name: str = ENGINE_NAME) -> None:
        if not 1 <= depth <= 60:
            raise UserError(f"depth must be in 1..60, got {depth}")
        if not 0 <= exact_empties <= 60:
            raise UserError(f"exact empties must be in 0..60, got {exact_empties}")
        self.searcher = Searcher(evaluator, tt_bits=tt_bits)
        self.depth = depth
        self.exact_empties = exact_empties
        self.name = name
        self.out = out if out is not None else sys.stdout
        self.log = log if log is not None else sys.stderr
        self.board = Board()
        self.version = 0
        self._out_lock = threading.Lock()
        self._gen_lock = threading.Lock()
        self._cancel_gen = 0
        self._thinking: int | None = None    # gen of the thinking job now running
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._done = threading.Event()
        self._nodes = 0

    # -------------------------------------------------------------- output
    def emit(self, line: str) -> None:
        """Write one line to the GUI (line breaks inside it, which would make
        it two, become spaces)."""
        if "\n" in line or "\r" in line:
            line = line.replace("\r", " ").replace("\n", " ")
        with self._out_lock:
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):
                self._done.set()        # the GUI went away

    def _say(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            print(f"genethello nboard: {text}", file=self.log, flush=True)

    # ------------------------------------------------------------- driving
    def run(self, instream: BinaryIO) -> int:
        """Read commands until ``quit`` or the end of input; answer them on
        the worker thread."""
        worker = threading.Thread(target=self._work, name="nboard-worker", daemon=True)
        worker.start()
        try:
            for raw, cut in read_lines(instream, MAX_LINE_BYTES):
                if self._done.is_set():
                    break
                if cut:
                    self._queue.put(_Job("", self._cancel_gen, error=LINE_TOO_LONG))
                    continue
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                name, _ = split_command(line)
                if not name:
                    continue
                if name in ("ping", "quit"):
                    self.interrupt()
                self._queue.put(_Job(line, self._cancel_gen))
                if name == "quit":
                    break
        finally:
            self.interrupt()
            self._queue.put(None)
            while worker.is_alive():
                worker.join(timeout=0.1)
        return 0

    def interrupt(self) -> None:
        """Cancel every thinking command queued so far and stop the one
        running (the Searcher is stopped until that job has returned)."""
        with self._gen_lock:
            self._cancel_gen += 1
            gen = self._cancel_gen
        while True:
            running = self._thinking
            if running is None or running >= gen:
                return
            self.searcher.stop()
            time.sleep(0.001)

    def _cancelled(self, job: _Job) -> bool:
        return self._cancel_gen > job.gen

    def _check(self, job: _Job) -> None:
        if self._cancelled(job):
            raise Cancelled()

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                break
            try:
                if not self.handle(job):
                    break
            except Exception as exc:  # a bug must cost one command, not the session
                name, _ = split_command(job.line)
                message = internal_error(name, exc)
                self._say(f"{message} (line {one_line(job.line, 80)!r})")
                self.emit(f"status {message}")
        self._done.set()

    def handle(self, job: _Job) -> bool:
        """Answer one command line; False after ``quit``."""
        if job.error is not None:
            self.emit(f"status {job.error} (at most {MAX_LINE_BYTES} bytes a line)")
            return True
        name, rest = split_command(job.line)
        if name == "quit":
            return False
        if name == "nboard":
            try:
                self.version = int(rest.split()[0])
            except (ValueError, IndexError):
                self.version = 0
            if self.version != 2:
                self._say(f"NBoard protocol version {rest!r}; this engine speaks version 2")
            self.emit(f"set myname {self.name}")
        elif name == "set":
            self.cmd_set(rest)
        elif name == "move":
            self.cmd_move(rest)
        elif not rest and _BARE_MOVE.fullmatch(name):   # NBoard 1.1's bare 'F5'
            self.cmd_move(name)
        elif name == "hint":
            try:
                count = max(1, int(rest.split()[0]))
            except (ValueError, IndexError):
                count = 1
            self._think(job, self.cmd_hint, count)
        elif name == "go":
            self._think(job, self.cmd_go)
        elif name == "analyze":
            self._think(job, self.cmd_analyze)
        elif name == "ping":
            self.emit(f"pong {rest}".rstrip())
        elif name == "learn":
            self.emit("learned")
        # anything else is ignored, as the protocol asks
        return True

    def _think(self, job: _Job, method: Callable[[_Job, *_Args], None], *args: *_Args) -> None:
        with self._gen_lock:
            self._thinking = job.gen
        try:
            method(job, *args)
        finally:
            self._thinking = None

    # ------------------------------------------------------------ commands
    def cmd_set(self, rest: str) -> None:
        what, _, value = rest.partition(" ")
        value = value.strip()
        if what == "depth":
            try:
                depth = int(value.split()[0])
            except (ValueError, IndexError):
                depth = 0
            if not 1 <= depth <= 60:
                self.emit(f"status bad depth {value!r}: expected 1..60")
                return
            self.depth = depth
            self.emit(f"set myname {self.name}{depth}")
        elif what == "game":
            try:
                self.board = load_ggf_board(value)
            except ValueError as exc:
                self._say(f"set game: {exc}")
                self.emit(f"status cannot read the game: {exc}")
        # 'set contempt' and other settings are accepted and ignored

    def cmd_move(self, text: str) -> None:
        try:
            square, _, _ = parse_move_field(text)
        except ValueError as exc:
            self.emit(f"status bad move: {exc}")
            return
        board = self.board
        passed = False
        if square != PASS and board.must_pass():
            board.play(PASS)        # a GUI that leaves the pass out
            passed = True
        if (square == PASS and not board.must_pass()) or (square != PASS and not board.is_legal(square)):
            if passed:
                board.undo()
            self._say(f"illegal move {text!r} after {board.move_list() or 'the start'}")
            self.emit(f"status illegal move {text}")
            return
        board.play(square)

    # ------------------------------------------------------------- thinking
    def _depths(self, board: Board) -> list[int]:
        """Iterations of a think: 1..depth, or one solve in solver range."""
        if board.empties - 1 <= self.exact_empties:
            return [board.empties]
        return list(range(1, self.depth + 1))

    def _move_scores(self, job: _Job, board: Board, depth: int, order: list[int]) -> list[ScoredMove]:
        """[(score, square, pv, exact)] for every move at ``depth`` plies
        (the reply searched at depth-1), in ``order``. Raises Cancelled."""
        out: list[ScoredMove] = []
        solving = board.empties - 1 <= self.exact_empties
        if depth == 1 and not solving:
            for sq, v in self.searcher.move_values(board, 1, 0):
                score = disc_score(v, False, self.searcher.disc_units)
                out.append((score, sq, (sq,), isinstance(score, int)))
            return out
        for sq in order:
            self._check(job)
            child = board.copy()
            child.play(sq)
            if child.is_game_over():
                score = -mover_value(child, child.final_score())
                out.append((score, sq, (sq,), True))
                continue
            r = self.searcher.search(child, depth=max(1, depth - 1), exact_empties=self.exact_empties)
            self._nodes += r.nodes
            if not r.exact and r.depth < depth - 1:
                raise Cancelled()       # stopped inside the search
            score = -r.discs
            out.append((score, sq, (sq,) + tuple(r.pv), r.exact or isinstance(score, int)))
        return out

    def cmd_hint(self, job: _Job, count: int) -> None:
        """``status`` lines for the iterations, ``search`` lines for the
        top ``count`` moves after each completed one, then an empty
        ``status``."""
        board = self.board.copy()
        started = time.monotonic()
        self._nodes = 0
        try:
            if board.is_game_over():
                return
            if board.must_pass():
                after = board.copy()
                after.play(PASS)
                r = self._timed_search(job, after, self._depths(after)[-1])
                if r is not None:
                    self.emit(search_line((PASS,) + tuple(r.pv), -r.discs,
                                          r.depth, r.exact))
                return
            order = board.legal_moves()
            for depth in self._depths(board):
                self.emit(f"status {self.name} depth {depth_text(depth, depth == board.empties)}"
                          f" of {self.depth}")
                try:
                    scored = self._move_scores(job, board, depth, order)
                except Cancelled:
                    break
                scored.sort(key=lambda s: -s[0])
                order = [s[1] for s in scored]
                solved = board.empties - 1 <= self.exact_empties
                for score, _, pv, _exact in scored[:count]:
                    self.emit(search_line(pv, score, depth, solved))
                self.emit(f"nodestats {self._nodes} {time.monotonic() - started:.3f}")
        finally:
            self.emit("status")

    def _timed_search(self, job: _Job, board: Board, depth: int) -> SearchResult | None:
        if self._cancelled(job):
            return None
        return self.searcher.search(board, depth=min(depth, 60), exact_empties=self.exact_empties)

    def cmd_go(self, job: _Job) -> None:
        """``search`` lines per completed iteration, then ``=== MOVE/EVAL/TIME``
        (the move is not played). A go stopped by ping still answers, with
        its deepest completed iteration (NBoard drops answers before the
        pong)."""
        board = self.board.copy()
        started = time.monotonic()
        if board.is_game_over() or board.must_pass():
            self.emit("=== PA")
            self.emit("status")
            return
        best = None
        nodes = 0
        for depth in self._depths(board):
            if self._cancelled(job):
                break
            solving = depth == board.empties
            self.emit(f"status {self.name} depth {depth_text(depth, solving)} of {self.depth}")
            r = self.searcher.search(board, depth=min(depth, 60), exact_empties=self.exact_empties)
            nodes += r.nodes
            if not r.exact and r.depth < depth:
                break           # stopped
            best = r
            self.emit(search_line(r.pv or ((r.move,) if r.move is not None else ()), r.discs, r.depth, r.exact))
            self.emit(f"nodestats {nodes} {time.monotonic() - started:.3f}")
        if best is None or best.move is None:
            best = self.searcher.search(board, depth=1)
        move = best.move
        if move is None:    # never: a side that need not pass has a move
            raise RuntimeError("the search found no move")
        elapsed = time.monotonic() - started
        self.emit(f"=== {format_square(move)}/{format_eval(best.discs)}"
                  f"/{elapsed:.2f}")
        self.emit("status")

    def cmd_analyze(self, job: _Job) -> None:
        """``analysis <movesMade> <eval>`` for every position of the game,
        from the last back to the start (the side to move's view)."""
        board = self.board.copy()
        positions = []
        while True:
            positions.append((len(board.history), board.copy()))
            try:
                board.undo()
            except (IndexError, ValueError):
                break
        try:
            for made, pos in positions:
                if self._cancelled(job):
                    break
                self.emit(f"status analyzing move {made}")
                score: int | float
                if pos.is_game_over():
                    score = mover_value(pos, pos.final_score())
                else:
                    r = self.searcher.search(pos, depth=self.depth, exact_empties=self.exact_empties)
                    if not r.exact and r.depth < self.depth and self._cancelled(job):
                        break
                    score = r.discs
                self.emit(f"analysis {made} {format_eval(score)}")
        finally:
            self.emit("status")
