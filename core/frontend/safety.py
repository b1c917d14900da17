"""One line for an error nobody expected: what the engines (GTP, NBoard, the
metamachine) answer when a command fails with an exception that is not the
protocol's own, so that a bug costs that command and not the session."""

from __future__ import annotations

MAX_MESSAGE_CHARS = 200
"""Longest error text kept in the answer (a message may quote its input)."""


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` on one line (whitespace runs, line breaks included, become
    one space), cut to ``limit`` characters with ``...``."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def internal_error(command: str, exc: BaseException) -> str:
    """``internal error in <command>: <Type>: <message>``, one line."""
    detail = one_line(str(exc))
    name = one_line(command, 40) or "the command"
    return f"internal error in {name}: {type(exc).__name__}" + (f": {detail}" if detail else "")
