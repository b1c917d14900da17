"""The metamachine: a GTP proxy that plays its oracle's best move after
trying the oracle's top N moves (GNU Go's Metamachine), optionally scoring
them on several oracle processes or Ray actors in parallel.

    genethello metamachine [--debug] [--top N] [--workers N] [--address A] -- ORACLE COMMAND...

See docs/engines.md.
"""

from genethello.core.metamachine.oracles import (
    CommandLog,
    OracleError,
    OraclePool,
    Trial,
    missing_commands,
    parse_estimate,
    parse_top_moves,
    start_oracle,
)
from genethello.core.metamachine.proxy import DEFAULT_TOP, MetaMachine

__all__ = [
    "CommandLog", "OracleError", "OraclePool", "Trial", "missing_commands", "parse_estimate",
    "parse_top_moves", "start_oracle", "DEFAULT_TOP", "MetaMachine",
]
