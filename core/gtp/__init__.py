"""GTP (Go Text Protocol, version 2) for Othello: the framing, an engine that
answers the Othello profile of ``tests/data/formats/gtp``, pondering, and a
referee that plays GTP engines against each other.

    from genethello.core.gtp import GtpFrontend, parse_line, Referee

See docs/gtp.md for the profile and what the engine's answers mean.
"""

from typing import TYPE_CHECKING

from genethello.core.gtp.protocol import (
    LINE_TOO_LONG,
    MAX_ID,
    MAX_LINE_BYTES,
    Command,
    GtpError,
    clean_line,
    format_failure,
    format_response,
    format_success,
    parse_line,
    parse_response,
    read_commands,
    read_lines,
    write_response,
)

if TYPE_CHECKING:   # what __getattr__ hands out, as the type checker should see it
    from genethello.core.gtp.gtp_server import GtpFrontend
    from genethello.core.gtp.referee import GtpProcess, Referee

__all__ = [
    "LINE_TOO_LONG", "MAX_ID", "MAX_LINE_BYTES", "Command", "GtpError", "clean_line", "format_failure",
    "format_response", "format_success", "parse_line", "parse_response", "read_commands", "read_lines",
    "write_response", "GtpFrontend", "Referee", "GtpProcess",
]


def __getattr__(name: str) -> object:
    # The engine and referee pull in the Cython core; import them on demand so
    # that the pure framing stays importable on its own.
    if name == "GtpFrontend":
        from genethello.core.gtp.gtp_server import GtpFrontend
        return GtpFrontend
    if name in ("Referee", "GtpProcess"):
        from genethello.core.gtp import referee
        return getattr(referee, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
