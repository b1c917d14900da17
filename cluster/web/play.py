"""A game in the web page, as decisions apart from any I/O.

What a request may set (who plays each colour, depth or clock), what a board
looks like to the page, which forced passes to play and announce, how far an
undo goes back, and the players' clocks. Nothing here searches, waits or
touches a socket: :mod:`genethello.cluster.web.sessions` does that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from genethello.cluster.web.errors import ConflictError, WebRequestError
from genethello.core.engine.board import Board
from genethello.core.engine.squares import BLACK, PASS, WHITE, BadSquareError, Colour, parse_square, square_name
from genethello.core.families.individual_names import looks_like_path, resolve_individual
from genethello.core.families.registry import Individual
from genethello.core.frontend import defaults
from genethello.core.records import GameRecord, result_from_score, write_sgf, write_transcript

HUMAN, MACHINE = "human", "machine"
COLOURS: tuple[Colour, Colour] = (BLACK, WHITE)
MIN_DEPTH, MAX_DEPTH = 1, 15
MAX_SECONDS = 3600.0
#: The longest chromosome text a request may carry (real ones are < 100).
MAX_CHROMOSOME_CHARS = 200
#: The served database's lookup of a player by id or text: (text, payload).
PlayerLookup = Callable[[int | str], tuple[str, bytes | None]]
#: Squares solved exactly, as every command does by default.
EXACT_EMPTIES = defaults.EXACT_EMPTIES


@dataclass(frozen=True)
class SideSettings:
    """Who plays one colour: a person, or an individual (a chromosome, a
    network) searching to ``depth`` plies (None when the game is played on
    the clock)."""

    kind: str
    chromosome: Individual | None = None
    depth: int | None = None
    typed: str = ""                 # the name the person chose ('pbt-td-searcher'), as the card shows it

    @property
    def is_machine(self) -> bool:
        return self.kind == MACHINE

    def name(self) -> str:
        """The player as the person named it (its text where they typed none)."""
        return self.typed or self.text()

    def text(self) -> str:
        """The player's own text ('all-4+2x2-s8_440_6eabd14f4d1c'), as records keep it."""
        return str(self.chromosome) if self.chromosome is not None else "Human"


@dataclass(frozen=True)
class WebGameSettings:
    """Both sides and the clock: ``seconds`` per side for the whole game, or
    None for fixed-depth machines and no clocks."""

    black: SideSettings
    white: SideSettings
    seconds: float | None = None

    def side(self, colour: Colour) -> SideSettings:
        return self.black if colour == BLACK else self.white

    @property
    def has_human(self) -> bool:
        return not (self.black.is_machine and self.white.is_machine)


def parse_chromosome(text: object, field_name: str = "chromosome", lookup: PlayerLookup | None = None) -> Individual:
    """The player the page's text names, as every command resolves names
    (``individual_names.resolve_individual``) except that the web reads no
    file: a chromosome text, a shipped network's name, or with ``lookup``
    (the served database) a player id or a network text there.

    Raises:
        WebRequestError: naming ``field_name``, with the resolver's message.
    """
    if not isinstance(text, str) or not text.strip():
        raise WebRequestError("give a chromosome TYPE_BIRTH_GENES, e.g. oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3",
                              field=field_name)
    if len(text) > MAX_CHROMOSOME_CHARS:
        raise WebRequestError(f"chromosome text is {len(text)} characters; at most {MAX_CHROMOSOME_CHARS}",
                              field=field_name)
    spec = text.strip()
    if looks_like_path(spec):
        raise WebRequestError("the web plays a chromosome text, a shipped network's name or a network of its "
                              "database, not a file", field=field_name)
    try:
        if lookup is None:
            return resolve_individual(spec)
        return resolve_individual(spec, "the served database", lambda _db, key: lookup(key))
    except ValueError as exc:
        raise WebRequestError(str(exc), field=field_name) from None


def _int_in(value: object, low: int, high: int, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise WebRequestError(f"{field_name} must be a whole number {low}..{high}, got {value!r}", field=field_name)
    try:
        number = int(value)
    except ValueError:
        raise WebRequestError(f"{field_name} must be a whole number {low}..{high}, got {value!r}",
                              field=field_name) from None
    if not low <= number <= high:
        raise WebRequestError(f"{field_name} must be in {low}..{high}, got {number}", field=field_name)
    return number


def parse_side(data: object, colour: Colour, timed: bool, lookup: PlayerLookup | None = None) -> SideSettings:
    """One colour's settings: ``{"kind": "human"}`` or ``{"kind":
    "machine", "chromosome": TEXT, "depth": 1..15}`` (no depth when timed)."""
    if not isinstance(data, dict):
        raise WebRequestError(f"{colour}: expected an object with 'kind'", field=f"{colour}.kind")
    kind = data.get("kind")
    if kind == HUMAN:
        return SideSettings(HUMAN)
    if kind != MACHINE:
        raise WebRequestError(f"{colour}: kind must be 'human' or 'machine', got {kind!r}", field=f"{colour}.kind")
    chromosome = parse_chromosome(data.get("chromosome"), f"{colour}.chromosome", lookup)
    typed = str(data.get("chromosome")).strip()
    if timed:
        return SideSettings(MACHINE, chromosome, typed=typed)
    depth = _int_in(data.get("depth", defaults.DEPTH), MIN_DEPTH, MAX_DEPTH, f"{colour}.depth")
    return SideSettings(MACHINE, chromosome, depth, typed)


def parse_settings(data: object, lookup: PlayerLookup | None = None) -> WebGameSettings:
    """A new game's settings from the page's JSON:
    ``{"black": SIDE, "white": SIDE, "seconds": null | 1..3600}`` (``lookup``:
    the served database's players, for machines named by id or network text).

    Raises:
        WebRequestError: naming the field that is wrong.
    """
    if not isinstance(data, dict):
        raise WebRequestError("expected a JSON object with 'black', 'white' and 'seconds'")
    seconds = data.get("seconds")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 1 <= seconds <= MAX_SECONDS:
            raise WebRequestError(f"seconds per side must be 1..{MAX_SECONDS:g}, got {seconds!r}", field="seconds")
        seconds = float(seconds)
    timed = seconds is not None
    return WebGameSettings(parse_side(data.get("black"), BLACK, timed, lookup),
                           parse_side(data.get("white"), WHITE, timed, lookup), seconds)


def parse_move(board: Board, text: object) -> int:
    """The square a person clicked, checked against the rules.

    Raises:
        WebRequestError: not a square, or not a legal move here.
    """
    if not isinstance(text, str):
        raise WebRequestError(f"a move is a square name like d3, got {text!r}", field="move")
    try:
        square = parse_square(text)
    except BadSquareError as exc:
        raise WebRequestError(str(exc), field="move") from None
    if square == PASS:
        raise WebRequestError("you cannot pass while you have a legal move; passes are played for you",
                              field="move")
    if not board.is_legal(square):
        legal = ", ".join(square_name(m) for m in board.legal_moves())
        raise WebRequestError(f"{square_name(square)} is not a legal move for {board.side_to_move}; "
                              f"legal: {legal}", field="move")
    return square


def play_forced_passes(board: Board) -> list[str]:
    """Play the passes the side to move is forced to make (at most one: after
    a pass the other side can move, or the game is over); the announcements."""
    said = []
    if not board.is_game_over() and board.must_pass():
        colour = board.side_to_move
        board.play(PASS)
        said.append(f"{colour.capitalize()} has no legal move and passes.")
    return said


def plies_to_undo(board: Board, settings: WebGameSettings) -> int:
    """How many moves an undo takes back: up to and including the last real
    move by a person, so that this person is to move again.

    Raises:
        ConflictError: no person plays, or no person has moved yet.
    """
    if not settings.has_human:
        raise ConflictError("undo is for games with a person; machines do not take back moves")
    probe = board.copy()
    count = 0
    while probe.history:
        move = probe.undo()
        count += 1
        if move != PASS and not settings.side(probe.side_to_move).is_machine:
            return count
    raise ConflictError("nothing to undo: no move of a person yet")


def transcript_lines(board: Board) -> list[str]:
    """GeneThello's transcript of the game so far: ``1. d3 - c3`` lines."""
    return write_transcript(GameRecord.from_board(board)).splitlines()


def result_text(board: Board) -> str | None:
    """'B+n', 'W+n' or 'Draw' (empties to the winner) once the game is over."""
    return result_from_score(board.final_score()) if board.is_game_over() else None


def game_sgf(board: Board, settings: WebGameSettings, when: date | None = None) -> str:
    """The game as an SGF file, with the players (chromosomes for machines)
    and, once over, the result."""
    info = {
        "black_name": settings.black.text(), "white_name": settings.white.text(),
        "black_chromosome": str(settings.black.chromosome) if settings.black.chromosome else None,
        "white_chromosome": str(settings.white.chromosome) if settings.white.chromosome else None,
        "date": (when or date.today()).isoformat(),
        "result": result_text(board),
        "place": "genethello serve",
        "time_settings": (f"{settings.seconds:g} s per side" if settings.seconds is not None else None),
    }
    return write_sgf(GameRecord.from_board(board, **info))


def cells(board: Board) -> str:
    """The board as 64 characters, a1..h1 then a2..h8: 'b', 'w' or '.'."""
    black, white = board.black, board.white
    return "".join("b" if black >> sq & 1 else "w" if white >> sq & 1 else "." for sq in range(64))


def board_view(board: Board) -> dict[str, object]:
    """What the page draws: the discs, whose turn, the legal moves, the disc
    counts, the last move and, at the end, the result."""
    black, white = board.disc_count()
    history = board.history
    last = next((m for m in reversed(history) if m != PASS), None)
    over = board.is_game_over()
    return {
        "cells": cells(board),
        "to_move": None if over else board.side_to_move,
        "legal": [] if over else [square_name(m) for m in board.legal_moves()],
        "discs": {"black": black, "white": white},
        "last": square_name(last) if last is not None else None,
        "plies": len(history),
        "over": over,
        "result": result_text(board),
    }


@dataclass
class Clocks:
    """Both players' clocks in seconds, charged on monotonic time.

    ``remaining`` never goes below zero: the machine never loses on time, and
    a person who runs out is told so but may finish the game.
    """

    seconds: float | None
    remaining: dict[Colour, float] = field(default_factory=dict)
    running: Colour | None = None
    since: float = 0.0

    def __post_init__(self) -> None:
        if not self.remaining:
            self.remaining = {c: self.seconds or 0.0 for c in COLOURS}

    def start(self, colour: Colour | None, now: float) -> None:
        """Stop the running clock (charging it) and start ``colour``'s."""
        self.stop(now)
        self.running, self.since = colour, now

    def stop(self, now: float) -> float:
        """Charge the running clock with its time since it started; returns
        the seconds charged."""
        if self.running is None:
            return 0.0
        spent = max(0.0, now - self.since)
        self.remaining[self.running] = max(0.0, self.remaining[self.running] - spent)
        self.running = None
        return spent

    def left(self, colour: Colour, now: float) -> float:
        spent = now - self.since if self.running == colour else 0.0
        return max(0.0, self.remaining[colour] - spent)

    def view(self, now: float) -> dict[str, object] | None:
        if self.seconds is None:
            return None
        return {"black": round(self.left(BLACK, now), 3), "white": round(self.left(WHITE, now), 3),
                "running": self.running, "total": self.seconds}
