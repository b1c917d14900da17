"""The GTP engine: the Othello profile of ``tests/data/formats/gtp`` on a
Board and a Searcher.

Profile (see docs/gtp.md): boardsize 8 only; vertices ``a1``-``h8`` in any
case with row 1 at the top, and ``pass``; Black moves first from d5/e4.
``play`` refuses a move by the side not on turn (a deliberate deviation
from GTP §6.3.3, which allows consecutive moves of one colour: Othello does
not), except that a move by the other colour is taken as an implicit pass
when the side to move has no legal move (Quarry never sends passes). The
same holds for ``genmove``. ``final_score`` gives the empty squares to the
winner (WOF). Failing commands change no state.

Oracle commands (GNU Go's names): ``top_moves``/``top_moves_black``/
``top_moves_white`` list up to 10 (or N) ``vertex score`` pairs, best first,
from full-window searches at the engine's depth; ``estimate_score`` answers
``B+n``/``W+n``/``0``. Scores are final disc margins, exact integers when
the position is solved (at most ``exact_empties`` empty squares, or the
search sees the game end); otherwise they are the chromosome's heuristic
evaluation, printed with decimals
(:func:`genethello.core.engine.search.disc_score`).

Private extensions: ``genethello-ponder_stats`` and
``genethello-search_stats``.
"""

from __future__ import annotations

import contextlib
import math
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

from genethello.core.engine.board import Board
from genethello.core.engine.search import Searcher, SearchResult, disc_score
from genethello.core.engine.squares import BLACK, COLUMNS, PASS, WHITE, BadColorError, Colour, square_name
from genethello.core.engine.squares import parse_color as color_name
from genethello.core.evaluation.evaluation import BaseEvaluator
from genethello.core.frontend import defaults
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.ponder import Ponderer
from genethello.core.frontend.safety import internal_error
from genethello.core.gtp.protocol import Command, GtpError, read_commands, write_response
from genethello.core.play.timecontrol import move_budget

ENGINE_NAME = "genethello"
DEFAULT_TOP_MOVES = 10

_VERTEX = re.compile(r"[a-hA-H][1-8]")
# GTP §3: an int is at most 2^31-1. At most 10 digits (after leading zeros)
# keeps int() away from huge numbers (Python refuses over 4300 digits, and a
# 400-digit time overflows a float later).
_INT = re.compile(r"[+-]?0*([0-9]{1,10})")
_UINT = re.compile(r"0*([0-9]{1,10})")
MAX_INT = 2 ** 31 - 1
# The largest loadsgf file: a record with thousands of games is a few MB.
MAX_RECORD_BYTES = 16 * 1024 * 1024


def engine_version() -> str:
    try:
        from importlib.metadata import version
        return version("genethello")
    except Exception:  # not installed as a distribution
        return "0"


# ---------------------------------------------------------------- arguments
def parse_color(text: str) -> Colour:
    """'black'/'white' for b, black, w, white in any case (the GTP
    argument form of :func:`genethello.core.engine.squares.parse_color`).

    Raises:
        GtpError('syntax error'): for anything else.
    """
    try:
        return color_name(text)
    except BadColorError:
        raise GtpError("syntax error") from None


def parse_vertex(text: str) -> int:
    """Square index for a1..h8 (any case, row 1 at the top) or PASS."""
    if text.lower() == "pass":
        return PASS
    if not _VERTEX.fullmatch(text):
        raise GtpError("syntax error")
    return COLUMNS.index(text[0].lower()) + 8 * (int(text[1]) - 1)


def vertex_name(square: int) -> str:
    """'d3' or 'pass'."""
    return square_name(square)


def parse_int(text: str, unsigned: bool = False) -> int:
    """A GTP int: ASCII digits (a sign too unless ``unsigned``), at most
    2^31-1 in magnitude.

    Raises:
        GtpError('syntax error'): for anything else, huge numbers included.
    """
    match = (_UINT if unsigned else _INT).fullmatch(text)
    if not match:
        raise GtpError("syntax error")
    value = -int(match.group(1)) if text.startswith("-") else int(match.group(1))
    if abs(value) > MAX_INT:
        raise GtpError("syntax error")
    return value


def parse_float(text: str) -> float:
    """A finite GTP float (infinities, NaN and overflowing numbers refused).

    Raises:
        GtpError('syntax error'): if ``text`` is not one.
    """
    try:
        value = float(text)
    except ValueError:
        raise GtpError("syntax error") from None
    if not math.isfinite(value):
        raise GtpError("syntax error")
    return value


def expect_args(cmd: Command, low: int, high: int | None = None) -> tuple[str, ...]:
    high = low if high is None else high
    if not low <= len(cmd.args) <= high:
        raise GtpError("syntax error")
    return cmd.args


def score_text(black_margin: int | float) -> str:
    """'B+n', 'W+n' or '0' (Black's margin; decimals kept for estimates)."""
    if isinstance(black_margin, float):
        text = f"{abs(black_margin):.1f}"
        if text in ("0.0", "-0.0"):
            return "0"
        return ("B+" if black_margin > 0 else "W+") + text
    if black_margin > 0:
        return f"B+{black_margin}"
    if black_margin < 0:
        return f"W+{-black_margin}"
    return "0"


def format_disc_score(score: int | float) -> str:
    return f"{score:.2f}" if isinstance(score, float) else str(score)


# --------------------------------------------------------------------- clock
class GameClock:
    """Both players' clocks as GTP describes them (time_settings, time_left),
    and the budget of one move.

    Without time settings from the controller the engine's own default (the
    ``--time`` seconds per game, absolute) applies, if any. Each colour's
    clock is charged the wall time of its genmoves; ``time_left`` replaces it
    with the controller's figure, except that an integer report is taken as
    the controller truncating: a tracked value within one second above it is
    kept, as the more precise.
    """

    def __init__(self, default_seconds: float | None = None):
        self.default_seconds = default_seconds
        self.settings: tuple[int, int, int] | None = None
        self.remaining: dict[Colour, float] = {BLACK: 0.0, WHITE: 0.0}
        self.stones: dict[Colour, int] = {BLACK: 0, WHITE: 0}
        self.reset()

    def _effective(self) -> tuple[float, float, int] | None:
        """(main, byo-yomi time, byo-yomi stones) in force, None for none."""
        if self.settings is not None:
            main, byo, stones = self.settings
            if byo > 0 and stones == 0:
                return None if self.default_seconds is None else (self.default_seconds, 0.0, 0)
            return float(main), float(byo), stones
        if self.default_seconds is not None:
            return self.default_seconds, 0.0, 0
        return None

    @property
    def limited(self) -> bool:
        return self._effective() is not None

    def reset(self) -> None:
        """Fresh clocks for a new game."""
        eff = self._effective()
        for color in (BLACK, WHITE):
            if eff is None:
                self.remaining[color], self.stones[color] = 0.0, 0
            elif eff[0] > 0 or eff[1] <= 0:
                self.remaining[color], self.stones[color] = eff[0], 0
            else:
                self.remaining[color], self.stones[color] = eff[1], eff[2]

    def set(self, main: int, byo: int, stones: int) -> None:
        self.settings = (main, byo, stones)
        self.reset()

    def left(self, color: Colour, seconds: int, stones: int) -> None:
        tracked = self.remaining[color]
        if stones == self.stones[color] and seconds <= tracked < seconds + 1:
            return
        self.remaining[color] = float(seconds)
        self.stones[color] = stones

    def budget(self, color: Colour, empties: int) -> float | None:
        """Seconds to search this move, or None without a time limit."""
        eff = self._effective()
        if eff is None:
            return None
        _, byo, byo_stones = eff
        remaining = max(0.0, self.remaining[color])
        stones = self.stones[color]
        if stones > 0:
            usable = remaining * 0.95 - 0.01 * stones
            return max(0.001, usable / stones)
        share = move_budget(remaining, empties)
        if byo > 0 and byo_stones > 0:
            share += 0.5 * max(0.0, (byo * 0.95 - 0.01 * byo_stones) / byo_stones)
        return share

    def charge(self, color: Colour, seconds: float) -> None:
        eff = self._effective()
        if eff is None:
            return
        _, byo, byo_stones = eff
        self.remaining[color] -= seconds
        if self.stones[color] > 0:
            self.stones[color] -= 1
            if self.stones[color] == 0 and self.remaining[color] > 0:
                self.remaining[color], self.stones[color] = byo, byo_stones
        elif self.remaining[color] <= 0 and byo > 0 and byo_stones > 0:
            self.remaining[color] += byo
            self.stones[color] = byo_stones


# -------------------------------------------------------------------- engine
@dataclass
class SearchStats:
    """genmove searches so far (cumulative over the session)."""

    moves: int = 0              # genmoves that searched
    midgame_moves: int = 0      # of them, not solved exactly
    depth_sum: int = 0          # plies reached, midgame moves
    exact_moves: int = 0        # solved exactly
    seconds: float = 0.0        # search wall time
    nodes: int = 0
    last_depth: int = 0

    def line(self) -> str:
        avg = self.depth_sum / self.midgame_moves if self.midgame_moves else 0.0
        return (f"moves {self.moves} midgame_moves {self.midgame_moves} depth_sum {self.depth_sum} "
                f"avg_depth {avg:.3f} exact_moves {self.exact_moves} seconds {self.seconds:.3f} "
                f"nodes {self.nodes} last_depth {self.last_depth}")


class GtpFrontend:
    """Answers GTP commands for one player: genethello's GTP front end (what
    the GTP spec calls the engine; :class:`genethello.core.engine.game.Engine` is
    the searcher that plays the cluster's games).

    Args:
        evaluator: the player's Evaluator.
        depth: plies per move (also the depth of the oracle commands); None
            to search by time only.
        time: seconds per game on each clock when the controller sends no
            time_settings (absolute time); None for none.
        exact_empties: solve exactly at this many empty squares or fewer.
        ponder: think on the opponent's time after each genmove.
        tt_bits: log2 of the transposition table's buckets.
        log: where diagnostics go (stderr by default).
    """

    def __init__(self, evaluator: BaseEvaluator, depth: int | None = None, time: float | None = None,
                 exact_empties: int = defaults.EXACT_EMPTIES, ponder: bool = False,
                 tt_bits: int = defaults.TT_BITS,
                 log: TextIO | None = None, verbose: bool = False) -> None:
        if depth is None and time is None:
            raise UserError("the GTP engine needs --depth or --time")
        if depth is not None and not 1 <= depth <= 60:
            raise UserError(f"depth must be in 1..60, got {depth}")
        if time is not None and not time > 0:
            raise UserError(f"time must be positive seconds per game, got {time}")
        if not 0 <= exact_empties <= 60:
            raise UserError(f"exact empties must be in 0..60, got {exact_empties}")
        self.searcher = Searcher(evaluator, tt_bits=tt_bits)
        self.depth = depth
        self.oracle_depth = depth if depth is not None else defaults.DEPTH
        self.exact_empties = exact_empties
        self.clock = GameClock(time)
        self.log = log if log is not None else sys.stderr
        self.verbose = verbose
        self.ponderer = Ponderer(self.searcher, self.log) if ponder else None
        self.board = Board()
        self.undo_stack: list[int] = []
        self.stats = SearchStats()
        self.quit_requested = False
        self.command_started = 0.0
        self.commands: dict[str, Callable[[Command], str]] = {
            "protocol_version": lambda c: "2",
            "name": lambda c: ENGINE_NAME,
            "version": lambda c: engine_version(),
            "known_command": self.cmd_known_command,
            "list_commands": lambda c: "\n".join(self.commands),
            "quit": self.cmd_quit,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "reg_genmove": self.cmd_reg_genmove,
            "undo": self.cmd_undo,
            "showboard": self.cmd_showboard,
            "final_score": self.cmd_final_score,
            "time_settings": self.cmd_time_settings,
            "time_left": self.cmd_time_left,
            "loadsgf": self.cmd_loadsgf,
            "set_game": self.cmd_set_game,
            "list_games": lambda c: "Othello",
            "top_moves": self.cmd_top_moves,
            "top_moves_black": lambda c: self.cmd_top_moves(c, BLACK),
            "top_moves_white": lambda c: self.cmd_top_moves(c, WHITE),
            "estimate_score": self.cmd_estimate_score,
            "genethello-ponder_stats": self.cmd_ponder_stats,
            "genethello-search_stats": lambda c: self.stats.line(),
        }

    # -------------------------------------------------------------- driving
    def _say(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            print(f"genethello gtp: {text}", file=self.log, flush=True)

    def handle(self, cmd: Command) -> tuple[bool, str]:
        """(success, answer text) for one command; state changes only on
        success. Never raises an Exception: a line that could not be read
        (``cmd.error``) and any unexpected error inside a command are
        answered as failures, and the session goes on."""
        self.command_started = time.monotonic()
        if cmd.error is not None:
            return False, cmd.error
        handler = self.commands.get(cmd.name)
        if handler is None:
            return False, "unknown command"
        try:
            return True, handler(cmd)
        except GtpError as exc:
            return False, exc.message
        except Exception as exc:  # a bug must cost one command, not the session
            message = internal_error(cmd.name, exc)
            self._say(message)
            return False, message

    def run(self, instream: BinaryIO, outstream: TextIO) -> int:
        """Answer commands from ``instream`` (bytes, one per line) on
        ``outstream`` until ``quit`` or the end of input."""
        try:
            for cmd in read_commands(instream):
                ok, text = self.handle(cmd)
                write_response(outstream, cmd.id, ok, text)
                if self.quit_requested:
                    break
        finally:
            self.shutdown()
        return 0

    def shutdown(self) -> None:
        if self.ponderer is not None:
            self.ponderer.cancel()
            self._say("ponder stats: " + self.ponderer.stats.line())

    def _quiet_searcher(self) -> None:
        """Stop pondering before using the Searcher or replacing the game."""
        if self.ponderer is not None:
            self.ponderer.cancel()

    # -------------------------------------------------------- board helpers
    def _push(self, count: int) -> None:
        self.undo_stack.append(count)

    def _take_back(self, count: int) -> None:
        for _ in range(count):
            self.board.undo()

    def _to_turn(self, color: Colour, refusal: str | None = None) -> int:
        """Make ``color`` the side to move by an implicit pass of the other
        side if that side has no legal move; returns the passes played (0 or
        1). Raises GtpError(refusal) if the other side has a move (default
        message: '<colour> is not to move')."""
        if self.board.side_to_move == color or self.board.is_game_over():
            return 0
        if self.board.must_pass():
            self.board.play(PASS)
            return 1
        raise GtpError(refusal or f"{color} is not to move")

    def _new_game(self, board: Board | None = None) -> None:
        self._quiet_searcher()
        self.board = board if board is not None else Board()
        self.undo_stack = []
        self.clock.reset()
        self.searcher.clear()

    def _limits(self, color: Colour) -> tuple[int, float | None]:
        budget = self.clock.budget(color, self.board.empties)
        depth = self.depth if self.depth is not None else 60
        return depth, budget

    def _search(self, board: Board, depth: int, budget: float | None) -> SearchResult:
        # seconds=None is the search's default: no time limit
        return self.searcher.search(board, depth=depth, seconds=budget, exact_empties=self.exact_empties)

    # ------------------------------------------------------------- commands
    def cmd_known_command(self, cmd: Command) -> str:
        (name,) = expect_args(cmd, 1)
        return "true" if name in self.commands else "false"

    def cmd_quit(self, cmd: Command) -> str:
        self.quit_requested = True
        return ""

    def cmd_boardsize(self, cmd: Command) -> str:
        (text,) = expect_args(cmd, 1)
        if parse_int(text) != 8:
            raise GtpError("unacceptable size")
        self._new_game()
        return ""

    def cmd_clear_board(self, cmd: Command) -> str:
        self._new_game()
        return ""

    def cmd_komi(self, cmd: Command) -> str:
        (text,) = expect_args(cmd, 1)
        parse_float(text)
        return ""

    def cmd_set_game(self, cmd: Command) -> str:
        if not cmd.args:
            raise GtpError("syntax error")
        if " ".join(cmd.args).lower() not in ("othello", "reversi"):
            raise GtpError("unsupported game")
        return ""

    def cmd_play(self, cmd: Command) -> str:
        color_text, vertex_text = expect_args(cmd, 2)
        color = parse_color(color_text)
        square = parse_vertex(vertex_text)
        board = self.board
        played = self._to_turn(color, "illegal move")
        try:
            if square == PASS:
                if board.must_pass():
                    board.play(PASS)
                    played += 1
                elif not board.is_game_over():
                    raise GtpError("illegal move")
                # at the end of the game a pass changes nothing
            else:
                if board.side_to_move != color or not board.is_legal(square):
                    raise GtpError("illegal move")
                board.play(square)
                played += 1
        except GtpError:
            self._take_back(played)
            raise
        self._push(played)
        if self.ponderer is not None:
            self.ponderer.position_changed(board)
        return ""

    def _choose(self, color: Colour, charge: bool) -> tuple[int, SearchResult | None]:
        """The move ``color`` (on turn) plays now, PASS when it has none,
        and the search result (None without a search). ``charge``: a real
        genmove (use and count pondering, keep statistics)."""
        board = self.board
        depth, budget = self._limits(color)
        outcome = None
        if self.ponderer is not None and charge:
            in_solve_range = board.empties <= self.exact_empties
            outcome = self.ponderer.claim(board, keep_searching=not in_solve_range, budget=budget)
        self._quiet_searcher()
        if board.is_game_over() or board.must_pass():
            return PASS, None
        pondered = outcome.result if outcome is not None else None
        if pondered is not None and pondered.move is not None and (
                pondered.exact or (pondered.depth > 0 and board.empties > self.exact_empties)):
            result = pondered       # the ponder search, continued as this move's search
        else:
            if budget is not None:
                budget = max(0.001, budget - (time.monotonic() - self.command_started))
            result = self._search(board, depth, budget)
        move = result.move
        if move is None:    # only a finished game has none, and that passed above
            raise RuntimeError(f"the search found no move for {color}")
        if charge:
            self.stats.moves += 1
            self.stats.seconds += time.monotonic() - self.command_started
            self.stats.nodes += result.nodes
            self.stats.last_depth = result.depth
            if result.exact:
                self.stats.exact_moves += 1
            else:
                self.stats.midgame_moves += 1
                self.stats.depth_sum += result.depth
            if self.verbose:
                hit = f", ponder hit +{outcome.seconds:.2f} s" if outcome is not None else ""
                limit = f" of {budget:.3f} s" if budget is not None else ""
                self._say(f"{color} {vertex_name(move)}: depth {result.depth}"
                          f"{' exact' if result.exact else ''}, value {result.value}, "
                          f"{time.monotonic() - self.command_started:.3f} s{limit}{hit}")
        return move, result

    def cmd_genmove(self, cmd: Command) -> str:
        (color_text,) = expect_args(cmd, 1)
        color = parse_color(color_text)
        played = self._to_turn(color)
        board = self.board
        if board.is_game_over():
            self._quiet_searcher()
            return "pass"
        move, result = self._choose(color, charge=True)
        board.play(move)
        self._push(played + 1)
        self.clock.charge(color, time.monotonic() - self.command_started)
        if self.ponderer is not None and result is not None:
            self._start_pondering(result)
        return vertex_name(move)

    def _start_pondering(self, result: SearchResult) -> None:
        board = self.board
        ponderer = self.ponderer
        if ponderer is None or board.is_game_over():
            return
        pv = tuple(result.pv)
        if len(pv) >= 2 and board.is_legal(pv[1]):
            predicted = pv[1]
        elif board.must_pass():
            predicted = PASS
        else:
            reply = self.searcher.search(board, depth=1).move
            if reply is None:   # never: a side with no pass has a move
                return
            predicted = reply
        after = board.copy()
        after.play(predicted)
        if after.is_game_over():
            return
        depth = self.depth if self.depth is not None else 60
        ponderer.start(after, predicted, depth, self.exact_empties, origin=board)

    def cmd_reg_genmove(self, cmd: Command) -> str:
        (color_text,) = expect_args(cmd, 1)
        color = parse_color(color_text)
        played = self._to_turn(color)
        try:
            move, _ = self._choose(color, charge=False)
        finally:
            self._take_back(played)
        return vertex_name(move)

    def cmd_undo(self, cmd: Command) -> str:
        expect_args(cmd, 0)
        if not self.undo_stack:
            raise GtpError("cannot undo")
        self._quiet_searcher()
        self._take_back(self.undo_stack.pop())
        return ""

    def cmd_showboard(self, cmd: Command) -> str:
        expect_args(cmd, 0)
        board = self.board
        black, white = board.black, board.white
        b, w = board.disc_count()
        state = "game over" if board.is_game_over() else f"{board.side_to_move} to move"
        lines = [f"{state}; black (X) {b}, white (O) {w}", "  a b c d e f g h"]
        for r in range(8):
            cells = ["X" if black >> (8 * r + c) & 1 else "O" if white >> (8 * r + c) & 1 else "-"
                     for c in range(8)]
            lines.append(f"{r + 1} " + " ".join(cells))
        return "\n".join(lines)

    def cmd_final_score(self, cmd: Command) -> str:
        expect_args(cmd, 0)
        if not self.board.is_game_over():
            raise GtpError("cannot score")
        return score_text(self.board.final_score())

    def cmd_time_settings(self, cmd: Command) -> str:
        main, byo, stones = (parse_int(a, unsigned=True) for a in expect_args(cmd, 3))
        self.clock.set(main, byo, stones)
        return ""

    def cmd_time_left(self, cmd: Command) -> str:
        color_text, seconds, stones = expect_args(cmd, 3)
        color = parse_color(color_text)
        self.clock.left(color, parse_int(seconds, unsigned=True), parse_int(stones, unsigned=True))
        return ""

    def cmd_loadsgf(self, cmd: Command) -> str:
        args = expect_args(cmd, 1, 2)
        upto = parse_int(args[1], unsigned=True) if len(args) == 2 else None
        from genethello.core.records import read_record
        try:
            # read_record reads regular files only, of bounded size: a FIFO
            # would hang the engine, /dev/zero exhaust its memory
            records = read_record(Path(args[0]), max_bytes=MAX_RECORD_BYTES)
        except (ValueError, OSError) as exc:
            self._say(f"loadsgf: {exc}")
            raise GtpError("cannot load file") from None
        if not records:
            raise GtpError("cannot load file")
        rec = records[0]
        try:
            board = Board.from_bitboards(rec.black, rec.white, rec.side_to_move)
        except ValueError:
            raise GtpError("cannot load file") from None
        moves = list(rec.moves) if upto is None else list(rec.moves)[: max(0, upto - 1)]
        entries = []
        for move in moves:
            try:
                board.play(move)
            except ValueError:
                raise GtpError("cannot load file") from None
            entries.append(1)
        self._new_game(board)
        self.undo_stack = entries
        return ""

    def cmd_top_moves(self, cmd: Command, color: Colour | None = None) -> str:
        args = expect_args(cmd, 0, 1)
        count = parse_int(args[0], unsigned=True) if args else DEFAULT_TOP_MOVES
        if count < 1:
            raise GtpError("syntax error")
        board = self.board
        played = self._to_turn(color) if color is not None else 0
        try:
            if board.is_game_over() or board.must_pass():
                return ""
            self._quiet_searcher()
            exact = board.empties - 1 <= self.exact_empties
            values = self.searcher.move_values(board, self.oracle_depth, self.exact_empties)
        finally:
            self._take_back(played)
        return " ".join(f"{vertex_name(sq)} {format_disc_score(disc_score(v, exact, self.searcher.disc_units))}"
                        for sq, v in values[:count])

    def cmd_estimate_score(self, cmd: Command) -> str:
        expect_args(cmd, 0)
        board = self.board
        if board.is_game_over():
            return score_text(board.final_score())
        self._quiet_searcher()
        r = self.searcher.search(board, depth=self.oracle_depth, exact_empties=self.exact_empties)
        score = r.discs
        return score_text(score if board.side_to_move == BLACK else -score)

    def cmd_ponder_stats(self, cmd: Command) -> str:
        expect_args(cmd, 0)
        if self.ponderer is None:
            return "off"
        move = self.ponderer.predicted_move     # None exactly when predicted_board is
        predicted = "-" if move is None else vertex_name(move)
        return f"{self.ponderer.stats.line()} predicted {predicted}"
