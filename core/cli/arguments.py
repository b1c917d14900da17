"""Argument types and range checks shared by the command modules."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from genethello.core.frontend.errors import UserError

if TYPE_CHECKING:   # annotations only: a command's parser loads no compiled module
    from genethello.core.evaluation.evaluation import BaseEvaluator

Number = TypeVar("Number", int, float)


def number_type(kind: type[Number], low: Number, *, inclusive: bool = True,
                finite: bool = False, high: Number | None = None) -> Callable[[str], Number]:
    """An argparse type that reads a ``kind`` (int or float) of at least
    ``low`` (above ``low`` when not ``inclusive``; finite when ``finite``;
    at most ``high`` when given).

    Its error names the allowed range and the text given, for argparse to
    print as one line: ``must be an integer >= 1, got '1.5'``.
    """
    noun = "an integer" if kind is int else ("a finite number" if finite else "a number")
    wanted = f"{noun} {'>=' if inclusive else '>'} {low:g}"
    if high is not None:
        wanted = f"{noun} in {low}..{high}" if inclusive else f"{wanted} and at most {high:g}"

    def parse(text: str) -> Number:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {wanted}, got {text!r}") from None
        in_range = (value >= low if inclusive else value > low) and (high is None or value <= high)
        if not in_range or (finite and not math.isfinite(value)):
            raise argparse.ArgumentTypeError(f"must be {wanted}, got {text}")
        return value

    parse.__name__ = f"{kind.__name__} {'>=' if inclusive else '>'} {low:g}"
    return parse


positive_int = number_type(int, 1)
"""argparse type: an integer >= 1."""
non_negative_int = number_type(int, 0)
"""argparse type: an integer >= 0 (0 usually means 'none' or 'all')."""
stored_int = number_type(int, 1, high=2**63 - 1)
"""argparse type: an integer >= 1 that a database can hold (an id, a
generation): a larger one could not even be compared with a column."""
stored_index = number_type(int, 0, high=2**63 - 1)
"""argparse type: an integer >= 0 that a database can hold (a pair index)."""
positive_float = number_type(float, 0.0, inclusive=False)
"""argparse type: a number > 0 (infinity passes: a command that needs a
finite one says so in its own words)."""
non_negative_float = number_type(float, 0.0, finite=True)
"""argparse type: a finite number >= 0."""

#: The longest game clock (seconds on each side): a day. An infinite clock
#: (``--time inf``) would make the first move think for ever.
MAX_GAME_SECONDS = 86_400
game_seconds = number_type(float, 0.0, inclusive=False, finite=True, high=float(MAX_GAME_SECONDS))
"""argparse type: the seconds of a game clock, > 0 and at most a day."""


# The ranges of the numeric options: what the engine accepts (a game has 60
# moves; the transposition table takes 0..28 bits, 2**28 buckets being 12 GiB).
# Checked before any work so that a value outside them is one line, exit 2,
# not an OverflowError from the compiled core.
MAX_PLIES = 60
MAX_TT_BITS = 28


def check_range(option: str, value: int, low: int, high: int) -> None:
    """Refuse ``value`` of ``option`` unless ``low <= value <= high``.

    Raises:
        ValueError: naming the option, the value and the range.
    """
    if not low <= value <= high:
        raise UserError(f"{option} must be in {low}..{high}, got {value}")


def add_game_options(parser: argparse.ArgumentParser, games_help: str, openings_help: str,
                     default_depth: bool = False) -> None:
    """The options of commands that play games between two players (``selfplay``,
    ``match``): a search limit (``--depth`` or ``--time``: one required, or
    with ``default_depth`` neither, the command then searching to
    :data:`~genethello.core.frontend.defaults.DEPTH`) and ``--exact``,
    ``--games``, ``--random-plies`` and ``--seed`` with the engine defaults
    of :mod:`genethello.core.frontend.defaults`, shown by ``--help``."""
    from genethello.core.frontend import defaults

    limit = parser.add_mutually_exclusive_group(required=not default_depth)
    limit.add_argument("--depth", type=positive_int, metavar="N",
                       help=f"plies per move (default: {defaults.DEPTH})" if default_depth else "plies per move")
    limit.add_argument("--time", type=game_seconds, metavar="S",
                       help="seconds on each player's clock for the whole game")
    add_exact_option(parser)
    parser.add_argument("--games", type=positive_int, default=defaults.GAMES, metavar="K",
                        help=f"{games_help} (default: {defaults.GAMES})")
    parser.add_argument("--random-plies", type=int, default=defaults.RANDOM_PLIES, metavar="R",
                        help=f"{openings_help} (default: {defaults.RANDOM_PLIES})")
    parser.add_argument("--seed", type=int, default=defaults.SEED, metavar="X",
                        help=f"seed of the random openings (default: {defaults.SEED})")


def add_engine_player_options(parser: argparse.ArgumentParser) -> None:
    """The player of an engine front end (``gtp``, ``nboard``): ``--player``
    (required) and ``--db`` for a player given by id or network text."""
    parser.add_argument("--player", required=True, metavar="PLAYER", help=f"the player: {PLAYER_HELP}")
    add_db_option(parser, "a player given by id or network text")


def add_exact_option(parser: argparse.ArgumentParser) -> None:
    """``--exact E`` with the engine default."""
    from genethello.core.frontend import defaults

    parser.add_argument("--exact", type=int, default=defaults.EXACT_EMPTIES, metavar="E",
                        help=f"solve exactly at E or fewer empty squares (default: {defaults.EXACT_EMPTIES})")


def add_tt_bits_option(parser: argparse.ArgumentParser) -> None:
    """``--tt-bits B`` with the engine default."""
    from genethello.core.frontend import defaults

    parser.add_argument("--tt-bits", type=int, default=defaults.TT_BITS, metavar="B",
                        help=f"log2 transposition-table buckets (default: {defaults.TT_BITS})")


def add_db_option(parser: argparse.ArgumentParser, players: str = "players given by id or network text") -> None:
    """``--db FILE`` of the engine commands: where a player given by a
    database id (or a network by its text) is looked up; an id without it
    reads ``./genethello.db`` (:meth:`CommandContext.individual`)."""
    parser.add_argument("--db", metavar="FILE",
                        help=f"run database for {players} (default: ./genethello.db, for an id)")


def add_patterns_option(parser: argparse.ArgumentParser) -> None:
    """``--patterns VERSION``: the pattern table a chromosome with a p gene
    weighs (resolved by ``pattern_table.resolve_version``)."""
    parser.add_argument("--patterns", metavar="VERSION",
                        help="pattern table for chromosomes with a p gene: patterns-v1, patterns-v2 "
                             "or v1, v2 (default: the newest installed)")


def patterns_note(evaluator: BaseEvaluator) -> str:
    """', patterns VERSION' for an evaluator that weighs the pattern table, else ''."""
    version = getattr(evaluator, "pattern_version", "")
    return f", patterns {version}" if version else ""


#: How a player is named on every command line (individual_names.resolve_individual).
PLAYER_HELP = ("a chromosome TYPE_BIRTH_GENES, a shipped network's name, a network file (PATH.json), "
               "or with --db a database id or network text")
