"""An engine for the NBoard Othello GUI (NBoard protocol v2).

    from genethello.core.nboard import NBoardFrontend
    NBoardFrontend(evaluator, depth=8).run(sys.stdin.buffer)

See docs/engines.md.
"""

from genethello.core.nboard.nboard_server import (
    NBoardFrontend,
    format_eval,
    format_pv,
    format_square,
    load_ggf_board,
    parse_move_field,
    search_line,
    split_command,
)

__all__ = [
    "NBoardFrontend", "format_eval", "format_pv", "format_square", "load_ggf_board", "parse_move_field",
    "search_line", "split_command",
]
