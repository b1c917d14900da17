"""How the commands word counts, durations and signed figures, the same way everywhere."""

from __future__ import annotations


def counted(count: int, noun: str) -> str:
    """'1 game', '2 games', '0 games': a count with its noun in the right
    number (for nouns that take an -s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def duration(seconds: float) -> str:
    """'0.004 s', '0.52 s', '3.1 s', '212 s': three significant digits at
    most, so that a fast run never reads '0.0 s'."""
    if seconds >= 100:
        return f"{seconds:.0f} s"
    return f"{seconds:.3g} s"


def rate(count: int, seconds: float, unit: str) -> str:
    """'2.6 games/s'; '-' when no time has passed to divide by."""
    return f"{count / seconds:.3g} {unit}/s" if seconds > 0 else f"- {unit}/s"


def signed(value: float) -> str:
    """'+1.23': two decimals with a sign, and no '-0.00' for a value that
    rounds to zero from below (an LLR, its bounds)."""
    return f"{round(value, 2) + 0.0:+.2f}"


def game_line(number: int, moves: str, black_discs: int, white_discs: int, black_margin: int,
              side: str = "") -> str:
    """One finished game, the same for ``selfplay`` and ``match``:
    'game 3: f5d6... 28-36 (white wins by 8)', Black's discs first;
    ``side`` names who played what ('A white': 'game 3 (A white): ...')."""
    result = ("draw" if black_margin == 0
              else f"{'black' if black_margin > 0 else 'white'} wins by {abs(black_margin)}")
    return f"game {number}{f' ({side})' if side else ''}: {moves} {black_discs}-{white_discs} ({result})"


def printable(text: str) -> str:
    """``text`` with every control or format character (escape codes,
    newlines, bidirectional overrides) written as its Python escape
    (``\\x1b``, ``\\n``, ``\\u202e``): a stored name a terminal shows as
    it is, never one that moves the cursor or forges a line."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def byte_size(count: int) -> str:
    """'812 kB', '23.4 MB', '1.62 GB' (powers of 1,000, as disk tools say)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.3g} {unit}"
    return f"{count} bytes"
