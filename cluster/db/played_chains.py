"""Past learning-run members stored as their difference from their parent.

A learning run (pbt-td) keeps a member's real weights only while a step may
learn from them; two generations after its last it is stored *played*
(:func:`~genethello.core.families.network_family.played_payload`, about
8 kB). One learning slice moves few of its integers, and by little: stored
as its integers minus its parent's, a member takes about 2 kB. Eight
members a generation, at 1,700 generations an hour on 2 cores, that is the
difference between 160 and 80 MB an hour.

A *chained* payload is ``GTNWD1`` and a newline, the parent's
``chromosomes.id`` (8 bytes, little-endian), the chain depth D (one byte:
the parent is at depth D - 1; depth 0 is a played or full payload), then
the differences through
:func:`~genethello.core.families.network_family.packed_integers`. A chain
is never longer than :data:`CHAIN_LIMIT`: reading any member decodes at
most that many differences (each well under a millisecond). Hall members
are never chained (the hall is read every generation).

:func:`resolved_payload` turns a chained payload back into the played
payload it stands for, so every reader above the database sees the same
bytes it saw before: the member's text names its digest, and parsing
checks it, so a broken chain is one line, never another network.
"""

from __future__ import annotations

import struct

from sqlalchemy import select
from sqlalchemy.orm import Session

from genethello.cluster.db.models import PlayerRow
from genethello.core.families.network_family import (
    PLAYED_PAYLOAD_MAGIC,
    NetworkError,
)
from genethello.core.families.registry import Individual, family_of, parse_individual

__all__ = ["CHAIN_LIMIT", "CHAINED_PAYLOAD_MAGIC", "chain_depth", "chained_payload", "resolved_payload"]

#: What a chained payload starts with (module docstring).
CHAINED_PAYLOAD_MAGIC = b"GTNWD1\n"
#: The longest chain: a member at this depth is followed by a played one.
CHAIN_LIMIT = 16
_HEADER = struct.Struct("<qB")


def _is_chained(payload: bytes | None) -> bool:
    return payload is not None and bytes(payload[:len(CHAINED_PAYLOAD_MAGIC)]) == CHAINED_PAYLOAD_MAGIC


def chain_depth(payload: bytes | None) -> int | None:
    """0 for a played payload, D for a chained one of depth D, None for
    anything else (real weights, a chromosome's None): what a child may be
    chained to."""
    if payload is None:
        return None
    if bytes(payload[:len(PLAYED_PAYLOAD_MAGIC)]) == PLAYED_PAYLOAD_MAGIC:
        return 0
    if _is_chained(payload) and len(payload) > len(CHAINED_PAYLOAD_MAGIC) + _HEADER.size:
        depth: int = _HEADER.unpack_from(payload, len(CHAINED_PAYLOAD_MAGIC))[1]
        return depth
    return None


def chained_payload(member: Individual, parent: Individual, parent_id: int, depth: int) -> bytes | None:
    """``member`` stored as its integers minus ``parent``'s, the parent
    being row ``parent_id`` at chain depth ``depth`` - 1; None unless both
    are staged networks of one kind (only those are stored played)."""
    if not 1 <= depth <= CHAIN_LIMIT:
        raise ValueError(f"a chain's depth is 1..{CHAIN_LIMIT}, not {depth}")
    difference = family_of(member).played_difference(member, parent)
    if difference is None:
        return None
    return CHAINED_PAYLOAD_MAGIC + _HEADER.pack(parent_id, depth) + difference


def resolved_payload(s: Session, text: str, payload: bytes | None) -> bytes | None:
    """``payload`` as readers take it: a chained payload becomes the played
    payload it stands for (module docstring); anything else is returned as
    it is.

    Raises:
        NetworkError: a chain that is broken, cut, longer than it says or
            than :data:`CHAIN_LIMIT`, or whose parent is another kind of
            network (the message names the member).
    """
    if not _is_chained(payload):
        return payload
    assert payload is not None
    what = f"{text!r}: the stored weights"
    differences: list[bytes] = []
    current, depth = bytes(payload), None
    while _is_chained(current):
        if len(current) <= len(CHAINED_PAYLOAD_MAGIC) + _HEADER.size:
            raise NetworkError(f"{what} are a chained payload cut short")
        parent_id, stated = _HEADER.unpack_from(current, len(CHAINED_PAYLOAD_MAGIC))
        if not 1 <= stated <= CHAIN_LIMIT or (depth is not None and stated != depth - 1):
            raise NetworkError(f"{what} are a chain of depth {stated} where {depth - 1 if depth else '1..16'} "
                               "was due")
        differences.append(current[len(CHAINED_PAYLOAD_MAGIC) + _HEADER.size:])
        row = s.execute(select(PlayerRow.text, PlayerRow.payload).where(PlayerRow.id == parent_id)).first()
        if row is None or row[1] is None:
            raise NetworkError(f"{what} are chained to player id {parent_id}, which has no stored weights")
        current, depth = bytes(row[1]), stated
        base_text = row[0]
    if depth != 1:
        raise NetworkError(f"{what} are a chain that ends at depth {depth}, not 1")
    base = parse_individual(base_text, current)
    played = family_of(base).played_from_differences(base, differences, what)
    if played is None:
        raise NetworkError(f"{what} are chained to {base_text!r}, which is not a staged network")
    return played
