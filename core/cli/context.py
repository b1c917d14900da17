"""What an engine command may borrow from the cluster side, handed to it
explicitly.

``core`` never imports ``genethello.cluster``, yet two engine commands can
use it when genethello is installed whole: ``metamachine --address`` joins
a Ray cluster for its helper oracles, and ``match --db`` looks players up in
a run database. The entry point (``genethello.cluster.cli.main``) fills a
:class:`CommandContext` with the cluster's functions and hands it to the
commands that declare they take one (registered with :func:`takes_context`);
a command run without the cluster side gets an empty context and says so in
one line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from genethello.core.frontend.errors import UserError

if TYPE_CHECKING:
    from genethello.core.families.registry import Individual

#: The run database every command reads when given no ``--db``.
DEFAULT_DATABASE = "genethello.db"

#: A command's handler: the parsed options in, the exit status out.
Handler = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class CommandContext:
    """The cluster side's functions an engine command may call (None: not
    available, such as when core runs alone)."""

    #: Join the Ray cluster at ``address`` (HOST:PORT); returns its CPUs.
    start_ray: Callable[[str], int] | None = None
    #: (database path or URL, player id or text) -> that player's text and
    #: stored payload (a network's weights; None for a chromosome).
    player_from_database: Callable[[str, int | str], tuple[str, bytes | None]] | None = None

    def ray(self) -> Callable[[str], int]:
        """``start_ray``, or a one-line ValueError where it is missing."""
        if self.start_ray is None:
            raise UserError("--address needs genethello's cluster part (run it through the genethello command)")
        return self.start_ray

    def player_lookup(self) -> Callable[[str, int | str], tuple[str, bytes | None]]:
        """``player_from_database``, or a one-line ValueError where it is missing."""
        if self.player_from_database is None:
            raise UserError("players by database id need genethello's cluster part "
                             "(run this through the genethello command)")
        return self.player_from_database

    def individual(self, spec: str, db: str | None = None) -> Individual:
        """The player ``spec`` names, resolved the one documented way
        (:func:`genethello.core.families.individual_names.resolve_individual`), with
        ``db`` (``--db``) looked up through this context. A database id
        without ``--db`` is looked up in ``./genethello.db`` when that file
        is there, as every run command reads it."""
        from genethello.core.families.individual_names import resolve_individual

        if db is None and spec.strip().isdigit():
            if not Path(DEFAULT_DATABASE).is_file():
                raise UserError(f"player {spec.strip()} looks like a database id and there is no "
                                 f"./{DEFAULT_DATABASE} here: give --db FILE")
            db = DEFAULT_DATABASE
        return resolve_individual(spec, db, self.player_lookup() if db is not None else None)


@dataclass(frozen=True)
class ContextCommand:
    """A handler that takes the context besides the options."""

    run: Callable[[argparse.Namespace, CommandContext], int]

    def __call__(self, args: argparse.Namespace, context: CommandContext | None = None) -> int:
        return self.run(args, context or CommandContext())


def takes_context(handler: Callable[[argparse.Namespace, CommandContext], int]) -> ContextCommand:
    """Register ``handler`` as one that is handed the :class:`CommandContext`."""
    return ContextCommand(handler)


def call_handler(handler: Handler | ContextCommand, args: argparse.Namespace, context: CommandContext) -> int:
    """Run a command's handler, handing the context to those that take it."""
    if isinstance(handler, ContextCommand):
        return handler(args, context)
    return handler(args)
