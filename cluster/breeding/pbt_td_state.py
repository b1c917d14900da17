"""pbt-td's stored state, read without its learning: the format of the
breeder state a pbt-td generation keeps, and its lineage words.

The breeder (:mod:`~genethello.cluster.breeding.network_pbt`) writes and
reads this state to learn; the read side only shows it, in words, and
must not import the learning code for that (the read side plays no
games). So the format and the words live here, with nothing of the game.
"""

from __future__ import annotations

from typing import Any

from genethello.core.frontend.errors import UserError
from genethello.core.frontend.user_files import loads_json

__all__ = ["METHOD", "STATE_FORMAT", "MAX_STATE_BYTES", "StoredStateError", "stored_slots", "slot_learning"]

#: The breeder's ``breeding.method`` name, which its state names.
METHOD = "pbt-td"
STATE_FORMAT = 1
#: The largest stored state read (bytes): a slot's hyperparameters take
#: about a hundred.
MAX_STATE_BYTES = 1 << 20


class StoredStateError(UserError):
    """A generation's stored pbt-td state that cannot be learned from (a
    database altered or damaged): one line naming what is wrong."""


def stored_slots(state: bytes) -> list[dict[str, Any]]:
    """The slots of a stored pbt-td state, as JSON objects.

    Raises:
        ValueError: too large, not JSON, or not a pbt-td state of this format.
        TypeError, AttributeError: JSON of another shape.
    """
    if len(state) > MAX_STATE_BYTES:
        raise ValueError(f"it is {len(state)} bytes, more than a pbt-td state holds")
    data = loads_json(bytes(state), "pbt-td state")
    if not isinstance(data, dict):
        raise TypeError("it is not a JSON object")
    if data.get("format") != STATE_FORMAT or data.get("method") != METHOD:
        raise ValueError("not a pbt-td state of format 1")
    slots = data["slots"]
    if not isinstance(slots, list) or not all(isinstance(entry, dict) for entry in slots):
        raise TypeError("its slots are not a list of objects")
    return slots


def slot_learning(state: bytes | None, slot: int) -> str | None:
    """How slot ``slot`` of a generation learned, in words, from the
    generation's stored state (``alpha 0.05 lambda 0.7 epsilon 0.1 depth 1``, then
    ``search 3`` where its targets are searched,
    then ``; perturbed alpha x1.25 ...`` for a copied slot); None for a state
    that is not pbt-td's or does not hold the slot. Never raises: the read
    side shows what a database holds, however it was altered."""
    if state is None or slot < 0:
        return None
    try:
        entry = stored_slots(state)[slot]
        said = (f"alpha {float(entry['alpha']):.4g} lambda {float(entry['lambda']):.4g} "
                f"epsilon {float(entry['epsilon']):.4g} depth {int(entry['depth'])}")
        if entry.get("search_targets"):
            said = f"{said} search {int(entry['search_targets'])}"
        perturbed = entry.get("perturbed")
        return f"{said}; perturbed {str(perturbed)[:200]}" if perturbed else said
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None
