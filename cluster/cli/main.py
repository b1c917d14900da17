"""Entry point of the ``genethello`` command: one front door, loaded lazily.

The engine commands live on the core side (``genethello.core.cli``), the
commands that need the run database or Ray on the cluster side
(``genethello.cluster.cli``). :data:`COMMANDS` names every command with its
module and one-line help, so ``genethello --help`` lists them all while
importing none, and ``genethello gtp`` imports only the gtp command's module:
an engine started by a GUI or a controller never pays for SQLAlchemy,
Alembic or Ray.

Every command module exposes ``register(subparsers)``, which adds its
sub-commands with a ``handler`` default. The engine commands that can use
the cluster side declare it (:func:`~genethello.core.cli.context.takes_context`)
and are handed :data:`CONTEXT`, the cluster's functions they may call. User
errors (bad input, bad options) end as one line on stderr and exit status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from genethello.core.cli.context import CommandContext, call_handler
from genethello.core.frontend.errors import (
    INTERNAL_ERROR_STATUS,
    USER_ERROR_STATUS,
    UserError,
    write_internal_error_log,
)

_CORE = "genethello.core.cli."
_CLUSTER = "genethello.cluster.cli."

#: command -> (module that registers it, its one-line help). A test checks
#: that each module registers exactly its commands with these helps.
COMMANDS: dict[str, tuple[str, str]] = {
    "perft": (_CORE + "core_commands", "count positions 1..N plies from the start"),
    "solve": (_CORE + "core_commands", "solve OBF positions exactly and check their scores"),
    "selfplay": (_CORE + "core_commands", "play games between two chromosomes"),
    "match": (_CORE + "match_command", "two chromosomes (or one and a GTP engine) play each other with both colours"),
    "gtp": (_CORE + "gtp_commands", "play a chromosome or network as a GTP engine (Othello profile) on stdin/stdout"),
    "nboard": (_CORE + "engine_commands",
               "play a chromosome or network as an engine for the NBoard GUI (NBoard protocol v2)"),
    "metamachine": (_CORE + "engine_commands", "a GTP engine that plays the best of its oracle engine's top moves"),
    "replay": (_CORE + "replay_command", "replay a game record (SGF, GGF or move list) move by move"),
    "patterns": (_CORE + "pattern_commands", "learn, check and show the edge/corner pattern tables"),
    "network": (_CORE + "network_commands", "make, show and export n-tuple network files"),
    "evolve": (_CLUSTER + "run_commands", "start a new evolution run"),
    "resume": (_CLUSTER + "run_commands", "continue a stopped, converged or finished run"),
    "stop": (_CLUSTER + "run_commands", "ask a running evolution to stop cleanly"),
    "runs": (_CLUSTER + "run_commands", "list the runs in a database"),
    "status": (_CLUSTER + "run_commands", "where a run stands"),
    "best": (_CLUSTER + "report_commands", "the best chromosomes found so far (by the hall of fame's rating)"),
    "history": (_CLUSTER + "report_commands", "per-generation table of a run, with the hall and yardstick intervals"),
    "plot": (_CLUSTER + "report_commands", "plot the hall rating and yardstick (with intervals), Elo and genes"),
    "compare": (_CLUSTER + "compare_command", "rate the champions of several runs on one scale (a round robin)"),
    "panel": (_CLUSTER + "panel_command", "measure a player against a fixed strength panel, with one anchored rating"),
    "lineage": (_CLUSTER + "lineage_command", "the family tree of a chromosome: how it and its ancestors were bred"),
    "export": (_CLUSTER + "export_commands", "write a run's games as SGF, GGF or move-list files"),
    "serve": (_CLUSTER + "web_commands", "a web page to play the evolved players, replay games and watch runs"),
}


#: command -> modules on the cluster side that add actions to a core-side
#: command (each ``register(actions)`` gets what the command's register returned).
EXTRA_ACTIONS: dict[str, tuple[str, ...]] = {
    "patterns": (_CLUSTER + "label_command",),
}


class CommandError(UserError):
    """A user-facing failure of a command: printed as one line, exit status 2."""


def command_in(argv: Sequence[str]) -> str | None:
    """The command named on a command line: its first word that is not an
    option (the top-level parser has no options that take a value)."""
    for word in argv:
        if not word.startswith("-"):
            return word
    return None


def installed_version() -> str:
    """The installed package's version ('unknown' when run from a bare tree)."""
    from importlib import metadata

    try:
        return metadata.version("genethello")
    except metadata.PackageNotFoundError:
        return "unknown"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every command listed; only ``command``'s module is
    imported and registers its full options (None: none is)."""
    parser = argparse.ArgumentParser(
        prog="genethello",
        description="Breed Othello players by evolution; play, solve and analyse games.",
    )
    parser.add_argument("--version", action="version", version=f"genethello {installed_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = COMMANDS[command][0] if command is not None and command in COMMANDS else None
    registered = False
    for name, (module, help_text) in COMMANDS.items():
        if module == wanted:
            if not registered:
                actions = importlib.import_module(module).register(sub)
                for extra in EXTRA_ACTIONS.get(command or "", ()):
                    importlib.import_module(extra).register(actions)
                registered = True
        else:
            sub.add_parser(name, help=help_text)
    return parser


def start_ray_for_engines(address: str) -> int:
    """Join the Ray cluster at ``address`` for an engine command (the
    metamachine's helpers); returns its CPUs."""
    from genethello.cluster.run.executors import start_ray

    return start_ray(address)


def player_from_database(db_target: str, key: int | str) -> tuple[str, bytes | None]:
    """The text and stored payload of a player of a run database, by id or
    by text (for engine commands' players given with ``--db``)."""
    from genethello.cluster.cli.run_commands import open_existing
    from genethello.cluster.reads import player_record

    db = open_existing(db_target)
    try:
        return player_record(db, key)
    finally:
        db.dispose()


#: What the engine commands may borrow from the cluster side (each function
#: imports its modules when called: the engine commands stay light).
CONTEXT = CommandContext(start_ray=start_ray_for_engines, player_from_database=player_from_database)


def user_errors() -> tuple[type[BaseException], ...]:
    """Failures caused by input, files, databases or the cluster (not bugs):
    each becomes one line on stderr. A plain ValueError is none of them: it
    is a check of genethello's own failing (core/frontend/errors.py). The
    cluster's error classes count only once their modules are loaded (a
    command that never loaded them cannot raise them)."""
    errors: list[type[BaseException]] = [UserError, OSError]
    if "genethello.cluster.db" in sys.modules:
        from sqlalchemy.exc import DBAPIError

        from genethello.cluster.db import LeaseError, RunDatabaseError

        errors += [RunDatabaseError, LeaseError, DBAPIError]
    if "genethello.cluster.run.executors" in sys.modules:
        from genethello.cluster.run.executors import CoreMismatchError, RayStartError, WorkerLostError

        errors += [CoreMismatchError, RayStartError, WorkerLostError]
    if "genethello.cluster.run.private_network" in sys.modules:
        from genethello.cluster.run.private_network import PrivateNetworkError

        errors.append(PrivateNetworkError)
    return tuple(errors)


def one_line(exc: BaseException) -> str:
    """The message of a user error on one line. A database failure (disk
    full, read-only, I/O error) is named by SQLite's own words: committed
    work is intact, and the run resumes once the cause is gone."""
    orig = getattr(exc, "orig", None)          # SQLAlchemy's wrapper of a DB-API error
    if orig is not None and type(exc).__module__.startswith("sqlalchemy"):
        return (f"the database failed: {' '.join(str(orig).split())} (everything committed before is "
                "intact; 'genethello resume' continues once the cause is fixed)")
    return " ".join(str(exc).split())


def main(argv: Sequence[str] | None = None) -> int:
    # A log file that cannot be written (a full disk) must not print
    # tracebacks from the logging module.
    logging.raiseExceptions = False
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(command_in(argv))
    args = parser.parse_args(argv)
    try:
        status = call_handler(args.handler, args, CONTEXT)
    except KeyboardInterrupt:
        print("genethello: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except user_errors() as exc:
        print(f"genethello {args.command}: error: {one_line(exc)}", file=sys.stderr)
        if getattr(exc, "abandon_connections", False):      # closing them would end in SIGBUS (begin_modes)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(USER_ERROR_STATUS)
        return USER_ERROR_STATUS
    except Exception as exc:  # noqa: BLE001 - a bug: one line and a log, never a traceback on screen
        return internal_error(args.command, exc, argv)
    return int(status or 0)


def internal_error(command: str, exc: Exception, argv: list[str]) -> int:
    """Report a bug: one line naming the log that holds its traceback (and
    the error's own words, in case it is the user's after all); status 70."""
    log = write_internal_error_log(exc, argv)
    where = f"the traceback is in {log}" if log else "no log could be written"
    print(f"genethello {command}: internal error ({type(exc).__name__}: {one_line(exc)}); {where}; "
          "please report it", file=sys.stderr)
    return INTERNAL_ERROR_STATUS


if __name__ == "__main__":
    sys.exit(main())
