"""Which external programs a run may start: only those its user names now.

A run's yardstick may play external GTP engines (``yardstick.gtp_engines``,
command lines). The config file given to ``evolve`` is the user's own
instruction, but a database is not: whoever hands over a ``.db`` file must
not get a program run by ``resume``. So ``resume`` runs an engine only when
the invoking user names it again (``--gtp-engine CMD``), and continues
without one only when told so (``--drop-engine CMD``, recorded in the run),
so that a resumed run never silently differs from an uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from genethello.core.frontend.errors import UserError


class EngineConsentError(UserError):
    """The user has not said what to do with a run's external engines."""


@dataclass(frozen=True)
class EngineDecision:
    """The engines a resumed run plays, and those newly dropped."""

    engines: tuple[str, ...]
    newly_dropped: tuple[str, ...]


def decide_engines(run_name: str, stored: Sequence[str], dropped: Sequence[str], given: Sequence[str],
                   drop: Sequence[str]) -> EngineDecision:
    """Match the engines a stored run plays against what the user said.

    Args:
        run_name: for the messages.
        stored: the run's configured engines (from the database).
        dropped: those an earlier resume dropped.
        given: ``--gtp-engine`` commands of this invocation.
        drop: ``--drop-engine`` commands of this invocation.

    Raises:
        EngineConsentError: an engine of the run was neither given nor
            dropped, or a given/dropped command is not one of the run's.
    """
    live = [e for e in stored if e not in dropped]
    unknown = [e for e in list(given) + list(drop) if e not in live]
    if unknown:
        known = "; ".join(repr(e) for e in live) or "none"
        raise EngineConsentError(f"run {run_name!r} has no external engine {unknown[0]!r} "
                                 f"(its engines: {known})")
    missing = [e for e in live if e not in given and e not in drop]
    if missing:
        names = "; ".join(repr(e) for e in missing)
        raise EngineConsentError(
            f"run {run_name!r} plays external GTP engines stored in its database: {names}. A database "
            "never starts a program by itself: give each again with --gtp COMMAND to run it, or "
            "--drop-engine COMMAND to continue without it (recorded in the run)")
    return EngineDecision(tuple(e for e in live if e in given), tuple(e for e in live if e in drop))
