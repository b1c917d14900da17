"""Entry point of the ``genethello`` command.

Every command module exposes ``register(subparsers)``, which adds its
sub-commands with a ``handler`` default. User errors (bad input, bad options)
end as one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from genethello.cluster.cli import (
    core_commands, engine_commands, gtp_commands, pattern_commands, record_commands, report_commands,
    run_commands, web_commands,
)

COMMAND_MODULES = [core_commands, gtp_commands, engine_commands, run_commands, report_commands, record_commands,
                   pattern_commands, web_commands]


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


def user_errors() -> tuple[type[BaseException], ...]:
    """Failures caused by input, files, databases or the cluster (not bugs):
    each becomes one line on stderr."""
    from genethello.cluster.db import LeaseError, RunDatabaseError
    from genethello.cluster.executors import CoreMismatchError, WorkerLostError

    return (ValueError, OSError, CommandError, RunDatabaseError, LeaseError, CoreMismatchError, WorkerLostError)


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
    except user_errors() as exc:
        print(f"genethello {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
