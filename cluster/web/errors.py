"""The web API's user-facing errors: each becomes one JSON message and a 4xx.

They derive from ``ValueError`` (bad input) or ``RuntimeError`` (a state that
refuses the request), as the project's other error classes do.
"""

from __future__ import annotations


class WebRequestError(ValueError):
    """A request the page must correct: a bad field, an illegal move.

    Args:
        message: one line naming what was wrong and what is allowed.
        field: the settings field it concerns (the page shows the message
            beside it), or None.
        status: the HTTP status (400 unless said otherwise).
    """

    def __init__(self, message: str, *, field: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.field = field
        self.status = status


class ConflictError(RuntimeError):
    """The game is not in a state for this request (not your turn, the
    machine is thinking, the search was abandoned): HTTP 409."""

    status = 409


class BusyError(RuntimeError):
    """Every core is searching already: HTTP 429, try again shortly."""

    status = 429


class MemoryBoundError(BusyError):
    """A new game would take the server past its memory bound (``serve
    --max-memory``): HTTP 503, until games end or are closed."""

    status = 503


class NotFoundError(LookupError):
    """No such game, run or stored game: HTTP 404."""

    status = 404
