"""The ``replay`` command: step through a game record (SGF, GGF or a move
list) in the terminal."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from genethello.core.cli.arguments import non_negative_float, positive_int
from genethello.core.engine.squares import BLACK, PASS, WHITE, opponent, square_name
from genethello.core.frontend.errors import UserError
from genethello.core.records import GameRecord, RecordError, read_record, result_from_score

if TYPE_CHECKING:   # annotations only: the board is built when the command runs
    from genethello.core.engine.board import Board


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="replay a game record (SGF, GGF or move list) move by move")
    p.add_argument("file", type=Path, help="game record: .sgf, .ggf or a move list")
    p.add_argument("--game", type=positive_int, default=1, metavar="N",
                   help="which game of a file holding several (default: 1)")
    p.add_argument("--delay", type=non_negative_float, metavar="S",
                   help="play on by itself, S seconds a move (0: show just the final position); "
                        "without it, Enter shows the next move and q quits")
    p.set_defaults(handler=run_replay)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def load_game(path: Path, number: int) -> tuple[GameRecord, int]:
    """Game ``number`` (1-based) of the record file, and how many it holds.

    Raises:
        ValueError: one line naming the file and where it is wrong.
    """
    try:
        records = read_record(path)
    except RecordError as exc:
        raise UserError(f"{path}: {_one_line(exc)}") from None
    if number > len(records):
        raise UserError(f"{path} holds {len(records)} game{'s' * (len(records) != 1)}, not game {number}")
    return records[number - 1], len(records)


def _header(rec: GameRecord, number: int, count: int, path: Path) -> str:
    lines = [f"{path}" + (f" (game {number} of {count})" if count > 1 else "")]
    for label, value in (("Black", rec.black_name), ("White", rec.white_name), ("Event", rec.event),
                         ("Date", rec.date), ("Place", rec.place), ("Time", rec.time_settings)):
        if value:
            lines.append(f"{label}: {value}")
    for color in (BLACK, WHITE):
        chrom = getattr(rec, f"{color}_chromosome")
        if chrom and chrom != getattr(rec, f"{color}_name"):
            lines.append(f"{color.capitalize()} chromosome: {chrom}")
    return "\n".join(lines)


def _position(board: Board, index: int, total: int, move: int | None, mover: str | None) -> str:
    black, white = board.disc_count()
    if move is None:
        title = f"Start position ({total} moves to replay)"
    else:
        played = "passes" if move == PASS else square_name(move)
        title = f"Move {index}/{total}: {mover} {played}"
    shown = str(board)
    if board.is_game_over():      # no side is to move: the board's last line would name one
        shown = shown.rsplit("\n", 1)[0] + f"\ngame over; black {black}, white {white}"
    return f"{title}    discs: black {black}, white {white}\n{shown}\n"


def _result_line(rec: GameRecord, board: Board) -> str:
    if board.is_game_over():
        result = result_from_score(board.final_score())
        black, white = board.disc_count()
        line = f"Result: {result} (black {black}, white {white})"
        if rec.result is not None and rec.result != result:
            line += f"; the record says {rec.result}"
        return line
    recorded = rec.result or rec.properties.get("RE")
    return "Result: game not finished" + (f" (the record says {recorded})" if recorded else "")


def run_replay(args: argparse.Namespace) -> int:
    rec, count = load_game(args.file, args.game)
    try:
        board = rec.start_board()
        moves = rec.normalized().moves
    except RecordError as exc:
        raise UserError(f"{args.file}: {_one_line(exc)}") from None
    total = len(moves)
    out = sys.stdout
    print(_header(rec, args.game, count, args.file), file=out)
    if args.delay == 0:
        for sq in moves:
            board.play(sq)
        last = moves[-1] if moves else None
        mover = None
        if moves:
            mover = opponent(board.side_to_move)
        print(_position(board, total, total, last, mover), file=out)
        print(_result_line(rec, board), file=out, flush=True)
        return 0

    interactive = args.delay is None
    prompt = interactive and sys.stdin.isatty()
    print(_position(board, 0, total, None, None), file=out, flush=True)
    for i, sq in enumerate(moves, start=1):
        if interactive:
            if prompt:
                print("[Enter] next move, q quit: ", end="", file=out, flush=True)
            line = sys.stdin.readline()
            if not line:                       # end of input
                print(f"Stopped at move {i - 1}/{total} (end of input)", file=out, flush=True)
                return 0
            if line.strip().lower() in ("q", "quit"):
                print(f"Stopped at move {i - 1}/{total}", file=out, flush=True)
                return 0
        else:
            time.sleep(args.delay)
        mover = board.side_to_move
        board.play(sq)
        print(_position(board, i, total, sq, mover), file=out, flush=True)
    print(_result_line(rec, board), file=out, flush=True)
    return 0
