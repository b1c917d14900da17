"""The games file read into positions: every position after every move of
every good game of a move-list file (one game a line, gzip or plain).

Reading and parsing are :mod:`genethello.core.records`' (bounded, regular
files only; the strict one-game-a-line form); the replay is the core's
(``patterns.replay_games``). Validation: games whose line number (1-based)
is a multiple of HOLDOUT (every 10th game) are never trained on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from genethello.core.engine.squares import square_name
from genethello.core.evaluation import patterns as pt
from genethello.core.frontend.errors import UserError
from genethello.core.records import RecordError, parse_move_line, read_maybe_gzipped

HOLDOUT = 10          # every HOLDOUT-th line is validation, never trained on


class GameFileError(UserError):
    """A games file line that is not a legal, finished game."""


@dataclass
class GameSet:
    """Positions of the good games of a file, after every move.

    Attributes:
        movers, others: discs of the player who just moved / the other one.
        move_numbers: discs on the board - 4.
        targets: final disc difference for the mover (empties to the winner).
        lines: for each position, the 1-based line number of its game.
        games: how many good games; skipped: bad lines skipped (--skip-bad);
        first_error: the message of the first skipped line, or None.
        sha256: of the file's (uncompressed) bytes.
    """
    movers: np.ndarray
    others: np.ndarray
    move_numbers: np.ndarray
    targets: np.ndarray
    lines: np.ndarray
    games: int
    skipped: int = 0
    first_error: str | None = None
    sha256: str = ""
    name: str = ""

    def select(self, mask: np.ndarray) -> GameSet:
        """The positions where ``mask`` is true (a view for a slice of games)."""
        games = int(np.unique(self.lines[mask]).size)
        return GameSet(self.movers[mask], self.others[mask], self.move_numbers[mask], self.targets[mask],
                       self.lines[mask], games, self.skipped, self.first_error, self.sha256, self.name)

    def slice(self, which: str, holdout: int = HOLDOUT) -> GameSet:
        """'training' (line % holdout != 0), 'validation' (line % holdout == 0) or 'all'."""
        if which == "all" or (holdout == 0 and which == "training"):
            return self
        if holdout < 1:
            raise UserError(f"no {which} slice without a holdout (holdout={holdout})")
        held = (self.lines % holdout) == 0
        if which == "validation":
            return self.select(held)
        if which == "training":
            return self.select(~held)
        raise UserError(f"slice must be 'training', 'validation' or 'all', not {which!r}")



def read_games(path: str | Path, skip_bad: bool = False, limit: int | None = None) -> GameSet:
    """Replay every game of a move-list file (one game per line, gzip or
    plain) and collect the positions after each move.

    Args:
        skip_bad: skip (and count) lines that are not a legal finished game
            instead of failing on the first one.
        limit: read only the first ``limit`` lines.
    Raises:
        GameFileError: for the first bad line (unless skip_bad), naming the
            line number and the move.
        RecordError: (a ValueError) if the file cannot be read, is not a
            regular file, or holds (or inflates to) more than
            ``MAX_RECORD_FILE_BYTES``.
    """
    path = Path(path)
    data = read_maybe_gzipped(path)
    digest = hashlib.sha256(data).hexdigest()
    text_lines = data.decode("latin-1").split("\n")
    if text_lines and text_lines[-1] == "":
        text_lines.pop()
    if limit is not None:
        text_lines = text_lines[:limit]
    games: list[list[int]] = []
    numbers: list[int] = []
    skipped = 0
    first_error = None

    def bad(message: str) -> None:
        nonlocal skipped, first_error
        if not skip_bad:
            raise GameFileError(message + " (use --skip-bad to skip such lines)")
        skipped += 1
        if first_error is None:
            first_error = message

    for number, line in enumerate(text_lines, start=1):
        try:
            games.append(parse_move_line(line.rstrip("\r")))
            numbers.append(number)
        except RecordError as exc:
            bad(f"line {number}: {exc.problem}")
    movers, others, move_numbers, targets, replayed_index, errors = pt.replay_games(games)
    game_index = replayed_index.astype(np.int64)   # each position's game, among the games given
    if errors:
        dropped = set()
        for gi, move, code in errors:
            number = numbers[gi]
            if code == pt.REPLAY_ILLEGAL:
                message = f"line {number}: move {move} ({square_name(games[gi][move - 1])}) is illegal"
            elif code == pt.REPLAY_AFTER_END:
                message = (f"line {number}: move {move} ({square_name(games[gi][move - 1])}) comes after the end "
                           "of the game")
            else:
                message = f"line {number}: the game is not finished after its {move} moves"
            bad(message)
            dropped.add(gi)
        # replay_games already left those games out; renumber the rest
        kept = [gi for gi in range(len(games)) if gi not in dropped]
        numbers = [numbers[gi] for gi in kept]
        # game_index counts all games given; map it through the kept list
        remap = np.full(len(games), -1, dtype=np.int64)
        remap[np.array(kept, dtype=np.int64)] = np.arange(len(kept))
        game_index = remap[game_index]
    lines = np.array(numbers, dtype=np.int64)[game_index] if len(numbers) else np.zeros(0, np.int64)
    return GameSet(movers, others, move_numbers, targets, lines, len(numbers), skipped, first_error,
                   digest, path.name)
