"""An engine for the NBoard Othello GUI (NBoard protocol v2).

    from genethello.core.nboard import NBoardEngine
    NBoardEngine(evaluator, depth=8).run(sys.stdin.buffer)

See docs/engines.md.
"""

from genethello.core.nboard.engine import (
    NBoardEngine,
    format_eval,
    format_pv,
    format_square,
    load_ggf_board,
    parse_move_field,
    search_line,
    split_command,
)

__all__ = [
    "NBoardEngine", "format_eval", "format_pv", "format_square", "load_ggf_board", "parse_move_field",
    "search_line", "split_command",
]
