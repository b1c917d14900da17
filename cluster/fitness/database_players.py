"""Fitness opponents from the run's own database: other runs' champions
(issue 36 part 2, "a varied pool ... other runs' champions").

Two names, at ``fitness.depth >= 1``, each also behind an ε prefix
(``eps0.2:champion:7``):

- ``champion:RUN``: the best so far of another run of the same database
  (RUN its id or name) *when this run is created*. ``evolve`` freezes it:
  the stored config names ``player:ID``, that player's row, so the games a
  run plays stay a pure function of its stored config however the other
  run goes on (:func:`genethello.cluster.run.frozen_opponents.freeze_champions`).
- ``player:ID``: the player of the database's row ``ID`` (``genethello best``
  lists ids), any run's. A row is never changed once written, so a resumed
  run plays the same player; a row is a row of the database the run lives
  in, never a path or another file.

This module is the grammar, and the player a frozen name reads back as
through a :data:`PlayerLookup` the caller hands in (pure: the caller owns
the database).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from genethello.core.families.registry import Individual, parse_individual

__all__ = ["CHAMPION_PREFIX", "PLAYER_PREFIX", "PlayerLookup", "champion_run", "database_individual",
           "database_player", "names_database_player", "player_spec"]

PLAYER_PREFIX = "player:"
CHAMPION_PREFIX = "champion:"

#: A database player's text and stored payload by row id
#: (:func:`genethello.cluster.reads.runs.player_record`); raises ValueError
#: for no such row.
PlayerLookup = Callable[[int], tuple[str, bytes | None]]

_ROW_ID = re.compile(r"[1-9][0-9]{0,17}")


def database_player(spec: str) -> int | None:
    """The row id ``player:ID`` names; None for any other name.

    Raises:
        ValueError: one line, for ``player:`` followed by anything but a
            positive row id.
    """
    if not spec.startswith(PLAYER_PREFIX):
        return None
    row = spec[len(PLAYER_PREFIX):]
    if not _ROW_ID.fullmatch(row):
        raise ValueError(f"{spec!r}: a database player is player:ID, ID a row id (>= 1) such as "
                         "'genethello best' lists")
    return int(row)


def champion_run(spec: str) -> str | None:
    """The run (id or name) ``champion:RUN`` names; None for any other name.

    Raises:
        ValueError: one line, for ``champion:`` with no run.
    """
    if not spec.startswith(CHAMPION_PREFIX):
        return None
    run = spec[len(CHAMPION_PREFIX):]
    if not run.strip():
        raise ValueError(f"{spec!r}: name the run whose champion to play, champion:RUN (its id or name)")
    return run


def names_database_player(spec: str) -> bool:
    """Whether ``spec`` (its ε prefix stripped) names a player of the
    database, frozen (``player:ID``) or not yet (``champion:RUN``);
    ValueError for a malformed one."""
    return database_player(spec) is not None or champion_run(spec) is not None


def player_spec(row_id: int) -> str:
    """The frozen name of the player of row ``row_id``: ``player:ID``."""
    return f"{PLAYER_PREFIX}{row_id}"


def database_individual(spec: str, players: PlayerLookup | None) -> Individual:
    """The individual of ``player:ID`` as ``players`` reads its row.

    Raises:
        ValueError: one line naming ``spec``: a ``champion:RUN`` not yet
            frozen, no ``players`` (the database is not open here), no
            such row, or a row that does not read back as a player.
    """
    row = database_player(spec)
    if row is None:
        raise ValueError(f"{spec!r}: another run's champion is frozen to its player (player:ID) when the run is "
                         "created by 'genethello evolve'")
    if players is None:
        raise ValueError(f"{spec!r} names a player of the run's database, which is not open here")
    try:
        text, payload = players(row)
    except ValueError as exc:
        raise ValueError(f"{spec!r}: {exc}") from None
    try:
        return parse_individual(text, payload)
    except ValueError as exc:
        raise ValueError(f"{spec!r}: its row does not read back as a player ({exc})") from None
