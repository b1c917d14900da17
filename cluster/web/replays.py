"""Records to step through: an uploaded SGF/GGF file or a game a run kept,
turned into one frame per move for the page.

Uploads are parsed by the project's own readers (:mod:`genethello.core.records`),
whose ``RecordError`` (line and column) is what the page shows. No path ever
comes from the browser: an upload is bytes, a stored game an id.
"""

from __future__ import annotations

from genethello.cluster.web.errors import WebRequestError
from genethello.cluster.web.play import board_view
from genethello.core.engine.squares import PASS, square_name
from genethello.core.records import GameRecord, RecordError, read_record, write_transcript

#: The largest upload accepted (bytes).
MAX_UPLOAD_BYTES = 1 << 20
#: Games of one upload sent to the page (a GGS archive may hold thousands).
MAX_GAMES = 200
UPLOAD_FORMATS = {"sgf", "ggf"}


def upload_format(filename: str) -> str:
    """'sgf' or 'ggf' from the uploaded file's name.

    Raises:
        WebRequestError: any other extension.
    """
    suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if suffix not in UPLOAD_FORMATS:
        raise WebRequestError(f"{filename or 'the file'}: only .sgf and .ggf files can be replayed", field="file")
    return suffix


def parse_upload(filename: str, data: bytes) -> list[GameRecord]:
    """The games of an uploaded file.

    Raises:
        WebRequestError: too large, empty, the wrong kind, or malformed (the
            reader's message, with line and column); 413 when too large.
    """
    if len(data) > MAX_UPLOAD_BYTES:
        raise WebRequestError(f"{filename}: {len(data)} bytes; uploads are limited to {MAX_UPLOAD_BYTES} bytes "
                              f"(1 MiB)", field="file", status=413)
    fmt = upload_format(filename)
    if not data.strip():
        raise WebRequestError(f"{filename}: the file is empty", field="file")
    try:
        games = read_record(data, fmt)
    except RecordError as exc:
        raise WebRequestError(f"{filename}: {exc}", field="file") from None
    if not games:
        raise WebRequestError(f"{filename}: no game in the file", field="file")
    return games


def frames(record: GameRecord) -> list[dict[str, object]]:
    """The position before the first move and after each move, each with the
    move that led to it (None at the start) and who played it.

    Raises:
        WebRequestError: the moves do not replay (the reader's message).
    """
    try:
        board = record.start_board()
        moves = record.normalized().moves
    except RecordError as exc:
        raise WebRequestError(str(exc), field="file") from None
    out: list[dict[str, object]] = [dict(board_view(board), move=None, colour=None)]
    for square in moves:
        colour = board.side_to_move
        board.play(square)
        out.append(dict(board_view(board), move="pass" if square == PASS else square_name(square), colour=colour))
    return out


def replay_view(record: GameRecord, title: str) -> dict[str, object]:
    """What the replay page shows of one game."""
    moves = frames(record)
    try:
        transcript = write_transcript(record).splitlines()
    except RecordError:      # a set-up position has no transcript form
        transcript = []
    return {
        "title": title,
        "black": record.black_name or "Black",
        "white": record.white_name or "White",
        "result": record.result,
        "event": record.event,
        "date": record.date,
        "frames": moves,
        "transcript": transcript,
    }


def upload_view(filename: str, data: bytes) -> dict[str, object]:
    """Every game of an upload (up to :data:`MAX_GAMES`), ready to replay."""
    games = parse_upload(filename, data)
    shown = games[:MAX_GAMES]
    return {
        "filename": filename,
        "count": len(games),
        "games": [replay_view(g, f"{filename} #{i + 1}") for i, g in enumerate(shown)],
    }
