"""What a breeding method says of a member in a family tree, from the
state its generation stored: the read side's door to the breeders' words.

Each breeding method with words of its own (today pbt-td: the
hyperparameters a slot learned with) has one entry in :data:`SLOT_WORDS`,
a function of the stored breeder state and the slot that answers None for
a state that is not its own. The entries are light modules with no game
code: the read side (:mod:`genethello.cluster.reads.lineage`) imports this
table and never a breeder that learns or plays.
"""

from __future__ import annotations

from collections.abc import Callable

from genethello.cluster.breeding import pbt_td_state
from genethello.cluster.config import BreedingConfig

__all__ = ["LEARNING_GAMES", "SLOT_WORDS", "learning_games", "slot_words"]

#: A breeding method's words for one slot of a generation, by method name:
#: (stored breeder state, slot) -> words, or None where the state is not its own.
SLOT_WORDS: dict[str, Callable[[bytes | None, int], str | None]] = {
    pbt_td_state.METHOD: pbt_td_state.slot_learning,
}


def slot_words(state: bytes | None, slot: int) -> str | None:
    """What the breeding method that stored ``state`` says of slot ``slot``
    (None: nothing, or a state no method's words read). Never raises."""
    for words in SLOT_WORDS.values():
        said = words(state, slot)
        if said is not None:
            return said
    return None


#: A learning method's self-play games a member a generation, by method
#: name (what the web page and a run's header name instead of counting
#: them as games/s: they are not stored one by one).
LEARNING_GAMES: dict[str, Callable[[BreedingConfig], int]] = {
    pbt_td_state.METHOD: lambda breeding: breeding.learning_games,
}


def learning_games(breeding: BreedingConfig) -> int:
    """The self-play games each member learns from a generation under
    ``breeding`` (0: the method does not learn)."""
    games = LEARNING_GAMES.get(breeding.method)
    return games(breeding) if games is not None else 0
