"""Games of a run database as game records (SGF, GGF or plain move lists).

:func:`game_record` turns one stored game (as the read side,
:func:`genethello.cluster.reads.select_games`, returns it) into a
:class:`~genethello.core.records.GameRecord`:

* players' names (PB/PW) and the chromosome fields are the chromosome strings
  (``TYPE_BIRTH_GENES``);
* the date is the day the game's generation finished (else the day it
  started; none if neither is stored), as ``YYYY-MM-DD``;
* the result comes from the stored score (Black's margin, empties to the
  winner): ``B+n``, ``W+n`` or ``Draw``;
* the event is ``RUN generation G``, the place ``genethello``;
* the time settings are the run's fixed search limits, ``depth N, exact E``
  (games are played to a fixed depth, not on a clock): SGF writes it as
  ``OT[...]``, GGF as ``TI[...]``.

:func:`export_games` writes the files. Layout:

* ``sgf``: one file a game, ``RUN-gGEN-pPAIR.sgf`` (many SGF readers take only
  the first game tree of a file);
* ``ggf``: one file a generation, ``RUN-gGEN.ggf``, the games one after
  another in schedule (pair index) order, as GGS archives hold many games (a
  game starts on a new line; its ``C`` comment holds the chromosome lines, so
  a game can span two lines);
* ``moves``: one file a generation, ``RUN-gGEN.txt`` (Edax's extension), one
  game a line in schedule order. A move list holds the moves only: no
  players, result or chromosomes (the result follows from replaying).

``RUN`` is the run's name with anything but letters, digits, ``.``, ``_`` and
``-`` replaced by ``_``. Games whose moves were dropped by the retention
policy (``storage.keep_moves_generations``) cannot be written: they are
skipped and counted.

Writing is careful, because the folder may be shared or prepared by someone
else (see :mod:`genethello.cluster.export.files`): an existing file of the
same name is refused unless ``force`` is given, before anything is written;
a symbolic link is never followed, even with ``force`` (the link itself is
replaced, its target left alone); each file appears whole or not at all.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from genethello.cluster.db import Database
from genethello.cluster.export.files import check_targets, write_file_atomically
from genethello.cluster.reads import RunInfo, StoredGame, select_games
from genethello.core.frontend.errors import UserError
from genethello.core.records import GameRecord, RecordError, read_moves, result_from_score, write_record

__all__ = ["EXPORT_FORMATS", "ExportSummary", "export_games", "game_record", "time_settings", "file_stem"]

EXPORT_FORMATS = ("sgf", "ggf", "moves")
_EXTENSIONS = {"sgf": ".sgf", "ggf": ".ggf", "moves": ".txt"}
PLACE = "genethello"


@dataclass
class ExportSummary:
    """What :func:`export_games` did."""

    files: list[Path] = field(default_factory=list)
    written: int = 0
    skipped: list[int] = field(default_factory=list)        # ids: moves dropped by retention
    unreadable: list[tuple[int, str]] = field(default_factory=list)   # (id, why): moves that do not replay

    def message(self) -> str:
        parts = [f"wrote {self.written} game{'s' * (self.written != 1)} to {len(self.files)} "
                 f"file{'s' * (len(self.files) != 1)}"]
        if self.skipped:
            parts.append(f"skipped {len(self.skipped)} whose moves were dropped by retention")
        if self.unreadable:
            parts.append(f"skipped {len(self.unreadable)} whose stored moves do not replay")
        return "; ".join(parts)


def time_settings(config_json: str) -> str | None:
    """``'depth N, exact E'`` from a run's stored config (None if absent)."""
    try:
        games = json.loads(config_json).get("games", {})
    except (ValueError, AttributeError):
        return None
    if not isinstance(games, dict) or "depth" not in games:
        return None
    text = f"depth {games['depth']}"
    if "exact_empties" in games:
        text += f", exact {games['exact_empties']}"
    return text


def file_stem(run_name: str) -> str:
    """The run's name made safe for a file name."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", run_name) or "run"


def game_record(run: RunInfo, game: StoredGame) -> GameRecord:
    """The record of a stored game (see the module doc for its fields).

    Raises:
        ValueError: if the game's moves were dropped by retention.
        RecordError: if the stored moves do not replay.
    """
    if game.moves is None:
        raise UserError(f"game {game.id}: its moves were dropped by retention")
    try:
        moves = read_moves(game.moves)[0].moves
    except RecordError as exc:
        raise RecordError(f"game {game.id} (generation {game.generation}, pair {game.pair_index}): "
                          f"stored moves do not replay: {exc}") from None
    return GameRecord(
        moves=moves,
        black_name=game.black, white_name=game.white,
        black_chromosome=game.black, white_chromosome=game.white,
        date=game.date,
        result=result_from_score(game.score),
        time_settings=time_settings(run.config_json),
        event=f"{run.name} generation {game.generation}",
        place=PLACE,
    )


def export_games(db: Database, run: RunInfo, out: Path, fmt: str, generation: int | None = None,
                 game_id: int | None = None, force: bool = False, pair: int | None = None) -> ExportSummary:
    """Write the selected games of ``run`` under folder ``out`` (created if
    missing) in format ``fmt`` ('sgf', 'ggf' or 'moves'); see the module doc
    for the file layout.

    Every file is rendered first, then every target name is checked, then
    the files are written one by one, each whole or not at all. A name
    already taken is refused (nothing is written) unless ``force``; a
    symbolic link is never followed (with ``force`` the link itself is
    replaced).

    Raises:
        ValueError: for an unknown format, or a game/generation the run lacks.
        ExistingFileError: (a ValueError) for a target name already taken.
        OSError: if the folder or a file cannot be written.
    """
    if fmt not in EXPORT_FORMATS:
        raise UserError(f"unknown export format {fmt!r}; known: {', '.join(EXPORT_FORMATS)}")
    games = select_games(db, run, generation, game_id, pair)
    out = Path(out)
    stem = file_stem(run.name)
    ext = _EXTENSIONS[fmt]
    summary = ExportSummary()
    contents: dict[Path, list[str]] = {}
    for game in games:
        if game.moves is None:
            summary.skipped.append(game.id)
            continue
        try:
            record = game_record(run, game)
        except RecordError as exc:
            summary.unreadable.append((game.id, str(exc)))
            continue
        text = write_record(record, fmt)
        if fmt == "sgf":
            contents[out / f"{stem}-g{game.generation}-p{game.pair_index}{ext}"] = [text]
        else:
            contents.setdefault(out / f"{stem}-g{game.generation}{ext}", []).append(
                text if text.endswith("\n") else text + "\n")
        summary.written += 1
    out.mkdir(parents=True, exist_ok=True)
    check_targets(contents, force)
    for path, texts in contents.items():
        write_file_atomically(path, "".join(texts), replace=force)
        summary.files.append(path)
    return summary
