"""Entry point of the ``genethello`` command.

Every command module exposes ``register(subparsers)``, which adds its
sub-commands with a ``handler`` default. User errors (bad input, bad options)
end as one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from genethello.cluster.cli import core_commands

COMMAND_MODULES = [core_commands]


class CommandError(Exception):
    """A user-facing failure: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="genethello",
        description="Breed Othello players by evolution; play, solve and analyse games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.handler(args)
    except KeyboardInterrupt:
        print("genethello: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (ValueError, OSError, CommandError) as exc:
        print(f"genethello {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
